//! The route table, and the small filters every route group shares (auth, bodies, client address).

pub(crate) mod advanced;
pub(crate) mod analytics;
pub(crate) mod annotations;
pub(crate) mod api_keys;
mod assets;
pub(crate) mod auth;
pub(crate) mod compat;
pub(crate) mod dashboard;
pub(crate) mod events;
pub(crate) mod export;
pub(crate) mod funnels;
pub(crate) mod imports;
pub(crate) mod journeys;
pub(crate) mod members;
pub(crate) mod openapi;
mod operations;
pub(crate) mod organizations;
pub(crate) mod privacy;
pub(crate) mod privacy_data;
pub(crate) mod privacy_delete;
mod replay_player;
pub(crate) mod replays;
pub(crate) mod reports;
pub(crate) mod revenue;
pub(crate) mod roles;
pub(crate) mod segments;
pub(crate) mod share;
pub(crate) mod shared_links;
pub(crate) mod stats_api;
pub(crate) mod track;
pub(crate) mod user;
pub(crate) mod visitor_stream;
pub(crate) mod websites;

use std::convert::Infallible;
use std::net::{IpAddr, SocketAddr};

use serde::de::DeserializeOwned;
use tokio::sync::watch;
use tracker_core::auth::{Principal, is_api_key};
use tracker_core::ingest::Client;
use tracker_core::model::{Caller, WebsiteId};
use tracker_core::{Error, Tracker};
use warp::filters::path::FullPath;
use warp::http::{HeaderMap, Method};
use warp::{Filter, Rejection, Reply};

use crate::error::{recover, reject};

/// `{"ok": true}`: the answer of calls that only say they are done.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub(crate) struct Done {
    pub ok: bool,
}

/// Largest JSON body accepted by the dashboard API.
const API_BODY_LIMIT: u64 = 64 * 1024;

/// Every route of the daemon, with errors mapped to JSON in one place.
/// `stopping` turns true when the daemon shuts down; long-lived streams end then.
pub fn routes(
    tracker: Tracker,
    stopping: watch::Receiver<bool>,
) -> impl Filter<Extract = (impl Reply,), Error = Infallible> + Clone {
    // Visitors' hits come first: they are most of the traffic, and each route group tried before the right
    // one costs a rejection. They stay unboxed; each dashboard group is boxed (one allocation per request)
    // because the whole chain's type grew past what rustc will lay out.
    let dashboard_api = boxed(auth::routes(tracker.clone()))
        .or(boxed(websites::routes(tracker.clone())))
        .or(boxed(imports::routes(tracker.clone())))
        .or(boxed(dashboard::routes(tracker.clone(), stopping)))
        .or(boxed(export::routes(tracker.clone())))
        .or(boxed(privacy_delete::routes(tracker.clone())))
        .or(boxed(reports::routes(tracker.clone())))
        .or(boxed(revenue::routes(tracker.clone())))
        .or(boxed(replays::routes(tracker.clone())))
        .or(boxed(privacy::routes(tracker.clone())))
        .or(boxed(privacy_data::routes(tracker.clone())))
        .or(boxed(events::routes(tracker.clone())))
        .or(boxed(organizations::routes(tracker.clone())))
        .or(boxed(analytics::routes(tracker.clone())))
        .or(boxed(advanced::routes(tracker.clone())))
        .or(boxed(funnels::routes(tracker.clone())))
        .or(boxed(members::routes(tracker.clone())))
        .or(boxed(journeys::routes(tracker.clone())))
        .or(boxed(visitor_stream::routes(tracker.clone())))
        .or(boxed(user::routes(tracker.clone())))
        .or(boxed(api_keys::routes(tracker.clone())))
        .or(boxed(shared_links::routes(tracker.clone())))
        .or(boxed(share::routes(tracker.clone())))
        .or(boxed(stats_api::routes(tracker.clone())))
        .or(boxed(annotations::routes(tracker.clone())))
        .or(boxed(segments::routes(tracker.clone())))
        .or(boxed(openapi::routes()));
    let dashboard_api = api_key_meter(tracker.clone()).and(dashboard_api);
    let api = track::routes(tracker.clone())
        .or(replays::upload(tracker.clone()))
        .or(boxed(compat::api_routes(tracker.clone())))
        .or(boxed(dashboard_api));
    let api = warp::path("api").and(api);
    // Grouped with the scripts rather than chained: each link of the chain deepens the table's type, which
    // is near the compiler's default recursion limit for the crates that serve it.
    api.or(track::scripts(tracker.clone()).or(operations::routes(tracker.clone())))
        .or(boxed(compat::goatcounter(tracker.clone())))
        .or(replay_player::routes())
        .or(boxed(share::page(tracker.clone())))
        .or(assets::routes())
        .recover(recover)
        .with(warp::log::custom(log_request))
        .map(with_security_headers)
}

