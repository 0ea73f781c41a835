//! Who is on a site right now: sessions seen in the last five minutes, for the live SSE feed (part 1) and the
//! visitor stream (part 2), with today's new visitors and conversions from the day's rollup row.

use std::collections::HashMap;

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, params, params_from_iter};
use serde::Serialize;

use super::Analytics;
use crate::error::{Error, Result};
use crate::events::{Filters, admitted_visit_condition};
use crate::model::{Millis, WebsiteId, now_ms, ser_iso};

/// A session counts as active when seen within this window (spec part 1 §9).
pub const ACTIVE_WINDOW_MS: Millis = 5 * 60 * 1000;

/// Most sessions a live snapshot lists.
pub(crate) const LIVE_LIMIT: i64 = 200;

/// An item of the live feed (spec part 1 §3 "Active session", plus where the visitor is).
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActiveSession {
    pub id: i64,
    pub session_id: String,
    pub ip_address: Option<String>,
    #[serde(serialize_with = "ser_iso")]
    #[schema(value_type = String, format = DateTime)]
    pub last_seen: Millis,
    pub current_page: String,
    pub country: String,
    pub device: String,
    pub browser: String,
}

impl Analytics {
    /// Sessions of a site seen in the last five minutes, most recent first.
    pub fn active_sessions(&self, site: WebsiteId) -> Result<Vec<ActiveSession>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id, session_key, ip_address, last_seen, exit_page, country, device, browser
                 FROM sessions WHERE website_id = ?1 AND last_seen >= ?2 ORDER BY last_seen DESC LIMIT ?3",
            )?;
            let rows = stmt.query_map(params![site, now_ms() - ACTIVE_WINDOW_MS, LIVE_LIMIT], |r| {
                Ok(ActiveSession {
                    id: r.get(0)?,
                    session_id: r.get(1)?,
                    ip_address: r.get(2)?,
                    last_seen: r.get(3)?,
                    current_page: r.get(4)?,
                    country: r.get(5)?,
                    device: r.get(6)?,
                    browser: r.get(7)?,
                })
            })?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }
}

/// Sessions listed by the visitor stream (the most recently seen first).
pub const STREAM_LIMIT: i64 = 50;

/// Pages listed in the live summary's top pages (spec part 2 §9: top pages capped at 5).
pub(crate) const TOP_PAGES: i64 = 5;

/// A listed session counts as active right now (a pulsing dot, not just "seen in the last five minutes")
/// when its last hit is this recent.
pub(crate) const ACTIVE_NOW_MS: Millis = 60 * 1000;

/// `GET /api/analytics/live-visitors` (spec part 2 §3, "Live visitors summary").
#[derive(Debug, Clone, Serialize, PartialEq, Default, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LiveVisitors {
    /// Active visitors: visits seen in the last five minutes (`ACTIVE_WINDOW_MS`), the one definition every
    /// screen and the CLI count, so the figure equals the sessions listed. Distinct visitor hashes would merge
    /// people behind one address with the same browser, while the list shows each of them.
    pub total_active_visitors: i64,
    /// Visitors whose first visit of the UTC day began today: first-time within the daily salt's reach.
    pub new_visitors_today: i64,
    /// Conversion events since the start of the UTC day.
    pub conversions_today: i64,
    /// The pages active visitors are on now, most visitors first (at most five).
    pub top_pages: Vec<LivePage>,
    /// The active sessions, most recently seen first (at most [`STREAM_LIMIT`]).
    pub recent_sessions: Vec<StreamSession>,
}

/// A page of the live summary and how many active visitors (visits) are on it.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LivePage {
    pub page: String,
    pub visitors: i64,
}

