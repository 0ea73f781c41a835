//! /api/user/*: the Settings screen (spec part 2 §7, REAL.md): what it shows, profile, notifications,
//! security settings, email change and its verification link, the account's data export and two-factor
//! enrolment. Password change,
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
use tracker_core::account::{AccountSettings, Notifications, Profile, Security};
use tracker_core::auth::TwoFactorSetup;

use crate::error::{ErrorBody, reject};

/// The account's email after a change or a confirmation, and whether it is confirmed.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct EmailAnswer {
    email: String,
    email_verified: bool,
}

/// The token of a verification link (the part after `#token=`).
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct EmailConfirmation {
    token: String,
}

/// Single-use recovery codes, shown once.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct RecoveryCodes {
    recovery_codes: Vec<String>,
}

/// Two-factor sign-in is off.
#[derive(serde::Serialize, utoipa::ToSchema)]
struct Done {
    ok: bool,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct ProfileUpdate {
    name: String,
    #[serde(default)]
    company: String,
    timezone: String,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SecurityUpdate {
    /// Minutes (5 to 480), as a number or text.
    #[serde(default)]
    #[schema(value_type = Option<i64>)]
    session_timeout: Option<Value>,
    #[serde(default)]
    login_notifications: Option<bool>,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct EmailChange {
    new_email: String,
    current_password: String,
}

/// The current password, asked before two-factor enrolment starts.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct TwoFactorSetupRequest {
    password: String,
}

/// The current password and a code from the authenticator app.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct TwoFactorEnableRequest {
    password: String,
    code: String,
}

/// The current password and, while two-factor is on, a code from the app or an unused recovery code.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct TwoFactorDisableRequest {
    password: String,
    #[serde(default)]
    code: String,
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
    let resend = warp::path!("user" / "email" / "verification").and(warp::post()).and(me()).and_then(resend_email_link);
    let confirm = warp::path!("user" / "email" / "verify")
        .and(warp::post())
        .and(with_tracker(tracker.clone()))
        .and(api_body())
        .and_then(confirm_email);
    let export = warp::path!("user" / "export").and(warp::get()).and(me()).and_then(export);
    let setup = warp::path!("user" / "two-factor" / "setup")
        .and(warp::post())
        .and(me())
        .and(client(tracker.clone()))
        .and(api_body())
        .and_then(two_factor_setup);
    let enable = warp::path!("user" / "two-factor" / "enable")
        .and(warp::post())
        .and(me())
        .and(client(tracker.clone()))
        .and(api_body())
        .and_then(enable);
    let disable = warp::path!("user" / "two-factor" / "disable")
        .and(warp::post())
        .and(me())
        .and(client(tracker.clone()))
        .and(api_body())
        .and_then(disable);
    settings
        .or(profile)
        .or(notifications)
        .or(security)
        .or(email)
        .or(resend)
        .or(confirm)
        .or(export)
        .or(setup)
        .or(enable)
        .or(disable)
}

