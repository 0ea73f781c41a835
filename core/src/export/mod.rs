//! Export of raw page views and events as CSV, JSON lines or a JSON array, streamed with flat memory.
//! The CLI's `tracker export` and the daemon's export routes both write through [`Export::write`], so both
//! quote CSV cells that a spreadsheet would run as formulas (`csv_cell`).
//!
//! Rows are read with a keyset cursor over `events` joined with `sessions`, one page at a time, and written
//! as they are read: nothing is collected, and no read transaction stays open between pages (a long export
//! does not hold back WAL checkpoints while the daemon writes). No IP address is ever exported.

use std::borrow::Cow;
use std::io::Write;

use rusqlite::params_from_iter;
use rusqlite::types::Value as SqlValue;
use serde::Serialize;
use serde_json::Value;

use crate::db::Db;
use crate::error::{Error, Result};
use crate::events::Filters;
use crate::model::{Millis, WebsiteId, iso};

/// The columns of every export, in order (CSV header; JSON uses their camelCase names).
pub const COLUMNS: [&str; 15] = [
    "timestamp",
    "type",
    "name",
    "url",
    "path",
    "referrer",
    "session_id",
    "country",
    "device",
    "browser",
    "os",
    "utm_source",
    "utm_medium",
    "utm_campaign",
    "properties",
];

/// Rows read per page of the cursor.
const PAGE: u64 = 2_000;

/// Which rows an export holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportKind {
    /// Page views only.
    Pageviews,
    /// Everything but page views: custom events, conversions, outbound links, downloads, consent.
    Events,
    /// Page views and events.
    All,
}

impl ExportKind {
    /// Parses `pageviews`, `events` or `all`.
    pub fn parse(s: &str) -> Result<ExportKind> {
        match s {
            "pageviews" => Ok(ExportKind::Pageviews),
            "events" => Ok(ExportKind::Events),
            "all" => Ok(ExportKind::All),
            _ => Err(Error::invalid("type must be pageviews, events or all")),
        }
    }

    /// The name as parsed.
    pub fn as_str(self) -> &'static str {
        match self {
            ExportKind::Pageviews => "pageviews",
            ExportKind::Events => "events",
            ExportKind::All => "all",
        }
    }

    /// SQL condition on `e.kind` (fixed text). Identify hits carry visitor traits and are never exported.
    fn condition(self) -> &'static str {
        match self {
            ExportKind::Pageviews => "e.kind = 'pageview'",
            ExportKind::Events => "e.kind NOT IN ('pageview', 'identify')",
            ExportKind::All => "e.kind <> 'identify'",
        }
    }
}

/// The file format of an export.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ExportFormat {
    /// RFC 4180 CSV with a header row.
    Csv,
    /// One JSON array of objects.
    Json,
    /// One JSON object per line.
    JsonLines,
}

impl ExportFormat {
    /// Parses `csv`, `json` or `jsonl`.
    pub fn parse(s: &str) -> Result<ExportFormat> {
        match s {
            "csv" => Ok(ExportFormat::Csv),
            "json" => Ok(ExportFormat::Json),
            "jsonl" | "ndjson" => Ok(ExportFormat::JsonLines),
            _ => Err(Error::invalid("format must be csv, json or jsonl")),
        }
    }

    /// The usual file extension.
    pub fn extension(self) -> &'static str {
        match self {
            ExportFormat::Csv => "csv",
            ExportFormat::Json => "json",
            ExportFormat::JsonLines => "jsonl",
        }
    }

    /// The HTTP content type.
    pub fn content_type(self) -> &'static str {
        match self {
            ExportFormat::Csv => "text/csv; charset=utf-8",
            ExportFormat::Json => "application/json",
            ExportFormat::JsonLines => "application/x-ndjson",
        }
    }
}

/// What to export: one site's rows of a kind in `[since, until)` that `filters` admit (each row an event of a
/// visit the visit conditions admit, passing the event conditions itself), oldest first unless `newest_first`.
#[derive(Debug, Clone, PartialEq)]
pub struct ExportQuery {
    pub site: WebsiteId,
    pub kind: ExportKind,
    pub since: Option<Millis>,
    pub until: Option<Millis>,
    /// Most rows written.
    pub limit: Option<u64>,
    /// Newest rows first (with `limit`: the most recent rows).
    pub newest_first: bool,
    /// Only the rows these admit (none: every row).
    pub filters: Filters,
}

impl ExportQuery {
    /// Every row of a kind, oldest first.
    pub fn new(site: WebsiteId, kind: ExportKind) -> ExportQuery {
        ExportQuery { site, kind, since: None, until: None, limit: None, newest_first: false, filters: Filters::none() }
    }
}

/// One exported row (JSON field names; CSV uses [`COLUMNS`]).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ExportRow {
    pub(crate) timestamp: String,
    #[serde(rename = "type")]
    pub(crate) kind: String,
    pub(crate) name: String,
    pub(crate) url: String,
    pub(crate) path: String,
    pub(crate) referrer: String,
    pub(crate) session_id: String,
    pub(crate) country: String,
    pub(crate) device: String,
    pub(crate) browser: String,
    pub(crate) os: String,
    pub(crate) utm_source: String,
    pub(crate) utm_medium: String,
    pub(crate) utm_campaign: String,
    #[serde(skip)]
    pub(crate) properties_raw: String,
    pub(crate) properties: Option<Value>,
}

