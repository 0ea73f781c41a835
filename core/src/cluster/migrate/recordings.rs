//! Session recordings in a copy: each site's recordings and their chunks go from SQLite to PostgreSQL.

use rusqlite::Connection;

use crate::cluster::Cluster;
use crate::error::Result;
use crate::model::{Millis, WebsiteId};

/// Recordings per PostgreSQL transaction: a recording holds up to its size limit in chunks, so a site's
/// recordings are not one transaction of gigabytes.
const RECORDINGS_PER_TRANSACTION: usize = 20;

/// Copies a site's session recordings and their chunks (as uploaded, gzip) into PostgreSQL, a few recordings per
/// transaction; SQLite's session ids are the cluster's visit ids. Part of the site's last phase: a repeat first
/// deletes the copied recordings an interrupted run stored (visit ids up to SQLite's highest session id; live
/// ingest hands out higher ones). Returns how many were copied.
pub(super) fn recordings(conn: &Connection, cluster: &Cluster, site: WebsiteId) -> Result<u64> {
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
