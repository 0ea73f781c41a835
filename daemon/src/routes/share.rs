//! What a share link opens (issue 37), in a route family of its own so that a share credential never reaches an
//! owner route: the page `/share/{slug}` (the dashboard's index.html, framable only by an embed link's origins),
//! `GET /api/share/{slug}` (what the link shows), `POST /api/share/{slug}/session` (a password link's session)
//! and the aggregate reads under `/api/share/{slug}/...`. Each read answers as the owner's route for the link's
//! site (the same core calls and parameters) with the link's filters ANDed to the visitor's. Nothing per-visitor
//! is here: no replays, visitor stream, identified visitors, raw events, exports or settings.
//!
//! A link without a password needs no session: its reads take no credential. A password link's reads want
//! `Authorization: Bearer <share token>`; every request re-reads the link, so deleting it (or its site) ends
//! every session and page at once.

use serde::{Deserialize, Serialize};
use tracker_core::Error;
use tracker_core::Tracker;
use tracker_core::analytics::{Compare, CountryCount, Overview, ReferrerCount, TimeRange, Timeseries, TrafficSource};
use tracker_core::auth::ShareSession;
use tracker_core::events::Filters;
use tracker_core::ingest::Client;
use tracker_core::model::now_ms;
use warp::http::{HeaderValue, StatusCode, header};
use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

use super::assets::{Accepts, accepts, embedded};
use super::dashboard::{Breakdown, breakdown_answer, breakdown_of_request, filters_of, period_of};
use super::{DASHBOARD_POLICY, api_body, bearer, blocking, client, get_or_head, with_tracker};
use crate::error::{ErrorBody, reject};

/// The query of the share reads: the owner's parameters, minus the site (the link names it).
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct ShareQuery {
    range: Option<String>,
    /// Plausible Stats API v2 filters as URL-encoded JSON, ANDed to the link's own (API.md "Filters").
    filters: Option<String>,
    /// `previous_period` or `year_over_year` (overview, timeseries, breakdowns).
    compare: Option<String>,
    /// First day, YYYY-MM-DD, with `to` in place of `range` (UTC days).
    from: Option<String>,
    /// Last day, YYYY-MM-DD, included.
    to: Option<String>,
    /// Breakdown rows, 1 to 100 (10 by default).
    limit: Option<String>,
}

/// What a share link shows, for its page to draw itself.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct ShareInfo {
    site_name: String,
    domain: String,
    link_name: String,
    /// The link's fixed filters (Stats API v2 JSON text, `[]` for none).
    filters: String,
    embed: bool,
    password_required: bool,
}

/// The password of a password link.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(deny_unknown_fields)]
struct SessionRequest {
    password: Option<String>,
}

/// The share page: the dashboard's app, whose `/share/:slug` screen reads `/api/share/{slug}/...`. An unknown or
/// deleted slug is the app's 404.
pub fn page(tracker: Tracker) -> impl Filter<Extract = (Response,), Error = Rejection> + Clone {
    warp::path!("share" / String).and(get_or_head()).and(with_tracker(tracker)).and(accepts()).and_then(share_page)
}

async fn share_page(slug: String, tracker: Tracker, accepts: Accepts) -> Result<Response, Rejection> {
    let found = blocking(move || match tracker.shared_links.find(&slug) {
        Ok((link, _)) => Ok(Some(link)),
        Err(Error::NotFound(_)) => Ok(None),
        Err(e) => Err(e),
    })
    .await?;
    let Some(mut response) = embedded("index.html", accepts, "no-cache") else {
        return Ok(crate::error::error_response(StatusCode::NOT_FOUND, "dashboard not built"));
    };
    match found {
        None => *response.status_mut() = StatusCode::NOT_FOUND,
        // Only here may the dashboard be framed, and only by the origins the owner listed (checked exact origins
        // when the link was made); the policy is otherwise the dashboard's, and this answer sets no
        // X-Frame-Options (`with_security_headers` leaves framing to a route's own policy).
        Some(link) if link.embed && !link.allowed_origins.is_empty() => {
            let policy = DASHBOARD_POLICY
                .replace("frame-ancestors 'none'", &format!("frame-ancestors {}", link.allowed_origins.join(" ")));
            let value = HeaderValue::from_str(&policy).map_err(|_| reject(Error::Internal("bad origin".into())))?;
            response.headers_mut().insert(header::CONTENT_SECURITY_POLICY, value);
        }
        Some(_) => {}
    }
    Ok(response)
}

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let reader = || with_tracker(tracker.clone()).and(warp::header::optional::<String>("authorization"));
    let info = warp::path!("share" / String).and(warp::get()).and(with_tracker(tracker.clone())).and_then(info);
    let session = warp::path!("share" / String / "session")
        .and(warp::post())
        .and(with_tracker(tracker.clone()))
        .and(client(tracker.clone()))
        .and(api_body())
        .and_then(session);
    let query = || warp::query::<ShareQuery>();
    let overview =
        warp::path!("share" / String / "overview").and(warp::get()).and(reader()).and(query()).and_then(overview);
    let timeseries =
        warp::path!("share" / String / "timeseries").and(warp::get()).and(reader()).and(query()).and_then(timeseries);
    let breakdown = warp::path!("share" / String / "breakdown" / String)
        .and(warp::get())
        .and(reader())
        .and(query())
        .and_then(breakdown);
    let sources = warp::path!("share" / String / "traffic-sources")
        .and(warp::get())
        .and(reader())
        .and(query())
        .and_then(traffic_sources);
    let referrers =
        warp::path!("share" / String / "referrers").and(warp::get()).and(reader()).and(query()).and_then(referrers);
    let countries =
        warp::path!("share" / String / "countries").and(warp::get()).and(reader()).and(query()).and_then(countries);
    info.or(session).or(overview).or(timeseries).or(breakdown).or(sources).or(referrers).or(countries)
}

