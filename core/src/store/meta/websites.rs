//! Websites behind the metadata boundary: registration with a tracking key, the owner's list, look-ups by
//! id or key (by a caller's role: members.rs), edits and deletion. `Websites` validates and calls these. A
//! site's events are not here: in SQLite its deletion cascades to them by foreign key; in cluster mode they are
//! the events store's.

use rusqlite::{OptionalExtension, Row, params};

use super::{PgMeta, SqliteMeta};
use crate::error::Result;
use crate::model::{Millis, TrackingLevel, UserId, Website, WebsiteId};

const COLUMNS: &str =
    "id, user_id, name, domain, tracking_key, tracking_level, created_at, domain_only, umami_website_id, timezone";

/// Websites: each method is one statement.
pub trait WebsiteStore {
    /// Inserts a site of `owner` in the owner's profile timezone if the account still exists; answers its id and
    /// timezone, `None` if the account is gone.
    fn insert_website(
        &self,
        owner: UserId,
        name: &str,
        domain: &str,
        tracking_key: &str,
        level: TrackingLevel,
        created_at: Millis,
    ) -> Result<Option<(WebsiteId, String)>>;
    /// The sites of `owner`, oldest first.
    fn websites_of(&self, owner: UserId) -> Result<Vec<Website>>;
    /// Every site, oldest first.
    fn all_websites(&self) -> Result<Vec<Website>>;
    /// The site `id`, whoever owns it.
    fn website(&self, id: WebsiteId) -> Result<Option<Website>>;
    /// The site with this tracking key.
    fn website_by_key(&self, key: &str) -> Result<Option<Website>>;
    /// The site with this Umami website id.
    fn website_by_umami_id(&self, umami_id: &str) -> Result<Option<Website>>;
    /// Sets a site's Umami website id if it has none and no site has that id; true if it was set.
    fn record_umami_id(&self, id: WebsiteId, umami_id: &str) -> Result<bool>;
    /// Saves name, domain, tracking level, domain-only, the Umami website id and the timezone of a site of `site.user_id`;
    /// false if it has none.
    fn update_website(&self, site: &Website) -> Result<bool>;
    /// Deletes a site of `owner` with everything this store holds of it; false if it has none.
    fn delete_website(&self, owner: UserId, id: WebsiteId) -> Result<bool>;
}

impl WebsiteStore for SqliteMeta {
    fn insert_website(
        &self,
        owner: UserId,
        name: &str,
        domain: &str,
        tracking_key: &str,
        level: TrackingLevel,
        created_at: Millis,
    ) -> Result<Option<(WebsiteId, String)>> {
        self.db.write(|conn| {
            let inserted = conn.execute(
                "INSERT INTO websites (user_id, name, domain, tracking_key, tracking_level, created_at, timezone)
                 SELECT ?1, ?2, ?3, ?4, ?5, ?6, timezone FROM users WHERE id = ?1",
                params![owner, name, domain, tracking_key, level.as_str(), created_at],
            )?;
            if inserted == 0 {
                return Ok(None);
            }
            let id = conn.last_insert_rowid();
            let timezone = conn.query_row("SELECT timezone FROM websites WHERE id = ?1", [id], |r| r.get(0))?;
            Ok(Some((id, timezone)))
        })
    }

    fn websites_of(&self, owner: UserId) -> Result<Vec<Website>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare(&format!("SELECT {COLUMNS} FROM websites WHERE user_id = ?1 ORDER BY id"))?;
            let rows = stmt.query_map([owner], sqlite_row)?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

    fn all_websites(&self) -> Result<Vec<Website>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare(&format!("SELECT {COLUMNS} FROM websites ORDER BY id"))?;
            let rows = stmt.query_map([], sqlite_row)?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

    fn website(&self, id: WebsiteId) -> Result<Option<Website>> {
        self.db.read(|conn| {
            Ok(conn.query_row(&format!("SELECT {COLUMNS} FROM websites WHERE id = ?1"), [id], sqlite_row).optional()?)
        })
    }

    fn website_by_key(&self, key: &str) -> Result<Option<Website>> {
        self.db.read(|conn| {
            Ok(conn
                .query_row(&format!("SELECT {COLUMNS} FROM websites WHERE tracking_key = ?1"), [key], sqlite_row)
                .optional()?)
        })
    }

    fn website_by_umami_id(&self, umami_id: &str) -> Result<Option<Website>> {
        self.db.read(|conn| {
            Ok(conn
                .query_row(
                    &format!("SELECT {COLUMNS} FROM websites WHERE umami_website_id = ?1"),
                    [umami_id],
                    sqlite_row,
                )
                .optional()?)
        })
    }

    fn record_umami_id(&self, id: WebsiteId, umami_id: &str) -> Result<bool> {
        self.db.write(|conn| {
            Ok(conn.execute(
                "UPDATE websites SET umami_website_id = ?2 WHERE id = ?1 AND umami_website_id IS NULL
                   AND NOT EXISTS (SELECT 1 FROM websites WHERE umami_website_id = ?2)",
                params![id, umami_id],
            )? > 0)
        })
    }

    fn update_website(&self, site: &Website) -> Result<bool> {
        self.db.write(|conn| {
            Ok(conn.execute(
                "UPDATE websites SET name = ?1, domain = ?2, tracking_level = ?3, domain_only = ?4, umami_website_id = ?7,
                    timezone = ?8
                 WHERE id = ?5 AND user_id = ?6",
                params![
                    site.name,
                    site.domain,
                    site.tracking_level.as_str(),
                    site.domain_only,
                    site.id,
                    site.user_id,
                    site.umami_website_id,
                    site.timezone
                ],
            )? > 0)
        })
    }

