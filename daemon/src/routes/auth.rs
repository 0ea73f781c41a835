//! /api/register, /api/login, /api/refresh, /api/logout, /api/registration and /api/user (spec part 1 §7,
//! with the token rotation and revocation of API.md).

use serde::{Deserialize, Serialize};
use tracker_core::Tracker;
use tracker_core::auth::{AuthSession, CurrentUser, Login, Principal, RefreshedTokens};
use tracker_core::config::RegistrationMode;
use tracker_core::ingest::Client;
use warp::http::StatusCode;
use warp::{Filter, Rejection, Reply};

use super::{Done, api_body, bearer, blocking, client, principal, with_tracker};
use crate::error::ErrorBody;

#[derive(Deserialize, utoipa::ToSchema)]
struct Credentials {
    email: String,
    password: String,
    /// The second factor at login (a TOTP code or a recovery code), when the account has it on.
    #[serde(default)]
    code: Option<String>,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct RefreshRequest {
    refresh_token: String,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct LogoutRequest {
    refresh_token: Option<String>,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct PasswordChange {
    current_password: String,
    new_password: String,
}

#[derive(Deserialize, utoipa::ToSchema)]
struct AccountDeletion {
    password: String,
}

/// Whether the Sign Up tab can create an account here.
#[derive(Serialize, utoipa::ToSchema)]
struct RegistrationState {
    mode: RegistrationMode,
    open: bool,
}

/// A password change's answer: the caller's new sign-in, and `ok`.
#[derive(Serialize, utoipa::ToSchema)]
struct PasswordChanged {
    #[serde(flatten)]
    session: AuthSession,
    ok: bool,
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

#[utoipa::path(
    post,
    path = "/api/register",
    tag = "auth",
    operation_id = "register",
    request_body(content = Credentials, content_type = "application/json"),
    responses((status = 201, description = "The account is created and signed in", body = AuthSession), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody))
)]
async fn register(tracker: Tracker, client: Client, body: Credentials) -> Result<impl Reply, Rejection> {
    let session = blocking(move || tracker.auth.register(&body.email, &body.password, client.ip)).await?;
    Ok(warp::reply::with_status(warp::reply::json(&session), StatusCode::CREATED))
}

/// Whether the Sign Up tab can create an account here.
#[utoipa::path(
    get,
    path = "/api/registration",
    tag = "auth",
    operation_id = "registration",
    responses((status = 200, description = "The registration mode and whether sign-up is open", body = RegistrationState), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody))
)]
async fn registration(tracker: Tracker) -> Result<impl Reply, Rejection> {
    let (mode, open) = blocking(move || tracker.auth.registration()).await?;
    Ok(warp::reply::json(&RegistrationState { mode, open }))
}

/// A sign-in, or `{twoFactorRequired: true}` when the password is right and a second factor is needed (the
/// client then sends the same body with `code`). Sign-ins are recorded while login notifications are on.
#[utoipa::path(
    post,
    path = "/api/login",
    tag = "auth",
    operation_id = "login",
    request_body(content = Credentials, content_type = "application/json"),
    responses((status = 200, description = "Signed in", body = Login), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody))
)]
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
#[utoipa::path(
    post,
    path = "/api/refresh",
    tag = "auth",
    operation_id = "refreshTokens",
    request_body(content = RefreshRequest, content_type = "application/json"),
    responses((status = 200, description = "A new token pair", body = RefreshedTokens), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody))
)]
async fn refresh(tracker: Tracker, body: RefreshRequest) -> Result<impl Reply, Rejection> {
    let tokens = blocking(move || tracker.auth.refresh(&body.refresh_token)).await?;
    Ok(warp::reply::json(&tokens))
}

/// Ends the sign-in of the refresh token in the body, or else of the bearer token; 204 either way once done.
#[utoipa::path(
    post,
    path = "/api/logout",
    tag = "auth",
    operation_id = "logout",
    request_body(content = LogoutRequest, content_type = "application/json"),
    responses((status = 204, description = "The sign-in has ended"), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody))
)]
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

#[utoipa::path(
    get,
    path = "/api/user",
    tag = "auth",
    operation_id = "currentUser",
    responses((status = 200, description = "The signed-in account and whether its address is confirmed", body = CurrentUser), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn current_user(tracker: Tracker, principal: Principal) -> Result<impl Reply, Rejection> {
    let user = blocking(move || tracker.auth.current_user(principal.user)).await?;
    Ok(warp::reply::json(&user))
}

/// Changes the password: every other sign-in ends, and the caller gets a new token pair.
#[utoipa::path(
    put,
    path = "/api/user/password",
    tag = "auth",
    operation_id = "changePassword",
    request_body(content = PasswordChange, content_type = "application/json"),
    responses((status = 200, description = "Changed; a new token pair for this sign-in", body = PasswordChanged), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
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
    Ok(warp::reply::json(&PasswordChanged { session, ok: true }))
}

/// Deletes the account with its websites and all their data, after checking the password.
#[utoipa::path(
    delete,
    path = "/api/user/account",
    tag = "auth",
    operation_id = "deleteAccount",
    request_body(content = AccountDeletion, content_type = "application/json"),
    responses((status = 200, description = "The account and all its data are gone", body = Done), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn delete_account(
    tracker: Tracker,
    principal: Principal,
    client: Client,
    body: AccountDeletion,
) -> Result<impl Reply, Rejection> {
    blocking(move || tracker.delete_account(principal.user, &body.password, client.ip)).await?;
    Ok(warp::reply::json(&Done { ok: true }))
}
