//! The visitor-facing side: POST /api/track and /api/interactions (CORS-open, no credentials), the
//! scripts' config, the tracking scripts, and the CORS answers every visitor endpoint shares.

use std::future::Future;
use std::io::Write;

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use tracker_core::ingest::{Client, InteractionsRequest, SiteRules, Submitted, TrackRequest};
use tracker_core::metrics::Metrics;
use tracker_core::model::{TrackingLevel, Website};
use tracker_core::privacy::PrivacySettings;
use tracker_core::store::event_definitions::ActiveDefinition;
use tracker_core::{Error, Tracker};
use warp::http::{HeaderValue, StatusCode};
use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

use super::assets::{Accepts, Dist, accepts, compressed, embedded};
use super::{Done, base_url, client, get_or_head, host, json_body, with_tracker};
use crate::error::{ErrorBody, error_reply};

/// Largest tracking body accepted (issue: 413 past 16 KiB).
pub const TRACK_BODY_LIMIT: u64 = 16 * 1024;
/// Largest interactions body accepted (200 clicks with long selectors and 500 moves fit).
pub const INTERACTIONS_BODY_LIMIT: u64 = 160 * 1024;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct ConfigQuery {
    tracking_key: Option<String>,
}

/// What a tracking script needs to know about its site; inlined into the personalised script.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ScriptConfig {
    pub tracking_key: String,
    pub endpoint: String,
    pub level: TrackingLevel,
    pub respect_do_not_track: bool,
    pub require_consent: bool,
    pub heatmaps: bool,
    pub recordings: bool,
    /// Recordings mask every text node (inputs and editable text are masked always).
    pub mask_all_text: bool,
    pub consent_message: String,
    pub privacy_policy_url: String,
    pub definitions: Vec<ActiveDefinition>,
}

impl ScriptConfig {
    /// The config as inlined before the light script, which ships on every page of the site: fields at
    /// their default (false, empty) are left out, as the scripts read a missing field as its default, the
    /// consent banner's text only comes along when the site asks for consent, and the level, which no
    /// script reads (the fields it implies say what to load), stays out.
    fn inlined(&self) -> String {
        let mut value = serde_json::to_value(self).unwrap_or_default();
        if let Some(fields) = value.as_object_mut() {
            fields.remove("level");
            if !self.require_consent {
                fields.remove("consentMessage");
                fields.remove("privacyPolicyUrl");
            }
            fields.retain(|_, v| match v {
                serde_json::Value::Bool(b) => *b,
                serde_json::Value::String(s) => !s.is_empty(),
                serde_json::Value::Array(a) => !a.is_empty(),
                _ => true,
            });
        }
        // Inside a <script> context nothing may close the element early.
        value.to_string().replace('<', "\\u003c")
    }

    /// The config of a site: its level, its privacy settings and (from enhanced up) active definitions.
    fn load(tracker: &Tracker, site: &Website, endpoint: String) -> tracker_core::Result<Self> {
        let enhanced = site.tracking_level >= TrackingLevel::Enhanced;
        let privacy: PrivacySettings = tracker.privacy.cached_settings(site.id)?;
        let definitions = if enhanced { tracker.definitions.active(site.id)? } else { Vec::new() };
        Ok(ScriptConfig {
            tracking_key: site.tracking_key.clone(),
            endpoint,
            level: site.tracking_level,
            respect_do_not_track: privacy.respect_do_not_track,
            require_consent: privacy.cookie_consent,
            heatmaps: enhanced,
            recordings: enhanced,
            mask_all_text: privacy.masks_all_text(site.tracking_level),
            consent_message: privacy.consent_message,
            privacy_policy_url: privacy.privacy_policy_url,
            definitions,
        })
    }
}

/// API routes under /api that visitors' browsers call.
pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    // Exact paths: a prefix would answer 405 for any other method under /api/track/... instead of 404.
    let preflight =
        warp::path!("track").or(warp::path!("interactions")).unify().and(warp::options()).map(preflight_response);
    let track = warp::path!("track").and(warp::post()).and(beacon(tracker.clone(), TRACK_BODY_LIMIT, track));
    let interactions = warp::path!("interactions").and(warp::post()).and(beacon(
        tracker.clone(),
        INTERACTIONS_BODY_LIMIT,
        interactions,
    ));
    let config = warp::path!("track" / "config")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(host())
        .and(warp::query::<ConfigQuery>())
        .and_then(config);
    preflight.or(track).or(interactions).or(config)
}

/// The scripts: /tracking/{key}.js (personalised), /tracking.js (basic), /tracer.js, lazy chunks.
pub fn scripts(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let personalised = warp::path!("tracking" / String)
        .and(get_or_head())
        .and(with_tracker(tracker.clone()))
        .and(host())
        .and(accepts())
        .and_then(personalised);
    let basic = warp::path!("tracking.js").and(get_or_head()).and(accepts()).map(|a| static_script("tracking.js", a));
    let tracer = warp::path!("tracer.js").and(get_or_head()).and(accepts()).map(|a| static_script("tracer.js", a));
    personalised.or(basic).or(tracer)
}

