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
const SCHEMA: &[(&str, &str)] = &[
    (
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
    ),
    (
        "replays2_interactions",
        // The heatmap data of tracked visits, sharded as their hits are (same month partitions, same sharding
        // key), one row per stored item: a point (`kind` click, move or submit: x, y, selector, offset), a
        // form-field event (focus, blur or change: form, field, filled) or a scroll depth report (`scroll`:
        // depth, percent). SQLite keeps a page view's deepest scroll; here each report is a row and reads take
        // the greatest. offset_x and offset_y are NULL for points that sent no offset.
        "CREATE TABLE IF NOT EXISTS {db}.interactions_local (
        month UInt32,
        website_id Int64,
        ts Int64,
        visit_id Int64,
        visitor UInt64,
        session_key String,
        path String,
        kind String,
        x Int64,
        y Int64,
        page_w Int64,
        page_h Int64,
        viewport_w Int64,
        viewport_h Int64,
        selector String,
        offset_x Nullable(Float64),
        offset_y Nullable(Float64),
        form String,
        field String,
        filled UInt8,
        depth Int64
     ) ENGINE = MergeTree()
     PARTITION BY month
     ORDER BY (website_id, path, ts)
     SETTINGS index_granularity = 8192, old_parts_lifetime = 1, cleanup_delay_period = 1,
        cleanup_delay_period_random_add = 0;
     CREATE TABLE IF NOT EXISTS {db}.interactions AS {db}.interactions_local
        ENGINE = Distributed({cluster}, {db}, interactions_local, visitor)",
    ),
    (
        "replays3_interaction_order",
        // A row's place in its body (SQLite's row id order within it): the moves of a body share one time,
        // and the newest moves and each field's last event are taken by time, then by this.
        "ALTER TABLE {db}.interactions_local ADD COLUMN seq UInt32;
     ALTER TABLE {db}.interactions ADD COLUMN seq UInt32",
    ),
    (
        "rollups_hours",
        // The rollups of closed hours (see rollups.rs), each shard's from its own hits: SQLite's rollup_hours
        // columns, `hour` in milliseconds. Summing: a shard's rows of one key add up, so a rebuild inserts the
        // difference to what is stored and a row summing to zero goes at the next merge. Not partitioned by
        // month: retention keeps rollups, as SQLite's does, and a deletion rebuilds them. Reads go through the
        // Distributed table and sum the shards. `rollup_marks` holds each shard's progress: every hour before
        // its greatest `through` is rolled up on that shard.
        "CREATE TABLE IF NOT EXISTS {db}.rollup_hours_local (
        website_id Int64,
        dim String,
        hour Int64,
        value String,
        pageviews Int64,
        visits Int64,
        visitors Int64,
        events Int64,
        conversions Int64,
        bounces Int64,
        duration_s Int64
     ) ENGINE = SummingMergeTree()
     ORDER BY (website_id, dim, hour, value)
     SETTINGS index_granularity = 8192, old_parts_lifetime = 1, cleanup_delay_period = 1,
        cleanup_delay_period_random_add = 0;
     CREATE TABLE IF NOT EXISTS {db}.rollup_hours AS {db}.rollup_hours_local
        ENGINE = Distributed({cluster}, {db}, rollup_hours_local, website_id);
     CREATE TABLE IF NOT EXISTS {db}.rollup_marks_local (shard UInt32, through Int64, at Int64)
        ENGINE = MergeTree() ORDER BY (shard, through);
     CREATE TABLE IF NOT EXISTS {db}.rollup_marks AS {db}.rollup_marks_local
        ENGINE = Distributed({cluster}, {db}, rollup_marks_local, shard)",
    ),
    (
        "deletions_marks",
        // The visits a deletion before a date empties, listed on their shard before they are deleted: the
        // deleting mutation reads this fixed list rather than the hits it changes part by part, and finds it
        // again after a restart. A deletion's rows go once its mutation is done.
        "CREATE TABLE IF NOT EXISTS {db}.deletion_marks_local (deletion UInt64, visit_id Int64, touched UInt8, last Int64)
        ENGINE = MergeTree() ORDER BY (deletion, visit_id)
        SETTINGS old_parts_lifetime = 1, cleanup_delay_period = 1, cleanup_delay_period_random_add = 0",
    ),
    (
        "imports_hours",
        // Daily aggregates imported from another tool (Plausible's export), as SQLite keeps them in
        // `imported_rollups` and its rollups: rollup_hours' columns, `hour` the day's midnight in milliseconds,
        // and the import they came from. A table of their own, since a rollup rebuild recomputes
        // `rollup_hours_local` from hits; reads add these over the whole range asked. A site's rows are on one
        // shard (by its id); reads go through the Distributed table.
        "CREATE TABLE IF NOT EXISTS {db}.imported_hours_local (
        import_id Int64,
        website_id Int64,
        dim String,
        hour Int64,
        value String,
        pageviews Int64,
        visits Int64,
        visitors Int64,
        events Int64,
        conversions Int64,
        bounces Int64,
        duration_s Int64
     ) ENGINE = MergeTree()
     ORDER BY (website_id, dim, hour, value)
     SETTINGS index_granularity = 8192, old_parts_lifetime = 1, cleanup_delay_period = 1,
        cleanup_delay_period_random_add = 0;
     CREATE TABLE IF NOT EXISTS {db}.imported_hours AS {db}.imported_hours_local
        ENGINE = Distributed({cluster}, {db}, imported_hours_local, website_id)",
    ),
    (
        "sources_and_versions",
        // Each hit's visit source as named at ingest (`ingest::sources`), as SQLite's `sessions.source`; reads
        // take a visit's from its first hit. Rows stored before are named once by `sources::name_stored`. And
        // the browser's and the system's versions of the hit's user agent (SQLite's `sessions.browser_version`,
        // `os_version`), '' for rows stored before.
        "ALTER TABLE {db}.hits_local ADD COLUMN source String;
     ALTER TABLE {db}.hits ADD COLUMN source String;
     ALTER TABLE {db}.hits_local ADD COLUMN browser_version String;
     ALTER TABLE {db}.hits ADD COLUMN browser_version String;
     ALTER TABLE {db}.hits_local ADD COLUMN os_version String;
     ALTER TABLE {db}.hits ADD COLUMN os_version String",
    ),
];

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
pub(super) const SITE_TABLES: [&str; 4] =
    ["hits_local", "interactions_local", "rollup_hours_local", "imported_hours_local"];

