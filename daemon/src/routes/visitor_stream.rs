//! /api/analytics/live-visitors, /api/analytics/sessions/{id} and /api/analytics/sessions/{id}/journey: the
//! Visitor Stream screen's reads (owner only; another user's site or session is 404 like a missing one).

use serde::Deserialize;
use tracker_core::model::{Caller, WebsiteId};
use tracker_core::{Error, Tracker};
use warp::{Filter, Rejection, Reply};

use super::dashboard::filters_of;
use super::{blocking, user, with_tracker};
use tracker_core::analytics::{LiveVisitors, SessionJourney, StreamSession};

use crate::error::{ErrorBody, reject};

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct LiveQuery {
    #[param(value_type = Option<i64>)]
    website_id: Option<String>,
    /// Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters").
    filters: Option<String>,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct JourneyQuery {
    #[param(value_type = Option<i64>)]
    website_id: Option<String>,
}

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let live = warp::path!("analytics" / "live-visitors")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker.clone()))
        .and(warp::query::<LiveQuery>())
        .and_then(live_visitors);
    let journey = warp::path!("analytics" / "sessions" / String / "journey")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker.clone()))
        .and(warp::query::<JourneyQuery>())
        .and_then(journey);
    let session = warp::path!("analytics" / "sessions" / String)
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker))
        .and(warp::query::<JourneyQuery>())
        .and_then(session);
    live.or(journey).or(session)
}

/// The session's site when it is the caller's (and the expected one, when given); otherwise not found.
fn session_of(
    tracker: &Tracker,
    user: Caller,
    id: &str,
    expected: Option<WebsiteId>,
) -> Result<(i64, WebsiteId), Error> {
    // Anything that is not a session id is simply not found.
    let session: i64 = id.parse().map_err(|_| Error::NotFound("session"))?;
    let site = tracker.session_site(user.user, session)?;
    if expected.is_some_and(|expected| expected != site) {
        return Err(Error::NotFound("session"));
    }
    Ok((session, site))
}

#[utoipa::path(
    get,
    path = "/api/analytics/sessions/{id}",
    tag = "visitor-stream",
    operation_id = "streamSession",
    params(("id" = i64, Path, description = "Session id"), JourneyQuery),
    responses((status = 200, description = "One session as the stream lists it, whenever it was seen (the detail panel of a funnel's drop-off)", body = StreamSession), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn session(id: String, tracker: Tracker, user: Caller, query: JourneyQuery) -> Result<impl Reply, Rejection> {
    let expected = optional_site(query.website_id.as_deref())?;
    let body = blocking(move || {
        let (session, site) = session_of(&tracker, user, &id, expected)?;
        tracker.events.stream_session(site, session)
    })
    .await?;
    Ok(warp::reply::json(&body))
}

/// An optional `website_id`: absent or empty means every site of the user; anything else must be a whole
/// number (400 otherwise, so a typo is not mistaken for "all sites").
fn optional_site(raw: Option<&str>) -> Result<Option<WebsiteId>, Rejection> {
    match raw.map(str::trim) {
        None | Some("") => Ok(None),
        Some(raw) => raw.parse().map(Some).map_err(|_| reject(Error::invalid("website_id must be a website id"))),
    }
}

#[utoipa::path(
    get,
    path = "/api/analytics/live-visitors",
    tag = "visitor-stream",
    operation_id = "liveVisitors",
    params(LiveQuery),
    responses((status = 200, description = "Visitors active in the last minutes on the user's sites (or one site)", body = LiveVisitors), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn live_visitors(tracker: Tracker, user: Caller, query: LiveQuery) -> Result<impl Reply, Rejection> {
    let site = optional_site(query.website_id.as_deref())?;
    let filters = filters_of(query.filters.as_deref())?;
    let body = blocking(move || {
        let sites = match site {
            Some(site) => vec![tracker.websites.get(user, site)?.id],
            None => tracker.websites.visible(user.user)?.into_iter().map(|(w, _)| w.id).collect(),
        };
        tracker.events.live_visitors_where(&sites, &filters)
    })
    .await?;
    Ok(warp::reply::json(&body))
}

#[utoipa::path(
    get,
    path = "/api/analytics/sessions/{id}/journey",
    tag = "visitor-stream",
    operation_id = "sessionJourney",
    params(("id" = i64, Path, description = "Session id"), JourneyQuery),
    responses((status = 200, description = "Every page and event of one session, in order", body = SessionJourney), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn journey(id: String, tracker: Tracker, user: Caller, query: JourneyQuery) -> Result<impl Reply, Rejection> {
    let expected = optional_site(query.website_id.as_deref())?;
    let body = blocking(move || {
        let (session, site) = session_of(&tracker, user, &id, expected)?;
        tracker.events.session_journey(site, session)
    })
    .await?;
    Ok(warp::reply::json(&body))
}
