//! The per-site export behind the analytics dashboard's Export CSV button: one row per event of a range.

use rusqlite::params;
use serde::Serialize;

use super::{Analytics, TimeRange};
use crate::error::{Error, Result};
use crate::model::{Millis, WebsiteId, iso, ser_iso};

/// Most rows one export holds; a longer history is exported range by range.
pub const EXPORT_MAX_ROWS: i64 = 1_000_000;

/// One exported event.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ExportedEvent {
    #[serde(serialize_with = "ser_iso")]
    pub timestamp: Millis,
    #[serde(rename = "type")]
    pub kind: String,
    pub name: String,
    pub url: String,
    pub referrer: String,
    pub session_id: String,
    pub country: String,
    pub device: String,
    pub browser: String,
    pub value: Option<f64>,
}

/// Column names of the CSV, in order.
pub const EXPORT_COLUMNS: [&str; 10] =
    ["timestamp", "type", "name", "url", "referrer", "sessionId", "country", "device", "browser", "value"];

impl Analytics {
    /// The events of `range`, oldest first.
    pub fn export_events(&self, site: WebsiteId, range: TimeRange) -> Result<Vec<ExportedEvent>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT e.ts, e.kind, e.name, e.url, e.referrer, s.session_key, s.country, s.device, s.browser, e.value
                 FROM events e JOIN sessions s ON s.id = e.session_id
                 WHERE e.website_id = ?1 AND e.ts >= ?2 AND e.ts < ?3
                 ORDER BY e.ts, e.id LIMIT ?4",
            )?;
            let rows = stmt.query_map(params![site, range.start, range.end, EXPORT_MAX_ROWS], |r| {
                Ok(ExportedEvent {
                    timestamp: r.get(0)?,
                    kind: r.get(1)?,
                    name: r.get(2)?,
                    url: r.get(3)?,
                    referrer: r.get(4)?,
                    session_id: r.get(5)?,
                    country: r.get(6)?,
                    device: r.get(7)?,
                    browser: r.get(8)?,
                    value: r.get(9)?,
                })
            })?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }
}

/// Writes events as CSV with a header row.
pub fn events_csv(events: &[ExportedEvent]) -> Result<Vec<u8>> {
    let mut out = csv::Writer::from_writer(Vec::new());
    let csv_err = |e: csv::Error| Error::Internal(format!("csv: {e}"));
    out.write_record(EXPORT_COLUMNS).map_err(csv_err)?;
    for e in events {
        let value = e.value.map(|v| v.to_string()).unwrap_or_default();
        out.write_record([
            iso(e.timestamp).as_str(),
            &e.kind,
            &e.name,
            &e.url,
            &e.referrer,
            &e.session_id,
            &e.country,
            &e.device,
            &e.browser,
            &value,
        ])
        .map_err(csv_err)?;
    }
    out.into_inner().map_err(|e| Error::Internal(format!("csv: {e}")))
}
