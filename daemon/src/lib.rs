//! tracker-daemon: turns HTTP into calls on the core `Tracker` and back — the route table, SSE, the
//! embedded dashboard and the tracking scripts.

mod contract;
mod email;
mod error;
mod routes;

use std::future::Future;

use tokio::net::TcpListener;
use tracker_core::Tracker;

pub use contract::{openapi, openapi_json};
pub use email::email_schedule;
pub use routes::roles::route_roles;
pub use routes::routes;

/// Serves the API, the dashboard and the scripts on `listener` until `shutdown` resolves.
/// Open live streams end when `shutdown` resolves, so graceful shutdown does not wait on them.
pub async fn serve(tracker: Tracker, listener: TcpListener, shutdown: impl Future<Output = ()> + Send + 'static) {
    let (stopping, stop_signal) = tokio::sync::watch::channel(false);
    let shutdown = async move {
        shutdown.await;
        let _ = stopping.send(true);
    };
    warp::serve(routes(tracker, stop_signal)).incoming(listener).graceful(shutdown).run().await;
}
