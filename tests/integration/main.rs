//! Integration tests: the real daemon on a port-0 listener and a temp data folder, and the built binary.

mod util;

mod advanced;
mod auth;
mod capture_util;
mod cli;
mod cluster;
mod cluster_journeys;
mod cluster_migrate;
mod cluster_orgs;
mod cluster_privacy;
mod cluster_replays3;
mod contract;
mod dashboard;
mod dashboard_reads;
mod delivery;
mod deploy;
mod durability;
mod email;
mod events;
mod exports;
mod funnels;
mod heatmaps;
mod imports;
mod operations;
mod organizations;
mod privacy;
mod privacy_data;
mod reads;
mod replays;
mod robustness;
mod security;
mod settings;
mod track;
mod visitor_stream;
mod websites;
