//! Organizations that visited a site (owner only): GET /api/websites/{id}/organizations lists them, and
//! PUT /api/websites/{id}/organizations/{orgId} sets what the owner knows of one (domain, industry, size).

use tracker_core::Tracker;
use tracker_core::model::{UserId, WebsiteId};
use tracker_core::store::organizations::OrganizationUpdate;
use warp::{Filter, Rejection, Reply};

use super::{api_body, site_json, user, with_tracker};

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

async fn list(site: WebsiteId, tracker: Tracker, user: UserId) -> Result<impl Reply, Rejection> {
    site_json(tracker, user, site, move |tracker| tracker.analytics.organizations(site)).await
}

async fn update(
    site: WebsiteId,
    id: i64,
    tracker: Tracker,
    user: UserId,
    changes: OrganizationUpdate,
) -> Result<impl Reply, Rejection> {
    site_json(tracker, user, site, move |tracker| tracker.organizations.update(site, id, changes)).await
}