#[utoipa::path(
    post,
    path = "/api/track",
    tag = "visitors",
    operation_id = "track",
    request_body(content = TrackRequest, description = "Sent as a beacon: any content type, JSON text"),
    responses((status = 202, description = "Stored (or ignored by the site's rules)", body = Done), (status = 503, description = "The queue is full: retry after the Retry-After seconds", body = ErrorBody), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody))
)]
async fn track(tracker: Tracker, client: Client, body: TrackRequest) -> Result<Response, Rejection> {
    let key = body.tracking_key.clone();
    Ok(submit(tracker, key, move |tracker, rules| tracker.ingest.track_under(rules, body, &client)).await)
}

#[utoipa::path(
    post,
    path = "/api/interactions",
    tag = "visitors",
    operation_id = "interactions",
    request_body(content = InteractionsRequest, description = "Sent as a beacon: any content type, JSON text"),
    responses((status = 202, description = "Stored (or ignored by the site's rules)", body = Done), (status = 503, description = "The queue is full: retry after the Retry-After seconds", body = ErrorBody), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody))
)]
async fn interactions(tracker: Tracker, client: Client, body: InteractionsRequest) -> Result<Response, Rejection> {
    let key = body.tracking_key.clone();
    Ok(submit(tracker, key, move |tracker, rules| tracker.ingest.interactions_under(rules, body, &client)).await)
}

/// Hands a visitor's data to ingest and answers once it is committed. When the site's rules are in memory the
/// data is handled on the async thread: a blocking thread and back would cost more than the work (two thread
/// switches per hit). Rules that must be read from the database are read on a blocking thread.
async fn submit<F>(tracker: Tracker, tracking_key: String, run: F) -> Response
where
    F: FnOnce(&Tracker, &SiteRules) -> tracker_core::Result<Submitted> + Send + 'static,
{
    let metrics = tracker.metrics.clone();
    let submitted = match tracker.ingest.cached_rules(&tracking_key) {
        Some(rules) => Ok(rules.and_then(|rules| run(&tracker, &rules))),
        None => {
            tokio::task::spawn_blocking(move || {
                tracker.ingest.rules(&tracking_key).and_then(|rules| run(&tracker, &rules))
            })
            .await
        }
    };
    accepted(&metrics, submitted).await
}

/// The answer of a visitor endpoint: 202 `{ok:true}` once committed (or deliberately dropped), else the
/// JSON error; CORS-open either way. Counted in the metrics by outcome.
pub(crate) async fn accepted(
    metrics: &Metrics,
    submitted: Result<tracker_core::Result<Submitted>, tokio::task::JoinError>,
) -> Response {
    let outcome = match submitted {
        Ok(Ok(Submitted::Queued(commit))) => commit.wait().await.inspect(|()| metrics.hit_accepted()),
        Ok(Ok(Submitted::Ignored)) => {
            metrics.hit_ignored();
            Ok(())
        }
        Ok(Err(e)) => Err(e),
        Err(e) => Err(Error::Internal(format!("worker failed: {e}"))),
    };
    if let Err(e) = &outcome {
        metrics.hit_rejected(e);
    }
    with_cors(match outcome {
        Ok(()) => {
            let mut response = Response::new(r#"{"ok":true}"#.into());
            *response.status_mut() = StatusCode::ACCEPTED;
            response.headers_mut().insert("content-type", HeaderValue::from_static("application/json"));
            response
        }
        Err(e) => error_reply(&e),
    })
}

#[utoipa::path(
    get,
    path = "/api/track/config",
    tag = "visitors",
    operation_id = "scriptConfig",
    params(ConfigQuery),
    responses((status = 200, description = "What the tracking script needs to know about its site", body = ScriptConfig), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody))
)]
async fn config(tracker: Tracker, host: Option<String>, query: ConfigQuery) -> Result<Response, Rejection> {
    let key = query.tracking_key.unwrap_or_default();
    let endpoint = base_url(&tracker, host.as_deref());
    let loaded = tokio::task::spawn_blocking(move || {
        let site = tracker.ingest.site(&key)?;
        ScriptConfig::load(&tracker, &site, endpoint)
    })
    .await
    .unwrap_or_else(|e| Err(Error::Internal(format!("worker failed: {e}"))));
    Ok(with_cors(match loaded {
        Ok(config) => warp::reply::json(&config).into_response(),
        Err(e) => error_reply(&e),
    }))
}

