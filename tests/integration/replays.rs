//! Session recordings: POST /api/replay chunks, the replay list and the player's events.

use base64::Engine;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::capture_util::{
    assert_cors, assert_not_found, count, gzip, owner_with_site, preflight, rrweb_events, track_with, upload_chunk,
};
use crate::util::TestServer;

#[tokio::test]
async fn chunks_make_one_replay_per_visit_with_events_in_order() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "rec@example.com", "enhanced").await;
    let session = "replay-visit-0001";
    let page = json!({"tracking_key": key, "session_id": session, "url": "https://shop.example.com/",
                      "screen": "1920x1080"});
    assert_eq!(track_with(&server, page, &[("x-forwarded-for", "198.51.100.23")]).await.status, StatusCode::ACCEPTED);
    let start = chrono::Utc::now().timestamp_millis() - 60_000;
    let first = rrweb_events(start, 20, 3);
    let second = json!([
        {"type": 3, "data": {"source": 2, "type": 2, "id": 9, "x": 5, "y": 5}, "timestamp": start + 30_000},
        {"type": 3, "data": {"source": 1, "positions": []}, "timestamp": start + 45_000}
    ]);
    // Uploaded out of order: the player still gets them by seq.
    let answer = upload_chunk(&server, &key, session, 1, gzip(second.to_string().as_bytes()), "").await;
    assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
    assert_cors(&answer);
    let answer = upload_chunk(&server, &key, session, 0, gzip(first.to_string().as_bytes()), "").await;
    assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
    // A repeated seq changes nothing.
    let repeat = upload_chunk(&server, &key, session, 0, gzip(b"[]"), "").await;
    assert_eq!(repeat.status, StatusCode::ACCEPTED);

    let list = server.get(&format!("/api/websites/{site}/session-replays?limit=100&time_range=24h"), &token).await;
    assert_eq!(list.status, StatusCode::OK, "{}", list.text);
    let replays = list.json.as_array().unwrap();
    assert_eq!(replays.len(), 1);
    let r = &replays[0];
    assert_eq!(r["sessionId"], session);
    assert_eq!(r["duration"], 45);
    assert_eq!(r["clickCount"], 4);
    assert_eq!(r["screenResolution"], "1280x720");
    assert_eq!(r["isComplete"], false, "still recording");
    assert!(r["fileSize"].as_i64().unwrap() > 0);
    assert!(r["startTime"].as_str().unwrap().ends_with('Z'));
    assert_eq!(r["session"]["ipAddress"], "198.51.100.0");
    assert_eq!(r["session"]["pageViewCount"], 1);
    assert!(r["session"]["deviceType"].is_string());
    assert!(r["session"]["browser"].is_string());
    assert!(r["session"]["os"].is_string());
    assert!(r["session"]["country"].is_string());
    assert!(r["organization"].is_null());

    let replay_id = r["id"].as_i64().unwrap();
    // A link to the recording reads it alone: the list's item and its site.
    let one = server.get(&format!("/api/replays/{replay_id}"), &token).await;
    assert_eq!(one.status, StatusCode::OK, "{}", one.text);
    assert_eq!(one.json["websiteId"], site);
    assert_eq!(&one.json["replay"], r);
    let events = server.get(&format!("/api/replays/{replay_id}/events"), &token).await;
    assert_eq!(events.status, StatusCode::OK, "{}", events.text);
    let events = events.json["events"].as_array().unwrap();
    let expected: Vec<Value> = first.as_array().unwrap().iter().chain(second.as_array().unwrap()).cloned().collect();
    assert_eq!(events, &expected);

    // The last chunk of a page (pagehide) completes the recording.
    let last = json!([{"type": 3, "data": {"source": 3}, "timestamp": start + 50_000}]);
    let answer = upload_chunk(&server, &key, session, 2, gzip(last.to_string().as_bytes()), "&final=1").await;
    assert_eq!(answer.status, StatusCode::ACCEPTED);
    let list = server.get(&format!("/api/websites/{site}/session-replays"), &token).await;
    assert_eq!(list.json[0]["isComplete"], true);
    assert_eq!(list.json[0]["duration"], 50);

    // The list is bounded by the range; a bad range or limit is 400.
    for bad in ["?time_range=2w", "?limit=abc", "?limit=0"] {
        let answer = server.get(&format!("/api/websites/{site}/session-replays{bad}"), &token).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{bad}");
        answer.error_message();
    }

    // Recordings live in their own tables, never in events; they go with the site.
    assert_eq!(count(&server, "SELECT COUNT(*) FROM events WHERE website_id = ?1 AND kind <> 'pageview'", site), 0);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM replay_chunks", 0), 3);
    assert_eq!(server.delete(&format!("/api/websites/{site}"), &token).await.status, StatusCode::NO_CONTENT);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM replays WHERE website_id = ?1", site), 0);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM replay_chunks", 0), 0);
    assert_not_found(&server.get(&format!("/api/replays/{replay_id}/events"), &token).await, "deleted replay");
}

