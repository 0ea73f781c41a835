//! Event definitions, the events summary and the property keys of a site: /api/websites/{id}/event-definitions
//! (list, create, and per definition PUT and DELETE), /api/websites/{id}/events/summary and
//! /api/websites/{id}/events/property-keys.

use serde::{Deserialize, Serialize};
use tracker_core::analytics::EventSummary;
use tracker_core::model::{Caller, WebsiteId, now_ms};
use tracker_core::store::event_definitions::{EventDefinition, NewEventDefinition};
use tracker_core::{Error, Tracker};
use warp::http::StatusCode;
use warp::{Filter, Rejection, Reply};

use super::dashboard::{filters_of, period_of};
use super::{api_body, blocking, site_json, user, with_tracker};
use crate::error::{ErrorBody, reject};

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
#[serde(rename_all = "camelCase")]
struct SummaryQuery {
    /// 24h, 7d or 30d (the Events screen's choices; 7d by default).
    time_range: Option<String>,
    #[serde(rename = "time_range")]
    time_range_snake: Option<String>,
    /// Any period of the other reads (API.md "Periods") in place of `timeRange`.
    range: Option<String>,
    /// First day, YYYY-MM-DD, with `to` in place of a range (UTC days).
    from: Option<String>,
    /// Last day, YYYY-MM-DD, included.
    to: Option<String>,
    /// Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","visit:country",["DE"]]]` (API.md "Filters").
    filters: Option<String>,
}

#[derive(Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
struct PropertyKeysQuery {
    /// Any period of the other reads (API.md "Periods"), 30 days by default.
    range: Option<String>,
    /// First day, YYYY-MM-DD, with `to` in place of `range` (UTC days).
    from: Option<String>,
    /// Last day, YYYY-MM-DD, included.
    to: Option<String>,
    /// Plausible Stats API v2 filters as URL-encoded JSON, e.g. `[["is","event:name",["Signup"]]]` (API.md
    /// "Filters"): the keys of the events they admit.
    filters: Option<String>,
    /// How many keys, 1 to 100 (20 by default).
    limit: Option<String>,
}

/// The property keys of a site's events, most carried first.
#[derive(Serialize, utoipa::ToSchema)]
struct PropertyKeys {
    keys: Vec<PropertyKey>,
}

/// A property key (as `prop:<key>` and `event:props:<key>` name it) and how many of the events carry it.
#[derive(Serialize, utoipa::ToSchema)]
struct PropertyKey {
    key: String,
    events: i64,
}

/// Keys a property-keys read answers by default, and at most.
const PROPERTY_KEYS_DEFAULT_LIMIT: i64 = 20;
const PROPERTY_KEYS_MAX_LIMIT: i64 = 100;

pub fn routes(tracker: Tracker) -> impl Filter<Extract = (impl Reply,), Error = Rejection> + Clone {
    let list = warp::path!("websites" / WebsiteId / "event-definitions")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker.clone()))
        .and_then(list);
    let create = warp::path!("websites" / WebsiteId / "event-definitions")
        .and(warp::post())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker.clone()))
        .and(api_body())
        .and_then(create);
    let update = warp::path!("websites" / WebsiteId / "event-definitions" / i64)
        .and(warp::put())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker.clone()))
        .and(api_body())
        .and_then(update);
    let delete = warp::path!("websites" / WebsiteId / "event-definitions" / i64)
        .and(warp::delete())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker.clone()))
        .and_then(delete);
    let summary = warp::path!("websites" / WebsiteId / "events" / "summary")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker.clone()))
        .and(warp::query::<SummaryQuery>())
        .and_then(summary);
    let property_keys = warp::path!("websites" / WebsiteId / "events" / "property-keys")
        .and(warp::get())
        .and(with_tracker(tracker.clone()))
        .and(user(tracker))
        .and(warp::query::<PropertyKeysQuery>())
        .and_then(property_keys);
    list.or(create).or(update).or(delete).or(summary).or(property_keys)
}