/// The JSON error of any rejection, readable cross-origin (visitor routes, once path and method matched);
/// counted as a refused hit.
/// A visitor's POST of a JSON body `T` of at most `limit` bytes, handed to `handler` with the tracker and the
/// client: our own beacons' and the other tools' (routes/compat.rs). Once path and method matched, every answer
/// (body errors included) is produced here, with CORS headers, and counted.
pub(crate) fn beacon<T, H, Answer>(
    tracker: Tracker,
    limit: u64,
    handler: H,
) -> impl Filter<Extract = (Response,), Error = Rejection> + Clone
where
    T: DeserializeOwned + Send + 'static,
    H: Fn(Tracker, Client, T) -> Answer + Clone + Send + Sync + 'static,
    Answer: Future<Output = Result<Response, Rejection>> + Send,
{
    let metrics = tracker.metrics.clone();
    with_tracker(tracker.clone())
        .and(client(tracker))
        .and(json_body::<T>(limit))
        .and_then(handler)
        .recover(move |r| recover_with_cors(metrics.clone(), r))
        .unify()
}

pub(crate) async fn recover_with_cors(metrics: Metrics, rejection: Rejection) -> Result<Response, Rejection> {
    let Ok(response) = crate::error::recover(rejection).await;
    metrics.hit_refused(response.status() == StatusCode::PAYLOAD_TOO_LARGE);
    Ok(with_cors(response))
}

async fn personalised(
    name: String,
    tracker: Tracker,
    host: Option<String>,
    accepts: Accepts,
) -> Result<Response, Rejection> {
    let Some(key) = name.strip_suffix(".js") else {
        return Err(warp::reject::not_found());
    };
    // Lazily loaded chunks of the scripts live beside the personalised ones. One named by its content hash
    // (more.<hash>.js, loaded on every page) never changes under its name: browsers keep it a year.
    let hashed =
        key.split_once('.').is_some_and(|(_, hash)| !hash.is_empty() && hash.bytes().all(|b| b.is_ascii_hexdigit()));
    let cache = if hashed { "public, max-age=31536000, immutable" } else { "public, max-age=3600" };
    if (hashed || !key.contains('.'))
        && let Some(response) = embedded(&format!("tracker/{name}"), accepts, cache)
    {
        return Ok(with_cors(response));
    }
    let endpoint = base_url(&tracker, host.as_deref());
    let key = key.to_string();
    let loaded = tokio::task::spawn_blocking(move || {
        let site = tracker.ingest.site(&key)?;
        ScriptConfig::load(&tracker, &site, endpoint)
    })
    .await
    .unwrap_or_else(|e| Err(Error::Internal(format!("worker failed: {e}"))));
    let config = match loaded {
        Ok(config) => config,
        Err(e) => return Ok(error_reply(&e)),
    };
    let Some(script) = Dist::get("tracker/light.js") else {
        return Ok(error_reply(&Error::NotFound("tracking script (dashboard not built)")));
    };
    let mut body = format!("window.__TRACKER__={};\n", config.inlined()).into_bytes();
    body.extend_from_slice(&script.data);
    // Built per request (the config is the site's current one): compressed here, which takes microseconds
    // for these 3 KB. Brotli-only clients do not exist in practice; they get the script as is.
    let coding = if accepts.gzip { Some("gzip") } else { None };
    if coding.is_some() {
        let mut encoder = flate2::write::GzEncoder::new(Vec::new(), flate2::Compression::best());
        body = match encoder.write_all(&body).and_then(|()| encoder.finish()) {
            Ok(gzip) => gzip,
            Err(e) => return Ok(error_reply(&Error::Internal(format!("gzip: {e}")))),
        };
    }
    let mut response = script_response(body, "public, max-age=300");
    compressed(&mut response, coding);
    // The inlined endpoint may come from the Host header (no public_url): caches must key on it.
    response.headers_mut().insert("vary", HeaderValue::from_static("Host, Accept-Encoding"));
    Ok(response)
}

fn static_script(name: &'static str, accepts: Accepts) -> Response {
    match embedded(&format!("tracker/{name}"), accepts, "public, max-age=3600") {
        Some(response) => with_cors(response),
        None => error_reply(&Error::NotFound("tracking script (dashboard not built)")),
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

pub(crate) fn with_cors(mut response: Response) -> Response {
    response.headers_mut().insert("access-control-allow-origin", HeaderValue::from_static("*"));
    response
}

pub(crate) fn preflight_response() -> Response {
    let mut response = Response::new(Vec::<u8>::new().into());
    *response.status_mut() = StatusCode::NO_CONTENT;
    let headers = response.headers_mut();
    headers.insert("access-control-allow-origin", HeaderValue::from_static("*"));
    headers.insert("access-control-allow-methods", HeaderValue::from_static("POST, GET, OPTIONS"));
    headers.insert("access-control-allow-headers", HeaderValue::from_static("content-type"));
    headers.insert("access-control-max-age", HeaderValue::from_static("86400"));
    response
}
