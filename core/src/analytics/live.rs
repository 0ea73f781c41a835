//! Who is on a site right now: sessions seen in the last five minutes.

use rusqlite::params;
use serde::Serialize;

use super::Analytics;
use crate::error::Result;
use crate::model::{Millis, WebsiteId, now_ms, ser_iso};

/// A session counts as active when seen within this window (spec part 1 §9).
pub const ACTIVE_WINDOW_MS: Millis = 5 * 60 * 1000;

/// Most sessions a live snapshot lists.
const LIVE_LIMIT: i64 = 200;

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