/// One share read: its site, its range (the query's period, `default` when none), the link's filters ANDed to
/// the visitor's, and the comparison asked for.
struct SharedRead {
    site: tracker_core::model::WebsiteId,
    range: TimeRange,
    filters: Filters,
    compare: Option<Compare>,
}

/// Answers a share read as JSON: the query is checked, the link must stand (and its session, for a password
/// link), then `read` runs on the link's site with the link's filters ANDed to the visitor's.
async fn shared_json<T, F>(
    tracker: Tracker,
    slug: String,
    authorization: Option<String>,
    query: ShareQuery,
    default: &str,
    read: F,
) -> Result<warp::reply::Json, Rejection>
where
    T: Serialize + Send + 'static,
    F: FnOnce(&Tracker, SharedRead) -> tracker_core::Result<T> + Send + 'static,
{
    let period = period_of(&query.range, &query.from, &query.to, default)?;
    let filters = filters_of(query.filters.as_deref())?;
    let compare = Compare::parse(query.compare.as_deref()).map_err(reject)?;
    let token = bearer(authorization.as_deref()).map(str::to_string);
    let body = blocking(move || {
        let access = tracker.shared_links.access(&slug, token.as_deref())?;
        let site = access.website.id;
        let range = tracker.events.range_of(site, period, now_ms())?;
        read(&tracker, SharedRead { site, range, filters: access.with(filters), compare })
    })
    .await?;
    Ok(warp::reply::json(&body))
}

/// What the link shows: its site, its name and fixed filters, and whether a password is needed first.
#[utoipa::path(
    get,
    path = "/api/share/{slug}",
    tag = "sharing",
    operation_id = "shareInfo",
    params(("slug" = String, Path, description = "The link's slug")),
    responses((status = 200, description = "The shared site and link", body = ShareInfo), (status = "4XX", description = "Not found: no such link (or it was deleted)", body = ErrorBody)),
)]
async fn info(slug: String, tracker: Tracker) -> Result<impl Reply, Rejection> {
    let (link, website) = blocking(move || tracker.shared_links.find(&slug)).await?;
    Ok(warp::reply::json(&ShareInfo {
        site_name: website.name,
        domain: website.domain,
        link_name: link.name,
        filters: link.filters,
        embed: link.embed,
        password_required: link.password_required,
    }))
}

/// Opens a password link for an hour: the token goes in `Authorization: Bearer` on the link's reads, and opens
/// nothing else. Wrong passwords are limited per client network and per link, as logins are.
#[utoipa::path(
    post,
    path = "/api/share/{slug}/session",
    tag = "sharing",
    operation_id = "shareSession",
    params(("slug" = String, Path, description = "The link's slug")),
    request_body(content = SessionRequest, content_type = "application/json"),
    responses((status = 200, description = "A share token for this link", body = ShareSession), (status = "4XX", description = "Refused: a link without a password (400), a wrong password (401), no such link (404), or too many wrong passwords (429)", body = ErrorBody)),
)]
async fn session(
    slug: String,
    tracker: Tracker,
    client: Client,
    body: SessionRequest,
) -> Result<impl Reply, Rejection> {
    let password = body.password.unwrap_or_default();
    let session = blocking(move || tracker.shared_links.open_session(&slug, &password, client.ip)).await?;
    Ok(warp::reply::json(&session))
}

#[utoipa::path(
    get,
    path = "/api/share/{slug}/overview",
    tag = "sharing",
    operation_id = "shareOverview",
    params(("slug" = String, Path, description = "The link's slug"), ShareQuery),
    responses((status = 200, description = "As GET /api/dashboard/overview for the link's site, under its filters", body = Overview), (status = "4XX", description = "Refused: bad input, a missing or expired share session (401), or no such link (404)", body = ErrorBody)),
    security((), ("share" = []))
)]
async fn overview(
    slug: String,
    tracker: Tracker,
    auth: Option<String>,
    query: ShareQuery,
) -> Result<impl Reply, Rejection> {
    shared_json(tracker, slug, auth, query, "30d", move |tracker, r| {
        tracker.events.overview_where(r.site, r.range, &r.filters, r.compare)
    })
    .await
}

