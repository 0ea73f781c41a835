//! The dashboard reads beyond the overview (timeseries, recent activity, per-site periods, conversions,
//! identified visitors, traffic sources, export) against a real daemon on a port-0 listener, seeded through
//! POST /api/track with known counts; plus auth and cross-tenant checks on every one of them.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::util::TestServer;

/// A second browser: visitors are told apart by address and user agent, so session two is its own visitor.
const FIREFOX_UA: &str = "Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0";

/// GET with a token, asserting 200; the JSON body.
async fn get_json(server: &TestServer, token: &str, path: &str) -> Value {
    let answer = server.get(path, token).await;
    assert_eq!(answer.status, StatusCode::OK, "GET {path}: {}", answer.text);
    answer.json
}

/// Sends a hit, from Firefox for session two and from the harness's Chrome otherwise.
async fn track(server: &TestServer, body: Value) {
    let answer = if body["session_id"] == "session-two" {
        let response = server
            .client
            .post(server.url("/api/track"))
            .header("user-agent", FIREFOX_UA)
            .json(&body)
            .send()
            .await
            .expect("track");
        crate::util::answer(response).await
    } else {
        server.track(body.clone()).await
    };
    assert_eq!(answer.status, StatusCode::ACCEPTED, "track {body}: {}", answer.text);
}

/// A professional site with two visitors: s1 (two page views, one from Hacker News; a custom event; a
/// purchase of 49.99 USD) and s2 (one direct page view; identified as Acme Retail).
async fn seeded() -> (TestServer, String, i64) {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Shop", "professional").await;
    let id = site["id"].as_i64().unwrap();
    let key = site["trackingKey"].as_str().unwrap();
    let hit = |session: &str, url: &str, extra: Value| {
        let mut body = json!({"tracking_key": key, "session_id": session, "url": url});
        body.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
        body
    };
    track(
        &server,
        hit("session-one", "https://shop.example/", json!({"referrer": "https://news.ycombinator.com/item?id=1"})),
    )
    .await;
    track(&server, hit("session-one", "https://shop.example/pricing", json!({}))).await;
    track(
        &server,
        hit(
            "session-one",
            "https://shop.example/pricing",
            json!({"event": "custom", "event_name": "button_click", "event_properties": {"button": "signup"}}),
        ),
    )
    .await;
    track(&server, hit("session-one", "https://shop.example/pricing", json!({"event": "conversion", "event_name": "purchase", "event_properties": {"value": 49.99, "currency": "USD"}}))).await;
    track(&server, hit("session-two", "https://shop.example/", json!({}))).await;
    track(
        &server,
        hit(
            "session-two",
            "https://shop.example/",
            json!({"event": "identify", "event_properties": {"company": "Acme", "industry": "Retail"}}),
        ),
    )
    .await;
    (server, token, id)
}

