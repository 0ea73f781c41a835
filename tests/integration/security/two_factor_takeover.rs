//! Finding 3 of issue 33: a stolen access token turned two-factor sign-in against the owner. Setup and enable
//! took the bearer token alone, so a thief enrolled an authenticator of their own and the owner's right
//! password then asked for a code they did not have, with nothing to undo it. Now setup and enable ask for the
//! current password, disable for the password and a code (or a recovery code), turning two-factor on ends every
//! other sign-in, and `tracker users 2fa-reset` lets the operator clear it, recorded in the account's audit log.

use reqwest::{Method, StatusCode};
use serde_json::{Value, json};
use totp_rs::{Algorithm, Secret, TOTP};

use crate::cli::Cli;
use crate::util::{Answer, TestServer};

const PASSWORD: &str = "secret1";

/// The current code of an authenticator app enrolled with `setup`.
fn current_code(setup: &Value) -> String {
    let secret = Secret::Encoded(setup["secret"].as_str().unwrap().to_string()).to_bytes().unwrap();
    TOTP::new(Algorithm::SHA1, 6, 1, 30, secret, Some("tracker".into()), "x".into())
        .unwrap()
        .generate_current()
        .unwrap()
}

async fn login(server: &TestServer, email: &str, code: Option<&str>) -> Answer {
    let mut body = json!({"email": email, "password": PASSWORD});
    if let Some(code) = code {
        body["code"] = json!(code);
    }
    server.call(Method::POST, "/api/login", None, Some(body)).await
}

async fn refresh(server: &TestServer, refresh_token: &Value) -> Answer {
    server.call(Method::POST, "/api/refresh", None, Some(json!({"refreshToken": refresh_token}))).await
}

/// Enrols an authenticator with the password; answers the recovery codes.
async fn enrol(server: &TestServer, token: &str) -> Vec<String> {
    let setup = server.post("/api/user/two-factor/setup", token, json!({"password": PASSWORD})).await;
    assert_eq!(setup.status, StatusCode::OK, "{}", setup.text);
    let body = json!({"password": PASSWORD, "code": current_code(&setup.json)});
    let enabled = server.post("/api/user/two-factor/enable", token, body).await;
    assert_eq!(enabled.status, StatusCode::OK, "{}", enabled.text);
    enabled.json["recoveryCodes"].as_array().unwrap().iter().map(|c| c.as_str().unwrap().to_string()).collect()
}

#[tokio::test]
async fn a_stolen_token_alone_cannot_enrol_an_authenticator() {
    let server = TestServer::start().await;
    let (stolen, _) = server.register("owner@example.com").await;

    // Without the password, or with a guess, no secret is handed out.
    let bare = server.call(Method::POST, "/api/user/two-factor/setup", Some(&stolen), None).await;
    assert!(bare.status.is_client_error(), "{}: {}", bare.status, bare.text);
    bare.error_message();
    let empty = server.post("/api/user/two-factor/setup", &stolen, json!({})).await;
    assert_eq!(empty.status, StatusCode::BAD_REQUEST, "{}", empty.text);
    let guessed = server.post("/api/user/two-factor/setup", &stolen, json!({"password": "guess!!"})).await;
    assert_eq!(guessed.status, StatusCode::UNAUTHORIZED, "{}", guessed.text);
    assert_eq!(guessed.error_message(), "current password is incorrect");
    assert!(guessed.json.get("secret").is_none());

    // Nor is an enrolment confirmed by a code alone (the secret shown to the owner, the code guessed right).
    let setup = server.post("/api/user/two-factor/setup", &stolen, json!({"password": PASSWORD})).await;
    assert_eq!(setup.status, StatusCode::OK, "{}", setup.text);
    let code = current_code(&setup.json);
    let no_password = server.post("/api/user/two-factor/enable", &stolen, json!({"code": code})).await;
    assert_eq!(no_password.status, StatusCode::BAD_REQUEST, "{}", no_password.text);
    let wrong = server.post("/api/user/two-factor/enable", &stolen, json!({"password": "guess!!", "code": code})).await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED, "{}", wrong.text);

    // The owner's password is still all a sign-in asks.
    let owner = login(&server, "owner@example.com", None).await;
    assert_eq!(owner.status, StatusCode::OK, "{}", owner.text);
    assert!(owner.json["accessToken"].is_string(), "{}", owner.text);
}

