//! GET /api/websites/{id}/revenue/{dimension}: the sums of the values conversions carried, per currency and per
//! value of any breakdown dimension (sources, goals, pages, properties...), under the screen's period and filters.

use serde::{Deserialize, Serialize};
use tracker_core::Tracker;
use tracker_core::events::RevenueRow;
use tracker_core::model::{Caller, WebsiteId, now_ms};
use warp::{Filter, Rejection, Reply};

use super::dashboard::{breakdown_of_request, filters_of, period_of};
use super::{site_json, user, with_tracker};
use crate::error::ErrorBody;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct RevenueQuery {
    range: Option<String>,
    /// Rows (a value in one currency), 1 to 1000; 10 by default.
    limit: Option<String>,
    /// Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters").
    filters: Option<String>,
    /// First day, YYYY-MM-DD, with `to` in place of `range` (UTC days).
    from: Option<String>,
    /// Last day, YYYY-MM-DD, included.
    to: Option<String>,
}

/// The revenue by a dimension: rows of a value, a currency, the sum and the conversions, greatest sums first.
#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct Revenue {
    dimension: String,
    rows: Vec<RevenueRow>,
}

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    warp::path!("websites" / WebsiteId / "revenue" / String)
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker))
        .and(warp::query::<RevenueQuery>())
        .and_then(revenue)
}

/// The revenue of a site's conversions with a value by any breakdown dimension (`source`, `goal`, ...).
#[utoipa::path(
    get,
    path = "/api/websites/{id}/revenue/{dimension}",
    tag = "dashboard",
    operation_id = "revenue",
    params(("id" = i64, Path, description = "Website id"), ("dimension" = String, Path, description = "As GET /api/websites/{id}/breakdown/{dimension}: source, goal, page, prop:<key>, country, ..."), RevenueQuery),
    responses((status = 200, description = "Sums by value and currency, greatest first", body = Revenue), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn revenue(
    site: WebsiteId,
    dimension: String,
    tracker: Tracker,
    user: Caller,
    query: RevenueQuery,
) -> Result<impl Reply, Rejection> {
    let (dimension, by, limit) = breakdown_of_request(&dimension, query.limit.as_deref())?;
    let period = period_of(&query.range, &query.from, &query.to, "30d")?;
    let filters = filters_of(query.filters.as_deref())?;
    site_json(tracker, user, site, move |tracker| {
        let range = tracker.events.range_of(site, period, now_ms())?;
        let rows = tracker.events.revenue_where(site, range, &filters, &by, limit)?;
        Ok(Revenue { dimension, rows })
    })
    .await
}