#[utoipa::path(
    get,
    path = "/api/share/{slug}/timeseries",
    tag = "sharing",
    operation_id = "shareTimeseries",
    params(("slug" = String, Path, description = "The link's slug"), ShareQuery),
    responses((status = 200, description = "As GET /api/dashboard/timeseries for the link's site, under its filters", body = Timeseries), (status = "4XX", description = "Refused: bad input, a missing or expired share session (401), or no such link (404)", body = ErrorBody)),
    security((), ("share" = []))
)]
async fn timeseries(
    slug: String,
    tracker: Tracker,
    auth: Option<String>,
    query: ShareQuery,
) -> Result<impl Reply, Rejection> {
    shared_json(tracker, slug, auth, query, "7d", move |tracker, r| {
        tracker.events.timeseries_where(r.site, r.range, &r.filters, r.compare)
    })
    .await
}

#[utoipa::path(
    get,
    path = "/api/share/{slug}/breakdown/{dimension}",
    tag = "sharing",
    operation_id = "shareBreakdown",
    params(("slug" = String, Path, description = "The link's slug"), ("dimension" = String, Path, description = "As GET /api/websites/{id}/breakdown/{dimension}"), ShareQuery),
    responses((status = 200, description = "As GET /api/websites/{id}/breakdown/{dimension} for the link's site, under its filters", body = Breakdown), (status = "4XX", description = "Refused: bad input, a missing or expired share session (401), or no such link (404)", body = ErrorBody)),
    security((), ("share" = []))
)]
async fn breakdown(
    slug: String,
    dimension: String,
    tracker: Tracker,
    auth: Option<String>,
    query: ShareQuery,
) -> Result<impl Reply, Rejection> {
    let (dimension, by, limit) = breakdown_of_request(&dimension, query.limit.as_deref())?;
    shared_json(tracker, slug, auth, query, "30d", move |tracker, r| {
        breakdown_answer(tracker, r.site, r.range, &r.filters, dimension, &by, limit, r.compare)
    })
    .await
}

#[utoipa::path(
    get,
    path = "/api/share/{slug}/traffic-sources",
    tag = "sharing",
    operation_id = "shareTrafficSources",
    params(("slug" = String, Path, description = "The link's slug"), ShareQuery),
    responses((status = 200, description = "As GET /api/websites/{id}/traffic-sources for the link's site, under its filters", body = Vec<TrafficSource>), (status = "4XX", description = "Refused: bad input, a missing or expired share session (401), or no such link (404)", body = ErrorBody)),
    security((), ("share" = []))
)]
async fn traffic_sources(
    slug: String,
    tracker: Tracker,
    auth: Option<String>,
    query: ShareQuery,
) -> Result<impl Reply, Rejection> {
    shared_json(tracker, slug, auth, query, "30d", move |tracker, r| {
        tracker.events.traffic_sources_where(r.site, r.range, &r.filters)
    })
    .await
}

#[utoipa::path(
    get,
    path = "/api/share/{slug}/referrers",
    tag = "sharing",
    operation_id = "shareReferrers",
    params(("slug" = String, Path, description = "The link's slug"), ShareQuery),
    responses((status = 200, description = "As GET /api/websites/{id}/referrers for the link's site, under its filters", body = Vec<ReferrerCount>), (status = "4XX", description = "Refused: bad input, a missing or expired share session (401), or no such link (404)", body = ErrorBody)),
    security((), ("share" = []))
)]
async fn referrers(
    slug: String,
    tracker: Tracker,
    auth: Option<String>,
    query: ShareQuery,
) -> Result<impl Reply, Rejection> {
    shared_json(tracker, slug, auth, query, "30d", move |tracker, r| {
        tracker.events.referrers_where(r.site, r.range, &r.filters)
    })
    .await
}

#[utoipa::path(
    get,
    path = "/api/share/{slug}/countries",
    tag = "sharing",
    operation_id = "shareCountries",
    params(("slug" = String, Path, description = "The link's slug"), ShareQuery),
    responses((status = 200, description = "As GET /api/websites/{id}/countries for the link's site, under its filters", body = Vec<CountryCount>), (status = "4XX", description = "Refused: bad input, a missing or expired share session (401), or no such link (404)", body = ErrorBody)),
    security((), ("share" = []))
)]
async fn countries(
    slug: String,
    tracker: Tracker,
    auth: Option<String>,
    query: ShareQuery,
) -> Result<impl Reply, Rejection> {
    shared_json(tracker, slug, auth, query, "30d", move |tracker, r| {
        tracker.events.countries_where(r.site, r.range, &r.filters)
    })
    .await
}
