//! The traffic-spike alert's counts from ClickHouse, as email/figures.rs counts them from SQLite's events: page
//! views of tracked visits only (the anonymous ones, visit 0, are not in SQLite's events table).

use super::events::Events;
use super::visits::{int, text};
use crate::error::Result;
use crate::model::{Millis, WebsiteId};

impl Events {
    /// A site's page views in each of `windows` (start inclusive, end exclusive), in one query over the span
    /// they cover; the windows must not overlap.
    pub fn page_views_in(&self, site: WebsiteId, windows: &[(Millis, Millis)]) -> Result<Vec<i64>> {
        let (Some(from), Some(to)) = (windows.iter().map(|w| w.0).min(), windows.iter().map(|w| w.1).max()) else {
            return Ok(Vec::new());
        };
        let counts: Vec<String> =
            windows.iter().map(|(start, end)| format!("countIf(ts >= {start} AND ts < {end})")).collect();
        let db = self.database();
        let rows = self.nodes()[0].query(&format!(
            "SELECT {} FROM {db}.hits
             WHERE website_id = {site} AND ts >= {from} AND ts < {to} AND kind = 'pageview' AND visit_id != 0",
            counts.join(", ")
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
