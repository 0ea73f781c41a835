//! Finding 5: registration was open, unthrottled and accepted cross-site text/plain POSTs.

use reqwest::{Method, StatusCode};
use serde_json::json;
use tracker_core::config::RegistrationMode;

use crate::util::TestServer;

async fn sign_up(server: &TestServer, email: &str) -> StatusCode {
    server.call(Method::POST, "/api/register", None, Some(json!({"email": email, "password": "secret1"}))).await.status
}

async fn registration_open(server: &TestServer) -> bool {
    let answer = server.call(Method::GET, "/api/registration", None, None).await;
    answer.json["open"].as_bool().unwrap_or_else(|| panic!("{}", answer.text))
}

#[tokio::test]
async fn first_user_mode_admits_only_the_first_account() {
    let server = TestServer::start_with(|config| config.registration = RegistrationMode::FirstUser).await;
    assert!(registration_open(&server).await);
    assert_eq!(sign_up(&server, "operator@example.com").await, StatusCode::CREATED);
    assert!(!registration_open(&server).await);
    let second = server
        .call(Method::POST, "/api/register", None, Some(json!({"email": "b@example.com", "password": "secret1"})))
        .await;
    assert_eq!(second.status, StatusCode::FORBIDDEN);
    assert!(second.error_message().contains("tracker users add") || second.error_message().contains("operator"));
    // The operator still creates accounts from the shell.
    server.tracker.auth.create_user("b@example.com", "secret1").unwrap();
    assert_eq!(server.tracker.auth.list_users().unwrap().len(), 2);
}

#[tokio::test]
async fn closed_mode_refuses_every_sign_up() {
    let server = TestServer::start_with(|config| config.registration = RegistrationMode::Closed).await;
    assert!(!registration_open(&server).await);
    assert_eq!(sign_up(&server, "a@example.com").await, StatusCode::FORBIDDEN);
    assert!(server.tracker.auth.list_users().unwrap().is_empty());
}

#[tokio::test]
async fn sign_ups_are_limited_per_network() {
    let server = TestServer::start_with(|config| config.registrations_per_hour = 2).await;
    assert_eq!(sign_up(&server, "a@example.com").await, StatusCode::CREATED);
    assert_eq!(sign_up(&server, "b@example.com").await, StatusCode::CREATED);
    assert_eq!(sign_up(&server, "c@example.com").await, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn auth_routes_refuse_cross_site_text_plain_posts() {
    let server = TestServer::start().await;
    let body = json!({"email": "a@example.com", "password": "secret1"}).to_string();
    for path in ["/api/register", "/api/login", "/api/refresh", "/api/logout"] {
        let answer = crate::util::answer(
            server
                .client
                .post(server.url(path))
                .header("content-type", "text/plain")
                .body(body.clone())
                .send()
                .await
                .unwrap(),
        )
        .await;
        assert_eq!(answer.status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{path}: {}", answer.text);
        answer.error_message();
    }
    assert!(server.tracker.auth.list_users().unwrap().is_empty(), "no account was made");
}

#[tokio::test]
async fn unknown_email_logins_count_like_wrong_passwords() {
    // The unknown email goes through the same password check (a dummy hash), and counts toward the limit.
    let server = TestServer::start_with(|config| config.login_attempts_per_minute = 2).await;
    server.register("a@example.com").await;
    for _ in 0..2 {
        let answer = server
            .call(Method::POST, "/api/login", None, Some(json!({"email": "nobody@example.com", "password": "x"})))
            .await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED);
        assert_eq!(answer.error_message(), "invalid email or password");
    }
    let answer = server
        .call(Method::POST, "/api/login", None, Some(json!({"email": "a@example.com", "password": "secret1"})))
        .await;
    assert_eq!(answer.status, StatusCode::TOO_MANY_REQUESTS);
}
