//! Deletions and retention on every shard's local tables: mutations and dropped months, each awaited.

use std::collections::HashMap;
use std::time::{Duration, Instant};

use serde::Serialize;

use super::{Events, month_of};
use crate::cluster::clickhouse::{Node, quote};
use crate::error::{Error, Result};
use crate::model::{Millis, WebsiteId};

/// How often a mutation's or a drop's end is polled for (18.16 has no `mutations_sync`).
const POLL: Duration = Duration::from_millis(50);

/// Longest a deletion is awaited before it is reported as unfinished (it carries on in the server).
const MUTATION_TIMEOUT: Duration = Duration::from_secs(300);

/// Sites whose expiries go in one statement: SQL of about 200 bytes each, well below ClickHouse's 256 KiB
/// query size.
const EXPIRIES_PER_STATEMENT: usize = 200;

/// The retention types stored as hits, in the order `expired_rows` counts them (the names of SQLite's rules).
pub const TYPES: [&str; 3] = ["pageviews", "events", "conversions"];

/// Where a site's retention cuts its hits: rows before each cutoff go, by type as SQLite's rules split them
/// (events are every kind but page views and conversions).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Expiry {
    pub website_id: WebsiteId,
    pub pageviews: Millis,
    pub events: Millis,
    pub conversions: Millis,
    /// Where the site's heatmap data (`interactions_local`) is cut.
    pub heatmaps: Millis,
}

impl Expiry {
    /// The same cutoff for every type.
    pub fn all(website_id: WebsiteId, cutoff: Millis) -> Expiry {
        Expiry { website_id, pageviews: cutoff, events: cutoff, conversions: cutoff, heatmaps: cutoff }
    }

    fn earliest(&self) -> Millis {
        self.pageviews.min(self.events).min(self.conversions)
    }

    /// The site's expired heatmap rows as a condition on `interactions` (integers only).
    fn interactions_condition(&self) -> String {
        format!("(website_id = {} AND ts < {})", self.website_id, self.heatmaps)
    }

    /// The site's expired rows as a condition on `hits` (integers only, formatted from the values).
    fn condition(&self) -> String {
        let Expiry { website_id, pageviews, events, conversions, .. } = self;
        format!(
            "(website_id = {website_id} AND ((kind = 'pageview' AND ts < {pageviews})
                OR (kind NOT IN ('pageview', 'conversion') AND ts < {events})
                OR (kind = 'conversion' AND ts < {conversions})))"
        )
    }
}

/// The local tables of events, each deleted from with a site or an account.
const LOCAL_TABLES: [&str; 2] = ["hits_local", "interactions_local"];

/// Every local table holding a site's rows, its rollups included: what a site's deletion empties.
pub(in crate::cluster) const SITE_TABLES: [&str; 4] =
    ["hits_local", "interactions_local", "rollup_hours_local", "imported_hours_local"];

impl Events {
    /// Deletes every row of a site on every shard and waits until they are gone.
    pub fn delete_site(&self, site: WebsiteId) -> Result<()> {
        self.delete_sites(&[site])
    }

    /// Deletes every row of these sites on every shard in one mutation per shard (an account's sites are gone
    /// in one wait, not one per site) and waits until they are gone.
    pub fn delete_sites(&self, sites: &[WebsiteId]) -> Result<()> {
        if sites.is_empty() {
            return Ok(());
        }
        let ids: Vec<String> = sites.iter().map(i64::to_string).collect();
        self.delete_in(&SITE_TABLES, &format!("website_id IN ({})", ids.join(", ")))
    }

    /// Deletes every row of a site's visitor (its visits under `session_key`, hits and heatmap data) on every
    /// shard and waits.
    pub fn delete_visitor(&self, site: WebsiteId, session_key: &str) -> Result<()> {
        self.delete_in(&LOCAL_TABLES, &format!("website_id = {site} AND session_key = {}", quote(session_key)))
    }