#[tokio::test]
async fn bad_chunks_are_refused_with_cors_and_store_nothing() {
    let server = TestServer::start().await;
    let (_, site, key) = owner_with_site(&server, "badrec@example.com", "professional").await;
    let session = "bad-replay-visit";
    let valid = gzip(rrweb_events(1_000, 1, 0).to_string().as_bytes());

    let cases: Vec<(String, Vec<u8>, StatusCode)> = vec![
        (format!("?tracking_key={key}&session_id={session}&seq=0"), b"not gzip".to_vec(), StatusCode::BAD_REQUEST),
        (format!("?tracking_key={key}&session_id={session}&seq=0"), gzip(b"{\"a\":1}"), StatusCode::BAD_REQUEST),
        (format!("?tracking_key={key}&session_id={session}&seq=0"), gzip(b"[1,2,3]"), StatusCode::BAD_REQUEST),
        (format!("?tracking_key={key}&session_id={session}&seq=0"), Vec::new(), StatusCode::BAD_REQUEST),
        // A decompression bomb: 9 MiB of spaces inside a tiny gzip.
        (
            format!("?tracking_key={key}&session_id={session}&seq=0"),
            gzip(&vec![b' '; 9 * 1024 * 1024]),
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
        (format!("?tracking_key={key}&session_id={session}"), valid.clone(), StatusCode::BAD_REQUEST),
        (format!("?tracking_key={key}&session_id={session}&seq=x"), valid.clone(), StatusCode::BAD_REQUEST),
        (format!("?tracking_key={key}&session_id={session}&seq=-1"), valid.clone(), StatusCode::BAD_REQUEST),
        (format!("?tracking_key={key}&session_id=short&seq=0"), valid.clone(), StatusCode::BAD_REQUEST),
        (format!("?tracking_key=unknown-key&session_id={session}&seq=0"), valid.clone(), StatusCode::NOT_FOUND),
        (
            format!("?tracking_key={key}&session_id={session}&seq=0"),
            vec![0u8; 512 * 1024 + 1],
            StatusCode::PAYLOAD_TOO_LARGE,
        ),
    ];
    for (query, body, status) in cases {
        let response = server
            .client
            .post(server.url(&format!("/api/replay{query}")))
            .header("user-agent", crate::util::BROWSER_UA)
            .body(body)
            .send()
            .await
            .unwrap();
        let answer = crate::util::answer(response).await;
        if status == StatusCode::BAD_REQUEST && answer.status == StatusCode::LENGTH_REQUIRED {
            // An empty body may go without Content-Length; either way it is refused.
        } else {
            assert_eq!(answer.status, status, "{query}: {}", answer.text);
        }
        answer.error_message();
        assert_cors(&answer);
    }
    assert_eq!(count(&server, "SELECT COUNT(*) FROM replays WHERE website_id = ?1", site), 0);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM sessions WHERE website_id = ?1", site), 0);

    let preflight = preflight(&server, "/api/replay?tracking_key=x").await;
    assert!(preflight.status().is_success());
    assert_eq!(preflight.headers()["access-control-allow-origin"], "*");
}

/// Incompressible rrweb-shaped chunk of about `bytes` compressed bytes.
fn noisy_chunk(seed: u64, bytes: usize) -> Vec<u8> {
    let mut state = seed | 1;
    let raw: Vec<u8> = (0..bytes)
        .map(|_| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            state as u8
        })
        .collect();
    let text = base64::engine::general_purpose::STANDARD.encode(raw);
    let events = json!([{"type": 3, "data": {"source": 0, "noise": text}, "timestamp": 1_000}]);
    gzip(events.to_string().as_bytes())
}