/// The kind of a hits row that only keeps its visit alive at its time (see `sink::touch_row`): every read
/// that lists or counts hits by kind leaves it out.
pub const TOUCH: &str = "touch";

/// One stored heatmap item of a tracked visit, a row of `interactions_local` (field names are its columns;
/// those a kind does not use stay empty or 0).
#[derive(Debug, Clone, Default, Serialize)]
pub struct InteractionRow {
    pub month: u32,
    pub website_id: WebsiteId,
    pub ts: Millis,
    pub visit_id: i64,
    /// The visit's visitor hash: the sharding key, as for its hits.
    pub visitor: u64,
    pub session_key: String,
    pub path: String,
    /// click, move, submit (points), focus, blur, change (form fields) or scroll (a depth report).
    pub kind: &'static str,
    pub x: i64,
    pub y: i64,
    pub page_w: i64,
    pub page_h: i64,
    pub viewport_w: i64,
    pub viewport_h: i64,
    pub selector: String,
    pub offset_x: Option<f64>,
    pub offset_y: Option<f64>,
    pub form: String,
    pub field: String,
    pub filled: u8,
    pub depth: i64,
    /// The row's place in its interactions body.
    pub seq: u32,
}

/// A row stored on its visitor's shard.
pub trait ShardedRow: Serialize {
    fn visitor(&self) -> u64;
}

impl ShardedRow for HitRow {
    fn visitor(&self) -> u64 {
        self.visitor
    }
}

impl ShardedRow for InteractionRow {
    fn visitor(&self) -> u64 {
        self.visitor
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
    /// The visit's source, named at ingest (`ingest::sources::source_of`; '' = direct).
    pub source: String,
    /// The browser's major version ("118") and the system's major[.minor] ("10.15"), '' when unknown.
    pub browser_version: String,
    pub os_version: String,
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
    /// The rollups' mark as last read, and when (see `rollups::Events::rolled_up_through`).
    pub(super) mark: std::sync::Mutex<Option<(Instant, Millis)>>,
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
            mark: std::sync::Mutex::new(None),
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
                match node.execute(statement) {
                    // 18.16 has no `ADD COLUMN IF NOT EXISTS`: a daemon starting beside this one added it first.
                    Err(e) if statement.starts_with("ALTER") && e.to_string().contains("already exists") => {}
                    other => other?,
                }
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
        self.insert_into("hits_local", rows)
    }

