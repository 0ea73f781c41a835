//! Session recordings behind the metadata boundary: one recording per visit with what the replay list shows,
//! and its chunks as uploaded (gzip JSON arrays of rrweb events), written by ingest (SQLite's writer inside its
//! batch's transaction, the cluster's sink a chunk at a time) and deleted with their site, a visitor or their
//! retention days.

use rusqlite::{Connection, OptionalExtension, params};

use super::{PgMeta, SqliteMeta};
use crate::error::{Error, Result};
use crate::ingest::replay::{MAX_RECORDING_BYTES, MAX_RECORDING_INFLATED_BYTES, ReplayChunk};
use crate::model::{Millis, UserId, WebsiteId};

/// Recordings: each method is one transaction.
pub trait ReplayStore {
    /// Adds a chunk to the recording of `visit` as [`append_chunk`] does; `false` when the chunk's site is gone.
    fn append_replay_chunk(&self, visit: i64, chunk: &ReplayChunk, now: Millis) -> Result<bool>;
    /// Deletes the recordings (and their chunks) of a site's `visits` (a visitor's erasure); how many went.
    fn delete_visit_replays(&self, site: WebsiteId, visits: &[i64]) -> Result<u64>;
    /// Deletes a site's recordings that got no chunk since `cutoff` (their retention); how many went.
    fn delete_replays_before(&self, site: WebsiteId, cutoff: Millis) -> Result<u64>;
    /// Up to `limit` of a site's recordings that `query` keeps, in `order`, those after `after` (the last row of
    /// the previous page) when given.
    fn replays_page(
        &self,
        site: WebsiteId,
        query: &ReplayQuery,
        order: ReplayOrder,
        after: Option<&ReplayRow>,
        limit: i64,
    ) -> Result<Vec<ReplayRow>>;
    /// How many of a site's recordings `query` keeps, how many of them are complete and their lengths' sum.
    fn replay_totals(&self, site: WebsiteId, query: &ReplayQuery) -> Result<ReplayTotals>;
    /// The recordings of a site's `visits` (a visitor's copy of their data), oldest first.
    fn visit_replays(&self, site: WebsiteId, visits: &[i64]) -> Result<Vec<ReplayRow>>;
    /// One recording of a site `owner` may read (its own or one it is a member of); `None` for anyone else's
    /// exactly as for a missing one.
    fn owned_replay(&self, owner: UserId, replay: i64) -> Result<Option<ReplayRow>>;
    /// The chunk numbers a recording holds, in order.
    fn replay_chunk_seqs(&self, replay: i64) -> Result<Vec<i64>>;
    /// One chunk as uploaded (gzip); `None` once deleted.
    fn replay_chunk(&self, replay: i64, seq: i64) -> Result<Option<Vec<u8>>>;
}

/// A recording as stored (SQLite names its visit `session_id`).
#[derive(Debug, Clone, PartialEq)]
pub struct ReplayRow {
    pub id: i64,
    pub website_id: WebsiteId,
    pub visit: i64,
    pub started_at: Millis,
    pub ended_at: Millis,
    pub byte_size: i64,
    pub click_count: i64,
    pub event_count: i64,
    /// "WIDTHxHEIGHT" of the recording's first meta event, '' when none came.
    pub screen: String,
    pub is_final: bool,
    pub last_chunk_at: Millis,
}

/// Which of a site's recordings a replay read takes: those with activity in [from, to) (a chunk at `from` or
/// later, a start before `to`), complete or not as `complete` asks when given (complete: final, or no chunk
/// since `quiet_since`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct ReplayQuery {
    pub from: Millis,
    pub to: Millis,
    pub complete: Option<bool>,
    pub quiet_since: Millis,
}

impl ReplayQuery {
    /// Every recording of the site.
    pub fn all() -> ReplayQuery {
        ReplayQuery { from: Millis::MIN, to: Millis::MAX, complete: None, quiet_since: Millis::MIN }
    }
}

/// The order of a page of recordings, newest first either way.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ReplayOrder {
    /// By id, as the list shows them.
    Created,
    /// By latest chunk, then id, as the page under a heatmap looks into them.
    LatestChunk,
}

impl ReplayOrder {
    /// The SQL condition of rows after the cursor (`{last_chunk_at}` and `{id}` stand for each engine's
    /// placeholders) and the order, each a constant.
    fn sql(self) -> (&'static str, &'static str) {
        match self {
            ReplayOrder::Created => ("r.id < {id}", "r.id DESC"),
            ReplayOrder::LatestChunk => {
                ("(r.last_chunk_at, r.id) < ({last_chunk_at}, {id})", "r.last_chunk_at DESC, r.id DESC")
            }
        }
    }
}

