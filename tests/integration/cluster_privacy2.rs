//! Data deletion, exports and the email change in cluster mode (issue 18): what SQLite answers, from PostgreSQL
//! and both shards. Without the harness's env (tests/cluster/cluster.sh) the tests return at once.

use reqwest::StatusCode;
use serde_json::{Value, json};

use crate::cluster::{Corner, await_no_rows, corpus, harness, send_corpus_hit, shard_rows};
use crate::util::TestServer;

#[tokio::test]
async fn an_email_changed_on_one_daemon_signs_in_on_the_other_and_a_taken_one_is_refused() {
    let Some((pg, ch)) = harness() else { return };
    let corner = Corner::new(pg, ch).await;
    let (a, b) = (corner.daemon().await, corner.daemon().await);
    let (token, _) = a.register("old@example.com").await;
    b.register("taken@example.com").await;
    for (body, status) in [
        (json!({"newEmail": "new@example.com", "currentPassword": "wrong!"}), StatusCode::UNAUTHORIZED),
        (json!({"newEmail": "not-an-email", "currentPassword": "secret1"}), StatusCode::BAD_REQUEST),
        (json!({"newEmail": "taken@example.com", "currentPassword": "secret1"}), StatusCode::CONFLICT),
        (json!({"newEmail": "new@example.com"}), StatusCode::BAD_REQUEST),
    ] {
        let answer = b.put("/api/user/email", &token, body.clone()).await;
        assert_eq!(answer.status, status, "{body}: {}", answer.text);
        assert!(!answer.error_message().is_empty());
    }
    let changed =
        b.put("/api/user/email", &token, json!({"newEmail": " new@example.com ", "currentPassword": "secret1"})).await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text);
    assert_eq!(changed.json, json!({"email": "new@example.com", "emailVerified": false}));
    let login = |email: &str| json!({"email": email, "password": "secret1"});
    let new = a.call(reqwest::Method::POST, "/api/login", None, Some(login("new@example.com"))).await;
    assert_eq!(new.status, StatusCode::OK, "{}", new.text);
    let old = a.call(reqwest::Method::POST, "/api/login", None, Some(login("old@example.com"))).await;
    assert_eq!(old.status, StatusCode::UNAUTHORIZED, "{}", old.text);
    let user = a.get("/api/user", &token).await;
    assert_eq!(user.json["email"], "new@example.com", "{}", user.text);
}

/// The same corpus sent to a SQLite daemon's site and round-robin to two cluster daemons' site, with a second
/// cluster site of the same account that must stay intact.
struct Pair {
    corner: Corner,
    a: TestServer,
    b: TestServer,
    token: String,
    site: Value,
    other: Value,
    sqlite: TestServer,
    sqlite_token: String,
    sqlite_site: Value,
}

async fn pair() -> Option<Pair> {
    let (pg, ch) = harness()?;
    let corner = Corner::new(pg, ch).await;
    let (a, b) = (corner.daemon().await, corner.daemon().await);
    let sqlite = TestServer::start().await;
    let (token, _) = a.register("owner@example.com").await;
    let site = a.create_site(&token, "Shop", "professional").await;
    let other = a.create_site(&token, "Other", "professional").await;
    let (sqlite_token, _) = sqlite.register("owner@example.com").await;
    let sqlite_site = sqlite.create_site(&sqlite_token, "Shop", "professional").await;
    let (key, sqlite_key) = (site["trackingKey"].as_str().unwrap(), sqlite_site["trackingKey"].as_str().unwrap());
    let other_key = other["trackingKey"].as_str().unwrap();
    let now = tracker_core::model::now_ms();
    let hits = corpus(now, tracker_core::analytics::TimeRange::parse("24h", now).unwrap().start);
    for (i, hit) in hits.iter().enumerate() {
        send_corpus_hit(if i % 2 == 0 { &a } else { &b }, key, hit).await;
        send_corpus_hit(&sqlite, sqlite_key, hit).await;
        if i % 3 == 0 {
            send_corpus_hit(&b, other_key, hit).await;
        }
    }
    Some(Pair { corner, a, b, token, site, other, sqlite, sqlite_token, sqlite_site })
}