/// A session of the visitor stream (spec part 2 §3, "Session (visitor stream)").
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StreamSession {
    pub id: i64,
    /// The session's site, for the per-session journey call when the stream spans several sites.
    pub website_id: WebsiteId,
    pub country: String,
    /// Empty unless the operator set `geo_city_db`.
    pub region: String,
    /// Empty unless the operator set `geo_city_db`.
    pub city: String,
    /// "desktop", "mobile", "tablet" or "" (the screen shows "Desktop" then).
    pub device_type: String,
    pub browser: String,
    pub os: String,
    #[schema(value_type = String, format = DateTime)]
    #[serde(serialize_with = "ser_iso")]
    pub first_seen: Millis,
    #[schema(value_type = String, format = DateTime)]
    #[serde(serialize_with = "ser_iso")]
    pub last_seen: Millis,
    pub is_converted: bool,
    pub conversion_value: f64,
    /// Seconds from the first to the latest hit.
    pub session_duration: i64,
    pub page_view_count: i64,
    pub entry_page: String,
    pub exit_page: String,
    pub utm_source: String,
    pub referrer: String,
    pub current_activity: CurrentActivity,
}

/// What a visitor is doing now: the page they are on and, when their latest hit was not a page view, what it
/// was ("" after a page view: the screen then shows "Viewing: {page}").
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CurrentActivity {
    /// The latest hit is under a minute old.
    pub is_active: bool,
    pub activity: String,
    pub current_page: String,
}

impl Analytics {
    /// The visitor stream over `sites` (one or all of a user's sites): active visitors, today's new visitors
    /// and conversions from the day's rollup row, the pages visitors are on, and the latest sessions; the active
    /// ones of them `filters` admit (the day's figures are the site's: `EventStore::live_visitors_where`
    /// counts them under filters).
    pub fn live_visitors(&self, sites: &[WebsiteId], filters: &Filters) -> Result<LiveVisitors> {
        let now = now_ms();
        let since = now - ACTIVE_WINDOW_MS;
        let (admitted, values) = admitted_visit_condition(filters, 2);
        let bound = |site: WebsiteId| {
            let site_since: [Value; 2] = [site.into(), since.into()];
            site_since.into_iter().chain(values.iter().cloned()).collect::<Vec<Value>>()
        };
        self.db.read(|conn| {
            let mut live = LiveVisitors::default();
            let mut pages: HashMap<String, i64> = HashMap::new();
            for &site in sites {
                live.total_active_visitors += conn
                    .prepare_cached(&format!(
                        "SELECT COUNT(*) FROM sessions s WHERE s.website_id = ?1 AND s.last_seen >= ?2 AND {admitted}"
                    ))?
                    .query_row(params_from_iter(bound(site)), |r| r.get::<_, i64>(0))?;
                // The day's totals row: `visitors` counts each daily-salted visitor hash once, on the day its
                // first visit began (see DayVisitors in the ingest writer); the site's local day.
                let tz = crate::privacy::deletion::site_zone(conn, site)?;
                let today = super::local_time::day_start(tz, now) / 1000;
                let (visitors, conversions) = conn
                    .prepare_cached(
                        "SELECT visitors, conversions FROM rollup_days
                         WHERE website_id = ?1 AND dim = '' AND bucket = ?2 AND value = ''",
                    )?
                    .query_row(params![site, today], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, i64>(1)?)))
                    .optional()?
                    .unwrap_or((0, 0));
                live.new_visitors_today += visitors;
                live.conversions_today += conversions;
                let mut stmt = conn.prepare_cached(&format!(
                    "SELECT s.exit_page, COUNT(*) FROM sessions s
                     WHERE s.website_id = ?1 AND s.last_seen >= ?2 AND {admitted} GROUP BY s.exit_page"
                ))?;
                let rows = stmt
                    .query_map(params_from_iter(bound(site)), |r| Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?)))?;
                for row in rows {
                    let (page, visitors) = row?;
                    *pages.entry(page).or_default() += visitors;
                }
                live.recent_sessions.extend(stream_sessions(conn, site, since, now, filters)?);
            }
            let mut pages: Vec<LivePage> =
                pages.into_iter().map(|(page, visitors)| LivePage { page, visitors }).collect();
            pages.sort_by(|a, b| b.visitors.cmp(&a.visitors).then_with(|| a.page.cmp(&b.page)));
            pages.truncate(TOP_PAGES as usize);
            live.top_pages = pages;
            live.recent_sessions.sort_by(|a, b| b.last_seen.cmp(&a.last_seen).then(b.id.cmp(&a.id)));
            live.recent_sessions.truncate(STREAM_LIMIT as usize);
            for session in &mut live.recent_sessions {
                session.current_activity.activity = latest_activity(conn, session.id)?;
            }
            Ok(live)
        })
    }
}

