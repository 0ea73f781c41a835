//! Finding 6: tokens could not be revoked. Refresh tokens rotate and a reused one revokes its sign-in; logout
//! and password changes end access tokens already issued; the live stream takes a single-use ticket and ends
//! with its sign-in.

use std::time::Duration;

use futures_util::StreamExt;
use reqwest::{Method, StatusCode};
use serde_json::{Value, json};

use crate::util::{Answer, TestServer};

async fn login(server: &TestServer, email: &str, password: &str) -> Value {
    let answer =
        server.call(Method::POST, "/api/login", None, Some(json!({"email": email, "password": password}))).await;
    assert_eq!(answer.status, StatusCode::OK, "{}", answer.text);
    answer.json
}

async fn refresh(server: &TestServer, refresh_token: &Value) -> Answer {
    server.call(Method::POST, "/api/refresh", None, Some(json!({"refreshToken": refresh_token}))).await
}

#[tokio::test]
async fn refresh_rotates_and_a_reused_token_revokes_the_sign_in() {
    let server = TestServer::start().await;
    let (_, first) = server.register("a@example.com").await;
    let r1 = first["refreshToken"].clone();
    let second = refresh(&server, &r1).await;
    assert_eq!(second.status, StatusCode::OK, "{}", second.text);
    let r2 = second.json["refreshToken"].clone();
    assert!(r2.is_string() && r2 != r1, "a new refresh token each time: {}", second.text);
    let third = refresh(&server, &r2).await;
    assert_eq!(third.status, StatusCode::OK, "{}", third.text);
    let access = third.json["accessToken"].as_str().unwrap().to_string();
    assert_eq!(server.get("/api/websites", &access).await.status, StatusCode::OK);

    // r1 again, after its successor was used: someone else holds a copy. The whole sign-in ends.
    let stolen = refresh(&server, &r1).await;
    assert_eq!(stolen.status, StatusCode::UNAUTHORIZED, "{}", stolen.text);
    assert_eq!(refresh(&server, &third.json["refreshToken"]).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(server.get("/api/websites", &access).await.status, StatusCode::UNAUTHORIZED);
}

/// Issue 34: two tabs, or a page and its reload, refreshing with one token at the same moment. Both get in,
/// with the same successor, and the sign-in goes on: nothing of it is revoked.
#[tokio::test]
async fn two_concurrent_refreshes_with_one_token_both_succeed_and_the_sign_in_survives() {
    let server = TestServer::start().await;
    let (_, first) = server.register("a@example.com").await;
    let r1 = first["refreshToken"].clone();
    let (a, b) = tokio::join!(refresh(&server, &r1), refresh(&server, &r1));
    assert_eq!(a.status, StatusCode::OK, "{}", a.text);
    assert_eq!(b.status, StatusCode::OK, "{}", b.text);
    assert_eq!(a.json["refreshToken"], b.json["refreshToken"], "one successor, whichever tab stores its answer last");
    for answer in [&a, &b] {
        let access = answer.json["accessToken"].as_str().unwrap();
        assert_eq!(server.get("/api/websites", access).await.status, StatusCode::OK);
    }
    // The sign-in goes on with the successor they share, and the access tokens of both refreshes still work.
    let next = refresh(&server, &a.json["refreshToken"]).await;
    assert_eq!(next.status, StatusCode::OK, "{}", next.text);
    for answer in [&a, &b, &next] {
        let access = answer.json["accessToken"].as_str().unwrap();
        assert_eq!(server.get("/api/websites", access).await.status, StatusCode::OK);
    }
    assert_eq!(refresh(&server, &next.json["refreshToken"]).await.status, StatusCode::OK);
}

/// Issue 34: only a token failure invites a refresh. A wrong password is a 401 the client must not answer by
/// refreshing and sending the password again; an expired, forged or revoked access token says `invalid_token`.
#[tokio::test]
async fn only_token_failures_say_invalid_token() {
    let server = TestServer::start().await;
    let (token, session) = server.register("a@example.com").await;
    let invalid = r#"Bearer error="invalid_token""#;
    let www = |answer: &Answer| answer.headers.get("www-authenticate").map(|v| v.to_str().unwrap().to_string());
    let wrong = server
        .put("/api/user/password", &token, json!({"currentPassword": "not-mine", "newPassword": "secret2"}))
        .await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED, "{}", wrong.text);
    assert_eq!(wrong.error_message(), "current password is incorrect");
    assert_eq!(www(&wrong).as_deref(), Some("Bearer"));
    let deletion =
        server.call(Method::DELETE, "/api/user/account", Some(&token), Some(json!({"password": "nope1"}))).await;
    assert_eq!(deletion.status, StatusCode::UNAUTHORIZED, "{}", deletion.text);
    assert_eq!(www(&deletion).as_deref(), Some("Bearer"));
    let login = server.call(Method::POST, "/api/login", None, Some(json!({"email": "a@example.com", "password": "x"})));
    let login = login.await;
    assert_eq!((login.status, www(&login).as_deref()), (StatusCode::UNAUTHORIZED, Some("Bearer")));
    let missing = server.call(Method::GET, "/api/websites", None, None).await;
    assert_eq!((missing.status, www(&missing).as_deref()), (StatusCode::UNAUTHORIZED, Some("Bearer")));

    let forged = server.get("/api/websites", &format!("{token}x")).await;
    assert_eq!((forged.status, www(&forged).as_deref()), (StatusCode::UNAUTHORIZED, Some(invalid)));
    let out =
        server.call(Method::POST, "/api/logout", None, Some(json!({"refreshToken": session["refreshToken"]}))).await;
    assert_eq!(out.status, StatusCode::NO_CONTENT);
    let revoked = server.get("/api/websites", &token).await;
    assert_eq!((revoked.status, www(&revoked).as_deref()), (StatusCode::UNAUTHORIZED, Some(invalid)));
    assert_eq!(revoked.error_message(), "session ended, please sign in again");
}

