//! POST /api/v2/query: Plausible's Stats API v2 (core's `stats_api`), for a sign-in or a read key, the site
//! named by its domain among the caller's.

use serde_json::Value;
use tracker_core::Tracker;
use tracker_core::model::{Caller, now_ms};
use tracker_core::stats_api::{StatsAnswer, StatsQuery};
use warp::{Filter, Rejection, Reply};

use super::{api_body, blocking, user, with_tracker};
use crate::error::ErrorBody;

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    warp::path!("v2" / "query")
        .and(warp::post())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker))
        .and(api_body())
        .and_then(query)
}

/// A Stats API v2 query: `{site_id, metrics, date_range, dimensions?, filters?, order_by?, include?,
/// pagination?}` (API.md "Stats API v2").
#[utoipa::path(
    post,
    path = "/api/v2/query",
    tag = "dashboard",
    operation_id = "statsQuery",
    request_body(content = Object, content_type = "application/json", description = "Plausible's Stats API v2 query; site_id is the site's domain"),
    responses((status = 200, description = "{results:[{metrics, dimensions}], meta, query}", body = Object), (status = "4XX", description = "Refused: a bad field (named), no valid sign-in or key, or a site that is not the caller's (404)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn query(tracker: Tracker, user: Caller, body: Value) -> Result<impl Reply, Rejection> {
    let answer: StatsAnswer = blocking(move || {
        let site = tracker.websites.of_domain(user.user, &StatsQuery::site_domain(&body)?)?;
        let zone = tracker.events.site_zone(site.id)?;
        let query = StatsQuery::parse(&body, now_ms(), zone, || tracker.events.first_data(site.id))?;
        query.run(&*tracker.events, site.id)
    })
    .await?;
    Ok(warp::reply::json(&answer))
}
