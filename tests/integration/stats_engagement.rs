//! The Stats API's page figures through HTTP: `scroll_depth` (page views scrolled to known depths) and
//! `time_on_page` (page views at known instants), averaged per visit and page as Plausible defines them, and
//! Plausible's refusal without a page filter or dimension.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::capture_util::{interactions, owner_with_site, track_with};
use crate::util::{Answer, TestServer};

/// A Stats API query of the site `domain` for visits and `metric` over 7 days, with `extra`'s fields added.
async fn query(server: &TestServer, token: &str, domain: &str, metric: &str, extra: Value) -> Answer {
    let mut body = json!({"site_id": domain, "metrics": ["visits", metric], "date_range": "7d"});
    body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    server.post("/api/v2/query", token, body).await
}

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
    let ask = |extra: Value| query(&server, &token, "read.example", "scroll_depth", extra);
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
    assert_eq!(by_source.status, StatusCode::OK, "{}", by_source.text);
    assert_eq!(by_source.json["results"], json!([{"metrics": [2, 50], "dimensions": ["Direct / None"]}]), "by source");
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn time_on_page_is_each_visits_time_on_a_page_averaged_in_whole_seconds() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "time@example.com", "light").await;
    let renamed = server.put(&format!("/api/websites/{site}"), &token, json!({"domain": "time.example"})).await;
    assert_eq!(renamed.status, StatusCode::OK, "{}", renamed.text);
    // Visit one: /post, /about at 40 s, /post at 100 s, an event at 130 s: /post 40 + 30 s, /about 60 s.
    // Visit two: /post, /pricing at 19 s: /post 19 s, /pricing untimed (nothing after it).
    let start = chrono::Utc::now().timestamp_millis() - 2 * 3_600_000;
    for (session, ip, hits) in [
        (
            "time-one-1",
            "203.0.113.1",
            &[("/post", 0, ""), ("/about", 40, ""), ("/post", 100, ""), ("/post", 130, "share")][..],
        ),
        ("time-two-2", "203.0.113.2", &[("/post", 600, ""), ("/pricing", 619, "")]),
    ] {
        for &(path, at, event) in hits {
            let mut body = json!({"tracking_key": key, "session_id": session,
                "url": format!("https://time.example{path}"), "timestamp": start + at * 1000});
            if !event.is_empty() {
                body["event"] = json!("custom");
                body["event_name"] = json!(event);
            }
            let answer = track_with(&server, body, &[("x-forwarded-for", ip)]).await;
            assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
        }
    }
    let ask = |extra: Value| query(&server, &token, "time.example", "time_on_page", extra);
    let pages = ask(json!({"dimensions": ["event:page"], "order_by": [["event:page", "asc"]]})).await;
    assert_eq!(pages.status, StatusCode::OK, "{}", pages.text);
    assert_eq!(
        pages.json["results"],
        json!([
            {"metrics": [1, 60], "dimensions": ["/about"]},
            {"metrics": [2, 44], "dimensions": ["/post"]},
            {"metrics": [1, null], "dimensions": ["/pricing"]}
        ]),
        "(70 + 19) / 2 = 44.5 on /post, rounded half to even as Plausible's ClickHouse rounds"
    );
    let post = ask(json!({"filters": [["is", "event:page", ["/post"]]]})).await;
    assert_eq!(post.json["results"], json!([{"metrics": [2, 44], "dimensions": []}]), "{}", post.text);
    let by_source = ask(json!({"dimensions": ["visit:source"], "filters": [["is", "event:page", ["/about"]]]})).await;
    assert_eq!(
        by_source.json["results"],
        json!([{"metrics": [1, 60], "dimensions": ["Direct / None"]}]),
        "{}",
        by_source.text
    );
    let nowhere = ask(json!({"filters": [["is", "event:page", ["/nowhere"]]]})).await;
    assert_eq!(nowhere.json["results"], json!([{"metrics": [0, null], "dimensions": []}]), "{}", nowhere.text);

    let refused = ask(json!({"dimensions": ["visit:source"]})).await;
    assert_eq!(refused.status, StatusCode::BAD_REQUEST);
    assert_eq!(
        refused.error_message(),
        "metrics: Metric `time_on_page` can only be queried with event:page filters or dimensions."
    );
}
