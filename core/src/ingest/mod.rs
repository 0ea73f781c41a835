//! The ingest path: validating, enriching and writing tracking hits.

pub mod enrich;
