//! /api/privacy: a site's privacy settings, retention days and consent log (owner only).

use serde::Deserialize;
use serde_json::Value;
use tracker_core::Tracker;
use tracker_core::model::UserId;
use tracker_core::privacy::{PrivacyUpdate, RetentionUpdate};
use warp::{Filter, Rejection, Reply};

use super::{api_body, body_website_id, parse_website_id, site_json, user, with_tracker};

#[derive(Deserialize)]
struct SiteQuery {
    website_id: Option<String>,
}

/// `PUT /api/privacy/settings`: the site plus the changed fields.
#[derive(Deserialize)]
#[serde(rename_all = "camelCase")]
struct SettingsBody {
    website_id: Option<Value>,
    #[serde(flatten)]
    update: PrivacyUpdate,
}

/// `PUT /api/privacy/retention`: the site plus the changed days.
#[derive(Deserialize)]
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
    let consent_logs =
        base.and(warp::path!("consent-logs")).and(warp::get()).and(warp::query::<SiteQuery>()).and_then(consent_logs);
    settings.or(update_settings).or(retention).or(update_retention).or(consent_logs)
}

async fn settings(tracker: Tracker, user: UserId, query: SiteQuery) -> Result<impl Reply, Rejection> {
    let site = parse_website_id(query.website_id.as_deref())?;
    site_json(tracker, user, site, move |tracker| tracker.privacy.settings(site)).await
}

async fn update_settings(tracker: Tracker, user: UserId, body: SettingsBody) -> Result<impl Reply, Rejection> {
    let site = body_website_id(body.website_id.as_ref())?;
    site_json(tracker, user, site, move |tracker| tracker.privacy.update_settings(site, body.update)).await
}

async fn retention(tracker: Tracker, user: UserId, query: SiteQuery) -> Result<impl Reply, Rejection> {
    let site = parse_website_id(query.website_id.as_deref())?;
    site_json(tracker, user, site, move |tracker| tracker.privacy.retention(site)).await
}

async fn update_retention(tracker: Tracker, user: UserId, body: RetentionBody) -> Result<impl Reply, Rejection> {
    let site = body_website_id(body.website_id.as_ref())?;
    site_json(tracker, user, site, move |tracker| tracker.privacy.update_retention(site, body.update)).await
}

async fn consent_logs(tracker: Tracker, user: UserId, query: SiteQuery) -> Result<impl Reply, Rejection> {
    let site = parse_website_id(query.website_id.as_deref())?;
    site_json(tracker, user, site, move |tracker| tracker.privacy.consent_logs(site)).await
}
