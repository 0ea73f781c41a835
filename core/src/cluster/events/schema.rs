//! The ClickHouse schema of the events tables, step by step, and its application to a node.

use std::collections::HashSet;

use super::Events;
use crate::cluster::clickhouse::{Node, quote};
use crate::error::Result;

/// The schema, step by step, applied to each node in order; a node records the steps it has. Each step must be
/// idempotent (IF NOT EXISTS): two daemons starting together may both apply it (there is no ZooKeeper to lock
/// with, and `ON CLUSTER` needs one, so DDL goes to each node).
///
/// `{db}` and `{cluster}` are replaced by checked identifiers.
pub(super) const SCHEMA: &[(&str, &str)] = &[
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

impl Events {
    /// Applies the steps `node` has not recorded, in order, and records each.
    pub(super) fn migrate(&self, node: &Node) -> Result<()> {
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
}
