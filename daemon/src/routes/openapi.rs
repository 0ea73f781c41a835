//! GET /api/openapi.json: the API contract (daemon/src/contract.rs), open to anyone like the dashboard's code.

use warp::http::HeaderValue;
use warp::http::header::CONTENT_TYPE;
use warp::{Filter, Rejection, Reply};

use crate::contract::openapi_json;

pub fn routes() -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    warp::path!("openapi.json").and(warp::get()).map(document)
}

/// This document.
#[utoipa::path(
    get,
    path = "/api/openapi.json",
    tag = "contract",
    operation_id = "openapi",
    responses((status = 200, description = "The OpenAPI 3.1 document of this API", content_type = "application/json", body = Object))
)]
fn document() -> warp::reply::Response {
    let mut response = warp::reply::Response::new(openapi_json().into());
    response.headers_mut().insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    response
}
