//! /api/websites/{id}/annotations (issue 37): a site's dated notes, listed by range, written, changed and
//! deleted. A `write` API key may write them (deploy pipelines mark releases); a `read` key only lists them
//! (`api_keys::key_use`). The time series carries the range's notes too (reports.rs).

use serde::Deserialize;
use tracker_core::Tracker;
use tracker_core::analytics::Period;
use tracker_core::model::{Caller, WebsiteId, now_ms};
use tracker_core::store::annotations::{Annotation, AnnotationRequest};
use warp::http::StatusCode;
use warp::{Filter, Rejection, Reply};

use super::dashboard::period_of;
use super::{Done, api_body, blocking, site_json, user, with_tracker};
use crate::error::ErrorBody;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct AnnotationsQuery {
    /// A preset as every read takes (`7d`, `30d`, `month`, ...); `all` (the default) lists every annotation.
    range: Option<String>,
    /// First day, YYYY-MM-DD, with `to` in place of `range` (UTC days).
    from: Option<String>,
    /// Last day, YYYY-MM-DD, included.
    to: Option<String>,
}

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let authed = || with_tracker(tracker.clone()).and(user(tracker.clone()));
    let list = warp::path!("websites" / WebsiteId / "annotations")
        .and(warp::get())
        .and(authed())
        .and(warp::query::<AnnotationsQuery>())
        .and_then(list);
    let create = warp::path!("websites" / WebsiteId / "annotations")
        .and(warp::post())
        .and(authed())
        .and(api_body())
        .and_then(create);
    let update = warp::path!("websites" / WebsiteId / "annotations" / i64)
        .and(warp::put())
        .and(authed())
        .and(api_body())
        .and_then(update);
    let delete =
        warp::path!("websites" / WebsiteId / "annotations" / i64).and(warp::delete()).and(authed()).and_then(delete);
    list.or(create).or(update).or(delete)
}

/// The site's annotations on the range's days, by day.
#[utoipa::path(
    get,
    path = "/api/websites/{id}/annotations",
    tag = "annotations",
    operation_id = "listAnnotations",
    params(("id" = i64, Path, description = "Website id"), AnnotationsQuery),
    responses((status = 200, description = "The annotations on the range's days, by day then oldest first", body = Vec<Annotation>), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn list(
    site: WebsiteId,
    tracker: Tracker,
    user: Caller,
    query: AnnotationsQuery,
) -> Result<impl Reply, Rejection> {
    let period = period_of(&query.range, &query.from, &query.to, "all")?;
    site_json(tracker, user, site, move |tracker| {
        // The site's local days; `all` lists every annotation.
        let range = match period {
            Period::All => None,
            named => Some(tracker.events.range_of(site, named, now_ms())?),
        };
        tracker.annotations.list(site, range)
    })
    .await
}

/// Writes an annotation (a sign-in or a `write` API key).
#[utoipa::path(
    post,
    path = "/api/websites/{id}/annotations",
    tag = "annotations",
    operation_id = "createAnnotation",
    params(("id" = i64, Path, description = "Website id")),
    request_body(content = AnnotationRequest, content_type = "application/json"),
    responses((status = 201, description = "Written", body = Annotation), (status = "4XX", description = "Refused: a bad date or text (400), no valid sign-in, a read API key (403), not found (another user's id too), or the site's 1000 annotations already (409)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn create(
    site: WebsiteId,
    tracker: Tracker,
    user: Caller,
    body: AnnotationRequest,
) -> Result<impl Reply, Rejection> {
    let annotation = blocking(move || {
        tracker.websites.get(user, site)?;
        tracker.annotations.create(site, Some(user.user), &body)
    })
    .await?;
    Ok(warp::reply::with_status(warp::reply::json(&annotation), StatusCode::CREATED))
}

/// Changes an annotation's day and text.
#[utoipa::path(
    put,
    path = "/api/websites/{id}/annotations/{annotationId}",
    tag = "annotations",
    operation_id = "updateAnnotation",
    params(("id" = i64, Path, description = "Website id"), ("annotationId" = i64, Path, description = "Annotation id")),
    request_body(content = AnnotationRequest, content_type = "application/json"),
    responses((status = 200, description = "The changed annotation", body = Annotation), (status = "4XX", description = "Refused: a bad date or text (400), no valid sign-in, a read API key (403), or not found (another site's annotation too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn update(
    site: WebsiteId,
    id: i64,
    tracker: Tracker,
    user: Caller,
    body: AnnotationRequest,
) -> Result<impl Reply, Rejection> {
    site_json(tracker, user, site, move |tracker| tracker.annotations.update(site, id, &body)).await
}

/// Deletes an annotation.
#[utoipa::path(
    delete,
    path = "/api/websites/{id}/annotations/{annotationId}",
    tag = "annotations",
    operation_id = "deleteAnnotation",
    params(("id" = i64, Path, description = "Website id"), ("annotationId" = i64, Path, description = "Annotation id")),
    responses((status = 200, description = "Deleted", body = Done), (status = "4XX", description = "Refused: no valid sign-in, a read API key (403), or not found (another site's annotation too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn delete(site: WebsiteId, id: i64, tracker: Tracker, user: Caller) -> Result<impl Reply, Rejection> {
    site_json(tracker, user, site, move |tracker| tracker.annotations.delete(site, id).map(|()| Done { ok: true }))
        .await
}
