//! /api/register, /api/login, /api/refresh and /api/user (spec part 1 §7).

use serde::Deserialize;
use tracker_core::Tracker;
use tracker_core::ingest::Client;
use tracker_core::model::UserId;
use warp::http::StatusCode;
use warp::{Filter, Rejection, Reply};

use super::{api_body, blocking, client, user, with_tracker};

#[derive(Deserialize)]
struct Credentials {
    email: String,
    password: String,
}

#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct RefreshRequest {
    refresh_token: String,
}

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let register =
        warp::path!("register").and(warp::post()).and(with_tracker(tracker.clone())).and(api_body()).and_then(register);
    let login = warp::path!("login")
        .and(warp::post())
        .and(with_tracker(tracker.clone()))
        .and(client(tracker.clone()))
        .and(api_body())
        .and_then(login);
    let refresh =
        warp::path!("refresh").and(warp::post()).and(with_tracker(tracker.clone())).and(api_body()).and_then(refresh);
    let current = warp::path!("user")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker.clone()))
        .and_then(current_user);
    let password = warp::path!("user" / "password")
        .and(warp::put())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker.clone()))
        .and(api_body())
        .and_then(change_password);
    let account = warp::path!("user" / "account")
        .and(warp::delete())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker))
        .and(api_body())
        .and_then(delete_account);
    register.or(login).or(refresh).or(current).or(password).or(account)
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

/// Changes the password; every refresh token of the account stops working.
async fn change_password(tracker: Tracker, user: UserId, body: PasswordChange) -> Result<impl Reply, Rejection> {
    blocking(move || tracker.auth.change_password(user, &body.current_password, &body.new_password)).await?;
    Ok(warp::reply::json(&serde_json::json!({ "ok": true })))
}

/// Deletes the account with its websites and all their data, after checking the password.
async fn delete_account(tracker: Tracker, user: UserId, body: AccountDeletion) -> Result<impl Reply, Rejection> {
    blocking(move || tracker.auth.delete_account(user, &body.password)).await?;
    Ok(warp::reply::json(&serde_json::json!({ "ok": true })))
}

async fn register(tracker: Tracker, body: Credentials) -> Result<impl Reply, Rejection> {
    let session = blocking(move || tracker.auth.register(&body.email, &body.password)).await?;
    Ok(warp::reply::with_status(warp::reply::json(&session), StatusCode::CREATED))
}

async fn login(tracker: Tracker, client: Client, body: Credentials) -> Result<impl Reply, Rejection> {
    let session = blocking(move || tracker.auth.login(&body.email, &body.password, client.ip)).await?;
    Ok(warp::reply::json(&session))
}

async fn refresh(tracker: Tracker, body: RefreshRequest) -> Result<impl Reply, Rejection> {
    let access_token = blocking(move || tracker.auth.refresh(&body.refresh_token)).await?;
    Ok(warp::reply::json(&serde_json::json!({ "accessToken": access_token })))
}

async fn current_user(tracker: Tracker, user: UserId) -> Result<impl Reply, Rejection> {
    let user = blocking(move || tracker.auth.user(user)).await?;
    Ok(warp::reply::json(&user))
}
