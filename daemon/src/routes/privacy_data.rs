//! The privacy panel's exports and audit: GET /api/privacy/export-data (a site's page views, events or
//! sessions as a JSON download), GET /api/privacy/audit-logs, and one visitor's access and erasure
//! (GET /api/privacy/visitor-data, POST /api/privacy/delete-visitor), the same core calls as
//! `tracker privacy export|delete --visitor`. Each action is written to the site's audit log.

use serde::Deserialize;
use serde_json::{Value, json};
use tracker_core::export::{ExportFormat, ExportKind, ExportQuery};
use tracker_core::model::{Caller, WebsiteId, now_ms};
use tracker_core::privacy::{Actor, AuditAction, visitor_id};
use tracker_core::{Error, Tracker};
use warp::http::{HeaderValue, header};
use warp::{Filter, Rejection, Reply};

use super::export::stream_body;
use super::{api_body, blocking, body_website_id, parse_website_id, site_json, user, with_tracker};
use tracker_core::privacy::{AuditPage, VisitorDeletion};

use crate::error::{ErrorBody, reject};

/// What `POST /api/privacy/delete-visitor` answers: the total and the rows per table.
#[derive(serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct VisitorDeleted {
    records_deleted: u64,
    deleted: VisitorDeletion,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct ExportDataQuery {
    #[param(value_type = Option<i64>)]
    website_id: Option<String>,
    data_type: Option<String>,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct AuditQuery {
    #[param(value_type = Option<i64>)]
    website_id: Option<String>,
    offset: Option<String>,
    limit: Option<String>,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct VisitorQuery {
    #[param(value_type = Option<i64>)]
    website_id: Option<String>,
    visitor_id: Option<String>,
}

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct DeleteVisitorBody {
    #[schema(value_type = Option<i64>)]
    website_id: Option<Value>,
    visitor_id: Option<String>,
}

/// What export-data can hold (spec part 2 §7).
#[derive(Debug, Clone, Copy)]
enum DataType {
    Pageviews,
    Events,
    Sessions,
}

impl DataType {
    fn parse(raw: Option<&str>) -> Result<DataType, Rejection> {
        match raw.unwrap_or("") {
            "pageviews" => Ok(DataType::Pageviews),
            "events" => Ok(DataType::Events),
            "sessions" => Ok(DataType::Sessions),
            _ => Err(reject(Error::invalid("data_type must be pageviews, events or sessions"))),
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            DataType::Pageviews => "pageviews",
            DataType::Events => "events",
            DataType::Sessions => "sessions",
        }
    }
}

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let base = warp::path("privacy").and(with_tracker(tracker.clone())).and(user(tracker));
    let export = base
        .clone()
        .and(warp::path!("export-data"))
        .and(warp::get())
        .and(warp::query::<ExportDataQuery>())
        .and_then(export_data);
    let audit =
        base.clone().and(warp::path!("audit-logs")).and(warp::get()).and(warp::query::<AuditQuery>()).and_then(audit);
    let visitor = base
        .clone()
        .and(warp::path!("visitor-data"))
        .and(warp::get())
        .and(warp::query::<VisitorQuery>())
        .and_then(visitor_data);
    let delete_visitor =
        base.and(warp::path!("delete-visitor")).and(warp::post()).and(api_body()).and_then(delete_visitor);
    export.or(audit).or(visitor).or(delete_visitor)
}

/// A whole number query parameter (absent: `default`).
fn number(name: &str, raw: Option<&str>, default: i64) -> Result<i64, Rejection> {
    match raw {
        None => Ok(default),
        Some(raw) => raw
            .trim()
            .parse::<i64>()
            .ok()
            .filter(|n| *n >= 0)
            .ok_or_else(|| reject(Error::invalid(format!("{name} must be a whole number")))),
    }
}

#[utoipa::path(
    get,
    path = "/api/privacy/export-data",
    tag = "privacy",
    operation_id = "privacyExportData",
    params(ExportDataQuery),
    responses((status = 200, description = "The rows as a JSON download (an array, streamed as it is read)", body = Vec<serde_json::Value>), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn export_data(tracker: Tracker, user: Caller, query: ExportDataQuery) -> Result<impl Reply, Rejection> {
    let site = parse_website_id(query.website_id.as_deref())?;
    let data = DataType::parse(query.data_type.as_deref())?;
    let owner = tracker.clone();
    blocking(move || owner.websites.get(user, site).map(drop)).await?;
    // Streamed as it is read, so a download of any size costs a page of rows; the audit row (with the count)
    // is written before the body ends.
    let mut response = stream_body(site, move |out| {
        let rows = match data {
            DataType::Sessions => tracker.events.export_sessions(site, &mut *out)?,
            DataType::Pageviews | DataType::Events => {
                let kind = if matches!(data, DataType::Pageviews) { ExportKind::Pageviews } else { ExportKind::Events };
                tracker.events.write_export(
                    &ExportQuery::new(site, kind),
                    ExportFormat::Json,
                    &mut *out,
                    &mut |_| {},
                )?
            }
        };
        tracker.privacy.record_audit(
            site,
            Actor::User(user.user),
            AuditAction::DataExported,
            json!({ "dataType": data.as_str(), "rows": rows }),
        )
    });
    let date = tracker_core::model::iso(now_ms());
    let name = format!("{}-export-{}.json", data.as_str(), &date[..10]);
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\"")) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    Ok(response)
}

