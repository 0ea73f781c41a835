//! Finding 1: a deleted account's token opened the next account (ids were reused and tokens named only the id).

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::util::TestServer;

#[tokio::test]
async fn deleted_accounts_token_does_not_open_the_next_account() {
    let server = TestServer::start().await;
    let (old_token, old) = server.register("first@example.com").await;
    let deleted =
        server.call(Method::DELETE, "/api/user/account", Some(&old_token), Some(json!({"password": "secret1"}))).await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text);

    let (new_token, new) = server.register("second@example.com").await;
    assert_ne!(old["user"]["id"], new["user"]["id"], "account ids are never reused");
    server.create_site(&new_token, "Victim", "light").await;

    for (method, path, body) in [
        (Method::GET, "/api/websites", None),
        (Method::GET, "/api/user", None),
        (Method::POST, "/api/websites", Some(json!({"name": "Planted", "domain": "planted.example.com"}))),
    ] {
        let answer = server.call(method.clone(), path, Some(&old_token), body).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{method} {path}: {}", answer.text);
        answer.error_message();
    }
    let sites = server.get("/api/websites", &new_token).await;
    assert_eq!(sites.json.as_array().unwrap().len(), 1, "nothing was planted: {}", sites.text);
}

#[tokio::test]
async fn site_ids_are_never_reused() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let first = server.create_site(&token, "First", "light").await;
    let id = first["id"].as_i64().unwrap();
    assert_eq!(server.delete(&format!("/api/websites/{id}"), &token).await.status, StatusCode::NO_CONTENT);
    let second = server.create_site(&token, "Second", "light").await;
    assert!(second["id"].as_i64().unwrap() > id, "a new site gets a new id: {second}");
}

#[tokio::test]
async fn token_older_than_its_account_is_refused() {
    // The same secret and the same id, but an account created after the token was signed (a restored backup
    // or an operator's `users add` reusing nothing): the token still must not open it.
    let server = TestServer::start().await;
    let (token, _) = server.register("a@example.com").await;
    let db = rusqlite::Connection::open(server.dir.path().join("data/tracker.db")).unwrap();
    db.execute("UPDATE users SET created_at = created_at + 120000", []).unwrap();
    let answer = server.get("/api/websites", &token).await;
    assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{}", answer.text);
}