fn today() -> String {
    chrono::Utc::now().format("%Y-%m-%d").to_string()
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn timeseries_has_one_point_per_day_with_todays_traffic_last() {
    let (server, token, id) = seeded().await;
    let body = get_json(&server, &token, &format!("/api/dashboard/timeseries?website_id={id}&range=7d")).await;
    let points = body["points"].as_array().unwrap();
    assert_eq!(points.len(), 7);
    let last = points.last().unwrap();
    assert_eq!(last["date"], today());
    assert_eq!(last["pageViews"], 3);
    assert_eq!(last["visitors"], 2);
    assert!(points[..6].iter().all(|p| p["pageViews"] == 0 && p["visitors"] == 0));
    for (range, len) in [("30d", 30), ("90d", 90)] {
        let body = get_json(&server, &token, &format!("/api/dashboard/timeseries?website_id={id}&range={range}")).await;
        assert_eq!(body["points"].as_array().unwrap().len(), len);
    }
    let bad = server.get(&format!("/api/dashboard/timeseries?website_id={id}&range=2w"), &token).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn recent_activity_is_newest_first_and_limited() {
    let (server, token, id) = seeded().await;
    let rows = get_json(&server, &token, &format!("/api/dashboard/recent-activity?website_id={id}&limit=10")).await;
    let rows = rows.as_array().unwrap();
    let types: Vec<&str> = rows.iter().map(|r| r["type"].as_str().unwrap()).collect();
    assert_eq!(types.iter().filter(|t| **t == "pageview").count(), 3);
    assert!(types.contains(&"custom") && types.contains(&"conversion"));
    assert!(!types.contains(&"identify"), "identify is not activity: {types:?}");
    let stamps: Vec<&str> = rows.iter().map(|r| r["timestamp"].as_str().unwrap()).collect();
    assert!(stamps.windows(2).all(|w| w[0] >= w[1]), "newest first: {stamps:?}");
    let purchase = rows.iter().find(|r| r["type"] == "conversion").unwrap();
    assert_eq!(purchase["name"], "purchase");
    assert_eq!(purchase["value"], 49.99);
    assert_eq!(purchase["sessionId"], "session-one");
    assert_eq!(purchase["url"], "https://shop.example/pricing");
    let two = get_json(&server, &token, &format!("/api/dashboard/recent-activity?website_id={id}&limit=2")).await;
    assert_eq!(two.as_array().unwrap().len(), 2);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn site_periods_follow_the_chosen_metric() {
    let (server, token, id) = seeded().await;
    let views = get_json(&server, &token, "/api/dashboard/sites?metric=pageviews").await;
    assert_eq!(views, json!([{"websiteId": id, "today": 3, "yesterday": 0, "last7Days": 3, "last30Days": 3}]));
    let visitors = get_json(&server, &token, "/api/dashboard/sites?metric=visitors").await;
    assert_eq!(visitors, json!([{"websiteId": id, "today": 2, "yesterday": 0, "last7Days": 2, "last30Days": 2}]));
    assert_eq!(get_json(&server, &token, "/api/dashboard/sites").await, views);
    let bad = server.get("/api/dashboard/sites?metric=bounces", &token).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn conversions_sources_and_identified_visitors() {
    let (server, token, id) = seeded().await;
    let conv = get_json(&server, &token, &format!("/api/websites/{id}/conversions")).await;
    assert_eq!(conv["conversionRate"], 50.0);
    let list = conv["conversions"].as_array().unwrap();
    assert_eq!(list.len(), 1);
    assert_eq!(list[0]["goalName"], "purchase");
    assert_eq!(list[0]["value"], 49.99);
    assert!(list[0]["timestamp"].as_str().unwrap().ends_with('Z'));

    let sources = get_json(&server, &token, &format!("/api/websites/{id}/traffic-sources")).await;
    let mut sources = sources.as_array().unwrap().clone();
    sources.sort_by_key(|s| s["source"].as_str().unwrap().to_string());
    assert_eq!(
        sources,
        vec![
            json!({"source": "Direct", "visits": 1, "percentage": 50.0}),
            json!({"source": "Hacker News", "visits": 1, "percentage": 50.0}),
        ]
    );

    let identified = get_json(&server, &token, &format!("/api/websites/{id}/identified-visitors")).await;
    let identified = identified.as_array().unwrap();
    assert_eq!(identified.len(), 1);
    assert_eq!(identified[0]["companyName"], "Acme");
    assert_eq!(identified[0]["industry"], "Retail");
    let score = identified[0]["leadScore"].as_i64().unwrap();
    assert!((0..=100).contains(&score));
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn export_downloads_csv_or_answers_json() {
    let (server, token, id) = seeded().await;
    let csv = server.get(&format!("/api/websites/{id}/export?format=csv"), &token).await;
    assert_eq!(csv.status, StatusCode::OK);
    assert!(csv.headers["content-type"].to_str().unwrap().starts_with("text/csv"));
    assert_eq!(
        csv.headers["content-disposition"].to_str().unwrap(),
        format!("attachment; filename=\"analytics-{id}.csv\"")
    );
    let lines: Vec<&str> = csv.text.lines().collect();
    // The columns of every export (core::export, shared with `tracker export`; daemon/API.md "Export").
    assert_eq!(
        lines[0],
        "timestamp,type,name,url,path,referrer,session_id,country,device,browser,os,utm_source,utm_medium,utm_campaign,properties"
    );
    // Six hits, less the identify: its traits are never exported.
    assert_eq!(lines.len(), 1 + 5, "{}", csv.text);
    assert!(lines.iter().any(|l| l.contains(",conversion,purchase,") && l.contains("49.99")));
    let json = get_json(&server, &token, &format!("/api/websites/{id}/export?format=json")).await;
    assert_eq!(json.as_array().unwrap().len(), 5);
}

#[tokio::test(flavor = "multi_thread", worker_threads = 2)]
async fn every_read_needs_a_token_and_hides_other_users_sites() {
    let (server, _owner, id) = seeded().await;
    let (other, _) = server.register("other@example.com").await;
    let paths = [
        format!("/api/dashboard/timeseries?website_id={id}&range=7d"),
        format!("/api/dashboard/recent-activity?website_id={id}"),
        format!("/api/websites/{id}/conversions"),
        format!("/api/websites/{id}/identified-visitors"),
        format!("/api/websites/{id}/traffic-sources"),
        format!("/api/websites/{id}/export?format=csv"),
    ];
    for path in &paths {
        let answer = server.get(path, &other).await;
        assert_eq!(answer.status, StatusCode::NOT_FOUND, "{path}");
        assert_eq!(answer.error_message(), "website not found", "{path}");
        let anonymous = server.call(Method::GET, path, None, None).await;
        assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED, "{path}");
    }
    assert_eq!(get_json(&server, &other, "/api/dashboard/sites").await, json!([]));
    let anonymous = server.call(Method::GET, "/api/dashboard/sites", None, None).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
    let missing = server.get("/api/dashboard/timeseries?website_id=999999", &other).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND);
}

#[tokio::test]
async fn breakdown_answers_any_dimension_and_refuses_bad_parameters() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Shop", "light").await;
    let (id, key) = (site["id"].as_i64().unwrap(), site["trackingKey"].as_str().unwrap().to_string());
    for (session, path) in [("session-0001", "/a"), ("session-0001", "/b"), ("session-0002", "/a")] {
        assert_eq!(server.pageview(&key, session, path).await.status, StatusCode::ACCEPTED);
    }
    let pages = server.get(&format!("/api/websites/{id}/breakdown/page?range=7d"), &token).await;
    assert_eq!(pages.status, StatusCode::OK, "{}", pages.text);
    assert_eq!(pages.json["measure"], "pageviews");
    assert_eq!(pages.json["rows"][0], json!({"value": "/a", "count": 2}));
    assert_eq!(pages.json["rows"][1], json!({"value": "/b", "count": 1}));
    let browsers = server.get(&format!("/api/websites/{id}/breakdown/browser?limit=1"), &token).await;
    assert_eq!(browsers.json["measure"], "visits");
    assert_eq!(browsers.json["rows"].as_array().unwrap().len(), 1, "{}", browsers.text);
    assert_eq!(browsers.json["rows"][0]["count"], 2);

    for bad in ["breakdown/nope", "breakdown/page?limit=0", "breakdown/page?limit=x", "breakdown/page?range=2y"] {
        let answer = server.get(&format!("/api/websites/{id}/{bad}"), &token).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{bad}: {}", answer.text);
        answer.error_message();
    }
    let (other, _) = server.register("other@example.com").await;
    let foreign = server.get(&format!("/api/websites/{id}/breakdown/page"), &other).await;
    assert_eq!(foreign.status, StatusCode::NOT_FOUND);
}
