//! The visitor-facing side: POST /api/track (CORS-open, no credentials) and the tracking scripts.

use serde::{Deserialize, Serialize};
use tracker_core::ingest::{Client, Submitted, TrackRequest};
use tracker_core::model::{TrackingLevel, Website};
use tracker_core::{Error, Tracker};
use warp::http::{HeaderValue, StatusCode};
use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

use super::assets::Dist;
use super::{base_url, client, host, json_body, with_tracker};
use crate::error::{error_response, status_of};

/// Largest tracking body accepted (issue: 413 past 16 KiB).
pub const TRACK_BODY_LIMIT: u64 = 16 * 1024;

#[derive(Deserialize)]
struct ConfigQuery {
    tracking_key: Option<String>,
}

/// What a tracking script needs to know about its site; inlined into the personalised script.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ScriptConfig {
    pub tracking_key: String,
    pub endpoint: String,
    pub level: TrackingLevel,
    pub respect_do_not_track: bool,
    pub require_consent: bool,
    pub heatmaps: bool,
    pub recordings: bool,
    pub definitions: Vec<serde_json::Value>,
}

impl ScriptConfig {
    fn of(site: &Website, endpoint: String) -> ScriptConfig {
        let enhanced = site.tracking_level >= TrackingLevel::Enhanced;
        ScriptConfig {
            tracking_key: site.tracking_key.clone(),
            endpoint,
            level: site.tracking_level,
            respect_do_not_track: false,
            require_consent: false,
            heatmaps: enhanced,
            recordings: enhanced,
            definitions: Vec::new(),
        }
    }
}

/// API routes under /api that visitors' browsers call.
pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let preflight = warp::path("track").and(warp::options()).map(preflight_response);
    // Once the path matched, every answer (body errors included) is produced here, with CORS headers.
    let track = warp::path!("track").and(warp::post()).and(
        with_tracker(tracker.clone())
            .and(client(tracker.clone()))
            .and(json_body::<TrackRequest>(TRACK_BODY_LIMIT))
            .and_then(track)
            .recover(recover_with_cors)
            .unify(),
    );
    let config = warp::path!("track" / "config")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(host())
        .and(warp::query::<ConfigQuery>())
        .map(config);
    preflight.or(track).or(config)
}

/// The scripts: /tracking/{key}.js (personalised), /tracking.js (basic), /tracer.js, lazy chunks.
pub fn scripts(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let personalised = warp::path!("tracking" / String)
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(host())
        .and_then(personalised);
    let basic = warp::path!("tracking.js").and(warp::get()).and_then(|| static_script("tracking.js"));
    let tracer = warp::path!("tracer.js").and(warp::get()).and_then(|| static_script("tracer.js"));
    personalised.or(basic).or(tracer)
}

async fn track(tracker: Tracker, client: Client, body: TrackRequest) -> Result<Response, Rejection> {
    let outcome = match tracker.ingest.track(body, &client) {
        Ok(Submitted::Queued(commit)) => commit.wait().await,
        Ok(Submitted::Ignored) => Ok(()),
        Err(e) => Err(e),
    };
    Ok(with_cors(match outcome {
        Ok(()) => warp::reply::with_status(warp::reply::json(&serde_json::json!({"ok": true})), StatusCode::ACCEPTED)
            .into_response(),
        Err(e) => api_error(e),
    }))
}

fn config(tracker: Tracker, host: Option<String>, query: ConfigQuery) -> Response {
    let key = query.tracking_key.unwrap_or_default();
    let response = match tracker.ingest.site(&key) {
        Ok(site) => warp::reply::json(&ScriptConfig::of(&site, base_url(&tracker, host.as_deref()))).into_response(),
        Err(e) => api_error(e),
    };
    with_cors(response)
}

async fn personalised(name: String, tracker: Tracker, host: Option<String>) -> Result<Response, Rejection> {
    let Some(key) = name.strip_suffix(".js") else {
        return Err(warp::reject::not_found());
    };
    // Lazily loaded chunks of the scripts live beside the personalised ones.
    if let Some(file) = Dist::get(&format!("tracker/{name}")) {
        return Ok(script_response(file.data.into_owned(), "public, max-age=3600"));
    }
    let site = match tracker.ingest.site(key) {
        Ok(site) => site,
        Err(e) => return Ok(api_error(e)),
    };
    let Some(script) = Dist::get("tracker/tracking.js") else {
        return Ok(api_error(Error::NotFound("tracking script (dashboard not built)")));
    };
    let config = ScriptConfig::of(&site, base_url(&tracker, host.as_deref()));
    let config = serde_json::to_string(&config).unwrap_or_default().replace('<', "\\u003c");
    let mut body = format!("window.__TRACKER__={config};\n").into_bytes();
    body.extend_from_slice(&script.data);
    Ok(script_response(body, "public, max-age=300"))
}

async fn static_script(name: &'static str) -> Result<Response, Rejection> {
    match Dist::get(&format!("tracker/{name}")) {
        Some(file) => Ok(script_response(file.data.into_owned(), "public, max-age=3600")),
        None => Ok(api_error(Error::NotFound("tracking script (dashboard not built)"))),
    }
}

fn script_response(body: Vec<u8>, cache: &'static str) -> Response {
    let mut response = Response::new(body.into());
    let headers = response.headers_mut();
    headers.insert("content-type", HeaderValue::from_static("application/javascript; charset=utf-8"));
    headers.insert("cache-control", HeaderValue::from_static(cache));
    headers.insert("access-control-allow-origin", HeaderValue::from_static("*"));
    response
}

/// A core error as a JSON response (visitor routes answer errors themselves so they carry CORS headers).
fn api_error(e: Error) -> Response {
    let (status, message) = status_of(&e);
    error_response(status, &message)
}

/// The JSON error of any rejection, readable cross-origin.
async fn recover_with_cors(rejection: Rejection) -> Result<Response, Rejection> {
    let Ok(response) = crate::error::recover(rejection).await;
    Ok(with_cors(response))
}

fn with_cors(mut response: Response) -> Response {
    response.headers_mut().insert("access-control-allow-origin", HeaderValue::from_static("*"));
    response
}

fn preflight_response() -> Response {
    let mut response = Response::new(Vec::<u8>::new().into());
    *response.status_mut() = StatusCode::NO_CONTENT;
    let headers = response.headers_mut();
    headers.insert("access-control-allow-origin", HeaderValue::from_static("*"));
    headers.insert("access-control-allow-methods", HeaderValue::from_static("POST, GET, OPTIONS"));
    headers.insert("access-control-allow-headers", HeaderValue::from_static("content-type"));
    headers.insert("access-control-max-age", HeaderValue::from_static("86400"));
    response
}
