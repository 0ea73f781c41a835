//! Session recordings: the visitor upload POST /api/replay (CORS-open, gzip body), the owner's list
//! GET /api/websites/{id}/session-replays and the player's GET /api/replays/{id}/events.

use bytes::Bytes;
use serde::Deserialize;
use tracker_core::analytics::{MAX_REPLAYS, ReplayDetail, ReplayFilter, ReplayStats, ReplaySummary, TimeRange};
use tracker_core::events::Filters;
use tracker_core::ingest::replay::MAX_CHUNK_BYTES;
use tracker_core::ingest::{Client, ReplayUpload};
use tracker_core::model::{Caller, WebsiteId, now_ms};
use tracker_core::{Error, Tracker};
use warp::http::HeaderValue;
use warp::http::header::CONTENT_TYPE;
use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

use super::dashboard::filters_of;
use super::track::{accepted, preflight_response, recover_with_cors, with_cors};
use super::{Done, blocking, body_bytes, client, site_json, user, with_tracker};
use crate::error::error_reply;
use crate::error::{ErrorBody, reject};

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct UploadQuery {
    tracking_key: Option<String>,
    session_id: Option<String>,
    seq: Option<String>,
    /// "1" or "true" on the last chunk of a page (pagehide).
    #[serde(rename = "final")]
    last: Option<String>,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
struct ListQuery {
    limit: Option<String>,
    time_range: Option<String>,
    #[serde(rename = "time_range")]
    time_range_snake: Option<String>,
    range: Option<String>,
    filter: Option<String>,
    /// Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters").
    filters: Option<String>,
}

impl ListQuery {
    /// The range (24h, 7d or 30d; 7d by default), the filter (all by default) and the visits' filters.
    fn scope(&self) -> Result<(TimeRange, ReplayFilter, Filters), Rejection> {
        let name = self.time_range.as_deref().or(self.time_range_snake.as_deref()).or(self.range.as_deref());
        let name = name.unwrap_or("7d");
        if !matches!(name, "24h" | "1d" | "7d" | "30d") {
            return Err(reject(Error::invalid("time_range must be 24h, 7d or 30d")));
        }
        let range = TimeRange::parse(name, now_ms()).map_err(reject)?;
        let filter = self.filter.as_deref().map_or(Ok(ReplayFilter::All), ReplayFilter::parse).map_err(reject)?;
        Ok((range, filter, filters_of(self.filters.as_deref())?))
    }
}

/// The shape of `GET /api/replays/{id}/events` for the contract; the body itself is streamed as bytes.
#[derive(utoipa::ToSchema)]
#[allow(dead_code)]
struct ReplayEvents {
    /// rrweb events, oldest first.
    events: Vec<serde_json::Value>,
}

/// `POST /api/replay` and its preflight.
pub fn upload(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let preflight = warp::path!("replay").and(warp::options()).map(preflight_response);
    let metrics = tracker.metrics.clone();
    let upload = warp::path!("replay").and(warp::post()).and(
        with_tracker(tracker.clone())
            .and(client(tracker))
            .and(warp::query::<UploadQuery>())
            .and(body_bytes(MAX_CHUNK_BYTES as u64))
            .and_then(upload_chunk)
            .recover(move |r| recover_with_cors(metrics.clone(), r))
            .unify(),
    );
    preflight.or(upload)
}

/// The owner's reads.
pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let list = warp::path!("websites" / WebsiteId / "session-replays")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker.clone()))
        .and(warp::query::<ListQuery>())
        .and_then(list);
    let stats = warp::path!("websites" / WebsiteId / "session-replays" / "stats")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker.clone()))
        .and(warp::query::<ListQuery>())
        .and_then(stats);
    let events = warp::path!("replays" / i64 / "events")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker.clone()))
        .and_then(events);
    let one = warp::path!("replays" / i64)
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker))
        .and_then(one);
    list.or(stats).or(events).or(one)
}

