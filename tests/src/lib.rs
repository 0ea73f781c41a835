//! Shared helpers for the integration tests live in integration/util.rs; this library is empty.