/// A site's recordings counted as the Session Replays cards show them.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct ReplayTotals {
    pub count: i64,
    pub complete: i64,
    /// The sum of each recording's length in whole seconds.
    pub seconds: i64,
}

/// The cursor of a page: past the previous page's last row, or before every row.
fn cursor(after: Option<&ReplayRow>) -> (Millis, i64) {
    after.map_or((Millis::MAX, i64::MAX), |row| (row.last_chunk_at, row.id))
}

/// The conditions of a [`ReplayQuery`] on `replays r`, with `$`/`?` placeholders numbered from 1: site, from,
/// to, complete (NULL for either), quiet since.
const MATCHING: &str = "r.website_id = {1} AND r.last_chunk_at >= {2} AND r.started_at < {3}
    AND ({4} IS NULL OR (r.is_final OR r.last_chunk_at <= {5}) = {4})";

/// The columns [`ReplayRow`] is read from, in its order, on both engines (`visit` aliases each engine's).
fn row_columns(visit: &str) -> String {
    format!(
        "r.id, r.website_id, r.{visit}, r.started_at, r.ended_at, r.byte_size, r.click_count, r.screen, r.is_final,
         r.last_chunk_at, r.event_count"
    )
}

/// [`MATCHING`] with SQLite's placeholders.
fn sqlite_placeholders(sql: &str) -> String {
    (1..=5).fold(sql.to_string(), |sql, n| sql.replace(&format!("{{{n}}}"), &format!("?{n}")))
}

/// [`MATCHING`] with PostgreSQL's placeholders, typed where NULL may be bound.
fn pg_placeholders(sql: &str) -> String {
    let types = ["BIGINT", "BIGINT", "BIGINT", "BOOLEAN", "BIGINT"];
    types
        .iter()
        .enumerate()
        .fold(sql.to_string(), |sql, (i, ty)| sql.replace(&format!("{{{}}}", i + 1), &format!("${}::{ty}", i + 1)))
}

fn sqlite_replay(r: &rusqlite::Row) -> rusqlite::Result<ReplayRow> {
    Ok(ReplayRow {
        id: r.get(0)?,
        website_id: r.get(1)?,
        visit: r.get(2)?,
        started_at: r.get(3)?,
        ended_at: r.get(4)?,
        byte_size: r.get(5)?,
        click_count: r.get(6)?,
        screen: r.get(7)?,
        is_final: r.get(8)?,
        last_chunk_at: r.get(9)?,
        event_count: r.get(10)?,
    })
}

fn pg_replay(r: &postgres::Row) -> ReplayRow {
    ReplayRow {
        id: r.get(0),
        website_id: r.get(1),
        visit: r.get(2),
        started_at: r.get(3),
        ended_at: r.get(4),
        byte_size: r.get(5),
        click_count: r.get(6),
        screen: r.get(7),
        is_final: r.get(8),
        last_chunk_at: r.get(9),
        event_count: r.get(10),
    }
}

/// A chunk that alone inflates past what a recording may hold.
fn refuse_oversized_chunk(chunk: &ReplayChunk) -> Result<()> {
    if chunk.stats.inflated > MAX_RECORDING_INFLATED_BYTES {
        return Err(Error::TooLarge("this visit's recording has reached its 64 MiB inflated limit".into()));
    }
    Ok(())
}

/// A chunk that would take a recording already holding `bytes` (compressed) and `inflated` past its limits.
fn refuse_past_limits(bytes: i64, inflated: i64, chunk: &ReplayChunk) -> Result<()> {
    if bytes + chunk.data.len() as i64 > MAX_RECORDING_BYTES {
        return Err(Error::TooLarge("this visit's recording has reached its 20 MiB limit".into()));
    }
    if inflated + chunk.stats.inflated > MAX_RECORDING_INFLATED_BYTES {
        return Err(Error::TooLarge("this visit's recording has reached its 64 MiB inflated limit".into()));
    }
    Ok(())
}

