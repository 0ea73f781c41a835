//! Finding 4: the login limit was bypassed with X-Forwarded-For (its left-most entry was believed), password
//! checks of password change and account deletion were not limited, and check and count were two steps. One
//! function decides the client address for limits, geolocation, visitor hashing and the consent log.

use reqwest::{Method, StatusCode};
use serde_json::json;

use crate::util::{BROWSER_UA, TestServer};

async fn server_with_limit(limit: u32) -> TestServer {
    TestServer::start_with(|config| config.login_attempts_per_minute = limit).await
}

/// A login of a@example.com through a (trusted, loopback) proxy that says the client is `forwarded_for`.
async fn login_via(server: &TestServer, forwarded_for: &str, password: &str) -> StatusCode {
    login_as(server, "a@example.com", forwarded_for, password).await
}

async fn login_as(server: &TestServer, email: &str, forwarded_for: &str, password: &str) -> StatusCode {
    server
        .client
        .post(server.url("/api/login"))
        .header("x-forwarded-for", forwarded_for)
        .json(&json!({"email": email, "password": password}))
        .send()
        .await
        .unwrap()
        .status()
}

#[tokio::test]
async fn login_limit_bypassed_with_x_forwarded_for_is_closed() {
    let server = server_with_limit(3).await;
    server.register("a@example.com").await;
    server.register("b@example.com").await;
    // The proxy appends the real client on the right; the left is whatever the client sent.
    for i in 0..3 {
        assert_eq!(login_via(&server, &format!("10.9.8.{i}, 203.0.113.5"), "wrong").await, StatusCode::UNAUTHORIZED);
    }
    assert_eq!(login_via(&server, "10.9.8.200, 203.0.113.5", "secret1").await, StatusCode::TOO_MANY_REQUESTS);
    // Another client of the proxy, to another account, is not affected.
    assert_eq!(login_as(&server, "b@example.com", "198.51.100.1", "secret1").await, StatusCode::OK);
}

#[tokio::test]
async fn ipv6_clients_are_limited_by_their_64() {
    let server = server_with_limit(3).await;
    server.register("b@example.com").await;
    server.register("a@example.com").await;
    for i in 1..=3 {
        let status = login_as(&server, "b@example.com", &format!("2001:db8:7:7::{i}"), "wrong").await;
        assert_eq!(status, StatusCode::UNAUTHORIZED);
    }
    // Same /64, another address, another account: still the same network's limit.
    assert_eq!(login_via(&server, "2001:db8:7:7:ffff::1", "secret1").await, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn failures_are_limited_per_account_across_networks() {
    let server = server_with_limit(3).await;
    server.register("a@example.com").await;
    for i in 0..3 {
        assert_eq!(login_via(&server, &format!("198.51.100.{i}"), "wrong").await, StatusCode::UNAUTHORIZED);
    }
    assert_eq!(login_via(&server, "198.51.100.99", "secret1").await, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn parallel_guesses_cannot_pass_the_limit() {
    let server = server_with_limit(3).await;
    server.register("a@example.com").await;
    let guesses = (0..16).map(|_| login_via(&server, "203.0.113.9", "wrong"));
    let statuses = futures_util::future::join_all(guesses).await;
    let checked = statuses.iter().filter(|s| **s == StatusCode::UNAUTHORIZED).count();
    assert!(checked <= 3, "{checked} passwords were checked past a limit of 3: {statuses:?}");
    assert!(statuses.iter().all(|s| *s == StatusCode::UNAUTHORIZED || *s == StatusCode::TOO_MANY_REQUESTS));
}

#[tokio::test]
async fn password_checks_of_password_change_email_change_and_account_deletion_are_limited() {
    let server = server_with_limit(3).await;
    let (token, _) = server.register("a@example.com").await;
    let wrong = json!({"currentPassword": "wrong", "newPassword": "secret2"});
    assert_eq!(server.put("/api/user/password", &token, wrong).await.status, StatusCode::UNAUTHORIZED);
    let wrong = json!({"newEmail": "b@example.com", "currentPassword": "wrong"});
    assert_eq!(server.put("/api/user/email", &token, wrong).await.status, StatusCode::UNAUTHORIZED);
    let wrong =
        server.call(Method::DELETE, "/api/user/account", Some(&token), Some(json!({"password": "wrong"}))).await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED);
    let right = json!({"currentPassword": "secret1", "newPassword": "secret2"});
    assert_eq!(server.put("/api/user/password", &token, right).await.status, StatusCode::TOO_MANY_REQUESTS);
    let right = json!({"newEmail": "b@example.com", "currentPassword": "secret1"});
    assert_eq!(server.put("/api/user/email", &token, right).await.status, StatusCode::TOO_MANY_REQUESTS);
}

#[tokio::test]
async fn visitor_address_comes_from_the_right_of_x_forwarded_for() {
    let server = TestServer::start().await;
    let (token, _) = server.register("a@example.com").await;
    let key = server.create_site(&token, "Site", "light").await["trackingKey"].as_str().unwrap().to_string();
    let hit = json!({"tracking_key": key, "session_id": "session-0001", "url": "https://site.example.com/"});
    let answer = server
        .client
        .post(server.url("/api/track"))
        .header("user-agent", BROWSER_UA)
        .header("x-forwarded-for", "8.8.8.8, 203.0.113.77")
        .body(hit.to_string())
        .send()
        .await
        .unwrap();
    assert_eq!(answer.status(), StatusCode::ACCEPTED);
    let db = rusqlite::Connection::open(server.dir.path().join("data/tracker.db")).unwrap();
    let ip: String = db.query_row("SELECT ip_address FROM sessions", [], |r| r.get(0)).unwrap();
    assert_eq!(ip, "203.0.113.0", "the client the proxy saw, anonymised; not the spoofed left entry");
}
