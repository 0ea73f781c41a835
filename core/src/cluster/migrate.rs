//! `tracker migrate --to-cluster`: copies a SQLite data folder into an empty cluster. Metadata (accounts,
//! websites, settings, definitions, funnels, organizations, imports, logs) goes to PostgreSQL in one transaction
//! with the ids it had, so links, tracking snippets and API scripts keep working; each site's events go to the
//! shards in chunks, with how far each site got recorded in PostgreSQL (migration 0120), so an interrupted copy
//! carries on where it stopped and never stores a row twice. Heatmap data follows each site's events, with the
//! `touch` rows that keep its visits as long as SQLite's sessions last.
//!
//! Imported history comes along: the import records go with the metadata (ids kept, so the hits of Umami's and
//! GoatCounter's imports, copied as events, keep the `import-{id}-{n}` visit keys that name their import), and
//! each site's Plausible daily aggregates (`imported_rollups`) go to `imported_hours_local` on its shard.
//!
//! What SQLite keeps only as counts cannot become rows with visits: page views without analytics consent are in
//! its rollups alone. They become anonymous page views (the rows the cluster keeps for them, timed at the start
//! of their hour).

use std::collections::HashMap;

use postgres::types::ToSql;
use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use super::Cluster;
use super::events::{HitRow, InteractionRow, TOUCH, month_of};
use super::imports::ImportedHourRow;
use super::sink::anonymous_row;
use crate::db::Db;
use crate::error::{Error, Result};
use crate::ingest::EventKind;
use crate::model::{Millis, WebsiteId, now_ms};

/// The metadata tables copied, parents before children. Columns are those both engines have (a SQLite column
/// the cluster keeps elsewhere, such as an organization's visit count, which ClickHouse counts, is left out).
/// Sign-ins (auth sessions and refresh tokens) are not copied: the cluster signs tokens with its own secret,
/// so everyone signs in once more.
const METADATA_TABLES: &[&str] = &[
    "users",
    "recovery_codes",
    "account_audit",
    "sign_ins",
    "websites",
    "event_definitions",
    "privacy_settings",
    "privacy_audit",
    "consent_logs",
    "funnels",
    "funnel_steps",
    "organizations",
    // Interrupted imports too: their rows are copied with the rest (hits as events, aggregates in
    // `imported_days`), and the site's next import undoes them on the cluster as it would in the data folder.
    "imports",
    "import_days",
    "emails_sent",
    "annotations",
    "saved_segments",
];

/// Events read and stored at a time: a few MB of JSON per insert, one ClickHouse part per shard.
const CHUNK: usize = 20_000;

/// Rows sent in one PostgreSQL insert (its parameters stay under the protocol's 65,535).
const METADATA_ROWS_PER_INSERT: usize = 500;

/// Where a copy stands, for a progress display.
#[derive(Debug, Clone, PartialEq)]
pub enum Progress {
    /// A metadata table was copied with this many rows.
    Metadata { table: &'static str, rows: u64 },
    /// Events stored on the shards so far, of the total the data folder holds.
    Events { copied: u64, total: u64 },
}

/// What a copy did.
#[derive(Debug, Clone, Default, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct MigrationReport {
    /// Whether an earlier, interrupted copy of this data folder was carried on.
    pub resumed: bool,
    /// Rows copied per metadata table, in copy order (empty when an earlier run had copied them).
    pub metadata: Vec<(String, u64)>,
    /// Sites whose events were copied by this run.
    pub sites: u64,
    /// Events stored on the shards by this run.
    pub events: u64,
    /// Anonymous page views stored by this run (page counts of visitors without analytics consent).
    pub anonymous_pageviews: u64,
    /// Heatmap rows stored by this run: clicks, moves, submits, form-field events and page views' scroll depths.
    pub heatmap_rows: u64,
    /// Session recordings stored in PostgreSQL by this run, with their chunks.
    pub recordings: u64,
    /// Events of a kind the cluster does not store, left out.
    pub skipped_events: u64,
    /// Complete imports (those the site's import list shows) copied into PostgreSQL by this run, with the
    /// metadata; their hits are among the events.
    pub imports: u64,
    /// Imported daily aggregate rows (Plausible's, one per day, dimension and value) stored on the shards by
    /// this run.
    pub imported_days: u64,
}

/// Copies the SQLite database `db` into `cluster`, or carries on an interrupted copy of it. `source` names the
/// data folder (its database's path): a cluster holds the copy of one data folder, and refuses a copy into it
/// when it already has accounts of its own.
pub fn migrate_to_cluster(
    db: &Db,
    cluster: &Cluster,
    source: &str,
    progress: &mut dyn FnMut(Progress),
) -> Result<MigrationReport> {
    copy(db, cluster, source, progress, CHUNK, None)
}

/// Accounts with two-factor on whose authenticators the cluster will not accept: their secrets are sealed with
/// a key derived from the data folder's signing secret (`secret.key` in `data_dir`), and the cluster's daemons
/// derive theirs from `cluster_secret` (`jwt_secret`). When the two differ, their codes fail on the cluster
/// (recovery codes, plain hashes, still work). 0 when they are equal, or when the folder has no `secret.key`
/// (its daemon had a configured secret, which cannot be compared from here).
pub fn two_factor_broken_by_copy(db: &Db, data_dir: &std::path::Path, cluster_secret: Option<&[u8]>) -> Result<u64> {
    let folder_secret = match std::fs::read(data_dir.join("secret.key")) {
        Ok(secret) => secret,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(0),
        Err(e) => return Err(e.into()),
    };
    if cluster_secret == Some(folder_secret.as_slice()) {
        return Ok(0);
    }
    db.read(|conn| {
        Ok(conn.query_row("SELECT count(*) FROM users WHERE totp_enabled", [], |r| r.get::<_, i64>(0))? as u64)
    })
}

