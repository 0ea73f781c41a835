//! Registration, login, refresh and the current user (spec part 1 §7), with every bad input.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::util::TestServer;

#[tokio::test]
async fn register_login_refresh_and_current_user() {
    let server = TestServer::start().await;
    let (token, session) = server.register("alice@example.com").await;
    assert_eq!(session["user"]["email"], "alice@example.com");
    assert!(session["refreshToken"].as_str().unwrap().len() >= 40);

    let me = server.get("/api/user", &token).await;
    assert_eq!(me.status, StatusCode::OK);
    assert_eq!(me.json["email"], "alice@example.com");

    let login = server
        .call(Method::POST, "/api/login", None, Some(json!({"email": "ALICE@example.com", "password": "secret1"})))
        .await;
    assert_eq!(login.status, StatusCode::OK, "{}", login.text);
    let refresh = login.json["refreshToken"].as_str().unwrap();
    let refreshed = server.call(Method::POST, "/api/refresh", None, Some(json!({"refreshToken": refresh}))).await;
    assert_eq!(refreshed.status, StatusCode::OK);
    let new_token = refreshed.json["accessToken"].as_str().unwrap();
    assert_eq!(server.get("/api/user", new_token).await.json["email"], "alice@example.com");
}

#[tokio::test]
async fn bad_registrations_are_4xx_with_json_errors() {
    let server = TestServer::start().await;
    server.register("taken@example.com").await;
    let cases = [
        (json!({"email": "not-an-email", "password": "secret1"}), StatusCode::BAD_REQUEST),
        (json!({"email": "a@b.co", "password": "12345"}), StatusCode::BAD_REQUEST),
        (json!({"email": "taken@example.com", "password": "secret1"}), StatusCode::CONFLICT),
        (json!({"email": "a@b.co"}), StatusCode::BAD_REQUEST),
        (json!("nope"), StatusCode::BAD_REQUEST),
    ];
    for (body, status) in cases {
        let answer = server.call(Method::POST, "/api/register", None, Some(body.clone())).await;
        assert_eq!(answer.status, status, "{body}: {}", answer.text);
        assert!(!answer.error_message().is_empty());
    }
    let users = server.tracker.auth.list_users().unwrap();
    assert_eq!(users.len(), 1, "nothing stored on bad input");
}

#[tokio::test]
async fn wrong_credentials_are_401_and_limited_per_ip() {
    let server = TestServer::start().await;
    server.register("bob@example.com").await;
    for _ in 0..20 {
        let answer = server
            .call(Method::POST, "/api/login", None, Some(json!({"email": "bob@example.com", "password": "wrong!!"})))
            .await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
        assert_eq!(answer.error_message(), "invalid email or password");
    }
    let blocked = server
        .call(Method::POST, "/api/login", None, Some(json!({"email": "bob@example.com", "password": "secret1"})))
        .await;
    assert_eq!(blocked.status, StatusCode::TOO_MANY_REQUESTS, "{}", blocked.text);
    blocked.error_message();
}

#[tokio::test]
async fn missing_expired_forged_and_alg_none_tokens_are_401() {
    let server = TestServer::start().await;
    let (token, _) = server.register("carol@example.com").await;
    let missing = server.call(Method::GET, "/api/user", None, None).await;
    assert_eq!(missing.status, StatusCode::UNAUTHORIZED);
    missing.error_message();

    let parts: Vec<&str> = token.split('.').collect();
    let forged = format!("{}.{}.{}", parts[0], parts[1], "AAAA".repeat(10));
    use base64::Engine;
    let b64 = base64::engine::general_purpose::URL_SAFE_NO_PAD;
    let none = format!("{}.{}.", b64.encode(r#"{"alg":"none","typ":"JWT"}"#), parts[1]);
    let expired_claims = b64.encode(r#"{"sub":"1","iat":1,"exp":2}"#);
    let expired = format!("{}.{}.{}", parts[0], expired_claims, parts[2]);
    for bad in [forged, none, expired, "garbage".to_string()] {
        let answer = server.get("/api/user", &bad).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{bad}");
        answer.error_message();
    }
    let bad_refresh = server.call(Method::POST, "/api/refresh", None, Some(json!({"refreshToken": "nope"}))).await;
    assert_eq!(bad_refresh.status, StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn signing_secret_is_created_private() {
    let server = TestServer::start().await;
    let path = server.dir.path().join("data/secret.key");
    let meta = std::fs::metadata(&path).expect("secret.key exists");
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        assert_eq!(meta.permissions().mode() & 0o777, 0o600);
    }
    assert!(meta.len() >= 32);
}

#[tokio::test]
async fn password_change_and_account_deletion_revoke_refresh_tokens() {
    let server = TestServer::start().await;
    let (token, session) = server.register("dave@example.com").await;
    let refresh = session["refreshToken"].as_str().unwrap().to_string();
    let wrong =
        server.put("/api/user/password", &token, json!({"currentPassword": "nope!!", "newPassword": "better1"})).await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    let short =
        server.put("/api/user/password", &token, json!({"currentPassword": "secret1", "newPassword": "12345"})).await;
    assert_eq!(short.status, StatusCode::BAD_REQUEST);
    short.error_message();
    let refreshed = server.call(Method::POST, "/api/refresh", None, Some(json!({"refreshToken": refresh}))).await;
    assert_eq!(refreshed.status, StatusCode::OK, "failed attempts revoke nothing");

    let changed =
        server.put("/api/user/password", &token, json!({"currentPassword": "secret1", "newPassword": "better1"})).await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text);
    let revoked = server.call(Method::POST, "/api/refresh", None, Some(json!({"refreshToken": refresh}))).await;
    assert_eq!(revoked.status, StatusCode::UNAUTHORIZED);
    let old = server
        .call(Method::POST, "/api/login", None, Some(json!({"email": "dave@example.com", "password": "secret1"})))
        .await;
    assert_eq!(old.status, StatusCode::UNAUTHORIZED);
    let login = server
        .call(Method::POST, "/api/login", None, Some(json!({"email": "dave@example.com", "password": "better1"})))
        .await;
    assert_eq!(login.status, StatusCode::OK);
    let (token, refresh) = (
        login.json["accessToken"].as_str().unwrap().to_string(),
        login.json["refreshToken"].as_str().unwrap().to_string(),
    );

    let site = server.create_site(&token, "Doomed", "light").await;
    let key = site["trackingKey"].as_str().unwrap().to_string();
    assert_eq!(server.pageview(&key, "doomed-session", "/").await.status, StatusCode::ACCEPTED);
    let refused = server.call(Method::DELETE, "/api/user/account", Some(&token), Some(json!({"password": "x"}))).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED);
    let deleted =
        server.call(Method::DELETE, "/api/user/account", Some(&token), Some(json!({"password": "better1"}))).await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text);
    assert_eq!(server.get("/api/user", &token).await.status, StatusCode::UNAUTHORIZED);
    let refresh = server.call(Method::POST, "/api/refresh", None, Some(json!({"refreshToken": refresh}))).await;
    assert_eq!(refresh.status, StatusCode::UNAUTHORIZED);
    let sessions: i64 = server
        .tracker
        .db()
        .read(|conn| Ok(conn.query_row("SELECT COUNT(*) FROM sessions", [], |r| r.get(0))?))
        .unwrap();
    assert_eq!(sessions, 0, "the account's sites and data are gone");
}
