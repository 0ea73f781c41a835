//! The Recent Activity card: the latest events of a site, newest first, read from raw events by index.

use rusqlite::params;
use serde::Serialize;

use super::Analytics;
use crate::error::{Error, Result};
use crate::model::{Millis, WebsiteId, ser_iso};

/// Most items one recent-activity call returns.
pub const MAX_ACTIVITY_LIMIT: i64 = 50;

/// events_site_ts (website_id, ts, rowid) yields this order directly: the newest rows are read first and
/// the scan stops at the limit, however many events the site has (the test below holds SQLite to it).
const RECENT_SQL: &str =
    "SELECT e.id, e.kind, e.name, e.url, e.path, e.properties, s.session_key, s.country, e.value, e.ts
     FROM events e JOIN sessions s ON s.id = e.session_id
     WHERE e.website_id = ?1 AND e.kind IN ('pageview', 'custom', 'conversion', 'outbound', 'download')
     ORDER BY e.ts DESC, e.id DESC LIMIT ?2";

/// `GET /api/dashboard/recent-activity` item.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct Activity {
    pub id: i64,
    /// `pageview`, `custom`, `conversion`, `outbound` or `download`.
    #[serde(rename = "type")]
    pub kind: String,
    /// The event or goal name; for page views the page path; for unnamed outbound links and downloads
    /// their `href` property.
    pub name: String,
    pub url: String,
    pub session_id: String,
    pub country: String,
    /// The conversion value, null for everything else and for conversions without one.
    pub value: Option<f64>,
    #[serde(serialize_with = "ser_iso")]
    pub timestamp: Millis,
}

impl Analytics {
    /// The `limit` (1 to 50) newest page views, custom events, conversions, outbound links and downloads.
    pub fn recent_activity(&self, site: WebsiteId, limit: i64) -> Result<Vec<Activity>> {
        if !(1..=MAX_ACTIVITY_LIMIT).contains(&limit) {
            return Err(Error::invalid("limit must be between 1 and 50"));
        }
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(RECENT_SQL)?;
            let rows = stmt.query_map(params![site, limit], |r| {
                let kind: String = r.get(1)?;
                let name: String = r.get(2)?;
                let path: String = r.get(4)?;
                let properties: Option<String> = r.get(5)?;
                Ok(Activity {
                    id: r.get(0)?,
                    name: display_name(&kind, name, path, properties.as_deref()),
                    kind,
                    url: r.get(3)?,
                    session_id: r.get(6)?,
                    country: r.get(7)?,
                    value: r.get(8)?,
                    timestamp: r.get(9)?,
                })
            })?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }
}

/// What the card shows as the event's name.
fn display_name(kind: &str, name: String, path: String, properties: Option<&str>) -> String {
    if !name.is_empty() {
        return name;
    }
    match kind {
        "pageview" => path,
        "outbound" | "download" => properties
            .and_then(|p| serde_json::from_str::<serde_json::Value>(p).ok())
            .and_then(|p| p.get("href")?.as_str().map(str::to_string))
            .unwrap_or_default(),
        _ => String::new(),
    }
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

    #[test]
    fn names_fall_back_to_path_and_href() {
        let name = |kind, name: &str, props| display_name(kind, name.into(), "/p".into(), props);
        assert_eq!(name("pageview", "", None), "/p");
        assert_eq!(name("custom", "cta", None), "cta");
        assert_eq!(name("download", "", Some(r#"{"href":"https://e.com/a.pdf"}"#)), "https://e.com/a.pdf");
        assert_eq!(name("outbound", "", Some("not json")), "");
    }
}
