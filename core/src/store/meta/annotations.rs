//! Annotations behind the metadata boundary (issue 37): a site's dated notes. `Annotations`
//! (store/annotations.rs) validates and decides; these methods store, list, change and forget rows of one site.

use rusqlite::{OptionalExtension, params};

use super::{PgMeta, SqliteMeta};
use crate::error::{Error, Result};
use crate::model::{Millis, WebsiteId};
use crate::store::annotations::{Annotation, AnnotationSource, NewAnnotation};

/// Annotations: each method is one statement or one transaction.
pub trait AnnotationStore {
    /// Stores an annotation on `site` unless the site has `max` already, or (with `unless_spike_since`) tracker
    /// marked a spike there since then; `None` when nothing was stored.
    fn insert_annotation(
        &self,
        site: WebsiteId,
        new: &NewAnnotation,
        max: u32,
        unless_spike_since: Option<Millis>,
    ) -> Result<Option<Annotation>>;
    /// The site's annotations from the first to the last day given (YYYY-MM-DD, both included; all without),
    /// by day, then oldest first.
    fn annotations(&self, site: WebsiteId, days: Option<(&str, &str)>) -> Result<Vec<Annotation>>;
    /// Changes the day and text of one of the site's annotations; `None` when the site has no such id.
    fn update_annotation(
        &self,
        site: WebsiteId,
        id: i64,
        day: &str,
        text: &str,
        now: Millis,
    ) -> Result<Option<Annotation>>;
    /// Deletes one of the site's annotations; false when it has no such id.
    fn delete_annotation(&self, site: WebsiteId, id: i64) -> Result<bool>;
}

/// The columns of an answer, the author's email joined (an emptied `created_by` joins nothing).
const COLUMNS: &str = "a.id, a.day, a.text, a.source, u.email, a.created_at, a.updated_at";
const FROM: &str = "annotations a LEFT JOIN users u ON u.id = a.created_by";

fn source_of(text: &str) -> Result<AnnotationSource> {
    AnnotationSource::parse(text).ok_or_else(|| Error::Internal(format!("unknown annotation source: {text}")))
}

fn sqlite_row(r: &rusqlite::Row) -> rusqlite::Result<(Annotation, String)> {
    let annotation = Annotation {
        id: r.get(0)?,
        date: r.get(1)?,
        text: r.get(2)?,
        source: AnnotationSource::User,
        created_by: r.get(4)?,
        created_at: r.get(5)?,
        updated_at: r.get(6)?,
    };
    Ok((annotation, r.get(3)?))
}

/// An answer row with its source read (SQLite's CHECK admits only the known names).
fn sourced((mut annotation, source): (Annotation, String)) -> Result<Annotation> {
    annotation.source = source_of(&source)?;
    Ok(annotation)
}

fn sqlite_one(conn: &rusqlite::Connection, site: WebsiteId, id: i64) -> Result<Option<Annotation>> {
    conn.query_row(
        &format!("SELECT {COLUMNS} FROM {FROM} WHERE a.id = ?1 AND a.website_id = ?2"),
        params![id, site],
        sqlite_row,
    )
    .optional()?
    .map(sourced)
    .transpose()
}

impl AnnotationStore for SqliteMeta {
    fn insert_annotation(
        &self,
        site: WebsiteId,
        new: &NewAnnotation,
        max: u32,
        unless_spike_since: Option<Millis>,
    ) -> Result<Option<Annotation>> {
        // The checks and the insert are one statement, and SQLite has one writer: two writes at once cannot
        // both pass the cap, nor two alert runs both mark one spike.
        self.db.write(|conn| {
            let inserted = conn.execute(
                "INSERT INTO annotations (website_id, day, text, source, created_by, created_at, updated_at)
                 SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?6
                 WHERE EXISTS (SELECT 1 FROM websites WHERE id = ?1)
                   AND (SELECT count(*) FROM annotations WHERE website_id = ?1) < ?7
                   AND (?8 IS NULL OR NOT EXISTS (SELECT 1 FROM annotations
                        WHERE website_id = ?1 AND source = 'spike' AND created_at >= ?8))",
                params![site, new.day, new.text, new.source.as_str(), new.created_by, new.at, max, unless_spike_since],
            )?;
            if inserted == 0 {
                return Ok(None);
            }
            sqlite_one(conn, site, conn.last_insert_rowid())
        })
    }