/// SQLite's condition of the rows a query's filters admit, over the event row `e` and its visit row `s`, with
/// its values numbered after the statement's own first parameters (the events engine's dialect writes it).
pub(crate) type Admitted = fn(&Filters, usize) -> (String, Vec<SqlValue>);

/// The export service.
#[derive(Clone)]
pub struct Export {
    db: Db,
}

impl Export {
    pub(crate) fn new(db: Db) -> Export {
        Export { db }
    }

    /// How many rows `query` will write (for progress bars and size checks).
    pub fn count(&self, query: &ExportQuery, admitted: Admitted) -> Result<u64> {
        let (since, until) = bounds(query);
        let mut values: Vec<SqlValue> = vec![query.site.into(), since.into(), until.into()];
        let mut sql = format!(
            "SELECT COUNT(*) FROM events e WHERE e.website_id = ?1 AND e.ts >= ?2 AND e.ts < ?3 AND {}",
            query.kind.condition()
        );
        // The visit row only when a filter reads it: the unfiltered count stays on the events' index alone.
        if !query.filters.is_empty() {
            let (condition, filter_values) = admitted(&query.filters, values.len());
            sql = sql.replacen("FROM events e", "FROM events e JOIN sessions s ON s.id = e.session_id", 1);
            sql.push_str(&format!(" AND {condition}"));
            values.extend(filter_values);
        }
        let n: i64 = self.db.read(|conn| Ok(conn.query_row(&sql, params_from_iter(values), |r| r.get(0))?))?;
        let n = n.max(0) as u64;
        Ok(query.limit.map_or(n, |limit| n.min(limit)))
    }

    /// Writes the rows of `query` to `out` in `format`, calling `progress` with the running row count after
    /// each page; returns the number of rows written.
    pub fn write<W: Write>(
        &self,
        query: &ExportQuery,
        admitted: Admitted,
        format: ExportFormat,
        out: W,
        mut progress: impl FnMut(u64),
    ) -> Result<u64> {
        let (since, until) = bounds(query);
        let order = if query.newest_first { "DESC" } else { "ASC" };
        // Keyset paging: the time bound moves with the cursor so each page seeks the index, never rescans;
        // `?4/?5` skip the rows of the cursor's own millisecond already written.
        let after = if query.newest_first { "(e.ts < ?4 OR e.id < ?5)" } else { "(e.ts > ?4 OR e.id > ?5)" };
        let (filtered, filter_values) = match query.filters.is_empty() {
            true => (String::new(), Vec::new()),
            false => {
                let (condition, values) = admitted(&query.filters, 6);
                (format!(" AND {condition}"), values)
            }
        };
        let sql = format!(
            "SELECT e.id, e.ts, e.kind, e.name, e.url, e.path, e.referrer, s.session_key, s.country, s.device,
                    s.browser, s.os, s.utm_source, s.utm_medium, s.utm_campaign, COALESCE(e.properties, '')
             FROM events e JOIN sessions s ON s.id = e.session_id
             WHERE e.website_id = ?1 AND e.ts >= ?2 AND e.ts < ?3 AND {} AND {after}{filtered}
             ORDER BY e.ts {order}, e.id {order} LIMIT ?6",
            query.kind.condition()
        );
        let mut sink = Sink::start(format, out)?;
        let mut cursor: Option<(Millis, i64)> = None;
        let mut written = 0u64;
        loop {
            let page = match query.limit {
                Some(limit) => limit.saturating_sub(written).min(PAGE),
                None => PAGE,
            };
            if page == 0 {
                break;
            }
            let (lo, hi, cur_ts, cur_id) = match (cursor, query.newest_first) {
                (None, false) => (since, until, i64::MIN, i64::MIN),
                (None, true) => (since, until, i64::MAX, i64::MAX),
                (Some((ts, id)), false) => (ts.max(since), until, ts, id),
                (Some((ts, id)), true) => (since, ts.saturating_add(1).min(until), ts, id),
            };
            let read = self.db.read(|conn| {
                let mut stmt = conn.prepare_cached(&sql)?;
                let fixed: [SqlValue; 6] =
                    [query.site.into(), lo.into(), hi.into(), cur_ts.into(), cur_id.into(), (page as i64).into()];
                let mut rows = stmt.query(params_from_iter(fixed.into_iter().chain(filter_values.iter().cloned())))?;
                let mut n = 0u64;
                while let Some(r) = rows.next()? {
                    let id: i64 = r.get(0)?;
                    let ts: Millis = r.get(1)?;
                    let row = ExportRow {
                        timestamp: iso(ts),
                        kind: r.get(2)?,
                        name: r.get(3)?,
                        url: r.get(4)?,
                        path: r.get(5)?,
                        referrer: r.get(6)?,
                        session_id: r.get(7)?,
                        country: r.get(8)?,
                        device: r.get(9)?,
                        browser: r.get(10)?,
                        os: r.get(11)?,
                        utm_source: r.get(12)?,
                        utm_medium: r.get(13)?,
                        utm_campaign: r.get(14)?,
                        properties_raw: r.get(15)?,
                        properties: None,
                    };
                    sink.row(row)?;
                    cursor = Some((ts, id));
                    n += 1;
                }
                Ok(n)
            })?;
            written += read;
            progress(written);
            if read < page {
                break;
            }
        }
        sink.finish()?;
        Ok(written)
    }
}