/// Profile, notifications, security settings and recent sign-ins.
#[utoipa::path(
    get,
    path = "/api/user/settings",
    tag = "settings",
    operation_id = "userSettings",
    responses((status = 200, description = "Profile, notifications, security settings and recent sign-ins", body = AccountSettings), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn settings(tracker: Tracker, principal: Principal) -> Result<impl Reply, Rejection> {
    let settings = blocking(move || tracker.account.settings(principal.user)).await?;
    Ok(warp::reply::json(&settings))
}

#[utoipa::path(
    put,
    path = "/api/user/profile",
    tag = "settings",
    operation_id = "updateProfile",
    request_body(content = ProfileUpdate, content_type = "application/json"),
    responses((status = 200, description = "The saved profile", body = Profile), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn profile(tracker: Tracker, principal: Principal, body: ProfileUpdate) -> Result<impl Reply, Rejection> {
    let profile =
        blocking(move || tracker.account.update_profile(principal.user, &body.name, &body.company, &body.timezone))
            .await?;
    Ok(warp::reply::json(&profile))
}

#[utoipa::path(
    put,
    path = "/api/user/notifications",
    tag = "settings",
    operation_id = "updateNotifications",
    request_body(content = NotificationsUpdate, content_type = "application/json"),
    responses((status = 200, description = "The saved notification preferences", body = Notifications), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
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
#[utoipa::path(
    put,
    path = "/api/user/security",
    tag = "settings",
    operation_id = "updateSecurity",
    request_body(content = SecurityUpdate, content_type = "application/json"),
    responses((status = 200, description = "The saved security settings", body = Security), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
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

/// Changes the email after checking the current password. Another address is unconfirmed (no report or alert
/// goes to it) until the link mailed to it is followed; 429 when the account's verification mails of the hour
/// are used up.
#[utoipa::path(
    put,
    path = "/api/user/email",
    tag = "settings",
    operation_id = "changeEmail",
    request_body(content = EmailChange, content_type = "application/json"),
    responses((status = 200, description = "The new email and whether it is confirmed", body = EmailAnswer), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn email(
    tracker: Tracker,
    principal: Principal,
    client: Client,
    body: EmailChange,
) -> Result<impl Reply, Rejection> {
    let answer = blocking(move || {
        let email = tracker.auth.change_email(principal, &body.new_email, &body.current_password, client.ip)?;
        Ok(EmailAnswer { email, email_verified: tracker.auth.email_verified(principal.user)? })
    })
    .await?;
    Ok(warp::reply::json(&answer))
}

/// Mails a new verification link to the account's unconfirmed address (earlier links stop working): 400
/// without email configured, 409 when the address is confirmed already, 429 past 5 mails an hour, 503 when
/// the mail server cannot be reached.
#[utoipa::path(
    post,
    path = "/api/user/email/verification",
    tag = "settings",
    operation_id = "resendEmailVerification",
    responses((status = 200, description = "The link is mailed", body = Done), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn resend_email_link(tracker: Tracker, principal: Principal) -> Result<impl Reply, Rejection> {
    blocking(move || tracker.auth.resend_email_link(principal)).await?;
    Ok(warp::reply::json(&Done { ok: true }))
}

/// Confirms an address with the token of the link mailed to it (no sign-in needed: the link may be opened on
/// another device). A token unknown, used, replaced by a newer link or an email change, or older than 24 hours
/// is a 400.
#[utoipa::path(
    post,
    path = "/api/user/email/verify",
    tag = "settings",
    operation_id = "confirmEmail",
    request_body(content = EmailConfirmation, content_type = "application/json"),
    responses((status = 200, description = "The address is confirmed", body = EmailAnswer), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody))
)]
async fn confirm_email(tracker: Tracker, body: EmailConfirmation) -> Result<impl Reply, Rejection> {
    let user = blocking(move || tracker.auth.confirm_email(&body.token)).await?;
    Ok(warp::reply::json(&EmailAnswer { email: user.email, email_verified: true }))
}

/// The account's data as one JSON download.
#[utoipa::path(
    get,
    path = "/api/user/export",
    tag = "settings",
    operation_id = "exportAccount",
    responses((status = 200, description = "The account's data as a JSON download", body = serde_json::Value), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
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

/// A new pending TOTP secret with its otpauth URI and QR code, once the current password is confirmed.
#[utoipa::path(
    post,
    path = "/api/user/two-factor/setup",
    tag = "settings",
    operation_id = "twoFactorSetup",
    request_body(content = TwoFactorSetupRequest, content_type = "application/json"),
    responses((status = 200, description = "A pending TOTP secret with its otpauth URI and QR code", body = TwoFactorSetup), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn two_factor_setup(
    tracker: Tracker,
    principal: Principal,
    client: Client,
    body: TwoFactorSetupRequest,
) -> Result<impl Reply, Rejection> {
    let setup = blocking(move || tracker.auth.begin_two_factor(principal, &body.password, client.ip)).await?;
    Ok(warp::reply::json(&setup))
}

/// Confirms enrolment with the current password and a code; other sign-ins end. Answers the recovery codes, once.
#[utoipa::path(
    post,
    path = "/api/user/two-factor/enable",
    tag = "settings",
    operation_id = "twoFactorEnable",
    request_body(content = TwoFactorEnableRequest, content_type = "application/json"),
    responses((status = 200, description = "Two-factor sign-in is on; the recovery codes", body = RecoveryCodes), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn enable(
    tracker: Tracker,
    principal: Principal,
    client: Client,
    body: TwoFactorEnableRequest,
) -> Result<impl Reply, Rejection> {
    let codes =
        blocking(move || tracker.auth.enable_two_factor(principal, &body.password, &body.code, client.ip)).await?;
    Ok(warp::reply::json(&RecoveryCodes { recovery_codes: codes }))
}

/// Turns two-factor sign-in off with the current password and a code from the app or a recovery code.
#[utoipa::path(
    post,
    path = "/api/user/two-factor/disable",
    tag = "settings",
    operation_id = "twoFactorDisable",
    request_body(content = TwoFactorDisableRequest, content_type = "application/json"),
    responses((status = 200, description = "Two-factor sign-in is off", body = Done), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn disable(
    tracker: Tracker,
    principal: Principal,
    client: Client,
    body: TwoFactorDisableRequest,
) -> Result<impl Reply, Rejection> {
    blocking(move || tracker.auth.disable_two_factor(principal, &body.password, &body.code, client.ip)).await?;
    Ok(warp::reply::json(&Done { ok: true }))
}
