//! The events store of cluster mode: one ClickHouse database on every shard with a local MergeTree table of hits
//! (`hits_local`, the rows of SQLite's `events` with their visit's dimensions, and the anonymous page views kept
//! without consent, which SQLite counts in its rollups alone: `visit_id` 0, nothing about the visitor; a read
//! of visits or visitors leaves them out) and a Distributed table over the
//! cluster (`hits`) that reads every shard. Writes go to each shard's local table directly (see `insert`);
//! deletions and retention go to each local table and are awaited. Called by the ClickHouse ingest sink and,
//! later, by the cluster's analytics and privacy services.

mod deletions;
mod schema;

use std::time::Instant;

use serde::Serialize;

use super::clickhouse::{Node, identifier};
use crate::error::{Error, Result};
use crate::model::{Millis, WebsiteId};
pub(super) use deletions::SITE_TABLES;
pub use deletions::{Expiry, TYPES};

/// The ClickHouse database tracker uses when none is named.
pub const DEFAULT_DATABASE: &str = "tracker";

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
}

#[cfg(test)]
mod tests;