/// The copy, `chunk` events at a time; `stop_after_chunks` ends it as an interruption would, after storing
/// that many chunks on the shards and before recording the last (tests).
fn copy(
    db: &Db,
    cluster: &Cluster,
    source: &str,
    progress: &mut dyn FnMut(Progress),
    chunk: usize,
    stop_after_chunks: Option<usize>,
) -> Result<MigrationReport> {
    let conn = db.connect()?;
    let mut report = MigrationReport::default();
    let sites: Vec<WebsiteId> = {
        let mut stmt = conn.prepare("SELECT id FROM websites ORDER BY id")?;
        stmt.query_map([], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?
    };
    match started(cluster, source)? {
        Some(finished) => {
            if finished {
                return Err(Error::Conflict(format!(
                    "{source} has already been copied into this cluster; nothing to do"
                )));
            }
            report.resumed = true;
        }
        None => {
            refuse_unless_empty(cluster, &sites)?;
            report.metadata = copy_metadata(&conn, cluster, source, progress)?;
            report.imports =
                conn.query_row("SELECT COUNT(*) FROM imports WHERE complete = 1", [], |r| r.get::<_, i64>(0))? as u64;
        }
    }
    let total = conn.query_row("SELECT COUNT(*) FROM events", [], |r| r.get::<_, i64>(0))? as u64;
    // Sites whose events an earlier run copied count fully in the progress.
    let mut copied = done_events(&conn, cluster, source)?;
    progress(Progress::Events { copied, total });
    let mut chunks = 0usize;
    for site in sites {
        let state = site_state(cluster, source, site)?;
        if state.done {
            continue;
        }
        report.sites += 1;
        if !state.events_done {
            let mut through = state.copied_through;
            // What an interrupted chunk may have stored after the last recorded one goes before carrying on.
            delete_if_any(cluster, &format!("website_id = {site} AND visit_id != 0 AND ts > {through}"))?;
            loop {
                let (rows, skipped, last) = read_chunk(&conn, site, through, chunk)?;
                let Some(last) = last else { break };
                cluster.events.insert(&rows)?;
                chunks += 1;
                if stop_after_chunks.is_some_and(|stop| chunks >= stop) {
                    return Ok(report);
                }
                set_site_state(cluster, source, site, last, false, false)?;
                through = last;
                report.events += rows.len() as u64;
                report.skipped_events += skipped;
                copied += rows.len() as u64 + skipped;
                progress(Progress::Events { copied, total });
            }
            set_site_state(cluster, source, site, through, true, false)?;
        }
        // The anonymous page views, the heatmap data, the touches and the imported aggregates go in one phase: a
        // repeat deletes what an interrupted one stored.
        let stored_before = format!("website_id = {site} AND (visit_id = 0 OR kind IN ({}))", captured_kinds());
        delete_if_any(cluster, &stored_before)?;
        report.anonymous_pageviews += anonymous_pageviews(&conn, site, &mut |rows| cluster.events.insert(rows))?;
        report.heatmap_rows += heatmap_rows(&conn, site, &mut |rows| cluster.events.insert_interactions(rows))?;
        touches(&conn, site, &mut |rows| cluster.events.insert(rows))?;
        report.imported_days += imported_days(&conn, cluster, site)?;
        report.recordings += recordings(&conn, cluster, site)?;
        // Hours the cluster has rolled up already get the copied hits in their rollups.
        let first: Option<Millis> =
            conn.query_row("SELECT MIN(ts) FROM events WHERE website_id = ?1", [site], |r| r.get(0))?;
        if let Some(first) = first {
            cluster.rebuild_rollups(site, first, Millis::MAX)?;
        }
        let through = site_state(cluster, source, site)?.copied_through;
        set_site_state(cluster, source, site, through, true, true)?;
    }
    cluster.pg.with(|c| {
        c.execute("UPDATE migrated_from SET finished_at = $2 WHERE source = $1", &[&source, &now_ms()])?;
        Ok(())
    })?;
    Ok(report)
}

/// Whether a copy of `source` was started (`Some`), and if so whether it finished.
fn started(cluster: &Cluster, source: &str) -> Result<Option<bool>> {
    cluster.pg.with(|c| {
        Ok(c.query_opt("SELECT finished_at IS NOT NULL FROM migrated_from WHERE source = $1", &[&source])?
            .map(|row| row.get(0)))
    })
}

/// A copy goes into an empty cluster only: ids are kept, so they must be free, and a second data folder's
/// accounts would meet the first's.
fn refuse_unless_empty(cluster: &Cluster, sites: &[WebsiteId]) -> Result<()> {
    let (accounts, other): (i64, Option<String>) = cluster.pg.with(|c| {
        let accounts = c.query_one("SELECT count(*) FROM users", &[])?.get(0);
        let other = c.query_opt("SELECT source FROM migrated_from LIMIT 1", &[])?.map(|r| r.get(0));
        Ok((accounts, other))
    })?;
    if let Some(other) = other {
        return Err(Error::Conflict(format!("this cluster holds a copy of {other}: a cluster takes one data folder")));
    }
    if accounts > 0 {
        return Err(Error::Conflict(format!(
            "the cluster already has {accounts} account(s): migrate --to-cluster copies into an empty cluster"
        )));
    }
    if !sites.is_empty() {
        let ids: Vec<String> = sites.iter().map(i64::to_string).collect();
        let rows: u64 = cluster.events.nodes()[0].query_value(&format!(
            "SELECT count() FROM {}.hits WHERE website_id IN ({})",
            cluster.events.database(),
            ids.join(", ")
        ))?;
        if rows > 0 {
            return Err(Error::Conflict(format!(
                "the cluster's ClickHouse already holds {rows} rows of these sites' ids: copy into an empty cluster"
            )));
        }
    }
    Ok(())
}

/// Copies every metadata table and records the copy as started, in one transaction; then no id the copy
/// brought can be handed out again (each identity moves past the highest id SQLite ever gave, deleted ones
/// included), and visit ids continue after SQLite's.
fn copy_metadata(
    conn: &Connection,
    cluster: &Cluster,
    source: &str,
    progress: &mut dyn FnMut(Progress),
) -> Result<Vec<(String, u64)>> {
    let mut copied = Vec::new();
    cluster.pg.with(|client| {
        let mut tx = client.transaction()?;
        tx.execute("INSERT INTO migrated_from (source, started_at) VALUES ($1, $2)", &[&source, &now_ms()])?;
        for table in METADATA_TABLES {
            let rows = copy_table(conn, &mut tx, table)?;
            progress(Progress::Metadata { table, rows });
            copied.push((table.to_string(), rows));
        }
        let highest_visit: i64 = conn.query_row("SELECT COALESCE(MAX(id), 0) FROM sessions", [], |r| r.get(0))?;
        if highest_visit > 0 {
            tx.execute("SELECT setval('ingest_visit_ids', $1)", &[&highest_visit])?;
        }
        tx.commit()?;
        Ok(())
    })?;
    Ok(copied)
}

/// A column of a PostgreSQL table: its name, type and whether it is an identity.
struct Column {
    name: String,
    data_type: String,
    identity: bool,
}

/// Copies one table's rows, in the columns both engines have, keeping ids; moves an identity past them.
fn copy_table(conn: &Connection, tx: &mut postgres::Transaction, table: &'static str) -> Result<u64> {
    let sqlite_columns: Vec<String> = {
        let mut stmt = conn.prepare("SELECT name FROM pragma_table_info(?1)")?;
        stmt.query_map([table], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?
    };
    let columns: Vec<Column> = tx
        .query(
            "SELECT column_name, data_type, is_identity = 'YES' FROM information_schema.columns
             WHERE table_schema = current_schema() AND table_name = $1 ORDER BY ordinal_position",
            &[&table],
        )?
        .into_iter()
        .map(|r| Column { name: r.get(0), data_type: r.get(1), identity: r.get(2) })
        .filter(|c| sqlite_columns.contains(&c.name))
        .collect();
    if columns.is_empty() {
        return Err(Error::Internal(format!("migrate: no column of {table} is in both databases")));
    }
    // Names come from the two schemas, not from input; quoted all the same.
    let names: Vec<String> = columns.iter().map(|c| format!("\"{}\"", c.name)).collect();
    let mut stmt = conn.prepare(&format!("SELECT {} FROM {table}", names.join(", ")))?;
    let mut rows = stmt.query([])?;
    let mut batch: Vec<Box<dyn ToSql + Sync>> = Vec::new();
    let mut count = 0u64;
    let flush = |tx: &mut postgres::Transaction, batch: &mut Vec<Box<dyn ToSql + Sync>>| -> Result<()> {
        if batch.is_empty() {
            return Ok(());
        }
        let width = columns.len();
        let tuples: Vec<String> = (0..batch.len() / width)
            .map(|row| {
                let marks: Vec<String> = (1..=width).map(|i| format!("${}", row * width + i)).collect();
                format!("({})", marks.join(", "))
            })
            .collect();
        let sql =
            format!("INSERT INTO {table} ({}) OVERRIDING SYSTEM VALUE VALUES {}", names.join(", "), tuples.join(", "));
        let params: Vec<&(dyn ToSql + Sync)> = batch.iter().map(|b| b.as_ref()).collect();
        tx.execute(&sql, &params)?;
        batch.clear();
        Ok(())
    };
    while let Some(row) = rows.next()? {
        for (i, column) in columns.iter().enumerate() {
            batch.push(pg_value(table, column, row.get(i)?)?);
        }
        count += 1;
        if (count as usize).is_multiple_of(METADATA_ROWS_PER_INSERT) {
            flush(tx, &mut batch)?;
        }
    }
    flush(tx, &mut batch)?;
    if let Some(identity) = columns.iter().find(|c| c.identity) {
        // AUTOINCREMENT's counter holds the highest id ever given, the deleted accounts' and sites' too.
        let ever: i64 = conn
            .query_row("SELECT seq FROM sqlite_sequence WHERE name = ?1", [table], |r| r.get(0))
            .optional()
            .unwrap_or(None)
            .unwrap_or(0);
        let highest: i64 =
            conn.query_row(&format!("SELECT COALESCE(MAX(\"{}\"), 0) FROM {table}", identity.name), [], |r| r.get(0))?;
        let next = highest.max(ever);
        if next > 0 {
            tx.execute("SELECT setval(pg_get_serial_sequence($1, $2), $3)", &[&table, &identity.name, &next])?;
        }
    }
    Ok(count)
}

/// A SQLite value as the PostgreSQL column's type takes it.
fn pg_value(table: &str, column: &Column, value: Value) -> Result<Box<dyn ToSql + Sync>> {
    let mismatch = |v: &Value| {
        Error::Internal(format!("migrate: {table}.{} holds {v:?}, not a {}", column.name, column.data_type))
    };
    Ok(match (column.data_type.as_str(), value) {
        ("bigint", Value::Integer(i)) => Box::new(i),
        ("bigint", Value::Null) => Box::new(None::<i64>),
        ("integer", Value::Integer(i)) => Box::new(i32::try_from(i).map_err(|_| mismatch(&Value::Integer(i)))?),
        ("integer", Value::Null) => Box::new(None::<i32>),
        ("boolean", Value::Integer(i)) => Box::new(i != 0),
        ("boolean", Value::Null) => Box::new(None::<bool>),
        ("double precision", Value::Real(f)) => Box::new(f),
        ("double precision", Value::Integer(i)) => Box::new(i as f64),
        ("double precision", Value::Null) => Box::new(None::<f64>),
        ("text", Value::Text(s)) => Box::new(s),
        ("text", Value::Integer(i)) => Box::new(i.to_string()),
        ("text", Value::Real(f)) => Box::new(f.to_string()),
        ("text", Value::Null) => Box::new(None::<String>),
        ("bytea", Value::Blob(b)) => Box::new(b),
        ("bytea", Value::Text(s)) => Box::new(s.into_bytes()),
        ("bytea", Value::Null) => Box::new(None::<Vec<u8>>),
        (_, v) => return Err(mismatch(&v)),
    })
}

/// Deletes the hits and heatmap rows matching `condition` on every shard, awaited, when there are any: a
/// mutation rewrites the parts it touches, which a copy that was not interrupted need not pay for.
fn delete_if_any(cluster: &Cluster, condition: &str) -> Result<()> {
    let (db, node) = (cluster.events.database(), &cluster.events.nodes()[0]);
    let hits: u64 = node.query_value(&format!("SELECT count() FROM {db}.hits WHERE {condition}"))?;
    let heatmap: u64 = node.query_value(&format!("SELECT count() FROM {db}.interactions WHERE {condition}"))?;
    if hits + heatmap > 0 {
        cluster.events.delete_visits_where(condition)?;
    }
    Ok(())
}

/// Copies a site's imported daily aggregates (`imported_rollups`, bucketed in seconds) into
/// `imported_hours_local` on its shard (the hour in milliseconds), `CHUNK` rows per insert; the number of rows.
/// Part of the site's last phase: a repeat first deletes what an interrupted one stored (imports up to SQLite's
/// highest import id; the cluster's own imports take higher ones, as copy_metadata moved the sequence).
fn imported_days(conn: &Connection, cluster: &Cluster, site: WebsiteId) -> Result<u64> {
    let highest: i64 = conn.query_row("SELECT COALESCE(MAX(id), 0) FROM imports", [], |r| r.get(0))?;
    let stored_before = format!("website_id = {site} AND import_id <= {highest}");
    let stored: u64 = cluster.events.nodes()[0].query_value(&format!(
        "SELECT count() FROM {}.imported_hours WHERE {stored_before}",
        cluster.events.database()
    ))?;
    if stored > 0 {
        cluster.events.delete_imported_where(&stored_before)?;
    }
    let mut stmt = conn.prepare(
        "SELECT import_id, dim, bucket, value, pageviews, visits, visitors, events, bounces, duration_s
         FROM imported_rollups WHERE website_id = ?1 ORDER BY import_id, bucket, dim, value",
    )?;
    let mut store = |rows: &[ImportedHourRow]| cluster.events.insert_imported(site, rows);
    let mut chunks = Chunks::new(&mut store);
    let mut rows = stmt.query([site])?;
    while let Some(r) = rows.next()? {
        chunks.push(ImportedHourRow {
            import_id: r.get(0)?,
            website_id: site,
            dim: r.get(1)?,
            hour: r.get::<_, i64>(2)? * 1000,
            value: r.get(3)?,
            pageviews: r.get(4)?,
            visits: r.get(5)?,
            visitors: r.get(6)?,
            events: r.get(7)?,
            conversions: 0,
            bounces: r.get(8)?,
            duration_s: r.get(9)?,
        })?;
    }
    chunks.finish()
}

/// Recordings per PostgreSQL transaction: a recording holds up to its size limit in chunks, so a site's
/// recordings are not one transaction of gigabytes.
const RECORDINGS_PER_TRANSACTION: usize = 20;

/// Copies a site's session recordings and their chunks (as uploaded, gzip) into PostgreSQL, a few recordings per
/// transaction; SQLite's session ids are the cluster's visit ids. Part of the site's last phase: a repeat first
/// deletes the copied recordings an interrupted run stored (visit ids up to SQLite's highest session id; live
/// ingest hands out higher ones). Returns how many were copied.
fn recordings(conn: &Connection, cluster: &Cluster, site: WebsiteId) -> Result<u64> {
    let highest_visit: i64 = conn.query_row("SELECT COALESCE(MAX(id), 0) FROM sessions", [], |r| r.get(0))?;
    cluster.pg.with(|c| {
        c.execute("DELETE FROM replays WHERE website_id = $1 AND visit_id <= $2", &[&site, &highest_visit])?;
        Ok(())
    })?;
    let mut listed = conn.prepare(
        "SELECT id, session_id, started_at, ended_at, byte_size, inflated_size, event_count, click_count, screen,
            is_final, last_chunk_at
         FROM replays WHERE website_id = ?1 ORDER BY id",
    )?;
    let recordings: Vec<(i64, RecordingRow)> = listed
        .query_map([site], |r| {
            Ok((
                r.get(0)?,
                RecordingRow {
                    visit_id: r.get(1)?,
                    started_at: r.get(2)?,
                    ended_at: r.get(3)?,
                    byte_size: r.get(4)?,
                    inflated_size: r.get(5)?,
                    event_count: r.get(6)?,
                    click_count: r.get(7)?,
                    screen: r.get(8)?,
                    is_final: r.get(9)?,
                    last_chunk_at: r.get(10)?,
                },
            ))
        })?
        .collect::<rusqlite::Result<_>>()?;
    let mut chunks = conn.prepare("SELECT seq, data FROM replay_chunks WHERE replay_id = ?1 ORDER BY seq")?;
    for batch in recordings.chunks(RECORDINGS_PER_TRANSACTION) {
        cluster.pg.with(|client| {
            let mut tx = client.transaction()?;
            for (sqlite_id, r) in batch {
                let id: i64 = tx
                    .query_one(
                        "INSERT INTO replays (website_id, visit_id, started_at, ended_at, byte_size, inflated_size,
                            event_count, click_count, screen, is_final, last_chunk_at)
                         VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11) RETURNING id",
                        &[
                            &site,
                            &r.visit_id,
                            &r.started_at,
                            &r.ended_at,
                            &r.byte_size,
                            &r.inflated_size,
                            &r.event_count,
                            &r.click_count,
                            &r.screen,
                            &r.is_final,
                            &r.last_chunk_at,
                        ],
                    )?
                    .get(0);
                let mut rows = chunks.query([sqlite_id])?;
                while let Some(row) = rows.next()? {
                    let (seq, data): (i64, Vec<u8>) = (row.get(0)?, row.get(1)?);
                    tx.execute(
                        "INSERT INTO replay_chunks (replay_id, seq, data) VALUES ($1, $2, $3)",
                        &[&id, &seq, &data],
                    )?;
                }
            }
            tx.commit()?;
            Ok(())
        })?;
    }
    Ok(recordings.len() as u64)
}

