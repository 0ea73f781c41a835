//! The data folder's side of imports: an import's row (after undoing interrupted ones and refusing repeated
//! days), its lock, the list of a site's imports and the overview's marker of imported history; the rows
//! themselves are written by `store.rs`.

use std::path::Path;

use rusqlite::{TransactionBehavior, params};

use super::{DAY_MS, ImportRecord, ImportedHistory, Parsed, Source, day_string, repeat_refused, store};
use crate::db::Db;
use crate::error::{Error, Result};
use crate::model::{Millis, WebsiteId, now_ms};

/// Records the import in the data folder (after undoing interrupted ones and refusing repeated days) and
/// stores its rows there; its id, with (page views, visits).
pub(crate) fn store(
    db: &Db,
    site: WebsiteId,
    source: Source,
    file_name: &str,
    parsed: &Parsed,
    (first_day, last_day): (Millis, Millis),
    batch: usize,
) -> Result<(i64, (i64, i64))> {
    let days = parsed.staging.days()?;
    let id = db.write(|conn| {
        // IMMEDIATE: the check for an earlier import and this one's row are one step for any other writer.
        let tx = conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        clear_incomplete(&tx, site)?;
        if let Some((earlier, common)) = holding(&tx, site, &days)? {
            return Err(repeat_refused(&earlier, &common));
        }
        tx.prepare_cached(
            "INSERT INTO imports (website_id, source, file_name, rows, first_day, last_day, imported_at, complete)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 0)",
        )?
        .execute(params![
            site,
            source.as_str(),
            file_name,
            parsed.rows as i64,
            first_day,
            last_day,
            now_ms()
        ])?;
        let id = tx.last_insert_rowid();
        let mut insert_day =
            tx.prepare_cached("INSERT INTO import_days (import_id, website_id, day) VALUES (?1, ?2, ?3)")?;
        for day in &days {
            insert_day.execute(params![id, site, day])?;
        }
        drop(insert_day);
        tx.commit()?;
        Ok(id)
    })?;
    let stored = if parsed.staging.has_days()? {
        store::store_days(db, site, id, &parsed.staging, batch)?
    } else {
        let stored = store::store_hits(db, site, id, &parsed.staging, batch)?;
        // The imported visits start on the import's days: the hours the funnels, journeys and Advanced
        // Analytics reads stored there are recomputed (also any a read stored from the batches so far).
        db.write(|conn| Ok(crate::analytics::forget_stored_hours(conn, site, first_day, last_day + DAY_MS)?))?;
        stored
    };
    Ok((id, stored))
}

/// The site's import lock: an exclusive lock on `import-{site}.lock` in the data folder, which the system
/// releases when the holder exits however it ends, so a killed import never blocks the next one.
pub(crate) fn lock(db: &Db, site: WebsiteId) -> Result<std::fs::File> {
    let folder = db.path().parent().unwrap_or(Path::new("."));
    let mut options = std::fs::OpenOptions::new();
    options.create(true).truncate(false).write(true);
    #[cfg(unix)]
    std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
    let file = options.open(folder.join(format!("import-{site}.lock")))?;
    match file.try_lock() {
        Ok(()) => Ok(file),
        Err(std::fs::TryLockError::WouldBlock) => Err(Error::Conflict(
            "another import into this website is running; run it again when that one has finished".into(),
        )),
        Err(std::fs::TryLockError::Error(e)) => Err(e.into()),
    }
}

/// A site's imports, oldest first.
pub(crate) fn list(db: &Db, site: WebsiteId) -> Result<Vec<ImportRecord>> {
    db.read(|conn| {
        let mut stmt = conn.prepare_cached(
            "SELECT id, source, file_name, rows, first_day, last_day, imported_at FROM imports
             WHERE website_id = ?1 AND complete = 1 ORDER BY id",
        )?;
        let rows = stmt.query_map([site], record)?;
        Ok(rows.collect::<rusqlite::Result<_>>()?)
    })
}