    /// Stores heatmap rows as `insert` stores hits (each on its visitor's shard, synchronously).
    pub fn insert_interactions(&self, rows: &[InteractionRow]) -> Result<()> {
        self.insert_into("interactions_local", rows)
    }

    fn insert_into<R: ShardedRow>(&self, local_table: &str, rows: &[R]) -> Result<()> {
        let mut bodies: Vec<Vec<u8>> = vec![Vec::new(); self.nodes.len()];
        for row in rows {
            let body = &mut bodies[self.shard_of(row.visitor())];
            serde_json::to_writer(&mut *body, row).map_err(|e| Error::Internal(e.to_string()))?;
            body.push(b'\n');
        }
        let table = format!("{}.{local_table}", self.database);
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
    pub(super) fn delete_where(&self, condition: &str) -> Result<()> {
        self.delete_in(&["hits_local"], condition)
    }

    /// Deletes the hits and the heatmap data matching `condition` (on columns both tables have: `website_id`,
    /// `visit_id`, `session_key`) on every shard, awaited.
    pub(super) fn delete_visits_where(&self, condition: &str) -> Result<()> {
        self.delete_in(&LOCAL_TABLES, condition)
    }

    /// Stores a site's imported daily aggregates on the site's shard with one synchronous insert.
    pub(super) fn insert_imported<R: Serialize>(&self, site: WebsiteId, rows: &[R]) -> Result<()> {
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
    pub(super) fn delete_imported_where(&self, condition: &str) -> Result<()> {
        self.delete_in(&["imported_hours_local"], condition)
    }

    /// Deletes the heatmap data matching `condition` on every shard, awaited.
    pub(super) fn delete_interactions_where(&self, condition: &str) -> Result<()> {
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
    pub(super) fn await_mutations(&self, node: &Node, local_table: &str) -> Result<()> {
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

    /// A click at each hit of `rows()`.
    fn interaction_rows() -> Vec<InteractionRow> {
        rows()
            .into_iter()
            .map(|hit| InteractionRow {
                month: hit.month,
                website_id: hit.website_id,
                ts: hit.ts,
                visit_id: hit.visit_id,
                visitor: hit.visitor,
                session_key: hit.session_key,
                path: hit.path,
                kind: "click",
                ..InteractionRow::default()
            })
            .collect()
    }

    /// Rows of `interactions_local` on a shard matching `condition`.
    fn local_interactions(cluster: &TestCluster, shard: usize, condition: &str) -> u64 {
        cluster.events().nodes()[shard]
            .query_value(&format!("SELECT count() FROM {}.interactions_local WHERE {condition}", cluster.database))
            .unwrap()
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
        events.insert_interactions(&interaction_rows()).unwrap();
        for shard in 0..2 {
            assert!(cluster.local_rows(shard, "website_id = 1") > 0, "site 1 has rows on shard {shard}");
            assert!(local_interactions(&cluster, shard, "website_id = 1") > 0, "and heatmap rows");
        }

        events.delete_visitor(2, "visitor-3").unwrap();
        events.delete_site(1).unwrap();
        for shard in 0..2 {
            assert_eq!(cluster.local_rows(shard, "website_id = 1"), 0, "shard {shard}");
            assert_eq!(local_interactions(&cluster, shard, "website_id = 1"), 0, "shard {shard}");
            assert_eq!(cluster.local_rows(shard, "website_id = 2 AND session_key = 'visitor-3'"), 0, "shard {shard}");
        }
        assert_eq!(cluster.local_rows(0, "website_id = 2") + cluster.local_rows(1, "website_id = 2"), 21);
        assert_eq!(
            local_interactions(&cluster, 0, "website_id = 2") + local_interactions(&cluster, 1, "website_id = 2"),
            21
        );
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
