//! Customer journeys (spec part 2 "Customer Journeys", §3, §4, §9): each visit of a period as a journey with
//! its touchpoints, duration, score and page-by-page path, the period's totals, and the site's most common
//! paths from entry to exit. Called by the daemon's /api/analytics/customer-journeys and /journeys.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use super::{Analytics, TimeRange};
use crate::error::{Error, Result};
use crate::model::{Millis, UserId, WebsiteId, ser_iso};

/// A visit idle this long is over (the ingest writer's visit timeout): its journey is completed.
pub const JOURNEY_IDLE_MS: Millis = 30 * 60 * 1000;
/// Most journeys one answer lists (the summary counts them all).
pub const JOURNEY_LIST_LIMIT: i64 = 100;
/// Most steps listed per journey (touchpoints counts them all).
pub const JOURNEY_STEP_LIMIT: usize = 50;
/// Most common paths returned by [`Analytics::journey_paths`].
pub const TOP_PATHS: usize = 10;
/// Pages of a path kept; a longer path ends in [`MORE_PAGES`].
pub const PATH_DEPTH: usize = 5;
/// The last element of a path cut at [`PATH_DEPTH`] pages.
pub const MORE_PAGES: &str = "…";

/// Which journeys a query wants (spec: all, converted, abandoned, active). Converted and abandoned are the
/// completed journeys with and without a conversion; active are those not over yet.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum JourneyFilter {
    All,
    Converted,
    Abandoned,
    Active,
}

impl JourneyFilter {
    /// Parses the `filter` query value.
    pub fn parse(raw: &str) -> Result<JourneyFilter> {
        Ok(match raw {
            "" | "all" => JourneyFilter::All,
            "converted" => JourneyFilter::Converted,
            "abandoned" => JourneyFilter::Abandoned,
            "active" => JourneyFilter::Active,
            _ => return Err(Error::invalid("filter must be all, converted, abandoned or active")),
        })
    }

    /// The filter's condition on `sessions s`; ?4 is the cut-off before which a visit is over.
    fn sql(self) -> &'static str {
        match self {
            JourneyFilter::All => "1",
            JourneyFilter::Converted => "s.last_seen < ?4 AND s.is_converted = 1",
            JourneyFilter::Abandoned => "s.last_seen < ?4 AND s.is_converted = 0",
            JourneyFilter::Active => "s.last_seen >= ?4",
        }
    }
}

/// The answer of `GET /api/analytics/customer-journeys`.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomerJourneys {
    pub summary: JourneySummary,
    pub journeys: Vec<CustomerJourney>,
}

/// Totals over every journey of the period and filter (not only the listed ones).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JourneySummary {
    pub total_journeys: u64,
    /// Seconds.
    pub average_duration: f64,
    pub average_touchpoints: f64,
    /// Percent of the journeys with a conversion.
    pub conversion_rate: f64,
}

/// One visit as a journey (spec §3 "Customer journey", plus where and when).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CustomerJourney {
    pub session_id: String,
    pub website_id: WebsiteId,
    #[schema(value_type = String, format = DateTime)]
    #[serde(serialize_with = "ser_iso")]
    pub started_at: Millis,
    /// Page views and events of the visit.
    pub touchpoints: u64,
    pub conversion_events: u64,
    /// Seconds from the first to the last hit.
    pub total_duration: i64,
    /// 0-100, see [`journey_score`].
    pub journey_score: u8,
    /// The visit is over (idle for [`JOURNEY_IDLE_MS`]).
    pub is_completed: bool,
    pub visitor_info: VisitorInfo,
    pub steps: Vec<JourneyStep>,
}

/// Who the visitor is, as the journey panel shows it.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct VisitorInfo {
    /// City, region and country joined, or 'Unknown Location'.
    pub location: String,
    /// Device type, 'Desktop' when unknown.
    pub device: String,
    /// 'Unknown' when unknown.
    pub browser: String,
    /// utm_source, else the referring host without 'www.', else 'Direct'.
    pub source: String,
}

