//! One visit read from ClickHouse by its id (the visit ids the cluster's ingest state hands out): which site
//! it is of, the stream's detail panel of it, and its page-by-page journey, as SQLite's `sessions` row and
//! `events` give them.

use super::clickhouse::join;
use super::events::Events;
use super::live::{STREAM_COLUMNS, stream_session, visit_summaries};
use super::visits::{float, int, sites_condition, text};
use crate::analytics::{JOURNEY_MAX_HITS, JourneyEvent, JourneyStep, SessionJourney, StreamSession, activity_text};
use crate::error::{Error, Result};
use crate::model::{Millis, WebsiteId, now_ms};

impl Events {
    /// The site of `sites` a visit is of, or NotFound: a visit of any other site is not the caller's. Read on
    /// the sites' rows only (the table is ordered by site), never across every site's history.
    pub fn session_site(&self, sites: &[WebsiteId], session: i64) -> Result<WebsiteId> {
        if sites.is_empty() || session == 0 {
            return Err(Error::NotFound("session"));
        }
        let rows = self.nodes()[0].query(&format!(
            "SELECT website_id FROM {}.hits WHERE {} AND visit_id = {session} LIMIT 1",
            self.database(),
            sites_condition(sites)
        ))?;
        match rows.first() {
            Some(row) => int(row, 0),
            None => Err(Error::NotFound("session")),
        }
    }

    /// `GET /api/analytics/sessions/{id}` in cluster mode: one visit of a site as the stream lists it.
    pub fn stream_session(&self, site: WebsiteId, session: i64) -> Result<StreamSession> {
        let visit = visit_summaries(self.database(), &[site], &format!("visit_id = {session}"), "1");
        let rows = self.nodes()[0].query(&format!("SELECT {STREAM_COLUMNS} FROM ({visit})"))?;
        match rows.first() {
            Some(row) => stream_session(row, now_ms()),
            None => Err(Error::NotFound("session")),
        }
    }

    /// `GET /api/analytics/sessions/{id}/journey` in cluster mode, as SQLite's `Analytics::session_journey`
    /// builds it: the visit's hits but identify calls in time order, cut after [`JOURNEY_MAX_HITS`]. Hits of
    /// one visit in the same millisecond keep SQLite's order (insertion) only by chance: ClickHouse has none.
    pub fn session_journey(&self, site: WebsiteId, session: i64) -> Result<SessionJourney> {
        let (db, node) = (self.database(), &self.nodes()[0]);
        let visit = format!("website_id = {site} AND visit_id = {session}");
        let (span, hits) = join(
            || node.query(&format!("SELECT min(ts), max(ts) FROM {db}.hits WHERE {visit} HAVING count() > 0")),
            || {
                node.query(&format!(
                    "SELECT ts, kind, name, path, isNull(value), ifNull(value, 0), currency FROM {db}.hits
                     WHERE {visit} AND kind NOT IN ('identify', 'consent', 'touch') ORDER BY ts LIMIT {}",
                    JOURNEY_MAX_HITS + 1
                ))
            },
        )?;
        let Some(span) = span.first() else { return Err(Error::NotFound("session")) };
        let (first_seen, last_seen) = (int(span, 0)?, int(span, 1)?);
        let truncated = hits.len() as i64 > JOURNEY_MAX_HITS;
        let mut steps: Vec<JourneyStep> = Vec::new();
        for row in hits.iter().take(JOURNEY_MAX_HITS as usize) {
            let (ts, kind, name, path): (Millis, String, String, String) =
                (int(row, 0)?, text(row, 1)?, text(row, 2)?, text(row, 3)?);
            // Events before any page view open a step of their own page, as on SQLite.
            if kind == "pageview" || steps.is_empty() {
                if let Some(previous) = steps.last_mut() {
                    previous.duration = (ts - previous.entered_at).max(0) / 1000;
                }
                steps.push(JourneyStep { page: path, entered_at: ts, duration: 0, events: Vec::new() });
            }
            if kind != "pageview" {
                let value = if int(row, 4)? == 1 { None } else { Some(float(row, 5)?) };
                let currency = text(row, 6)?;
                let step = steps.last_mut().expect("a step was just ensured");
                step.events.push(JourneyEvent {
                    label: activity_text(&kind, &name),
                    kind,
                    name,
                    at: ts,
                    value,
                    currency: (!currency.is_empty()).then_some(currency),
                });
            }
        }
        if let Some(last) = steps.last_mut() {
            last.duration = (last_seen - last.entered_at).max(0) / 1000;
        }
        Ok(SessionJourney { session_id: session, website_id: site, first_seen, last_seen, steps, truncated })
    }
}
