//! Organizations that visited a site (owner only): GET /api/websites/{id}/organizations lists them, and
//! PUT /api/websites/{id}/organizations/{orgId} sets what the owner knows of one (domain, industry, size).

use tracker_core::Tracker;
use tracker_core::analytics::OrganizationSummary;
use tracker_core::model::{Caller, WebsiteId};
use tracker_core::store::organizations::OrganizationUpdate;
use warp::{Filter, Rejection, Reply};

use super::{api_body, site_json, user, with_tracker};
use crate::error::ErrorBody;

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let list = warp::path!("websites" / WebsiteId / "organizations")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker.clone()))
        .and_then(list);
    let update = warp::path!("websites" / WebsiteId / "organizations" / i64)
        .and(warp::put())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker))
        .and(api_body())
        .and_then(update);
    list.or(update)
}

#[utoipa::path(
    get,
    path = "/api/websites/{id}/organizations",
    tag = "organizations",
    operation_id = "listOrganizations",
    params(("id" = i64, Path, description = "Website id")),
    responses((status = 200, description = "Organizations that visited the site", body = Vec<OrganizationSummary>), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn list(site: WebsiteId, tracker: Tracker, user: Caller) -> Result<impl Reply, Rejection> {
    site_json(tracker, user, site, move |tracker| tracker.events.organizations(site)).await
}

#[utoipa::path(
    put,
    path = "/api/websites/{id}/organizations/{orgId}",
    tag = "organizations",
    operation_id = "updateOrganization",
    params(("id" = i64, Path, description = "Website id"), ("orgId" = i64, Path, description = "Organization id")),
    request_body(content = OrganizationUpdate, content_type = "application/json"),
    responses((status = 200, description = "The organization with what the owner set", body = OrganizationSummary), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn update(
    site: WebsiteId,
    id: i64,
    tracker: Tracker,
    user: Caller,
    changes: OrganizationUpdate,
) -> Result<impl Reply, Rejection> {
    site_json(tracker, user, site, move |tracker| tracker.update_organization(site, id, changes)).await
}
