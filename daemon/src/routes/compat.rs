//! The other tools' tracking endpoints, so a site switches by changing one host name: Plausible's
//! `POST /api/event`, Umami's `POST /api/send` and GoatCounter's `/goatcounter/{trackingKey}/count`. Each is
//! a thin translation into the one ingest path (`tracker_core::ingest::compat`), CORS-open like
//! `/api/track`, answering as the tool answers where its clients read the answer.

use serde::Serialize;
use tracker_core::ingest::compat::{GoatCounterHit, Outcome, PlausibleEvent, UmamiOutcome, UmamiSend};
use tracker_core::ingest::{Client, Commit};
use tracker_core::metrics::Metrics;
use tracker_core::{Error, Tracker};
use warp::http::{HeaderValue, StatusCode};
use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

use super::track::{TRACK_BODY_LIMIT, beacon, with_cors};
use super::{client, with_tracker};
use crate::error::{ErrorBody, error_reply};

/// GoatCounter's answer to a count: a transparent 1×1 GIF (43 bytes).
const PIXEL: [u8; 43] = [
    0x47, 0x49, 0x46, 0x38, 0x39, 0x61, 0x01, 0x00, 0x01, 0x00, 0x80, 0x01, 0x00, 0x00, 0x00, 0x00, 0xff, 0xff, 0xff,
    0x21, 0xf9, 0x04, 0x01, 0x0a, 0x00, 0x01, 0x00, 0x2c, 0x00, 0x00, 0x00, 0x00, 0x01, 0x00, 0x01, 0x00, 0x00, 0x02,
    0x02, 0x4c, 0x01, 0x00, 0x3b,
];

/// Umami's answer to a stored hit, which its script keeps (`cache`, sent back as `x-umami-cache`, is not
/// needed here: the visit is named from the request each time).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UmamiAnswer {
    pub cache: String,
    pub session_id: String,
    pub visit_id: String,
}

/// Under /api: Plausible's and Umami's endpoints with their CORS preflights.
pub fn api_routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let preflight = warp::path!("event").or(warp::path!("send")).unify().and(warp::options()).map(preflight);
    let event = warp::path!("event").and(warp::post()).and(beacon(tracker.clone(), TRACK_BODY_LIMIT, plausible_event));
    let send = warp::path!("send").and(warp::post()).and(beacon(tracker.clone(), TRACK_BODY_LIMIT, umami_send));
    preflight.or(event).or(send)
}

/// GoatCounter's count endpoint, outside /api as its script's `data-goatcounter` names it.
pub fn goatcounter(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    // The query is read in the handler, so that a bad one is answered there (CORS-open) like any other error.
    let query = warp::query::raw().or(warp::any().map(String::new)).unify();
    let hit = with_tracker(tracker.clone()).and(client(tracker)).and(query).and(warp::header::optional("referer"));
    let count = warp::path!("goatcounter" / String / "count");
    let image = count.and(warp::get()).and(hit.clone()).and_then(goatcounter_count);
    let beacon = count.and(warp::post()).and(hit).and_then(goatcounter_beacon);
    image.or(beacon)
}

/// The preflight of Plausible's and Umami's scripts: Umami's sends JSON and its `x-umami-cache` header.
fn preflight() -> Response {
    let mut response = super::track::preflight_response();
    response
        .headers_mut()
        .insert("access-control-allow-headers", HeaderValue::from_static("content-type, x-umami-cache"));
    response
}

#[utoipa::path(
    post,
    path = "/api/event",
    tag = "compatible",
    operation_id = "plausibleEvent",
    request_body(content = PlausibleEvent, description = "Plausible's Events API body or its script's short keys: any content type, JSON text"),
    responses((status = 202, description = "Stored, or dropped (an unknown domain, a bot, the site's rules) with `x-plausible-dropped` saying how many: the text `ok`", body = String, content_type = "text/plain"), (status = 503, description = "The queue is full: retry after the Retry-After seconds", body = ErrorBody), (status = "4XX", description = "Refused: bad input", body = ErrorBody))
)]
async fn plausible_event(tracker: Tracker, client: Client, event: PlausibleEvent) -> Result<Response, Rejection> {
    let metrics = tracker.metrics.clone();
    let outcome = joined(tokio::task::spawn_blocking(move || tracker.ingest.plausible(event, &client)).await);
    Ok(with_cors(match committed(&metrics, outcome).await {
        Ok(dropped) => {
            let mut response = Response::new("ok".into());
            *response.status_mut() = StatusCode::ACCEPTED;
            let headers = response.headers_mut();
            headers.insert("content-type", HeaderValue::from_static("text/plain; charset=utf-8"));
            if dropped > 0 {
                headers.insert("x-plausible-dropped", HeaderValue::from(dropped));
            }
            response
        }
        Err(e) => error_reply(&e),
    }))
}

