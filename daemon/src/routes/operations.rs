//! What an operator's monitoring calls, outside /api: `/health` (the process answers), `/ready` (it can take
//! hits) and `/metrics` (Prometheus text format, behind `metrics_token`). GET and HEAD alike.

use serde::Serialize;
use tracker_core::{Error, Tracker};
use warp::filters::BoxedFilter;
use warp::http::HeaderValue;
use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

use super::{bearer, get_or_head, with_tracker};
use crate::error::error_reply;

/// The answer of `/health` and of a passing `/ready`.
#[derive(Serialize)]
struct Status {
    status: &'static str,
}

/// The three monitoring routes, boxed: their type is a leaf of the route table's (deep) type, which keeps
/// the table within the compiler's default type-recursion limit for crates that serve it (the tests).
pub fn routes(tracker: Tracker) -> BoxedFilter<(Response,)> {
    let health =
        warp::path!("health").and(get_or_head()).map(|| warp::reply::json(&Status { status: "ok" }).into_response());
    let ready = warp::path!("ready").and(get_or_head()).and(with_tracker(tracker.clone())).and_then(ready);
    let metrics = warp::path!("metrics")
        .and(get_or_head())
        .and(with_tracker(tracker))
        .and(warp::header::optional::<String>("authorization"))
        .and_then(metrics);
    health.or(ready).unify().or(metrics).unify().boxed()
}

/// 200 when the writer runs, its queue has room and the database takes a write lock; else 503 with why.
/// Errors are answered here, not rejected: a rejection would fall through to the dashboard's 404 page.
async fn ready(tracker: Tracker) -> Result<Response, Rejection> {
    let checked = tokio::task::spawn_blocking(move || tracker.ready())
        .await
        .unwrap_or_else(|e| Err(Error::Internal(format!("worker failed: {e}"))));
    Ok(match checked {
        Ok(()) => warp::reply::json(&Status { status: "ready" }).into_response(),
        Err(e) => error_reply(&e),
    })
}

/// The metrics, for a caller with the configured token; 404 while no token is configured (answered here,
/// as in `ready`).
async fn metrics(tracker: Tracker, authorization: Option<String>) -> Result<Response, Rejection> {
    let allowed = tracker.settings.read(|settings| match &settings.metrics_token {
        None => Err(Error::NotFound("metrics (set metrics_token to turn them on)")),
        Some(token) if bearer(authorization.as_deref()).is_some_and(|given| same(given, token)) => Ok(()),
        Some(_) => Err(Error::Unauthorized("the metrics need Authorization: Bearer <metrics_token>".into())),
    });
    if let Err(e) = allowed {
        return Ok(error_reply(&e));
    }
    // Reading the file sizes and the deletion jobs touches the disk and PostgreSQL: off the async threads.
    let text = tokio::task::spawn_blocking(move || tracker.render_metrics()).await.unwrap_or_default();
    let mut response = Response::new(text.into());
    response.headers_mut().insert("content-type", HeaderValue::from_static("text/plain; version=0.0.4; charset=utf-8"));
    Ok(response)
}

/// Compares a given token with the configured one in time that does not depend on where they differ.
fn same(given: &str, expected: &str) -> bool {
    given.len() == expected.len() && given.bytes().zip(expected.bytes()).fold(0u8, |acc, (a, b)| acc | (a ^ b)) == 0
}
