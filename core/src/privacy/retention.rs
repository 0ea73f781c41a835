//! Retention: deletes every site's raw data older than its retention days, type by type. Run by
//! `tracker retention run` and by the daemon every `retention_interval_hours`.
//!
//! Rollups are aggregates without personal data and are kept, so dashboards still show history older
//! than the raw rows. A visit (session row) outlives its own retention while events still refer to it
//! (e.g. a conversion kept 365 days keeps its visit); it goes once its events are gone.

use std::collections::BTreeMap;

use rusqlite::{Connection, params};
use serde::Serialize;

use super::Privacy;
use super::settings::Retention;
use crate::error::Result;
use crate::model::{Millis, WebsiteId};

/// One type of data under retention: which rows of which table, aged by which column, kept how long.
struct Rule {
    /// The retention setting's name (and the report's key).
    data: &'static str,
    table: &'static str,
    time_column: &'static str,
    /// Extra condition on the table's rows (fixed SQL text).
    condition: &'static str,
    days: fn(&Retention) -> i64,
}

/// Applied in order; sessions last, so visits emptied by the rules above go in the same run. A new kind of
/// captured data is one more line here.
const RULES: &[Rule] = &[
    Rule { data: "heatmaps", table: "heatmap_points", time_column: "ts", condition: "1", days: |r| r.heatmaps },
    Rule { data: "heatmaps", table: "form_field_events", time_column: "ts", condition: "1", days: |r| r.heatmaps },
    Rule { data: "heatmaps", table: "scroll_depths", time_column: "ts", condition: "1", days: |r| r.heatmaps },
    // Chunks go with their recording (ON DELETE CASCADE).
    Rule { data: "recordings", table: "replays", time_column: "last_chunk_at", condition: "1", days: |r| r.recordings },
    Rule {
        data: "pageviews",
        table: "events",
        time_column: "ts",
        condition: "kind = 'pageview'",
        days: |r| r.pageviews,
    },
    Rule {
        data: "events",
        table: "events",
        time_column: "ts",
        condition: "kind NOT IN ('pageview', 'conversion')",
        days: |r| r.events,
    },
    Rule {
        data: "conversions",
        table: "events",
        time_column: "ts",
        condition: "kind = 'conversion'",
        days: |r| r.conversions,
    },
    Rule {
        data: "sessions",
        table: "sessions",
        time_column: "last_seen",
        condition: "NOT EXISTS (SELECT 1 FROM events e WHERE e.session_id = sessions.id)
            AND NOT EXISTS (SELECT 1 FROM heatmap_points h WHERE h.session_id = sessions.id)
            AND NOT EXISTS (SELECT 1 FROM form_field_events f WHERE f.session_id = sessions.id)
            AND NOT EXISTS (SELECT 1 FROM scroll_depths d WHERE d.session_id = sessions.id)
            AND NOT EXISTS (SELECT 1 FROM replays r WHERE r.session_id = sessions.id)",
        days: |r| r.sessions,
    },
];

/// Rows deleted per chunk; each chunk is its own short transaction so ingest is never held up for long.
const CHUNK: i64 = 5_000;

/// What one retention run deleted, per site and data type.
#[derive(Debug, Clone, Default, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RetentionReport {
    pub sites: Vec<SiteRetention>,
    /// Rows deleted per data type over all sites.
    pub total: BTreeMap<&'static str, u64>,
}

/// Rows deleted for one site, per data type.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct SiteRetention {
    pub website_id: WebsiteId,
    pub deleted: BTreeMap<&'static str, u64>,
}

impl Privacy {
    /// Applies every site's retention as if it were `now` (tests pass their own clock).
    pub(crate) fn apply_retention_at(&self, now: Millis) -> Result<RetentionReport> {
        let conn = self.db.connect()?;
        let mut report = RetentionReport::default();
        for (site, retention) in self.meta.all_retention()? {
            let mut deleted = BTreeMap::new();
            let (mut latest_cut, mut points_cut): (Option<Millis>, Option<Millis>) = (None, None);
            for rule in RULES {
                let cutoff = now - (rule.days)(&retention) * 86_400_000;
                let n = delete_older(&conn, rule, site, cutoff)?;
                *deleted.entry(rule.data).or_default() += n;
                *report.total.entry(rule.data).or_default() += n;
                if n > 0 {
                    latest_cut = latest_cut.max(Some(cutoff));
                    if matches!(rule.table, "heatmap_points" | "scroll_depths") {
                        points_cut = points_cut.max(Some(cutoff));
                    }
                }
            }
            if let Some(cutoff) = latest_cut {
                // Visits that lost rows started before the cut-off: their stored hours go.
                crate::analytics::stored_hours::forget_visit_hours(&conn, site, Millis::MIN, cutoff)?;
            }
            if let Some(cutoff) = points_cut {
                // Only points stamped before the cut-off went, so only their hours go: the later stored hours
                // are each a day's worth of counting on a big site.
                crate::analytics::stored_hours::forget_point_hours(&conn, site, Millis::MIN, cutoff)?;
            }
            report.sites.push(SiteRetention { website_id: site, deleted });
        }
        // The deleted rows are zeroed in the database (secure_delete); their earlier copies in the log go too.
        crate::db::empty_log(&conn)?;
        Ok(report)
    }
}

fn delete_older(conn: &Connection, rule: &Rule, site: WebsiteId, cutoff: Millis) -> Result<u64> {
    let Rule { table, time_column, condition, .. } = rule;
    // Every name here comes from the fixed RULES list, never from input.
    let sql = format!(
        "DELETE FROM {table} WHERE rowid IN (SELECT rowid FROM {table}
            WHERE website_id = ?1 AND {time_column} < ?2 AND {condition} LIMIT ?3)"
    );
    let mut total = 0u64;
    loop {
        let n = conn.execute(&sql, params![site, cutoff, CHUNK])?;
        total += n as u64;
        if (n as i64) < CHUNK {
            return Ok(total);
        }
    }
}
