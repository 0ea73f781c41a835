//! GET /api/websites/{id}/organizations: organizations that visited a site (owner only).

use tracker_core::Tracker;
use tracker_core::analytics::OrganizationSummary;
use tracker_core::model::{UserId, WebsiteId};
use warp::{Filter, Rejection, Reply};

use super::{site_json, user, with_tracker};
use crate::error::ErrorBody;

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    warp::path!("websites" / WebsiteId / "organizations")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker))
        .and_then(list)
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
async fn list(site: WebsiteId, tracker: Tracker, user: UserId) -> Result<impl Reply, Rejection> {
    site_json(tracker, user, site, move |tracker| tracker.analytics.organizations(site)).await
}