    fn annotations(&self, site: WebsiteId, days: Option<(&str, &str)>) -> Result<Vec<Annotation>> {
        let (first, last) = days.unzip();
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM {FROM}
                 WHERE a.website_id = ?1 AND (?2 IS NULL OR a.day >= ?2) AND (?3 IS NULL OR a.day <= ?3)
                 ORDER BY a.day, a.id"
            ))?;
            let rows = stmt.query_map(params![site, first, last], sqlite_row)?;
            rows.map(|row| sourced(row?)).collect()
        })
    }

    fn update_annotation(
        &self,
        site: WebsiteId,
        id: i64,
        day: &str,
        text: &str,
        now: Millis,
    ) -> Result<Option<Annotation>> {
        self.db.write(|conn| {
            let changed = conn.execute(
                "UPDATE annotations SET day = ?1, text = ?2, updated_at = ?3 WHERE id = ?4 AND website_id = ?5",
                params![day, text, now, id, site],
            )?;
            if changed == 0 {
                return Ok(None);
            }
            sqlite_one(conn, site, id)
        })
    }

    fn delete_annotation(&self, site: WebsiteId, id: i64) -> Result<bool> {
        self.db.write(|conn| {
            Ok(conn.execute("DELETE FROM annotations WHERE id = ?1 AND website_id = ?2", params![id, site])? > 0)
        })
    }
}

fn pg_row(r: &postgres::Row) -> Result<Annotation> {
    Ok(Annotation {
        id: r.get(0),
        date: r.get(1),
        text: r.get(2),
        source: source_of(r.get(3))?,
        created_by: r.get(4),
        created_at: r.get(5),
        updated_at: r.get(6),
    })
}

fn pg_one(c: &mut impl postgres::GenericClient, site: WebsiteId, id: i64) -> Result<Option<Annotation>> {
    let row =
        c.query_opt(&format!("SELECT {COLUMNS} FROM {FROM} WHERE a.id = $1 AND a.website_id = $2"), &[&id, &site])?;
    row.map(|r| pg_row(&r)).transpose()
}

impl AnnotationStore for PgMeta {
    fn insert_annotation(
        &self,
        site: WebsiteId,
        new: &NewAnnotation,
        max: u32,
        unless_spike_since: Option<Millis>,
    ) -> Result<Option<Annotation>> {
        self.pg.with(|c| {
            let mut tx = c.transaction()?;
            // The site's row is locked: two daemons writing to one site at once take turns, so the second counts
            // the first's row (the cap, one mark per spike), as SQLite's single writer orders them.
            if tx.query_opt("SELECT 1 FROM websites WHERE id = $1 FOR UPDATE", &[&site])?.is_none() {
                return Ok(None);
            }
            let count: i64 = tx.query_one("SELECT count(*) FROM annotations WHERE website_id = $1", &[&site])?.get(0);
            if count >= i64::from(max) {
                return Ok(None);
            }
            if let Some(since) = unless_spike_since {
                let marked = tx.query_opt(
                    "SELECT 1 FROM annotations WHERE website_id = $1 AND source = 'spike' AND created_at >= $2",
                    &[&site, &since],
                )?;
                if marked.is_some() {
                    return Ok(None);
                }
            }
            let id: i64 = tx
                .query_one(
                    "INSERT INTO annotations (website_id, day, text, source, created_by, created_at, updated_at)
                     VALUES ($1, $2, $3, $4, $5, $6, $6) RETURNING id",
                    &[&site, &new.day, &new.text, &new.source.as_str(), &new.created_by, &new.at],
                )?
                .get(0);
            let annotation = pg_one(&mut tx, site, id)?;
            tx.commit()?;
            Ok(annotation)
        })
    }

    fn annotations(&self, site: WebsiteId, days: Option<(&str, &str)>) -> Result<Vec<Annotation>> {
        let (first, last) = days.unzip();
        self.pg.with(|c| {
            let rows = c.query(
                &format!(
                    "SELECT {COLUMNS} FROM {FROM}
                     WHERE a.website_id = $1 AND ($2::TEXT IS NULL OR a.day >= $2) AND ($3::TEXT IS NULL OR a.day <= $3)
                     ORDER BY a.day, a.id"
                ),
                &[&site, &first, &last],
            )?;
            rows.iter().map(pg_row).collect()
        })
    }

    fn update_annotation(
        &self,
        site: WebsiteId,
        id: i64,
        day: &str,
        text: &str,
        now: Millis,
    ) -> Result<Option<Annotation>> {
        self.pg.with(|c| {
            let changed = c.execute(
                "UPDATE annotations SET day = $1, text = $2, updated_at = $3 WHERE id = $4 AND website_id = $5",
                &[&day, &text, &now, &id, &site],
            )?;
            if changed == 0 {
                return Ok(None);
            }
            pg_one(c, site, id)
        })
    }

    fn delete_annotation(&self, site: WebsiteId, id: i64) -> Result<bool> {
        self.pg.with(|c| Ok(c.execute("DELETE FROM annotations WHERE id = $1 AND website_id = $2", &[&id, &site])? > 0))
    }
}