#[utoipa::path(
    get,
    path = "/api/privacy/audit-logs",
    tag = "privacy",
    operation_id = "privacyAuditLogs",
    params(AuditQuery),
    responses((status = 200, description = "A page of the site's privacy audit log, newest first", body = AuditPage), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn audit(tracker: Tracker, user: Caller, query: AuditQuery) -> Result<impl Reply, Rejection> {
    let site = parse_website_id(query.website_id.as_deref())?;
    let offset = number("offset", query.offset.as_deref(), 0)?;
    let limit = number("limit", query.limit.as_deref(), 10)?;
    site_json(tracker, user, site, move |tracker| tracker.privacy.audit_logs(site, offset, limit)).await
}

#[utoipa::path(
    get,
    path = "/api/privacy/visitor-data",
    tag = "privacy",
    operation_id = "privacyVisitorData",
    params(VisitorQuery),
    responses((status = 200, description = "Everything stored about one visitor, as a JSON download", body = serde_json::Value), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn visitor_data(tracker: Tracker, user: Caller, query: VisitorQuery) -> Result<impl Reply, Rejection> {
    let site = parse_website_id(query.website_id.as_deref())?;
    let visitor = visitor_id(query.visitor_id.as_deref().unwrap_or("")).map_err(reject)?;
    let (data, name) = blocking(move || {
        tracker.websites.get(user, site)?;
        let data = tracker.events.visitor_data(site, &visitor)?;
        tracker.privacy.record_audit(
            site,
            Actor::User(user.user),
            AuditAction::VisitorExported,
            json!({ "visitorId": visitor }),
        )?;
        Ok((data, visitor))
    })
    .await?;
    let body = serde_json::to_vec_pretty(&data).map_err(|e| reject(Error::Internal(e.to_string())))?;
    let safe: String =
        name.chars().map(|c| if c.is_ascii_alphanumeric() || c == '-' { c } else { '_' }).take(40).collect();
    Ok(json_file(body, &format!("visitor-{safe}.json"), 1))
}

#[utoipa::path(
    post,
    path = "/api/privacy/delete-visitor",
    tag = "privacy",
    operation_id = "privacyDeleteVisitor",
    request_body(content = DeleteVisitorBody, content_type = "application/json"),
    responses((status = 200, description = "What was deleted", body = VisitorDeleted), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn delete_visitor(tracker: Tracker, user: Caller, body: DeleteVisitorBody) -> Result<impl Reply, Rejection> {
    let site: WebsiteId = body_website_id(body.website_id.as_ref())?;
    let visitor = visitor_id(body.visitor_id.as_deref().unwrap_or("")).map_err(reject)?;
    let report = blocking(move || {
        tracker.websites.get(user, site)?;
        let report = tracker.events.delete_visitor(site, &visitor)?;
        tracker.privacy.record_audit(
            site,
            Actor::User(user.user),
            AuditAction::VisitorDeleted,
            json!({ "visitorId": visitor, "recordsDeleted": report.records_deleted() }),
        )?;
        Ok(report)
    })
    .await?;
    Ok(warp::reply::json(&VisitorDeleted { records_deleted: report.records_deleted(), deleted: report }))
}

/// A JSON attachment, never cached; `X-Record-Count` says how many rows it holds.
fn json_file(body: Vec<u8>, name: &str, rows: u64) -> warp::reply::Response {
    let mut response = warp::reply::Response::new(body.into());
    let headers = response.headers_mut();
    headers.insert(header::CONTENT_TYPE, HeaderValue::from_static("application/json"));
    headers.insert(header::CACHE_CONTROL, HeaderValue::from_static("no-store"));
    if let Ok(value) = HeaderValue::from_str(&format!("attachment; filename=\"{name}\"")) {
        headers.insert(header::CONTENT_DISPOSITION, value);
    }
    headers.insert("x-record-count", HeaderValue::from(rows));
    response
}