#[tokio::test]
async fn a_visit_recording_is_capped_at_20_mib() {
    let server = TestServer::start().await;
    let (_, site, key) = owner_with_site(&server, "bigrec@example.com", "enhanced").await;
    let session = "long-recording-1";
    let mut stored = 0usize;
    let mut seq = 0;
    loop {
        let chunk = noisy_chunk(seq as u64 + 7, 370 * 1024);
        assert!(chunk.len() <= 512 * 1024, "{}", chunk.len());
        let answer = upload_chunk(&server, &key, session, seq, chunk.clone(), "").await;
        if stored + chunk.len() > 20 * 1024 * 1024 {
            assert_eq!(answer.status, StatusCode::PAYLOAD_TOO_LARGE, "{}", answer.text);
            answer.error_message();
            assert_cors(&answer);
            break;
        }
        assert_eq!(answer.status, StatusCode::ACCEPTED, "chunk {seq}: {}", answer.text);
        stored += chunk.len();
        seq += 1;
    }
    // A chunk sent again at the cap (the script resends one whose upload it could not see answered, compressed
    // anew) is taken and counts nothing: the recording holds one copy of each seq.
    let again = noisy_chunk(seq as u64 + 6, 300 * 1024);
    let answer = upload_chunk(&server, &key, session, seq - 1, again, "").await;
    assert_eq!(answer.status, StatusCode::ACCEPTED, "{}", answer.text);
    assert_eq!(count(&server, "SELECT byte_size FROM replays WHERE website_id = ?1", site), stored as i64);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM replay_chunks", 0), seq);
}

#[tokio::test]
async fn light_sites_drop_recordings() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "lightrec@example.com", "light").await;
    let chunk = gzip(rrweb_events(1_000, 5, 1).to_string().as_bytes());
    let answer = upload_chunk(&server, &key, "light-recording-1", 0, chunk, "").await;
    assert_eq!(answer.status, StatusCode::ACCEPTED);
    assert_eq!(count(&server, "SELECT COUNT(*) FROM replays WHERE website_id = ?1", site), 0);
    let list = server.get(&format!("/api/websites/{site}/session-replays"), &token).await;
    assert_eq!(list.json, json!([]));
    let config = server
        .client
        .get(server.url(&format!("/api/track/config?tracking_key={key}")))
        .send()
        .await
        .unwrap()
        .json::<Value>()
        .await
        .unwrap();
    assert_eq!(config["recordings"], false);
    assert_eq!(config["heatmaps"], false);
}

#[tokio::test]
async fn replays_are_owner_only() {
    let server = TestServer::start().await;
    let (_, site, key) = owner_with_site(&server, "recowner@example.com", "enhanced").await;
    let chunk = gzip(rrweb_events(1_000, 5, 1).to_string().as_bytes());
    assert_eq!(upload_chunk(&server, &key, "private-recording", 0, chunk, "").await.status, StatusCode::ACCEPTED);
    let replay = count(&server, "SELECT id FROM replays WHERE website_id = ?1", site);
    let (other, _) = server.register("recintruder@example.com").await;
    for path in [
        format!("/api/websites/{site}/session-replays"),
        format!("/api/replays/{replay}/events"),
        format!("/api/replays/{replay}"),
        "/api/replays/987654/events".to_string(),
        "/api/replays/987654".to_string(),
        "/api/websites/987654/session-replays".to_string(),
    ] {
        assert_not_found(&server.get(&path, &other).await, &path);
    }
    let anonymous = server.call(Method::GET, &format!("/api/replays/{replay}/events"), None, None).await;
    assert_eq!(anonymous.status, StatusCode::UNAUTHORIZED);
}

