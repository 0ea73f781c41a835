//! Saved segments behind the metadata boundary (issue 36): a site's named filters, shared with the site or
//! personal to the account that saved it (seen, changed and deleted by it alone; a shared one by editors and
//! up, which the caller says with `shared_too`). `Segments`
//! (store/segments.rs) validates; these methods store, list, change and forget rows of one site, and the
//! unique name per site has the last word on a taken name.

use rusqlite::{OptionalExtension, params};

use super::{PgMeta, SqliteMeta, unique_violation};
use crate::error::{Error, Result};
use crate::model::{UserId, WebsiteId};
use crate::store::segments::{NewSegment, SavedSegment, SegmentChange, stored_filters};

/// Saved segments: each method is one statement or one transaction.
pub trait SegmentStore {
    /// Stores a segment on `site` unless the site has `max` already (`None`); a taken name is a conflict.
    fn insert_segment(&self, site: WebsiteId, new: &NewSegment, max: u32) -> Result<Option<SavedSegment>>;
    /// The site's segments `viewer` sees (shared ones, and its own personal ones), oldest first.
    fn segments(&self, site: WebsiteId, viewer: UserId) -> Result<Vec<SavedSegment>>;
    /// Renames one of the site's segments `viewer` may change (its own personal ones, and the shared ones when
    /// `shared_too`) and replaces its filters, and its visibility when asked and `viewer` saved it; `None` when
    /// the site has no such id.
    fn update_segment(
        &self,
        site: WebsiteId,
        id: i64,
        viewer: UserId,
        shared_too: bool,
        change: &SegmentChange,
    ) -> Result<Option<SavedSegment>>;
    /// Deletes one of the site's segments `viewer` may change (as `update_segment`); false when it has no such
    /// id.
    fn delete_segment(&self, site: WebsiteId, id: i64, viewer: UserId, shared_too: bool) -> Result<bool>;
}

const COLUMNS: &str = "s.id, s.name, s.filters, u.email, s.created_at, s.updated_at, s.personal";
const FROM: &str = "saved_segments s LEFT JOIN users u ON u.id = s.created_by";

fn taken() -> Error {
    Error::Conflict("the site has a segment of that name already".into())
}

fn sqlite_taken(e: rusqlite::Error) -> Error {
    match e.sqlite_error_code() {
        Some(rusqlite::ErrorCode::ConstraintViolation) => taken(),
        _ => e.into(),
    }
}

fn sqlite_row(r: &rusqlite::Row) -> rusqlite::Result<(SavedSegment, String)> {
    let segment = SavedSegment {
        id: r.get(0)?,
        name: r.get(1)?,
        filters: serde_json::Value::Null,
        created_by: r.get(3)?,
        created_at: r.get(4)?,
        updated_at: r.get(5)?,
        personal: r.get(6)?,
    };
    Ok((segment, r.get(2)?))
}

fn with_filters((mut segment, filters): (SavedSegment, String)) -> Result<SavedSegment> {
    segment.filters = stored_filters(&filters)?;
    Ok(segment)
}

fn sqlite_one(conn: &rusqlite::Connection, site: WebsiteId, id: i64) -> Result<Option<SavedSegment>> {
    conn.query_row(
        &format!("SELECT {COLUMNS} FROM {FROM} WHERE s.id = ?1 AND s.website_id = ?2"),
        params![id, site],
        sqlite_row,
    )
    .optional()?
    .map(with_filters)
    .transpose()
}

impl SegmentStore for SqliteMeta {
    fn insert_segment(&self, site: WebsiteId, new: &NewSegment, max: u32) -> Result<Option<SavedSegment>> {
        self.db.write(|conn| {
            let inserted = conn
                .execute(
                    "INSERT INTO saved_segments (website_id, name, filters, created_by, created_at, updated_at, personal)
                     SELECT ?1, ?2, ?3, ?4, ?5, ?5, ?7
                     WHERE EXISTS (SELECT 1 FROM websites WHERE id = ?1)
                       AND (SELECT count(*) FROM saved_segments WHERE website_id = ?1) < ?6",
                    params![site, new.name, new.filters, new.created_by, new.at, max, new.personal],
                )
                .map_err(sqlite_taken)?;
            if inserted == 0 {
                return Ok(None);
            }
            sqlite_one(conn, site, conn.last_insert_rowid())
        })
    }

