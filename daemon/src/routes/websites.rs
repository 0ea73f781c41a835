//! /api/websites: list (the caller's own sites and those shared with it, each with the caller's role), create,
//! read, update and delete websites.

use serde::{Deserialize, Serialize};
use tracker_core::Tracker;
use tracker_core::model::{Caller, Role, TrackingLevel, Website, WebsiteId};
use tracker_core::store::websites::{NewWebsite, WebsiteChanges};
use warp::http::StatusCode;
use warp::{Filter, Rejection, Reply};

use super::{api_body, base_url, blocking, host, user, with_tracker};
use crate::error::{ErrorBody, reject};

/// A website as the API shows it: the stored fields, its script URL and the caller's role on it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct WebsiteResponse {
    #[serde(flatten)]
    pub website: Website,
    pub script_url: String,
    /// The caller's role on the site: `owner` for its creator, else the role it was given as a member.
    pub role: Role,
}

impl WebsiteResponse {
    pub fn new(website: Website, role: Role, base: &str) -> WebsiteResponse {
        let script_url = format!("{base}/tracking/{}.js", website.tracking_key);
        WebsiteResponse { website, script_url, role }
    }
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct CreateWebsite {
    name: Option<String>,
    domain: Option<String>,
    tracking_level: Option<String>,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct UpdateWebsite {
    name: Option<String>,
    domain: Option<String>,
    tracking_level: Option<String>,
    domain_only: Option<bool>,
    /// The site's old Umami website id (a UUID) for Umami's clients; `null` or "" removes it.
    #[serde(default, deserialize_with = "present")]
    #[schema(value_type = Option<String>)]
    umami_website_id: Option<Option<String>>,
    /// The site's timezone, an IANA name such as `Asia/Kolkata`: its reads' days and hours are local ones.
    timezone: Option<String>,
}

/// A field that may be sent as `null` to clear it: absent is `None`, `null` is `Some(None)`.
fn present<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<Option<String>>, D::Error> {
    Option::<String>::deserialize(d).map(Some)
}

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    // Paths and methods first: the sign-in is checked (a database read) only for a request that is ours.
    let caller = with_tracker(tracker.clone()).and(user(tracker)).and(host());
    let all = warp::path!("websites");
    let one = warp::path!("websites" / WebsiteId);
    let list = all.and(warp::get()).and(caller.clone()).and_then(list);
    let create = all.and(warp::post()).and(caller.clone()).and(api_body()).and_then(create);
    let get = one.and(warp::get()).and(caller.clone()).and_then(get);
    let update = one.and(warp::put()).and(caller.clone()).and(api_body()).and_then(update);
    let delete = one.and(warp::delete()).and(caller).and_then(delete);
    list.or(create).or(get).or(update).or(delete)
}

fn level(raw: Option<String>) -> Result<Option<TrackingLevel>, Rejection> {
    raw.map(|l| TrackingLevel::parse(&l)).transpose().map_err(reject)
}

#[utoipa::path(
    get,
    path = "/api/websites",
    tag = "websites",
    operation_id = "listWebsites",
    responses((status = 200, description = "The caller's own websites, then those shared with it, each with the caller's role", body = Vec<WebsiteResponse>), (status = "4XX", description = "Refused: bad input, no valid sign-in, a role too low for the call (403), or not found (a site the caller has no role on too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn list(tracker: Tracker, user: Caller, host: Option<String>) -> Result<impl Reply, Rejection> {
    let base = base_url(&tracker, host.as_deref());
    let sites = blocking(move || tracker.websites.visible(user.user)).await?;
    let sites: Vec<_> = sites.into_iter().map(|(site, role)| WebsiteResponse::new(site, role, &base)).collect();
    Ok(warp::reply::json(&sites))
}

#[utoipa::path(
    post,
    path = "/api/websites",
    tag = "websites",
    operation_id = "createWebsite",
    request_body(content = CreateWebsite, content_type = "application/json"),
    responses((status = 201, description = "Created", body = WebsiteResponse), (status = "4XX", description = "Refused: bad input, no valid sign-in, a role too low for the call (403), or not found (a site the caller has no role on too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn create(
    tracker: Tracker,
    user: Caller,
    host: Option<String>,
    body: CreateWebsite,
) -> Result<impl Reply, Rejection> {
    let base = base_url(&tracker, host.as_deref());
    let new = NewWebsite {
        name: body.name.unwrap_or_default(),
        domain: body.domain.unwrap_or_default(),
        tracking_level: level(body.tracking_level)?,
    };
    let site = blocking(move || tracker.websites.create(user.user, new)).await?;
    let created = WebsiteResponse::new(site, Role::Owner, &base);
    Ok(warp::reply::with_status(warp::reply::json(&created), StatusCode::CREATED))
}

#[utoipa::path(
    get,
    path = "/api/websites/{id}",
    tag = "websites",
    operation_id = "getWebsite",
    params(("id" = i64, Path, description = "Website id")),
    responses((status = 200, description = "The website", body = WebsiteResponse), (status = "4XX", description = "Refused: bad input, no valid sign-in, a role too low for the call (403), or not found (a site the caller has no role on too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn get(id: WebsiteId, tracker: Tracker, user: Caller, host: Option<String>) -> Result<impl Reply, Rejection> {
    let base = base_url(&tracker, host.as_deref());
    let (site, role) = blocking(move || tracker.websites.access(user, id)).await?;
    Ok(warp::reply::json(&WebsiteResponse::new(site, role, &base)))
}

#[utoipa::path(
    put,
    path = "/api/websites/{id}",
    tag = "websites",
    operation_id = "updateWebsite",
    params(("id" = i64, Path, description = "Website id")),
    request_body(content = UpdateWebsite, content_type = "application/json"),
    responses((status = 200, description = "The website as changed", body = WebsiteResponse), (status = "4XX", description = "Refused: bad input, no valid sign-in, a role too low for the call (403), or not found (a site the caller has no role on too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn update(
    id: WebsiteId,
    tracker: Tracker,
    user: Caller,
    host: Option<String>,
    body: UpdateWebsite,
) -> Result<impl Reply, Rejection> {
    let base = base_url(&tracker, host.as_deref());
    let changes = WebsiteChanges {
        name: body.name,
        domain: body.domain,
        tracking_level: level(body.tracking_level)?,
        domain_only: body.domain_only,
        umami_website_id: body.umami_website_id,
        timezone: body.timezone,
    };
    let (site, role) = blocking(move || {
        tracker.update_website(user, id, changes)?;
        tracker.websites.access(user.user, id)
    })
    .await?;
    Ok(warp::reply::json(&WebsiteResponse::new(site, role, &base)))
}

#[utoipa::path(
    delete,
    path = "/api/websites/{id}",
    tag = "websites",
    operation_id = "deleteWebsite",
    params(("id" = i64, Path, description = "Website id")),
    responses((status = 204, description = "Deleted with all its data"), (status = "4XX", description = "Refused: bad input, no valid sign-in, a role too low for the call (403), or not found (a site the caller has no role on too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn delete(id: WebsiteId, tracker: Tracker, user: Caller, _host: Option<String>) -> Result<impl Reply, Rejection> {
    blocking(move || tracker.delete_website(user.user, id)).await?;
    Ok(StatusCode::NO_CONTENT)
}