/// A SQLite recording's row as PostgreSQL stores it.
struct RecordingRow {
    visit_id: i64,
    started_at: Millis,
    ended_at: Millis,
    byte_size: i64,
    inflated_size: i64,
    event_count: i64,
    click_count: i64,
    screen: String,
    is_final: bool,
    last_chunk_at: Millis,
}

/// The kinds of the rows of the last phase with a visit: heatmap rows and touches, quoted for an `IN`.
fn captured_kinds() -> String {
    [TOUCH].iter().chain(HEATMAP_KINDS.iter()).map(|kind| format!("'{kind}'")).collect::<Vec<_>>().join(", ")
}

/// The kinds of `interactions` rows: SQLite's point and form-field kinds, and scroll.
const HEATMAP_KINDS: [&str; 7] = ["click", "move", "submit", "focus", "blur", "change", "scroll"];

/// How far a site's copy got.
struct SiteState {
    copied_through: Millis,
    events_done: bool,
    done: bool,
}

fn site_state(cluster: &Cluster, source: &str, site: WebsiteId) -> Result<SiteState> {
    cluster.pg.with(|c| {
        Ok(c.query_opt(
            "SELECT copied_through, events_done, done FROM migrated_sites WHERE source = $1 AND website_id = $2",
            &[&source, &site],
        )?
        .map_or(SiteState { copied_through: Millis::MIN, events_done: false, done: false }, |r| SiteState {
            copied_through: r.get(0),
            events_done: r.get(1),
            done: r.get(2),
        }))
    })
}