#[tokio::test]
async fn logout_revokes_the_refresh_token_and_its_access_tokens() {
    let server = TestServer::start().await;
    let (_, session) = server.register("a@example.com").await;
    let other = login(&server, "a@example.com", "secret1").await;
    let access = session["accessToken"].as_str().unwrap();
    let out =
        server.call(Method::POST, "/api/logout", None, Some(json!({"refreshToken": session["refreshToken"]}))).await;
    assert_eq!(out.status, StatusCode::NO_CONTENT, "{}", out.text);
    assert_eq!(refresh(&server, &session["refreshToken"]).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(server.get("/api/websites", access).await.status, StatusCode::UNAUTHORIZED);
    // Another sign-in of the same account goes on.
    assert_eq!(server.get("/api/websites", other["accessToken"].as_str().unwrap()).await.status, StatusCode::OK);
}

#[tokio::test]
async fn password_change_ends_every_sign_in_and_access_token() {
    let server = TestServer::start().await;
    let (_, here) = server.register("a@example.com").await;
    let elsewhere = login(&server, "a@example.com", "secret1").await;
    let changed = server
        .put(
            "/api/user/password",
            here["accessToken"].as_str().unwrap(),
            json!({"currentPassword": "secret1", "newPassword": "secret2"}),
        )
        .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text);
    for token in [&here, &elsewhere] {
        let access = token["accessToken"].as_str().unwrap();
        assert_eq!(server.get("/api/websites", access).await.status, StatusCode::UNAUTHORIZED);
        assert_eq!(refresh(&server, &token["refreshToken"]).await.status, StatusCode::UNAUTHORIZED);
    }
    // The caller goes on with the new pair it was given.
    let access = changed.json["accessToken"].as_str().expect("a new access token");
    assert_eq!(server.get("/api/websites", access).await.status, StatusCode::OK);
    assert_eq!(refresh(&server, &changed.json["refreshToken"]).await.status, StatusCode::OK);
}

#[tokio::test]
async fn stream_tickets_are_single_use_and_access_tokens_stay_out_of_urls() {
    let server = TestServer::start().await;
    let (token, _) = server.register("a@example.com").await;
    let id = server.create_site(&token, "Live", "light").await["id"].as_i64().unwrap();
    let in_url = server.client.get(server.url(&format!("/api/dashboard/live?website_id={id}&token={token}"))).send();
    assert_eq!(in_url.await.unwrap().status(), StatusCode::UNAUTHORIZED);

    let ticket = server.post("/api/dashboard/live/ticket", &token, json!({})).await;
    assert_eq!(ticket.json["expiresIn"], 30, "{}", ticket.text);
    let url =
        server.url(&format!("/api/dashboard/live?website_id={id}&ticket={}", ticket.json["ticket"].as_str().unwrap()));
    let first = server.client.get(&url).send().await.unwrap();
    assert_eq!(first.status(), StatusCode::OK);
    drop(first);
    let again = server.client.get(&url).send().await.unwrap();
    assert_eq!(again.status(), StatusCode::UNAUTHORIZED);
}

#[tokio::test]
async fn live_stream_ends_when_its_sign_in_is_revoked() {
    let server = TestServer::start().await;
    let (token, session) = server.register("a@example.com").await;
    let id = server.create_site(&token, "Live", "light").await["id"].as_i64().unwrap();
    let ticket = server.post("/api/dashboard/live/ticket", &token, json!({})).await.json["ticket"].clone();
    let url = server.url(&format!("/api/dashboard/live?website_id={id}&ticket={}", ticket.as_str().unwrap()));
    let response = server.client.get(url).send().await.unwrap();
    assert_eq!(response.status(), StatusCode::OK);
    let mut stream = response.bytes_stream();
    let snapshot = stream.next().await.expect("a snapshot").unwrap();
    assert!(String::from_utf8_lossy(&snapshot).contains("active_sessions"));

    let out =
        server.call(Method::POST, "/api/logout", None, Some(json!({"refreshToken": session["refreshToken"]}))).await;
    assert_eq!(out.status, StatusCode::NO_CONTENT);
    // The stream re-checks at least every few seconds; it must end on its own, well before keep-alives.
    let ended = tokio::time::timeout(Duration::from_secs(20), async {
        while let Some(chunk) = stream.next().await {
            if chunk.is_err() {
                break;
            }
        }
    })
    .await;
    assert!(ended.is_ok(), "the live stream went on after its sign-in was revoked");
}
