//! Share links behind the metadata boundary (issue 37): a site's read-only dashboard links, each found by its
//! unguessable slug. `SharedLinks` (store/shared_links.rs) validates names, filters and origins and makes the
//! slug, its seal and hash, and the password hash; these methods only store, list, find and forget rows.

use rusqlite::{OptionalExtension, params};

use super::{PgMeta, SqliteMeta};
use crate::error::{Error, Result};
use crate::model::{Millis, WebsiteId};
use crate::store::shared_links::SharedLink;

/// A link to store, validated: its filters and origins as JSON text.
pub struct NewSharedLink<'a> {
    /// The slug sealed under the instance secret (what `SharedLink::slug` reads back from the store).
    pub sealed_slug: &'a str,
    /// The slug's SHA-256: what finds the link.
    pub slug_hash: &'a [u8],
    pub name: &'a str,
    pub password_hash: Option<&'a str>,
    pub filters: &'a str,
    pub embed: bool,
    pub allowed_origins: &'a str,
}

/// Share links: each method is one statement or one transaction.
pub trait SharedLinkStore {
    /// Stores a link of `site` unless the site is gone or already has `max` links (then `None`, nothing stored).
    fn insert_shared_link(
        &self,
        site: WebsiteId,
        link: &NewSharedLink,
        now: Millis,
        max: u32,
    ) -> Result<Option<SharedLink>>;
    /// The site's links, newest first.
    fn shared_links(&self, site: WebsiteId) -> Result<Vec<SharedLink>>;
    /// Deletes one of the site's links; false when it has none of that id.
    fn delete_shared_link(&self, site: WebsiteId, id: i64) -> Result<bool>;
    /// The link whose slug has this SHA-256, and its password hash, if any.
    fn shared_link_by_hash(&self, slug_hash: &[u8]) -> Result<Option<(SharedLink, Option<String>)>>;
    /// Links stored with their slug in plain (before sealing): id, site and slug.
    fn plain_slugs(&self) -> Result<Vec<(i64, WebsiteId, String)>>;
    /// Replaces a link's plain slug by its sealed form and hash, if it is still `plain`.
    fn seal_slug(&self, id: i64, plain: &str, sealed: &str, slug_hash: &[u8]) -> Result<()>;
}

const COLUMNS: &str = "id, website_id, slug, name, password_hash, filters, embed, allowed_origins, created_at";

/// A stored origins column (written by `SharedLinks` from a checked list).
fn origins_of(text: &str) -> Result<Vec<String>> {
    serde_json::from_str(text).map_err(|e| Error::Internal(format!("a share link's origins are not a JSON list: {e}")))
}

type Row = (SharedLink, Option<String>);

fn sqlite_link(r: &rusqlite::Row) -> rusqlite::Result<(Row, String)> {
    let hash: Option<String> = r.get(4)?;
    let link = SharedLink {
        id: r.get(0)?,
        website_id: r.get(1)?,
        slug: r.get(2)?,
        name: r.get(3)?,
        password_required: hash.is_some(),
        filters: r.get(5)?,
        embed: r.get(6)?,
        allowed_origins: Vec::new(),
        created_at: r.get(8)?,
    };
    Ok(((link, hash), r.get(7)?))
}

/// A row with its origins read from their JSON text.
fn with_origins(((mut link, hash), origins): (Row, String)) -> Result<Row> {
    link.allowed_origins = origins_of(&origins)?;
    Ok((link, hash))
}

impl SharedLinkStore for SqliteMeta {
    fn insert_shared_link(
        &self,
        site: WebsiteId,
        link: &NewSharedLink,
        now: Millis,
        max: u32,
    ) -> Result<Option<SharedLink>> {
        // The count and the insert are one statement, and SQLite has one writer: two creations at once cannot
        // both pass the limit.
        let row = self.db.write(|conn| {
            let inserted = conn.execute(
                "INSERT INTO shared_links (website_id, slug, name, password_hash, filters, embed, allowed_origins,
                    created_at, slug_hash)
                 SELECT ?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?10
                 WHERE EXISTS (SELECT 1 FROM websites WHERE id = ?1)
                   AND (SELECT count(*) FROM shared_links WHERE website_id = ?1) < ?9",
                params![
                    site,
                    link.sealed_slug,
                    link.name,
                    link.password_hash,
                    link.filters,
                    link.embed,
                    link.allowed_origins,
                    now,
                    max,
                    link.slug_hash
                ],
            )?;
            if inserted == 0 {
                return Ok(None);
            }
            let id = conn.last_insert_rowid();
            Ok(Some(conn.query_row(&format!("SELECT {COLUMNS} FROM shared_links WHERE id = ?1"), [id], sqlite_link)?))
        })?;
        row.map(with_origins).transpose().map(|row| row.map(|(link, _)| link))
    }

    fn shared_links(&self, site: WebsiteId) -> Result<Vec<SharedLink>> {
        let rows = self.db.read(|conn| {
            let mut stmt =
                conn.prepare(&format!("SELECT {COLUMNS} FROM shared_links WHERE website_id = ?1 ORDER BY id DESC"))?;
            Ok(stmt.query_map([site], sqlite_link)?.collect::<rusqlite::Result<Vec<_>>>()?)
        })?;
        rows.into_iter().map(|row| with_origins(row).map(|(link, _)| link)).collect()
    }

    fn delete_shared_link(&self, site: WebsiteId, id: i64) -> Result<bool> {
        self.db.write(|conn| {
            Ok(conn.execute("DELETE FROM shared_links WHERE id = ?1 AND website_id = ?2", params![id, site])? > 0)
        })
    }

    fn shared_link_by_hash(&self, slug_hash: &[u8]) -> Result<Option<Row>> {
        let row = self.db.read(|conn| {
            Ok(conn
                .query_row(
                    &format!("SELECT {COLUMNS} FROM shared_links WHERE slug_hash = ?1"),
                    [slug_hash],
                    sqlite_link,
                )
                .optional()?)
        })?;
        row.map(with_origins).transpose()
    }

    fn plain_slugs(&self) -> Result<Vec<(i64, WebsiteId, String)>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare("SELECT id, website_id, slug FROM shared_links WHERE slug_hash IS NULL")?;
            Ok(stmt.query_map([], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?.collect::<rusqlite::Result<_>>()?)
        })
    }

    fn seal_slug(&self, id: i64, plain: &str, sealed: &str, slug_hash: &[u8]) -> Result<()> {
        self.db.write(|conn| {
            conn.execute(
                "UPDATE shared_links SET slug = ?1, slug_hash = ?2 WHERE id = ?3 AND slug = ?4 AND slug_hash IS NULL",
                params![sealed, slug_hash, id, plain],
            )?;
            Ok(())
        })
    }
}

