//! Issue 36: API keys are long-lived bearer credentials, so what one can do is bounded. A read key only reads;
//! no key reaches the account's security (password, email, two-factor, keys, sign-in and out), however the
//! path is spelled; a revoked key or a deleted account's key is refused at once; the secret is shown once and
//! is in neither the list nor the database file; and each key has its hourly limit.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::util::{Answer, TestServer};

/// Creates a key with the account's access token; answers its secret and id.
async fn create_key(server: &TestServer, token: &str, name: &str, scope: &str) -> (String, i64) {
    let answer = server.post("/api/user/api-keys", token, json!({"name": name, "scope": scope})).await;
    assert_eq!(answer.status, StatusCode::CREATED, "{}", answer.text);
    (answer.json["secret"].as_str().unwrap().to_string(), answer.json["id"].as_i64().unwrap())
}

fn assert_refused(answer: &Answer, status: StatusCode, what: &str) {
    assert_eq!(answer.status, status, "{what}: {}", answer.text);
    assert!(!answer.error_message().is_empty(), "{what}");
}

#[tokio::test]
async fn a_read_key_cannot_write() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let site = server.create_site(&token, "Blog", "light").await;
    let (read, _) = create_key(&server, &token, "dashboards", "read").await;
    assert_eq!(server.get("/api/websites", &read).await.status, StatusCode::OK);
    let id = site["id"].as_i64().unwrap();
    let writes = [
        (Method::POST, "/api/websites".to_string(), json!({"name": "New", "domain": "new.example.com"})),
        (Method::PUT, format!("/api/websites/{id}"), json!({"name": "Renamed"})),
        (Method::DELETE, format!("/api/websites/{id}"), Value::Null),
        (Method::PUT, "/api/user/profile".to_string(), json!({"name": "x", "company": "", "timezone": "UTC"})),
    ];
    for (method, path, body) in writes {
        let body = (!body.is_null()).then_some(body);
        let answer = server.call(method.clone(), &path, Some(&read), body).await;
        assert_refused(&answer, StatusCode::FORBIDDEN, &format!("{method} {path}"));
    }
    let sites = server.get("/api/websites", &token).await;
    assert_eq!(sites.json.as_array().map(Vec::len), Some(1), "nothing was created or deleted: {}", sites.text);
    assert_eq!(sites.json[0]["name"], "Blog");
}

#[tokio::test]
async fn no_key_reaches_the_accounts_security_however_the_path_is_spelled() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let (write, id) = create_key(&server, &token, "automation", "write").await;
    let password = json!({"currentPassword": "secret1", "newPassword": "taken-over"});
    let calls = [
        (Method::PUT, "/api/user/password".to_string(), Some(password.clone())),
        (Method::PUT, "/api/user//password".to_string(), Some(password.clone())),
        (Method::PUT, "/api/user/password/".to_string(), Some(password.clone())),
        (Method::PUT, "/api/user/p%61ssword".to_string(), Some(password)),
        (
            Method::PUT,
            "/api/user/email".to_string(),
            Some(json!({"newEmail": "x@example.com", "currentPassword": "secret1"})),
        ),
        (Method::POST, "/api/user/email/verification".to_string(), None),
        (Method::PUT, "/api/user/security".to_string(), Some(json!({"sessionTimeout": 480}))),
        (Method::POST, "/api/user/two-factor/setup".to_string(), Some(json!({"password": "secret1"}))),
        (Method::POST, "/api/user/two-factor/disable".to_string(), Some(json!({"password": "secret1"}))),
        (Method::DELETE, "/api/user/account".to_string(), Some(json!({"password": "secret1"}))),
        (Method::GET, "/api/user/api-keys".to_string(), None),
        (Method::POST, "/api/user/api-keys".to_string(), Some(json!({"name": "another", "scope": "write"}))),
        (Method::DELETE, format!("/api/user/api-keys/{id}"), None),
        (Method::POST, "/api/logout".to_string(), Some(json!({}))),
        (Method::POST, "/api/dashboard/live/ticket".to_string(), None),
        (Method::POST, "/api/login".to_string(), Some(json!({"email": "owner@example.com", "password": "secret1"}))),
    ];
    for (method, path, body) in calls {
        let answer = server.call(method.clone(), &path, Some(&write), body).await;
        assert_refused(&answer, StatusCode::FORBIDDEN, &format!("{method} {path}"));
    }
    // Nothing changed: the password is the same, the account and the key still stand.
    let login = server
        .call(Method::POST, "/api/login", None, Some(json!({"email": "owner@example.com", "password": "secret1"})))
        .await;
    assert_eq!(login.status, StatusCode::OK, "{}", login.text);
    let keys = server.get("/api/user/api-keys", &token).await;
    assert_eq!(keys.json.as_array().map(Vec::len), Some(1), "{}", keys.text);
    assert_eq!(server.get("/api/websites", &write).await.status, StatusCode::OK);
}