fn set_site_state(
    cluster: &Cluster,
    source: &str,
    site: WebsiteId,
    through: Millis,
    events_done: bool,
    done: bool,
) -> Result<()> {
    cluster.pg.with(|c| {
        c.execute(
            "INSERT INTO migrated_sites (source, website_id, copied_through, events_done, done)
             VALUES ($1, $2, $3, $4, $5)
             ON CONFLICT (source, website_id) DO UPDATE
             SET copied_through = excluded.copied_through, events_done = excluded.events_done, done = excluded.done",
            &[&source, &site, &through, &events_done, &done],
        )?;
        Ok(())
    })
}

/// The events of the sites whose events are all copied (what a resumed copy's progress starts from).
fn done_events(conn: &Connection, cluster: &Cluster, source: &str) -> Result<u64> {
    let done: Vec<i64> = cluster.pg.with(|c| {
        Ok(c.query("SELECT website_id FROM migrated_sites WHERE source = $1 AND events_done", &[&source])?
            .iter()
            .map(|r| r.get(0))
            .collect())
    })?;
    let mut stmt = conn.prepare_cached("SELECT COUNT(*) FROM events WHERE website_id = ?1")?;
    let mut total = 0u64;
    for site in done {
        total += stmt.query_row([site], |r| r.get::<_, i64>(0))? as u64;
    }
    Ok(total)
}

