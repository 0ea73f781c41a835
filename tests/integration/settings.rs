//! The Settings screen's API (/api/user/*): defaults, saving and validation of profile, notifications and
//! security settings, the session timeout applied to sign-ins, recorded sign-ins, email change, the account's
//! data export, and two-factor authentication (enrolment, login with a code or a recovery code, limits).

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use totp_rs::{Algorithm, Secret, TOTP};
use tracker_core::model::now_ms;

use crate::util::{Answer, BROWSER_UA, TestServer};

async fn login(server: &TestServer, body: Value) -> Answer {
    let response = server
        .client
        .post(server.url("/api/login"))
        .header("user-agent", BROWSER_UA)
        .json(&body)
        .send()
        .await
        .expect("login");
    crate::util::answer(response).await
}

/// Ages every sign-in of the server by `minutes` (as if nobody had used them since).
fn age_sign_ins(server: &TestServer, minutes: i64) {
    server
        .tracker
        .db()
        .write(|conn| {
            conn.execute("UPDATE auth_sessions SET last_used_at = ?1", [now_ms() - minutes * 60_000])?;
            Ok(())
        })
        .unwrap();
}

#[tokio::test]
async fn settings_start_with_the_spec_defaults() {
    let server = TestServer::start().await;
    let (token, _) = server.register("defaults@example.com").await;
    let settings = server.get("/api/user/settings", &token).await;
    assert_eq!(settings.status, StatusCode::OK, "{}", settings.text);
    assert_eq!(
        settings.json,
        json!({
            "profile": {"name": "", "email": "defaults@example.com", "emailVerified": false, "company": "",
                "timezone": "UTC"},
            "notifications": {"emailAlerts": true, "weeklyReports": true, "realTimeAlerts": false, "marketingEmails": false,
                "emailConfigured": false},
            "security": {"twoFactorEnabled": false, "sessionTimeout": 30, "loginNotifications": true},
            "recentSignIns": []
        })
    );
}

#[tokio::test]
async fn profile_is_saved_with_a_timezone_from_the_iana_list() {
    let server = TestServer::start().await;
    let (token, _) = server.register("profile@example.com").await;
    let saved = server
        .put(
            "/api/user/profile",
            &token,
            json!({"name": " Ada Lovelace ", "company": "Engines", "timezone": "Europe/London"}),
        )
        .await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    assert_eq!(saved.json["name"], "Ada Lovelace");
    let read = server.get("/api/user/settings", &token).await;
    assert_eq!(read.json["profile"]["company"], "Engines");
    assert_eq!(read.json["profile"]["timezone"], "Europe/London");

    for bad in [
        json!({"name": "A", "company": "", "timezone": "Mars/Olympus"}),
        json!({"name": "A", "company": "", "timezone": ""}),
        json!({"name": "A", "company": ""}),
        json!({"name": "x".repeat(201), "company": "", "timezone": "UTC"}),
        json!({"name": 7, "company": "", "timezone": "UTC"}),
    ] {
        let answer = server.put("/api/user/profile", &token, bad.clone()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{bad}: {}", answer.text);
        answer.error_message();
    }
    let unchanged = server.get("/api/user/settings", &token).await;
    assert_eq!(unchanged.json["profile"]["timezone"], "Europe/London");
}

#[tokio::test]
async fn notification_toggles_are_stored() {
    let server = TestServer::start().await;
    let (token, _) = server.register("notify@example.com").await;
    let all = json!({"emailAlerts": false, "weeklyReports": false, "realTimeAlerts": true, "marketingEmails": true});
    let saved = server.put("/api/user/notifications", &token, all.clone()).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);
    let mut answered = all.clone();
    answered["emailConfigured"] = json!(false);
    assert_eq!(saved.json, answered, "the toggles, and that this server sends no email");
    let one = server.put("/api/user/notifications", &token, json!({"weeklyReports": true})).await;
    assert_eq!(one.json["weeklyReports"], true);
    assert_eq!(one.json["realTimeAlerts"], true, "the others keep their value");
    assert_eq!(server.get("/api/user/settings", &token).await.json["notifications"], one.json);
    for bad in [json!({"emailAlerts": "yes"}), json!({"unknown": true}), json!([])] {
        let answer = server.put("/api/user/notifications", &token, bad.clone()).await;
        assert_eq!(answer.status, StatusCode::BAD_REQUEST, "{bad}: {}", answer.text);
        answer.error_message();
    }
}

