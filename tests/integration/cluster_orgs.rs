//! Part 2's organizations on a cluster end to end (issue 18): the corpus sent to a SQLite daemon and
//! round-robin to two cluster daemons of a professional site, the organizations list and an owner's edit
//! compared JSON-equal (ids aside), and another account's ids answering 404. Without the harness's env the
//! test returns at once.

use reqwest::StatusCode;
use serde_json::json;

use crate::cluster::{Setup, comparable, corpus, harness, read};
use crate::util::TestServer;

/// The id of the first organization a site lists.
async fn first_org(server: &TestServer, token: &str, site: &serde_json::Value) -> i64 {
    server.get(&format!("/api/websites/{}/organizations", site["id"]), token).await.json[0]["id"].as_i64().unwrap()
}

#[tokio::test]
async fn organizations_answer_as_sqlite_on_the_same_hits_and_an_edit_on_one_daemon_shows_on_the_other() {
    let Some((pg, ch)) = harness() else { return };
    let now = tracker_core::model::now_ms();
    let hits = corpus(now, tracker_core::analytics::TimeRange::parse("24h", now).unwrap().start);
    let Setup { corner: _corner, a, b, sqlite, token, site, sqlite_token, sqlite_site } =
        Setup::start(pg, ch, "professional", &hits).await;

    let list = |id: &serde_json::Value| format!("/api/websites/{id}/organizations");
    let expected = read(&sqlite, &sqlite_token, &list(&sqlite_site["id"])).await;
    assert!(!expected.as_array().unwrap().is_empty(), "the corpus comes from a company's network: {expected}");
    for (name, server) in [("A", &a), ("B", &b)] {
        assert_eq!(read(server, &token, &list(&site["id"])).await, expected, "daemon {name}");
    }

    // The owner's edit through daemon A answers as SQLite's, and daemon B lists it.
    let edit = json!({"domain": "https://Example-Corp.com/", "industry": "Retail", "size": "Enterprise"});
    let sqlite_org = first_org(&sqlite, &sqlite_token, &sqlite_site).await;
    let sqlite_edit =
        sqlite.put(&format!("{}/{sqlite_org}", list(&sqlite_site["id"])), &sqlite_token, edit.clone()).await;
    assert_eq!(sqlite_edit.status, StatusCode::OK, "{}", sqlite_edit.text);
    let cluster_org = first_org(&a, &token, &site).await;
    let edited = a.put(&format!("{}/{cluster_org}", list(&site["id"])), &token, edit.clone()).await;
    assert_eq!(edited.status, StatusCode::OK, "{}", edited.text);
    assert_eq!(comparable(edited.json), comparable(sqlite_edit.json));
    let expected = read(&sqlite, &sqlite_token, &list(&sqlite_site["id"])).await;
    assert_eq!(expected[0]["industry"], "Retail");
    assert_eq!(read(&b, &token, &list(&site["id"])).await, expected);

    // Bad input is a 400; another account's site, or an organization of another site, a 404.
    let bad = b.put(&format!("{}/{cluster_org}", list(&site["id"])), &token, json!({"size": "huge"})).await;
    assert_eq!(bad.status, StatusCode::BAD_REQUEST, "{}", bad.text);
    assert!(!bad.error_message().is_empty());
    let (stranger, _) = b.register("stranger@example.com").await;
    let theirs = b.create_site(&stranger, "Theirs", "professional").await;
    assert_eq!(a.get(&list(&site["id"]), &stranger).await.status, StatusCode::NOT_FOUND);
    let answer = a.put(&format!("{}/{cluster_org}", list(&site["id"])), &stranger, edit.clone()).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND, "{}", answer.text);
    let answer = a.put(&format!("{}/{cluster_org}", list(&theirs["id"])), &stranger, edit).await;
    assert_eq!(answer.status, StatusCode::NOT_FOUND, "another site's organization: {}", answer.text);
}
