//! /api/analytics/advanced and /api/analytics/ai-intent: the Advanced Analytics screen's overview figures and
//! the visitor intent model's scores (owner only), of the visits the `filters` admit.

use serde::Deserialize;
use tracker_core::analytics::Period;
use tracker_core::model::{Caller, now_ms};
use tracker_core::{Error, Tracker};
use warp::{Filter, Rejection, Reply};

use super::dashboard::filters_of;
use super::{parse_website_id, site_json, user, with_tracker};
use tracker_core::analytics::{Advanced, AiIntent};

use crate::error::{ErrorBody, reject};

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct AdvancedQuery {
    #[param(value_type = Option<i64>)]
    website_id: Option<String>,
    time_range: Option<String>,
    /// Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters").
    filters: Option<String>,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct IntentQuery {
    #[param(value_type = Option<i64>)]
    website_id: Option<String>,
    time_range: Option<String>,
    refit: Option<String>,
    /// Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters").
    filters: Option<String>,
}

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let advanced = warp::path!("analytics" / "advanced")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker.clone()))
        .and(warp::query::<AdvancedQuery>())
        .and_then(advanced);
    let intent = warp::path!("analytics" / "ai-intent")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker))
        .and(warp::query::<IntentQuery>())
        .and_then(ai_intent);
    advanced.or(intent)
}

/// The spec's ranges of the screen: 1d, 7d, 30d, 90d (and 24h, the intent panel's default), resolved in the
/// site's days by `tracker.events.range_of` once the site is known.
fn period(raw: Option<&str>, default: &str) -> Result<Period, Rejection> {
    let name = raw.unwrap_or(default);
    if !matches!(name, "1d" | "24h" | "7d" | "30d" | "90d") {
        return Err(reject(Error::invalid("time_range must be one of 1d, 24h, 7d, 30d, 90d")));
    }
    Period::parse(Some(name), None, None, default, now_ms()).map_err(reject)
}

#[utoipa::path(
    get,
    path = "/api/analytics/advanced",
    tag = "advanced",
    operation_id = "advancedAnalytics",
    params(AdvancedQuery),
    responses((status = 200, description = "Real-time metrics, top pages, segments and the overview of the Advanced Analytics screen", body = Advanced), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn advanced(tracker: Tracker, user: Caller, query: AdvancedQuery) -> Result<impl Reply, Rejection> {
    let site = parse_website_id(query.website_id.as_deref())?;
    let period = period(query.time_range.as_deref(), "7d")?;
    let filters = filters_of(query.filters.as_deref())?;
    site_json(tracker, user, site, move |tracker| {
        tracker.events.advanced(site, tracker.events.range_of(site, period, now_ms())?, &filters)
    })
    .await
}

#[utoipa::path(
    get,
    path = "/api/analytics/ai-intent",
    tag = "advanced",
    operation_id = "aiIntent",
    params(IntentQuery),
    responses((status = 200, description = "Visitor intent scores from the fitted model, patterns and recommendations", body = AiIntent), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn ai_intent(tracker: Tracker, user: Caller, query: IntentQuery) -> Result<impl Reply, Rejection> {
    let site = parse_website_id(query.website_id.as_deref())?;
    let period = period(query.time_range.as_deref(), "24h")?;
    let refit = match query.refit.as_deref() {
        None | Some("" | "0" | "false") => false,
        Some("1" | "true") => true,
        Some(_) => return Err(reject(Error::invalid("refit must be true or false"))),
    };
    let filters = filters_of(query.filters.as_deref())?;
    site_json(tracker, user, site, move |tracker| {
        tracker.events.ai_intent(site, tracker.events.range_of(site, period, now_ms())?, &filters, refit)
    })
    .await
}
