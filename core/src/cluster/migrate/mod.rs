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

mod event_rows;
mod metadata;
mod recordings;

use rusqlite::Connection;
use serde::Serialize;

use super::Cluster;
use crate::db::Db;
use crate::error::{Error, Result};
use crate::model::{Millis, WebsiteId, now_ms};
use event_rows::{anonymous_pageviews, captured_kinds, heatmap_rows, imported_days, read_chunk, touches};
use metadata::copy_metadata;
use recordings::recordings;

/// Events read and stored at a time: a few MB of JSON per insert, one ClickHouse part per shard.
const CHUNK: usize = 20_000;

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

#[cfg(test)]
mod tests;
