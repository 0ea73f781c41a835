//! Dashboard reads: /api/dashboard/overview, the live SSE stream, and per-site referrers and countries.

use std::convert::Infallible;
use std::time::Duration;

use futures_util::Stream;
use serde::{Deserialize, Serialize};
use tokio::sync::broadcast::error::RecvError;
use tokio::sync::{broadcast, watch};
use tracker_core::analytics::{
    ActiveSession, Compare, CountryCount, DimensionCount, Overview, Period, ReferrerCount, TimeRange,
};
use tracker_core::auth::{Principal, StreamTicket};
use tracker_core::events::{BreakdownBy, Filters};
use tracker_core::metrics::LiveClient;
use tracker_core::model::{Caller, WebsiteId, now_ms};
use tracker_core::{Error, Tracker};
use warp::sse::Event;
use warp::{Filter, Rejection, Reply};

use super::{bearer, blocking, parse_website_id, principal, site_json, user, with_tracker};
use crate::error::{ErrorBody, reject};

/// Query of the per-site reads.
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct SiteQuery {
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
struct RangeQuery {
    range: Option<String>,
    /// Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters").
    filters: Option<String>,
    /// First day, YYYY-MM-DD, with `to` in place of `range` (UTC days).
    from: Option<String>,
    /// Last day, YYYY-MM-DD, included.
    to: Option<String>,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct BreakdownQuery {
    range: Option<String>,
    limit: Option<String>,
    /// Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters").
    filters: Option<String>,
    /// `previous_period` (the default of the cards' `previous`) or `year_over_year`.
    compare: Option<String>,
    /// First day, YYYY-MM-DD, with `to` in place of `range` (UTC days).
    from: Option<String>,
    /// Last day, YYYY-MM-DD, included.
    to: Option<String>,
}

/// A breakdown's answer: the dimension, what `count` counts, and the rows, most first.
#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct Breakdown {
    dimension: String,
    /// `visits`, `pageviews` or `events`.
    measure: &'static str,
    rows: Vec<BreakdownRow>,
}

/// A breakdown's row: a value ('' = unknown, Direct for referrers and sources) and its count; with `compare=`,
/// the value's count over the compared period too (0 when it had none).
#[derive(Serialize, utoipa::ToSchema)]
pub(crate) struct BreakdownRow {
    value: String,
    count: i64,
    #[serde(skip_serializing_if = "Option::is_none")]
    previous: Option<i64>,
}

/// Rows a breakdown answers by default, and at most.
const BREAKDOWN_DEFAULT_LIMIT: i64 = 10;
const BREAKDOWN_MAX_LIMIT: i64 = 1_000;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct LiveQuery {
    #[param(value_type = Option<i64>)]
    website_id: Option<String>,
    ticket: Option<String>,
}

/// How often the live stream re-checks even without new hits (sessions turn idle with time alone).
const LIVE_RECHECK: Duration = Duration::from_secs(5);
/// Least time between two live queries of one stream, however busy the site.
const LIVE_MIN_INTERVAL: Duration = Duration::from_millis(500);

pub fn routes(
    tracker: Tracker,
    stopping: watch::Receiver<bool>,
) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let overview = warp::path!("dashboard" / "overview")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker.clone()))
        .and(warp::query::<SiteQuery>())
        .and_then(overview);
    let ticket = warp::path!("dashboard" / "live" / "ticket")
        .and(warp::post())
        .and(with_tracker(tracker.clone()))
        .and(principal(tracker.clone()))
        .and_then(ticket);
    let live = warp::path!("dashboard" / "live")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(warp::header::optional::<String>("authorization"))
        .and(warp::query::<LiveQuery>())
        .and(warp::any().map(move || stopping.clone()))
        .and_then(live);
    let referrers = warp::path!("websites" / WebsiteId / "referrers")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker.clone()))
        .and(warp::query::<RangeQuery>())
        .and_then(referrers);
    let breakdown = warp::path!("websites" / WebsiteId / "breakdown" / String)
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker.clone()))
        .and(warp::query::<BreakdownQuery>())
        .and_then(breakdown);
    let countries = warp::path!("websites" / WebsiteId / "countries")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker))
        .and(warp::query::<RangeQuery>())
        .and_then(countries);
    overview.or(ticket).or(live).or(referrers).or(countries).or(breakdown)
}