/// Each row carries its visit's values (SQLite keeps one per visit: its first hit's), which the cluster's reads
/// take from a visit's first row.
///
/// The site's next events after `after`, as hits rows, in time order: `chunk` of them and every other event
/// of the last one's millisecond (so a chunk ends between two times, which is what the progress records);
/// with the number left out for their kind and the last time, `None` when none are left.
fn read_chunk(
    conn: &Connection,
    site: WebsiteId,
    after: Millis,
    chunk: usize,
) -> Result<(Vec<HitRow>, u64, Option<Millis>)> {
    const COLUMNS: &str = "SELECT e.id, e.ts, e.session_id, e.kind, e.name, e.url, e.path, e.referrer,
            COALESCE(e.properties, ''), e.value, COALESCE(e.currency, ''), s.session_key, s.visitor_hash, s.country,
            s.region, s.city, s.device, s.browser, s.os, s.screen, COALESCE(s.ip_address, ''),
            COALESCE(o.asn, 0), COALESCE(o.name, ''), s.referrer_host, s.utm_source, s.utm_medium, s.utm_campaign,
            s.utm_term, s.utm_content, s.source, s.browser_version, s.os_version
         FROM events e JOIN sessions s ON s.id = e.session_id
         LEFT JOIN organizations o ON o.id = s.organization_id";
    let mut rows = Vec::new();
    let mut skipped = 0u64;
    let mut read = |stmt: &mut rusqlite::Statement, args: &[&dyn rusqlite::ToSql]| -> Result<Option<(Millis, i64)>> {
        let mut last = None;
        let mut cursor = stmt.query(args)?;
        while let Some(r) = cursor.next()? {
            let (id, ts): (i64, Millis) = (r.get(0)?, r.get(1)?);
            last = Some((ts, id));
            let kind: String = r.get(3)?;
            let Ok(kind) = EventKind::parse(&kind) else {
                skipped += 1;
                continue;
            };
            rows.push(HitRow {
                month: month_of(ts),
                website_id: site,
                ts,
                visit_id: r.get(2)?,
                visitor: r.get::<_, i64>(12)? as u64,
                session_key: r.get(11)?,
                kind: kind.as_str(),
                name: r.get(4)?,
                url: r.get(5)?,
                path: r.get(6)?,
                referrer: r.get(7)?,
                referrer_host: r.get(23)?,
                utm_source: r.get(24)?,
                utm_medium: r.get(25)?,
                utm_campaign: r.get(26)?,
                utm_term: r.get(27)?,
                utm_content: r.get(28)?,
                source: r.get(29)?,
                browser_version: r.get(30)?,
                os_version: r.get(31)?,
                properties: r.get(8)?,
                value: r.get(9)?,
                currency: r.get(10)?,
                screen: r.get(19)?,
                country: r.get(13)?,
                region: r.get(14)?,
                city: r.get(15)?,
                device: r.get(16)?,
                browser: r.get(17)?,
                os: r.get(18)?,
                ip_address: r.get(20)?,
                organization_asn: u32::try_from(r.get::<_, i64>(21)?).unwrap_or(0),
                organization: r.get(22)?,
            });
        }
        Ok(last)
    };
    let mut first =
        conn.prepare_cached(&format!("{COLUMNS} WHERE e.website_id = ?1 AND e.ts > ?2 ORDER BY e.ts, e.id LIMIT ?3"))?;
    let Some((last_ts, last_id)) = read(&mut first, params![site, after, chunk as i64])? else {
        return Ok((rows, skipped, None));
    };
    let mut rest =
        conn.prepare_cached(&format!("{COLUMNS} WHERE e.website_id = ?1 AND e.ts = ?2 AND e.id > ?3 ORDER BY e.id"))?;
    read(&mut rest, params![site, last_ts, last_id])?;
    Ok((rows, skipped, Some(last_ts)))
}

/// Rows handed to a store `CHUNK` at a time, counted.
struct Chunks<'a, R> {
    pending: Vec<R>,
    store: &'a mut dyn FnMut(&[R]) -> Result<()>,
    stored: u64,
}

impl<'a, R> Chunks<'a, R> {
    fn new(store: &'a mut dyn FnMut(&[R]) -> Result<()>) -> Self {
        Chunks { pending: Vec::with_capacity(CHUNK), store, stored: 0 }
    }

    fn push(&mut self, row: R) -> Result<()> {
        self.pending.push(row);
        if self.pending.len() >= CHUNK { self.flush() } else { Ok(()) }
    }

    fn flush(&mut self) -> Result<()> {
        if !self.pending.is_empty() {
            (self.store)(&self.pending)?;
            self.stored += self.pending.len() as u64;
            self.pending.clear();
        }
        Ok(())
    }

    /// Stores what is left; the number of rows stored in all.
    fn finish(mut self) -> Result<u64> {
        self.flush()?;
        Ok(self.stored)
    }
}

/// The page views SQLite's rollups count beyond the site's stored page views and imported aggregates: those of
/// visitors without analytics consent (and of erased visitors, whose rollup counts SQLite keeps), one row per
/// view at the start of its hour, handed to `store` `CHUNK` at a time; the number of them.
fn anonymous_pageviews(
    conn: &Connection,
    site: WebsiteId,
    store: &mut dyn FnMut(&[HitRow]) -> Result<()>,
) -> Result<u64> {
    let mut tracked: HashMap<(i64, String), i64> = HashMap::new();
    {
        let mut stmt = conn.prepare(
            "SELECT ts / 3600000 * 3600, path, COUNT(*) FROM events
             WHERE website_id = ?1 AND kind = 'pageview' GROUP BY 1, 2
             UNION ALL
             SELECT bucket, value, SUM(pageviews) FROM imported_rollups
             WHERE website_id = ?1 AND dim = 'page' GROUP BY 1, 2",
        )?;
        let mut rows = stmt.query([site])?;
        while let Some(r) = rows.next()? {
            *tracked.entry((r.get(0)?, r.get(1)?)).or_default() += r.get::<_, i64>(2)?;
        }
    }
    let mut stmt = conn.prepare(
        "SELECT bucket, value, pageviews FROM rollup_hours
         WHERE website_id = ?1 AND dim = 'page' AND pageviews > 0 ORDER BY bucket, value",
    )?;
    let mut chunks = Chunks::new(store);
    let mut rows = stmt.query([site])?;
    while let Some(r) = rows.next()? {
        let (bucket, path, views): (i64, String, i64) = (r.get(0)?, r.get(1)?, r.get(2)?);
        let beyond = views - tracked.get(&(bucket, path.clone())).copied().unwrap_or(0);
        for _ in 0..beyond.max(0) {
            chunks.push(anonymous_row(site, bucket * 1000, path.clone()))?;
        }
    }
    chunks.finish()
}

/// The site's heatmap points, form-field events and scroll depths as `interactions` rows, handed to `store`
/// `CHUNK` at a time; the number of them. A row's place among the rows of its time is its SQLite row id (the
/// order SQLite's reads take them in; the ids' low 32 bits, which keep that order below four billion rows). A
/// page view's scroll depth is one report, at the time of the report that raised it last, which the cluster
/// gives to the same page view (the visit's latest of the path before it).
fn heatmap_rows(
    conn: &Connection,
    site: WebsiteId,
    store: &mut dyn FnMut(&[InteractionRow]) -> Result<()>,
) -> Result<u64> {
    let mut stmt = conn.prepare(
        "SELECT h.id, h.session_id, s.visitor_hash, s.session_key, h.path, h.ts, h.kind, h.x, h.y, h.page_w,
                h.page_h, h.viewport_w, h.viewport_h, h.selector, h.offset_x, h.offset_y, '', '', 0, 0
         FROM heatmap_points h JOIN sessions s ON s.id = h.session_id WHERE h.website_id = ?1
         UNION ALL
         SELECT f.id, f.session_id, s.visitor_hash, s.session_key, f.path, f.ts, f.kind, 0, 0, 0, 0, 0, 0, '',
                NULL, NULL, f.form, f.field, f.filled, 0
         FROM form_field_events f JOIN sessions s ON s.id = f.session_id WHERE f.website_id = ?1
         UNION ALL
         SELECT d.id, d.session_id, s.visitor_hash, s.session_key, d.path, d.ts, 'scroll', 0, 0, 0, 0, 0, 0, '',
                NULL, NULL, '', '', 0, d.depth
         FROM scroll_depths d JOIN sessions s ON s.id = d.session_id WHERE d.website_id = ?1",
    )?;
    let mut chunks = Chunks::new(store);
    let mut rows = stmt.query([site])?;
    while let Some(r) = rows.next()? {
        let kind: String = r.get(6)?;
        let Some(kind) = HEATMAP_KINDS.into_iter().find(|k| *k == kind) else {
            return Err(Error::Internal(format!("a heatmap row of an unknown kind: {kind}")));
        };
        let ts: Millis = r.get(5)?;
        chunks.push(InteractionRow {
            month: month_of(ts),
            website_id: site,
            ts,
            visit_id: r.get(1)?,
            visitor: r.get::<_, i64>(2)? as u64,
            session_key: r.get(3)?,
            path: r.get(4)?,
            kind,
            x: r.get(7)?,
            y: r.get(8)?,
            page_w: r.get(9)?,
            page_h: r.get(10)?,
            viewport_w: r.get(11)?,
            viewport_h: r.get(12)?,
            selector: r.get(13)?,
            offset_x: r.get(14)?,
            offset_y: r.get(15)?,
            form: r.get(16)?,
            field: r.get(17)?,
            filled: r.get(18)?,
            depth: r.get(19)?,
            seq: r.get::<_, i64>(0)? as u32,
        })?;
    }
    chunks.finish()
}

