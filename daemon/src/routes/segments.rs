//! /api/websites/{id}/segments (issue 36): a site's saved segments, named Stats API v2 filters the dashboard's
//! filter bar applies in one pick; listed, saved, changed and deleted. Any member keeps personal segments of its
//! own; `Segments` refuses a viewer a shared one, from the role the site's check answers.

use tracker_core::Tracker;
use tracker_core::model::{Caller, WebsiteId};
use tracker_core::store::segments::{SavedSegment, SegmentRequest};
use warp::http::StatusCode;
use warp::{Filter, Rejection, Reply};

use super::{Done, api_body, blocking, site_json, user, with_tracker};
use crate::error::ErrorBody;

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let authed = || with_tracker(tracker.clone()).and(user(tracker.clone()));
    let list = warp::path!("websites" / WebsiteId / "segments").and(warp::get()).and(authed()).and_then(list);
    let create = warp::path!("websites" / WebsiteId / "segments")
        .and(warp::post())
        .and(authed())
        .and(api_body())
        .and_then(create);
    let update = warp::path!("websites" / WebsiteId / "segments" / i64)
        .and(warp::put())
        .and(authed())
        .and(api_body())
        .and_then(update);
    let delete =
        warp::path!("websites" / WebsiteId / "segments" / i64).and(warp::delete()).and(authed()).and_then(delete);
    list.or(create).or(update).or(delete)
}

/// The site's saved segments, oldest first.
#[utoipa::path(
    get,
    path = "/api/websites/{id}/segments",
    tag = "segments",
    operation_id = "listSegments",
    params(("id" = i64, Path, description = "Website id")),
    responses((status = 200, description = "The site's segments, oldest first", body = Vec<SavedSegment>), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn list(site: WebsiteId, tracker: Tracker, user: Caller) -> Result<impl Reply, Rejection> {
    site_json(tracker, user, site, move |tracker| tracker.segments.list(site, user.user)).await
}

/// Saves a segment.
#[utoipa::path(
    post,
    path = "/api/websites/{id}/segments",
    tag = "segments",
    operation_id = "createSegment",
    params(("id" = i64, Path, description = "Website id")),
    request_body(content = SegmentRequest, content_type = "application/json"),
    responses((status = 201, description = "Saved", body = SavedSegment), (status = "4XX", description = "Refused: a bad name or filters (400), no valid sign-in, a read API key or a shared segment saved by a viewer (403), not found (another user's id too), a taken name or the site's 100 segments already (409)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn create(
    site: WebsiteId,
    tracker: Tracker,
    user: Caller,
    body: SegmentRequest,
) -> Result<impl Reply, Rejection> {
    let segment = blocking(move || {
        let (_, role) = tracker.websites.access(user, site)?;
        tracker.segments.create(site, user.user, role, &body)
    })
    .await?;
    Ok(warp::reply::with_status(warp::reply::json(&segment), StatusCode::CREATED))
}

/// Renames a segment and replaces its filters.
#[utoipa::path(
    put,
    path = "/api/websites/{id}/segments/{segmentId}",
    tag = "segments",
    operation_id = "updateSegment",
    params(("id" = i64, Path, description = "Website id"), ("segmentId" = i64, Path, description = "Segment id")),
    request_body(content = SegmentRequest, content_type = "application/json"),
    responses((status = 200, description = "The changed segment", body = SavedSegment), (status = "4XX", description = "Refused: a bad name or filters (400), no valid sign-in, a read API key or a viewer changing a shared segment or sharing one (403), not found (another site's or another account's personal segment too), or a taken name (409)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn update(
    site: WebsiteId,
    id: i64,
    tracker: Tracker,
    user: Caller,
    body: SegmentRequest,
) -> Result<impl Reply, Rejection> {
    let segment = blocking(move || {
        let (_, role) = tracker.websites.access(user, site)?;
        tracker.segments.update(site, id, user.user, role, &body)
    })
    .await?;
    Ok(warp::reply::json(&segment))
}

/// Deletes a segment.
#[utoipa::path(
    delete,
    path = "/api/websites/{id}/segments/{segmentId}",
    tag = "segments",
    operation_id = "deleteSegment",
    params(("id" = i64, Path, description = "Website id"), ("segmentId" = i64, Path, description = "Segment id")),
    responses((status = 200, description = "Deleted", body = Done), (status = "4XX", description = "Refused: no valid sign-in, a read API key or a viewer deleting a shared segment (403), or not found (another site's or another account's personal segment too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn delete(site: WebsiteId, id: i64, tracker: Tracker, user: Caller) -> Result<impl Reply, Rejection> {
    blocking(move || {
        let (_, role) = tracker.websites.access(user, site)?;
        tracker.segments.delete(site, id, user.user, role)
    })
    .await?;
    Ok(warp::reply::json(&Done { ok: true }))
}
