//! Integration tests: the real daemon on a port-0 listener and a temp data folder, and the built binary.

mod util;

mod auth;
mod capture_util;
mod cli;
mod contract;
mod dashboard;
mod dashboard_reads;
mod durability;
mod events;
mod heatmaps;
mod organizations;
mod privacy;
mod reads;
mod replays;
mod robustness;
mod security;
mod track;
mod websites;
