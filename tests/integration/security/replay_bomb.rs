//! Finding 2 of issue 12, "A visitor can plant a replay that takes the daemon down": small uploads inflating
//! to a huge recording, and a read that built the whole recording as a JSON tree. Recordings are capped once
//! inflated, absurd compression ratios are refused, and the events are streamed chunk by chunk.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::capture_util::{count, gzip, owner_with_site, rrweb_events, track_with, upload_chunk};
use crate::util::TestServer;

/// A site with one tracked visit: (token, site, key).
async fn site_with_visit(server: &TestServer, email: &str, session: &str) -> (String, i64, String) {
    let (token, site, key) = owner_with_site(server, email, "professional").await;
    let page = json!({"tracking_key": key, "session_id": session, "url": "https://shop.example.com/"});
    assert_eq!(track_with(server, page, &[]).await.status, StatusCode::ACCEPTED);
    (token, site, key)
}

/// About `size` bytes of rrweb mutation events that gzip like a busy page does (tens of times, not
/// thousands): repeated markup with a varying number every event.
fn busy_page_events(size: usize) -> Vec<u8> {
    let mut json = String::with_capacity(size + 1024);
    json.push('[');
    let mut state: u64 = 0x2545_f491_4f6c_dd1d;
    let mut i = 0u64;
    while json.len() < size {
        state ^= state << 13;
        state ^= state >> 7;
        state ^= state << 17;
        if i > 0 {
            json.push(',');
        }
        json.push_str(&format!(
            r#"{{"type":3,"data":{{"source":0,"texts":[],"removes":[],"adds":[],"attributes":[{{"id":{},"attributes":{{"class":"product-card product-card--featured grid-item grid-item--wide","style":"transform: translate({}px, {}px)"}}}}]}},"timestamp":{}}}"#,
            state % 100_000,
            state % 997,
            (state >> 20) % 991,
            1_700_000_000_000 + i as i64
        ));
        i += 1;
    }
    json.push(']');
    json.into_bytes()
}