    /// Rows each site would lose to its expiry, per type (in the order of `TYPES`), for the sites that have any;
    /// read through the Distributed table.
    pub fn expired_rows(&self, expiries: &[Expiry]) -> Result<HashMap<WebsiteId, [u64; 3]>> {
        let mut counts = HashMap::new();
        for chunk in expiries.chunks(EXPIRIES_PER_STATEMENT) {
            let condition = chunk.iter().map(Expiry::condition).collect::<Vec<_>>().join(" OR ");
            let rows = self.nodes[0].query(&format!(
                "SELECT website_id, countIf(kind = 'pageview'), countIf(kind NOT IN ('pageview', 'conversion', 'touch')),
                        countIf(kind = 'conversion')
                 FROM {}.hits WHERE {condition} GROUP BY website_id",
                self.database
            ))?;
            for row in rows {
                let numbers: Vec<i64> = row.iter().filter_map(|v| v.parse().ok()).collect();
                let [site, pageviews, events, conversions] = numbers[..] else {
                    return Err(Error::Internal("ClickHouse: unexpected expired rows row".into()));
                };
                counts.insert(site, [pageviews as u64, events as u64, conversions as u64]);
            }
        }
        Ok(counts)
    }

    /// Applies retention: months every site has expired (each site's earliest cutoff of any type is past
    /// them) are dropped as partitions (fast, frees the space at once), then each site's rows before its own
    /// cutoffs are deleted on every shard, one mutation per shard for many sites, and awaited. `expiries`
    /// must name every site: a site left out loses its dropped months too. Safe to repeat: what is gone stays
    /// gone, and a repeat after a failure carries on where it stopped.
    pub fn expire(&self, expiries: &[Expiry]) -> Result<()> {
        let Some(earliest) = expiries.iter().map(Expiry::earliest).min() else { return Ok(()) };
        self.drop_months_before("hits_local", month_of(earliest))?;
        // Only the part-months (and sites keeping less) are left to delete row by row.
        let left = self.expired_rows(expiries)?;
        let to_delete: Vec<&Expiry> = expiries.iter().filter(|e| left.contains_key(&e.website_id)).collect();
        for chunk in to_delete.chunks(EXPIRIES_PER_STATEMENT) {
            self.delete_where(&chunk.iter().map(|e| e.condition()).collect::<Vec<_>>().join(" OR "))?;
        }
        // Heatmap data by its own cutoff, the same way.
        let Some(earliest) = expiries.iter().map(|e| e.heatmaps).min() else { return Ok(()) };
        self.drop_months_before("interactions_local", month_of(earliest))?;
        for chunk in expiries.chunks(EXPIRIES_PER_STATEMENT) {
            let condition = chunk.iter().map(Expiry::interactions_condition).collect::<Vec<_>>().join(" OR ");
            let left: u64 = self.nodes[0]
                .query_value(&format!("SELECT count() FROM {}.interactions WHERE {condition}", self.database))?;
            if left > 0 {
                self.delete_in(&["interactions_local"], &condition)?;
            }
        }
        Ok(())
    }

    /// Drops the partitions of a local table's months before `month` (yyyymm) on every shard and waits until
    /// their parts are removed from disk, so a restart cannot bring them back.
    pub fn drop_months_before(&self, local_table: &str, month: u32) -> Result<()> {
        let db = &self.database;
        for node in &self.nodes {
            let partitions = node.query(&format!(
                "SELECT DISTINCT partition FROM system.parts
                 WHERE database = {} AND table = {} AND active",
                quote(db),
                quote(local_table)
            ))?;
            for partition in partitions.into_iter().filter_map(|row| row.into_iter().next()) {
                let Ok(value) = partition.parse::<u32>() else { continue };
                if value < month {
                    node.execute(&format!("ALTER TABLE {db}.{local_table} DROP PARTITION {value}"))?;
                }
            }
            self.await_gone(node, local_table, &format!("toUInt32(partition) < {month}"))?;
        }
        Ok(())
    }

    /// Deletes the hits matching `condition` on every shard, awaited (see `delete_in`).
    pub(in crate::cluster) fn delete_where(&self, condition: &str) -> Result<()> {
        self.delete_in(&["hits_local"], condition)
    }

