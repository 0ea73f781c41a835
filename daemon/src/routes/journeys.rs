//! /api/analytics/customer-journeys and /api/analytics/journeys: the caller's visits as journeys, and the
//! most common paths through a site (owner only; another user's site is 404).

use serde::Deserialize;
use tracker_core::analytics::TimeRange;
use tracker_core::analytics::journeys::JourneyFilter;
use tracker_core::model::{Caller, WebsiteId, now_ms};
use tracker_core::{Error, Tracker};
use warp::{Filter, Rejection, Reply};

use super::dashboard::filters_of;
use super::{blocking, parse_website_id, user, with_tracker};
use tracker_core::analytics::journeys::{CustomerJourneys, JourneyPaths};

use crate::error::{ErrorBody, reject};

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct JourneyQuery {
    period: Option<String>,
    filter: Option<String>,
    #[param(value_type = Option<i64>)]
    website_id: Option<String>,
    /// Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters").
    filters: Option<String>,
}

impl JourneyQuery {
    /// The optional site and the period (1d, 7d, 30d or 90d; 7d by default, spec §9).
    fn scope(&self) -> Result<(Option<WebsiteId>, TimeRange), Rejection> {
        let site = match self.website_id.as_deref().map(str::trim) {
            None | Some("") => None,
            raw => Some(parse_website_id(raw)?),
        };
        let period = self.period.as_deref().unwrap_or("7d");
        if !matches!(period, "1d" | "7d" | "30d" | "90d") {
            return Err(reject(Error::invalid("period must be 1d, 7d, 30d or 90d")));
        }
        Ok((site, TimeRange::parse(period, now_ms()).map_err(reject)?))
    }
}

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let customer = warp::path!("analytics" / "customer-journeys")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker.clone()))
        .and(warp::query::<JourneyQuery>())
        .and_then(customer_journeys);
    let paths = warp::path!("analytics" / "journeys")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker))
        .and(warp::query::<JourneyQuery>())
        .and_then(journey_paths);
    customer.or(paths)
}

#[utoipa::path(
    get,
    path = "/api/analytics/customer-journeys",
    tag = "journeys",
    operation_id = "customerJourneys",
    params(JourneyQuery),
    responses((status = 200, description = "Journeys of recent visitors with their steps, scores and a summary", body = CustomerJourneys), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn customer_journeys(tracker: Tracker, user: Caller, query: JourneyQuery) -> Result<impl Reply, Rejection> {
    let (site, range) = query.scope()?;
    let filters = filters_of(query.filters.as_deref())?;
    let filter = JourneyFilter::parse(query.filter.as_deref().unwrap_or("all")).map_err(reject)?;
    let journeys =
        blocking(move || tracker.customer_journeys(user.user, site, range, &filters, filter, now_ms())).await?;
    Ok(warp::reply::json(&journeys))
}

#[utoipa::path(
    get,
    path = "/api/analytics/journeys",
    tag = "journeys",
    operation_id = "journeyPaths",
    params(JourneyQuery),
    responses((status = 200, description = "The most common page paths (a Sankey of page to page moves)", body = JourneyPaths), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn journey_paths(tracker: Tracker, user: Caller, query: JourneyQuery) -> Result<impl Reply, Rejection> {
    let (site, range) = query.scope()?;
    let filters = filters_of(query.filters.as_deref())?;
    let paths = blocking(move || tracker.journey_paths(user.user, site, range, &filters)).await?;
    Ok(warp::reply::json(&paths))
}