/// The most recently seen sessions of one site since `since` that `filters` admit.
fn stream_sessions(
    conn: &Connection,
    site: WebsiteId,
    since: Millis,
    now: Millis,
    filters: &Filters,
) -> Result<Vec<StreamSession>> {
    let (admitted, values) = admitted_visit_condition(filters, 3);
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT s.id, s.country, s.region, s.city, s.device, s.browser, s.os, s.first_seen, s.last_seen,
                s.is_converted, s.conversion_value, s.page_views, s.entry_page, s.exit_page, s.utm_source, s.referrer
         FROM sessions s WHERE s.website_id = ?1 AND s.last_seen >= ?2 AND {admitted}
         ORDER BY s.last_seen DESC LIMIT ?3"
    ))?;
    let bound: [Value; 3] = [site.into(), since.into(), STREAM_LIMIT.into()];
    let rows =
        stmt.query_map(params_from_iter(bound.into_iter().chain(values)), |r| stream_session_row(r, site, now))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

impl Analytics {
    /// One session of a site as the stream lists it, whenever it was seen (the detail panel opened from a
    /// funnel's drop-offs); `NotFound` when the site has no such session.
    pub fn stream_session(&self, site: WebsiteId, session: i64) -> Result<StreamSession> {
        let now = now_ms();
        self.db.read(|conn| {
            let mut visit = conn
                .prepare_cached(
                    "SELECT id, country, region, city, device, browser, os, first_seen, last_seen, is_converted,
                        conversion_value, page_views, entry_page, exit_page, utm_source, referrer
                     FROM sessions WHERE id = ?1 AND website_id = ?2",
                )?
                .query_row(params![session, site], |r| stream_session_row(r, site, now))
                .optional()?
                .ok_or(Error::NotFound("session"))?;
            visit.current_activity.activity = latest_activity(conn, session)?;
            Ok(visit)
        })
    }
}

/// A stream session from a row of the columns both queries above select.
fn stream_session_row(r: &rusqlite::Row, site: WebsiteId, now: Millis) -> rusqlite::Result<StreamSession> {
    {
        let first_seen: Millis = r.get(7)?;
        let last_seen: Millis = r.get(8)?;
        let exit_page: String = r.get(13)?;
        Ok(StreamSession {
            id: r.get(0)?,
            website_id: site,
            country: r.get(1)?,
            region: r.get(2)?,
            city: r.get(3)?,
            device_type: r.get(4)?,
            browser: r.get(5)?,
            os: r.get(6)?,
            first_seen,
            last_seen,
            is_converted: r.get(9)?,
            conversion_value: r.get(10)?,
            session_duration: (last_seen - first_seen).max(0) / 1000,
            page_view_count: r.get(11)?,
            entry_page: r.get(12)?,
            current_activity: CurrentActivity {
                is_active: now - last_seen < ACTIVE_NOW_MS,
                activity: String::new(),
                current_page: exit_page.clone(),
            },
            exit_page,
            utm_source: r.get(14)?,
            referrer: r.get(15)?,
        })
    }
}

/// What the session's latest hit did, when it was not a page view ("" then). Identify and consent calls say
/// nothing about what the visitor is doing and are skipped.
fn latest_activity(conn: &Connection, session: i64) -> Result<String> {
    let latest = conn
        .prepare_cached(
            "SELECT kind, name FROM events WHERE session_id = ?1 AND kind NOT IN ('identify', 'consent')
             ORDER BY id DESC LIMIT 1",
        )?
        .query_row([session], |r| Ok((r.get::<_, String>(0)?, r.get::<_, String>(1)?)))
        .optional()?;
    Ok(match latest {
        None => String::new(),
        Some((kind, name)) => activity_text(&kind, &name),
    })
}

/// The stream's words for an event kind.
pub(crate) fn activity_text(kind: &str, name: &str) -> String {
    match kind {
        "pageview" => String::new(),
        "conversion" => format!("Converted: {name}"),
        "custom" => format!("Event: {name}"),
        "outbound" => "Followed an outbound link".into(),
        "download" => "Downloaded a file".into(),
        other if name.is_empty() => other.to_string(),
        other => format!("{other}: {name}"),
    }
}