/// The half-open time bounds of a query in milliseconds.
fn bounds(query: &ExportQuery) -> (Millis, Millis) {
    (query.since.unwrap_or(i64::MIN), query.until.unwrap_or(i64::MAX))
}

/// Writes rows in one format (SQLite's export and the cluster's).
pub(crate) enum Sink<W: Write> {
    Csv(Box<csv::Writer<W>>),
    Json { out: W, first: bool },
    JsonLines(W),
}

impl<W: Write> Sink<W> {
    pub(crate) fn start(format: ExportFormat, mut out: W) -> Result<Sink<W>> {
        Ok(match format {
            ExportFormat::Csv => {
                let mut writer = csv::Writer::from_writer(out);
                writer.write_record(COLUMNS).map_err(csv_error)?;
                Sink::Csv(Box::new(writer))
            }
            ExportFormat::Json => {
                out.write_all(b"[")?;
                Sink::Json { out, first: true }
            }
            ExportFormat::JsonLines => Sink::JsonLines(out),
        })
    }

    pub(crate) fn row(&mut self, mut row: ExportRow) -> Result<()> {
        match self {
            Sink::Csv(writer) => {
                let cells = [
                    &row.timestamp,
                    &row.kind,
                    &row.name,
                    &row.url,
                    &row.path,
                    &row.referrer,
                    &row.session_id,
                    &row.country,
                    &row.device,
                    &row.browser,
                    &row.os,
                    &row.utm_source,
                    &row.utm_medium,
                    &row.utm_campaign,
                    &row.properties_raw,
                ];
                writer
                    .write_record(cells.map(|cell| csv_cell(cell)).iter().map(|cell| cell.as_bytes()))
                    .map_err(csv_error)
            }
            Sink::Json { out, first } => {
                row.properties = parse_properties(&row.properties_raw);
                out.write_all(if *first { b"\n" } else { b",\n" })?;
                *first = false;
                serde_json::to_writer(&mut *out, &row).map_err(json_error)
            }
            Sink::JsonLines(out) => {
                row.properties = parse_properties(&row.properties_raw);
                serde_json::to_writer(&mut *out, &row).map_err(json_error)?;
                out.write_all(b"\n")?;
                Ok(())
            }
        }
    }

    pub(crate) fn finish(self) -> Result<()> {
        match self {
            Sink::Csv(mut writer) => writer.flush()?,
            Sink::Json { mut out, first } => {
                out.write_all(if first { b"]\n" } else { b"\n]\n" })?;
                out.flush()?
            }
            Sink::JsonLines(mut out) => out.flush()?,
        }
        Ok(())
    }
}

/// The characters with which a spreadsheet (Excel, LibreOffice, Google Sheets) starts a formula, or which it
/// skips before one.
const FORMULA_STARTS: [char; 6] = ['=', '+', '-', '@', '\t', '\r'];

/// A CSV cell that a spreadsheet shows as text and never runs: one starting like a formula gets a leading `'`
/// (OWASP's advice against CSV injection); any other is written as stored. Every cell goes through it, as
/// most hold what visitors sent (names, utm values, ...). The export has no numeric column, so a `-5` here is
/// a visitor's text (say an event name) and is quoted like the rest.
fn csv_cell(text: &str) -> Cow<'_, str> {
    if text.starts_with(FORMULA_STARTS) { Cow::Owned(format!("'{text}")) } else { Cow::Borrowed(text) }
}

fn parse_properties(raw: &str) -> Option<Value> {
    if raw.is_empty() { None } else { serde_json::from_str(raw).ok() }
}

fn csv_error(e: csv::Error) -> Error {
    match e.into_kind() {
        csv::ErrorKind::Io(e) => Error::Io(e),
        other => Error::Internal(format!("csv: {other:?}")),
    }
}

/// A serializer's error: the writer's I/O error as it was (a client that went away is a broken pipe, not a
/// failure), anything else internal.
pub(crate) fn json_error(e: serde_json::Error) -> Error {
    if e.is_io() { Error::Io(e.into()) } else { Error::Internal(format!("json: {e}")) }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cells_that_start_a_formula_are_quoted_and_no_others() {
        for formula in ["=1+1", "+1", "-2+3", "@SUM(A1)", "\t=1", "\r=1", "-5"] {
            assert_eq!(csv_cell(formula), format!("'{formula}"));
        }
        for text in
            ["", "signup", "https://e.com/?a=b", "/p", "{\"a\":\"=1\"}", "'=1", " =1", "2026-11-21T14:05:00.000Z"]
        {
            assert_eq!(csv_cell(text), text);
        }
    }
}