    /// Deletes the hits and the heatmap data matching `condition` (on columns both tables have: `website_id`,
    /// `visit_id`, `session_key`) on every shard, awaited.
    pub(in crate::cluster) fn delete_visits_where(&self, condition: &str) -> Result<()> {
        self.delete_in(&LOCAL_TABLES, condition)
    }

    /// Stores a site's imported daily aggregates on the site's shard with one synchronous insert.
    pub(in crate::cluster) fn insert_imported<R: Serialize>(&self, site: WebsiteId, rows: &[R]) -> Result<()> {
        if rows.is_empty() {
            return Ok(());
        }
        let mut body = Vec::new();
        for row in rows {
            serde_json::to_writer(&mut body, row).map_err(|e| Error::Internal(e.to_string()))?;
            body.push(b'\n');
        }
        let node = &self.nodes[site.rem_euclid(self.nodes.len() as i64) as usize];
        node.insert_json_rows(&format!("{}.imported_hours_local", self.database), &body)
    }

    /// Deletes the imported daily aggregates matching `condition` on every shard, awaited.
    pub(in crate::cluster) fn delete_imported_where(&self, condition: &str) -> Result<()> {
        self.delete_in(&["imported_hours_local"], condition)
    }

    /// Deletes the heatmap data matching `condition` on every shard, awaited.
    pub(in crate::cluster) fn delete_interactions_where(&self, condition: &str) -> Result<()> {
        self.delete_in(&["interactions_local"], condition)
    }

    /// Sends a DELETE mutation to every shard's local tables (mutations through the Distributed table do not
    /// work on 18.16), then waits until each shard reports them done and their old parts removed. The mutation
    /// takes ~0.1 s; the removal waits for the server's background pool, which sleeps up to 10 s between rounds,
    /// so a deletion takes about 10 s (measured on 18.16); the tables' mutations run at the same time.
    fn delete_in(&self, local_tables: &[&str], condition: &str) -> Result<()> {
        let db = &self.database;
        for node in &self.nodes {
            for table in local_tables {
                node.execute(&format!("ALTER TABLE {db}.{table} DELETE WHERE {condition}"))?;
            }
        }
        for node in &self.nodes {
            for table in local_tables {
                self.await_until(
                    node,
                    "deletion",
                    &format!(
                        "SELECT count() FROM system.mutations WHERE database = {} AND table = {} AND is_done = 0",
                        quote(db),
                        quote(table)
                    ),
                )?;
                // The parts the mutation replaced hold the deleted rows until removed.
                self.await_gone(node, table, "NOT active")?;
            }
        }
        Ok(())
    }

    /// Waits until every mutation of a local table on `node` is done (18.16 has no `mutations_sync`).
    pub(in crate::cluster) fn await_mutations(&self, node: &Node, local_table: &str) -> Result<()> {
        self.await_until(
            node,
            "mutation",
            &format!(
                "SELECT count() FROM system.mutations WHERE database = {} AND table = {} AND is_done = 0",
                quote(&self.database),
                quote(local_table)
            ),
        )
    }

    /// Waits until no part of a local table matching `parts` (a condition on system.parts, active or outdated)
    /// is left on `node`.
    fn await_gone(&self, node: &Node, local_table: &str, parts: &str) -> Result<()> {
        let sql = format!(
            "SELECT count() FROM system.parts WHERE database = {} AND table = {} AND ({parts})",
            quote(&self.database),
            quote(local_table)
        );
        self.await_until(node, "part removal", &sql)
    }

    /// Polls `count_sql` on `node` until it answers 0.
    fn await_until(&self, node: &Node, what: &str, count_sql: &str) -> Result<()> {
        let started = Instant::now();
        loop {
            if node.query_value::<u64>(count_sql)? == 0 {
                return Ok(());
            }
            if started.elapsed() > MUTATION_TIMEOUT {
                return Err(Error::Unavailable(format!("{what} on {} has not finished yet", node.url())));
            }
            std::thread::sleep(POLL);
        }
    }
}