#[tokio::test]
async fn replay_bomb_is_refused_past_the_inflated_cap() {
    let server = TestServer::start().await;
    let session = "replay-bomb-visit-01";
    let (token, site, key) = site_with_visit(&server, "bomb@example.com", session).await;
    // 7.5 MiB per chunk inflates within the 8 MiB chunk bound and the ratio bound; eight make 60 MiB, the
    // ninth would pass 64 MiB.
    let events = busy_page_events(7 * 1024 * 1024 + 512 * 1024);
    let chunk = gzip(&events);
    let ratio = events.len() / chunk.len();
    assert!(chunk.len() < 512 * 1024 && (5..100).contains(&ratio), "{} bytes, ratio {ratio}", chunk.len());
    for seq in 0..8 {
        let answer = upload_chunk(&server, &key, session, seq, chunk.clone(), "").await;
        assert_eq!(answer.status, StatusCode::ACCEPTED, "chunk {seq}: {}", answer.text);
    }
    let refused = upload_chunk(&server, &key, session, 8, chunk.clone(), "").await;
    assert_eq!(refused.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", refused.text);
    assert!(refused.error_message().contains("64 MiB"), "{}", refused.text);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM replay_chunks", 0), 8);
    assert_eq!(
        count(&server, "SELECT inflated_size FROM replays WHERE website_id = ?1", site),
        8 * events.len() as i64
    );

    // What was accepted is still served whole.
    let list = server.get(&format!("/api/websites/{site}/session-replays"), &token).await;
    let replay = list.json[0]["id"].as_i64().unwrap();
    let read = server.get(&format!("/api/replays/{replay}/events"), &token).await;
    assert_eq!(read.status, StatusCode::OK);
    let per_chunk = serde_json::from_slice::<Value>(&events).unwrap().as_array().unwrap().len();
    assert_eq!(read.json["events"].as_array().unwrap().len(), 8 * per_chunk);
}

#[tokio::test]
async fn replay_with_absurd_compression_ratio_is_refused() {
    let server = TestServer::start().await;
    let session = "replay-ratio-visit-01";
    let (_, _, key) = site_with_visit(&server, "ratio@example.com", session).await;
    // 2 MiB of empty events: under the 8 MiB chunk bound, but a 2 KiB upload costing a thousand times more.
    let padding = format!("[{}{{}}]", "{},".repeat(700_000));
    let bomb = gzip(padding.as_bytes());
    assert!(padding.len() / bomb.len() > 500, "ratio {}", padding.len() / bomb.len());
    let answer = upload_chunk(&server, &key, session, 0, bomb, "").await;
    assert_eq!(answer.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", answer.text);
    assert!(answer.error_message().contains("100 times"), "{}", answer.text);
    assert_eq!(answer.headers["access-control-allow-origin"], "*");
    assert_eq!(count(&server, "SELECT COUNT(*) FROM replay_chunks", 0), 0);

    // Real recordings compress far less and pass, even big ones; tiny chunks are not held to the ratio.
    let busy = busy_page_events(1024 * 1024);
    assert_eq!(upload_chunk(&server, &key, session, 0, gzip(&busy), "").await.status, StatusCode::ACCEPTED);
    assert_eq!(upload_chunk(&server, &key, session, 1, gzip(b"[]"), "").await.status, StatusCode::ACCEPTED);
}

#[tokio::test]
async fn replay_events_stream_is_valid_json_of_every_chunk() {
    let server = TestServer::start().await;
    let session = "replay-stream-visit-1";
    let (token, site, key) = site_with_visit(&server, "stream@example.com", session).await;
    let start = chrono::Utc::now().timestamp_millis() - 60_000;
    let first = rrweb_events(start, 5, 2);
    let text = json!([{"type": 3, "data": {"source": 0, "texts": [{"id": 4, "value": "ünïcode ] [ , \" \\ {}"}]},
                       "timestamp": start + 6_000}]);
    let last = json!([{"type": 3, "data": {"source": 1, "positions": []}, "timestamp": start + 9_000}]);
    // Stored bytes as uploaded: padded arrays, an empty chunk between, out of order.
    let chunks: Vec<(i64, Vec<u8>)> = vec![
        (3, format!("\n [ {} ]\t", last[0]).into_bytes()),
        (0, first.to_string().into_bytes()),
        (1, b" [ ] ".to_vec()),
        (2, text.to_string().into_bytes()),
        (4, b"[]".to_vec()),
    ];
    for (seq, json) in chunks {
        let answer = upload_chunk(&server, &key, session, seq, gzip(&json), "").await;
        assert_eq!(answer.status, StatusCode::ACCEPTED, "seq {seq}: {}", answer.text);
    }
    let list = server.get(&format!("/api/websites/{site}/session-replays"), &token).await;
    let replay = list.json[0]["id"].as_i64().unwrap();

    let response = server
        .client
        .get(server.url(&format!("/api/replays/{replay}/events")))
        .bearer_auth(&token)
        .send()
        .await
        .unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    assert_eq!(response.headers()["content-type"], "application/json");
    // Streamed as the chunks are read: no length known up front.
    assert!(response.headers().get("content-length").is_none(), "{:?}", response.headers());
    let body = response.text().await.unwrap();
    let parsed: Value = serde_json::from_str(&body).unwrap_or_else(|e| panic!("{e}: {body}"));
    let expected: Vec<Value> =
        [&first, &text, &last].iter().flat_map(|chunk| chunk.as_array().unwrap().iter().cloned()).collect();
    assert_eq!(parsed, json!({"events": expected}));

    // A recording of empty chunks only is an empty list.
    let empty_session = "replay-stream-visit-2";
    let page = json!({"tracking_key": key, "session_id": empty_session, "url": "https://shop.example.com/"});
    assert_eq!(track_with(&server, page, &[]).await.status, StatusCode::ACCEPTED);
    assert_eq!(upload_chunk(&server, &key, empty_session, 0, gzip(b"[]"), "").await.status, StatusCode::ACCEPTED);
    let list = server.get(&format!("/api/websites/{site}/session-replays"), &token).await;
    let empty = list.json.as_array().unwrap().iter().find(|r| r["sessionId"] == empty_session).unwrap()["id"].clone();
    let read = server.get(&format!("/api/replays/{empty}/events"), &token).await;
    assert_eq!(read.status, StatusCode::OK);
    assert_eq!(read.json, json!({"events": []}));

    // Another user's replay is 404 before anything is streamed.
    let (other, _) = server.register("stream-other@example.com").await;
    let read = server.get(&format!("/api/replays/{replay}/events"), &other).await;
    assert_eq!(read.status, StatusCode::NOT_FOUND);
    read.error_message();
}
