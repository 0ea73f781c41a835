//! Recent activity: the latest page views, custom events and conversions of a site, newest first.

use rusqlite::params;
use serde::Serialize;

use super::Analytics;
use crate::error::Result;
use crate::model::{Millis, WebsiteId, ser_iso};

/// Most events one recent-activity call returns.
pub const ACTIVITY_MAX: i64 = 100;

/// `GET /api/dashboard/recent-activity` item.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ActivityEvent {
    pub id: i64,
    #[serde(rename = "type")]
    pub kind: String,
    pub name: String,
    pub url: String,
    pub session_id: String,
    pub country: String,
    pub value: Option<f64>,
    #[serde(serialize_with = "ser_iso")]
    pub timestamp: Millis,
}

impl Analytics {
    /// The `limit` (1 to 100) latest events a site owner reads as activity.
    pub fn recent_activity(&self, site: WebsiteId, limit: i64) -> Result<Vec<ActivityEvent>> {
        let limit = limit.clamp(1, ACTIVITY_MAX);
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT e.id, e.kind, e.name, e.url, s.session_key, s.country, e.value, e.ts
                 FROM events e JOIN sessions s ON s.id = e.session_id
                 WHERE e.website_id = ?1 AND e.kind IN ('pageview', 'custom', 'conversion', 'outbound', 'download')
                 ORDER BY e.ts DESC, e.id DESC LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![site, limit], |r| {
                Ok(ActivityEvent {
                    id: r.get(0)?,
                    kind: r.get(1)?,
                    name: r.get(2)?,
                    url: r.get(3)?,
                    session_id: r.get(4)?,
                    country: r.get(5)?,
                    value: r.get(6)?,
                    timestamp: r.get(7)?,
                })
            })?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }
}
