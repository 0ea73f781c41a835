//! One visit's path for the visitor stream's Journey tab: its page views in order, the time spent on each,
//! and the events that happened in between.

use rusqlite::{OptionalExtension, params};
use serde::Serialize;

use super::Analytics;
use super::live::activity_text;
use crate::error::{Error, Result};
use crate::model::{Millis, WebsiteId, ser_iso};

/// Most hits one journey reads; a longer visit is cut there and says so (`truncated`).
pub const JOURNEY_MAX_HITS: i64 = 1_000;

/// `GET /api/analytics/sessions/{id}/journey`.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SessionJourney {
    pub session_id: i64,
    pub website_id: WebsiteId,
    #[schema(value_type = String, format = DateTime)]
    #[serde(serialize_with = "ser_iso")]
    pub first_seen: Millis,
    #[schema(value_type = String, format = DateTime)]
    #[serde(serialize_with = "ser_iso")]
    pub last_seen: Millis,
    /// The pages in the order they were viewed (a page viewed twice appears twice).
    pub steps: Vec<JourneyStep>,
    /// The visit had more than [`JOURNEY_MAX_HITS`] hits; the later ones are left out.
    pub truncated: bool,
}

/// One page view of a journey.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[schema(as = SessionJourneyStep)]
pub struct JourneyStep {
    /// The page's path.
    pub page: String,
    #[schema(value_type = String, format = DateTime)]
    #[serde(serialize_with = "ser_iso")]
    pub entered_at: Millis,
    /// Seconds until the next page view; for the last page, until the visit's latest hit.
    pub duration: i64,
    /// Events (custom, conversions, outbound links, downloads) on this page, in order.
    pub events: Vec<JourneyEvent>,
}

/// An event of a journey.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct JourneyEvent {
    /// pageview is never listed here; custom, conversion, outbound, download.
    pub kind: String,
    pub name: String,
    /// How the stream describes it ("Converted: purchase").
    pub label: String,
    #[schema(value_type = String, format = DateTime)]
    #[serde(serialize_with = "ser_iso")]
    pub at: Millis,
    pub value: Option<f64>,
    pub currency: Option<String>,
}

impl Analytics {
    /// The site a session belongs to, or NotFound; the caller checks the site is the user's.
    pub fn session_site(&self, session: i64) -> Result<WebsiteId> {
        self.db.read(|conn| {
            conn.prepare_cached("SELECT website_id FROM sessions WHERE id = ?1")?
                .query_row([session], |r| r.get(0))
                .optional()?
                .ok_or(Error::NotFound("session"))
        })
    }

    /// The page-by-page path of one session of `site`.
    pub fn session_journey(&self, site: WebsiteId, session: i64) -> Result<SessionJourney> {
        self.db.read(|conn| {
            let (first_seen, last_seen): (Millis, Millis) = conn
                .prepare_cached("SELECT first_seen, last_seen FROM sessions WHERE id = ?1 AND website_id = ?2")?
                .query_row(params![session, site], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()?
                .ok_or(Error::NotFound("session"))?;
            let mut stmt = conn.prepare_cached(
                "SELECT ts, kind, name, path, value, currency FROM events
                 WHERE session_id = ?1 AND kind NOT IN ('identify', 'consent')
                 ORDER BY ts, id LIMIT ?2",
            )?;
            let mut steps: Vec<JourneyStep> = Vec::new();
            let mut hits = 0;
            let mut rows = stmt.query(params![session, JOURNEY_MAX_HITS + 1])?;
            while let Some(r) = rows.next()? {
                hits += 1;
                if hits > JOURNEY_MAX_HITS {
                    break;
                }
                let (ts, kind, name, path): (Millis, String, String, String) =
                    (r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?);
                // Events before any page view (a script that tracks before its first page view) open a step of
                // their own page.
                if kind == "pageview" || steps.is_empty() {
                    if let Some(previous) = steps.last_mut() {
                        previous.duration = (ts - previous.entered_at).max(0) / 1000;
                    }
                    steps.push(JourneyStep { page: path, entered_at: ts, duration: 0, events: Vec::new() });
                }
                if kind != "pageview" {
                    let step = steps.last_mut().expect("a step was just ensured");
                    step.events.push(JourneyEvent {
                        label: activity_text(&kind, &name),
                        kind,
                        name,
                        at: ts,
                        value: r.get(4)?,
                        currency: r.get(5)?,
                    });
                }
            }
            if let Some(last) = steps.last_mut() {
                last.duration = (last_seen - last.entered_at).max(0) / 1000;
            }
            Ok(SessionJourney {
                session_id: session,
                website_id: site,
                first_seen,
                last_seen,
                steps,
                truncated: hits > JOURNEY_MAX_HITS,
            })
        })
    }
}
