//! POST /api/privacy/delete-data {websiteId, dataType}: deletes a site's page views, events or all data
//! (spec part 2) through the core deletion, the same as `tracker privacy delete`; on every shard in cluster mode.

use serde::{Deserialize, Serialize};
use serde_json::Value;
use tracker_core::Tracker;
use tracker_core::model::Caller;
use tracker_core::privacy::{Actor, AuditAction, DataType, DeletionReport};
use warp::{Filter, Rejection, Reply};

use super::{api_body, blocking, parse_website_id, user, with_tracker};
use crate::error::{ErrorBody, reject};

#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct DeleteDataRequest {
    /// A number or a numeric string.
    website_id: Option<Value>,
    data_type: Option<String>,
}

/// What a deletion removed: the total and the rows per table.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct DeleteDataResponse {
    records_deleted: u64,
    deleted: DeletionReport,
}

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    warp::path!("privacy" / "delete-data")
        .and(warp::post())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker))
        .and(api_body())
        .and_then(delete_data)
}

#[utoipa::path(
    post,
    path = "/api/privacy/delete-data",
    tag = "privacy",
    operation_id = "deleteData",
    request_body(content = DeleteDataRequest, content_type = "application/json"),
    responses((status = 200, description = "What was deleted", body = DeleteDataResponse), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn delete_data(tracker: Tracker, user: Caller, body: DeleteDataRequest) -> Result<impl Reply, Rejection> {
    let raw_id = match &body.website_id {
        Some(Value::Number(n)) => Some(n.to_string()),
        Some(Value::String(s)) => Some(s.clone()),
        _ => None,
    };
    let site = parse_website_id(raw_id.as_deref())?;
    let data = DataType::parse(body.data_type.as_deref().unwrap_or("")).map_err(reject)?;
    let report = blocking(move || {
        tracker.websites.get(user, site)?;
        let report = tracker.events.delete_data(site, data, None)?;
        tracker.privacy.record_audit(
            site,
            Actor::User(user.user),
            AuditAction::DataDeleted,
            serde_json::json!({ "dataType": data.as_str(), "recordsDeleted": report.records_deleted() }),
        )?;
        Ok(report)
    })
    .await?;
    Ok(warp::reply::json(&DeleteDataResponse { records_deleted: report.records_deleted(), deleted: report }))
}
