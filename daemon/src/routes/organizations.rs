//! GET /api/websites/{id}/organizations: organizations that visited a site (owner only).

use tracker_core::Tracker;
use tracker_core::model::{UserId, WebsiteId};
use warp::{Filter, Rejection, Reply};

use super::{site_json, user, with_tracker};

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    warp::path!("websites" / WebsiteId / "organizations")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker))
        .and_then(list)
}

async fn list(site: WebsiteId, tracker: Tracker, user: UserId) -> Result<impl Reply, Rejection> {
    site_json(tracker, user, site, move |tracker| tracker.analytics.organizations(site)).await
}