/// A route group behind a box: its filter and reply types end here instead of nesting into the next group's.
fn boxed<F, R>(filter: F) -> warp::filters::BoxedFilter<(Box<dyn Reply>,)>
where
    F: Filter<Extract = (R,), Error = Rejection> + Clone + Send + Sync + 'static,
    R: Reply + 'static,
{
    filter.map(|reply| Box::new(reply) as Box<dyn Reply>).boxed()
}

/// Adds the headers of [`security_headers`] to an answer, keeping those it set itself: only the replay frame
/// (`replay_player`) and an embed link's share page (`share`) set their own policy, every other answer gets the
/// dashboard's. A route with its own policy decides its framing there (`frame-ancestors`), so it gets no
/// X-Frame-Options unless it set one: the header has no value that allows a list of origins.
fn with_security_headers(reply: impl Reply) -> warp::reply::Response {
    let mut response = reply.into_response();
    let headers = response.headers_mut();
    let own_policy = headers.contains_key(warp::http::header::CONTENT_SECURITY_POLICY);
    for (name, value) in security_headers() {
        if let Some(name) = name {
            if own_policy && name == warp::http::header::X_FRAME_OPTIONS {
                continue;
            }
            headers.entry(name).or_insert(value);
        }
    }
    response
}

/// The dashboard's Content-Security-Policy (see [`security_headers`]); an embed link's page widens only its
/// `frame-ancestors`.
pub(crate) const DASHBOARD_POLICY: &str = "default-src 'self'; img-src 'self' data:; style-src 'self' 'unsafe-inline'; \
     frame-ancestors 'none'; object-src 'none'; base-uri 'none'; form-action 'self'";

/// Headers on every answer: the dashboard may not be framed, load anything from elsewhere, or run plugins;
/// links out of it carry no path. (They mean nothing on scripts, JSON and beacons, and do no harm there.)
/// Scripts come only from the daemon; inline styles are allowed because Radix's dialogs lock scrolling with
/// an injected <style> element (react-remove-scroll), which a stricter style-src would break. Frames may only
/// show the daemon's own documents (`default-src 'self'`): the replay player page is one of them.
fn security_headers() -> HeaderMap {
    let mut headers = HeaderMap::new();
    let mut set = |name: &'static str, value: &'static str| {
        headers.insert(name, warp::http::HeaderValue::from_static(value));
    };
    set("x-content-type-options", "nosniff");
    set("content-security-policy", DASHBOARD_POLICY);
    set("referrer-policy", "strict-origin-when-cross-origin");
    set("x-frame-options", "DENY");
    headers
}

/// One line per request: method, path, status and duration in milliseconds; never the query string (it may
/// carry an access token), headers or bodies, nor a share link's slug (it opens the link). Dashboard and API
/// requests log at info; visitors' hits and scripts and the probes (/health, /ready, /metrics) at debug, as
/// they come many times a second.
fn log_request(info: warp::log::Info) {
    let redacted = without_share_slug(info.path());
    let path = redacted.as_str();
    let duration_ms = (info.elapsed().as_secs_f64() * 1e6).round() / 1e3;
    if is_routine(path) {
        tracing::debug!(target: "tracker::request", method = %info.method(), path, status = info.status().as_u16(),
            duration_ms, "request");
    } else {
        tracing::info!(target: "tracker::request", method = %info.method(), path, status = info.status().as_u16(),
            duration_ms, "request");
    }
}