/// Adds a chunk to the recording of visit `session`, creating the recording on its first chunk. A chunk
/// number already stored changes nothing; a recording past 20 MiB, or past 64 MiB once inflated, is refused
/// (`TooLarge`).
pub(crate) fn append_chunk(tx: &Connection, session: i64, chunk: &ReplayChunk, now: Millis) -> Result<()> {
    let size = chunk.data.len() as i64;
    let stats = &chunk.stats;
    refuse_oversized_chunk(chunk)?;
    let existing: Option<(i64, i64, i64)> = tx
        .prepare_cached("SELECT id, byte_size, inflated_size FROM replays WHERE session_id = ?1")?
        .query_row([session], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))
        .optional()?;
    let replay = match existing {
        Some((id, bytes, inflated)) => {
            let repeated = tx
                .prepare_cached("SELECT 1 FROM replay_chunks WHERE replay_id = ?1 AND seq = ?2")?
                .exists(params![id, chunk.seq])?;
            if repeated {
                return Ok(());
            }
            refuse_past_limits(bytes, inflated, chunk)?;
            id
        }
        None => {
            let start = stats.first_ts.unwrap_or(now);
            tx.prepare_cached(
                "INSERT INTO replays (website_id, session_id, started_at, ended_at, last_chunk_at)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?
            .execute(params![
                chunk.visit.website_id,
                session,
                start,
                stats.last_ts.unwrap_or(start),
                now
            ])?;
            tx.last_insert_rowid()
        }
    };
    tx.prepare_cached("INSERT INTO replay_chunks (replay_id, seq, data) VALUES (?1, ?2, ?3)")?
        .execute(params![replay, chunk.seq, chunk.data])?;
    tx.prepare_cached(
        "UPDATE replays SET
            byte_size = byte_size + ?2,
            inflated_size = inflated_size + ?10,
            event_count = event_count + ?3,
            click_count = click_count + ?4,
            started_at = MIN(started_at, COALESCE(?5, started_at)),
            ended_at = MAX(ended_at, COALESCE(?6, ended_at)),
            screen = CASE WHEN screen = '' THEN COALESCE(?7, '') ELSE screen END,
            is_final = ?8,
            last_chunk_at = ?9
         WHERE id = ?1",
    )?
    .execute(params![
        replay,
        size,
        stats.events,
        stats.clicks,
        stats.first_ts,
        stats.last_ts,
        stats.screen,
        chunk.is_final,
        now,
        stats.inflated
    ])?;
    Ok(())
}

impl ReplayStore for SqliteMeta {
    fn append_replay_chunk(&self, visit: i64, chunk: &ReplayChunk, now: Millis) -> Result<bool> {
        self.db.write(|conn| {
            let site_exists =
                conn.prepare_cached("SELECT 1 FROM websites WHERE id = ?1")?.exists([chunk.visit.website_id])?;
            if !site_exists {
                return Ok(false);
            }
            let tx = conn.transaction()?;
            append_chunk(&tx, visit, chunk, now)?;
            tx.commit()?;
            Ok(true)
        })
    }

    fn delete_visit_replays(&self, site: WebsiteId, visits: &[i64]) -> Result<u64> {
        self.db.write(|conn| {
            let mut deleted = 0;
            let mut stmt = conn.prepare_cached("DELETE FROM replays WHERE website_id = ?1 AND session_id = ?2")?;
            for visit in visits {
                deleted += stmt.execute(params![site, visit])? as u64;
            }
            Ok(deleted)
        })
    }

    fn delete_replays_before(&self, site: WebsiteId, cutoff: Millis) -> Result<u64> {
        self.db.write(|conn| {
            Ok(conn
                .execute("DELETE FROM replays WHERE website_id = ?1 AND last_chunk_at < ?2", params![site, cutoff])?
                as u64)
        })
    }

