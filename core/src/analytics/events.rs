//! The events summary: custom events and conversions of a range, from the `event` rollups.

use rusqlite::params;
use serde::Serialize;

use super::{Analytics, TimeRange};
use crate::error::Result;
use crate::model::WebsiteId;

/// Most events `topEvents` lists.
const TOP_EVENTS: usize = 10;

/// `GET /api/websites/{id}/events/summary` (spec part 2 §3).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EventSummary {
    /// Custom events, outbound clicks, downloads and conversions.
    pub total_events: i64,
    /// Distinct event names.
    pub unique_events: i64,
    pub conversion_events: i64,
    pub top_events: Vec<EventCount>,
    /// Every definition of the site with how often its event fired over the range (0 when never).
    pub definition_triggers: Vec<DefinitionTriggers>,
}

/// How often a definition's event (its `name`) fired over the range.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DefinitionTriggers {
    pub id: i64,
    pub count: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct EventCount {
    pub name: String,
    pub count: i64,
}

impl Analytics {
    /// Event totals of a site over a range, with the most frequent names.
    pub fn events_summary(&self, site: WebsiteId, range: TimeRange) -> Result<EventSummary> {
        let (from, to) = range.buckets();
        let rows: Vec<(String, i64, i64)> = self.db.read(|conn| {
            let sql = format!(
                "SELECT value, SUM(events + conversions) AS n, SUM(conversions) FROM {}
                 WHERE website_id = ?1 AND dim = 'event' AND bucket >= ?2 AND bucket < ?3
                 GROUP BY value HAVING n > 0 ORDER BY n DESC, value",
                range.grain.table()
            );
            let mut stmt = conn.prepare_cached(&sql)?;
            let rows = stmt.query_map(params![site, from, to], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })?;
        let definitions: Vec<(i64, String)> = self.db.read(|conn| {
            let mut stmt = conn.prepare_cached("SELECT id, name FROM event_definitions WHERE website_id = ?1")?;
            let rows = stmt.query_map([site], |r| Ok((r.get(0)?, r.get(1)?)))?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })?;
        Ok(EventSummary::of(rows, definitions))
    }
}

impl EventSummary {
    /// The summary of a range from its (event name, count, conversions) rows, most first, and the site's
    /// definitions as (id, name).
    pub(crate) fn of(rows: Vec<(String, i64, i64)>, definitions: Vec<(i64, String)>) -> EventSummary {
        let counts: std::collections::HashMap<&str, i64> = rows.iter().map(|r| (r.0.as_str(), r.1)).collect();
        let definition_triggers = definitions
            .iter()
            .map(|(id, name)| DefinitionTriggers { id: *id, count: counts.get(name.as_str()).copied().unwrap_or(0) })
            .collect();
        EventSummary {
            definition_triggers,
            total_events: rows.iter().map(|r| r.1).sum(),
            unique_events: rows.len() as i64,
            conversion_events: rows.iter().map(|r| r.2).sum(),
            top_events: rows.into_iter().take(TOP_EVENTS).map(|(name, count, _)| EventCount { name, count }).collect(),
        }
    }
}