fn pg_link(r: &postgres::Row) -> Result<Row> {
    let hash: Option<String> = r.get(4);
    let link = SharedLink {
        id: r.get(0),
        website_id: r.get(1),
        slug: r.get(2),
        name: r.get(3),
        password_required: hash.is_some(),
        filters: r.get(5),
        embed: r.get(6),
        allowed_origins: origins_of(r.get(7))?,
        created_at: r.get(8),
    };
    Ok((link, hash))
}

impl SharedLinkStore for PgMeta {
    fn insert_shared_link(
        &self,
        site: WebsiteId,
        link: &NewSharedLink,
        now: Millis,
        max: u32,
    ) -> Result<Option<SharedLink>> {
        self.pg.with(|c| {
            let mut tx = c.transaction()?;
            // The site's row is locked: two daemons creating links for one site at once take turns, so the
            // second counts the first's link, as SQLite's single writer orders them.
            if tx.query_opt("SELECT 1 FROM websites WHERE id = $1 FOR UPDATE", &[&site])?.is_none() {
                return Ok(None);
            }
            let count: i64 = tx.query_one("SELECT count(*) FROM shared_links WHERE website_id = $1", &[&site])?.get(0);
            if count >= i64::from(max) {
                return Ok(None);
            }
            let row = tx.query_one(
                &format!(
                    "INSERT INTO shared_links (website_id, slug, name, password_hash, filters, embed, allowed_origins,
                        created_at, slug_hash)
                     VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9) RETURNING {COLUMNS}"
                ),
                &[
                    &site,
                    &link.sealed_slug,
                    &link.name,
                    &link.password_hash,
                    &link.filters,
                    &link.embed,
                    &link.allowed_origins,
                    &now,
                    &link.slug_hash,
                ],
            )?;
            let (link, _) = pg_link(&row)?;
            tx.commit()?;
            Ok(Some(link))
        })
    }

    fn shared_links(&self, site: WebsiteId) -> Result<Vec<SharedLink>> {
        self.pg.with(|c| {
            let rows = c.query(
                &format!("SELECT {COLUMNS} FROM shared_links WHERE website_id = $1 ORDER BY id DESC"),
                &[&site],
            )?;
            rows.iter().map(|r| pg_link(r).map(|(link, _)| link)).collect()
        })
    }

    fn delete_shared_link(&self, site: WebsiteId, id: i64) -> Result<bool> {
        self.pg
            .with(|c| Ok(c.execute("DELETE FROM shared_links WHERE id = $1 AND website_id = $2", &[&id, &site])? > 0))
    }

    fn shared_link_by_hash(&self, slug_hash: &[u8]) -> Result<Option<Row>> {
        self.pg.with(|c| {
            let row =
                c.query_opt(&format!("SELECT {COLUMNS} FROM shared_links WHERE slug_hash = $1"), &[&slug_hash])?;
            row.map(|r| pg_link(&r)).transpose()
        })
    }

    fn plain_slugs(&self) -> Result<Vec<(i64, WebsiteId, String)>> {
        self.pg.with(|c| {
            let rows = c.query("SELECT id, website_id, slug FROM shared_links WHERE slug_hash IS NULL", &[])?;
            Ok(rows.iter().map(|r| (r.get(0), r.get(1), r.get(2))).collect())
        })
    }

    fn seal_slug(&self, id: i64, plain: &str, sealed: &str, slug_hash: &[u8]) -> Result<()> {
        self.pg.with(|c| {
            c.execute(
                "UPDATE shared_links SET slug = $1, slug_hash = $2 WHERE id = $3 AND slug = $4 AND slug_hash IS NULL",
                &[&sealed, &slug_hash, &id, &plain],
            )?;
            Ok(())
        })
    }
}
