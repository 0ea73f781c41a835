//! The one place where errors become HTTP: core errors and warp rejections map to a status and the JSON
//! body `{"error":{"message":...}}`.

use std::convert::Infallible;

use tracker_core::Error;
use warp::http::{HeaderValue, StatusCode};
use warp::reject::Reject;
use warp::{Rejection, Reply};

/// A core error carried through warp's rejection system.
#[derive(Debug)]
pub struct ApiError(pub Error);

impl Reject for ApiError {}

impl From<Error> for ApiError {
    fn from(e: Error) -> Self {
        ApiError(e)
    }
}

/// Shorthand used by handlers: `core_call().map_err(reject)?`.
pub fn reject(e: Error) -> Rejection {
    warp::reject::custom(ApiError(e))
}

/// The status and client-facing message of a core error; 5xx details stay in the log.
fn status_of(e: &Error) -> (StatusCode, String) {
    match e {
        Error::Invalid(_) => (StatusCode::BAD_REQUEST, e.to_string()),
        Error::NotFound(_) => (StatusCode::NOT_FOUND, e.to_string()),
        Error::Conflict(_) => (StatusCode::CONFLICT, e.to_string()),
        Error::Unauthorized(_) | Error::InvalidToken(_) => (StatusCode::UNAUTHORIZED, e.to_string()),
        Error::Forbidden(_) => (StatusCode::FORBIDDEN, e.to_string()),
        Error::RateLimited | Error::RateLimitedFor(_) => (StatusCode::TOO_MANY_REQUESTS, e.to_string()),
        Error::TooLarge(_) => (StatusCode::PAYLOAD_TOO_LARGE, e.to_string()),
        Error::UnsupportedMediaType(_) => (StatusCode::UNSUPPORTED_MEDIA_TYPE, e.to_string()),
        Error::Busy => (StatusCode::SERVICE_UNAVAILABLE, e.to_string()),
        Error::Unavailable(_) => {
            tracing::warn!(error = %e, "unavailable");
            (StatusCode::SERVICE_UNAVAILABLE, e.to_string())
        }
        // Input that validation let through and PostgreSQL refused (U+0000): logged, since validation missed it.
        Error::Postgres(_) if e.is_refused_text() => {
            tracing::warn!(error = %e, "PostgreSQL refused a value's characters");
            (StatusCode::BAD_REQUEST, "text must not contain NUL or other control characters".to_string())
        }
        Error::Db(_) | Error::Postgres(_) | Error::Io(_) | Error::Internal(_) => {
            tracing::error!(error = %e, "request failed");
            (StatusCode::INTERNAL_SERVER_ERROR, "internal server error".to_string())
        }
    }
}

/// The body of every error answer: `{"error":{"message":...}}`.
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct ErrorBody {
    pub error: ErrorMessage,
}

/// What went wrong, for a person to read; 5xx answers say only "internal server error".
#[derive(serde::Serialize, utoipa::ToSchema)]
pub struct ErrorMessage {
    pub message: String,
}

/// A JSON error response with the given status.
pub fn error_response(status: StatusCode, message: &str) -> warp::reply::Response {
    let body = ErrorBody { error: ErrorMessage { message: message.to_string() } };
    let mut response = warp::reply::with_status(warp::reply::json(&body), status).into_response();
    if status == StatusCode::SERVICE_UNAVAILABLE {
        response.headers_mut().insert("retry-after", HeaderValue::from_static("1"));
    }
    if status == StatusCode::UNAUTHORIZED {
        response.headers_mut().insert("www-authenticate", HeaderValue::from_static("Bearer"));
    }
    response
}

/// A core error as a JSON response, for routes that answer errors themselves (visitor routes add CORS).
/// A token that no longer stands says so in `WWW-Authenticate` (RFC 6750 `invalid_token`): the one answer
/// on which a client refreshes its token and sends again, where a wrong password or code must not be resent.
/// A limit that knows when it ends (an API key's hour) says so in `Retry-After`.
pub fn error_reply(e: &Error) -> warp::reply::Response {
    let (status, message) = status_of(e);
    let mut response = error_response(status, &message);
    if matches!(e, Error::InvalidToken(_)) {
        response.headers_mut().insert("www-authenticate", HeaderValue::from_static(r#"Bearer error="invalid_token""#));
    }
    if let Error::RateLimitedFor(seconds) = e {
        response.headers_mut().insert("retry-after", HeaderValue::from(*seconds));
    }
    response
}

/// Turns any rejection into a JSON error; installed once at the top of the route table.
pub async fn recover(rejection: Rejection) -> Result<warp::reply::Response, Infallible> {
    let (status, message) = if let Some(ApiError(e)) = rejection.find::<ApiError>() {
        return Ok(error_reply(e));
    } else if rejection.is_not_found() {
        (StatusCode::NOT_FOUND, "not found".to_string())
    } else if let Some(e) = rejection.find::<warp::filters::body::BodyDeserializeError>() {
        (StatusCode::BAD_REQUEST, format!("invalid JSON body: {e}"))
    } else if rejection.find::<warp::reject::PayloadTooLarge>().is_some() {
        (StatusCode::PAYLOAD_TOO_LARGE, "request body too large".to_string())
    } else if rejection.find::<warp::reject::LengthRequired>().is_some() {
        (StatusCode::LENGTH_REQUIRED, "a Content-Length header is required".to_string())
    } else if rejection.find::<warp::reject::UnsupportedMediaType>().is_some() {
        (StatusCode::UNSUPPORTED_MEDIA_TYPE, "unsupported content type".to_string())
    } else if let Some(e) = rejection.find::<warp::reject::InvalidQuery>() {
        (StatusCode::BAD_REQUEST, format!("invalid query string: {e}"))
    } else if let Some(e) = rejection.find::<warp::reject::MissingHeader>() {
        (StatusCode::BAD_REQUEST, format!("missing header {}", e.name()))
    } else if let Some(e) = rejection.find::<warp::reject::InvalidHeader>() {
        (StatusCode::BAD_REQUEST, format!("invalid header {}", e.name()))
    } else if rejection.find::<warp::reject::MethodNotAllowed>().is_some() {
        (StatusCode::METHOD_NOT_ALLOWED, "method not allowed".to_string())
    } else {
        tracing::error!(?rejection, "unhandled rejection");
        (StatusCode::INTERNAL_SERVER_ERROR, "internal server error".to_string())
    };
    Ok(error_response(status, &message))
}