/// A path with a share link's slug replaced by `…` (`/share/{slug}`, `/api/share/{slug}/...`).
fn without_share_slug(path: &str) -> String {
    for prefix in ["/share/", "/api/share/"] {
        if let Some(rest) = path.strip_prefix(prefix) {
            let after = rest.find('/').map_or("", |i| &rest[i..]);
            return format!("{prefix}…{after}");
        }
    }
    path.to_string()
}

/// Paths hit by visitors' browsers and by monitoring rather than by people using the dashboard.
fn is_routine(path: &str) -> bool {
    matches!(path, "/api/track" | "/api/interactions" | "/api/replay" | "/tracking.js" | "/tracer.js")
        || path.starts_with("/tracking/")
        || matches!(path, "/health" | "/ready" | "/metrics")
}

/// GET, or HEAD for the same answer without its body (hyper drops the body of an answer to HEAD and keeps
/// its headers): uptime checkers and link checkers send HEAD.
pub(crate) fn get_or_head() -> impl Filter<Extract = (), Error = Rejection> + Clone {
    warp::get().or(warp::head()).unify()
}

/// Hands the tracker to a handler.
pub(crate) fn with_tracker(tracker: Tracker) -> impl Filter<Extract = (Tracker,), Error = Infallible> + Clone {
    warp::any().map(move || tracker.clone())
}

/// The signed-in user from `Authorization: Bearer ...` (401 otherwise, see [`principal`]) with the role this
/// request's route needs on the site it names ([`roles::ROUTE_ROLES`]): the handler's check of the site
/// answers 404 to an account with no role on it and 403 to one whose role is below.
pub(crate) fn user(tracker: Tracker) -> impl Filter<Extract = (Caller,), Error = Rejection> + Clone {
    principal(tracker).and(warp::method()).and(warp::path::full()).map(
        |principal: Principal, method: Method, path: FullPath| {
            Caller::new(principal.user, roles::site_role(&method, path.as_str()))
        },
    )
}

/// The account and sign-in behind `Authorization: Bearer ...`: the token must verify and its sign-in still
/// stand (account present, session not revoked, no password change since); 401 otherwise. An API key
/// (`trk_...`) stands for its account within its scope for this request's method and path (403 beyond it);
/// [`api_key_meter`] has counted the request already.
pub(crate) fn principal(tracker: Tracker) -> impl Filter<Extract = (Principal,), Error = Rejection> + Clone {
    let credential = warp::header::optional::<String>("authorization").and(warp::method()).and(warp::path::full());
    credential.and_then(move |header: Option<String>, method: Method, path: FullPath| {
        let tracker = tracker.clone();
        async move {
            let token = bearer(header.as_deref())
                .ok_or_else(|| reject(Error::Unauthorized("missing bearer token".into())))?
                .to_string();
            if is_api_key(&token) {
                let used_for = api_keys::key_use(&method, path.as_str());
                return blocking(move || tracker.auth.api_key_principal(&token, used_for)).await;
            }
            blocking(move || tracker.auth.authenticate(&token)).await
        }
    })
}

/// Meters a request signed with an API key once, before any route of the dashboard API runs: the key must
/// stand and its scope allow the call (403 otherwise, [`api_keys::key_use`]), the request is counted against
/// the key's hourly limit (429 with Retry-After beyond it) and the key's last use recorded. Here rather than
/// in [`principal`] because a request can pass through that filter more than once (a group that checks the
/// sign-in before its paths), and it must count once. Other credentials pass untouched.
fn api_key_meter(tracker: Tracker) -> impl Filter<Extract = (), Error = Rejection> + Clone {
    warp::header::optional::<String>("authorization")
        .and(warp::method())
        .and(warp::path::full())
        .and_then(move |header: Option<String>, method: Method, path: FullPath| {
            let tracker = tracker.clone();
            async move {
                let Some(key) = bearer(header.as_deref()).filter(|token| is_api_key(token)).map(str::to_string) else {
                    return Ok(());
                };
                let used_for = api_keys::key_use(&method, path.as_str());
                blocking(move || tracker.auth.meter_api_key(&key, used_for)).await.map(|_| ())
            }
        })
        .untuple_one()
}

/// The token of an `Authorization: Bearer ...` header.
pub(crate) fn bearer(header: Option<&str>) -> Option<&str> {
    header.and_then(|h| h.strip_prefix("Bearer ").or_else(|| h.strip_prefix("bearer "))).map(str::trim)
}

