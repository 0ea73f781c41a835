//! Exports: GET /api/websites/{id}/export?format=csv|json|jsonl (the whole site, spec part 1) and
//! GET /api/export/{pageviews|events}?website_id=[&range=24h|7d|30d][&format=csv|json] (spec part 2: the
//! 10,000 most recent rows without a range; every row of the range with one), each with `filters` (only the
//! rows they admit, issue 36). Both write through the core
//! export writer, the same as `tracker export`, and stream: rows go out as they are read, through a
//! one-piece channel, so a download of any size costs the daemon a page of rows and a buffer, and a slow
//! reader slows the reading instead of filling memory.

use std::io::{self, Write};

use bytes::Bytes;
use serde::Deserialize;
use tokio::sync::mpsc;
use tracker_core::export::{ExportFormat, ExportKind, ExportQuery};
use tracker_core::model::{Caller, WebsiteId};
use tracker_core::{Error, Tracker};
use warp::http::{HeaderValue, header};
use warp::{Filter, Rejection, Reply};

use super::dashboard::{filters_of, range_of};
use super::{blocking, parse_website_id, user, with_tracker};
use crate::error::{ErrorBody, reject};

/// Rows of the per-type export without a range (spec part 2: "up to 10,000 recent records").
pub const RECENT_EXPORT_ROWS: u64 = 10_000;
/// Bytes gathered before a piece is handed to the connection.
const PIECE: usize = 64 * 1024;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct SiteExportQuery {
    format: Option<String>,
    /// Optional: only the rows of a dashboard range (`7d`, `30d`, ...); all history without it.
    range: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
    /// Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters"):
    /// only the rows they admit.
    filters: Option<String>,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct TypeExportQuery {
    #[param(value_type = Option<i64>)]
    website_id: Option<String>,
    /// 24h, 7d or 30d (spec part 2 §9); without it, the most recent rows.
    range: Option<String>,
    /// csv (default) or json.
    format: Option<String>,
    /// Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters"):
    /// only the rows they admit.
    filters: Option<String>,
}

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let site = warp::path!("websites" / WebsiteId / "export")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker.clone()))
        .and(warp::query::<SiteExportQuery>())
        .and_then(site_export);
    let by_type = warp::path!("export" / String)
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker))
        .and(warp::query::<TypeExportQuery>())
        .and_then(type_export);
    site.or(by_type)
}