/// `touch` rows where a site's visit lasted beyond its events (SQLite's sessions are kept alive by heatmap data
/// and recordings, and may be started by them): one at the visit's start when it came before its first event,
/// one at its end when it came after its last, as the cluster's sink stores one for each body. A touch carries
/// the visit's values (the cluster's reads take them from a visit's first row) and its entry or exit page.
fn touches(conn: &Connection, site: WebsiteId, store: &mut dyn FnMut(&[HitRow]) -> Result<()>) -> Result<()> {
    let mut stmt = conn.prepare(
        "SELECT s.id, s.first_seen, s.last_seen, MIN(e.ts), MAX(e.ts), s.session_key, s.visitor_hash,
                s.entry_page, s.exit_page, s.country, s.region, s.city, s.device, s.browser, s.os, s.screen,
                COALESCE(s.ip_address, ''), COALESCE(o.asn, 0), COALESCE(o.name, ''), s.referrer_host, s.utm_source,
                s.utm_medium, s.utm_campaign, s.utm_term, s.utm_content, s.source, s.browser_version, s.os_version
         FROM sessions s LEFT JOIN events e ON e.session_id = s.id
         LEFT JOIN organizations o ON o.id = s.organization_id
         WHERE s.website_id = ?1 GROUP BY s.id
         HAVING MIN(e.ts) IS NULL OR s.first_seen < MIN(e.ts) OR s.last_seen > MAX(e.ts)",
    )?;
    let mut chunks = Chunks::new(store);
    let mut rows = stmt.query([site])?;
    while let Some(r) = rows.next()? {
        let (first_seen, last_seen): (Millis, Millis) = (r.get(1)?, r.get(2)?);
        let (first_event, last_event): (Option<Millis>, Option<Millis>) = (r.get(3)?, r.get(4)?);
        let touch = |ts: Millis, path: String| -> rusqlite::Result<HitRow> {
            Ok(HitRow {
                month: month_of(ts),
                website_id: site,
                ts,
                visit_id: r.get(0)?,
                visitor: r.get::<_, i64>(6)? as u64,
                session_key: r.get(5)?,
                kind: TOUCH,
                path,
                country: r.get(9)?,
                region: r.get(10)?,
                city: r.get(11)?,
                device: r.get(12)?,
                browser: r.get(13)?,
                os: r.get(14)?,
                screen: r.get(15)?,
                ip_address: r.get(16)?,
                organization_asn: u32::try_from(r.get::<_, i64>(17)?).unwrap_or(0),
                organization: r.get(18)?,
                referrer_host: r.get(19)?,
                utm_source: r.get(20)?,
                utm_medium: r.get(21)?,
                utm_campaign: r.get(22)?,
                utm_term: r.get(23)?,
                utm_content: r.get(24)?,
                source: r.get(25)?,
                browser_version: r.get(26)?,
                os_version: r.get(27)?,
                ..HitRow::default()
            })
        };
        if first_event.is_none_or(|first| first_seen < first) {
            chunks.push(touch(first_seen, r.get(7)?)?)?;
        }
        if last_event.is_none_or(|last| last_seen > last) && (last_event.is_some() || last_seen > first_seen) {
            chunks.push(touch(last_seen, r.get(8)?)?)?;
        }
    }
    chunks.finish().map(|_| ())
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    #[test]
    fn two_factor_accounts_are_counted_unless_the_cluster_signs_with_the_folders_secret() {
        let fixture = crate::testing::one_site();
        let (db, folder) = (fixture.tracker.db(), fixture.dir.path());
        let folder_secret = std::fs::read(folder.join("secret.key")).unwrap();
        let other = b"another secret of at least 32 bytes!".as_slice();
        assert_eq!(super::two_factor_broken_by_copy(db, folder, Some(other)).unwrap(), 0, "nobody has it on");
        db.write(|conn| Ok(conn.execute("UPDATE users SET totp_enabled = 1", [])?)).unwrap();
        assert_eq!(super::two_factor_broken_by_copy(db, folder, Some(other)).unwrap(), 1);
        assert_eq!(super::two_factor_broken_by_copy(db, folder, None).unwrap(), 1);
        assert_eq!(super::two_factor_broken_by_copy(db, folder, Some(&folder_secret)).unwrap(), 0);
        let no_key_file = tempfile::tempdir().unwrap();
        assert_eq!(super::two_factor_broken_by_copy(db, no_key_file.path(), Some(other)).unwrap(), 0);
    }

    use super::*;
    use crate::analytics::{Dimension, TimeRange};
    use crate::cluster::imports::ClusterImports;
    use crate::cluster::seeded::{
        assert_every_read_equal, comparable_funnel, funnel_input, seeded_bodies, seeded_hits,
    };
    use crate::cluster::testing::{TestCluster, fresh, store_all_in_sqlite};
    use crate::import::{ImportOptions, Source};
    use crate::ingest::replay::ChunkStats;
    use crate::ingest::{Hit, ReplayChunk};
    use crate::store::funnels::Funnels;
    use crate::store::websites::{NewWebsite, Websites};
    use crate::testing::{OneSite, one_site};

    fn open(cluster: &TestCluster) -> Cluster {
        Cluster { pg: Arc::new(cluster.pg()), events: Arc::new(cluster.events()) }
    }

    /// A data folder with a day of seeded visits and their heatmap data, page views without consent on two
    /// pages, a funnel and a deleted second site (its id must not come back).
    fn seeded_folder(now: Millis) -> OneSite {
        let fixture = one_site();
        let mut hits = seeded_hits(fixture.site, now);
        let bodies = seeded_bodies(&hits, now);
        for (i, path) in ["/p1", "/p1", "/private"].into_iter().enumerate() {
            hits.push(Hit {
                website_id: fixture.site,
                session_key: format!("no-consent-{i}"),
                ts: now - 3_600_000 * (i as i64 + 1),
                url: format!("https://s.example.com{path}"),
                path: path.into(),
                consent_required: true,
                ..Hit::default()
            });
        }
        store_all_in_sqlite(&fixture, hits, bodies);
        // Recordings of three visits, one of two chunks.
        let visits: Vec<i64> = fixture
            .tracker
            .db()
            .read(|c| {
                let mut stmt = c.prepare("SELECT id FROM sessions WHERE website_id = ?1 ORDER BY id LIMIT 3")?;
                Ok(stmt.query_map([fixture.site], |r| r.get(0))?.collect::<rusqlite::Result<_>>()?)
            })
            .unwrap();
        for (i, visit) in visits.iter().enumerate() {
            for seq in 0..=(i as i64 % 2) {
                let chunk = ReplayChunk {
                    visit: Hit { website_id: fixture.site, ..Hit::default() },
                    seq,
                    data: vec![i as u8, seq as u8, 0x1f, 0x8b],
                    is_final: seq == 1,
                    stats: ChunkStats {
                        events: 3 + seq,
                        clicks: seq,
                        first_ts: Some(now - 600_000 + seq * 1_000),
                        last_ts: Some(now - 500_000 + seq * 1_000),
                        screen: Some("390x844".into()),
                        inflated: 200,
                    },
                };
                assert!(fixture.tracker.privacy.meta.append_replay_chunk(*visit, &chunk, now - 400_000).unwrap());
            }
        }
        let funnel = funnel_input(fixture.site, &[("/p1", None), ("/p2", None)]);
        fixture.tracker.funnels.create(fixture.user.id, funnel).unwrap();
        let new = NewWebsite { name: "Gone".into(), domain: "gone.example.com".into(), tracking_level: None };
        let gone = fixture.tracker.websites.create(fixture.user.id, new).unwrap();
        fixture.tracker.websites.delete(fixture.user.id, gone.id).unwrap();
        fixture
    }

    /// Imported history in the folder: the Plausible sample export's daily aggregates into the seeded site, and
    /// the Umami sample's hits into a second site (the two cover the same days, which one site refuses); the
    /// second site's id.
    fn import_history(fixture: &OneSite) -> WebsiteId {
        let samples = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/import");
        let new = NewWebsite { name: "Umami".into(), domain: "u.example.com".into(), tracking_level: None };
        let umami = fixture.tracker.websites.create(fixture.user.id, new).unwrap().id;
        for (site, source, file) in
            [(fixture.site, Source::Plausible, "plausible"), (umami, Source::Umami, "umami-events.csv")]
        {
            let options = ImportOptions::default();
            fixture.tracker.imports.import(site, source, &samples.join(file), options, &|_| {}).unwrap();
        }
        umami
    }

    /// The imported days of the samples (2024-03-01 and 02), with the day after.
    fn imported_days_range() -> TimeRange {
        let start = 1_709_251_200_000;
        TimeRange { start, end: start + 3 * 86_400_000, grain: crate::analytics::Grain::Day }
    }

    /// Both sites' imports are listed and marked as in the folder, under the same ids, and the imported days'
    /// totals, timeseries and page breakdown are the folder's (not zero); each aggregate row is stored once.
    fn assert_imports_equal(fixture: &OneSite, cluster: &Cluster, umami: WebsiteId) {
        let imports = ClusterImports::new(cluster.pg.clone(), cluster.events.clone());
        let (sqlite, range) = (&fixture.tracker.analytics(), imported_days_range());
        for site in [fixture.site, umami] {
            let listed = fixture.tracker.imports.list(site).unwrap();
            assert_eq!(listed.len(), 1);
            assert_eq!(imports.list(site).unwrap(), listed);
            let marker = fixture.tracker.events.imported_within(site, range.start, range.end).unwrap();
            assert!(marker.is_some());
            assert_eq!(imports.imported_within(site, range.start, range.end).unwrap(), marker);
            let totals = sqlite.totals(site, range).unwrap();
            assert!(totals.pageviews > 0 && totals.visits > 0, "{totals:?}");
            assert_eq!(cluster.events.totals(site, range).unwrap(), totals, "site {site}");
            assert_eq!(cluster.events.timeseries(site, range).unwrap(), sqlite.timeseries(site, range).unwrap());
            let pages = sqlite.breakdown(site, range, Dimension::Page, 100).unwrap();
            assert_eq!(cluster.events.breakdown(site, range, Dimension::Page, 100).unwrap(), pages);
        }
        let stored: u64 = cluster.events.nodes()[0]
            .query_value(&format!("SELECT count() FROM {}.imported_hours", cluster.events.database()))
            .unwrap();
        assert_eq!(stored, count_sqlite(fixture, "imported_rollups"));
    }

    fn count_sqlite(fixture: &OneSite, table: &str) -> u64 {
        fixture
            .tracker
            .db()
            .read(|c| Ok(c.query_row(&format!("SELECT COUNT(*) FROM {table}"), [], |r| r.get::<_, i64>(0))?))
            .unwrap() as u64
    }

    /// Every page's heatmap (clicks, moves, form fields, scroll depths and time on page) over a day and a week.
    /// The data folder's recordings, their chunks included, are in PostgreSQL under the same visits.
    fn assert_recordings_equal(fixture: &OneSite, copied: &crate::store::meta::Meta) {
        let visits: Vec<i64> = (1..10_000).collect();
        let recordings = |meta: &crate::store::meta::Meta| {
            let mut listed = Vec::new();
            for mut recording in meta.visit_replays(fixture.site, &visits).unwrap() {
                let chunks: Vec<Option<Vec<u8>>> = meta
                    .replay_chunk_seqs(recording.id)
                    .unwrap()
                    .into_iter()
                    .map(|seq| meta.replay_chunk(recording.id, seq).unwrap())
                    .collect();
                recording.id = 0;
                listed.push((recording, chunks));
            }
            listed
        };
        let expected = recordings(&fixture.tracker.privacy.meta);
        assert_eq!(expected.len(), 3);
        assert_eq!(recordings(copied), expected);
    }

    fn assert_heatmaps_equal(fixture: &OneSite, cluster: &Cluster, now: Millis) {
        let (sqlite, site) = (&fixture.tracker.analytics(), fixture.site);
        for name in ["24h", "7d"] {
            let range = TimeRange::parse(name, now).unwrap();
            for path in ["/p0", "/p1", "/p2", "/p3", "/p4", "/p5", "/p6"] {
                let expected = sqlite.heatmap(site, path, range).unwrap();
                assert_eq!(cluster.events.heatmap(site, path, range).unwrap(), expected, "{name} {path}");
            }
        }
        assert_eq!(cluster.events.page_urls(site, now).unwrap(), sqlite.page_urls(site).unwrap());
    }

    #[test]
    fn a_copied_data_folder_answers_every_read_as_sqlite_and_keeps_its_ids() {
        let Some(test_cluster) = fresh() else { return };
        let now = now_ms();
        let fixture = seeded_folder(now);
        // Last week's report went out from the folder: the cluster must not send it again.
        fixture
            .tracker
            .db()
            .write(|c| {
                Ok(c.execute(
                    "INSERT INTO emails_sent (kind, website_id, user_id, period, sent_at)
                     VALUES ('weekly_report', ?1, ?2, 0, 0)",
                    [fixture.site, fixture.user.id],
                )?)
            })
            .unwrap();
        let umami = import_history(&fixture);
        let cluster = open(&test_cluster);
        // The cluster has rolled up hours the copied day falls in: the copy rebuilds their rollups.
        let later = now + crate::cluster::rollups::CLOSED_AFTER_MS + 86_400_000;
        assert!(cluster.roll_up(later).unwrap().is_some());
        let mut seen = Vec::new();
        let report = migrate_to_cluster(fixture.tracker.db(), &cluster, "folder-a", &mut |p| seen.push(p)).unwrap();
        let rolled_up: u64 = cluster.events.nodes()[0]
            .query_value(&format!("SELECT count() FROM {}.rollup_hours", cluster.events.database()))
            .unwrap();
        assert!(rolled_up > 50, "{rolled_up} rollup rows");

        let events = count_sqlite(&fixture, "events");
        assert_eq!((report.events, report.skipped_events, report.resumed), (events, 0, false), "{report:?}");
        assert_eq!(report.anonymous_pageviews, 3, "{report:?}");
        assert_eq!(report.recordings, 3, "{report:?}");
        assert_eq!(report.imports, 2, "{report:?}");
        let imported_days = count_sqlite(&fixture, "imported_rollups");
        assert!(imported_days > 10, "{imported_days}");
        assert_eq!(report.imported_days, imported_days, "{report:?}");
        assert_eq!(seen.last(), Some(&Progress::Events { copied: events, total: events }));
        for (table, rows) in &report.metadata {
            assert_eq!(*rows, count_sqlite(&fixture, table), "{table}");
        }
        assert!(report.metadata.contains(&("emails_sent".to_string(), 1)), "{:?}", report.metadata);
        assert_every_read_equal(fixture.tracker.analytics(), &cluster.events, fixture.site, now);
        let range = TimeRange::parse("24h", now).unwrap();
        assert!(fixture.tracker.analytics().totals(fixture.site, range).unwrap().pageviews > 3);
        let heatmap_rows = ["heatmap_points", "form_field_events", "scroll_depths"].map(|t| count_sqlite(&fixture, t));
        assert!(heatmap_rows.iter().all(|rows| *rows > 10), "{heatmap_rows:?}");
        assert_eq!(report.heatmap_rows, heatmap_rows.iter().sum::<u64>());
        assert_heatmaps_equal(&fixture, &cluster, now);
        assert_recordings_equal(&fixture, &test_cluster.meta());
        assert_imports_equal(&fixture, &cluster, umami);

        let funnels = Funnels::new(
            test_cluster.meta(),
            crate::events::clickhouse_engine(&test_cluster, fixture.tracker.db()),
            Websites::new(test_cluster.meta()),
        );
        let listed = |f: Vec<crate::store::funnels::Funnel>| f.into_iter().map(comparable_funnel).collect::<Vec<_>>();
        let expected = listed(fixture.tracker.funnels.list(fixture.user.id, None, range).unwrap());
        assert!(expected[0].total_visitors > 0, "{expected:?}");
        assert_eq!(listed(funnels.list(fixture.user.id, None, range).unwrap()), expected);

        // Ids are kept, and none SQLite ever gave (the deleted site's included) is handed out again.
        let (key, next_site): (String, i64) = cluster
            .pg
            .with(|c| {
                let key = c.query_one("SELECT tracking_key FROM websites WHERE id = $1", &[&fixture.site])?.get(0);
                let next = c
                    .query_one(
                        "INSERT INTO websites (user_id, name, domain, tracking_key, created_at)
                         VALUES ($1, 'New', 'new.example.com', 'new-key', 0) RETURNING id",
                        &[&fixture.user.id],
                    )?
                    .get(0);
                Ok((key, next))
            })
            .unwrap();
        let website = fixture.tracker.websites.get(fixture.user.id, fixture.site).unwrap();
        assert_eq!(key, website.tracking_key);
        assert!(next_site > fixture.site + 1, "{next_site}");

        let again = migrate_to_cluster(fixture.tracker.db(), &cluster, "folder-a", &mut |_| {});
        assert!(matches!(again, Err(Error::Conflict(_))), "{again:?}");
        let other = migrate_to_cluster(fixture.tracker.db(), &cluster, "folder-b", &mut |_| {});
        assert!(matches!(other, Err(Error::Conflict(_))), "{other:?}");
    }

    #[test]
    fn an_interrupted_copy_carries_on_without_storing_a_row_twice() {
        let Some(test_cluster) = fresh() else { return };
        let now = now_ms();
        let fixture = seeded_folder(now);
        let umami = import_history(&fixture);
        let cluster = open(&test_cluster);
        let events = count_sqlite(&fixture, "events");
        // Interrupted after storing its third chunk of 50 and before recording it.
        let first = copy(fixture.tracker.db(), &cluster, "folder", &mut |_| {}, 50, Some(3)).unwrap();
        assert_eq!(first.events, 100, "{first:?}");
        let stored = test_cluster.local_rows(0, "1") + test_cluster.local_rows(1, "1");
        assert!(stored >= 150, "the third chunk is on the shards: {stored}");

        let mut seen = Vec::new();
        let second = copy(fixture.tracker.db(), &cluster, "folder", &mut |p| seen.push(p), 50, None).unwrap();
        assert!(second.resumed && second.metadata.is_empty(), "{second:?}");
        assert_eq!(first.events + second.events, events);
        let stored = test_cluster.local_rows(0, "visit_id != 0 AND kind != 'touch'")
            + test_cluster.local_rows(1, "visit_id != 0 AND kind != 'touch'");
        assert_eq!(stored, events, "each event once");
        assert_every_read_equal(fixture.tracker.analytics(), &cluster.events, fixture.site, now);
        assert_heatmaps_equal(&fixture, &cluster, now);
        assert_recordings_equal(&fixture, &test_cluster.meta());
        assert_imports_equal(&fixture, &cluster, umami);

        // Interrupted in a site's last phase, after it stored the imported aggregates: the repeat stores each
        // once. The first run copied the import records; the second the aggregates.
        assert_eq!((first.imports, second.imports, first.imported_days), (2, 0, 0), "{first:?} {second:?}");
        assert_eq!(second.imported_days, count_sqlite(&fixture, "imported_rollups"));
        cluster
            .pg
            .with(|c| {
                c.execute("UPDATE migrated_sites SET done = FALSE WHERE website_id = $1", &[&fixture.site])?;
                c.execute("UPDATE migrated_from SET finished_at = NULL", &[])?;
                Ok(())
            })
            .unwrap();
        let third = copy(fixture.tracker.db(), &cluster, "folder", &mut |_| {}, 50, None).unwrap();
        assert!(third.imported_days > 0, "{third:?}");
        assert_imports_equal(&fixture, &cluster, umami);
        assert_every_read_equal(fixture.tracker.analytics(), &cluster.events, fixture.site, now);
    }
}