    fn segments(&self, site: WebsiteId, viewer: UserId) -> Result<Vec<SavedSegment>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM {FROM} WHERE s.website_id = ?1 AND (s.personal = 0 OR s.created_by = ?2)
                 ORDER BY s.id"
            ))?;
            let rows = stmt.query_map(params![site, viewer], sqlite_row)?;
            rows.map(|row| with_filters(row?)).collect()
        })
    }

    fn update_segment(
        &self,
        site: WebsiteId,
        id: i64,
        viewer: UserId,
        shared_too: bool,
        change: &SegmentChange,
    ) -> Result<Option<SavedSegment>> {
        self.db.write(|conn| {
            let changed = conn
                .execute(
                    "UPDATE saved_segments SET name = ?1, filters = ?2, updated_at = ?3,
                        personal = CASE WHEN ?7 IS NOT NULL AND created_by = ?6 THEN ?7 ELSE personal END
                     WHERE id = ?4 AND website_id = ?5 AND (personal = 0 AND ?8 OR personal = 1 AND created_by = ?6)",
                    params![change.name, change.filters, change.at, id, site, viewer, change.personal, shared_too],
                )
                .map_err(sqlite_taken)?;
            if changed == 0 {
                return Ok(None);
            }
            sqlite_one(conn, site, id)
        })
    }

    fn delete_segment(&self, site: WebsiteId, id: i64, viewer: UserId, shared_too: bool) -> Result<bool> {
        self.db.write(|conn| {
            let deleted = conn.execute(
                "DELETE FROM saved_segments
                 WHERE id = ?1 AND website_id = ?2 AND (personal = 0 AND ?4 OR personal = 1 AND created_by = ?3)",
                params![id, site, viewer, shared_too],
            )?;
            Ok(deleted > 0)
        })
    }
}

fn pg_taken(e: postgres::Error) -> Error {
    if unique_violation(&e) { taken() } else { e.into() }
}

fn pg_row(r: &postgres::Row) -> Result<SavedSegment> {
    Ok(SavedSegment {
        id: r.get(0),
        name: r.get(1),
        filters: stored_filters(r.get(2))?,
        created_by: r.get(3),
        created_at: r.get(4),
        updated_at: r.get(5),
        personal: r.get(6),
    })
}

fn pg_one(c: &mut impl postgres::GenericClient, site: WebsiteId, id: i64) -> Result<Option<SavedSegment>> {
    let row =
        c.query_opt(&format!("SELECT {COLUMNS} FROM {FROM} WHERE s.id = $1 AND s.website_id = $2"), &[&id, &site])?;
    row.map(|r| pg_row(&r)).transpose()
}

impl SegmentStore for PgMeta {
    fn insert_segment(&self, site: WebsiteId, new: &NewSegment, max: u32) -> Result<Option<SavedSegment>> {
        self.pg.with(|c| {
            let mut tx = c.transaction()?;
            // The site's row is locked so that two daemons saving at once count each other's segment.
            if tx.query_opt("SELECT 1 FROM websites WHERE id = $1 FOR UPDATE", &[&site])?.is_none() {
                return Ok(None);
            }
            let count: i64 =
                tx.query_one("SELECT count(*) FROM saved_segments WHERE website_id = $1", &[&site])?.get(0);
            if count >= i64::from(max) {
                return Ok(None);
            }
            let id: i64 = tx
                .query_one(
                    "INSERT INTO saved_segments (website_id, name, filters, created_by, created_at, updated_at, personal)
                     VALUES ($1, $2, $3, $4, $5, $5, $6) RETURNING id",
                    &[&site, &new.name, &new.filters, &new.created_by, &new.at, &new.personal],
                )
                .map_err(pg_taken)?
                .get(0);
            let segment = pg_one(&mut tx, site, id)?;
            tx.commit()?;
            Ok(segment)
        })
    }

    fn segments(&self, site: WebsiteId, viewer: UserId) -> Result<Vec<SavedSegment>> {
        self.pg.with(|c| {
            let rows = c.query(
                &format!(
                    "SELECT {COLUMNS} FROM {FROM} WHERE s.website_id = $1 AND (NOT s.personal OR s.created_by = $2)
                     ORDER BY s.id"
                ),
                &[&site, &viewer],
            )?;
            rows.iter().map(pg_row).collect()
        })
    }

    fn update_segment(
        &self,
        site: WebsiteId,
        id: i64,
        viewer: UserId,
        shared_too: bool,
        change: &SegmentChange,
    ) -> Result<Option<SavedSegment>> {
        self.pg.with(|c| {
            let changed = c
                .execute(
                    "UPDATE saved_segments SET name = $1, filters = $2, updated_at = $3,
                        personal = CASE WHEN $7::BOOLEAN IS NOT NULL AND created_by = $6 THEN $7 ELSE personal END
                     WHERE id = $4 AND website_id = $5 AND (NOT personal AND $8 OR personal AND created_by = $6)",
                    &[&change.name, &change.filters, &change.at, &id, &site, &viewer, &change.personal, &shared_too],
                )
                .map_err(pg_taken)?;
            if changed == 0 {
                return Ok(None);
            }
            pg_one(c, site, id)
        })
    }

    fn delete_segment(&self, site: WebsiteId, id: i64, viewer: UserId, shared_too: bool) -> Result<bool> {
        self.pg.with(|c| {
            let deleted = c.execute(
                "DELETE FROM saved_segments
                 WHERE id = $1 AND website_id = $2 AND (NOT personal AND $4 OR personal AND created_by = $3)",
                &[&id, &site, &viewer, &shared_too],
            )?;
            Ok(deleted > 0)
        })
    }
}