#[utoipa::path(
    post,
    path = "/api/replay",
    tag = "visitors",
    operation_id = "uploadReplay",
    params(UploadQuery),
    request_body(content = Vec<u8>, content_type = "application/octet-stream", description = "One gzip-compressed chunk of rrweb events"),
    responses((status = 202, description = "Stored (or ignored by the site's rules)", body = Done), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody))
)]
async fn upload_chunk(
    tracker: Tracker,
    client: Client,
    query: UploadQuery,
    body: bytes::Bytes,
) -> Result<Response, Rejection> {
    let seq = match query.seq.as_deref().map(str::parse::<i64>) {
        Some(Ok(seq)) => seq,
        Some(Err(_)) => return Ok(with_cors(error_reply(&Error::invalid("seq must be a number")))),
        None => return Ok(with_cors(error_reply(&Error::invalid("seq is required")))),
    };
    let upload = ReplayUpload {
        tracking_key: query.tracking_key.unwrap_or_default(),
        session_id: query.session_id.unwrap_or_default(),
        seq,
        is_final: matches!(query.last.as_deref(), Some("1" | "true")),
        body: body.to_vec(),
    };
    let metrics = tracker.metrics.clone();
    Ok(accepted(&metrics, tokio::task::spawn_blocking(move || tracker.ingest.replay(upload, &client)).await).await)
}

#[utoipa::path(
    get,
    path = "/api/websites/{id}/session-replays",
    tag = "replays",
    operation_id = "listReplays",
    params(("id" = i64, Path, description = "Website id"), ListQuery),
    responses((status = 200, description = "Recordings of the range, newest first", body = Vec<ReplaySummary>), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn list(site: WebsiteId, tracker: Tracker, user: Caller, query: ListQuery) -> Result<impl Reply, Rejection> {
    let limit = match query.limit.as_deref() {
        None => MAX_REPLAYS,
        Some(raw) => raw
            .trim()
            .parse::<i64>()
            .ok()
            .filter(|n| *n >= 1)
            .ok_or_else(|| reject(Error::invalid("limit must be a positive number")))?
            .min(MAX_REPLAYS),
    };
    let (range, filter, filters) = query.scope()?;
    site_json(tracker, user, site, move |tracker| tracker.events.replays(site, range, &filters, filter, limit)).await
}

#[utoipa::path(
    get,
    path = "/api/websites/{id}/session-replays/stats",
    tag = "replays",
    operation_id = "replayStats",
    params(("id" = i64, Path, description = "Website id"), ListQuery),
    responses((status = 200, description = "The four cards over every recording of the range that passes the filter (limit is ignored)", body = ReplayStats), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn stats(site: WebsiteId, tracker: Tracker, user: Caller, query: ListQuery) -> Result<impl Reply, Rejection> {
    let (range, filter, filters) = query.scope()?;
    site_json(tracker, user, site, move |tracker| tracker.events.replay_stats(site, range, &filters, filter)).await
}

#[utoipa::path(
    get,
    path = "/api/replays/{id}",
    tag = "replays",
    operation_id = "getReplay",
    params(("id" = i64, Path, description = "Recording id")),
    responses((status = 200, description = "The recording as the list shows it, and its site (a link to a recording opens it)", body = ReplayDetail), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn one(replay: i64, tracker: Tracker, user: Caller) -> Result<impl Reply, Rejection> {
    let detail = blocking(move || tracker.events.replay(user.user, replay)).await?;
    Ok(warp::reply::json(&detail))
}

/// `{"events": [...]}` streamed one stored chunk at a time: the chunks' event arrays are joined as bytes, never
/// parsed, so a recording costs the daemon one inflated chunk (at most 8 MiB) per reader at a time, not its
/// whole size as a JSON tree. The channel holds one piece: a slow reader slows the inflating.
#[utoipa::path(
    get,
    path = "/api/replays/{id}/events",
    tag = "replays",
    operation_id = "replayEvents",
    params(("id" = i64, Path, description = "Recording id")),
    responses((status = 200, description = "The recording's rrweb events in order", body = ReplayEvents), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn events(replay: i64, tracker: Tracker, user: Caller) -> Result<Response, Rejection> {
    let chunks = blocking(move || tracker.events.replay_events(user.user, replay)).await?;
    let (tx, mut rx) = tokio::sync::mpsc::channel::<Result<Bytes, Error>>(1);
    tokio::task::spawn_blocking(move || {
        if tx.blocking_send(Ok(Bytes::from_static(b"{\"events\":["))).is_err() {
            return;
        }
        for piece in chunks {
            if let Err(e) = &piece {
                // The status is sent already: the reader gets a cut body (invalid JSON), the log the cause.
                tracing::error!(replay, error = %e, "replay events stream failed");
            }
            let failed = piece.is_err();
            if tx.blocking_send(piece.map(Bytes::from)).is_err() || failed {
                return;
            }
        }
        let _ = tx.blocking_send(Ok(Bytes::from_static(b"]}")));
    });
    let body = futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx));
    let mut response = warp::reply::stream(body).into_response();
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    Ok(response)
}