/// One touchpoint of a journey.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JourneyStep {
    /// The page's path.
    pub page: String,
    /// Seconds until the next touchpoint (the last: until the visit's last hit).
    pub duration: i64,
    /// pageview, custom, conversion, outbound or download.
    pub event_type: String,
    /// The event's name ('' for page views).
    pub name: String,
}

/// The answer of `GET /api/analytics/journeys`: the most common paths of the period.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JourneyPaths {
    /// Visits of the period with at least one page view.
    pub total_sessions: u64,
    pub paths: Vec<JourneyPath>,
}

/// A sequence of pages from entry to exit and the visits that took it.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JourneyPath {
    /// Pages in order (repeats of the same page in a row folded); cut at [`PATH_DEPTH`] with "…".
    pub pages: Vec<String>,
    pub sessions: u64,
    pub conversions: u64,
    /// conversions / sessions in percent.
    pub conversion_rate: f64,
}

/// The journey score: the documented prior weights of the visitor-intent model (page views, time on site,
/// events, conversion), squashed to 0-100. Kept in this one function so the fitted intent model can
/// replace it.
pub fn journey_score(page_views: u64, duration_s: i64, events: u64, converted: bool) -> u8 {
    let minutes = (duration_s.max(0) as f64) / 60.0;
    let z = -3.0
        + 0.45 * page_views.min(15) as f64
        + 0.9 * (1.0 + minutes.min(60.0)).ln()
        + 0.35 * events.min(10) as f64
        + if converted { 3.0 } else { 0.0 };
    (100.0 / (1.0 + (-z).exp())).round() as u8
}

impl Analytics {
    /// The journeys (visits started in `range`) of the user's sites, or of one of them; totals over all of
    /// them, the newest [`JOURNEY_LIST_LIMIT`] listed with their paths. Another user's site is not found.
    pub fn customer_journeys(
        &self,
        user: UserId,
        site: Option<WebsiteId>,
        range: TimeRange,
        filter: JourneyFilter,
        now: Millis,
    ) -> Result<CustomerJourneys> {
        self.db.read(|conn| {
            if let Some(site) = site {
                owned(conn, user, site)?;
            }
            let cut = now - JOURNEY_IDLE_MS;
            let scope = "FROM sessions s JOIN websites w ON w.id = s.website_id
                 WHERE w.user_id = ?1 AND (?5 IS NULL OR s.website_id = ?5)
                   AND s.first_seen >= ?2 AND s.first_seen < ?3";
            let condition = filter.sql();
            let summary = conn.query_row(
                &format!(
                    "SELECT COUNT(*), AVG((s.last_seen - s.first_seen) / 1000), AVG(s.page_views + s.events),
                        AVG(s.is_converted) * 100.0
                     {scope} AND {condition}"
                ),
                params![user, range.start, range.end, cut, site],
                |r| {
                    Ok(JourneySummary {
                        total_journeys: r.get::<_, i64>(0)? as u64,
                        average_duration: r.get::<_, Option<f64>>(1)?.unwrap_or(0.0),
                        average_touchpoints: r.get::<_, Option<f64>>(2)?.unwrap_or(0.0),
                        conversion_rate: r.get::<_, Option<f64>>(3)?.unwrap_or(0.0),
                    })
                },
            )?;
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT s.id, s.session_key, s.website_id, s.first_seen, s.last_seen, s.page_views, s.events,
                    s.is_converted, s.city, s.region, s.country, s.device, s.browser, s.utm_source, s.referrer_host
                 {scope} AND {condition} ORDER BY s.first_seen DESC, s.id DESC LIMIT ?6"
            ))?;
            let sessions = stmt
                .query_map(params![user, range.start, range.end, cut, site, JOURNEY_LIST_LIMIT], |r| {
                    let page_views = r.get::<_, i64>(5)? as u64;
                    let events = r.get::<_, i64>(6)? as u64;
                    let first_seen: Millis = r.get(3)?;
                    let last_seen: Millis = r.get(4)?;
                    let converted: bool = r.get(7)?;
                    let duration = (last_seen - first_seen) / 1000;
                    let place: Vec<String> =
                        [r.get::<_, String>(8)?, r.get(9)?, r.get(10)?].into_iter().filter(|p| !p.is_empty()).collect();
                    let journey = CustomerJourney {
                        session_id: r.get(1)?,
                        website_id: r.get(2)?,
                        started_at: first_seen,
                        touchpoints: page_views + events,
                        conversion_events: 0,
                        total_duration: duration,
                        journey_score: journey_score(page_views, duration, events, converted),
                        is_completed: last_seen < cut,
                        visitor_info: VisitorInfo {
                            location: if place.is_empty() { "Unknown Location".into() } else { place.join(", ") },
                            device: or(r.get(11)?, "Desktop"),
                            browser: or(r.get(12)?, "Unknown"),
                            source: source(r.get(13)?, r.get(14)?),
                        },
                        steps: Vec::new(),
                    };
                    Ok((r.get::<_, i64>(0)?, last_seen, journey))
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let mut journeys = Vec::with_capacity(sessions.len());
            for (id, last_seen, mut journey) in sessions {
                let (steps, conversions) = steps_of(conn, id, last_seen)?;
                journey.steps = steps;
                journey.conversion_events = conversions;
                journeys.push(journey);
            }
            Ok(CustomerJourneys { summary, journeys })
        })
    }