    fn replays_page(
        &self,
        site: WebsiteId,
        query: &ReplayQuery,
        order: ReplayOrder,
        after: Option<&ReplayRow>,
        limit: i64,
    ) -> Result<Vec<ReplayRow>> {
        let (after_sql, order_sql) = order.sql();
        let (last_chunk_at, id) = cursor(after);
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT {} FROM replays r WHERE {} AND {} ORDER BY {order_sql} LIMIT ?8",
                row_columns("session_id"),
                sqlite_placeholders(MATCHING),
                after_sql.replace("{last_chunk_at}", "?6").replace("{id}", "?7"),
            ))?;
            let q = query;
            let args = params![site, q.from, q.to, q.complete, q.quiet_since, last_chunk_at, id, limit];
            let rows = stmt.query_map(args, sqlite_replay)?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

    fn replay_totals(&self, site: WebsiteId, query: &ReplayQuery) -> Result<ReplayTotals> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT count(*), coalesce(sum(r.is_final OR r.last_chunk_at <= ?5), 0),
                    coalesce(sum(max(r.ended_at - r.started_at, 0) / 1000), 0)
                 FROM replays r WHERE {}",
                sqlite_placeholders(MATCHING)
            ))?;
            let q = query;
            Ok(stmt.query_row(params![site, q.from, q.to, q.complete, q.quiet_since], |r| {
                Ok(ReplayTotals { count: r.get(0)?, complete: r.get(1)?, seconds: r.get(2)? })
            })?)
        })
    }

    fn visit_replays(&self, site: WebsiteId, visits: &[i64]) -> Result<Vec<ReplayRow>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT {} FROM replays r WHERE r.website_id = ?1 AND r.session_id = ?2",
                row_columns("session_id")
            ))?;
            let mut rows = Vec::new();
            for visit in visits {
                rows.extend(stmt.query_row(params![site, visit], sqlite_replay).optional()?);
            }
            rows.sort_by_key(|r: &ReplayRow| r.started_at);
            Ok(rows)
        })
    }

    fn owned_replay(&self, owner: UserId, replay: i64) -> Result<Option<ReplayRow>> {
        self.db.read(|conn| {
            Ok(conn
                .prepare_cached(&format!(
                    "SELECT {} FROM replays r JOIN websites w ON w.id = r.website_id WHERE r.id = ?1
                     AND (w.user_id = ?2 OR w.id IN (SELECT website_id FROM site_members WHERE user_id = ?2))",
                    row_columns("session_id")
                ))?
                .query_row(params![replay, owner], sqlite_replay)
                .optional()?)
        })
    }

    fn replay_chunk_seqs(&self, replay: i64) -> Result<Vec<i64>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached("SELECT seq FROM replay_chunks WHERE replay_id = ?1 ORDER BY seq")?;
            let rows = stmt.query_map([replay], |r| r.get(0))?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

    fn replay_chunk(&self, replay: i64, seq: i64) -> Result<Option<Vec<u8>>> {
        self.db.read(|conn| {
            Ok(conn
                .prepare_cached("SELECT data FROM replay_chunks WHERE replay_id = ?1 AND seq = ?2")?
                .query_row(params![replay, seq], |r| r.get::<_, Vec<u8>>(0))
                .optional()?)
        })
    }
}

impl ReplayStore for PgMeta {
    /// One transaction per chunk: the recording's row is created if missing and locked, so that chunks of one
    /// visit arriving through different daemons add up under the limits one after the other.
    fn append_replay_chunk(&self, visit: i64, chunk: &ReplayChunk, now: Millis) -> Result<bool> {
        refuse_oversized_chunk(chunk)?;
        let stats = &chunk.stats;
        let start = stats.first_ts.unwrap_or(now);
        let end = stats.last_ts.unwrap_or(start);
        self.pg.with(|c| {
            let mut tx = c.transaction()?;
            tx.execute(
                "INSERT INTO replays (website_id, visit_id, started_at, ended_at, last_chunk_at)
                 SELECT $1::BIGINT, $2::BIGINT, $3::BIGINT, $4::BIGINT, $5::BIGINT
                 WHERE EXISTS (SELECT 1 FROM websites WHERE id = $1)
                 ON CONFLICT (visit_id) DO NOTHING",
                &[&chunk.visit.website_id, &visit, &start, &end, &now],
            )?;
            let Some(row) = tx.query_opt(
                "SELECT id, byte_size, inflated_size,
                    EXISTS (SELECT 1 FROM replay_chunks k WHERE k.replay_id = r.id AND k.seq = $2)
                 FROM replays r WHERE visit_id = $1 FOR UPDATE",
                &[&visit, &chunk.seq],
            )?
            else {
                return Ok(false);
            };
            let (replay, bytes, inflated, repeated): (i64, i64, i64, bool) =
                (row.get(0), row.get(1), row.get(2), row.get(3));
            if repeated {
                return Ok(true);
            }
            refuse_past_limits(bytes, inflated, chunk)?;
            tx.execute(
                "INSERT INTO replay_chunks (replay_id, seq, data) VALUES ($1, $2, $3)",
                &[&replay, &chunk.seq, &chunk.data],
            )?;
            tx.execute(
                "UPDATE replays SET
                    byte_size = byte_size + $2,
                    inflated_size = inflated_size + $10,
                    event_count = event_count + $3,
                    click_count = click_count + $4,
                    started_at = LEAST(started_at, COALESCE($5, started_at)),
                    ended_at = GREATEST(ended_at, COALESCE($6, ended_at)),
                    screen = CASE WHEN screen = '' THEN COALESCE($7::TEXT, '') ELSE screen END,
                    is_final = $8,
                    last_chunk_at = $9
                 WHERE id = $1",
                &[
                    &replay,
                    &(chunk.data.len() as i64),
                    &stats.events,
                    &stats.clicks,
                    &stats.first_ts,
                    &stats.last_ts,
                    &stats.screen,
                    &chunk.is_final,
                    &now,
                    &stats.inflated,
                ],
            )?;
            tx.commit()?;
            Ok(true)
        })
    }

