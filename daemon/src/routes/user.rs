//! /api/user/*: the Settings screen (spec part 2 §7, REAL.md): what it shows, profile, notifications,
//! security settings, email change, the account's data export and two-factor enrolment. Password change,
//! account deletion and the current user are in `auth`.

use serde::Deserialize;
use serde_json::Value;
use tracker_core::Tracker;
use tracker_core::account::{NotificationsUpdate, SESSION_TIMEOUT_DEFAULT};
use tracker_core::auth::Principal;
use tracker_core::ingest::Client;
use warp::http::HeaderValue;
use warp::{Filter, Rejection, Reply};

use super::{api_body, blocking, client, principal, with_tracker};
use crate::error::reject;

#[derive(Deserialize)]
#[serde(deny_unknown_fields)]
struct ProfileUpdate {
    name: String,
    #[serde(default)]
    company: String,
    timezone: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SecurityUpdate {
    #[serde(default)]
    session_timeout: Option<Value>,
    #[serde(default)]
    login_notifications: Option<bool>,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct EmailChange {
    new_email: String,
    current_password: String,
}

#[derive(Deserialize)]
struct CodeBody {
    code: String,
}

#[derive(Deserialize)]
struct PasswordBody {
    password: String,
}

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let me = || with_tracker(tracker.clone()).and(principal(tracker.clone()));
    let settings = warp::path!("user" / "settings").and(warp::get()).and(me()).and_then(settings);
    let profile = warp::path!("user" / "profile").and(warp::put()).and(me()).and(api_body()).and_then(profile);
    let notifications =
        warp::path!("user" / "notifications").and(warp::put()).and(me()).and(api_body()).and_then(notifications);
    let security = warp::path!("user" / "security").and(warp::put()).and(me()).and(api_body()).and_then(security);
    let email = warp::path!("user" / "email")
        .and(warp::put())
        .and(me())
        .and(client(tracker.clone()))
        .and(api_body())
        .and_then(email);
    let export = warp::path!("user" / "export").and(warp::get()).and(me()).and_then(export);
    let setup = warp::path!("user" / "two-factor" / "setup").and(warp::post()).and(me()).and_then(two_factor_setup);
    let enable =
        warp::path!("user" / "two-factor" / "enable").and(warp::post()).and(me()).and(api_body()).and_then(enable);
    let disable = warp::path!("user" / "two-factor" / "disable")
        .and(warp::post())
        .and(me())
        .and(client(tracker.clone()))
        .and(api_body())
        .and_then(disable);
    settings.or(profile).or(notifications).or(security).or(email).or(export).or(setup).or(enable).or(disable)
}

/// Profile, notifications, security settings and recent sign-ins.
async fn settings(tracker: Tracker, principal: Principal) -> Result<impl Reply, Rejection> {
    let settings = blocking(move || tracker.account.settings(principal.user)).await?;
    Ok(warp::reply::json(&settings))
}

async fn profile(tracker: Tracker, principal: Principal, body: ProfileUpdate) -> Result<impl Reply, Rejection> {
    let profile =
        blocking(move || tracker.account.update_profile(principal.user, &body.name, &body.company, &body.timezone))
            .await?;
    Ok(warp::reply::json(&profile))
}

async fn notifications(
    tracker: Tracker,
    principal: Principal,
    body: NotificationsUpdate,
) -> Result<impl Reply, Rejection> {
    let saved = blocking(move || tracker.account.update_notifications(principal.user, body)).await?;
    Ok(warp::reply::json(&saved))
}

/// Session timeout (minutes, 5 to 480; text that is not a number falls back to 30, as the spec's input does)
/// and login notifications.
async fn security(tracker: Tracker, principal: Principal, body: SecurityUpdate) -> Result<impl Reply, Rejection> {
    let timeout = match body.session_timeout {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => Some(n.as_i64().ok_or_else(|| {
            reject(tracker_core::Error::invalid("session timeout must be a whole number of minutes"))
        })?),
        Some(Value::String(s)) => Some(s.trim().parse::<i64>().unwrap_or(SESSION_TIMEOUT_DEFAULT)),
        Some(_) => return Err(reject(tracker_core::Error::invalid("session timeout must be a number of minutes"))),
    };
    let saved =
        blocking(move || tracker.account.update_security(principal.user, timeout, body.login_notifications)).await?;
    Ok(warp::reply::json(&saved))
}

/// Changes the email after checking the current password; answers `{email}`.
async fn email(
    tracker: Tracker,
    principal: Principal,
    client: Client,
    body: EmailChange,
) -> Result<impl Reply, Rejection> {
    let email =
        blocking(move || tracker.auth.change_email(principal, &body.new_email, &body.current_password, client.ip))
            .await?;
    Ok(warp::reply::json(&serde_json::json!({ "email": email })))
}

/// The account's data as one JSON download.
async fn export(tracker: Tracker, principal: Principal) -> Result<impl Reply, Rejection> {
    let data = blocking(move || tracker.account.export(principal.user)).await?;
    let today = tracker_core::model::iso(tracker_core::model::now_ms());
    let name = format!("account-export-{}.json", today.get(..10).unwrap_or("today"));
    let mut response = warp::reply::json(&data).into_response();
    if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\"")) {
        response.headers_mut().insert("content-disposition", value);
    }
    Ok(response)
}

/// A new pending TOTP secret with its otpauth URI and QR code.
async fn two_factor_setup(tracker: Tracker, principal: Principal) -> Result<impl Reply, Rejection> {
    let setup = blocking(move || tracker.auth.begin_two_factor(principal)).await?;
    Ok(warp::reply::json(&setup))
}

/// Confirms enrolment with a code; answers the recovery codes, shown once.
async fn enable(tracker: Tracker, principal: Principal, body: CodeBody) -> Result<impl Reply, Rejection> {
    let codes = blocking(move || tracker.auth.enable_two_factor(principal, &body.code)).await?;
    Ok(warp::reply::json(&serde_json::json!({ "recoveryCodes": codes })))
}

async fn disable(
    tracker: Tracker,
    principal: Principal,
    client: Client,
    body: PasswordBody,
) -> Result<impl Reply, Rejection> {
    blocking(move || tracker.auth.disable_two_factor(principal, &body.password, client.ip)).await?;
    Ok(warp::reply::json(&serde_json::json!({ "ok": true })))
}
