//! /api/register, /api/login, /api/refresh, /api/logout, /api/registration and /api/user (spec part 1 §7,
//! with the token rotation and revocation of API.md).

use serde::Deserialize;
use tracker_core::Tracker;
use tracker_core::auth::{Login, Principal};
use tracker_core::ingest::Client;
use warp::http::StatusCode;
use warp::{Filter, Rejection, Reply};

use super::{api_body, bearer, blocking, client, principal, with_tracker};

#[derive(Deserialize)]
struct Credentials {
    email: String,
    password: String,
    /// The second factor at login (a TOTP code or a recovery code), when the account has it on.
    #[serde(default)]
    code: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RefreshRequest {
    refresh_token: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct LogoutRequest {
    refresh_token: Option<String>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct PasswordChange {
    current_password: String,
    new_password: String,
}

#[derive(Deserialize)]
struct AccountDeletion {
    password: String,
}

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let register = warp::path!("register")
        .and(warp::post())
        .and(with_tracker(tracker.clone()))
        .and(client(tracker.clone()))
        .and(api_body())
        .and_then(register);
    let registration =
        warp::path!("registration").and(warp::get()).and(with_tracker(tracker.clone())).and_then(registration);
    let login = warp::path!("login")
        .and(warp::post())
        .and(with_tracker(tracker.clone()))
        .and(client(tracker.clone()))
        .and(api_body())
        .and_then(login);
    let refresh =
        warp::path!("refresh").and(warp::post()).and(with_tracker(tracker.clone())).and(api_body()).and_then(refresh);
    let logout = warp::path!("logout")
        .and(warp::post())
        .and(with_tracker(tracker.clone()))
        .and(warp::header::optional::<String>("authorization"))
        .and(api_body())
        .and_then(logout);
    let current = warp::path!("user")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(principal(tracker.clone()))
        .and_then(current_user);
    let password = warp::path!("user" / "password")
        .and(warp::put())
        .and(with_tracker(tracker.clone()))
        .and(principal(tracker.clone()))
        .and(client(tracker.clone()))
        .and(api_body())
        .and_then(change_password);
    let account = warp::path!("user" / "account")
        .and(warp::delete())
        .and(with_tracker(tracker.clone()))
        .and(principal(tracker.clone()))
        .and(client(tracker))
        .and(api_body())
        .and_then(delete_account);
    register.or(registration).or(login).or(refresh).or(logout).or(current).or(password).or(account)
}

async fn register(tracker: Tracker, client: Client, body: Credentials) -> Result<impl Reply, Rejection> {
    let session = blocking(move || tracker.auth.register(&body.email, &body.password, client.ip)).await?;
    Ok(warp::reply::with_status(warp::reply::json(&session), StatusCode::CREATED))
}

/// Whether the Sign Up tab can create an account here.
async fn registration(tracker: Tracker) -> Result<impl Reply, Rejection> {
    let (mode, open) = blocking(move || tracker.auth.registration()).await?;
    Ok(warp::reply::json(&serde_json::json!({ "mode": mode.as_str(), "open": open })))
}

/// A sign-in, or `{twoFactorRequired: true}` when the password is right and a second factor is needed (the
/// client then sends the same body with `code`). Sign-ins are recorded while login notifications are on.
async fn login(tracker: Tracker, client: Client, body: Credentials) -> Result<impl Reply, Rejection> {
    let outcome = blocking(move || {
        let outcome = tracker.auth.login(&body.email, &body.password, body.code.as_deref(), client.ip)?;
        if let Login::Session(session) = &outcome {
            let browser = tracker.ingest.enricher().user_agent(&client.user_agent).browser.clone();
            tracker.account.record_sign_in(session.user.id, client.ip, &browser)?;
        }
        Ok(outcome)
    })
    .await?;
    Ok(warp::reply::json(&outcome))
}

/// A new access token and a new refresh token; the presented refresh token is used up.
async fn refresh(tracker: Tracker, body: RefreshRequest) -> Result<impl Reply, Rejection> {
    let tokens = blocking(move || tracker.auth.refresh(&body.refresh_token)).await?;
    Ok(warp::reply::json(&tokens))
}

/// Ends the sign-in of the refresh token in the body, or else of the bearer token; 204 either way once done.
async fn logout(tracker: Tracker, authorization: Option<String>, body: LogoutRequest) -> Result<impl Reply, Rejection> {
    let access_token = bearer(authorization.as_deref()).map(str::to_string);
    blocking(move || match (body.refresh_token, access_token) {
        (Some(refresh_token), _) => tracker.auth.logout(&refresh_token),
        (None, Some(access_token)) => tracker.auth.end_session(tracker.auth.authenticate(&access_token)?),
        (None, None) => Err(tracker_core::Error::invalid("refreshToken is required")),
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

async fn current_user(tracker: Tracker, principal: Principal) -> Result<impl Reply, Rejection> {
    let user = blocking(move || tracker.auth.user(principal.user)).await?;
    Ok(warp::reply::json(&user))
}

/// Changes the password: every other sign-in ends, and the caller gets a new token pair.
async fn change_password(
    tracker: Tracker,
    principal: Principal,
    client: Client,
    body: PasswordChange,
) -> Result<impl Reply, Rejection> {
    let session = blocking(move || {
        tracker.auth.change_password(principal, &body.current_password, &body.new_password, client.ip)
    })
    .await?;
    let mut answer = serde_json::to_value(&session).unwrap_or_default();
    answer["ok"] = serde_json::Value::Bool(true);
    Ok(warp::reply::json(&answer))
}

/// Deletes the account with its websites and all their data, after checking the password.
async fn delete_account(
    tracker: Tracker,
    principal: Principal,
    client: Client,
    body: AccountDeletion,
) -> Result<impl Reply, Rejection> {
    blocking(move || tracker.auth.delete_account(principal.user, &body.password, client.ip)).await?;
    Ok(warp::reply::json(&serde_json::json!({ "ok": true })))
}