    fn delete_visit_replays(&self, site: WebsiteId, visits: &[i64]) -> Result<u64> {
        self.pg.with(|c| {
            Ok(c.execute("DELETE FROM replays WHERE website_id = $1 AND visit_id = ANY($2)", &[&site, &visits])?)
        })
    }

    fn delete_replays_before(&self, site: WebsiteId, cutoff: Millis) -> Result<u64> {
        self.pg.with(|c| {
            Ok(c.execute("DELETE FROM replays WHERE website_id = $1 AND last_chunk_at < $2", &[&site, &cutoff])?)
        })
    }

    fn replays_page(
        &self,
        site: WebsiteId,
        query: &ReplayQuery,
        order: ReplayOrder,
        after: Option<&ReplayRow>,
        limit: i64,
    ) -> Result<Vec<ReplayRow>> {
        let (after_sql, order_sql) = order.sql();
        let (last_chunk_at, id) = cursor(after);
        let q = query;
        // PostgreSQL types every parameter it is given: the cursor's last chunk only where the order uses it.
        let mut args: Vec<&(dyn postgres::types::ToSql + Sync)> =
            vec![&site, &q.from, &q.to, &q.complete, &q.quiet_since, &limit, &id];
        if order == ReplayOrder::LatestChunk {
            args.push(&last_chunk_at);
        }
        self.pg.with(|c| {
            let rows = c.query(
                &format!(
                    "SELECT {} FROM replays r WHERE {} AND {} ORDER BY {order_sql} LIMIT $6",
                    row_columns("visit_id"),
                    pg_placeholders(MATCHING),
                    after_sql.replace("{last_chunk_at}", "$8::BIGINT").replace("{id}", "$7::BIGINT"),
                ),
                &args,
            )?;
            Ok(rows.iter().map(pg_replay).collect())
        })
    }

    fn replay_totals(&self, site: WebsiteId, query: &ReplayQuery) -> Result<ReplayTotals> {
        let q = query;
        self.pg.with(|c| {
            let row = c.query_one(
                &format!(
                    "SELECT count(*), count(*) FILTER (WHERE r.is_final OR r.last_chunk_at <= $5),
                        coalesce(sum(GREATEST(r.ended_at - r.started_at, 0) / 1000), 0)::BIGINT
                     FROM replays r WHERE {}",
                    pg_placeholders(MATCHING)
                ),
                &[&site, &q.from, &q.to, &q.complete, &q.quiet_since],
            )?;
            Ok(ReplayTotals { count: row.get(0), complete: row.get(1), seconds: row.get(2) })
        })
    }

    fn visit_replays(&self, site: WebsiteId, visits: &[i64]) -> Result<Vec<ReplayRow>> {
        self.pg.with(|c| {
            let rows = c.query(
                &format!(
                    "SELECT {} FROM replays r WHERE r.website_id = $1 AND r.visit_id = ANY($2) ORDER BY r.started_at",
                    row_columns("visit_id")
                ),
                &[&site, &visits],
            )?;
            Ok(rows.iter().map(pg_replay).collect())
        })
    }

    fn owned_replay(&self, owner: UserId, replay: i64) -> Result<Option<ReplayRow>> {
        self.pg.with(|c| {
            let row = c.query_opt(
                &format!(
                    "SELECT {} FROM replays r JOIN websites w ON w.id = r.website_id WHERE r.id = $1
                     AND (w.user_id = $2 OR w.id IN (SELECT website_id FROM site_members WHERE user_id = $2))",
                    row_columns("visit_id")
                ),
                &[&replay, &owner],
            )?;
            Ok(row.as_ref().map(pg_replay))
        })
    }

    fn replay_chunk_seqs(&self, replay: i64) -> Result<Vec<i64>> {
        self.pg.with(|c| {
            let rows = c.query("SELECT seq FROM replay_chunks WHERE replay_id = $1 ORDER BY seq", &[&replay])?;
            Ok(rows.iter().map(|r| r.get(0)).collect())
        })
    }

    fn replay_chunk(&self, replay: i64, seq: i64) -> Result<Option<Vec<u8>>> {
        self.pg.with(|c| {
            let row =
                c.query_opt("SELECT data FROM replay_chunks WHERE replay_id = $1 AND seq = $2", &[&replay, &seq])?;
            Ok(row.map(|r| r.get(0)))
        })
    }
}
