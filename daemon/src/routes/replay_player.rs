//! GET /replay-player: the replay player page (dashboard/src/replayPlayer.ts, embedded with the dashboard). The
//! dashboard frames it to play the recordings of a site whose owner chose to load the recorded page's remote
//! images, fonts and stylesheets (privacy settings, `replayRemoteAssets`); other sites' recordings play in the
//! dashboard itself, whose policy loads nothing from other hosts.
//!
//! A recording is whatever a visitor's browser sent, so the page rebuilds it in a frame sandboxed without
//! scripts, and its own policy lets images, fonts, stylesheets and media come from any http(s) host while scripts
//! come only from the daemon and nothing connects anywhere (the recording arrives by postMessage; the page holds
//! no token). Only the dashboard may frame it, and its requests carry no Referer: the recorded site's hosts learn
//! that someone watches, not the dashboard's address.

use warp::http::{HeaderValue, StatusCode, header};
use warp::reply::Response;
use warp::{Filter, Rejection};

use super::assets::{Accepts, accepts, embedded};
use super::get_or_head;

/// The player page's policy (see the module's note). `unsafe-inline` styles: rrweb rebuilds the recorded page's
/// stylesheets as `<style>` elements and keeps its style attributes.
pub(crate) const PLAYER_POLICY: &str = "default-src 'none'; script-src 'self'; \
     style-src 'self' 'unsafe-inline' http: https:; img-src 'self' data: blob: http: https:; \
     font-src 'self' data: http: https:; media-src data: blob: http: https:; connect-src 'none'; \
     object-src 'none'; form-action 'none'; base-uri 'none'; frame-ancestors 'self'";

pub fn routes() -> impl Filter<Extract = (Response,), Error = Rejection> + Clone {
    warp::path!("replay-player").and(get_or_head()).and(accepts()).map(page)
}

fn page(accepts: Accepts) -> Response {
    let Some(mut response) = embedded("replay-player.html", accepts, "no-cache") else {
        return crate::error::error_response(StatusCode::NOT_FOUND, "dashboard not built");
    };
    let headers = response.headers_mut();
    let mut set = |name, value| {
        headers.insert(name, HeaderValue::from_static(value));
    };
    set(header::CONTENT_SECURITY_POLICY, PLAYER_POLICY);
    // Framed by the dashboard, which is served from the same origin; nothing else may frame it.
    set(header::X_FRAME_OPTIONS, "SAMEORIGIN");
    set(header::REFERRER_POLICY, "no-referrer");
    response
}
