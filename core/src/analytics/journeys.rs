//! Customer journeys (spec part 2 "Customer Journeys", §3, §4, §9): each visit of a period as a journey with
//! its touchpoints, duration, score and page-by-page path, the period's totals, and the site's most common
//! paths from entry to exit. Called by the daemon's /api/analytics/customer-journeys and /journeys.

use std::collections::HashMap;
use std::sync::Arc;

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, params, params_from_iter};
use serde::Serialize;

use super::intent::{IntentModel, SessionFeatures, SourceType, VisitRow, visit_features};
use super::visit_hours::{self, ClassTotals, JourneyTotals, PathCount};
use super::visit_paths;
use super::{Analytics, TimeRange};
use crate::error::{Error, Result};
use crate::events::{Filters, admitted_visit_condition};
use crate::model::{Millis, WebsiteId, ser_iso};

/// A visit idle this long is over (the ingest writer's visit timeout): its journey is completed.
pub const JOURNEY_IDLE_MS: Millis = 30 * 60 * 1000;
/// Most journeys one answer lists (the summary counts them all).
pub const JOURNEY_LIST_LIMIT: i64 = 100;
/// Most steps listed per journey (touchpoints counts them all).
pub const JOURNEY_STEP_LIMIT: usize = 50;
/// Most common paths returned by [`Analytics::journey_paths`].
pub const TOP_PATHS: usize = 10;
pub use super::visit_hours::{MORE_PAGES, PATH_DEPTH};

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

    /// The totals of the journeys this filter keeps.
    pub(crate) fn totals(self, t: &JourneyTotals) -> ClassTotals {
        let mut out = match self {
            JourneyFilter::All | JourneyFilter::Converted => t.converted,
            JourneyFilter::Abandoned => t.abandoned,
            JourneyFilter::Active => t.active,
        };
        if self == JourneyFilter::All {
            out.add(t.abandoned);
            out.add(t.active);
        }
        out
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

impl JourneySummary {
    /// The summary of the journeys a filter keeps: their number and their averages.
    pub(crate) fn of(kept: ClassTotals) -> JourneySummary {
        let per = |sum: f64| if kept.visits == 0 { 0.0 } else { sum / kept.visits as f64 };
        JourneySummary {
            total_journeys: kept.visits,
            average_duration: per(kept.duration_s as f64),
            average_touchpoints: per(kept.touchpoints as f64),
            conversion_rate: per(kept.conversions as f64 * 100.0),
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
    /// 0-100: the site's intent model's conversion probability for the visit (`IntentModel::score`).
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
    /// The visit's source as Traffic Sources names it (utm_source, else the referring host, by the referrer
    /// list's names), else 'Direct'.
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

impl Analytics {
    /// The journeys (visits started in `range`) of `sites`; totals over all of them, the newest
    /// [`JOURNEY_LIST_LIMIT`] listed with their paths.
    pub fn customer_journeys(
        &self,
        sites: &[WebsiteId],
        range: TimeRange,
        filters: &Filters,
        filter: JourneyFilter,
        now: Millis,
    ) -> Result<CustomerJourneys> {
        let mut totals = JourneyTotals::default();
        for &site in sites {
            let of_site = match filters.is_empty() {
                true => visit_hours::site_journeys(&self.db, site, range, now, false)?.totals,
                false => self.db.read(|conn| visit_hours::raw(conn, site, &[], range, now, filters))?.1,
            };
            totals.add(&of_site);
        }
        let summary = JourneySummary::of(filter.totals(&totals));
        let mut models: HashMap<WebsiteId, Arc<IntentModel>> = HashMap::new();
        for &site in sites {
            models.insert(site, self.intent_model(site, false)?);
        }
        self.db.read(|conn| {
            let cut = now - JOURNEY_IDLE_MS;
            let condition = filter.sql();
            let (admitted, values) = admitted_visit_condition(filters, 5);
            // One site at a time: the start index then yields each site's newest first (a join with the
            // user's sites sorted the whole period, 1.1 s over 30 days at 10M events).
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT s.id, s.session_key, s.website_id, s.first_seen, s.last_seen, s.page_views, s.events,
                    s.is_converted, s.city, s.region, s.country, s.device, s.browser, s.utm_source, s.referrer_host,
                    s.utm_medium, s.utm_campaign, s.organization_id IS NOT NULL, s.visitor_hash
                 FROM sessions s WHERE s.website_id = ?1 AND s.first_seen >= ?2 AND s.first_seen < ?3
                   AND {condition} AND {admitted} ORDER BY s.first_seen DESC, s.id DESC LIMIT ?5"
            ))?;
            let mut sessions = Vec::new();
            for &site in sites {
                let bound: [Value; 5] =
                    [site.into(), range.start.into(), range.end.into(), cut.into(), JOURNEY_LIST_LIMIT.into()];
                let rows = stmt.query_map(params_from_iter(bound.iter().chain(&values)), |r| {
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
                        journey_score: 0,
                        is_completed: last_seen < cut,
                        visitor_info: VisitorInfo {
                            location: if place.is_empty() { "Unknown Location".into() } else { place.join(", ") },
                            device: or(r.get(11)?, "Desktop"),
                            browser: or(r.get(12)?, "Unknown"),
                            source: source(r.get(13)?, r.get(14)?),
                        },
                        steps: Vec::new(),
                    };
                    let visit = VisitRow {
                        id: r.get(0)?,
                        key: journey.session_id.clone(),
                        first_seen,
                        last_seen,
                        converted,
                        hash: r.get(18)?,
                        source: SourceType::classify(
                            &r.get::<_, String>(14)?,
                            &r.get::<_, String>(13)?,
                            &r.get::<_, String>(15)?,
                            &r.get::<_, String>(16)?,
                        ),
                        organization: r.get(17)?,
                    };
                    Ok((visit, journey))
                })?;
                for row in rows {
                    sessions.push(row?);
                }
            }
            sessions.sort_by(|a, b| b.0.first_seen.cmp(&a.0.first_seen).then(b.0.id.cmp(&a.0.id)));
            sessions.truncate(JOURNEY_LIST_LIMIT as usize);
            let returning = returning_visits(conn, &sessions)?;
            let mut journeys = Vec::with_capacity(sessions.len());
            for (visit, mut journey) in sessions {
                let events = events_of(conn, visit.id)?;
                journey.steps = steps_of(&events, visit.last_seen);
                journey.conversion_events = events.iter().filter(|e| e.1 == "conversion").count() as u64;
                let features = features(conn, &visit, &events, returning.get(&visit.id).copied().unwrap_or(false))?;
                if let Some(model) = models.get(&journey.website_id) {
                    journey.journey_score = model.score(&features).score.clamp(0, 100) as u8;
                }
                journeys.push(journey);
            }
            Ok(CustomerJourneys { summary, journeys })
        })
    }

    /// The most common page sequences (entry to exit, cut at [`PATH_DEPTH`] pages) of the visits started in
    /// `range` on `sites` that `filters` admit, with how many visits took each and how many converted.
    pub fn journey_paths(&self, sites: &[WebsiteId], range: TimeRange, filters: &Filters) -> Result<JourneyPaths> {
        if !filters.is_empty() {
            return self.filtered_journey_paths(sites, range, filters);
        }
        let mut attempts = 0;
        let (top, total_sessions) = loop {
            let now = crate::model::now_ms();
            let per_site = sites
                .iter()
                .map(|&site| visit_hours::site_journeys(&self.db, site, range, now, true))
                .collect::<Result<Vec<_>>>()?;
            let found = self.db.read(|conn| {
                let mut stmt =
                    conn.prepare_cached("SELECT path_keys FROM visit_hours WHERE website_id = ?1 AND hour = ?2")?;
                visit_paths::top_paths(&per_site, TOP_PATHS, |site, hour| {
                    Ok(stmt.query_row(params![site, hour], |r| r.get(0)).optional()?.unwrap_or_default())
                })
            });
            // The keys of a stored hour are read after its records: an hour invalidated in between is read again.
            match found {
                Err(Error::Conflict(_)) if attempts < 3 => attempts += 1,
                other => break other?,
            }
        };
        Ok(JourneyPaths::of(top, total_sessions))
    }

    /// [`Analytics::journey_paths`] under filters: tallied from the admitted visits of the range (no stored hour
    /// holds a filter's visits), as the stored hours tally theirs.
    fn filtered_journey_paths(&self, sites: &[WebsiteId], range: TimeRange, filters: &Filters) -> Result<JourneyPaths> {
        let now = crate::model::now_ms();
        let mut tallies: HashMap<Vec<String>, (u64, u64)> = HashMap::new();
        let mut total_sessions = 0;
        for &site in sites {
            let (_, _, paths, visits) = self.db.read(|conn| visit_hours::raw(conn, site, &[], range, now, filters))?;
            total_sessions += visits;
            for path in paths {
                let tally = tallies.entry(path.pages).or_default();
                tally.0 += path.sessions;
                tally.1 += path.conversions;
            }
        }
        let mut top: Vec<PathCount> = tallies
            .into_iter()
            .map(|(pages, (sessions, conversions))| PathCount { pages, sessions, conversions })
            .collect();
        top.sort_by(|a, b| b.sessions.cmp(&a.sessions).then_with(|| a.pages.cmp(&b.pages)));
        top.truncate(TOP_PATHS);
        Ok(JourneyPaths::of(top, total_sessions))
    }
}

impl JourneyPaths {
    /// The answer of the top paths and the visits with a path.
    fn of(top: Vec<PathCount>, total_sessions: u64) -> JourneyPaths {
        let paths = top
            .into_iter()
            .map(|p| JourneyPath {
                conversion_rate: p.conversions as f64 * 100.0 / p.sessions.max(1) as f64,
                pages: p.pages,
                sessions: p.sessions,
                conversions: p.conversions,
            })
            .collect();
        JourneyPaths { total_sessions, paths }
    }
}

/// A visit's events in order: (ts, kind, name, path).
fn events_of(conn: &Connection, session: i64) -> Result<Vec<(Millis, String, String, String)>> {
    let mut stmt =
        conn.prepare_cached("SELECT ts, kind, name, path FROM events WHERE session_id = ?1 ORDER BY ts, id")?;
    let rows = stmt
        .query_map([session], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(rows)
}

/// A visit's touchpoints in order with the seconds spent on each.
pub(crate) fn steps_of(events: &[(Millis, String, String, String)], last_seen: Millis) -> Vec<JourneyStep> {
    let touchpoints: Vec<&(Millis, String, String, String)> = events
        .iter()
        .filter(|e| matches!(e.1.as_str(), "pageview" | "custom" | "conversion" | "outbound" | "download"))
        .collect();
    touchpoints
        .iter()
        .enumerate()
        .take(JOURNEY_STEP_LIMIT)
        .map(|(i, (ts, kind, name, path))| {
            let until = touchpoints.get(i + 1).map_or(last_seen, |next| next.0);
            JourneyStep {
                page: path.clone(),
                duration: ((until - ts) / 1000).max(0),
                event_type: kind.clone(),
                name: name.clone(),
            }
        })
        .collect()
}

/// Which listed visits had an earlier visit of the same visitor hash that day (the hash's salt rotates
/// daily). One scan of the covering start index per day the list touches, up to its latest listed visit.
fn returning_visits(conn: &Connection, listed: &[(VisitRow, CustomerJourney)]) -> Result<HashMap<i64, bool>> {
    const DAY: Millis = 86_400_000;
    let mut days: HashMap<(WebsiteId, i64), Millis> = HashMap::new();
    for (visit, journey) in listed {
        let latest = days.entry((journey.website_id, visit.first_seen.div_euclid(DAY))).or_insert(visit.first_seen);
        *latest = (*latest).max(visit.first_seen);
    }
    let mut first: HashMap<(WebsiteId, i64, i64), Millis> = HashMap::new();
    let mut stmt = conn.prepare_cached(
        "SELECT visitor_hash, first_seen FROM sessions WHERE website_id = ?1 AND first_seen >= ?2 AND first_seen <= ?3",
    )?;
    for (&(site, day), &latest) in &days {
        let mut rows = stmt.query(params![site, day * DAY, latest])?;
        while let Some(r) = rows.next()? {
            let (hash, seen): (i64, Millis) = (r.get(0)?, r.get(1)?);
            let entry = first.entry((site, day, hash)).or_insert(seen);
            *entry = (*entry).min(seen);
        }
    }
    Ok(listed
        .iter()
        .map(|(v, j)| {
            let earliest = first.get(&(j.website_id, v.first_seen.div_euclid(DAY), v.hash)).copied();
            (v.id, earliest.is_some_and(|e| e < v.first_seen))
        })
        .collect())
}

/// The intent model's features of a listed visit, as `intent::load_features` defines them: what the visit
/// did up to its first conversion.
fn features(
    conn: &Connection,
    visit: &VisitRow,
    events: &[(Millis, String, String, String)],
    returning: bool,
) -> Result<SessionFeatures> {
    let events = events.iter().map(|(ts, kind, _, path)| (*ts, kind.clone(), path.clone())).collect();
    let mut scroll =
        conn.prepare_cached("SELECT COALESCE(MAX(depth), 0) FROM scroll_depths WHERE session_id = ?1 AND ts < ?2")?;
    visit_features(visit.clone(), events, returning, |id, cutoff| {
        Ok(scroll.query_row(params![id, cutoff], |r| r.get(0))?)
    })
}

pub(crate) fn or(value: String, fallback: &str) -> String {
    if value.is_empty() { fallback.to_string() } else { value }
}

/// A journey's source as Traffic Sources names it (`ingest::sources`), `Direct` for none.
pub(crate) fn source(utm_source: String, referrer_host: String) -> String {
    let host = referrer_host.strip_prefix("www.").unwrap_or(&referrer_host);
    or(crate::ingest::sources::source_of(&utm_source, host), "Direct")
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::{EventKind, Hit};
    use crate::model::now_ms;
    use crate::testing::{client, send_from};

    /// journeyScore is the intent model's score of the same features the model itself loads for the visit.
    #[test]
    fn journey_scores_are_the_intent_models() {
        let crate::testing::OneSite { dir: _dir, tracker, site, .. } = crate::testing::one_site();
        let now = now_ms();
        let mut hits = Vec::new();
        for v in 0..60i64 {
            // Four addresses: later visits of one are returning visitors that day.
            let client = client(&format!("198.18.0.{}", v % 4), "Mozilla/5.0 Chrome/1");
            let mut ts = now - 3 * 3_600_000 + v * 60_000;
            for step in 0..(v % 6 + 1) {
                let kind = match (v + step) % 7 {
                    _ if step == 0 => EventKind::Pageview,
                    3 if v % 2 == 0 => EventKind::Conversion,
                    5 => EventKind::Custom,
                    _ => EventKind::Pageview,
                };
                let hit = Hit {
                    website_id: site,
                    session_key: format!("v{v:03}"),
                    ts,
                    kind: Some(kind),
                    name: if kind == EventKind::Pageview { String::new() } else { "signup".into() },
                    url: format!("https://s.example.com/p{}", (v + step) % 5),
                    path: format!("/p{}", (v + step) % 5),
                    referrer_host: ["", "google.com", "t.co"][(v % 3) as usize].into(),
                    ..Hit::default()
                };
                hits.push((hit, client.clone()));
                ts += 25_000;
            }
        }
        send_from(&tracker, hits);
        let range = TimeRange::parse("1d", now).unwrap();
        let listed =
            tracker.analytics().customer_journeys(&[site], range, &Filters::none(), JourneyFilter::All, now).unwrap();
        assert_eq!(listed.journeys.len(), 60);
        let model = tracker.analytics().intent_model(site, false).unwrap();
        let features = tracker
            .db()
            .read(|c| super::super::intent::load_features(c, site, range.start, range.end, 1000, None))
            .unwrap();
        let expected: HashMap<String, u8> =
            features.iter().map(|f| (f.session_key.clone(), model.score(f).score as u8)).collect();
        assert!(features.iter().any(|f| f.returning) && features.iter().any(|f| f.converted));
        for journey in &listed.journeys {
            assert_eq!(Some(&journey.journey_score), expected.get(&journey.session_id), "{}", journey.session_id);
        }
        let distinct: std::collections::HashSet<u8> = listed.journeys.iter().map(|j| j.journey_score).collect();
        assert!(distinct.len() > 3, "{distinct:?}");
    }

    #[test]
    fn sources_and_filters() {
        assert_eq!(source("newsletter".into(), "www.google.com".into()), "newsletter");
        assert_eq!(source(String::new(), "www.google.com".into()), "Google");
        assert_eq!(source("twitter".into(), String::new()), "Twitter");
        assert_eq!(source(String::new(), "www.example.org".into()), "example.org");
        assert_eq!(source(String::new(), String::new()), "Direct");
        assert_eq!(JourneyFilter::parse("").unwrap(), JourneyFilter::All);
        assert_eq!(JourneyFilter::parse("active").unwrap(), JourneyFilter::Active);
        assert!(JourneyFilter::parse("high").is_err());
    }
}
