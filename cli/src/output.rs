//! Human and machine output: comfy tables for people, JSON for scripts.

use comfy_table::presets::UTF8_FULL_CONDENSED;
use comfy_table::{ContentArrangement, Table};
use std::io::Write;

use serde::Serialize;

/// A table with our look and the given header.
pub fn table(header: &[&str]) -> Table {
    let mut table = Table::new();
    table.load_style(UTF8_FULL_CONDENSED).set_content_arrangement(ContentArrangement::Dynamic).set_header(header);
    table
}

/// Prints a value as pretty JSON on stdout.
pub fn print_json<T: Serialize>(value: &T) -> anyhow::Result<()> {
    // Written, not println!'d: a closed pipe (`| head`) is an error main() treats as success, not a panic.
    let mut out = std::io::stdout().lock();
    writeln!(out, "{}", serde_json::to_string_pretty(value)?)?;
    Ok(())
}

/// A date for tables: "2026-11-21 14:05".
pub fn date(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms).map(|t| t.format("%Y-%m-%d %H:%M").to_string()).unwrap_or_default()
}
