//! The write side of the relational aggregates (websites, event definitions) and the tables the ingest
//! writer fills beyond events (organizations, heatmap points, recordings); `meta` is the metadata side of the
//! storage boundary (SQLite or PostgreSQL).

pub mod event_definitions;
pub mod funnels;
pub(crate) mod interactions;
pub mod meta;
pub mod organizations;
pub(crate) mod replays;
pub mod websites;
