//! /api/user/api-keys: the account's API keys (issue 36), created, listed and revoked from a sign-in only
//! (a key on these routes is a 403, see [`key_use`]). Which routes a key may call, and with which scope, is
//! decided here once, from the request's method and path, for the `principal` filter and the per-request
//! meter in `routes/mod.rs`.

use percent_encoding::percent_decode_str;
use serde::Deserialize;
use tracker_core::Tracker;
use tracker_core::auth::{ApiKey, ApiKeyScope, CreatedApiKey, KeyUse, Principal};
use warp::http::{Method, StatusCode};
use warp::{Filter, Rejection, Reply};

use super::{Done, api_body, blocking, principal, with_tracker};
use crate::error::ErrorBody;

/// A key to create: its name (1 to 100 characters) and scope.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct ApiKeyRequest {
    /// Trimmed, 1 to 100 characters, no control characters.
    #[schema(min_length = 1, max_length = 100)]
    name: String,
    scope: ApiKeyScope,
}

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let me = || with_tracker(tracker.clone()).and(principal(tracker.clone()));
    let list = warp::path!("user" / "api-keys").and(warp::get()).and(me()).and_then(list);
    let create = warp::path!("user" / "api-keys").and(warp::post()).and(me()).and(api_body()).and_then(create);
    let revoke = warp::path!("user" / "api-keys" / i64).and(warp::delete()).and(me()).and_then(revoke);
    list.or(create).or(revoke)
}

