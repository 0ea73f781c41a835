//! Session recordings behind the metadata boundary: one recording per visit with what the replay list shows,
//! and its chunks as uploaded (gzip JSON arrays of rrweb events), written by ingest (SQLite's writer inside its
//! batch's transaction, the cluster's sink a chunk at a time) and deleted with their site, a visitor or their
//! retention days.

use rusqlite::{Connection, OptionalExtension, params};

use super::{PgMeta, SqliteMeta};
use crate::error::{Error, Result};
use crate::ingest::replay::{MAX_RECORDING_BYTES, MAX_RECORDING_INFLATED_BYTES, ReplayChunk};
use crate::model::{Millis, WebsiteId};

/// Recordings: each method is one transaction.
pub trait ReplayStore {
    /// Adds a chunk to the recording of `visit` as [`append_chunk`] does; `false` when the chunk's site is gone.
    fn append_replay_chunk(&self, visit: i64, chunk: &ReplayChunk, now: Millis) -> Result<bool>;
    /// Deletes the recordings (and their chunks) of a site's `visits` (a visitor's erasure); how many went.
    fn delete_visit_replays(&self, site: WebsiteId, visits: &[i64]) -> Result<u64>;
    /// Deletes a site's recordings that got no chunk since `cutoff` (their retention); how many went.
    fn delete_replays_before(&self, site: WebsiteId, cutoff: Millis) -> Result<u64>;
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
}
