//! POST /api/track and the scripts: storage, enrichment, CORS, every bad input, bots, and the full queue.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::util::{BROWSER_UA, TestServer};

async fn site(server: &TestServer) -> (String, i64, String) {
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Shop", "light").await;
    (token, site["id"].as_i64().unwrap(), site["trackingKey"].as_str().unwrap().to_string())
}

fn event_count(server: &TestServer) -> i64 {
    server.tracker.db().read(|conn| Ok(conn.query_row("SELECT COUNT(*) FROM events", [], |r| r.get(0))?)).unwrap()
}

#[tokio::test]
async fn hits_are_stored_enriched_and_counted() {
    let server = TestServer::start().await;
    let (token, id, key) = site(&server).await;
    let hit = json!({
        "tracking_key": key, "session_id": "visitor-session-1",
        "url": "https://shop.example.com/pricing?utm_source=newsletter&utm_medium=email",
        "referrer": "https://www.google.com/search?q=shop", "event": "pageview",
        "timestamp": chrono::Utc::now().to_rfc3339(), "screen": "1920x1080"
    });
    let response = server
        .client
        .post(server.url("/api/track"))
        .header("user-agent", BROWSER_UA)
        .header("x-forwarded-for", "8.8.8.8")
        .header("origin", "https://shop.example.com")
        .json(&hit)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    assert_eq!(response.headers()["access-control-allow-origin"], "*");
    assert!(response.headers().get("access-control-allow-credentials").is_none());

    let row: (String, String, String, String, String, String, Option<String>) = server
        .tracker
        .db()
        .read(|conn| {
            Ok(conn.query_row(
                "SELECT country, browser, os, device, referrer_host, utm_source, ip_address FROM sessions",
                [],
                |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?)),
            )?)
        })
        .unwrap();
    assert_eq!(row.0, "US", "country from the forwarded client (loopback is a trusted proxy)");
    assert_eq!(row.1, "Chrome");
    assert_eq!(row.2, "Windows");
    assert_eq!(row.3, "desktop");
    assert_eq!(row.4, "google.com");
    assert_eq!(row.5, "newsletter");
    assert_eq!(row.6.as_deref(), Some("8.8.8.0"), "only the anonymised address is kept");

    let custom = json!({"tracking_key": key, "session_id": "visitor-session-1", "url": "https://shop.example.com/pricing",
        "event": "custom", "event_name": "signup_click", "event_properties": {"plan": "pro", "seats": 3, "trial": true}});
    assert_eq!(server.track(custom).await.status, StatusCode::ACCEPTED);
    let conversion = json!({"tracking_key": key, "session_id": "visitor-session-1", "url": "https://shop.example.com/done",
        "event": "conversion", "event_name": "purchase", "event_properties": {"value": 49.99, "currency": "USD"}});
    assert_eq!(server.track(conversion).await.status, StatusCode::ACCEPTED);
    assert_eq!(server.pageview(&key, "visitor-session-2", "/").await.status, StatusCode::ACCEPTED);

    let overview = server.get(&format!("/api/dashboard/overview?website_id={id}"), &token).await;
    assert_eq!(overview.status, StatusCode::OK);
    let metrics = &overview.json["metrics"];
    assert_eq!(metrics["pageViews"], 2);
    assert_eq!(metrics["totalVisitors"], 2, "8.8.8.8 and 127.0.0.1 are two visitors");
    assert_eq!(metrics["conversions"], 1);
    assert_eq!(metrics["activeSessions"], 2);
    assert_eq!(overview.json["topPages"], json!([{"url": "/", "views": 1}, {"url": "/pricing", "views": 1}]));
    let stored: (String, f64, String) = server
        .tracker
        .db()
        .read(|conn| {
            Ok(conn.query_row("SELECT properties, value, currency FROM events WHERE kind = 'conversion'", [], |r| {
                Ok((r.get(0)?, r.get(1)?, r.get(2)?))
            })?)
        })
        .unwrap();
    assert_eq!(stored.1, 49.99);
    assert_eq!(stored.2, "USD");
    let custom_props: String = server
        .tracker
        .db()
        .read(|conn| Ok(conn.query_row("SELECT properties FROM events WHERE kind = 'custom'", [], |r| r.get(0))?))
        .unwrap();
    assert_eq!(
        serde_json::from_str::<Value>(&custom_props).unwrap(),
        json!({"plan": "pro", "seats": 3, "trial": true})
    );
}

