//! tracker-core: everything true regardless of transport — domain types, storage and migrations, ingest,
//! analytics queries, privacy and auth. The daemon and the CLI both go through [`Tracker`].

pub mod account;
pub mod analytics;
pub mod auth;
pub mod cluster;
pub mod config;
pub mod db;
pub mod email;
pub mod error;
pub mod events;
pub mod export;
pub mod import;
pub mod ingest;
pub mod metrics;
pub mod model;
pub mod privacy;
pub mod settings;
pub mod stats_api;
pub mod store;
mod tracker;
pub mod warm;

#[cfg(test)]
mod testing;

pub use config::Config;
pub use error::{Error, Result};
pub use tracker::{Services, Tracker};
