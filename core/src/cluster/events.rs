//! The events store of cluster mode: one ClickHouse database on every shard with a local MergeTree table of hits
//! (`hits_local`, the rows of SQLite's `events` with their visit's dimensions, and the anonymous page views kept
//! without consent, which SQLite counts in its rollups alone: `visit_id` 0, nothing about the visitor; a read
//! of visits or visitors leaves them out) and a Distributed table over the
//! cluster (`hits`) that reads every shard. Writes go to each shard's local table directly (see `insert`);
//! deletions and retention go to each local table and are awaited. Called by the ClickHouse ingest sink and,
//! later, by the cluster's analytics and privacy services.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use serde::Serialize;

use super::clickhouse::{Node, identifier, quote};
use crate::error::{Error, Result};
use crate::model::{Millis, WebsiteId};

/// The ClickHouse database tracker uses when none is named.
pub const DEFAULT_DATABASE: &str = "tracker";

/// The schema, step by step, applied to each node in order; a node records the steps it has. Each step must be
/// idempotent (IF NOT EXISTS): two daemons starting together may both apply it (there is no ZooKeeper to lock
/// with, and `ON CLUSTER` needs one, so DDL goes to each node).
///
/// `{db}` and `{cluster}` are replaced by checked identifiers.
const SCHEMA: &[(&str, &str)] = &[(
    "0001_hits",
    // Partitioned by month (retention drops whole months); ordered for per-site range reads. Outdated parts
    // are removed within seconds rather than 8 minutes: a part dropped by retention or replaced by a deletion's
    // mutation would otherwise come back if the server restarted before they went.
    "CREATE TABLE IF NOT EXISTS {db}.hits_local (
        month UInt32,
        website_id Int64,
        ts Int64,
        visit_id Int64,
        visitor UInt64,
        session_key String,
        kind String,
        name String,
        url String,
        path String,
        referrer String,
        referrer_host String,
        utm_source String,
        utm_medium String,
        utm_campaign String,
        utm_term String,
        utm_content String,
        properties String,
        value Nullable(Float64),
        currency String,
        screen String,
        country String,
        region String,
        city String,
        device String,
        browser String,
        os String,
        ip_address String,
        organization_asn UInt32,
        organization String
     ) ENGINE = MergeTree()
     PARTITION BY month
     ORDER BY (website_id, ts)
     SETTINGS index_granularity = 8192, old_parts_lifetime = 1, cleanup_delay_period = 1,
        cleanup_delay_period_random_add = 0;
     CREATE TABLE IF NOT EXISTS {db}.hits AS {db}.hits_local
        ENGINE = Distributed({cluster}, {db}, hits_local, visitor)",
)];

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
}

impl Expiry {
    /// The same cutoff for every type.
    pub fn all(website_id: WebsiteId, cutoff: Millis) -> Expiry {
        Expiry { website_id, pageviews: cutoff, events: cutoff, conversions: cutoff }
    }

    fn earliest(&self) -> Millis {
        self.pageviews.min(self.events).min(self.conversions)
    }

    /// The site's expired rows as a condition on `hits` (integers only, formatted from the values).
    fn condition(&self) -> String {
        let Expiry { website_id, pageviews, events, conversions } = self;
        format!(
            "(website_id = {website_id} AND ((kind = 'pageview' AND ts < {pageviews})
                OR (kind NOT IN ('pageview', 'conversion') AND ts < {events})
                OR (kind = 'conversion' AND ts < {conversions})))"
        )
    }
}

/// One stored hit, a row of `hits_local` (field names are its columns).
#[derive(Debug, Clone, Default, Serialize)]
pub struct HitRow {
    pub month: u32,
    pub website_id: WebsiteId,
    pub ts: Millis,
    pub visit_id: i64,
    /// The visit's visitor hash, as unsigned: the sharding key.
    pub visitor: u64,
    pub session_key: String,
    pub kind: &'static str,
    pub name: String,
    pub url: String,
    pub path: String,
    pub referrer: String,
    pub referrer_host: String,
    pub utm_source: String,
    pub utm_medium: String,
    pub utm_campaign: String,
    pub utm_term: String,
    pub utm_content: String,
    pub properties: String,
    pub value: Option<f64>,
    pub currency: String,
    pub screen: String,
    pub country: String,
    pub region: String,
    pub city: String,
    pub device: String,
    pub browser: String,
    pub os: String,
    pub ip_address: String,
    pub organization_asn: u32,
    pub organization: String,
}

