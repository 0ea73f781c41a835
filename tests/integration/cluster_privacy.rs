//! Privacy requests in cluster mode (issue 18): one corpus sent to a SQLite daemon and round-robin to two
//! cluster daemons; each request answers as on SQLite (ids aside), and an erasure leaves no row of the visitor
//! on either shard. Without the harness's env (tests/cluster/cluster.sh) the tests return at once.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::cluster::{CorpusHit, Setup, await_no_rows, comparable, corpus, harness, shard_rows};
use crate::util::TestServer;

/// An answer with every id set aside, the visit a hit belongs to (`session`) too.
pub(crate) fn without_ids(value: Value) -> Value {
    match comparable(value) {
        Value::Object(map) => Value::Object(
            map.into_iter().map(|(k, v)| if k == "session" { (k, Value::Null) } else { (k, without_ids(v)) }).collect(),
        ),
        Value::Array(items) => Value::Array(items.into_iter().map(without_ids).collect()),
        other => other,
    }
}

/// The corpus with visitor 1 (one visit: two page views and a purchase) also identified as `user-42` and
/// accepting consent inside its visit, so that neither hit moves the visit's start or end.
fn corpus_with_a_known_visitor() -> Vec<CorpusHit> {
    let now = tracker_core::model::now_ms();
    let mut hits = corpus(now, tracker_core::analytics::TimeRange::parse("24h", now).unwrap().start);
    let start = hits.iter().find(|hit| hit.visitor == 1).unwrap().ts;
    hits.push(CorpusHit {
        visitor: 1,
        ts: start + 20_000,
        body: json!({"url": "https://shop.example.com/", "event": "consent",
                     "event_properties": {"analytics": true, "marketing": false}}),
    });
    hits.push(CorpusHit {
        visitor: 1,
        ts: start + 30_000,
        body: json!({"url": "https://shop.example.com/p1", "event": "identify",
                     "event_properties": {"id": "user-42", "plan": "pro"}}),
    });
    hits.sort_by_key(|hit| hit.ts);
    hits
}

/// A site's audit log, newest first, as (action, detail, actor).
async fn audit_log(server: &TestServer, token: &str, site: &Value) -> Vec<(Value, Value, Value)> {
    let answer = server.get(&format!("/api/privacy/audit-logs?website_id={site}"), token).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    let entries = answer.json["entries"].as_array().unwrap();
    entries.iter().map(|e| (e["action"].clone(), e["detail"].clone(), e["actor"].clone())).collect()
}

