//! Session recordings on a cluster end to end (issue 18): the same visits and recording chunks sent to a SQLite
//! daemon and round-robin to two cluster daemons; every replay read answers as on SQLite (ids aside), bad
//! uploads are refused alike, and an erasure or a site's deletion leaves no chunk in PostgreSQL. Without the
//! harness's env (tests/cluster/cluster.sh) the test returns at once.

use std::time::{Duration, Instant};

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::capture_util::{gzip, rrweb_events};
use crate::cluster::{Corner, CorpusHit, Setup, USER_AGENTS, address, comparable, harness, read};
use crate::cluster_privacy::without_ids;
use crate::util::{Answer, TestServer, answer};

/// The visitors who record their visit (their addresses come from several networks).
const VISITORS: std::ops::Range<u8> = 50..56;

/// Uploads a chunk as `visitor`'s browser does (its user agent and address); `last` marks a page's last.
async fn upload(server: &TestServer, key: &str, visitor: u8, seq: &str, body: Vec<u8>, last: bool) -> Answer {
    let last = if last { "&final=1" } else { "" };
    let path = format!("/api/replay?tracking_key={key}&session_id=visitor-{visitor:04}&seq={seq}{last}");
    let response = server
        .client
        .post(server.url(&path))
        .header("user-agent", USER_AGENTS[visitor as usize % USER_AGENTS.len()])
        .header("x-forwarded-for", address(visitor))
        .header("content-type", "application/octet-stream")
        .body(body)
        .send()
        .await
        .unwrap();
    answer(response).await
}

/// A visitor's chunks as (seq, gzip, final): a first one with the screen and `visitor % 3` clicks, and but for
/// the last visitor (still recording) a second, which ends the recording of every other visitor.
fn chunks(visitor: u8, start: i64) -> Vec<(&'static str, Vec<u8>, bool)> {
    let start = start + visitor as i64 * 1_000;
    let first = rrweb_events(start, 20, visitor as usize % 3);
    let mut chunks = vec![("0", gzip(first.to_string().as_bytes()), false)];
    if visitor + 1 < VISITORS.end {
        let second = json!([{"type": 3, "data": {"source": 2, "type": 2, "id": 9, "x": 5, "y": 5},
                             "timestamp": start + 30_000}]);
        chunks.push(("1", gzip(second.to_string().as_bytes()), visitor.is_multiple_of(2)));
    }
    chunks
}

/// One number from the cluster's PostgreSQL schema.
async fn pg_count(corner: &Corner, sql: &str) -> i64 {
    let (url, sql) = (corner.postgres_url(), sql.to_string());
    tokio::task::spawn_blocking(move || {
        let mut client = postgres::Client::connect(&url, postgres::NoTls).unwrap();
        client.query_one(&sql, &[]).unwrap().get(0)
    })
    .await
    .unwrap()
}

/// A body of a route that must answer 200, as is (ids included).
async fn raw(server: &TestServer, token: &str, path: &str) -> Value {
    let answer = server.get(path, token).await;
    assert_eq!(answer.status, StatusCode::OK, "{path}: {}", answer.text);
    answer.json
}

/// The drop-offs of a new funnel (home, pricing, checkout) of `site`, with each visit's `replayId` checked
/// against the recording `recordings` list for its visit and set aside with the ids; and the visits'
/// durations, also set aside.
async fn drop_offs(server: &TestServer, token: &str, site: &Value, recordings: &Value) -> (Value, Vec<i64>) {
    let steps = json!([{"name": "Home", "url": "/"}, {"name": "Pricing", "url": "/pricing"},
                       {"name": "Checkout", "url": "/checkout"}]);
    let created = server.post("/api/funnels", token, json!({"name": "Buy", "websiteId": site, "steps": steps})).await;
    assert_eq!(created.status, StatusCode::CREATED, "{}", created.text);
    let mut answer = raw(server, token, &format!("/api/funnels/{}/drop-offs?range=1d", created.json["id"])).await;
    let visits = answer["steps"][1]["visits"].as_array_mut().unwrap();
    assert_eq!(visits.len(), 6, "every visit stopped before the checkout");
    let mut durations = Vec::new();
    for visit in visits.iter_mut() {
        let recording = recordings.as_array().unwrap().iter().find(|r| r["sessionId"] == visit["sessionId"]);
        assert_eq!(visit["replayId"], recording.expect("a recorded visit")["id"], "{visit}");
        visit["replayId"] = Value::Null;
        durations.push(visit.as_object_mut().unwrap().remove("duration").unwrap().as_i64().unwrap());
    }
    answer["funnelId"] = Value::Null;
    (comparable(answer), durations)
}

