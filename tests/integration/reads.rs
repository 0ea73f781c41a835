//! Dashboard reads from the rollups (overview, referrers, countries) and the live SSE stream.

use std::time::Duration;

use futures_util::StreamExt;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::util::{BROWSER_UA, TestServer};

async fn hit(server: &TestServer, key: &str, session: &str, path: &str, referrer: &str, ip: &str) {
    let response = server
        .client
        .post(server.url("/api/track"))
        .header("user-agent", BROWSER_UA)
        .header("x-forwarded-for", ip)
        .json(&json!({"tracking_key": key, "session_id": session, "url": format!("https://s.example.com{path}"), "referrer": referrer}))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::ACCEPTED);
}

#[tokio::test]
async fn overview_referrers_and_countries_add_up() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Reads", "light").await;
    let (id, key) = (site["id"].as_i64().unwrap(), site["trackingKey"].as_str().unwrap().to_string());
    hit(&server, &key, "session-us-1", "/", "https://www.google.com/", "8.8.8.8").await;
    hit(&server, &key, "session-us-1", "/pricing", "https://s.example.com/", "8.8.8.8").await;
    hit(&server, &key, "session-au-1", "/", "https://news.ycombinator.com/item", "1.1.1.1").await;
    hit(&server, &key, "session-de-1", "/", "", "2a01:4f8::1").await;

    let overview = server.get(&format!("/api/dashboard/overview?website_id={id}"), &token).await;
    assert_eq!(overview.status, StatusCode::OK);
    let m = &overview.json["metrics"];
    assert_eq!((m["totalVisitors"].as_i64(), m["pageViews"].as_i64()), (Some(3), Some(4)));
    assert_eq!(m["bounceRate"].as_f64(), Some(66.7), "two of three visits saw one page");
    assert_eq!(overview.json["previous"], json!({"totalVisitors": 0, "pageViews": 0, "conversions": 0}));
    assert_eq!(overview.json["topPages"][0], json!({"url": "/", "views": 3}));

    let referrers = server.get(&format!("/api/websites/{id}/referrers"), &token).await;
    let mut referrers: Vec<(String, i64)> = referrers
        .json
        .as_array()
        .unwrap()
        .iter()
        .map(|r| (r["referrer"].as_str().unwrap().to_string(), r["count"].as_i64().unwrap()))
        .collect();
    referrers.sort();
    assert_eq!(referrers, vec![("".into(), 1), ("google.com".into(), 1), ("news.ycombinator.com".into(), 1)]);

    let countries = server.get(&format!("/api/websites/{id}/countries?range=7d"), &token).await;
    let mut countries: Vec<String> =
        countries.json.as_array().unwrap().iter().map(|c| c["country"].as_str().unwrap().to_string()).collect();
    countries.sort();
    assert_eq!(countries, vec!["AU", "DE", "US"]);

    for range in ["1d", "24h", "7d", "30d", "90d", "365d"] {
        let answer = server.get(&format!("/api/dashboard/overview?website_id={id}&range={range}"), &token).await;
        assert_eq!(answer.status, StatusCode::OK, "{range}");
        assert_eq!(answer.json["metrics"]["pageViews"], 4, "{range}");
    }
    for bad in ["range=2w", "website_id=abc", "website_id=", ""] {
        let path = if bad.starts_with("range") {
            format!("/api/dashboard/overview?website_id={id}&{bad}")
        } else {
            format!("/api/dashboard/overview?{bad}")
        };
        let answer = server.get(&path, &token).await;
        assert!(answer.status.is_client_error(), "{bad}: {}", answer.status);
        answer.error_message();
    }
}

/// Reads the next `data:` payload of an SSE response body.
async fn next_message(
    stream: &mut (impl futures_util::Stream<Item = reqwest::Result<bytes::Bytes>> + Unpin),
    buffer: &mut String,
) -> Value {
    next_message_within(stream, buffer, Duration::from_secs(10)).await
}

/// Reads the next `data:` payload of an SSE response body, failing when none comes `within`.
pub(crate) async fn next_message_within(
    stream: &mut (impl futures_util::Stream<Item = reqwest::Result<bytes::Bytes>> + Unpin),
    buffer: &mut String,
    within: Duration,
) -> Value {
    let deadline = tokio::time::Instant::now() + within;
    loop {
        if let Some(end) = buffer.find("\n\n") {
            let frame: String = buffer.drain(..end + 2).collect();
            if let Some(data) = frame.lines().find_map(|l| l.strip_prefix("data:")) {
                return serde_json::from_str(data.trim()).expect("JSON message");
            }
            continue; // a keep-alive comment
        }
        let chunk = tokio::time::timeout_at(deadline, stream.next())
            .await
            .unwrap_or_else(|_| panic!("a live message within {within:?}"))
            .expect("stream open")
            .unwrap();
        buffer.push_str(&String::from_utf8_lossy(&chunk));
    }
}

#[tokio::test]
async fn live_stream_sends_a_snapshot_then_changes() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Live", "light").await;
    let (id, key) = (site["id"].as_i64().unwrap(), site["trackingKey"].as_str().unwrap().to_string());
    let ticket = server.post("/api/dashboard/live/ticket", &token, json!({})).await;
    let ticket = ticket.json["ticket"].as_str().expect("a stream ticket").to_string();
    let response = server
        .client
        .get(server.url(&format!("/api/dashboard/live?website_id={id}&ticket={ticket}")))
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert!(response.headers()["content-type"].to_str().unwrap().starts_with("text/event-stream"));
    let mut stream = response.bytes_stream();
    let mut buffer = String::new();
    let snapshot = next_message(&mut stream, &mut buffer).await;
    assert_eq!(snapshot, json!({"type": "active_sessions", "data": []}));

    hit(&server, &key, "live-session-12345678", "/landing", "", "8.8.4.4").await;
    let update = next_message(&mut stream, &mut buffer).await;
    assert_eq!(update["type"], "active_sessions");
    let sessions = update["data"].as_array().unwrap();
    assert_eq!(sessions.len(), 1);
    assert_eq!(sessions[0]["sessionId"], "live-session-12345678");
    assert_eq!(sessions[0]["currentPage"], "/landing");
    assert_eq!(sessions[0]["ipAddress"], "8.8.4.0");
    assert!(sessions[0]["lastSeen"].as_str().unwrap().ends_with('Z'));
    assert!(sessions[0]["id"].is_i64());
}

#[tokio::test]
async fn live_stream_checks_its_token() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Live", "light").await;
    let id = site["id"].as_i64().unwrap();
    for query in [format!("website_id={id}"), format!("website_id={id}&token=forged.token.value")] {
        let response = server.client.get(server.url(&format!("/api/dashboard/live?{query}"))).send().await.unwrap();
        assert_eq!(response.status(), StatusCode::UNAUTHORIZED, "{query}");
        crate::util::answer(response).await.error_message();
    }
    let header = server
        .client
        .get(server.url(&format!("/api/dashboard/live?website_id={id}")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(header.status(), StatusCode::OK, "a bearer header works too");
}