/// A body of at most `limit` bytes. One that cannot be read in full (the client hung up mid-body, as a page
/// unloading does) is the client's 400, not a server error.
pub(crate) fn body_bytes(limit: u64) -> impl Filter<Extract = (bytes::Bytes,), Error = Rejection> + Clone {
    // Only reading can fail past the length check: warp's read error type is private, so it is caught here.
    let read = warp::body::bytes()
        .or_else(|_| async { Err::<(bytes::Bytes,), _>(reject(Error::invalid("could not read the request body"))) });
    warp::body::content_length_limit(limit).and(read)
}

/// A JSON body of at most `limit` bytes, parsed whatever the content type says (beacons send text/plain). It
/// must be an object: serde reads a struct from an array too, its fields by position, which no client means.
pub(crate) fn json_body<T: DeserializeOwned + Send>(
    limit: u64,
) -> impl Filter<Extract = (T,), Error = Rejection> + Clone {
    body_bytes(limit).and_then(|bytes: bytes::Bytes| async move {
        if !opens_an_object(&bytes) {
            return Err(reject(Error::invalid("the body must be a JSON object")));
        }
        serde_json::from_slice::<T>(&bytes).map_err(|e| reject(Error::invalid(format!("invalid JSON body: {e}"))))
    })
}

/// Whether `body` opens as a JSON object: its first byte past JSON's whitespace is `{` (the parser judges the
/// rest).
fn opens_an_object(body: &[u8]) -> bool {
    body.iter().find(|b| !matches!(b, b' ' | b'\t' | b'\n' | b'\r')) == Some(&b'{')
}

/// A JSON body for dashboard API calls, which must say it is JSON: a cross-site form or `text/plain`
/// fetch (sent without a preflight) is refused before anything runs.
pub(crate) fn api_body<T: DeserializeOwned + Send>() -> impl Filter<Extract = (T,), Error = Rejection> + Clone {
    warp::header::optional::<String>("content-type")
        .and_then(|content_type: Option<String>| async move {
            let essence =
                content_type.as_deref().unwrap_or("").split(';').next().unwrap_or("").trim().to_ascii_lowercase();
            if essence == "application/json" || (essence.starts_with("application/") && essence.ends_with("+json")) {
                Ok(())
            } else {
                Err(reject(Error::UnsupportedMediaType(
                    "the body must be JSON (Content-Type: application/json)".into(),
                )))
            }
        })
        .untuple_one()
        .and(json_body(API_BODY_LIMIT))
}

/// The visitor as seen by the server: the peer address, or X-Forwarded-For's client when the peer is a
/// trusted proxy; plus user agent and Do-Not-Track / Global Privacy Control.
pub(crate) fn client(tracker: Tracker) -> impl Filter<Extract = (Client,), Error = Infallible> + Clone {
    warp::addr::remote().and(warp::header::headers_cloned()).map(move |peer: Option<SocketAddr>, headers: HeaderMap| {
        let peer_ip = peer.map(|p| p.ip()).unwrap_or(IpAddr::from([127, 0, 0, 1]));
        let ip = tracker.settings.read(|settings| {
            if settings.is_trusted_proxy(peer_ip) {
                forwarded_client(&headers, |ip| settings.is_trusted_proxy(ip)).unwrap_or(peer_ip)
            } else {
                peer_ip
            }
        });
        let header = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).unwrap_or("").to_string();
        Client {
            ip,
            user_agent: header("user-agent").chars().take(512).collect(),
            do_not_track: header("dnt") == "1" || header("sec-gpc") == "1",
        }
    })
}

/// The client behind trusted proxies, read from X-Forwarded-For from the right: each proxy appends the
/// address it was reached from, so the right-most entry that is not a trusted proxy is the client, and
/// everything left of it is whatever that client chose to send. Every use of the client address (login
/// limits, country, visitor hash, consent log) goes through this one function.
fn forwarded_client(headers: &HeaderMap, is_trusted: impl Fn(IpAddr) -> bool) -> Option<IpAddr> {
    let mut client = None;
    for value in headers.get_all("x-forwarded-for").iter().rev() {
        let value = value.to_str().ok()?;
        for entry in value.rsplit(',') {
            let Some(ip) = parse_forwarded_entry(entry) else {
                return client;
            };
            if !is_trusted(ip) {
                return Some(ip);
            }
            client = Some(ip);
        }
    }
    client
}