#[tokio::test]
async fn recordings_upload_and_read_as_on_sqlite_and_leave_no_chunk_once_erased_or_deleted() {
    let Some((pg, ch)) = harness() else { return };
    // Each visitor views two pages a few minutes ago, through either daemon.
    let now = tracker_core::model::now_ms();
    let hits: Vec<CorpusHit> = VISITORS
        .flat_map(|visitor| {
            [(6, "/"), (4, "/pricing")].map(|(minutes, path)| {
                let body = json!({"url": format!("https://shop.example.com{path}")});
                CorpusHit { visitor, ts: now - minutes * 60_000 + visitor as i64, body }
            })
        })
        .collect();
    let Setup { corner, a, b, sqlite, token, site, sqlite_token, sqlite_site } =
        Setup::start(pg, ch, "professional", &hits).await;
    let (key, sqlite_key) = (site["trackingKey"].as_str().unwrap(), sqlite_site["trackingKey"].as_str().unwrap());
    let (id, sqlite_id) = (&site["id"], &sqlite_site["id"]);
    // The owner calls the first organization listed an enterprise, on both.
    let edit = json!({"size": "Enterprise"});
    let orgs = raw(&sqlite, &sqlite_token, &format!("/api/websites/{sqlite_id}/organizations")).await;
    let edited = sqlite
        .put(&format!("/api/websites/{sqlite_id}/organizations/{}", orgs[0]["id"]), &sqlite_token, edit.clone())
        .await;
    assert_eq!(edited.status, StatusCode::OK, "{}", edited.text);
    let orgs = raw(&a, &token, &format!("/api/websites/{id}/organizations")).await;
    let edited = b.put(&format!("/api/websites/{id}/organizations/{}", orgs[0]["id"]), &token, edit).await;
    assert_eq!(edited.status, StatusCode::OK, "{}", edited.text);

    // Each recording's first chunk goes to daemon A, its second to B; a repeated chunk changes nothing.
    let start = now - 90_000;
    for visitor in VISITORS {
        for (seq, body, last) in chunks(visitor, start) {
            let expected = upload(&sqlite, sqlite_key, visitor, seq, body.clone(), last).await;
            assert_eq!(expected.status, StatusCode::ACCEPTED, "{}", expected.text);
            let got = upload(if seq == "0" { &a } else { &b }, key, visitor, seq, body, last).await;
            assert_eq!((got.status, got.json), (expected.status, expected.json), "visitor {visitor} chunk {seq}");
        }
    }
    for server in [(&sqlite, sqlite_key), (&b, key)] {
        let repeated = upload(server.0, server.1, 50, "0", gzip(b"[]"), false).await;
        assert_eq!(repeated.status, StatusCode::ACCEPTED, "{}", repeated.text);
    }
    let uploaded = Instant::now();
    assert_eq!(pg_count(&corner, "SELECT count(*) FROM replays").await, 6);
    assert_eq!(pg_count(&corner, "SELECT count(*) FROM replay_chunks").await, 11);

    // The list and its cards, of every range and filter, answer as on SQLite on both daemons.
    for range in ["24h", "7d", "30d"] {
        for filter in ["all", "complete", "incomplete", "enterprise"] {
            for query in [
                format!("session-replays?time_range={range}&filter={filter}"),
                format!("session-replays?time_range={range}&filter={filter}&limit=2"),
                format!("session-replays/stats?time_range={range}&filter={filter}"),
            ] {
                let expected = read(&sqlite, &sqlite_token, &format!("/api/websites/{sqlite_id}/{query}")).await;
                for (name, server) in [("A", &a), ("B", &b)] {
                    let got = read(server, &token, &format!("/api/websites/{id}/{query}")).await;
                    assert_eq!(got, expected, "daemon {name}: {query}");
                }
            }
        }
    }
    // The uploads reach what the reads must get right: complete and recording ones, clicks, an enterprise's
    // visit, the visits' facts.
    let stats = read(&sqlite, &sqlite_token, &format!("/api/websites/{sqlite_id}/session-replays/stats")).await;
    assert_eq!((&stats["total"], &stats["complete"]), (&json!(6), &json!(3)), "{stats}");
    assert!(stats["enterprise"].as_i64().unwrap() > 0, "{stats}");
    let list = raw(&sqlite, &sqlite_token, &format!("/api/websites/{sqlite_id}/session-replays")).await;
    let first = &list.as_array().unwrap()[0];
    assert_eq!(first["session"]["pageViewCount"], 2, "{first}");
    let items = list.as_array().unwrap();
    assert!(items.iter().any(|r| r["clickCount"] == 3) && items.iter().any(|r| !r["organization"].is_null()), "{list}");
    // Read within a minute of the uploads: no recording became complete by its silence between two reads.
    assert!(uploaded.elapsed() < Duration::from_secs(55), "the reads took {:?}", uploaded.elapsed());

    // One recording and its events, by each engine's own id, answer alike.
    let cluster_list = raw(&a, &token, &format!("/api/websites/{id}/session-replays")).await;
    for expected in list.as_array().unwrap() {
        let session = &expected["sessionId"];
        let got = cluster_list.as_array().unwrap().iter().find(|r| &r["sessionId"] == session).unwrap();
        let one = read(&sqlite, &sqlite_token, &format!("/api/replays/{}", expected["id"])).await;
        let events = raw(&sqlite, &sqlite_token, &format!("/api/replays/{}/events", expected["id"])).await;
        assert!(!events["events"].as_array().unwrap().is_empty());
        for (name, server) in [("A", &a), ("B", &b)] {
            assert_eq!(read(server, &token, &format!("/api/replays/{}", got["id"])).await, one, "daemon {name}");
            let got_events = raw(server, &token, &format!("/api/replays/{}/events", got["id"])).await;
            assert_eq!(got_events, events, "daemon {name}: {session}");
        }
    }

    // The page under a heatmap: the same snapshot, from each engine's recording of the same visit (the newest
    // that viewed the page); none of a page no recording holds a snapshot of.
    let page = |site: &Value, path: &str| {
        format!("/api/analytics/heatmap/page?website_id={site}&url=https%3A%2F%2Fshop.example.com{path}")
    };
    let session_of = |list: &Value, replay: &Value| {
        list.as_array().unwrap().iter().find(|r| &r["id"] == replay).map(|r| r["sessionId"].clone())
    };
    for path in ["/", "/pricing"] {
        let mut expected = raw(&sqlite, &sqlite_token, &page(sqlite_id, path)).await;
        assert_eq!(expected["snapshot"]["node"].is_object(), path == "/", "{path}: {expected}");
        let expected_session = session_of(&list, &expected["snapshot"]["replayId"]);
        assert_eq!(expected_session.is_some(), path == "/", "{path}: {expected}");
        if path == "/" {
            expected["snapshot"]["replayId"] = Value::Null;
        }
        for (name, server) in [("A", &a), ("B", &b)] {
            let mut got = raw(server, &token, &page(id, path)).await;
            assert_eq!(session_of(&cluster_list, &got["snapshot"]["replayId"]), expected_session, "daemon {name}");
            if path == "/" {
                got["snapshot"]["replayId"] = Value::Null;
            }
            assert_eq!(got, expected, "daemon {name}: {path}");
        }
    }

    // A funnel's drop-off visits link their recordings as on SQLite (each engine's own recording of the visit).
    let (expected, expected_durations) = drop_offs(&sqlite, &sqlite_token, sqlite_id, &list).await;
    let (got, durations) = drop_offs(&a, &token, id, &cluster_list).await;
    assert_eq!(got, expected);
    for (got, expected) in durations.iter().zip(&expected_durations) {
        // A visit lasts until its last chunk reached each engine, milliseconds apart.
        assert!((got - expected).abs() <= 1, "{durations:?} against {expected_durations:?}");
    }

    // Another account's recording answers exactly as a missing one; so does its site's list.
    let (stranger, _) = b.register("stranger@example.com").await;
    let theirs = cluster_list[0]["id"].as_i64().unwrap();
    for path in ["/api/replays/{}", "/api/replays/{}/events"] {
        let foreign = a.get(&path.replace("{}", &theirs.to_string()), &stranger).await;
        let missing = a.get(&path.replace("{}", "987654321"), &token).await;
        assert_eq!(foreign.status, StatusCode::NOT_FOUND, "{path}: {}", foreign.text);
        assert_eq!((foreign.status, foreign.json), (missing.status, missing.json), "{path}");
    }
    let foreign = b.get(&format!("/api/websites/{id}/session-replays"), &stranger).await;
    assert_eq!(foreign.status, StatusCode::NOT_FOUND, "{}", foreign.text);
    let bad = b.get(&format!("/api/websites/{id}/session-replays?filter=nope"), &token).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.text);
    assert!(!bad.error_message().is_empty());

    // Bad uploads are refused as on SQLite and store nothing.
    let bomb = gzip(&vec![b' '; 9 * 1024 * 1024]);
    for (what, seq, body) in [
        ("not gzip", "2", b"not gzip".to_vec()),
        ("not an array", "2", gzip(b"{\"a\":1}")),
        ("a decompression bomb", "2", bomb),
        ("past 512 KiB", "2", vec![0u8; 512 * 1024 + 1]),
        ("a negative seq", "-1", gzip(b"[]")),
    ] {
        let expected = upload(&sqlite, sqlite_key, 51, seq, body.clone(), false).await;
        assert!(expected.status.is_client_error(), "{what}: {}", expected.status);
        let got = upload(&a, key, 51, seq, body, false).await;
        assert_eq!((got.status, got.json), (expected.status, expected.json), "{what}");
    }
    assert_eq!(pg_count(&corner, "SELECT count(*) FROM replay_chunks").await, 11);

    // A visitor's copy of their data holds their recording and its events, as on SQLite. (Their visit's last
    // time is the upload's arrival at each engine, milliseconds apart: only the recordings are compared.)
    let copy = |site: &Value| format!("/api/privacy/visitor-data?website_id={site}&visitor_id=visitor-0050");
    let expected = raw(&sqlite, &sqlite_token, &copy(sqlite_id)).await;
    assert_eq!(expected["recordings"][0]["events"].as_array().unwrap().len(), 6, "{}", expected["recordings"]);
    for (name, server) in [("A", &a), ("B", &b)] {
        let got = raw(server, &token, &copy(id)).await;
        assert_eq!(without_ids(got["recordings"].clone()), without_ids(expected["recordings"].clone()), "{name}");
    }

    // A visitor's erasure answers as on SQLite and takes their recording's chunks from PostgreSQL.
    let erase = |site: &Value| json!({"websiteId": site, "visitorId": "visitor-0050"});
    let expected = sqlite.post("/api/privacy/delete-visitor", &sqlite_token, erase(sqlite_id)).await;
    assert_eq!(expected.status, StatusCode::OK, "{}", expected.text);
    let erased = a.post("/api/privacy/delete-visitor", &token, erase(id)).await;
    assert_eq!(erased.json, expected.json);
    assert_eq!(pg_count(&corner, "SELECT count(*) FROM replays").await, 5);
    assert_eq!(pg_count(&corner, "SELECT count(*) FROM replay_chunks").await, 9);
    let expected = read(&sqlite, &sqlite_token, &format!("/api/websites/{sqlite_id}/session-replays")).await;
    assert_eq!(read(&b, &token, &format!("/api/websites/{id}/session-replays")).await, expected);

    // The site's deletion leaves no recording.
    assert_eq!(b.delete(&format!("/api/websites/{id}"), &token).await.status, StatusCode::NO_CONTENT);
    assert_eq!(pg_count(&corner, "SELECT count(*) FROM replays").await, 0);
    assert_eq!(pg_count(&corner, "SELECT count(*) FROM replay_chunks").await, 0);
    let gone = a.get(&format!("/api/replays/{theirs}/events"), &token).await;
    assert_eq!(gone.status, StatusCode::NOT_FOUND, "{}", gone.text);
}