/// The month (yyyymm, UTC) a time falls in: the partition of its rows.
pub fn month_of(ts: Millis) -> u32 {
    use chrono::Datelike;
    let t = chrono::DateTime::from_timestamp_millis(ts).unwrap_or_default();
    t.year().clamp(1970, 9999) as u32 * 100 + t.month()
}

/// The events tables on every shard of the cluster.
pub struct Events {
    nodes: Vec<Node>,
    cluster: String,
    database: String,
}

impl Events {
    /// The events store on the shards at `urls` (shard order, as in `remote_servers`), creating or upgrading
    /// its tables on each.
    pub fn open(urls: &[String], cluster: &str, database: &str) -> Result<Events> {
        if urls.is_empty() {
            return Err(Error::invalid("clickhouse_url: at least one shard is needed"));
        }
        let events = Events {
            nodes: urls.iter().map(|u| Node::new(u)).collect(),
            cluster: identifier(cluster)?.to_string(),
            database: identifier(database)?.to_string(),
        };
        for node in &events.nodes {
            events.migrate(node)?;
        }
        Ok(events)
    }

    /// The shards, in order.
    pub fn nodes(&self) -> &[Node] {
        &self.nodes
    }

    /// The database's name.
    pub fn database(&self) -> &str {
        &self.database
    }

    /// The shard that holds a visitor's rows (the Distributed table's rule: key modulo the shard count).
    pub fn shard_of(&self, visitor: u64) -> usize {
        (visitor % self.nodes.len() as u64) as usize
    }

    /// The same database on other servers (tests: an unreachable shard).
    #[cfg(test)]
    pub(crate) fn with_nodes(mut self, urls: &[String]) -> Events {
        self.nodes = urls.iter().map(|u| Node::new(u)).collect();
        self
    }

    fn migrate(&self, node: &Node) -> Result<()> {
        let db = &self.database;
        node.execute(&format!("CREATE DATABASE IF NOT EXISTS {db}"))?;
        // MergeTree, not TinyLog: two daemons starting together insert their step names at once, and TinyLog,
        // which has no locking, then failed one of them ("File not found: .../tmp_sizes.json" on 18.16).
        node.execute(&format!(
            "CREATE TABLE IF NOT EXISTS {db}.schema_migrations (name String, applied_at DateTime DEFAULT now())
             ENGINE = MergeTree ORDER BY name"
        ))?;
        let applied: HashSet<String> = node
            .query(&format!("SELECT DISTINCT name FROM {db}.schema_migrations"))?
            .into_iter()
            .filter_map(|row| row.into_iter().next())
            .collect();
        for (name, sql) in SCHEMA {
            if applied.contains(*name) {
                continue;
            }
            let sql = sql.replace("{db}", db).replace("{cluster}", &self.cluster);
            for statement in sql.split(';').map(str::trim).filter(|s| !s.is_empty()) {
                node.execute(statement)?;
            }
            node.execute(&format!("INSERT INTO {db}.schema_migrations (name) VALUES ({})", quote(name)))?;
        }
        Ok(())
    }

