//! The embedded dashboard: static assets, index.html for the app's routes, and the 404 page otherwise.

use rust_embed::RustEmbed;
use warp::http::{HeaderValue, StatusCode};
use warp::path::FullPath;
use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

/// dashboard/dist, built by `npm run build` in dashboard/ and embedded at compile time.
#[derive(RustEmbed)]
#[folder = "../dashboard/dist"]
pub struct Dist;

/// The app's routes (spec part 1 §2); index.html answers them with 200, any other path with 404.
const APP_ROUTES: &[&str] = &[
    "/",
    "/auth",
    "/dashboard",
    "/advanced-analytics",
    "/websites",
    "/live",
    "/visitor-stream",
    "/funnels",
    "/customer-journeys",
    "/session-replays",
    "/events",
    "/organizations",
    "/export",
    "/settings",
    "/basic-dashboard",
];

pub fn routes() -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    // The path is checked before the method: an unknown API path is 404 whatever the method, not 405.
    let not_api = warp::path::full().and_then(|path: FullPath| async move {
        // API paths never fall back to the app: their errors must stay JSON.
        if path.as_str() == "/api" || path.as_str().starts_with("/api/") {
            return Err(warp::reject::not_found());
        }
        Ok(path)
    });
    not_api.and(warp::get()).map(|path: FullPath| serve(path.as_str()))
}

fn serve(path: &str) -> Response {
    if let Some(asset) = path.strip_prefix("/assets/")
        && let Some(file) = Dist::get(&format!("assets/{asset}"))
    {
        let mime = mime_guess::from_path(asset).first_or_octet_stream();
        // Chunks carry a content hash in their names; entry files do not and must be revalidated.
        let cache = if asset.starts_with("chunks/") { "public, max-age=31536000, immutable" } else { "no-cache" };
        return file_response(file.data.into_owned(), mime.as_ref(), cache, StatusCode::OK);
    }
    let route = path.trim_end_matches('/');
    let status = if route.is_empty() || APP_ROUTES.contains(&route) { StatusCode::OK } else { StatusCode::NOT_FOUND };
    match Dist::get("index.html") {
        Some(index) => file_response(index.data.into_owned(), "text/html; charset=utf-8", "no-cache", status),
        None => crate::error::error_response(StatusCode::NOT_FOUND, "dashboard not built"),
    }
}

fn file_response(body: Vec<u8>, mime: &str, cache: &'static str, status: StatusCode) -> Response {
    let mut response = Response::new(body.into());
    *response.status_mut() = status;
    let headers = response.headers_mut();
    if let Ok(mime) = HeaderValue::from_str(mime) {
        headers.insert("content-type", mime);
    }
    headers.insert("cache-control", HeaderValue::from_static(cache));
    response
}
