//! The embedded dashboard: static assets, index.html for the app's routes, and the 404 page otherwise;
//! and the content negotiation every embedded file shares (precompressed gzip / brotli by Accept-Encoding).

use std::borrow::Cow;

use rust_embed::RustEmbed;
use warp::http::{HeaderValue, StatusCode};
use warp::path::FullPath;
use warp::reply::Response;
use warp::{Filter, Rejection, Reply};

use super::get_or_head;

/// dashboard/dist, built by `npm run build` in dashboard/ and embedded at compile time. The build writes
/// `name.gz` and `name.br` beside each text file.
#[derive(RustEmbed)]
#[folder = "../dashboard/dist"]
pub struct Dist;

/// The app's screens (spec part 1 §2, dashboard/src/screens.ts; dashboard/test/unit/app_routes.test.ts checks
/// the two lists are the same); index.html answers them with 200, any other path with 404.
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
    "/verify-email",
    "/invitations",
];

/// Everything under /assets/ has a content hash in its name (dashboard/build.mjs), so it never changes.
const IMMUTABLE: &str = "public, max-age=31536000, immutable";

pub fn routes() -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    // The path is checked before the method: an unknown API path is 404 whatever the method, not 405.
    let not_api = warp::path::full().and_then(|path: FullPath| async move {
        // API paths (and GoatCounter's count, which sits outside /api) never fall back to the app: their
        // errors must stay JSON.
        if path.as_str() == "/api" || path.as_str().starts_with("/api/") || path.as_str().starts_with("/goatcounter/") {
            return Err(warp::reject::not_found());
        }
        Ok(path)
    });
    not_api.and(get_or_head()).and(accepts()).map(|path: FullPath, accepts: Accepts| serve(path.as_str(), accepts))
}

fn serve(path: &str, accepts: Accepts) -> Response {
    if let Some(asset) = path.strip_prefix("/assets/")
        && let Some(response) = embedded(&format!("assets/{asset}"), accepts, IMMUTABLE)
    {
        return response;
    }
    // Uptime checkers and browsers ask for it at the root whatever the page says.
    if path == "/favicon.ico"
        && let Some(response) = embedded("favicon.ico", accepts, "public, max-age=86400")
    {
        return response;
    }
    let route = path.trim_end_matches('/');
    let status = if route.is_empty() || APP_ROUTES.contains(&route) { StatusCode::OK } else { StatusCode::NOT_FOUND };
    match embedded("index.html", accepts, "no-cache") {
        Some(mut index) => {
            *index.status_mut() = status;
            index
        }
        None => crate::error::error_response(StatusCode::NOT_FOUND, "dashboard not built"),
    }
}

/// The content codings a client takes (Accept-Encoding), of those the build precompresses.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub(crate) struct Accepts {
    pub br: bool,
    pub gzip: bool,
}

impl Accepts {
    /// Reads an Accept-Encoding value: `q=0` refuses a coding, `*` stands for the codings not named.
    pub(crate) fn parse(header: Option<&str>) -> Self {
        let (mut br, mut gzip, mut any) = (None, None, None);
        for item in header.unwrap_or("").split(',') {
            let mut parts = item.split(';');
            let coding = parts.next().unwrap_or("").trim();
            let q = parts
                .find_map(|p| p.trim().strip_prefix("q=").map(|q| q.trim().parse::<f32>().unwrap_or(0.0)))
                .unwrap_or(1.0);
            let slot = match coding.to_ascii_lowercase().as_str() {
                "br" => &mut br,
                "gzip" | "x-gzip" => &mut gzip,
                "*" => &mut any,
                _ => continue,
            };
            *slot = Some(q > 0.0);
        }
        let any = any.unwrap_or(false);
        Accepts { br: br.unwrap_or(any), gzip: gzip.unwrap_or(any) }
    }
}

/// The client's Accept-Encoding.
pub(crate) fn accepts() -> impl Filter<Extract = (Accepts,), Error = Rejection> + Clone {
    warp::header::optional::<String>("accept-encoding").map(|h: Option<String>| Accepts::parse(h.as_deref()))
}

/// An embedded file as the client best takes it: its brotli or gzip copy when the build made one and the
/// client accepts it, else the file itself. None when there is no such file (the copies are not files of
/// their own: asking for `x.js.gz` is asking for a missing file).
pub(crate) fn embedded(name: &str, accepts: Accepts, cache: &'static str) -> Option<Response> {
    if name.ends_with(".gz") || name.ends_with(".br") {
        return None;
    }
    let original = Dist::get(name)?;
    let encoded = [(accepts.br, "br", "br"), (accepts.gzip, "gzip", "gz")]
        .into_iter()
        .filter(|(accepted, ..)| *accepted)
        .find_map(|(_, coding, extension)| Some((Dist::get(&format!("{name}.{extension}"))?, coding)));
    let mime = if name.ends_with(".html") {
        Cow::Borrowed("text/html; charset=utf-8")
    } else if name.ends_with(".js") {
        Cow::Borrowed("application/javascript; charset=utf-8")
    } else {
        Cow::Owned(mime_guess::from_path(name).first_or_octet_stream().to_string())
    };
    let (body, coding) = match encoded {
        Some((file, coding)) => (file.data, Some(coding)),
        None => (original.data, None),
    };
    let mut response = Response::new(body.into_owned().into());
    let headers = response.headers_mut();
    if let Ok(mime) = HeaderValue::from_str(&mime) {
        headers.insert("content-type", mime);
    }
    headers.insert("cache-control", HeaderValue::from_static(cache));
    compressed(&mut response, coding);
    Some(response)
}

/// Marks a response as sent in `coding` (or as is), and tells caches the answer depends on Accept-Encoding.
pub(crate) fn compressed(response: &mut Response, coding: Option<&'static str>) {
    let headers = response.headers_mut();
    if let Some(coding) = coding {
        headers.insert("content-encoding", HeaderValue::from_static(coding));
    }
    headers.insert("vary", HeaderValue::from_static("Accept-Encoding"));
}

#[cfg(test)]
mod tests {
    use super::Accepts;

    #[test]
    fn accept_encoding_is_read_with_weights_and_wildcards() {
        let parse = |h: Option<&str>| Accepts::parse(h);
        assert_eq!(parse(None), Accepts { br: false, gzip: false });
        assert_eq!(parse(Some("gzip, deflate, br, zstd")), Accepts { br: true, gzip: true });
        assert_eq!(parse(Some("GZIP")), Accepts { br: false, gzip: true });
        assert_eq!(parse(Some("br;q=0, gzip;q=0.5")), Accepts { br: false, gzip: true });
        assert_eq!(parse(Some("*")), Accepts { br: true, gzip: true });
        assert_eq!(parse(Some("*;q=1, br;q=0")), Accepts { br: false, gzip: true });
        assert_eq!(parse(Some("identity")), Accepts { br: false, gzip: false });
    }
}