#[tokio::test]
async fn every_bad_input_is_a_4xx_json_error_and_nothing_is_stored() {
    let server = TestServer::start().await;
    let (_, _, key) = site(&server).await;
    let base = || json!({"tracking_key": key, "session_id": "session-abcdef", "url": "https://shop.example.com/"});
    let with = |field: &str, value: Value| {
        let mut body = base();
        body[field] = value;
        body
    };
    let many: serde_json::Map<String, Value> = (0..31).map(|i| (format!("p{i}"), json!(i))).collect();
    let cases: Vec<(Value, StatusCode)> = vec![
        (with("tracking_key", json!("no-such-key")), StatusCode::NOT_FOUND),
        (with("url", json!(format!("https://shop.example.com/{}", "a".repeat(2000)))), StatusCode::PAYLOAD_TOO_LARGE),
        (with("referrer", json!(format!("https://r.example.com/{}", "a".repeat(2000)))), StatusCode::PAYLOAD_TOO_LARGE),
        (with("url", json!("javascript:alert(1)")), StatusCode::BAD_REQUEST),
        (with("url", json!("ftp://shop.example.com/")), StatusCode::BAD_REQUEST),
        (with("referrer", json!("file:///etc/passwd")), StatusCode::BAD_REQUEST),
        (with("url", json!("")), StatusCode::BAD_REQUEST),
        (with("session_id", json!("short")), StatusCode::BAD_REQUEST),
        (with("session_id", json!("has spaces in it")), StatusCode::BAD_REQUEST),
        (with("event", json!("teleport")), StatusCode::BAD_REQUEST),
        (with("event", json!("custom")), StatusCode::BAD_REQUEST),
        (with("event_properties", Value::Object(many)), StatusCode::BAD_REQUEST),
        (with("event_properties", json!({"nested": {"a": 1}})), StatusCode::BAD_REQUEST),
        (with("event_properties", json!({"list": [1, 2]})), StatusCode::BAD_REQUEST),
        (with("event_properties", json!([1])), StatusCode::BAD_REQUEST),
        (json!({"session_id": "session-abcdef", "url": "https://shop.example.com/"}), StatusCode::BAD_REQUEST),
        (json!([1, 2, 3]), StatusCode::BAD_REQUEST),
    ];
    for (body, status) in cases {
        let answer = server.track(body.clone()).await;
        assert_eq!(answer.status, status, "{body}: {}", answer.text);
        assert!(!answer.error_message().is_empty());
        assert_eq!(answer.headers["access-control-allow-origin"], "*", "errors are readable cross-origin");
    }
    for raw in ["{", "", "null", "\u{0}"] {
        let response = server.client.post(server.url("/api/track")).body(raw).send().await.unwrap();
        let status = response.status();
        let answer = crate::util::answer(response).await;
        assert!(status.is_client_error(), "{raw:?}: {status}");
        answer.error_message();
    }
    let huge = format!(
        r#"{{"tracking_key":"{key}","session_id":"session-abcdef","url":"https://a.com/","x":"{}"}}"#,
        "a".repeat(17 * 1024)
    );
    let response = server.client.post(server.url("/api/track")).body(huge).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::PAYLOAD_TOO_LARGE);
    crate::util::answer(response).await.error_message();
    assert_eq!(event_count(&server), 0);
}

#[tokio::test]
async fn bots_are_accepted_but_not_stored() {
    let server = TestServer::start().await;
    let (_, _, key) = site(&server).await;
    for ua in [
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
        "curl/8.5.0",
        "",
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
    ] {
        let response = server
            .client
            .post(server.url("/api/track"))
            .header("user-agent", ua)
            .json(&json!({"tracking_key": key, "session_id": "bot-session-1", "url": "https://shop.example.com/"}))
            .send()
            .await
            .unwrap();
        assert_eq!(response.status(), StatusCode::ACCEPTED, "{ua}");
    }
    assert_eq!(event_count(&server), 0);
}

