//! The traffic-spike alert's counts from ClickHouse, as email/figures.rs counts them from SQLite's events: page
//! views of tracked visits only (the anonymous ones, visit 0, are not in SQLite's events table).

use super::events::Events;
use super::visits::{int, text};
use crate::error::Result;
use crate::model::{Millis, WebsiteId};

impl Events {
    /// A site's page views in each of `windows` (start inclusive, end exclusive; not overlapping), in one
    /// query that reads the windows alone (their ranges of the primary key), not the days between them.
    pub fn page_views_in(&self, site: WebsiteId, windows: &[(Millis, Millis)]) -> Result<Vec<i64>> {
        if windows.is_empty() {
            return Ok(Vec::new());
        }
        let within = |(start, end): &(Millis, Millis)| format!("(ts >= {start} AND ts < {end})");
        let counts: Vec<String> = windows.iter().map(|w| format!("countIf{}", within(w))).collect();
        let any: Vec<String> = windows.iter().map(within).collect();
        let db = self.database();
        let rows = self.nodes()[0].query(&format!(
            "SELECT {} FROM {db}.hits
             WHERE website_id = {site} AND ({}) AND kind = 'pageview' AND visit_id != 0",
            counts.join(", "),
            any.join(" OR ")
        ))?;
        let row = rows.first().map(Vec::as_slice).unwrap_or_default();
        (0..windows.len()).map(|i| int(row, i)).collect()
    }

    /// A site's `limit` most viewed pages from `start` to `end`, most views first, then by path.
    pub fn top_pages(&self, site: WebsiteId, start: Millis, end: Millis, limit: i64) -> Result<Vec<(String, i64)>> {
        let db = self.database();
        let rows = self.nodes()[0].query(&format!(
            "SELECT path, count() AS n FROM {db}.hits
             WHERE website_id = {site} AND ts >= {start} AND ts < {end} AND kind = 'pageview' AND visit_id != 0
             GROUP BY path ORDER BY n DESC, path LIMIT {limit}"
        ))?;
        rows.iter().map(|row| Ok((text(row, 0)?, int(row, 1)?))).collect()
    }
}