#[tokio::test]
async fn a_visitors_access_and_erasure_answer_as_sqlite_and_leave_no_row_on_either_shard() {
    let Some((pg, ch)) = harness() else { return };
    let Setup { corner, a, b, sqlite, token, site, sqlite_token, sqlite_site } =
        Setup::start(pg, ch, "professional", &corpus_with_a_known_visitor()).await;
    let (id, sqlite_id) = (&site["id"], &sqlite_site["id"]);

    // Access, by the identify() id and by the session id, on either daemon: SQLite's answer.
    for visitor in ["user-42", "visitor-0001"] {
        let expected = sqlite
            .get(&format!("/api/privacy/visitor-data?website_id={sqlite_id}&visitor_id={visitor}"), &sqlite_token)
            .await;
        assert_eq!(expected.status, StatusCode::OK, "{}", expected.text);
        assert_eq!(expected.json["events"].as_array().unwrap().len(), 4, "{}", expected.text);
        assert_eq!(expected.json["consentLogs"].as_array().unwrap().len(), 1, "{}", expected.text);
        assert_eq!(expected.json["sessions"][0]["traits"]["id"], "user-42", "{}", expected.text);
        for (name, server) in [("A", &a), ("B", &b)] {
            let got =
                server.get(&format!("/api/privacy/visitor-data?website_id={id}&visitor_id={visitor}"), &token).await;
            assert_eq!(got.status, StatusCode::OK, "{name}: {}", got.text);
            assert_eq!(without_ids(got.json), without_ids(expected.json.clone()), "daemon {name}: {visitor}");
        }
    }

    // Another account's site is not found, exactly like a missing one; bad ids are 400.
    let (stranger, _) = b.register("stranger@example.com").await;
    let foreign = a.get(&format!("/api/privacy/visitor-data?website_id={id}&visitor_id=user-42"), &stranger).await;
    assert_eq!(foreign.status, StatusCode::NOT_FOUND, "{}", foreign.text);
    let foreign =
        b.post("/api/privacy/delete-visitor", &stranger, json!({"websiteId": id, "visitorId": "user-42"})).await;
    assert_eq!(foreign.status, StatusCode::NOT_FOUND, "{}", foreign.text);
    let missing = a.get("/api/privacy/visitor-data?website_id=999999&visitor_id=user-42", &token).await;
    assert_eq!(missing.status, StatusCode::NOT_FOUND, "{}", missing.text);
    let blank = a.get(&format!("/api/privacy/visitor-data?website_id={id}&visitor_id=%20"), &token).await;
    assert_eq!(blank.status, StatusCode::BAD_REQUEST, "{}", blank.text);
    assert!(!blank.error_message().is_empty());

    // Erasure: SQLite's report, then no row of the visitor on either shard and every other row still there.
    let visitor_rows = || shard_rows(&corner, &format!("website_id = {id} AND session_key = 'visitor-0001'"));
    let all_rows = || shard_rows(&corner, &format!("website_id = {id}")).iter().sum::<u64>();
    assert_eq!(visitor_rows().iter().sum::<u64>(), 4, "{:?}", visitor_rows());
    let before = all_rows();
    let expected = sqlite
        .post("/api/privacy/delete-visitor", &sqlite_token, json!({"websiteId": sqlite_id, "visitorId": "user-42"}))
        .await;
    assert_eq!(expected.status, StatusCode::OK, "{}", expected.text);
    assert_eq!(expected.json["recordsDeleted"], 6, "{}", expected.text);
    let erased = b.post("/api/privacy/delete-visitor", &token, json!({"websiteId": id, "visitorId": "user-42"})).await;
    assert_eq!(erased.status, StatusCode::OK, "{}", erased.text);
    assert_eq!(erased.json, expected.json);
    // The rows go by a deletion job soon after the answer (reads wait for it: below).
    await_no_rows(&corner, &format!("website_id = {id} AND session_key = 'visitor-0001'")).await;
    assert_eq!(visitor_rows(), vec![0, 0]);
    assert_eq!(all_rows(), before - 4);
    for visitor in ["user-42", "visitor-0001"] {
        let gone = a.get(&format!("/api/privacy/visitor-data?website_id={id}&visitor_id={visitor}"), &token).await;
        assert_eq!(gone.status, StatusCode::NOT_FOUND, "{visitor}: {}", gone.text);
    }
    let consent = a.get(&format!("/api/privacy/consent-logs?website_id={id}"), &token).await;
    assert!(!consent.text.contains("visitor-0001"), "{}", consent.text);
    let again = a.post("/api/privacy/delete-visitor", &token, json!({"websiteId": id, "visitorId": "user-42"})).await;
    assert_eq!(again.status, StatusCode::NOT_FOUND, "{}", again.text);

    // Both requests are in the shared audit log, as on SQLite.
    let expected = audit_log(&sqlite, &sqlite_token, sqlite_id).await;
    assert_eq!(expected.len(), 3, "two accesses and the erasure: {expected:?}");
    let got = audit_log(&a, &token, id).await;
    assert_eq!(got.len(), 5, "an access on each daemon twice and the erasure: {got:?}");
    assert_eq!(got[0], expected[0], "the erasure");
    assert_eq!(got[1], expected[1], "the last access");
}