/// The account's keys, newest first, without their secrets.
#[utoipa::path(
    get,
    path = "/api/user/api-keys",
    tag = "settings",
    operation_id = "listApiKeys",
    responses((status = 200, description = "The account's API keys, newest first, never their secrets", body = Vec<ApiKey>), (status = "4XX", description = "Refused: no valid sign-in, or an API key (keys cannot manage keys)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn list(tracker: Tracker, principal: Principal) -> Result<impl Reply, Rejection> {
    let keys = blocking(move || tracker.auth.api_keys(principal)).await?;
    Ok(warp::reply::json(&keys))
}

/// Creates a key; the answer holds its secret, shown this once.
#[utoipa::path(
    post,
    path = "/api/user/api-keys",
    tag = "settings",
    operation_id = "createApiKey",
    request_body(content = ApiKeyRequest, content_type = "application/json"),
    responses((status = 201, description = "The key and its secret, shown this once", body = CreatedApiKey), (status = "4XX", description = "Refused: a bad name or scope (400), no valid sign-in, an API key (403), or the account's 50 keys already (409)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn create(tracker: Tracker, principal: Principal, body: ApiKeyRequest) -> Result<impl Reply, Rejection> {
    let created = blocking(move || tracker.auth.create_api_key(principal, &body.name, body.scope)).await?;
    Ok(warp::reply::with_status(warp::reply::json(&created), StatusCode::CREATED))
}

/// Revokes a key at once: the next request with it is a 401, on every daemon.
#[utoipa::path(
    delete,
    path = "/api/user/api-keys/{id}",
    tag = "settings",
    operation_id = "revokeApiKey",
    params(("id" = i64, Path, description = "The key's id")),
    responses((status = 200, description = "Revoked", body = Done), (status = "4XX", description = "Refused: no valid sign-in, an API key (403), or not found (another account's key too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn revoke(id: i64, tracker: Tracker, principal: Principal) -> Result<impl Reply, Rejection> {
    blocking(move || tracker.auth.revoke_api_key(principal, id)).await?;
    Ok(warp::reply::json(&Done { ok: true }))
}

/// Paths (under /api, by leading segments, `*` standing for any one) that are the account's security: no API
/// key may call them, whatever its scope. Sign-in and out, refresh and sign-up are here too: a key is not a
/// sign-in. So are a site's members, invitations and owner: a leaked key must not hand a stranger's account
/// lasting access that outlives the key's revocation.
const ACCOUNT_SECURITY: &[&[&str]] = &[
    &["user", "password"],
    &["user", "email"],
    &["user", "security"],
    &["user", "two-factor"],
    &["user", "account"],
    &["user", "api-keys"],
    &["login"],
    &["logout"],
    &["refresh"],
    &["register"],
    &["user", "invitations"],
    &["websites", "*", "members"],
    &["websites", "*", "invitations"],
    &["websites", "*", "owner"],
    // A stream ticket stands for a sign-in (its session is checked while the stream lives).
    &["dashboard", "live", "ticket"],
];

/// POST routes that only read, which a `read` key may call: the Stats API's query (issue 36) when it lands.
const READ_ONLY_POSTS: &[&[&str]] = &[&["v2", "query"]];

/// What a request needs of an API key, from its method and its path below /api. The path is read as
/// generously as any spelling the router might accept (empty segments dropped, percent-decoded, any case),
/// so no spelling of an account-security path slips through as something else.
pub(crate) fn key_use(method: &Method, path: &str) -> KeyUse {
    let segments: Vec<String> = path
        .split('/')
        .filter(|s| !s.is_empty())
        .map(|s| percent_decode_str(s).decode_utf8_lossy().to_ascii_lowercase())
        .collect();
    let segments: Vec<&str> = segments.iter().map(String::as_str).collect();
    let below_api = segments.strip_prefix(&["api"][..]).unwrap_or(&segments);
    let starts_with = |prefix: &&[&str]| {
        prefix.len() <= below_api.len() && prefix.iter().zip(below_api).all(|(p, s)| *p == "*" || p == s)
    };
    let reads = method == Method::GET || method == Method::HEAD || method == Method::OPTIONS;
    if ACCOUNT_SECURITY.iter().any(starts_with) {
        KeyUse::AccountSecurity
    } else if reads || (method == Method::POST && READ_ONLY_POSTS.contains(&below_api)) {
        KeyUse::Read
    } else {
        KeyUse::Write
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn routes_are_read_write_or_the_accounts_security() {
        let cases = [
            (Method::GET, "/api/websites", KeyUse::Read),
            (Method::HEAD, "/api/dashboard/overview", KeyUse::Read),
            (Method::POST, "/api/websites", KeyUse::Write),
            (Method::DELETE, "/api/websites/3", KeyUse::Write),
            (Method::PUT, "/api/user/profile", KeyUse::Write),
            (Method::POST, "/api/v2/query", KeyUse::Read),
            (Method::POST, "/api/v2/query/more", KeyUse::Write),
            (Method::PUT, "/api/user/password", KeyUse::AccountSecurity),
            (Method::PUT, "/api//user///password/", KeyUse::AccountSecurity),
            (Method::PUT, "/api/user/p%61ssword", KeyUse::AccountSecurity),
            (Method::PUT, "/api/USER/Password", KeyUse::AccountSecurity),
            (Method::GET, "/api/user/api-keys", KeyUse::AccountSecurity),
            (Method::DELETE, "/api/user/api-keys/7", KeyUse::AccountSecurity),
            (Method::POST, "/api/user/two-factor/setup", KeyUse::AccountSecurity),
            (Method::POST, "/api/logout", KeyUse::AccountSecurity),
            (Method::POST, "/api/websites/3/members", KeyUse::AccountSecurity),
            (Method::GET, "/api/websites/3/members", KeyUse::AccountSecurity),
            (Method::PUT, "/api/websites/3/Members/9", KeyUse::AccountSecurity),
            (Method::DELETE, "/api/websites/3/invitations/4", KeyUse::AccountSecurity),
            (Method::POST, "/api/websites/3/owner", KeyUse::AccountSecurity),
            (Method::POST, "/api/user/invitations/4/accept", KeyUse::AccountSecurity),
            (Method::GET, "/api/websites/3/membership-report", KeyUse::Read),
            (Method::POST, "/api/dashboard/live/ticket", KeyUse::AccountSecurity),
            (Method::GET, "/api/user/settings", KeyUse::Read),
            (Method::GET, "/api/user/export", KeyUse::Read),
        ];
        for (method, path, expected) in cases {
            assert_eq!(key_use(&method, path), expected, "{method} {path}");
        }
    }
}