/// Parses the `range` parameter, 30 days by default.
pub(crate) fn range_of(raw: Option<&str>) -> Result<TimeRange, Rejection> {
    TimeRange::parse(raw.unwrap_or("30d"), now_ms()).map_err(reject)
}

/// Parses `range` (`default` when absent), or `from` and `to` in its place; `all` is resolved against the site
/// by `tracker.events.range_of`.
pub(crate) fn period_of(
    range: &Option<String>,
    from: &Option<String>,
    to: &Option<String>,
    default: &str,
) -> Result<Period, Rejection> {
    Period::parse(range.as_deref(), from.as_deref(), to.as_deref(), default, now_ms()).map_err(reject)
}

/// Parses the `filters` parameter; none when absent.
pub(crate) fn filters_of(raw: Option<&str>) -> Result<Filters, Rejection> {
    Filters::parse(raw).map_err(reject)
}

#[utoipa::path(
    get,
    path = "/api/dashboard/overview",
    tag = "dashboard",
    operation_id = "overview",
    params(SiteQuery),
    responses((status = 200, description = "Headline figures, the previous period and top pages", body = Overview), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn overview(tracker: Tracker, user: Caller, query: SiteQuery) -> Result<impl Reply, Rejection> {
    let site = parse_website_id(query.website_id.as_deref())?;
    let period = period_of(&query.range, &query.from, &query.to, "30d")?;
    let filters = filters_of(query.filters.as_deref())?;
    let compare = Compare::parse(query.compare.as_deref()).map_err(reject)?;
    site_json(tracker, user, site, move |tracker| {
        let range = tracker.events.range_of(site, period, now_ms())?;
        tracker.events.overview_where(site, range, &filters, compare)
    })
    .await
}

#[utoipa::path(
    get,
    path = "/api/websites/{id}/referrers",
    tag = "dashboard",
    operation_id = "referrers",
    params(("id" = i64, Path, description = "Website id"), RangeQuery),
    responses((status = 200, description = "Referrers, most first", body = Vec<ReferrerCount>), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn referrers(
    site: WebsiteId,
    tracker: Tracker,
    user: Caller,
    query: RangeQuery,
) -> Result<impl Reply, Rejection> {
    let period = period_of(&query.range, &query.from, &query.to, "30d")?;
    let filters = filters_of(query.filters.as_deref())?;
    site_json(tracker, user, site, move |tracker| {
        let range = tracker.events.range_of(site, period, now_ms())?;
        tracker.events.referrers_where(site, range, &filters)
    })
    .await
}

#[utoipa::path(
    get,
    path = "/api/websites/{id}/countries",
    tag = "dashboard",
    operation_id = "countries",
    params(("id" = i64, Path, description = "Website id"), RangeQuery),
    responses((status = 200, description = "Countries, most first", body = Vec<CountryCount>), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn countries(
    site: WebsiteId,
    tracker: Tracker,
    user: Caller,
    query: RangeQuery,
) -> Result<impl Reply, Rejection> {
    let period = period_of(&query.range, &query.from, &query.to, "30d")?;
    let filters = filters_of(query.filters.as_deref())?;
    site_json(tracker, user, site, move |tracker| {
        let range = tracker.events.range_of(site, period, now_ms())?;
        tracker.events.countries_where(site, range, &filters)
    })
    .await
}

/// Any rollup dimension of a site over a range: `{dimension, measure, rows:[{value, count}]}`, most first.
#[utoipa::path(
    get,
    path = "/api/websites/{id}/breakdown/{dimension}",
    tag = "dashboard",
    operation_id = "breakdown",
    params(("id" = i64, Path, description = "Website id"), ("dimension" = String, Path, description = "page, event, goal, prop:<key>, or a visit dimension: entry_page, exit_page, source, referrer, utm_source, utm_medium, utm_campaign, utm_content, utm_term, country, region, city, device, browser, os, screen"), BreakdownQuery),
    responses((status = 200, description = "Counts by value, most first", body = Breakdown), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn breakdown(
    site: WebsiteId,
    dimension: String,
    tracker: Tracker,
    user: Caller,
    query: BreakdownQuery,
) -> Result<impl Reply, Rejection> {
    let (dimension, by, limit) = breakdown_of_request(&dimension, query.limit.as_deref())?;
    let period = period_of(&query.range, &query.from, &query.to, "30d")?;
    let filters = filters_of(query.filters.as_deref())?;
    let compare = Compare::parse(query.compare.as_deref()).map_err(reject)?;
    site_json(tracker, user, site, move |tracker| {
        let range = tracker.events.range_of(site, period, now_ms())?;
        breakdown_answer(tracker, site, range, &filters, dimension, &by, limit, compare)
    })
    .await
}

/// A breakdown request's dimension (the path segment as sent) and `limit`, checked: the dimension as text, as
/// parsed, and the row count.
pub(crate) fn breakdown_of_request(
    segment: &str,
    limit: Option<&str>,
) -> Result<(String, BreakdownBy, i64), Rejection> {
    // warp hands the segment over as sent: `prop%3Aplan` is `prop:plan`.
    let dimension = percent_encoding::percent_decode_str(segment)
        .decode_utf8()
        .map_err(|_| reject(Error::invalid("the dimension must be UTF-8 text")))?
        .into_owned();
    let by = BreakdownBy::parse(&dimension).map_err(reject)?;
    let limit = match limit {
        None => BREAKDOWN_DEFAULT_LIMIT,
        Some(raw) => raw
            .parse()
            .ok()
            .filter(|n| (1..=BREAKDOWN_MAX_LIMIT).contains(n))
            .ok_or_else(|| reject(Error::invalid("limit must be a whole number from 1 to 1000")))?,
    };
    Ok((dimension, by, limit))
}

/// A breakdown's answer over a range (the owner's route and a share link's alike).
#[allow(clippy::too_many_arguments)]
pub(crate) fn breakdown_answer(
    tracker: &Tracker,
    site: WebsiteId,
    range: TimeRange,
    filters: &Filters,
    dimension: String,
    by: &BreakdownBy,
    limit: i64,
    compare: Option<Compare>,
) -> tracker_core::Result<Breakdown> {
    let rows = tracker.events.breakdown_where(site, range, filters, by, limit)?;
    // The compared period's counts of the same values (a value outside its top rows is read as 0 there).
    let earlier: Option<Vec<DimensionCount>> = match compare {
        Some(compare) => {
            Some(tracker.events.breakdown_where(site, compare.range(range), filters, by, BREAKDOWN_MAX_LIMIT)?)
        }
        None => None,
    };
    let previous =
        |value: &str| earlier.as_ref().map(|rows| rows.iter().find(|r| r.value == value).map_or(0, |r| r.count));
    let rows = rows
        .into_iter()
        .map(|r| BreakdownRow { previous: previous(&r.value), value: r.value, count: r.count })
        .collect();
    Ok(Breakdown { dimension, measure: by.measure(), rows })
}

/// A single-use ticket that opens the live stream (EventSource cannot send the bearer header).
#[utoipa::path(
    post,
    path = "/api/dashboard/live/ticket",
    tag = "dashboard",
    operation_id = "liveTicket",
    responses((status = 200, description = "A ticket for `GET /api/dashboard/live?ticket=`", body = StreamTicket), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn ticket(tracker: Tracker, principal: Principal) -> Result<warp::reply::Json, Rejection> {
    // In cluster mode the ticket is stored in PostgreSQL: blocking work.
    let ticket = blocking(move || tracker.auth.stream_ticket(principal)).await?;
    Ok(warp::reply::json(&ticket))
}

/// The live stream. EventSource cannot send headers, so a browser opens it with `?ticket=` (single use,
/// from POST /api/dashboard/live/ticket); other clients may send the bearer token. The stream ends when
/// the credential expires or its sign-in is revoked, and the client reconnects with a new ticket.
#[utoipa::path(
    get,
    path = "/api/dashboard/live",
    tag = "dashboard",
    operation_id = "liveStream",
    params(LiveQuery),
    responses((status = 200, description = "Server-sent events: `data: {\"type\":\"active_sessions\",\"data\":[ActiveSession...]}` on connect and on every change", content_type = "text/event-stream", body = String), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn live(
    tracker: Tracker,
    authorization: Option<String>,
    query: LiveQuery,
    stopping: watch::Receiver<bool>,
) -> Result<impl Reply, Rejection> {
    let access_token = bearer(authorization.as_deref()).map(str::to_string);
    let site = parse_website_id(query.website_id.as_deref())?;
    let check = tracker.clone();
    let principal = blocking(move || {
        let principal = match (query.ticket, access_token) {
            (Some(ticket), _) => check.auth.redeem_stream_ticket(&ticket)?,
            (None, Some(token)) => check.auth.authenticate(&token)?,
            (None, None) => return Err(Error::Unauthorized("missing stream ticket".into())),
        };
        check.websites.get(principal.user, site)?;
        Ok(principal)
    })
    .await?;
    let updates = tracker.live.subscribe();
    let counted = tracker.metrics.live_client();
    let stream = live_stream(LiveState { tracker, principal, site, updates, stopping, last: None, _counted: counted });
    let reply = warp::sse::reply(warp::sse::keep_alive().interval(Duration::from_secs(15)).stream(stream));
    // nginx buffers proxied answers by default, which would hold the events back; this turns it off for
    // this answer only (examples/deploy/nginx.conf).
    Ok(warp::reply::with_header(reply, "x-accel-buffering", "no"))
}

struct LiveState {
    tracker: Tracker,
    principal: Principal,
    site: WebsiteId,
    updates: broadcast::Receiver<WebsiteId>,
    stopping: watch::Receiver<bool>,
    last: Option<Vec<ActiveSession>>,
    /// Counts this stream in the metrics while it is open.
    _counted: LiveClient,
}

/// A snapshot on connect, then a new list whenever it changes.
fn live_stream(state: LiveState) -> impl Stream<Item = Result<Event, Infallible>> + Send + 'static {
    futures_util::stream::unfold(state, |mut state| async move {
        loop {
            if state.last.is_some() {
                wait_for_change(&mut state).await?;
            }
            let tracker = state.tracker.clone();
            let (site, principal) = (state.site, state.principal);
            let read = move || -> tracker_core::Result<Option<Vec<ActiveSession>>> {
                if tracker.auth.still_valid(principal).is_err() {
                    return Ok(None);
                }
                tracker.events.active_sessions(site).map(Some)
            };
            let sessions = match tokio::task::spawn_blocking(read).await {
                Ok(Ok(Some(sessions))) => sessions,
                // The token expired or its sign-in was revoked: the stream ends.
                Ok(Ok(None)) => return None,
                Ok(Err(e)) => {
                    tracing::warn!(error = %e, "live query failed");
                    tokio::time::sleep(LIVE_RECHECK).await;
                    continue;
                }
                Err(_) => return None,
            };
            if state.last.as_ref() == Some(&sessions) {
                continue;
            }
            let message = serde_json::json!({ "type": "active_sessions", "data": sessions });
            state.last = Some(sessions);
            return Some((Ok(Event::default().data(message.to_string())), state));
        }
    })
}

/// Waits for news of this site or the periodic re-check; `None` when the daemon is shutting down.
async fn wait_for_change(state: &mut LiveState) -> Option<()> {
    if *state.stopping.borrow() {
        return None;
    }
    tokio::time::sleep(LIVE_MIN_INTERVAL).await;
    let deadline = tokio::time::sleep(LIVE_RECHECK);
    tokio::pin!(deadline);
    loop {
        tokio::select! {
            _ = state.stopping.changed() => return None,
            _ = &mut deadline => return Some(()),
            received = state.updates.recv() => match received {
                Ok(site) if site == state.site => return Some(()),
                Ok(_) => {}
                Err(RecvError::Lagged(_)) => return Some(()),
                Err(RecvError::Closed) => return None,
            },
        }
    }
}
