//! Dashboard reads beyond the overview (daemon/API.md "Dashboard reads"): the traffic time series, recent
//! activity, per-period figures of every site, conversions, identified visitors and traffic sources. The
//! per-site export is in export.rs (one writer, shared with `tracker export`).

use serde::Deserialize;
use tracker_core::Tracker;
use tracker_core::analytics::{
    ActivityEvent, Compare, Conversions, IdentifiedVisitor, SiteMetric, SitePeriods, Timeseries, TrafficSource,
};
use tracker_core::model::{Caller, WebsiteId, now_ms};
use warp::{Filter, Rejection, Reply};

use super::dashboard::{filters_of, period_of};
use super::{blocking, parse_website_id, site_json, user, with_tracker};
use crate::error::{ErrorBody, reject};

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct SeriesQuery {
    #[param(value_type = Option<i64>)]
    website_id: Option<String>,
    range: Option<String>,
    /// Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters").
    filters: Option<String>,
    /// `previous_period` (the default of the cards' `previous`) or `year_over_year`.
    compare: Option<String>,
    /// First day, YYYY-MM-DD, with `to` in place of `range` (UTC days).
    from: Option<String>,
    /// Last day, YYYY-MM-DD, included.
    to: Option<String>,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct ActivityQuery {
    #[param(value_type = Option<i64>)]
    website_id: Option<String>,
    limit: Option<i64>,
    /// Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters"):
    /// only the items they admit.
    filters: Option<String>,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct SitesQuery {
    metric: Option<String>,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct FilteredRangeQuery {
    range: Option<String>,
    /// Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters").
    filters: Option<String>,
    /// First day, YYYY-MM-DD, with `to` in place of `range` (UTC days).
    from: Option<String>,
    /// Last day, YYYY-MM-DD, included.
    to: Option<String>,
}

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let authed = || with_tracker(tracker.clone()).and(user(tracker.clone()));
    let timeseries = warp::path!("dashboard" / "timeseries")
        .and(warp::get())
        .and(authed())
        .and(warp::query::<SeriesQuery>())
        .and_then(timeseries);
    let activity = warp::path!("dashboard" / "recent-activity")
        .and(warp::get())
        .and(authed())
        .and(warp::query::<ActivityQuery>())
        .and_then(recent_activity);
    let sites = warp::path!("dashboard" / "sites")
        .and(warp::get())
        .and(authed())
        .and(warp::query::<SitesQuery>())
        .and_then(site_periods);
    let conversions = warp::path!("websites" / WebsiteId / "conversions")
        .and(warp::get())
        .and(authed())
        .and(warp::query::<FilteredRangeQuery>())
        .and_then(conversions);
    let identified = warp::path!("websites" / WebsiteId / "identified-visitors")
        .and(warp::get())
        .and(authed())
        .and_then(identified_visitors);
    let sources = warp::path!("websites" / WebsiteId / "traffic-sources")
        .and(warp::get())
        .and(authed())
        .and(warp::query::<FilteredRangeQuery>())
        .and_then(traffic_sources);
    timeseries.or(activity).or(sites).or(conversions).or(identified).or(sources)
}

#[utoipa::path(
    get,
    path = "/api/dashboard/timeseries",
    tag = "dashboard",
    operation_id = "timeseries",
    params(SeriesQuery),
    responses((status = 200, description = "Visitors and page views per hour or day, and the annotations on the range's days", body = Timeseries), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn timeseries(tracker: Tracker, user: Caller, query: SeriesQuery) -> Result<impl Reply, Rejection> {
    let site = parse_website_id(query.website_id.as_deref())?;
    let period = period_of(&query.range, &query.from, &query.to, "7d")?;
    let filters = filters_of(query.filters.as_deref())?;
    let compare = Compare::parse(query.compare.as_deref()).map_err(reject)?;
    site_json(tracker, user, site, move |tracker| {
        let range = tracker.events.range_of(site, period, now_ms())?;
        let mut series = tracker.events.timeseries_where(site, range, &filters, compare)?;
        series.annotations = tracker.annotations.marks(site, range)?;
        Ok(series)
    })
    .await
}

#[utoipa::path(
    get,
    path = "/api/dashboard/recent-activity",
    tag = "dashboard",
    operation_id = "recentActivity",
    params(ActivityQuery),
    responses((status = 200, description = "The latest page views and events", body = Vec<ActivityEvent>), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn recent_activity(tracker: Tracker, user: Caller, query: ActivityQuery) -> Result<impl Reply, Rejection> {
    let site = parse_website_id(query.website_id.as_deref())?;
    let limit = query.limit.unwrap_or(10);
    let filters = filters_of(query.filters.as_deref())?;
    site_json(tracker, user, site, move |tracker| tracker.events.recent_activity_where(site, &filters, limit)).await
}

#[utoipa::path(
    get,
    path = "/api/dashboard/sites",
    tag = "dashboard",
    operation_id = "sitePeriods",
    params(SitesQuery),
    responses((status = 200, description = "A metric of every site today, yesterday, 7 and 30 days", body = Vec<SitePeriods>), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn site_periods(tracker: Tracker, user: Caller, query: SitesQuery) -> Result<impl Reply, Rejection> {
    let metric = SiteMetric::parse(query.metric.as_deref().unwrap_or("pageviews")).map_err(reject)?;
    // The sites from the metadata store, their figures from the events store (two databases in cluster mode).
    let rows = blocking(move || {
        let sites: Vec<_> = tracker.websites.visible(user.user)?.into_iter().map(|(site, _)| site.id).collect();
        tracker.events.site_periods(&sites, metric, now_ms())
    })
    .await?;
    Ok(warp::reply::json(&rows))
}

#[utoipa::path(
    get,
    path = "/api/websites/{id}/conversions",
    tag = "dashboard",
    operation_id = "conversions",
    params(("id" = i64, Path, description = "Website id"), FilteredRangeQuery),
    responses((status = 200, description = "Conversions of the range and the conversion rate", body = Conversions), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn conversions(
    site: WebsiteId,
    tracker: Tracker,
    user: Caller,
    query: FilteredRangeQuery,
) -> Result<impl Reply, Rejection> {
    let period = period_of(&query.range, &query.from, &query.to, "30d")?;
    let filters = filters_of(query.filters.as_deref())?;
    site_json(tracker, user, site, move |tracker| {
        let range = tracker.events.range_of(site, period, now_ms())?;
        tracker.events.conversions_where(site, range, &filters)
    })
    .await
}

#[utoipa::path(
    get,
    path = "/api/websites/{id}/identified-visitors",
    tag = "dashboard",
    operation_id = "identifiedVisitors",
    params(("id" = i64, Path, description = "Website id")),
    responses((status = 200, description = "Visitors named by identify()", body = Vec<IdentifiedVisitor>), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn identified_visitors(site: WebsiteId, tracker: Tracker, user: Caller) -> Result<impl Reply, Rejection> {
    site_json(tracker, user, site, move |tracker| tracker.events.identified_visitors(site)).await
}

#[utoipa::path(
    get,
    path = "/api/websites/{id}/traffic-sources",
    tag = "dashboard",
    operation_id = "trafficSources",
    params(("id" = i64, Path, description = "Website id"), FilteredRangeQuery),
    responses((status = 200, description = "Visits by source channel", body = Vec<TrafficSource>), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn traffic_sources(
    site: WebsiteId,
    tracker: Tracker,
    user: Caller,
    query: FilteredRangeQuery,
) -> Result<impl Reply, Rejection> {
    let period = period_of(&query.range, &query.from, &query.to, "30d")?;
    let filters = filters_of(query.filters.as_deref())?;
    site_json(tracker, user, site, move |tracker| {
        let range = tracker.events.range_of(site, period, now_ms())?;
        tracker.events.traffic_sources_where(site, range, &filters)
    })
    .await
}
