//! /api/analytics/urls, /api/analytics/heatmap and /api/analytics/heatmap/page: the heatmap panel's reads
//! (owner only).

use serde::Deserialize;
use tracker_core::Tracker;
use tracker_core::analytics::{Heatmap, PageRendering, Period, page_path};
use tracker_core::model::{Caller, now_ms};
use warp::{Filter, Rejection, Reply};

use super::{parse_website_id, site_json, user, with_tracker};
use crate::error::{ErrorBody, reject};

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct UrlsQuery {
    #[param(value_type = Option<i64>)]
    website_id: Option<String>,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct PageQuery {
    #[param(value_type = Option<i64>)]
    website_id: Option<String>,
    url: Option<String>,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct HeatmapQuery {
    #[param(value_type = Option<i64>)]
    website_id: Option<String>,
    url: Option<String>,
    time_range: Option<String>,
}

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let urls = warp::path!("analytics" / "urls")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker.clone()))
        .and(warp::query::<UrlsQuery>())
        .and_then(urls);
    let heatmap = warp::path!("analytics" / "heatmap")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker.clone()))
        .and(warp::query::<HeatmapQuery>())
        .and_then(heatmap);
    let page = warp::path!("analytics" / "heatmap" / "page")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker))
        .and(warp::query::<PageQuery>())
        .and_then(page);
    urls.or(heatmap).or(page)
}

#[utoipa::path(
    get,
    path = "/api/analytics/urls",
    tag = "analytics",
    operation_id = "heatmapUrls",
    params(UrlsQuery),
    responses((status = 200, description = "Page paths with interaction data", body = Vec<String>), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn urls(tracker: Tracker, user: Caller, query: UrlsQuery) -> Result<impl Reply, Rejection> {
    let site = parse_website_id(query.website_id.as_deref())?;
    site_json(tracker, user, site, move |tracker| tracker.events.page_urls(site)).await
}

#[utoipa::path(
    get,
    path = "/api/analytics/heatmap",
    tag = "analytics",
    operation_id = "heatmap",
    params(HeatmapQuery),
    responses((status = 200, description = "Clicks, scroll depth, moves, page metrics and forms of one page", body = Heatmap), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn heatmap(tracker: Tracker, user: Caller, query: HeatmapQuery) -> Result<impl Reply, Rejection> {
    let site = parse_website_id(query.website_id.as_deref())?;
    let path = page_path(query.url.as_deref().unwrap_or("")).map_err(reject)?;
    let period = Period::parse(query.time_range.as_deref(), None, None, "7d", now_ms()).map_err(reject)?;
    site_json(tracker, user, site, move |tracker| {
        tracker.events.heatmap(site, &path, tracker.events.range_of(site, period, now_ms())?)
    })
    .await
}

/// The page's latest recorded snapshot: visitor-controlled content, which the dashboard rebuilds only in a
/// frame sandboxed without scripts (API.md).
#[utoipa::path(
    get,
    path = "/api/analytics/heatmap/page",
    tag = "analytics",
    operation_id = "heatmapPage",
    params(PageQuery),
    responses((status = 200, description = "The page's rrweb full snapshot from the latest recording of it, or null", body = PageRendering), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn page(tracker: Tracker, user: Caller, query: PageQuery) -> Result<impl Reply, Rejection> {
    let site = parse_website_id(query.website_id.as_deref())?;
    let path = page_path(query.url.as_deref().unwrap_or("")).map_err(reject)?;
    site_json(tracker, user, site, move |tracker| tracker.events.page_snapshot(site, &path)).await
}
