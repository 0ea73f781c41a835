//! Exports: GET /api/websites/{id}/export?format=csv|json (the whole site, spec part 1) and
//! GET /api/export/{pageviews|events}?website_id= (the 10,000 most recent rows as CSV, spec part 2).
//! Both use the core export writer, the same as `tracker export`.
//!
//! warp 0.4 has no public streaming body, so the file is written into memory on a blocking thread and sent
//! whole; the site export refuses more than `MAX_SITE_EXPORT_ROWS` rows (the CLI streams any size).

use serde::Deserialize;
use tracker_core::export::{ExportFormat, ExportKind, ExportQuery};
use tracker_core::model::{UserId, WebsiteId};
use tracker_core::{Error, Tracker};
use warp::http::{HeaderValue, header};
use warp::{Filter, Rejection, Reply};

use super::dashboard::range_of;
use super::{blocking, parse_website_id, user, with_tracker};
use crate::error::{ErrorBody, reject};

/// Most rows the whole-site export sends in one response.
pub const MAX_SITE_EXPORT_ROWS: u64 = 1_000_000;
/// Rows of the per-type export (spec part 2: "up to 10,000 recent records").
pub const RECENT_EXPORT_ROWS: u64 = 10_000;

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct SiteExportQuery {
    format: Option<String>,
    /// Optional: only the rows of a dashboard range (`7d`, `30d`, ...); all history without it.
    range: Option<String>,
    #[serde(rename = "type")]
    kind: Option<String>,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct TypeExportQuery {
    #[param(value_type = Option<i64>)]
    website_id: Option<String>,
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
    user: UserId,
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
    let body = blocking(move || {
        tracker.websites.get(user, site)?;
        let query =
            ExportQuery { since: range.map(|r| r.start), until: range.map(|r| r.end), ..ExportQuery::new(site, kind) };
        if tracker.export.count(&query)? > MAX_SITE_EXPORT_ROWS {
            return Err(Error::invalid("too many rows for one download; use `tracker export` on the server"));
        }
        let mut body = Vec::new();
        tracker.export.write(&query, format, &mut body, |_| {})?;
        Ok(body)
    })
    .await?;
    let filename = (format != ExportFormat::Json).then(|| format!("analytics-{site}.{}", format.extension()));
    Ok(file_response(body, format, filename))
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
    user: UserId,
    query: TypeExportQuery,
) -> Result<warp::reply::Response, Rejection> {
    let kind = match kind.as_str() {
        "pageviews" => ExportKind::Pageviews,
        "events" => ExportKind::Events,
        _ => return Err(warp::reject::not_found()),
    };
    let site = parse_website_id(query.website_id.as_deref())?;
    let body = blocking(move || {
        tracker.websites.get(user, site)?;
        let query = ExportQuery { limit: Some(RECENT_EXPORT_ROWS), newest_first: true, ..ExportQuery::new(site, kind) };
        let mut body = Vec::new();
        tracker.export.write(&query, ExportFormat::Csv, &mut body, |_| {})?;
        Ok(body)
    })
    .await?;
    let filename = format!("{}-{site}.csv", kind.as_str());
    Ok(file_response(body, ExportFormat::Csv, Some(filename)))
}

/// The file with its content type, and as an attachment when it has a name.
fn file_response(body: Vec<u8>, format: ExportFormat, filename: Option<String>) -> warp::reply::Response {
    let mut response = warp::reply::Response::new(body.into());
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
