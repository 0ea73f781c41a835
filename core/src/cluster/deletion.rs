//! A site's data deleted on the owner's request in cluster mode (`POST /api/privacy/delete-data`): its page
//! views, other events or everything, counted as SQLite's `Privacy::delete_data` reports them, then deleted on
//! every shard's local tables (an awaited mutation) before anything in PostgreSQL. Called by
//! `Tracker::delete_data`.

use super::Cluster;
use super::ingest_state::IngestState;
use super::visits::int;
use crate::error::{Error, Result};
use crate::model::{Millis, WebsiteId};
use crate::privacy::{DataType, DeletionReport};
use crate::store::meta::Metadata;

/// The hits a deletion removes, as a condition on `kind` (fixed text).
fn kinds(data: DataType) -> &'static str {
    match data {
        DataType::Pageviews => "kind = 'pageview'",
        // Touches (heatmap data keeping a visit alive) are no events: SQLite keeps no row for them.
        DataType::Events => "kind NOT IN ('pageview', 'touch')",
        DataType::All => "1",
    }
}

impl Cluster {
    /// Deletes a site's data of one type on every shard; callers check ownership. The counts are SQLite's:
    /// hits by kind, and the visits left without any hit (for `all`, every visit). There are no rollups in
    /// ClickHouse, so `rollupRows` is 0. A shard that does not answer is `Unavailable` before anything is
    /// deleted in PostgreSQL (recordings, in `meta`), and the request can be repeated.
    pub fn delete_data(&self, meta: &dyn Metadata, site: WebsiteId, data: DataType) -> Result<DeletionReport> {
        let db = self.events.database();
        let condition = format!("website_id = {site} AND {}", kinds(data));
        let mut report = DeletionReport::default();
        for node in self.events.nodes() {
            let totals = node.query(&format!(
                "SELECT countIf(kind = 'pageview'), countIf(kind NOT IN ('pageview', 'touch')) FROM {db}.hits_local
                 WHERE {condition}"
            ))?;
            // A visit's hits are all on one shard: it is emptied when each of its hits goes.
            let emptied = node.query_value::<u64>(&format!(
                "SELECT count() FROM (SELECT visit_id FROM {db}.hits_local WHERE website_id = {site} AND visit_id != 0
                 GROUP BY visit_id HAVING countIf({}) = countIf(kind != 'touch'))",
                kinds(data)
            ))?;
            let row = totals.first().ok_or_else(|| Error::Internal("ClickHouse: no deletion count".into()))?;
            report.pageviews += int(row, 0)? as u64;
            report.events += int(row, 1)? as u64;
            report.sessions += emptied;
        }
        if data == DataType::All {
            // The site's heatmap data goes with everything else (even when it has no hit left).
            self.events.delete_visits_where(&format!("website_id = {site}"))?;
        } else if report.pageviews + report.events > 0 {
            self.events.delete_where(&condition)?;
        }
        if data == DataType::All {
            // Its recordings go with their visits, as SQLite's go with its emptied sessions.
            meta.delete_replays_before(site, Millis::MAX)?;
            // Its open visits are gone: a later hit starts a new one, as on SQLite.
            IngestState::forget_site(&self.pg, site)?;
        }
        Ok(report)
    }
}
