//! Helpers of the capture tests (privacy, heatmaps, replays, events, organizations): visitor calls with
//! custom headers, gzip chunks and direct counts in the database.

#![allow(dead_code)]

use std::io::Write;

use flate2::Compression;
use flate2::write::GzEncoder;
use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::util::{Answer, BROWSER_UA, TestServer, answer};

/// A signed-in user with one website of `level`: (token, website id, tracking key).
pub async fn owner_with_site(server: &TestServer, email: &str, level: &str) -> (String, i64, String) {
    let (token, _) = server.register(email).await;
    let site = server.create_site(&token, "Shop", level).await;
    (token, site["id"].as_i64().unwrap(), site["trackingKey"].as_str().unwrap().to_string())
}

/// POSTs a visitor body to `path` as a browser would, with extra headers.
pub async fn visitor_post(server: &TestServer, path: &str, body: Vec<u8>, headers: &[(&str, &str)]) -> Answer {
    let mut request = server
        .client
        .post(server.url(path))
        .header("user-agent", BROWSER_UA)
        .header("content-type", "text/plain")
        .body(body);
    for (name, value) in headers {
        request = request.header(*name, *value);
    }
    answer(request.send().await.expect("visitor request")).await
}

/// A tracking hit with extra headers.
pub async fn track_with(server: &TestServer, body: Value, headers: &[(&str, &str)]) -> Answer {
    visitor_post(server, "/api/track", body.to_string().into_bytes(), headers).await
}

/// An interactions body.
pub async fn interactions(server: &TestServer, body: Value) -> Answer {
    visitor_post(server, "/api/interactions", body.to_string().into_bytes(), &[]).await
}

/// Uploads a replay chunk (already gzipped) with `extra` query parameters.
pub async fn upload_chunk(
    server: &TestServer,
    key: &str,
    session: &str,
    seq: i64,
    gzip: Vec<u8>,
    extra: &str,
) -> Answer {
    let path = format!("/api/replay?tracking_key={key}&session_id={session}&seq={seq}{extra}");
    let response = server
        .client
        .post(server.url(&path))
        .header("user-agent", BROWSER_UA)
        .header("content-type", "application/octet-stream")
        .body(gzip)
        .send()
        .await
        .expect("replay upload");
    answer(response).await
}

/// A browser's CORS preflight for a POST with a JSON body to a visitor endpoint.
pub async fn preflight(server: &TestServer, path: &str) -> reqwest::Response {
    server
        .client
        .request(reqwest::Method::OPTIONS, server.url(path))
        .header("origin", "https://shop.example.com")
        .header("access-control-request-method", "POST")
        .header("access-control-request-headers", "content-type")
        .send()
        .await
        .unwrap()
}

pub fn gzip(bytes: &[u8]) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
    encoder.write_all(bytes).unwrap();
    encoder.finish().unwrap()
}

/// rrweb events of a short recording starting at `start` ms: meta (1280x720), full snapshot, `clicks`
/// clicks, one mouse move, spread over `seconds`.
pub fn rrweb_events(start: i64, seconds: i64, clicks: usize) -> Value {
    let mut events = vec![
        json!({"type": 4, "data": {"href": "https://shop.example.com/", "width": 1280, "height": 720}, "timestamp": start}),
        json!({"type": 2, "data": {"node": {"type": 0, "childNodes": [], "id": 1}, "initialOffset": {"left": 0, "top": 0}}, "timestamp": start + 1}),
    ];
    for i in 0..clicks {
        events.push(json!({"type": 3, "data": {"source": 2, "type": 2, "id": 7, "x": 10 + i, "y": 20}, "timestamp": start + 10 + i as i64}));
    }
    events.push(json!({"type": 3, "data": {"source": 1, "positions": [{"x": 1, "y": 2, "id": 7, "timeOffset": 0}]}, "timestamp": start + seconds * 1000}));
    Value::Array(events)
}

/// One number from the database (`?1`, where the query has it, is bound to `id`).
pub fn count(server: &TestServer, sql: &str, id: i64) -> i64 {
    let sql = sql.to_string();
    server
        .tracker
        .db()
        .read(move |conn| {
            let value = if sql.contains("?1") {
                conn.query_row(&sql, [id], |r| r.get::<_, i64>(0))?
            } else {
                conn.query_row(&sql, [], |r| r.get::<_, i64>(0))?
            };
            Ok(value)
        })
        .expect("count query")
}

/// Asserts a 404 with the JSON error body.
pub fn assert_not_found(answer: &Answer, what: &str) {
    assert_eq!(answer.status, StatusCode::NOT_FOUND, "{what}: {}", answer.text);
    answer.error_message();
}

/// Asserts a CORS-open answer.
pub fn assert_cors(answer: &Answer) {
    assert_eq!(
        answer.headers.get("access-control-allow-origin").and_then(|v| v.to_str().ok()),
        Some("*"),
        "CORS header on {}: {}",
        answer.status,
        answer.text
    );
}