/// A site's audit log, newest first, as (action, detail).
async fn audit_log(server: &TestServer, token: &str, site: &Value) -> Vec<(Value, Value)> {
    let answer = server.get(&format!("/api/privacy/audit-logs?website_id={site}"), token).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    answer.json["entries"].as_array().unwrap().iter().map(|e| (e["action"].clone(), e["detail"].clone())).collect()
}

/// A deletion's answer without its rollup rows, which each engine counts in its own layout.
fn without_rollups(mut answer: Value) -> Value {
    answer["deleted"]["rollupRows"] = Value::Null;
    answer
}

#[tokio::test]
async fn deleting_page_views_then_everything_answers_as_sqlite_and_leaves_no_row_on_either_shard() {
    let Some(p) = pair().await else { return };
    let (id, sqlite_id) = (&p.site["id"], &p.sqlite_site["id"]);
    let rows = |condition: &str| shard_rows(&p.corner, &format!("website_id = {id} AND {condition}"));
    let other_rows = || shard_rows(&p.corner, &format!("website_id = {}", p.other["id"])).iter().sum::<u64>();
    let (others, events) = (other_rows(), rows("kind NOT IN ('pageview', 'touch')").iter().sum::<u64>());
    assert!(rows("kind = 'pageview'").iter().all(|n| *n > 0), "page views on both shards");
    assert!(others > 0 && events > 0);

    // Another account's site is not found, exactly like a missing one; bad input is 400.
    let (stranger, _) = p.b.register("stranger@example.com").await;
    for (token, body, status) in [
        (&stranger, json!({"websiteId": id, "dataType": "all"}), StatusCode::NOT_FOUND),
        (&p.token, json!({"websiteId": 999_999, "dataType": "all"}), StatusCode::NOT_FOUND),
        (&p.token, json!({"websiteId": id, "dataType": "everything"}), StatusCode::BAD_REQUEST),
        (&p.token, json!({"dataType": "all"}), StatusCode::BAD_REQUEST),
    ] {
        let refused = p.a.post("/api/privacy/delete-data", token, body.clone()).await;
        assert_eq!(refused.status, status, "{body}: {}", refused.text);
        assert!(!refused.error_message().is_empty());
    }
    assert_eq!(other_rows(), others);

    for (data, daemon) in [("pageviews", &p.a), ("all", &p.b)] {
        let expected = p
            .sqlite
            .post("/api/privacy/delete-data", &p.sqlite_token, json!({"websiteId": sqlite_id, "dataType": data}))
            .await;
        assert_eq!(expected.status, StatusCode::OK, "{}", expected.text);
        let got = daemon.post("/api/privacy/delete-data", &p.token, json!({"websiteId": id, "dataType": data})).await;
        assert_eq!(got.status, StatusCode::OK, "{data}: {}", got.text);
        // The corpus's hours are not closed yet: the cluster has rolled none up.
        assert_eq!(got.json["deleted"]["rollupRows"], 0, "{}", got.text);
        assert_eq!(without_rollups(got.json), without_rollups(expected.json), "{data}");
        // The rows go by a deletion job soon after the answer.
        let deleted = if data == "pageviews" { "kind = 'pageview'" } else { "1" };
        await_no_rows(&p.corner, &format!("website_id = {id} AND {deleted}")).await;
        if data == "pageviews" {
            assert_eq!(rows("kind NOT IN ('pageview', 'touch')").iter().sum::<u64>(), events, "the other events stay");
            // Visits that kept other events keep their span in touches, which hold no page.
            assert!(rows("kind = 'touch'").iter().sum::<u64>() > 0);
            assert_eq!(rows("kind = 'touch' AND (path != '' OR url != '')"), vec![0, 0]);
        }
    }
    assert_eq!(rows("1"), vec![0, 0]);
    assert_eq!(other_rows(), others, "the account's other site is intact");

    // Repeatable: nothing left to delete. Both deletions are in the shared audit log, as on SQLite.
    let again = p.a.post("/api/privacy/delete-data", &p.token, json!({"websiteId": id, "dataType": "all"})).await;
    assert_eq!(again.status, StatusCode::OK, "{}", again.text);
    assert_eq!(again.json["recordsDeleted"], 0, "{}", again.text);
    let expected = audit_log(&p.sqlite, &p.sqlite_token, sqlite_id).await;
    assert_eq!(expected.len(), 2, "{expected:?}");
    assert_eq!(audit_log(&p.b, &p.token, id).await[1..], expected[..]);
}