#[tokio::test]
async fn turning_two_factor_off_needs_a_code_as_well_as_the_password() {
    let server = TestServer::start().await;
    let (token, _) = server.register("off@example.com").await;
    let recovery = enrol(&server, &token).await;

    let password_only = server.post("/api/user/two-factor/disable", &token, json!({"password": PASSWORD})).await;
    assert_eq!(password_only.status, StatusCode::BAD_REQUEST, "{}", password_only.text);
    password_only.error_message();
    let wrong =
        server.post("/api/user/two-factor/disable", &token, json!({"password": PASSWORD, "code": "000000"})).await;
    assert_eq!(wrong.status, StatusCode::UNAUTHORIZED, "{}", wrong.text);
    assert_eq!(wrong.error_message(), "invalid two-factor code");
    let settings = server.get("/api/user/settings", &token).await;
    assert_eq!(settings.json["security"]["twoFactorEnabled"], true, "still on");

    let off =
        server.post("/api/user/two-factor/disable", &token, json!({"password": PASSWORD, "code": recovery[0]})).await;
    assert_eq!(off.status, StatusCode::OK, "{}", off.text);
    assert_eq!(server.get("/api/user/settings", &token).await.json["security"]["twoFactorEnabled"], false);
}

#[tokio::test]
async fn turning_two_factor_on_ends_every_other_sign_in() {
    let server = TestServer::start().await;
    let (_, first) = server.register("on@example.com").await;
    let other = login(&server, "on@example.com", None).await;
    assert_eq!(other.status, StatusCode::OK, "{}", other.text);
    let other_access = other.json["accessToken"].as_str().unwrap();
    assert_eq!(server.get("/api/websites", other_access).await.status, StatusCode::OK);

    let caller = first["accessToken"].as_str().unwrap();
    enrol(&server, caller).await;

    // The other sign-in (perhaps the thief's) is over: its access token and its refresh token.
    assert_eq!(server.get("/api/websites", other_access).await.status, StatusCode::UNAUTHORIZED);
    assert_eq!(refresh(&server, &other.json["refreshToken"]).await.status, StatusCode::UNAUTHORIZED);
    // The caller's goes on, refresh included.
    assert_eq!(server.get("/api/websites", caller).await.status, StatusCode::OK);
    let renewed = refresh(&server, &first["refreshToken"]).await;
    assert_eq!(renewed.status, StatusCode::OK, "{}", renewed.text);
}

#[tokio::test]
async fn an_operator_resets_two_factor_from_the_command_line_and_it_is_audited() {
    let server = TestServer::start().await;
    let (token, _) = server.register("locked@example.com").await;
    enrol(&server, &token).await;
    assert_eq!(login(&server, "locked@example.com", None).await.json, json!({"twoFactorRequired": true}));

    let cli = Cli::new(&server.dir.path().join("data"));
    let reset = cli.json(&["users", "2fa-reset", "locked@example.com"]);
    assert_eq!(reset["signInsEnded"], 1, "{reset}");

    // The password alone signs in again; the sign-in that was open has ended.
    let back = login(&server, "locked@example.com", None).await;
    assert_eq!(back.status, StatusCode::OK, "{}", back.text);
    assert!(back.json["accessToken"].is_string(), "{}", back.text);
    assert_eq!(server.get("/api/websites", &token).await.status, StatusCode::UNAUTHORIZED);
    let settings = server.get("/api/user/settings", back.json["accessToken"].as_str().unwrap()).await;
    assert_eq!(settings.json["security"]["twoFactorEnabled"], false);

    // Recorded: the owner's enrolment, then the operator's reset.
    let entries: Vec<(String, String)> = server
        .tracker
        .db()
        .read(|conn| {
            let mut stmt = conn.prepare(
                "SELECT a.actor, a.action FROM account_audit a JOIN users u ON u.id = a.user_id
                 WHERE u.email = 'locked@example.com' ORDER BY a.id",
            )?;
            let rows = stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?)))?;
            Ok(rows.collect::<rusqlite::Result<Vec<_>>>()?)
        })
        .unwrap();
    assert_eq!(
        entries,
        [
            ("locked@example.com".to_string(), "two_factor_enabled".to_string()),
            ("cli".to_string(), "two_factor_reset".to_string())
        ]
    );

    // A second reset has nothing to clear, and says so.
    let again = cli.output(&["users", "2fa-reset", "locked@example.com"]);
    assert!(!again.status.success());
    let stderr = String::from_utf8_lossy(&again.stderr);
    assert!(stderr.contains("two-factor authentication is not on"), "{stderr}");
}