fn record(r: &rusqlite::Row) -> rusqlite::Result<ImportRecord> {
    Ok(ImportRecord {
        id: r.get(0)?,
        source: r.get(1)?,
        file_name: r.get(2)?,
        rows: r.get(3)?,
        first_day: day_string(r.get(4)?),
        last_day: day_string(r.get(5)?),
        imported_at: r.get(6)?,
    })
}

/// Deletes what interrupted imports of `site` wrote (their visits and events, or their daily aggregates) and
/// their rows, then rebuilds the rollups of their days from what remains.
fn clear_incomplete(tx: &rusqlite::Connection, site: WebsiteId) -> Result<()> {
    let incomplete = tx
        .prepare_cached("SELECT id, first_day, last_day FROM imports WHERE website_id = ?1 AND complete = 0")?
        .query_map([site], |r| Ok((r.get::<_, i64>(0)?, r.get::<_, Millis>(1)?, r.get::<_, Millis>(2)?)))?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    for (id, first_day, last_day) in incomplete {
        let (from, to) = store::session_keys(id);
        tx.execute(
            "DELETE FROM events WHERE website_id = ?1 AND session_id IN
                (SELECT id FROM sessions WHERE website_id = ?1 AND session_key >= ?2 AND session_key < ?3)",
            params![site, from, to],
        )?;
        tx.execute(
            "DELETE FROM sessions WHERE website_id = ?1 AND session_key >= ?2 AND session_key < ?3",
            params![site, from, to],
        )?;
        tx.execute("DELETE FROM imported_rollups WHERE import_id = ?1", [id])?;
        tx.execute("DELETE FROM imports WHERE id = ?1", [id])?;
        crate::privacy::deletion::rebuild_rollups(tx, site, first_day, last_day + DAY_MS)?;
        crate::analytics::forget_stored_hours(tx, site, first_day, last_day + DAY_MS)?;
    }
    Ok(())
}

/// The earliest complete import of `site` holding data on any of `days`, with the days of `days` it holds.
fn holding(
    conn: &rusqlite::Connection,
    site: WebsiteId,
    days: &[Millis],
) -> Result<Option<(ImportRecord, Vec<Millis>)>> {
    let mut held = conn.prepare_cached(
        "SELECT MIN(d.import_id) FROM import_days d JOIN imports i ON i.id = d.import_id
         WHERE d.website_id = ?1 AND d.day = ?2 AND i.complete = 1",
    )?;
    let mut by_import: Vec<(i64, Vec<Millis>)> = Vec::new();
    for &day in days {
        if let Some(id) = held.query_row(params![site, day], |r| r.get::<_, Option<i64>>(0))? {
            match by_import.iter_mut().find(|(i, _)| *i == id) {
                Some((_, common)) => common.push(day),
                None => by_import.push((id, vec![day])),
            }
        }
    }
    let Some((id, common)) = by_import.into_iter().min_by_key(|(id, _)| *id) else {
        return Ok(None);
    };
    let earlier = conn
        .prepare_cached(
            "SELECT id, source, file_name, rows, first_day, last_day, imported_at FROM imports WHERE id = ?1",
        )?
        .query_row([id], record)?;
    Ok(Some((earlier, common)))
}

/// The imported history of `site` within `[start, end)` (ms), for the overview's marker.
pub(crate) fn imported_within(
    conn: &rusqlite::Connection,
    site: WebsiteId,
    start: Millis,
    end: Millis,
) -> Result<Option<ImportedHistory>> {
    let mut stmt = conn.prepare_cached(
        "SELECT source, MIN(MAX(first_day, ?2)), MAX(MIN(last_day, ?3 - 1)) FROM imports
         WHERE website_id = ?1 AND complete = 1 AND first_day < ?3 AND last_day + 86400000 > ?2
         GROUP BY source ORDER BY source",
    )?;
    let rows = stmt
        .query_map(params![site, start, end], |r| {
            Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?, r.get::<_, i64>(2)?))
        })?
        .collect::<rusqlite::Result<Vec<_>>>()?;
    Ok(ImportedHistory::of(rows))
}
