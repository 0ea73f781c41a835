//! /api/websites/{id}/shared-links: the owner's share links of a site (issue 37), created, listed and deleted.
//! The site is checked as every site route checks it (`websites.get`: another user's site is 404). What a link
//! opens is served by share.rs.

use serde::{Deserialize, Serialize};
use tracker_core::Tracker;
use tracker_core::model::{Caller, WebsiteId};
use tracker_core::store::shared_links::{NewLink, SharedLink};
use warp::http::StatusCode;
use warp::{Filter, Rejection, Reply};

use super::{Done, api_body, base_url, blocking, host, user, with_tracker};
use crate::error::ErrorBody;

/// A link to create.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
struct SharedLinkRequest {
    /// Trimmed, 1 to 100 characters.
    #[schema(min_length = 1, max_length = 100)]
    name: String,
    /// Optional; at least 6 characters. Stored hashed (argon2id); visitors must enter it first.
    password: Option<String>,
    /// Fixed filters, Plausible Stats API v2 syntax (a JSON array, or its JSON text): every read of the link is
    /// filtered by them, and a visitor's own filters only narrow further.
    #[schema(value_type = Option<Object>)]
    filters: Option<serde_json::Value>,
    /// Whether pages of `allowedOrigins` may frame the link.
    embed: Option<bool>,
    /// With `embed`: 1 to 10 exact origins (`https://host[:port]`) allowed to frame the link.
    allowed_origins: Option<Vec<String>>,
}

/// A link as its owner sees it, with the address to hand out.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct SharedLinkResponse {
    #[serde(flatten)]
    link: SharedLink,
    /// `{base}/share/{slug}`; add `?embed=true` inside an iframe. Empty when the slug, sealed at rest, cannot be
    /// opened since the instance secret changed: delete the link and make a new one.
    url: String,
}

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let caller = || with_tracker(tracker.clone()).and(user(tracker.clone()));
    let all = warp::path!("websites" / WebsiteId / "shared-links");
    let list = all.and(warp::get()).and(caller()).and(host()).and_then(list);
    let create = all.and(warp::post()).and(caller()).and(host()).and(api_body()).and_then(create);
    let delete =
        warp::path!("websites" / WebsiteId / "shared-links" / i64).and(warp::delete()).and(caller()).and_then(delete);
    list.or(create).or(delete)
}

fn response(tracker: &Tracker, host: Option<&str>, link: SharedLink) -> SharedLinkResponse {
    // An address the instance secret no longer opens cannot be shown (the link still opens for its holders).
    let url =
        if link.slug.is_empty() { String::new() } else { format!("{}/share/{}", base_url(tracker, host), link.slug) };
    SharedLinkResponse { link, url }
}

/// The site's share links, newest first: never a password, only whether one is set.
#[utoipa::path(
    get,
    path = "/api/websites/{id}/shared-links",
    tag = "sharing",
    operation_id = "listSharedLinks",
    params(("id" = i64, Path, description = "Website id")),
    responses((status = 200, description = "The site's share links, newest first", body = Vec<SharedLinkResponse>), (status = "4XX", description = "Refused: no valid sign-in, or not found (another user's site too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn list(site: WebsiteId, tracker: Tracker, user: Caller, host: Option<String>) -> Result<impl Reply, Rejection> {
    let links = blocking(move || {
        tracker.websites.get(user, site)?;
        let links = tracker.shared_links.list(site)?;
        Ok(links.into_iter().map(|link| response(&tracker, host.as_deref(), link)).collect::<Vec<_>>())
    })
    .await?;
    Ok(warp::reply::json(&links))
}

/// Creates a share link of the site.
#[utoipa::path(
    post,
    path = "/api/websites/{id}/shared-links",
    tag = "sharing",
    operation_id = "createSharedLink",
    params(("id" = i64, Path, description = "Website id")),
    request_body(content = SharedLinkRequest, content_type = "application/json"),
    responses((status = 201, description = "The link, its slug (128 random bits) and its address", body = SharedLinkResponse), (status = "4XX", description = "Refused: a bad name, password, filter or origin (400), no valid sign-in, not found (another user's site too), or the site's 50 links already (409)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn create(
    site: WebsiteId,
    tracker: Tracker,
    user: Caller,
    host: Option<String>,
    body: SharedLinkRequest,
) -> Result<impl Reply, Rejection> {
    let new = NewLink {
        name: body.name,
        password: body.password,
        filters: body.filters,
        embed: body.embed.unwrap_or(false),
        allowed_origins: body.allowed_origins.unwrap_or_default(),
    };
    let created = blocking(move || {
        tracker.websites.get(user, site)?;
        let link = tracker.shared_links.create(site, new)?;
        Ok(response(&tracker, host.as_deref(), link))
    })
    .await?;
    Ok(warp::reply::with_status(warp::reply::json(&created), StatusCode::CREATED))
}

/// Deletes a share link: its page, reads and sessions end at once.
#[utoipa::path(
    delete,
    path = "/api/websites/{id}/shared-links/{linkId}",
    tag = "sharing",
    operation_id = "deleteSharedLink",
    params(("id" = i64, Path, description = "Website id"), ("linkId" = i64, Path, description = "The link's id")),
    responses((status = 200, description = "Deleted", body = Done), (status = "4XX", description = "Refused: no valid sign-in, or not found (another site's link too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn delete(site: WebsiteId, id: i64, tracker: Tracker, user: Caller) -> Result<impl Reply, Rejection> {
    blocking(move || {
        tracker.websites.get(user, site)?;
        tracker.shared_links.delete(site, id)
    })
    .await?;
    Ok(warp::reply::json(&Done { ok: true }))
}
