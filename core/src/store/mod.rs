//! The write side of the relational aggregates (websites, event definitions) and the tables the ingest
//! writer fills beyond events (organizations, heatmap points); `meta` is the metadata side of the storage
//! boundary (SQLite or PostgreSQL), recordings included.

pub mod annotations;
pub mod event_definitions;
pub mod funnels;
pub(crate) mod interactions;
pub mod members;
pub mod meta;
pub mod organizations;
pub mod segments;
pub mod shared_links;
pub mod websites;