/// An X-Forwarded-For entry: an address, possibly with a port ("1.2.3.4:567", "[2001:db8::1]:80").
fn parse_forwarded_entry(entry: &str) -> Option<IpAddr> {
    let entry = entry.trim();
    if let Ok(ip) = entry.parse() {
        return Some(ip);
    }
    if let Some(rest) = entry.strip_prefix('[') {
        return rest.split(']').next()?.parse().ok();
    }
    entry.parse::<SocketAddr>().ok().map(|addr| addr.ip())
}

/// Runs blocking core work (SQLite, argon2) off the async threads.
pub(crate) async fn blocking<T, F>(f: F) -> Result<T, Rejection>
where
    T: Send + 'static,
    F: FnOnce() -> tracker_core::Result<T> + Send + 'static,
{
    match tokio::task::spawn_blocking(f).await {
        Ok(result) => result.map_err(reject),
        Err(e) => Err(reject(Error::Internal(format!("worker failed: {e}")))),
    }
}

/// Answers a call on a site as JSON, run off the async threads, once the caller's role on the site allows it:
/// a site the caller has no role on is 404 exactly like a missing one, a role below the route's is 403.
pub(crate) async fn site_json<T, F>(
    tracker: Tracker,
    user: Caller,
    site: WebsiteId,
    read: F,
) -> Result<warp::reply::Json, Rejection>
where
    T: serde::Serialize + Send + 'static,
    F: FnOnce(&Tracker) -> tracker_core::Result<T> + Send + 'static,
{
    let body = blocking(move || {
        tracker.websites.get(user, site)?;
        read(&tracker)
    })
    .await?;
    Ok(warp::reply::json(&body))
}

/// Parses a website id from a query or body value; anything that is not an id is simply not found.
pub(crate) fn parse_website_id(raw: Option<&str>) -> Result<WebsiteId, Rejection> {
    let raw = raw.ok_or_else(|| reject(Error::invalid("website_id is required")))?;
    raw.trim().parse().map_err(|_| reject(Error::NotFound("website")))
}

/// Parses a website id from a JSON body field (`websiteId`: a number or numeric text).
pub(crate) fn body_website_id(raw: Option<&serde_json::Value>) -> Result<WebsiteId, Rejection> {
    match raw {
        None | Some(serde_json::Value::Null) => Err(reject(Error::invalid("websiteId is required"))),
        Some(serde_json::Value::Number(n)) => n.as_i64().ok_or_else(|| reject(Error::NotFound("website"))),
        Some(serde_json::Value::String(s)) => parse_website_id(Some(s)),
        Some(_) => Err(reject(Error::NotFound("website"))),
    }
}

/// The base URL links should use: the configured public URL; without one, the Host the client reached us
/// by when it is an address or a loopback name (a client cannot then make us name a host of its choosing in
/// a cached script), else the listen address.
pub(crate) fn base_url(tracker: &Tracker, host: Option<&str>) -> String {
    tracker.settings.read(|settings| match (&settings.public_url, host) {
        (Some(url), _) => url.trim_end_matches('/').to_string(),
        (None, Some(host)) if is_own_host(host) => format!("http://{host}"),
        _ => settings.base_url(),
    })
}

/// A Host header naming this machine by address (any IP literal, with or without port) or as localhost.
fn is_own_host(host: &str) -> bool {
    if host.is_empty() || host.len() > 64 {
        return false;
    }
    let name = match host.rsplit_once(':') {
        Some((name, port)) if !name.ends_with(':') && port.bytes().all(|b| b.is_ascii_digit()) && !name.is_empty() => {
            name
        }
        _ => host,
    };
    let name = name.trim_start_matches('[').trim_end_matches(']');
    name.eq_ignore_ascii_case("localhost") || name.parse::<IpAddr>().is_ok()
}

/// The Host header, if any.
pub(crate) fn host() -> impl Filter<Extract = (Option<String>,), Error = Rejection> + Clone {
    warp::header::optional::<String>("host")
}