    /// The most common page sequences (entry to exit) of visits started in `range` on the user's sites, or
    /// on one of them, with how many visits took each and how many of those converted.
    pub fn journey_paths(&self, user: UserId, site: Option<WebsiteId>, range: TimeRange) -> Result<JourneyPaths> {
        self.db.read(|conn| {
            if let Some(site) = site {
                owned(conn, user, site)?;
            }
            let sites: Vec<WebsiteId> = match site {
                Some(site) => vec![site],
                None => conn
                    .prepare_cached("SELECT id FROM websites WHERE user_id = ?1")?
                    .query_map([user], |r| r.get(0))?
                    .collect::<rusqlite::Result<_>>()?,
            };
            // Pages are interned: a visit's path is a few small numbers, not strings.
            let mut names: Vec<String> = Vec::new();
            let mut ids: HashMap<String, u32> = HashMap::new();
            // Per visit: its pages in order, and whether it converted (read with the pages, not per visit).
            let mut visits: HashMap<i64, (Vec<u32>, bool)> = HashMap::new();
            for site in sites {
                let mut stmt = conn.prepare_cached(
                    "SELECT e.session_id, e.path, s.is_converted FROM events e JOIN sessions s ON s.id = e.session_id
                     WHERE e.website_id = ?1 AND e.ts >= ?2 AND e.ts < ?3 AND e.kind = 'pageview'
                     ORDER BY e.ts, e.id",
                )?;
                let mut rows = stmt.query(params![site, range.start, range.end])?;
                while let Some(row) = rows.next()? {
                    let session: i64 = row.get(0)?;
                    let path = row.get_ref(1)?.as_str().unwrap_or("");
                    let (pages, converted) = visits.entry(session).or_default();
                    *converted = row.get(2)?;
                    if pages.len() > PATH_DEPTH {
                        continue;
                    }
                    let id = match ids.get(path) {
                        Some(&id) => id,
                        None => {
                            names.push(path.to_string());
                            ids.insert(path.to_string(), names.len() as u32 - 1);
                            names.len() as u32 - 1
                        }
                    };
                    if pages.last() != Some(&id) {
                        pages.push(id);
                    }
                }
            }
            let mut tally: HashMap<Vec<u32>, (u64, u64)> = HashMap::new();
            for (pages, converted) in visits.values() {
                let entry = tally.entry(pages.clone()).or_default();
                entry.0 += 1;
                entry.1 += u64::from(*converted);
            }
            let mut paths: Vec<JourneyPath> = tally
                .into_iter()
                .map(|(pages, (sessions, conversions))| {
                    let cut = pages.len() > PATH_DEPTH;
                    let mut pages: Vec<String> =
                        pages.iter().take(PATH_DEPTH).map(|&id| names[id as usize].clone()).collect();
                    if cut {
                        pages.push(MORE_PAGES.into());
                    }
                    JourneyPath {
                        pages,
                        sessions,
                        conversions,
                        conversion_rate: conversions as f64 * 100.0 / sessions as f64,
                    }
                })
                .collect();
            paths.sort_by(|a, b| b.sessions.cmp(&a.sessions).then_with(|| a.pages.cmp(&b.pages)));
            paths.truncate(TOP_PATHS);
            Ok(JourneyPaths { total_sessions: visits.len() as u64, paths })
        })
    }
}