    fn delete_website(&self, owner: UserId, id: WebsiteId) -> Result<bool> {
        self.db.write(|conn| {
            let deleted = conn.execute("DELETE FROM websites WHERE id = ?1 AND user_id = ?2", params![id, owner])?;
            if deleted == 0 {
                return Ok(false);
            }
            // Its data is zeroed in the database (secure_delete); the copies in the log go too.
            crate::db::empty_log(conn)?;
            Ok(true)
        })
    }
}

pub(super) fn sqlite_row(r: &Row) -> rusqlite::Result<Website> {
    let level: String = r.get(5)?;
    Ok(Website {
        id: r.get(0)?,
        user_id: r.get(1)?,
        name: r.get(2)?,
        domain: r.get(3)?,
        tracking_key: r.get(4)?,
        tracking_level: TrackingLevel::parse(&level).unwrap_or_default(),
        created_at: r.get(6)?,
        domain_only: r.get(7)?,
        umami_website_id: r.get(8)?,
        timezone: r.get(9)?,
    })
}

impl WebsiteStore for PgMeta {
    fn insert_website(
        &self,
        owner: UserId,
        name: &str,
        domain: &str,
        tracking_key: &str,
        level: TrackingLevel,
        created_at: Millis,
    ) -> Result<Option<(WebsiteId, String)>> {
        self.pg.with(|c| {
            Ok(c.query_opt(
                "INSERT INTO websites (user_id, name, domain, tracking_key, tracking_level, created_at, timezone)
                 SELECT $1::BIGINT, $2::TEXT, $3::TEXT, $4::TEXT, $5::TEXT, $6::BIGINT, timezone FROM users
                 WHERE id = $1
                 RETURNING id, timezone",
                &[&owner, &name, &domain, &tracking_key, &level.as_str(), &created_at],
            )?
            .map(|r| (r.get(0), r.get(1))))
        })
    }

    fn websites_of(&self, owner: UserId) -> Result<Vec<Website>> {
        self.pg.with(|c| {
            let rows = c.query(&format!("SELECT {COLUMNS} FROM websites WHERE user_id = $1 ORDER BY id"), &[&owner])?;
            Ok(rows.iter().map(pg_row).collect())
        })
    }

    fn all_websites(&self) -> Result<Vec<Website>> {
        self.pg.with(|c| {
            Ok(c.query(&format!("SELECT {COLUMNS} FROM websites ORDER BY id"), &[])?.iter().map(pg_row).collect())
        })
    }

    fn website(&self, id: WebsiteId) -> Result<Option<Website>> {
        self.pg.with(|c| {
            Ok(c.query_opt(&format!("SELECT {COLUMNS} FROM websites WHERE id = $1"), &[&id])?.as_ref().map(pg_row))
        })
    }

    fn website_by_key(&self, key: &str) -> Result<Option<Website>> {
        self.pg.with(|c| {
            Ok(c.query_opt(&format!("SELECT {COLUMNS} FROM websites WHERE tracking_key = $1"), &[&key])?
                .as_ref()
                .map(pg_row))
        })
    }

    fn website_by_umami_id(&self, umami_id: &str) -> Result<Option<Website>> {
        self.pg.with(|c| {
            Ok(c.query_opt(&format!("SELECT {COLUMNS} FROM websites WHERE umami_website_id = $1"), &[&umami_id])?
                .as_ref()
                .map(pg_row))
        })
    }

    fn record_umami_id(&self, id: WebsiteId, umami_id: &str) -> Result<bool> {
        self.pg.with(|c| {
            Ok(c.execute(
                "UPDATE websites SET umami_website_id = $2 WHERE id = $1 AND umami_website_id IS NULL
                   AND NOT EXISTS (SELECT 1 FROM websites WHERE umami_website_id = $2)",
                &[&id, &umami_id],
            )? > 0)
        })
    }

    fn update_website(&self, site: &Website) -> Result<bool> {
        self.pg.with(|c| {
            Ok(c.execute(
                "UPDATE websites SET name = $1, domain = $2, tracking_level = $3, domain_only = $4,
                    umami_website_id = $7, timezone = $8
                 WHERE id = $5 AND user_id = $6",
                &[
                    &site.name,
                    &site.domain,
                    &site.tracking_level.as_str(),
                    &site.domain_only,
                    &site.id,
                    &site.user_id,
                    &site.umami_website_id,
                    &site.timezone,
                ],
            )? > 0)
        })
    }

    fn delete_website(&self, owner: UserId, id: WebsiteId) -> Result<bool> {
        self.pg.with(|c| {
            // Its open visits in the shared ingest state name its visitors' session keys: they go too.
            let deleted: i64 = c
                .query_one(
                    "WITH gone AS (DELETE FROM websites WHERE id = $1 AND user_id = $2 RETURNING id),
                          visits AS (DELETE FROM ingest_visits WHERE website_id IN (SELECT id FROM gone))
                     SELECT count(*) FROM gone",
                    &[&id, &owner],
                )?
                .get(0);
            Ok(deleted > 0)
        })
    }
}

pub(super) fn pg_row(r: &postgres::Row) -> Website {
    let level: String = r.get(5);
    Website {
        id: r.get(0),
        user_id: r.get(1),
        name: r.get(2),
        domain: r.get(3),
        tracking_key: r.get(4),
        tracking_level: TrackingLevel::parse(&level).unwrap_or_default(),
        created_at: r.get(6),
        domain_only: r.get(7),
        umami_website_id: r.get(8),
        timezone: r.get(9),
    }
}
