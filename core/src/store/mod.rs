//! The write side of the relational aggregates (websites); ingest writes events through `crate::ingest`.

pub mod websites;
