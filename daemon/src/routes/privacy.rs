//! /api/privacy: a site's privacy settings, retention days and consent log (owner only).

use serde::Deserialize;
use serde_json::Value;
use tracker_core::Tracker;
use tracker_core::model::Caller;
use tracker_core::privacy::{
    Actor, AuditAction, CONSENT_LOG_LIMIT, ConsentLog, PrivacySettings, PrivacyUpdate, Retention, RetentionUpdate,
};
use warp::{Filter, Rejection, Reply};

use super::{api_body, body_website_id, parse_website_id, site_json, user, with_tracker};
use crate::error::{ErrorBody, reject};

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct SiteQuery {
    #[param(value_type = Option<i64>)]
    website_id: Option<String>,
}

/// `GET /api/privacy/consent-logs`: the site, and optionally a page (`offset`, `limit` up to 100).
#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct ConsentQuery {
    #[param(value_type = Option<i64>)]
    website_id: Option<String>,
    offset: Option<String>,
    limit: Option<String>,
}

/// `PUT /api/privacy/settings`: the site plus the changed fields.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct SettingsBody {
    website_id: Option<Value>,
    #[serde(flatten)]
    update: PrivacyUpdate,
}

/// `PUT /api/privacy/retention`: the site plus the changed days.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
struct RetentionBody {
    website_id: Option<Value>,
    #[serde(flatten)]
    update: RetentionUpdate,
}

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let base = warp::path("privacy").and(with_tracker(tracker.clone())).and(user(tracker));
    let settings =
        base.clone().and(warp::path!("settings")).and(warp::get()).and(warp::query::<SiteQuery>()).and_then(settings);
    let update_settings =
        base.clone().and(warp::path!("settings")).and(warp::put()).and(api_body()).and_then(update_settings);
    let retention =
        base.clone().and(warp::path!("retention")).and(warp::get()).and(warp::query::<SiteQuery>()).and_then(retention);
    let update_retention =
        base.clone().and(warp::path!("retention")).and(warp::put()).and(api_body()).and_then(update_retention);
    let consent_logs = base
        .and(warp::path!("consent-logs"))
        .and(warp::get())
        .and(warp::query::<ConsentQuery>())
        .and_then(consent_logs);
    settings.or(update_settings).or(retention).or(update_retention).or(consent_logs)
}

#[utoipa::path(
    get,
    path = "/api/privacy/settings",
    tag = "privacy",
    operation_id = "privacySettings",
    params(SiteQuery),
    responses((status = 200, description = "The site's privacy settings", body = PrivacySettings), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn settings(tracker: Tracker, user: Caller, query: SiteQuery) -> Result<impl Reply, Rejection> {
    let site = parse_website_id(query.website_id.as_deref())?;
    site_json(tracker, user, site, move |tracker| tracker.privacy.settings(site)).await
}

#[utoipa::path(
    put,
    path = "/api/privacy/settings",
    tag = "privacy",
    operation_id = "updatePrivacySettings",
    request_body(content = SettingsBody, content_type = "application/json"),
    responses((status = 200, description = "The settings as changed", body = PrivacySettings), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn update_settings(tracker: Tracker, user: Caller, body: SettingsBody) -> Result<impl Reply, Rejection> {
    let site = body_website_id(body.website_id.as_ref())?;
    site_json(tracker, user, site, move |tracker| {
        let before = serde_json::to_value(tracker.privacy.settings(site)?).unwrap_or_default();
        let after = tracker.privacy.update_settings(site, body.update)?;
        let changes = changed(&before, &serde_json::to_value(&after).unwrap_or_default());
        if !changes.is_empty() {
            tracker.privacy.record_audit(
                site,
                Actor::User(user.user),
                AuditAction::SettingsChanged,
                Value::Object(changes),
            )?;
        }
        Ok(after)
    })
    .await
}

/// The fields whose values differ, with their new values (what the audit log keeps of a change).
fn changed(before: &Value, after: &Value) -> serde_json::Map<String, Value> {
    let (Some(before), Some(after)) = (before.as_object(), after.as_object()) else { return Default::default() };
    after.iter().filter(|(k, v)| before.get(*k) != Some(*v)).map(|(k, v)| (k.clone(), v.clone())).collect()
}

#[utoipa::path(
    get,
    path = "/api/privacy/retention",
    tag = "privacy",
    operation_id = "retention",
    params(SiteQuery),
    responses((status = 200, description = "Days kept per data type", body = Retention), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn retention(tracker: Tracker, user: Caller, query: SiteQuery) -> Result<impl Reply, Rejection> {
    let site = parse_website_id(query.website_id.as_deref())?;
    site_json(tracker, user, site, move |tracker| tracker.privacy.retention(site)).await
}

#[utoipa::path(
    put,
    path = "/api/privacy/retention",
    tag = "privacy",
    operation_id = "updateRetention",
    request_body(content = RetentionBody, content_type = "application/json"),
    responses((status = 200, description = "The days as changed", body = Retention), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn update_retention(tracker: Tracker, user: Caller, body: RetentionBody) -> Result<impl Reply, Rejection> {
    let site = body_website_id(body.website_id.as_ref())?;
    site_json(tracker, user, site, move |tracker| {
        let before = serde_json::to_value(tracker.privacy.retention(site)?).unwrap_or_default();
        let after = tracker.privacy.update_retention(site, body.update)?;
        let changes = changed(&before, &serde_json::to_value(after).unwrap_or_default());
        if !changes.is_empty() {
            tracker.privacy.record_audit(
                site,
                Actor::User(user.user),
                AuditAction::RetentionChanged,
                Value::Object(changes),
            )?;
        }
        Ok(after)
    })
    .await
}

#[utoipa::path(
    get,
    path = "/api/privacy/consent-logs",
    tag = "privacy",
    operation_id = "consentLogs",
    params(ConsentQuery),
    responses((status = 200, description = "Recent consent decisions", body = Vec<ConsentLog>), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn consent_logs(tracker: Tracker, user: Caller, query: ConsentQuery) -> Result<impl Reply, Rejection> {
    let site = parse_website_id(query.website_id.as_deref())?;
    let whole = |name: &str, raw: Option<&str>, default: i64| match raw {
        None => Ok(default),
        Some(raw) => raw
            .trim()
            .parse::<i64>()
            .ok()
            .filter(|n| *n >= 0)
            .ok_or_else(|| reject(tracker_core::Error::invalid(format!("{name} must be a whole number")))),
    };
    let offset = whole("offset", query.offset.as_deref(), 0)?;
    let limit = whole("limit", query.limit.as_deref(), CONSENT_LOG_LIMIT)?;
    site_json(tracker, user, site, move |tracker| tracker.privacy.consent_logs_page(site, offset, limit)).await
}