fn owned(conn: &Connection, user: UserId, site: WebsiteId) -> Result<()> {
    conn.query_row("SELECT 1 FROM websites WHERE id = ?1 AND user_id = ?2", params![site, user], |_| Ok(()))
        .optional()?
        .ok_or(Error::NotFound("website"))
}

/// A visit's touchpoints in order with the seconds spent on each, and its number of conversions.
fn steps_of(conn: &Connection, session: i64, last_seen: Millis) -> Result<(Vec<JourneyStep>, u64)> {
    let mut stmt = conn.prepare_cached(
        "SELECT ts, kind, name, path FROM events WHERE session_id = ?1
         AND kind IN ('pageview', 'custom', 'conversion', 'outbound', 'download') ORDER BY ts, id",
    )?;
    let rows = stmt
        .query_map([session], |r| Ok((r.get::<_, Millis>(0)?, r.get::<_, String>(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<rusqlite::Result<Vec<(Millis, String, String, String)>>>()?;
    let conversions = rows.iter().filter(|r| r.1 == "conversion").count() as u64;
    let steps = rows
        .iter()
        .enumerate()
        .take(JOURNEY_STEP_LIMIT)
        .map(|(i, (ts, kind, name, path))| {
            let until = rows.get(i + 1).map_or(last_seen, |next| next.0);
            JourneyStep {
                page: path.clone(),
                duration: ((until - ts) / 1000).max(0),
                event_type: kind.clone(),
                name: name.clone(),
            }
        })
        .collect();
    Ok((steps, conversions))
}

fn or(value: String, fallback: &str) -> String {
    if value.is_empty() { fallback.to_string() } else { value }
}

fn source(utm_source: String, referrer_host: String) -> String {
    if !utm_source.is_empty() {
        return utm_source;
    }
    match referrer_host.strip_prefix("www.").unwrap_or(&referrer_host) {
        "" => "Direct".into(),
        host => host.to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn score_grows_with_engagement_and_stays_in_bounds() {
        let bounce = journey_score(1, 0, 0, false);
        let browsing = journey_score(5, 180, 1, false);
        let buyer = journey_score(6, 600, 2, true);
        assert!(bounce < 20, "{bounce}");
        assert!(bounce < browsing && browsing < buyer, "{bounce} {browsing} {buyer}");
        assert!(buyer > 70 && buyer <= 100);
        assert!(journey_score(u64::MAX, i64::MAX, u64::MAX, true) <= 100);
        assert_eq!(journey_score(0, -5, 0, false), journey_score(0, 0, 0, false));
    }

    #[test]
    fn sources_and_filters() {
        assert_eq!(source("newsletter".into(), "www.google.com".into()), "newsletter");
        assert_eq!(source(String::new(), "www.google.com".into()), "google.com");
        assert_eq!(source(String::new(), String::new()), "Direct");
        assert_eq!(JourneyFilter::parse("").unwrap(), JourneyFilter::All);
        assert_eq!(JourneyFilter::parse("active").unwrap(), JourneyFilter::Active);
        assert!(JourneyFilter::parse("high").is_err());
    }
}