#[tokio::test]
async fn session_timeout_is_bounded_and_falls_back_to_30() {
    let server = TestServer::start().await;
    let (token, _) = server.register("timeout@example.com").await;
    for (given, status, stored) in [
        (json!(4), StatusCode::BAD_REQUEST, 30),
        (json!(481), StatusCode::BAD_REQUEST, 30),
        (json!(5), StatusCode::OK, 5),
        (json!("480"), StatusCode::OK, 480),
        (json!("soon"), StatusCode::OK, 30),
        (json!(12.5), StatusCode::BAD_REQUEST, 30),
    ] {
        let answer = server.put("/api/user/security", &token, json!({"sessionTimeout": given})).await;
        assert_eq!(answer.status, status, "{given}: {}", answer.text);
        if status == StatusCode::OK {
            assert_eq!(answer.json["sessionTimeout"], stored, "{given}");
        } else {
            answer.error_message();
        }
    }
}

#[tokio::test]
async fn a_sign_in_idle_past_the_session_timeout_ends() {
    let server = TestServer::start().await;
    let (token, session) = server.register("idle@example.com").await;
    let saved = server.put("/api/user/security", &token, json!({"sessionTimeout": 5})).await;
    assert_eq!(saved.status, StatusCode::OK, "{}", saved.text);

    // Four idle minutes are within 5: requests go on (and count as use).
    age_sign_ins(&server, 4);
    assert_eq!(server.get("/api/websites", &token).await.status, StatusCode::OK);
    // Six idle minutes are past it: the access token and the refresh token are both refused.
    age_sign_ins(&server, 6);
    let refused = server.get("/api/websites", &token).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED, "{}", refused.text);
    let refresh =
        server.call(Method::POST, "/api/refresh", None, Some(json!({"refreshToken": session["refreshToken"]}))).await;
    assert_eq!(refresh.status, StatusCode::UNAUTHORIZED, "{}", refresh.text);

    // With the default 30 minutes, six idle minutes are fine.
    let fresh = login(&server, json!({"email": "idle@example.com", "password": "secret1"})).await;
    let access = fresh.json["accessToken"].as_str().unwrap().to_string();
    assert_eq!(server.put("/api/user/security", &access, json!({"sessionTimeout": 30})).await.status, StatusCode::OK);
    age_sign_ins(&server, 6);
    assert_eq!(server.get("/api/websites", &access).await.status, StatusCode::OK);
    let refreshed = server
        .call(Method::POST, "/api/refresh", None, Some(json!({"refreshToken": fresh.json["refreshToken"]})))
        .await;
    assert_eq!(refreshed.status, StatusCode::OK, "{}", refreshed.text);
}

#[tokio::test]
async fn sign_ins_are_recorded_while_login_notifications_are_on() {
    let server = TestServer::start().await;
    let (token, _) = server.register("signins@example.com").await;
    let first = login(&server, json!({"email": "signins@example.com", "password": "secret1"})).await;
    assert_eq!(first.status, StatusCode::OK, "{}", first.text);
    let settings = server.get("/api/user/settings", &token).await;
    let recent = settings.json["recentSignIns"].as_array().unwrap();
    assert_eq!(recent.len(), 1, "{}", settings.text);
    assert_eq!(recent[0]["browser"], "Chrome");
    assert_eq!(recent[0]["ipAddress"], "127.0.0.0", "stored anonymised, as visitors' addresses are");
    assert!(recent[0]["at"].as_str().unwrap().ends_with('Z'));

    let off = server.put("/api/user/security", &token, json!({"loginNotifications": false})).await;
    assert_eq!(off.json["loginNotifications"], false, "{}", off.text);
    login(&server, json!({"email": "signins@example.com", "password": "secret1"})).await;
    let settings = server.get("/api/user/settings", &token).await;
    assert_eq!(settings.json["recentSignIns"], json!([]), "nothing kept while off");
}

#[tokio::test]
async fn email_change_needs_the_current_password() {
    let server = TestServer::start().await;
    let (token, _) = server.register("old@example.com").await;
    server.register("taken@example.com").await;
    let cases = [
        (json!({"newEmail": "new@example.com", "currentPassword": "wrong!"}), StatusCode::UNAUTHORIZED),
        (json!({"newEmail": "not-an-email", "currentPassword": "secret1"}), StatusCode::BAD_REQUEST),
        (json!({"newEmail": "taken@example.com", "currentPassword": "secret1"}), StatusCode::CONFLICT),
        (json!({"newEmail": "new@example.com"}), StatusCode::BAD_REQUEST),
    ];
    for (body, status) in cases {
        let answer = server.put("/api/user/email", &token, body.clone()).await;
        assert_eq!(answer.status, status, "{body}: {}", answer.text);
        answer.error_message();
    }
    let changed = server
        .put("/api/user/email", &token, json!({"newEmail": "new@example.com", "currentPassword": "secret1"}))
        .await;
    assert_eq!(changed.status, StatusCode::OK, "{}", changed.text);
    assert_eq!(changed.json, json!({"email": "new@example.com", "emailVerified": false}));
    assert_eq!(login(&server, json!({"email": "new@example.com", "password": "secret1"})).await.status, StatusCode::OK);
    assert_eq!(
        login(&server, json!({"email": "old@example.com", "password": "secret1"})).await.status,
        StatusCode::UNAUTHORIZED
    );
}

