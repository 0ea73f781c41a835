//! Integration tests: the real daemon on a port-0 listener and a temp data folder, and the built binary.

mod util;

mod auth;
mod capture_util;
mod events;
mod heatmaps;
mod organizations;
mod privacy;
mod replays;
mod websites;