#[utoipa::path(
    get,
    path = "/api/websites/{id}/event-definitions",
    tag = "events",
    operation_id = "listEventDefinitions",
    params(("id" = i64, Path, description = "Website id")),
    responses((status = 200, description = "The site's event definitions", body = Vec<EventDefinition>), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn list(site: WebsiteId, tracker: Tracker, user: Caller) -> Result<impl Reply, Rejection> {
    site_json(tracker, user, site, move |tracker| tracker.definitions.list(site)).await
}

#[utoipa::path(
    post,
    path = "/api/websites/{id}/event-definitions",
    tag = "events",
    operation_id = "createEventDefinition",
    params(("id" = i64, Path, description = "Website id")),
    request_body(content = NewEventDefinition, content_type = "application/json"),
    responses((status = 201, description = "Created", body = EventDefinition), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn create(
    site: WebsiteId,
    tracker: Tracker,
    user: Caller,
    body: NewEventDefinition,
) -> Result<impl Reply, Rejection> {
    let definition = blocking(move || {
        tracker.websites.get(user, site)?;
        tracker.definitions.create(site, body)
    })
    .await?;
    Ok(warp::reply::with_status(warp::reply::json(&definition), StatusCode::CREATED))
}

#[utoipa::path(
    put,
    path = "/api/websites/{id}/event-definitions/{definitionId}",
    tag = "events",
    operation_id = "updateEventDefinition",
    params(("id" = i64, Path, description = "Website id"), ("definitionId" = i64, Path, description = "Definition id")),
    request_body(content = NewEventDefinition, content_type = "application/json"),
    responses((status = 200, description = "The changed definition", body = EventDefinition), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn update(
    site: WebsiteId,
    id: i64,
    tracker: Tracker,
    user: Caller,
    changes: NewEventDefinition,
) -> Result<impl Reply, Rejection> {
    site_json(tracker, user, site, move |tracker| tracker.definitions.update(site, id, changes)).await
}

#[utoipa::path(
    delete,
    path = "/api/websites/{id}/event-definitions/{definitionId}",
    tag = "events",
    operation_id = "deleteEventDefinition",
    params(("id" = i64, Path, description = "Website id"), ("definitionId" = i64, Path, description = "Definition id")),
    responses((status = 204, description = "Deleted"), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn delete(site: WebsiteId, id: i64, tracker: Tracker, user: Caller) -> Result<impl Reply, Rejection> {
    blocking(move || {
        tracker.websites.get(user, site)?;
        tracker.definitions.delete(site, id)
    })
    .await?;
    Ok(StatusCode::NO_CONTENT)
}

#[utoipa::path(
    get,
    path = "/api/websites/{id}/events/summary",
    tag = "events",
    operation_id = "eventsSummary",
    params(("id" = i64, Path, description = "Website id"), SummaryQuery),
    responses((status = 200, description = "Event totals and the top events", body = EventSummary), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn summary(
    site: WebsiteId,
    tracker: Tracker,
    user: Caller,
    query: SummaryQuery,
) -> Result<impl Reply, Rejection> {
    let screen_range = query.time_range.or(query.time_range_snake);
    if let Some(name) = &screen_range
        && !matches!(name.as_str(), "24h" | "1d" | "7d" | "30d")
    {
        return Err(reject(Error::invalid("timeRange must be 24h, 7d or 30d")));
    }
    let period = period_of(&screen_range.or(query.range), &query.from, &query.to, "7d")?;
    let filters = filters_of(query.filters.as_deref())?;
    site_json(tracker, user, site, move |tracker| {
        let range = tracker.events.range_of(site, period, now_ms())?;
        let definitions = || {
            let mut all: Vec<(i64, String)> =
                tracker.definitions.list(site)?.into_iter().map(|d| (d.id, d.name)).collect();
            all.sort_unstable();
            Ok(all)
        };
        tracker.events.events_summary_where(site, range, &filters, definitions)
    })
    .await
}

/// The property keys the site's events of a period carry, among what `filters` admits (the Event Properties card
/// names one event with `event:name`), most carried first: what a `prop:<key>` breakdown can take.
#[utoipa::path(
    get,
    path = "/api/websites/{id}/events/property-keys",
    tag = "events",
    operation_id = "eventPropertyKeys",
    params(("id" = i64, Path, description = "Website id"), PropertyKeysQuery),
    responses((status = 200, description = "Property keys, most carried first", body = PropertyKeys), (status = "4XX", description = "Refused: bad input, no valid sign-in, or not found (another user's id too)", body = ErrorBody)),
    security(("bearer" = []))
)]
async fn property_keys(
    site: WebsiteId,
    tracker: Tracker,
    user: Caller,
    query: PropertyKeysQuery,
) -> Result<impl Reply, Rejection> {
    let period = period_of(&query.range, &query.from, &query.to, "30d")?;
    let filters = filters_of(query.filters.as_deref())?;
    let limit = match query.limit.as_deref() {
        None => PROPERTY_KEYS_DEFAULT_LIMIT,
        Some(raw) => raw
            .parse()
            .ok()
            .filter(|n| (1..=PROPERTY_KEYS_MAX_LIMIT).contains(n))
            .ok_or_else(|| reject(Error::invalid("limit must be a whole number from 1 to 100")))?,
    };
    site_json(tracker, user, site, move |tracker| {
        let range = tracker.events.range_of(site, period, now_ms())?;
        let keys = tracker.events.filtered_property_keys(site, range, &filters, limit)?;
        Ok(PropertyKeys { keys: keys.into_iter().map(|(key, events)| PropertyKey { key, events }).collect() })
    })
    .await
}
