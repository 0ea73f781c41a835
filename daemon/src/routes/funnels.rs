//! /api/funnels: list, create, read, update and delete the caller's conversion funnels, each with its
//! per-step figures for a range (owner only; another user's funnel or site is 404).

use serde::Deserialize;
use tracker_core::Tracker;
use tracker_core::analytics::TimeRange;
use tracker_core::events::Filters;
use tracker_core::model::{Caller, WebsiteId, now_ms};
use tracker_core::store::funnels::FunnelInput;
use warp::http::StatusCode;
use warp::{Filter, Rejection, Reply};

use super::dashboard::filters_of;
use super::{api_body, blocking, parse_website_id, user, with_tracker};
use tracker_core::store::funnels::{Funnel, FunnelDropOffs, MAX_DROP_OFFS};

use crate::error::{ErrorBody, reject};

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct FunnelQuery {
    #[param(value_type = Option<i64>)]
    website_id: Option<String>,
    range: Option<String>,
    /// Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters").
    filters: Option<String>,
}

impl FunnelQuery {
    /// The optional site, the range (1d, 7d, 30d or 90d; 30d by default) and the filters.
    fn parse(&self) -> Result<(Option<WebsiteId>, TimeRange, Filters), Rejection> {
        let site = match self.website_id.as_deref().map(str::trim) {
            None | Some("") => None,
            raw => Some(parse_website_id(raw)?),
        };
        let name = self.range.as_deref().unwrap_or("30d");
        if !matches!(name, "1d" | "7d" | "30d" | "90d") {
            return Err(reject(tracker_core::Error::invalid("range must be 1d, 7d, 30d or 90d")));
        }
        let filters = filters_of(self.filters.as_deref())?;
        Ok((site, TimeRange::parse(name, now_ms()).map_err(reject)?, filters))
    }
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct DropOffQuery {
    /// 1d, 7d, 30d or 90d; 30d by default.
    range: Option<String>,
    /// Visits listed per step, 1-100; 20 by default.
    #[param(value_type = Option<i64>)]
    limit: Option<String>,
    /// Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters").
    filters: Option<String>,
}

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let base = warp::path!("funnels").and(with_tracker(tracker.clone())).and(user(tracker.clone()));
    let one = warp::path!("funnels" / i64).and(with_tracker(tracker.clone())).and(user(tracker.clone()));
    let drop_offs = warp::path!("funnels" / i64 / "drop-offs")
        .and(with_tracker(tracker.clone()))
        .and(user(tracker))
        .and(warp::get())
        .and(warp::query::<DropOffQuery>())
        .and_then(drop_offs);
    let list = base.clone().and(warp::get()).and(warp::query::<FunnelQuery>()).and_then(list);
    let create = base.and(warp::post()).and(api_body()).and_then(create);
    let get = one.clone().and(warp::get()).and(warp::query::<FunnelQuery>()).and_then(get);
    let update = one.clone().and(warp::put()).and(api_body()).and_then(update);
    let delete = one.and(warp::delete()).and_then(delete);
    list.or(create).or(get).or(update).or(delete).or(drop_offs)
}

#[utoipa::path(
    get,
    path = "/api/funnels/{id}/drop-offs",
    tag = "funnels",
    operation_id = "funnelDropOffs",
    params(("id" = i64, Path, description = "Funnel id"), DropOffQuery),
    responses((status = 200, description = "Per step but the last, the newest visits of the range that reached it and not the next step", body = FunnelDropOffs), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn drop_offs(id: i64, tracker: Tracker, user: Caller, query: DropOffQuery) -> Result<impl Reply, Rejection> {
    let (_, range, filters) = FunnelQuery { website_id: None, range: query.range, filters: query.filters }.parse()?;
    let limit = match query.limit.as_deref() {
        None => 20,
        Some(raw) => raw
            .trim()
            .parse::<usize>()
            .ok()
            .filter(|n| (1..=MAX_DROP_OFFS).contains(n))
            .ok_or_else(|| reject(tracker_core::Error::invalid("limit must be a whole number from 1 to 100")))?,
    };
    let answer = blocking(move || tracker.funnels.drop_offs(user.user, id, range, &filters, limit)).await?;
    Ok(warp::reply::json(&answer))
}

#[utoipa::path(
    get,
    path = "/api/funnels",
    tag = "funnels",
    operation_id = "listFunnels",
    params(FunnelQuery),
    responses((status = 200, description = "The funnels of the user's sites (or of one site) with their step counts over the range", body = Vec<Funnel>), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn list(tracker: Tracker, user: Caller, query: FunnelQuery) -> Result<impl Reply, Rejection> {
    let (site, range, filters) = query.parse()?;
    let funnels = blocking(move || tracker.funnels.list(user.user, site, range, &filters)).await?;
    Ok(warp::reply::json(&funnels))
}

#[utoipa::path(
    post,
    path = "/api/funnels",
    tag = "funnels",
    operation_id = "createFunnel",
    request_body(content = FunnelInput, content_type = "application/json"),
    responses((status = 201, description = "The new funnel with its counts over the last 30 days", body = Funnel), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn create(tracker: Tracker, user: Caller, body: FunnelInput) -> Result<impl Reply, Rejection> {
    let range = TimeRange::parse("30d", now_ms()).map_err(reject)?;
    let funnel = blocking(move || tracker.funnels.create_and_read(user, body, range)).await?;
    Ok(warp::reply::with_status(warp::reply::json(&funnel), StatusCode::CREATED))
}

#[utoipa::path(
    get,
    path = "/api/funnels/{id}",
    tag = "funnels",
    operation_id = "getFunnel",
    params(("id" = i64, Path, description = "Funnel id"), FunnelQuery),
    responses((status = 200, description = "The funnel with its step counts over the range", body = Funnel), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn get(id: i64, tracker: Tracker, user: Caller, query: FunnelQuery) -> Result<impl Reply, Rejection> {
    let (_, range, filters) = query.parse()?;
    let funnel = blocking(move || tracker.funnels.get(user.user, id, range, &filters)).await?;
    Ok(warp::reply::json(&funnel))
}

#[utoipa::path(
    put,
    path = "/api/funnels/{id}",
    tag = "funnels",
    operation_id = "updateFunnel",
    params(("id" = i64, Path, description = "Funnel id")),
    request_body(content = FunnelInput, content_type = "application/json"),
    responses((status = 200, description = "The changed funnel with its counts over the last 30 days; when the steps or site changed, its definition with figuresPending true and figures 0 (the next list or read counts them)", body = Funnel), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn update(id: i64, tracker: Tracker, user: Caller, body: FunnelInput) -> Result<impl Reply, Rejection> {
    let range = TimeRange::parse("30d", now_ms()).map_err(reject)?;
    // New steps or a new site would be counted over 30 days of raw events here (14 s at 10M events): the
    // answer says the figures are pending instead, and the next list or read counts them.
    let funnel = blocking(move || {
        if tracker.funnels.update(user, id, body)? {
            tracker.funnels.pending(user.user, id)
        } else {
            tracker.funnels.get(user.user, id, range, &Filters::none())
        }
    })
    .await?;
    Ok(warp::reply::json(&funnel))
}

#[utoipa::path(
    delete,
    path = "/api/funnels/{id}",
    tag = "funnels",
    operation_id = "deleteFunnel",
    params(("id" = i64, Path, description = "Funnel id")),
    responses((status = 204, description = "Deleted"), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn delete(id: i64, tracker: Tracker, user: Caller) -> Result<impl Reply, Rejection> {
    blocking(move || tracker.funnels.delete(user, id)).await?;
    Ok(StatusCode::NO_CONTENT)
}