#[utoipa::path(
    get,
    path = "/api/websites/{id}/export",
    tag = "export",
    operation_id = "exportWebsite",
    params(("id" = i64, Path, description = "Website id"), SiteExportQuery),
    responses((status = 200, description = "The site's data: JSON by default, CSV or JSON lines as an attachment", content((Vec<tracker_core::export::ExportRow> = "application/json"), (String = "text/csv"), (String = "application/x-ndjson"))), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn site_export(
    site: WebsiteId,
    tracker: Tracker,
    user: Caller,
    query: SiteExportQuery,
) -> Result<warp::reply::Response, Rejection> {
    // Any format but CSV answers JSON (spec part 1).
    let format = match query.format.as_deref() {
        Some("csv") => ExportFormat::Csv,
        Some("jsonl") => ExportFormat::JsonLines,
        _ => ExportFormat::Json,
    };
    let kind = ExportKind::parse(query.kind.as_deref().unwrap_or("all")).map_err(reject)?;
    let range = query.range.as_deref().map(|r| range_of(Some(r))).transpose()?;
    let filters = filters_of(query.filters.as_deref())?;
    let query = ExportQuery {
        since: range.map(|r| r.start),
        until: range.map(|r| r.end),
        filters,
        ..ExportQuery::new(site, kind)
    };
    let filename = (format != ExportFormat::Json).then(|| format!("analytics-{site}.{}", format.extension()));
    stream_export(tracker, user, query, format, filename).await
}

#[utoipa::path(
    get,
    path = "/api/export/{kind}",
    tag = "export",
    operation_id = "exportRecent",
    params(("kind" = String, Path, description = "pageviews or events"), TypeExportQuery),
    responses((status = 200, description = "The 10,000 most recent rows as CSV", content_type = "text/csv", body = String), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn type_export(
    kind: String,
    tracker: Tracker,
    user: Caller,
    query: TypeExportQuery,
) -> Result<warp::reply::Response, Rejection> {
    let kind = match kind.as_str() {
        "pageviews" => ExportKind::Pageviews,
        "events" => ExportKind::Events,
        _ => return Err(warp::reject::not_found()),
    };
    let site = parse_website_id(query.website_id.as_deref())?;
    let format = match query.format.as_deref() {
        None | Some("csv") => ExportFormat::Csv,
        Some("json") => ExportFormat::Json,
        Some(_) => return Err(reject(Error::invalid("format must be csv or json"))),
    };
    let filters = filters_of(query.filters.as_deref())?;
    let export = match query.range.as_deref() {
        None => {
            ExportQuery { limit: Some(RECENT_EXPORT_ROWS), newest_first: true, filters, ..ExportQuery::new(site, kind) }
        }
        Some(name @ ("24h" | "7d" | "30d")) => {
            let range = range_of(Some(name))?;
            ExportQuery { since: Some(range.start), until: Some(range.end), filters, ..ExportQuery::new(site, kind) }
        }
        Some(_) => return Err(reject(Error::invalid("range must be 24h, 7d or 30d"))),
    };
    let filename = format!("{}-{site}.{}", kind.as_str(), format.extension());
    stream_export(tracker, user, export, format, Some(filename)).await
}

/// Checks the site is the caller's, then answers with the export written on a blocking thread as the
/// connection takes it. An error after the status is sent cuts the body short (the client sees an incomplete
/// file) and is logged with its cause.
async fn stream_export(
    tracker: Tracker,
    user: Caller,
    query: ExportQuery,
    format: ExportFormat,
    filename: Option<String>,
) -> Result<warp::reply::Response, Rejection> {
    let site = query.site;
    let owner = tracker.clone();
    blocking(move || owner.websites.get(user, site).map(drop)).await?;
    let body = stream_body(site, move |out| tracker.events.write_export(&query, format, out, &mut |_| {}).map(drop));
    Ok(file_response(body, format, filename))
}

/// A body written by `write` on a blocking thread as the connection takes it (callers check ownership first).
/// The body ends when `write` returns: what it does last (an audit row) is done before the client sees the
/// end. An error after the status is sent cuts the body short and is logged with its cause.
pub(super) fn stream_body(
    site: WebsiteId,
    write: impl FnOnce(&mut ChannelWriter) -> tracker_core::Result<()> + Send + 'static,
) -> warp::reply::Response {
    let (tx, mut rx) = mpsc::channel::<Result<Bytes, io::Error>>(1);
    tokio::task::spawn_blocking(move || {
        let mut out = ChannelWriter { tx: tx.clone(), buf: Vec::with_capacity(PIECE) };
        let result = write(&mut out).and_then(|_| Ok(out.flush()?));
        match result {
            Ok(()) => {}
            // The client went away: nothing to report.
            Err(Error::Io(e)) if e.kind() == io::ErrorKind::BrokenPipe => {}
            Err(e) => {
                tracing::error!(site = %site, error = %e, "export stream failed");
                let _ = tx.blocking_send(Err(io::Error::other("export failed")));
            }
        }
    });
    let body = futures_util::stream::poll_fn(move |cx| rx.poll_recv(cx));
    warp::reply::stream(body).into_response()
}

/// An `io::Write` that hands the connection pieces of about `PIECE` bytes; a closed connection is a broken
/// pipe, which ends the export.
pub(super) struct ChannelWriter {
    tx: mpsc::Sender<Result<Bytes, io::Error>>,
    buf: Vec<u8>,
}

impl ChannelWriter {
    fn send(&mut self) -> io::Result<()> {
        if self.buf.is_empty() {
            return Ok(());
        }
        let piece = Bytes::from(std::mem::replace(&mut self.buf, Vec::with_capacity(PIECE)));
        self.tx.blocking_send(Ok(piece)).map_err(|_| io::Error::from(io::ErrorKind::BrokenPipe))
    }
}

impl Write for ChannelWriter {
    fn write(&mut self, data: &[u8]) -> io::Result<usize> {
        self.buf.extend_from_slice(data);
        if self.buf.len() >= PIECE {
            self.send()?;
        }
        Ok(data.len())
    }

    fn flush(&mut self) -> io::Result<()> {
        self.send()
    }
}

/// The file with its content type, and as an attachment when it has a name.
fn file_response(
    mut response: warp::reply::Response,
    format: ExportFormat,
    filename: Option<String>,
) -> warp::reply::Response {
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static(format.content_type()));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Some(name) = filename
        && let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\""))
    {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    response
}