#[utoipa::path(
    post,
    path = "/api/send",
    tag = "compatible",
    operation_id = "umamiSend",
    request_body(content = UmamiSend, content_type = "application/json"),
    responses((status = 200, description = "Stored, or dropped by the site's rules; a bot's hit answers `{\"beep\":\"boop\"}`", body = UmamiAnswer), (status = 503, description = "The queue is full: retry after the Retry-After seconds", body = ErrorBody), (status = "4XX", description = "Refused: bad input, or a website no site has", body = ErrorBody))
)]
async fn umami_send(tracker: Tracker, client: Client, send: UmamiSend) -> Result<Response, Rejection> {
    let metrics = tracker.metrics.clone();
    let sent = joined(tokio::task::spawn_blocking(move || tracker.ingest.umami(send, &client)).await);
    let answer = match sent {
        Ok(UmamiOutcome { outcome, bot, session_id }) => committed(&metrics, Ok(outcome)).await.map(|_| match bot {
            true => warp::reply::json(&serde_json::json!({"beep": "boop"})).into_response(),
            false => {
                let answer = UmamiAnswer { cache: String::new(), visit_id: session_id.clone(), session_id };
                warp::reply::json(&answer).into_response()
            }
        }),
        Err(e) => committed(&metrics, Err(e)).await.map(|_| Response::default()),
    };
    Ok(with_cors(answer.unwrap_or_else(|e| error_reply(&e))))
}

#[utoipa::path(
    get,
    path = "/goatcounter/{trackingKey}/count",
    tag = "compatible",
    operation_id = "goatcounterCount",
    params(("trackingKey" = String, Path, description = "The site's tracking key"), GoatCounterHit),
    responses((status = 200, description = "Counted, or dropped (a headless browser, the site's rules): a 1×1 GIF", body = Vec<u8>, content_type = "image/gif"), (status = 503, description = "The queue is full: retry after the Retry-After seconds", body = ErrorBody), (status = "4XX", description = "Refused: bad input, or not found", body = ErrorBody))
)]
async fn goatcounter_count(
    key: String,
    tracker: Tracker,
    client: Client,
    query: String,
    referer: Option<String>,
) -> Result<Response, Rejection> {
    count(key, tracker, client, query, referer).await
}

#[utoipa::path(
    post,
    path = "/goatcounter/{trackingKey}/count",
    tag = "compatible",
    operation_id = "goatcounterBeacon",
    params(("trackingKey" = String, Path, description = "The site's tracking key"), GoatCounterHit),
    request_body(content = String, description = "None: count.js sends the hit in the query, as a beacon", content_type = "text/plain"),
    responses((status = 200, description = "Counted, or dropped (a headless browser, the site's rules): a 1×1 GIF", body = Vec<u8>, content_type = "image/gif"), (status = 503, description = "The queue is full: retry after the Retry-After seconds", body = ErrorBody), (status = "4XX", description = "Refused: bad input, or not found", body = ErrorBody))
)]
async fn goatcounter_beacon(
    key: String,
    tracker: Tracker,
    client: Client,
    query: String,
    referer: Option<String>,
) -> Result<Response, Rejection> {
    count(key, tracker, client, query, referer).await
}

/// A GoatCounter hit, as an image (GET) or a beacon (POST).
async fn count(
    key: String,
    tracker: Tracker,
    client: Client,
    query: String,
    referer: Option<String>,
) -> Result<Response, Rejection> {
    let metrics = tracker.metrics.clone();
    let hit = GoatCounterHit::from_query(&query);
    let counted =
        tokio::task::spawn_blocking(move || tracker.ingest.goatcounter(&key, hit, referer.as_deref(), &client));
    let outcome = joined(counted.await);
    Ok(with_cors(match committed(&metrics, outcome).await {
        Ok(_) => {
            let mut response = Response::new(PIXEL.to_vec().into());
            let headers = response.headers_mut();
            headers.insert("content-type", HeaderValue::from_static("image/gif"));
            headers.insert("cache-control", HeaderValue::from_static("no-store"));
            headers.insert("cross-origin-resource-policy", HeaderValue::from_static("cross-origin"));
            response
        }
        Err(e) => error_reply(&e),
    }))
}

/// The result of work run on the blocking pool.
fn joined<T>(result: Result<tracker_core::Result<T>, tokio::task::JoinError>) -> tracker_core::Result<T> {
    result.unwrap_or_else(|e| Err(Error::Internal(format!("worker failed: {e}"))))
}

/// Waits for the commits of a compatible hit's copies; answers how many were dropped. Counted in the metrics
/// as our own script's hits are.
async fn committed(metrics: &Metrics, outcome: tracker_core::Result<Outcome>) -> tracker_core::Result<usize> {
    let result = match outcome {
        Ok(outcome) => wait_all(metrics, outcome.queued).await.map(|()| outcome.dropped),
        Err(e) => Err(e),
    };
    match &result {
        Ok(dropped) => (0..*dropped).for_each(|_| metrics.hit_ignored()),
        Err(e) => metrics.hit_rejected(e),
    }
    result
}

async fn wait_all(metrics: &Metrics, commits: Vec<Commit>) -> tracker_core::Result<()> {
    for commit in commits {
        commit.wait().await?;
        metrics.hit_accepted();
    }
    Ok(())
}