#[tokio::test]
async fn the_data_export_is_the_accounts_own_data_as_one_download() {
    let server = TestServer::start().await;
    let (token, _) = server.register("export@example.com").await;
    let site = server.create_site(&token, "Mine", "enhanced").await;
    let (other, _) = server.register("other@example.com").await;
    server.create_site(&other, "Theirs", "light").await;
    let definition = json!({"name": "signup", "displayName": "Sign up", "eventType": "click", "selector": "#signup"});
    let created = server.post(&format!("/api/websites/{}/event-definitions", site["id"]), &token, definition).await;
    assert!(created.status.is_success(), "{}", created.text);

    let export = server.get("/api/user/export", &token).await;
    assert_eq!(export.status, StatusCode::OK, "{}", export.text);
    let disposition = export.headers["content-disposition"].to_str().unwrap();
    assert!(disposition.starts_with("attachment; filename=\"account-export-"), "{disposition}");
    assert_eq!(export.json["profile"]["email"], "export@example.com");
    assert_eq!(export.json["notifications"]["emailAlerts"], true);
    assert_eq!(export.json["security"]["sessionTimeout"], 30);
    let websites = export.json["websites"].as_array().unwrap();
    assert_eq!(websites.len(), 1, "only the account's own sites: {}", export.text);
    assert_eq!(websites[0]["name"], "Mine");
    assert_eq!(export.json["eventDefinitions"][0]["name"], "signup");
    assert!(export.json["funnels"].is_array());
    for secret in ["password", "argon2", "totp", "Theirs"] {
        assert!(!export.text.contains(secret), "{secret} in the export: {}", export.text);
    }
}

/// The current code of an authenticator app enrolled with `setup`.
fn current_code(setup: &Value) -> String {
    let secret = Secret::Encoded(setup["secret"].as_str().unwrap().to_string()).to_bytes().unwrap();
    TOTP::new(Algorithm::SHA1, 6, 1, 30, secret, Some("tracker".into()), "x".into())
        .unwrap()
        .generate_current()
        .unwrap()
}

/// A code that is not the current one (nor its neighbours).
fn wrong_code(right: &str) -> String {
    let n: u32 = right.parse().unwrap();
    format!("{:06}", (n + 500_000) % 1_000_000)
}