    /// Stores rows, each on its visitor's shard, with one synchronous insert per shard into its local table
    /// (not through the Distributed table, whose inserts are queued and sent later). Ok only when every shard
    /// that was sent rows answered Ok; on an error some shards may hold their rows (a retried batch then
    /// stores them twice on those shards: at least once, never lost).
    pub fn insert(&self, rows: &[HitRow]) -> Result<()> {
        let mut bodies: Vec<Vec<u8>> = vec![Vec::new(); self.nodes.len()];
        for row in rows {
            let body = &mut bodies[self.shard_of(row.visitor)];
            serde_json::to_writer(&mut *body, row).map_err(|e| Error::Internal(e.to_string()))?;
            body.push(b'\n');
        }
        let table = format!("{}.hits_local", self.database);
        // The shards are written at the same time: a batch waits for the slowest, not the sum.
        std::thread::scope(|scope| {
            let sent: Vec<_> = self
                .nodes
                .iter()
                .zip(&bodies)
                .filter(|(_, body)| !body.is_empty())
                .map(|(node, body)| scope.spawn(|| node.insert_json_rows(&table, body)))
                .collect();
            sent.into_iter()
                .map(|s| s.join().unwrap_or_else(|_| Err(Error::Internal("insert thread panicked".into()))))
                .collect::<Result<Vec<()>>>()
        })?;
        Ok(())
    }

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
        self.delete_where(&format!("website_id IN ({})", ids.join(", ")))
    }

    /// Deletes every row of a site's visitor (its visits under `session_key`) on every shard and waits.
    pub fn delete_visitor(&self, site: WebsiteId, session_key: &str) -> Result<()> {
        self.delete_where(&format!("website_id = {site} AND session_key = {}", quote(session_key)))
    }

    /// Rows each site would lose to its expiry, per type (in the order of `TYPES`), for the sites that have any;
    /// read through the Distributed table.
    pub fn expired_rows(&self, expiries: &[Expiry]) -> Result<HashMap<WebsiteId, [u64; 3]>> {
        let mut counts = HashMap::new();
        for chunk in expiries.chunks(EXPIRIES_PER_STATEMENT) {
            let condition = chunk.iter().map(Expiry::condition).collect::<Vec<_>>().join(" OR ");
            let rows = self.nodes[0].query(&format!(
                "SELECT website_id, countIf(kind = 'pageview'), countIf(kind NOT IN ('pageview', 'conversion')),
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
        self.drop_months_before(month_of(earliest))?;
        // Only the part-months (and sites keeping less) are left to delete row by row.
        let left = self.expired_rows(expiries)?;
        let to_delete: Vec<&Expiry> = expiries.iter().filter(|e| left.contains_key(&e.website_id)).collect();
        for chunk in to_delete.chunks(EXPIRIES_PER_STATEMENT) {
            self.delete_where(&chunk.iter().map(|e| e.condition()).collect::<Vec<_>>().join(" OR "))?;
        }
        Ok(())
    }

    /// Drops the partitions of months before `month` (yyyymm) on every shard and waits until their parts are
    /// removed from disk, so a restart cannot bring them back.
    pub fn drop_months_before(&self, month: u32) -> Result<()> {
        let db = &self.database;
        for node in &self.nodes {
            let partitions = node.query(&format!(
                "SELECT DISTINCT partition FROM system.parts
                 WHERE database = {} AND table = 'hits_local' AND active",
                quote(db)
            ))?;
            for partition in partitions.into_iter().filter_map(|row| row.into_iter().next()) {
                let Ok(value) = partition.parse::<u32>() else { continue };
                if value < month {
                    node.execute(&format!("ALTER TABLE {db}.hits_local DROP PARTITION {value}"))?;
                }
            }
            self.await_gone(node, &format!("toUInt32(partition) < {month}"))?;
        }
        Ok(())
    }

    /// Sends a DELETE mutation to every shard's local table (mutations through the Distributed table do not
    /// work on 18.16), then waits until each shard reports it done and its old parts removed. The mutation takes
    /// ~0.1 s; the removal waits for the server's background pool, which sleeps up to 10 s between rounds, so a
    /// deletion takes about 10 s (measured on 18.16).
    pub(super) fn delete_where(&self, condition: &str) -> Result<()> {
        let db = &self.database;
        for node in &self.nodes {
            node.execute(&format!("ALTER TABLE {db}.hits_local DELETE WHERE {condition}"))?;
        }
        for node in &self.nodes {
            self.await_until(
                node,
                "deletion",
                &format!(
                    "SELECT count() FROM system.mutations WHERE database = {} AND table = 'hits_local' AND is_done = 0",
                    quote(db)
                ),
            )?;
            // The parts the mutation replaced hold the deleted rows until removed.
            self.await_gone(node, "NOT active")?;
        }
        Ok(())
    }

    /// Waits until no part of `hits_local` matching `parts` (a condition on system.parts, active or outdated)
    /// is left on `node`.
    fn await_gone(&self, node: &Node, parts: &str) -> Result<()> {
        let sql = format!(
            "SELECT count() FROM system.parts WHERE database = {} AND table = 'hits_local' AND ({parts})",
            quote(&self.database)
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::testing::{SHARDS, TestCluster, fresh};

    const DAY: i64 = 86_400_000;
    /// 2026-09-15 and 2026-11-10, 12:00 UTC.
    const SEPTEMBER: i64 = 1_789_473_600_000;
    const NOVEMBER: i64 = 1_794_312_000_000;

    /// Rows of two sites, several visitors each (on both shards), in September and November.
    fn rows() -> Vec<HitRow> {
        let mut rows = Vec::new();
        for site in [1, 2] {
            for visitor in 0..8u64 {
                for ts in [SEPTEMBER, NOVEMBER, NOVEMBER + DAY] {
                    rows.push(HitRow {
                        month: month_of(ts),
                        website_id: site,
                        ts: ts + visitor as i64,
                        visit_id: visitor as i64,
                        visitor: visitor * 7919,
                        session_key: format!("visitor-{visitor}"),
                        kind: "pageview",
                        path: "/".into(),
                        ..HitRow::default()
                    });
                }
            }
        }
        rows
    }

    #[test]
    fn months_are_partitions_in_utc() {
        assert_eq!(month_of(SEPTEMBER), 202609);
        assert_eq!(month_of(NOVEMBER), 202611);
        assert_eq!(month_of(1_793_491_199_999), 202610, "the last millisecond of October");
        assert_eq!(month_of(1_793_491_200_000), 202611);
    }

    #[test]
    fn each_schema_step_applies_once_and_a_reopen_applies_nothing() {
        let Some(cluster) = fresh() else { return };
        let (first, second) = std::thread::scope(|s| {
            let a = s.spawn(|| cluster.events());
            let b = s.spawn(|| cluster.events());
            (a.join().unwrap(), b.join().unwrap())
        });
        let applied = |events: &Events, shard: usize| -> u64 {
            events.nodes()[shard]
                .query_value(&format!("SELECT uniqExact(name) FROM {}.schema_migrations", cluster.database))
                .unwrap()
        };
        let before: u64 = first.nodes()[0]
            .query_value(&format!("SELECT count() FROM {}.schema_migrations", cluster.database))
            .unwrap();
        drop(second);
        let reopened = cluster.events();
        for shard in 0..2 {
            assert_eq!(applied(&reopened, shard), SCHEMA.len() as u64);
        }
        let after: u64 = reopened.nodes()[0]
            .query_value(&format!("SELECT count() FROM {}.schema_migrations", cluster.database))
            .unwrap();
        assert_eq!(after, before, "a daemon finding the schema current applies nothing");
    }

    #[test]
    fn deletions_leave_no_row_on_either_shard() {
        let Some(cluster) = fresh() else { return };
        let events = cluster.events();
        events.insert(&rows()).unwrap();
        for shard in 0..2 {
            assert!(cluster.local_rows(shard, "website_id = 1") > 0, "site 1 has rows on shard {shard}");
        }

        events.delete_visitor(2, "visitor-3").unwrap();
        events.delete_site(1).unwrap();
        for shard in 0..2 {
            assert_eq!(cluster.local_rows(shard, "website_id = 1"), 0, "shard {shard}");
            assert_eq!(cluster.local_rows(shard, "website_id = 2 AND session_key = 'visitor-3'"), 0, "shard {shard}");
        }
        assert_eq!(cluster.local_rows(0, "website_id = 2") + cluster.local_rows(1, "website_id = 2"), 21);
        // A hostile visitor id is one value, not SQL.
        events.delete_visitor(2, "x' OR 1 = 1 OR session_key = '").unwrap();
        assert_eq!(cluster.local_rows(0, "1") + cluster.local_rows(1, "1"), 21);
    }

    #[test]
    fn retention_drops_whole_months_and_they_stay_dropped_after_a_restart() {
        let Some(dir) = std::env::var("TRACKER_TEST_CLUSTER_DIR").ok().filter(|d| !d.is_empty()) else { return };
        let Some(mut cluster) = fresh() else { return };
        let events = cluster.events();
        events.insert(&rows()).unwrap();
        // A mutation first: the parts it rewrote are what a restart brought back on 18.16 (issue 18).
        events.delete_visitor(2, "visitor-3").unwrap();
        // Site 1 keeps from November 11th on, site 2 from November 1st: September goes as a partition, then
        // site 1's November 10th by a deletion.
        events.expire(&[Expiry::all(1, NOVEMBER + DAY / 2), Expiry::all(2, NOVEMBER - 9 * DAY)]).unwrap();
        let remaining = |c: &TestCluster| (0..2).map(|s| c.local_rows(s, "1")).sum::<u64>();
        assert_eq!(remaining(&cluster), 8 + 14);
        for shard in 0..2 {
            assert_eq!(cluster.local_rows(shard, "month = 202609"), 0);
        }

        // Restart both shards (no other test uses them meanwhile), then look again.
        let script = concat!(env!("CARGO_MANIFEST_DIR"), "/../tests/cluster/cluster.sh");
        {
            cluster.release_shards();
            let _alone = SHARDS.write().unwrap_or_else(|e| e.into_inner());
            for shard in ["1", "2"] {
                let status = std::process::Command::new("bash")
                    .args([script, "restart-clickhouse", &dir, shard])
                    .status()
                    .unwrap();
                assert!(status.success());
            }
        }
        assert_eq!(remaining(&cluster), 8 + 14, "nothing dropped or deleted came back");
        for shard in 0..2 {
            assert_eq!(cluster.local_rows(shard, "month = 202609"), 0);
            assert_eq!(cluster.local_rows(shard, &format!("website_id = 1 AND ts < {}", NOVEMBER + DAY / 2)), 0);
        }
    }
}
