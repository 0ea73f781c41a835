//! The Recent Activity card: the latest events of a site, newest first, read from raw events by index.

use rusqlite::types::Value;
use rusqlite::{params, params_from_iter};
use serde::Serialize;

use super::Analytics;
use crate::error::{Error, Result};
use crate::model::{Millis, WebsiteId, ser_iso};

/// Most items one recent-activity call returns.
pub const ACTIVITY_MAX: i64 = 50;

/// events_site_ts (website_id, ts, rowid) yields this order directly: the newest rows are read first and
/// the scan stops at the limit, however many events the site has (the test below holds SQLite to it).
const RECENT_SQL: &str = "SELECT e.id, e.kind, e.name, e.url, s.session_key, s.country, e.value, e.ts
     FROM events e JOIN sessions s ON s.id = e.session_id
     WHERE e.website_id = ?1 AND e.kind IN ('pageview', 'custom', 'conversion', 'outbound', 'download')
     ORDER BY e.ts DESC, e.id DESC LIMIT ?2";

/// `GET /api/dashboard/recent-activity` item.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ActivityEvent {
    pub id: i64,
    /// `pageview`, `custom`, `conversion`, `outbound` or `download`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The event or goal name ('' for page views and unnamed outbound links and downloads).
    pub name: String,
    pub url: String,
    pub session_id: String,
    pub country: String,
    /// The conversion value, null for everything else and for conversions without one.
    pub value: Option<f64>,
    #[serde(serialize_with = "ser_iso")]
    #[schema(value_type = String, format = DateTime)]
    pub timestamp: Millis,
}

impl Analytics {
    /// The `limit` (1 to 50) newest page views, custom events, conversions, outbound links and downloads.
    pub fn recent_activity(&self, site: WebsiteId, limit: i64) -> Result<Vec<ActivityEvent>> {
        check_activity_limit(limit)?;
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(RECENT_SQL)?;
            let rows = stmt.query_map(params![site, limit], activity_event)?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

    /// The newest activity that `admitted` (a condition over the event `e` and its visit `s`, its values
    /// numbered from `?3`) lets through: the filtered Recent Activity card.
    pub(crate) fn recent_activity_where(
        &self,
        site: WebsiteId,
        limit: i64,
        admitted: &str,
        values: Vec<Value>,
    ) -> Result<Vec<ActivityEvent>> {
        check_activity_limit(limit)?;
        let sql = RECENT_SQL.replacen("ORDER BY", &format!("AND {admitted} ORDER BY"), 1);
        let params: Vec<Value> = [site.into(), limit.into()].into_iter().chain(values).collect();
        self.db.read(|conn| {
            let mut stmt = conn.prepare(&sql)?;
            let rows = stmt.query_map(params_from_iter(params), activity_event)?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }
}

/// An item of the card from a row of `RECENT_SQL`.
fn activity_event(r: &rusqlite::Row) -> rusqlite::Result<ActivityEvent> {
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
}

/// Refuses a recent-activity limit outside 1 to 50.
pub(crate) fn check_activity_limit(limit: i64) -> Result<()> {
    if (1..=ACTIVITY_MAX).contains(&limit) { Ok(()) } else { Err(Error::invalid("limit must be between 1 and 50")) }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::db::Db;

    #[test]
    fn reads_by_index_without_sorting() {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("t.db")).unwrap();
        let plan: Vec<String> = db
            .read(|conn| {
                let mut stmt = conn.prepare(&format!("EXPLAIN QUERY PLAN {RECENT_SQL}"))?;
                let rows = stmt.query_map(params![1, 10], |r| r.get::<_, String>(3))?;
                Ok(rows.collect::<rusqlite::Result<_>>()?)
            })
            .unwrap();
        assert!(plan.iter().any(|step| step.contains("events_site_ts")), "{plan:?}");
        assert!(!plan.iter().any(|step| step.contains("TEMP B-TREE")), "{plan:?}");
    }
}