/// The list's filter (all, complete, incomplete, enterprise) and range (24h, 7d, 30d) are both honoured.
#[tokio::test]
async fn the_list_honours_filter_and_range() {
    let server = TestServer::start().await;
    let (token, site, key) = owner_with_site(&server, "recfilter@example.com", "professional").await;
    let now = chrono::Utc::now().timestamp_millis();
    // (session, visitor address, last chunk of the page sent): Google's address gives the visit an organization.
    let visits = [
        ("filter-enterprise-done", "8.8.8.8", true),
        ("filter-still-recording", "198.51.100.23", false),
        ("filter-three-days-old", "198.51.100.24", true),
    ];
    for (session, ip, last) in visits {
        let page = json!({"tracking_key": key, "session_id": session, "url": "https://shop.example.com/"});
        assert_eq!(track_with(&server, page, &[("x-forwarded-for", ip)]).await.status, StatusCode::ACCEPTED);
        let chunk = gzip(rrweb_events(now - 30_000, 20, 2).to_string().as_bytes());
        let extra = if last { "&final=1" } else { "" };
        assert_eq!(upload_chunk(&server, &key, session, 0, chunk, extra).await.status, StatusCode::ACCEPTED);
    }
    let old = now - 3 * 86_400_000;
    server
        .tracker
        .db()
        .write(|conn| {
            // A recording made three days ago, and the size the owner gave the organization (organizations
            // have their own screen; here it is set directly).
            conn.execute(
                "UPDATE replays SET started_at = ?1, ended_at = ?1 + 20000, last_chunk_at = ?1 + 20000
                 WHERE session_id = (SELECT id FROM sessions WHERE session_key = 'filter-three-days-old')",
                [old],
            )?;
            let sized = conn.execute("UPDATE organizations SET size = 'enterprise', industry = 'Technology'", [])?;
            assert_eq!(sized, 1, "the visit from 8.8.8.8 has an organization");
            Ok(())
        })
        .unwrap();

    let sessions = |query: &'static str| {
        let server = &server;
        let token = &token;
        async move {
            let answer = server.get(&format!("/api/websites/{site}/session-replays?limit=100{query}"), token).await;
            assert_eq!(answer.status, StatusCode::OK, "{query}: {}", answer.text);
            let mut ids: Vec<String> =
                answer.json.as_array().unwrap().iter().map(|r| r["sessionId"].as_str().unwrap().to_string()).collect();
            ids.sort();
            ids
        }
    };
    // Sorted by name: enterprise < recording ("still") < old ("three").
    let [enterprise, recording, old_one] = visits.map(|v| v.0.to_string());
    assert_eq!(sessions("&filter=all&range=24h").await, [enterprise.clone(), recording.clone()]);
    assert_eq!(sessions("&filter=all&range=7d").await, [enterprise.clone(), recording.clone(), old_one.clone()]);
    assert_eq!(sessions("&range=30d").await, [enterprise.clone(), recording.clone(), old_one.clone()]);
    assert_eq!(sessions("&filter=complete&range=7d").await, [enterprise.clone(), old_one.clone()]);
    assert_eq!(sessions("&filter=complete&range=24h").await, std::slice::from_ref(&enterprise));
    assert_eq!(sessions("&filter=incomplete&range=30d").await, std::slice::from_ref(&recording));
    assert_eq!(sessions("&filter=enterprise&range=7d").await, std::slice::from_ref(&enterprise));
    let list = server.get(&format!("/api/websites/{site}/session-replays?filter=enterprise"), &token).await;
    assert_eq!(list.json[0]["organization"]["size"], "enterprise");
    assert_eq!(list.json[0]["organization"]["industry"], "Technology");
    assert_eq!(list.json[0]["clickCount"], 2, "the recording's real clicks");

    // The cards count every recording of the range and filter, not only the rows one list call returns.
    let stats = |query: &'static str| {
        let server = &server;
        let token = &token;
        async move {
            let answer = server.get(&format!("/api/websites/{site}/session-replays/stats?{query}"), token).await;
            assert_eq!(answer.status, StatusCode::OK, "{query}: {}", answer.text);
            answer.json
        }
    };
    let one_row = server.get(&format!("/api/websites/{site}/session-replays?limit=1&range=7d"), &token).await;
    assert_eq!(one_row.json.as_array().map(Vec::len), Some(1));
    assert_eq!(
        stats("range=7d&limit=1").await,
        json!({"total": 3, "complete": 2, "averageDuration": 20.0, "enterprise": 1})
    );
    assert_eq!(stats("range=24h&filter=incomplete").await["total"], 1);
    assert_eq!(stats("range=24h&filter=enterprise").await["enterprise"], 1);

    for bad in ["?filter=vip", "?filter=", "?filter=ALL", "?range=2w", "?range=", "?filter=all&range=90d"] {
        for list in ["session-replays", "session-replays/stats"] {
            let answer = server.get(&format!("/api/websites/{site}/{list}{bad}"), &token).await;
            assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{list}{bad}: {}", answer.text);
            assert!(!answer.error_message().is_empty());
        }
    }
    let (other, _) = server.register("recfilter-intruder@example.com").await;
    for list in ["session-replays", "session-replays/stats"] {
        let foreign = server.get(&format!("/api/websites/{site}/{list}?filter=enterprise&range=30d"), &other).await;
        assert_not_found(&foreign, "another user's replays, filtered");
    }
}