#[tokio::test]
async fn a_revoked_key_and_a_deleted_accounts_key_are_refused_at_once() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let (first, first_id) = create_key(&server, &token, "first", "write").await;
    let (second, _) = create_key(&server, &token, "second", "read").await;
    assert_eq!(server.get("/api/websites", &first).await.status, StatusCode::OK);
    let revoked = server.delete(&format!("/api/user/api-keys/{first_id}"), &token).await;
    assert_eq!(revoked.status, StatusCode::OK, "{}", revoked.text);
    assert_refused(&server.get("/api/websites", &first).await, StatusCode::UNAUTHORIZED, "revoked");
    assert_eq!(server.get("/api/websites", &second).await.status, StatusCode::OK, "the other key stands");

    let deleted =
        server.call(Method::DELETE, "/api/user/account", Some(&token), Some(json!({"password": "secret1"}))).await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text);
    assert_refused(&server.get("/api/websites", &second).await, StatusCode::UNAUTHORIZED, "account deleted");
}

#[tokio::test]
async fn another_accounts_key_is_not_found_and_keeps_working() {
    let server = TestServer::start().await;
    let (ann, _) = server.register("ann@example.com").await;
    let (bob, _) = server.register("bob@example.com").await;
    let (ann_key, ann_key_id) = create_key(&server, &ann, "ann's", "read").await;
    let refused = server.delete(&format!("/api/user/api-keys/{ann_key_id}"), &bob).await;
    assert_refused(&refused, StatusCode::NOT_FOUND, "bob revoking ann's key");
    let bobs = server.get("/api/user/api-keys", &bob).await;
    assert_eq!(bobs.json, json!([]), "{}", bobs.text);
    assert_eq!(server.get("/api/websites", &ann_key).await.status, StatusCode::OK);
    // A key opens only its own account's data: ann's site is not bob's key's.
    let site = server.create_site(&ann, "Mine", "light").await;
    let (bob_key, _) = create_key(&server, &bob, "bob's", "write").await;
    let path = format!("/api/websites/{}", site["id"]);
    assert_refused(&server.get(&path, &bob_key).await, StatusCode::NOT_FOUND, "another account's site");
}

#[tokio::test]
async fn the_secret_is_shown_once_and_kept_nowhere() {
    let server = TestServer::start().await;
    let (token, _) = server.register("owner@example.com").await;
    let (secret, _) = create_key(&server, &token, "kept nowhere", "write").await;
    assert!(secret.starts_with("trk_") && secret.len() >= 40, "{secret}");
    let listed = server.get("/api/user/api-keys", &token).await;
    assert_eq!(listed.status, StatusCode::OK);
    assert!(!listed.text.contains(&secret[4..]), "the list holds no secret: {}", listed.text);
    assert_eq!(listed.json[0]["prefix"].as_str().unwrap(), &secret[..10]);
    // Nor does the database: every file of the data folder, log included.
    let data = server.dir.path().join("data");
    for entry in std::fs::read_dir(&data).unwrap() {
        let path = entry.unwrap().path();
        if path.is_file() {
            let bytes = std::fs::read(&path).unwrap();
            let found = bytes.windows(secret.len() - 4).any(|w| w == &secret.as_bytes()[4..]);
            assert!(!found, "the secret is in {}", path.display());
        }
    }
}

#[tokio::test]
async fn each_key_has_its_hourly_limit() {
    let server = TestServer::start_with(|config| config.api_key_requests_per_hour = 3).await;
    let (token, _) = server.register("owner@example.com").await;
    let (limited, _) = create_key(&server, &token, "busy", "read").await;
    let (other, _) = create_key(&server, &token, "quiet", "read").await;
    for n in 0..3 {
        assert_eq!(server.get("/api/websites", &limited).await.status, StatusCode::OK, "request {n}");
    }
    let refused = server.get("/api/websites", &limited).await;
    assert_refused(&refused, StatusCode::TOO_MANY_REQUESTS, "the fourth request");
    let retry: u64 = refused.headers["retry-after"].to_str().unwrap().parse().unwrap();
    assert!((1..=3600).contains(&retry), "Retry-After {retry}");
    assert_eq!(server.get("/api/websites", &other).await.status, StatusCode::OK, "another key has its own");
    assert_eq!(server.get("/api/websites", &token).await.status, StatusCode::OK, "a sign-in is not limited by it");
}