#[tokio::test]
async fn preflight_is_open_and_the_dashboard_api_reflects_no_origin() {
    let server = TestServer::start().await;
    let (token, _, _) = site(&server).await;
    let preflight = crate::capture_util::preflight(&server, "/api/track").await;
    assert!(preflight.status().is_success());
    assert_eq!(preflight.headers()["access-control-allow-origin"], "*");
    assert!(preflight.headers()["access-control-allow-methods"].to_str().unwrap().contains("POST"));

    let api = server
        .client
        .get(server.url("/api/websites"))
        .bearer_auth(&token)
        .header("origin", "https://evil.example")
        .send()
        .await
        .unwrap();
    assert_eq!(api.status(), StatusCode::OK);
    assert!(api.headers().get("access-control-allow-origin").is_none());
}

#[tokio::test]
async fn untrusted_peers_cannot_spoof_their_address() {
    let server = TestServer::start_with(|config| config.trusted_proxies = vec![]).await;
    let (_, _, key) = site(&server).await;
    let response = server
        .client
        .post(server.url("/api/track"))
        .header("user-agent", BROWSER_UA)
        .header("x-forwarded-for", "8.8.8.8")
        .json(&json!({"tracking_key": key, "session_id": "spoof-session", "url": "https://shop.example.com/"}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::ACCEPTED);
    let ip: String = server
        .tracker
        .db()
        .read(|conn| Ok(conn.query_row("SELECT ip_address FROM sessions", [], |r| r.get(0))?))
        .unwrap();
    assert_eq!(ip, "127.0.0.0");
}

#[tokio::test]
async fn a_full_queue_answers_503_with_retry_after_and_loses_nothing() {
    use futures_util::StreamExt;
    let server = TestServer::start_with(|config| {
        config.ingest_queue = 1;
        config.ingest_batch = 1;
    })
    .await;
    let (_, _, key) = site(&server).await;
    // Hold SQLite's write lock so the writer stalls on its first batch and the one-slot queue fills up.
    let blocker = rusqlite::Connection::open(server.tracker.db().path()).unwrap();
    blocker.execute_batch("BEGIN IMMEDIATE").unwrap();
    let mut requests: futures_util::stream::FuturesUnordered<_> = (0..10)
        .map(|i| {
            let request = server.client.post(server.url("/api/track")).header("user-agent", BROWSER_UA).json(
                &json!({"tracking_key": key, "session_id": format!("queued-session-{i}"), "url": "https://shop.example.com/"}),
            );
            async move { request.send().await.unwrap() }
        })
        .collect();
    // Nothing can be stored while the lock is held, so the first answer is a refusal.
    let first = tokio::time::timeout(std::time::Duration::from_secs(5), requests.next()).await.unwrap().unwrap();
    assert_eq!(first.status(), StatusCode::SERVICE_UNAVAILABLE);
    assert_eq!(first.headers()["retry-after"], "1");
    crate::util::answer(first).await.error_message();
    blocker.execute_batch("ROLLBACK").unwrap();
    let mut accepted = 0;
    while let Some(response) = requests.next().await {
        match response.status() {
            StatusCode::ACCEPTED => accepted += 1,
            StatusCode::SERVICE_UNAVAILABLE => {}
            other => panic!("unexpected {other}"),
        }
    }
    assert!(accepted >= 1, "the hits held in the queue are stored once the lock is gone");
    assert_eq!(event_count(&server), accepted, "every 2xx is stored, nothing else");
}

#[tokio::test]
async fn scripts_are_served_personalised_and_unknown_keys_are_404() {
    let server = TestServer::start().await;
    let (_, _, key) = site(&server).await;
    let response = server.client.get(server.url(&format!("/tracking/{key}.js"))).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers()["content-type"].to_str().unwrap().starts_with("application/javascript"));
    assert!(response.headers()["cache-control"].to_str().unwrap().contains("max-age=300"));
    let body = response.text().await.unwrap();
    assert!(body.contains(&key), "the tracking key is inlined");
    assert!(body.contains("window.tracker") || body.contains("tracker"), "exposes window.tracker");
    let unknown = server.client.get(server.url("/tracking/nope-nope-nope.js")).send().await.unwrap();
    assert_eq!(unknown.status(), StatusCode::NOT_FOUND);
    crate::util::answer(unknown).await.error_message();
    for path in ["/tracking.js", "/tracer.js"] {
        let response = server.client.get(server.url(path)).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::OK, "{path}");
    }
}
