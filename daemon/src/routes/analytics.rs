//! /api/analytics/urls and /api/analytics/heatmap: the heatmap panel's reads (owner only).

use serde::Deserialize;
use tracker_core::Tracker;
use tracker_core::analytics::{TimeRange, page_path};
use tracker_core::model::{UserId, now_ms};
use warp::{Filter, Rejection, Reply};

use super::{parse_website_id, site_json, user, with_tracker};
use crate::error::reject;

#[derive(Deserialize)]
struct UrlsQuery {
    website_id: Option<String>,
}

#[derive(Deserialize)]
struct HeatmapQuery {
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
        .and(user(tracker))
        .and(warp::query::<HeatmapQuery>())
        .and_then(heatmap);
    urls.or(heatmap)
}

async fn urls(tracker: Tracker, user: UserId, query: UrlsQuery) -> Result<impl Reply, Rejection> {
    let site = parse_website_id(query.website_id.as_deref())?;
    site_json(tracker, user, site, move |tracker| tracker.analytics.page_urls(site)).await
}

async fn heatmap(tracker: Tracker, user: UserId, query: HeatmapQuery) -> Result<impl Reply, Rejection> {
    let site = parse_website_id(query.website_id.as_deref())?;
    let path = page_path(query.url.as_deref().unwrap_or("")).map_err(reject)?;
    let range = TimeRange::parse(query.time_range.as_deref().unwrap_or("7d"), now_ms()).map_err(reject)?;
    site_json(tracker, user, site, move |tracker| tracker.analytics.heatmap(site, &path, range)).await
}