#[tokio::test]
async fn two_factor_is_enrolled_with_a_code_and_then_asked_at_login() {
    let server = TestServer::start().await;
    let (token, _) = server.register("tfa@example.com").await;
    let credentials = json!({"email": "tfa@example.com", "password": "secret1"});
    let setup = server.post("/api/user/two-factor/setup", &token, json!({"password": "secret1"})).await;
    assert_eq!(setup.status, StatusCode::OK, "{}", setup.text);
    let url = setup.json["otpauthUrl"].as_str().unwrap();
    assert!(url.starts_with("otpauth://totp/tracker:tfa%40example.com?"), "{url}");
    assert!(url.contains(&format!("secret={}", setup.json["secret"].as_str().unwrap())), "{url}");
    assert!(setup.json["qrSvg"].as_str().unwrap().contains("<svg"));
    // Not confirmed yet: login asks for nothing.
    assert!(login(&server, credentials.clone()).await.json["accessToken"].is_string());

    let code = current_code(&setup.json);
    let wrong = server
        .post("/api/user/two-factor/enable", &token, json!({"password": "secret1", "code": wrong_code(&code)}))
        .await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED, "{}", wrong.text);
    assert_eq!(wrong.error_message(), "invalid two-factor code");
    let enabled =
        server.post("/api/user/two-factor/enable", &token, json!({"password": "secret1", "code": code})).await;
    assert_eq!(enabled.status, StatusCode::OK, "{}", enabled.text);
    let recovery: Vec<String> =
        enabled.json["recoveryCodes"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect();
    assert_eq!(recovery.len(), 10);
    let settings = server.get("/api/user/settings", &token).await;
    assert_eq!(settings.json["security"]["twoFactorEnabled"], true);
    let again = server.post("/api/user/two-factor/setup", &token, json!({"password": "secret1"})).await;
    assert_eq!(again.status, StatusCode::CONFLICT, "{}", again.text);

    // The password alone now only earns the question.
    let asked = login(&server, credentials.clone()).await;
    assert_eq!(asked.status, StatusCode::OK, "{}", asked.text);
    assert_eq!(asked.json, json!({"twoFactorRequired": true}));
    // A wrong password still fails as before, code or not.
    let bad_password = login(&server, json!({"email": "tfa@example.com", "password": "nope!!", "code": code})).await;
    assert_eq!(bad_password.status, StatusCode::UNAUTHORIZED);
    // The code used to enrol was used once already: not again.
    let replayed = login(&server, json!({"email": "tfa@example.com", "password": "secret1", "code": code})).await;
    assert_eq!(replayed.status, StatusCode::UNAUTHORIZED, "{}", replayed.text);
    // A recovery code signs in, once.
    let with_recovery =
        login(&server, json!({"email": "tfa@example.com", "password": "secret1", "code": recovery[0].to_uppercase()}))
            .await;
    assert_eq!(with_recovery.status, StatusCode::OK, "{}", with_recovery.text);
    assert!(with_recovery.json["accessToken"].is_string());
    let reused = login(&server, json!({"email": "tfa@example.com", "password": "secret1", "code": recovery[0]})).await;
    assert_eq!(reused.status, StatusCode::UNAUTHORIZED, "{}", reused.text);

    // Off with the password (a wrong one is refused) and a recovery code, then the password is enough again.
    let refused =
        server.post("/api/user/two-factor/disable", &token, json!({"password": "wrong!", "code": recovery[1]})).await;
    assert_eq!(refused.status, StatusCode::UNAUTHORIZED, "{}", refused.text);
    let off =
        server.post("/api/user/two-factor/disable", &token, json!({"password": "secret1", "code": recovery[1]})).await;
    assert_eq!(off.status, StatusCode::OK, "{}", off.text);
    assert!(login(&server, credentials).await.json["accessToken"].is_string());
}

#[tokio::test]
async fn wrong_two_factor_codes_are_limited_per_account() {
    let server = TestServer::start().await;
    let (token, _) = server.register("guess@example.com").await;
    let setup = server.post("/api/user/two-factor/setup", &token, json!({"password": "secret1"})).await;
    let code = current_code(&setup.json);
    let enabled =
        server.post("/api/user/two-factor/enable", &token, json!({"password": "secret1", "code": code})).await;
    assert_eq!(enabled.status, StatusCode::OK, "{}", enabled.text);
    let recovery = enabled.json["recoveryCodes"][0].as_str().unwrap().to_string();
    for attempt in 0..5 {
        let guess = format!("{:06}", 111_111 * (attempt + 1) % 1_000_000);
        let answer = login(&server, json!({"email": "guess@example.com", "password": "secret1", "code": guess})).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "attempt {attempt}: {}", answer.text);
    }
    // Past the limit even a right code waits.
    let limited = login(&server, json!({"email": "guess@example.com", "password": "secret1", "code": recovery})).await;
    assert_eq!(limited.status, StatusCode::TOO_MANY_REQUESTS, "{}", limited.text);
    limited.error_message();
}

#[tokio::test]
async fn a_deleted_accounts_token_opens_none_of_the_settings_routes() {
    let server = TestServer::start().await;
    let (token, _) = server.register("gone@example.com").await;
    let deleted =
        server.call(Method::DELETE, "/api/user/account", Some(&token), Some(json!({"password": "secret1"}))).await;
    assert_eq!(deleted.status, StatusCode::OK, "{}", deleted.text);
    let calls: [(Method, &str, Option<Value>); 8] = [
        (Method::GET, "/api/user/settings", None),
        (Method::PUT, "/api/user/profile", Some(json!({"name": "x", "company": "", "timezone": "UTC"}))),
        (Method::PUT, "/api/user/notifications", Some(json!({"emailAlerts": false}))),
        (Method::PUT, "/api/user/security", Some(json!({"sessionTimeout": 60}))),
        (Method::PUT, "/api/user/email", Some(json!({"newEmail": "x@example.com", "currentPassword": "secret1"}))),
        (Method::GET, "/api/user/export", None),
        (Method::POST, "/api/user/two-factor/setup", Some(json!({"password": "secret1"}))),
        (Method::POST, "/api/user/two-factor/disable", Some(json!({"password": "secret1"}))),
    ];
    for (method, path, body) in calls {
        let answer = server.call(method.clone(), path, Some(&token), body).await;
        assert_eq!(answer.status, StatusCode::UNAUTHORIZED, "{method} {path}: {}", answer.text);
        answer.error_message();
    }
}
