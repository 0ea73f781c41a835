//! Session recordings: the ingest writer appends gzip chunks to the visit's one recording.

use rusqlite::{Connection, OptionalExtension, params};

use crate::error::{Error, Result};
use crate::ingest::replay::{MAX_RECORDING_BYTES, MAX_RECORDING_INFLATED_BYTES, ReplayChunk};
use crate::model::Millis;

/// Adds a chunk to the recording of visit `session`, creating the recording on its first chunk. A chunk
/// number already stored changes nothing; a recording past 20 MiB, or past 64 MiB once inflated, is refused
/// (`TooLarge`).
pub(crate) fn append_chunk(tx: &Connection, session: i64, chunk: &ReplayChunk, now: Millis) -> Result<()> {
    let size = chunk.data.len() as i64;
    let stats = &chunk.stats;
    if stats.inflated > MAX_RECORDING_INFLATED_BYTES {
        return Err(Error::TooLarge("this visit's recording has reached its 64 MiB inflated limit".into()));
    }
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
            if bytes + size > MAX_RECORDING_BYTES {
                return Err(Error::TooLarge("this visit's recording has reached its 20 MiB limit".into()));
            }
            if inflated + stats.inflated > MAX_RECORDING_INFLATED_BYTES {
                return Err(Error::TooLarge("this visit's recording has reached its 64 MiB inflated limit".into()));
            }
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
