//! The Stats API's `scroll_depth` through HTTP: page views scrolled to known depths, averaged per visit and
//! page as Plausible defines it, and Plausible's refusal without a page filter or dimension.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::capture_util::{interactions, owner_with_site};
use crate::util::TestServer;

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn scroll_depth_is_each_visits_deepest_scroll_averaged_per_page() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "scroll@example.com", "enhanced").await;
    let renamed = server.put(&format!("/api/websites/{site}"), &token, json!({"domain": "read.example"})).await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.text);
    // Visit one reads /post to 30 then 80 percent and /about to 40; visit two reads /post to 20.
    for (session, path, depths) in
        [("scroll-one-1", "/post", &[30, 80][..]), ("scroll-one-1", "/about", &[40]), ("scroll-two-2", "/post", &[20])]
    {
        assert_eq!(server.pageview(&key, session, path).await.status, StatusCode::ACCEPTED);
        for depth in depths {
            let body = json!({"tracking_key": key, "session_id": session, "url": format!("https://read.example{path}"),
                "viewport": {"w": 1280, "h": 720}, "page": {"w": 1280, "h": 4000}, "scrollDepth": depth});
            let answer = interactions(&server, body).await;
            assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
        }
    }
    let ask = |extra: Value| {
        let (server, token) = (&server, token.clone());
        async move {
            let mut body =
                json!({"site_id": "read.example", "metrics": ["visits", "scroll_depth"], "date_range": "7d"});
            body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
            server.post("/api/v2/query", &token, body).await
        }
    };
    let pages = ask(json!({"dimensions": ["event:page"], "order_by": [["event:page", "asc"]]})).await;
    assert_eq!(pages.status, StatusCode::OK, "{}", pages.text);
    assert_eq!(
        pages.json["results"],
        json!([{"metrics": [1, 40], "dimensions": ["/about"]}, {"metrics": [2, 50], "dimensions": ["/post"]}]),
        "(80 + 20) / 2 on /post"
    );
    let post = ask(json!({"filters": [["is", "event:page", ["/post"]]]})).await;
    assert_eq!(post.json["results"], json!([{"metrics": [2, 50], "dimensions": []}]), "{}", post.text);

    let refused = ask(json!({})).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        refused.error_message(),
        "metrics: Metric `scroll_depth` can only be queried with event:page filters or dimensions."
    );
    let by_source = ask(json!({"dimensions": ["visit:source"], "filters": [["is", "event:page", ["/post"]]]})).await;
    assert_eq!(by_source.status, StatusCode::BAD_REQUEST, "{}", by_source.text);
}
