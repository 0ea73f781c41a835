//! Funnel definitions behind the metadata boundary: a site owner's named, ordered steps. `Funnels` validates
//! and calls these; every method names the user and touches only funnels on that user's sites.

use rusqlite::{Connection, OptionalExtension, params};

use super::{PgMeta, SqliteMeta};
use crate::analytics::visit_hours;
use crate::error::{Error, Result};
use crate::model::{Millis, UserId, WebsiteId};

/// A validated step, as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FunnelStepDef {
    pub name: String,
    pub url: String,
    pub event_name: Option<String>,
}

/// A stored funnel with its site's name and its steps in order.
#[derive(Debug, Clone, PartialEq)]
pub struct FunnelRow {
    pub id: i64,
    pub website_id: WebsiteId,
    pub website_name: String,
    pub name: String,
    pub status: String,
    pub created_at: Millis,
    pub steps: Vec<FunnelStepDef>,
}

/// A new funnel, validated.
#[derive(Debug, Clone, Copy)]
pub struct NewFunnel<'a> {
    pub website_id: WebsiteId,
    pub name: &'a str,
    pub status: &'a str,
    pub steps: &'a [FunnelStepDef],
    pub created_at: Millis,
}

/// The fields of an edit that are present, validated.
#[derive(Debug, Clone, Copy)]
pub struct FunnelChanges<'a> {
    pub website_id: Option<WebsiteId>,
    pub name: Option<&'a str>,
    pub status: Option<&'a str>,
    pub steps: Option<&'a [FunnelStepDef]>,
    pub updated_at: Millis,
}

/// Funnels: each method is one statement or one transaction.
pub trait FunnelStore {
    /// The funnels of the sites the user may read (its own and those it is a member of), newest first, of one
    /// site and one id when given (callers check a named site first: one the user cannot read gives none).
    fn funnels(&self, user: UserId, site: Option<WebsiteId>, id: Option<i64>) -> Result<Vec<FunnelRow>>;
    /// Stores a funnel on one of the user's sites (callers pass the site's owner once the caller's role
    /// allows it) unless the account has `max` already (invalid); answers its
    /// id. Another user's site is not found.
    fn insert_funnel(&self, user: UserId, funnel: NewFunnel, max: i64) -> Result<i64>;
    /// Saves the present fields of one of the user's funnels and answers the site it was on. Another user's
    /// funnel, or site named in the changes, is not found.
    fn update_funnel(&self, user: UserId, id: i64, changes: FunnelChanges) -> Result<WebsiteId>;
    /// Deletes one of the user's funnels; another user's is not found.
    fn delete_funnel(&self, user: UserId, id: i64) -> Result<()>;
}

const TOO_MANY: &str = "an account can have at most 200 funnels";

impl FunnelStore for SqliteMeta {
    fn funnels(&self, user: UserId, site: Option<WebsiteId>, id: Option<i64>) -> Result<Vec<FunnelRow>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT f.id, f.website_id, w.name, f.name, f.status, f.created_at
                 FROM funnels f JOIN websites w ON w.id = f.website_id
                 WHERE (w.user_id = ?1 OR w.id IN (SELECT website_id FROM site_members WHERE user_id = ?1)) AND (?2 IS NULL OR f.website_id = ?2) AND (?3 IS NULL OR f.id = ?3)
                 ORDER BY f.created_at DESC, f.id DESC",
            )?;
            let mut rows = stmt
                .query_map(params![user, site, id], |r| {
                    Ok(FunnelRow {
                        id: r.get(0)?,
                        website_id: r.get(1)?,
                        website_name: r.get(2)?,
                        name: r.get(3)?,
                        status: r.get(4)?,
                        created_at: r.get(5)?,
                        steps: Vec::new(),
                    })
                })?
                .collect::<rusqlite::Result<Vec<_>>>()?;
            let mut steps = conn.prepare_cached(
                "SELECT name, url, event_name FROM funnel_steps WHERE funnel_id = ?1 ORDER BY position",
            )?;
            for row in &mut rows {
                row.steps = steps
                    .query_map([row.id], |r| {
                        Ok(FunnelStepDef { name: r.get(0)?, url: r.get(1)?, event_name: r.get(2)? })
                    })?
                    .collect::<rusqlite::Result<_>>()?;
            }
            Ok(rows)
        })
    }

    fn insert_funnel(&self, user: UserId, funnel: NewFunnel, max: i64) -> Result<i64> {
        // The write connection serialises writers: the count and the insert cannot be overtaken.
        self.db.write(|conn| {
            let tx = conn.transaction()?;
            sqlite_owned_site(&tx, user, funnel.website_id)?;
            let count: i64 = tx.query_row(
                "SELECT COUNT(*) FROM funnels f JOIN websites w ON w.id = f.website_id WHERE w.user_id = ?1",
                [user],
                |r| r.get(0),
            )?;
            if count >= max {
                return Err(Error::invalid(TOO_MANY));
            }
            tx.execute(
                "INSERT INTO funnels (website_id, name, status, created_at, updated_at) VALUES (?1, ?2, ?3, ?4, ?4)",
                params![funnel.website_id, funnel.name, funnel.status, funnel.created_at],
            )?;
            let id = tx.last_insert_rowid();
            sqlite_insert_steps(&tx, id, funnel.steps)?;
            tx.commit()?;
            Ok(id)
        })
    }

    fn update_funnel(&self, user: UserId, id: i64, changes: FunnelChanges) -> Result<WebsiteId> {
        self.db.write(|conn| {
            let tx = conn.transaction()?;
            let old_site: WebsiteId = tx
                .query_row(
                    "SELECT f.website_id FROM funnels f JOIN websites w ON w.id = f.website_id
                     WHERE f.id = ?1 AND w.user_id = ?2",
                    params![id, user],
                    |r| r.get(0),
                )
                .optional()?
                .ok_or(Error::NotFound("funnel"))?;
            if let Some(site) = changes.website_id {
                sqlite_owned_site(&tx, user, site)?;
            }
            // SQLite keeps hourly counts per funnel (visit_hours.rs): those of the old steps or site go, and
            // reads in flight store nothing.
            if changes.steps.is_some() || changes.website_id.is_some_and(|s| s != old_site) {
                tx.execute("DELETE FROM funnel_hours WHERE funnel_id = ?1", [id])?;
                visit_hours::bump(&tx, old_site)?;
            }
            tx.execute(
                "UPDATE funnels SET name = COALESCE(?2, name), website_id = COALESCE(?3, website_id),
                    status = COALESCE(?4, status), updated_at = ?5 WHERE id = ?1",
                params![id, changes.name, changes.website_id, changes.status, changes.updated_at],
            )?;
            if let Some(steps) = changes.steps {
                tx.execute("DELETE FROM funnel_steps WHERE funnel_id = ?1", [id])?;
                sqlite_insert_steps(&tx, id, steps)?;
            }
            tx.commit()?;
            Ok(old_site)
        })
    }

    fn delete_funnel(&self, user: UserId, id: i64) -> Result<()> {
        self.db.write(|conn| {
            let deleted = conn.execute(
                "DELETE FROM funnels WHERE id = ?1
                   AND website_id IN (SELECT id FROM websites WHERE user_id = ?2)",
                params![id, user],
            )?;
            if deleted == 0 { Err(Error::NotFound("funnel")) } else { Ok(()) }
        })
    }
}

fn sqlite_owned_site(conn: &Connection, user: UserId, site: WebsiteId) -> Result<()> {
    conn.query_row("SELECT 1 FROM websites WHERE id = ?1 AND user_id = ?2", params![site, user], |_| Ok(()))
        .optional()?
        .ok_or(Error::NotFound("website"))
}

fn sqlite_insert_steps(conn: &Connection, funnel: i64, steps: &[FunnelStepDef]) -> Result<()> {
    let mut stmt = conn.prepare_cached(
        "INSERT INTO funnel_steps (funnel_id, position, name, url, event_name) VALUES (?1, ?2, ?3, ?4, ?5)",
    )?;
    for (position, step) in steps.iter().enumerate() {
        stmt.execute(params![funnel, position as i64, step.name, step.url, step.event_name])?;
    }
    Ok(())
}

impl FunnelStore for PgMeta {
    fn funnels(&self, user: UserId, site: Option<WebsiteId>, id: Option<i64>) -> Result<Vec<FunnelRow>> {
        self.pg.with(|c| {
            let mut rows: Vec<FunnelRow> = c
                .query(
                    "SELECT f.id, f.website_id, w.name, f.name, f.status, f.created_at
                     FROM funnels f JOIN websites w ON w.id = f.website_id
                     WHERE (w.user_id = $1 OR w.id IN (SELECT website_id FROM site_members WHERE user_id = $1))
                       AND ($2::BIGINT IS NULL OR f.website_id = $2)
                       AND ($3::BIGINT IS NULL OR f.id = $3)
                     ORDER BY f.created_at DESC, f.id DESC",
                    &[&user, &site, &id],
                )?
                .iter()
                .map(|r| FunnelRow {
                    id: r.get(0),
                    website_id: r.get(1),
                    website_name: r.get(2),
                    name: r.get(3),
                    status: r.get(4),
                    created_at: r.get(5),
                    steps: Vec::new(),
                })
                .collect();
            let ids: Vec<i64> = rows.iter().map(|r| r.id).collect();
            for step in c.query(
                "SELECT funnel_id, name, url, event_name FROM funnel_steps WHERE funnel_id = ANY($1)
                 ORDER BY funnel_id, position",
                &[&ids],
            )? {
                let funnel: i64 = step.get(0);
                if let Some(row) = rows.iter_mut().find(|r| r.id == funnel) {
                    row.steps.push(FunnelStepDef { name: step.get(1), url: step.get(2), event_name: step.get(3) });
                }
            }
            Ok(rows)
        })
    }

    fn insert_funnel(&self, user: UserId, funnel: NewFunnel, max: i64) -> Result<i64> {
        self.pg.with(|c| {
            let mut tx = c.transaction()?;
            // Creates of one account take turns (its row is locked), so two daemons cannot both pass the
            // count at max - 1.
            tx.query_opt("SELECT 1 FROM users WHERE id = $1 FOR NO KEY UPDATE", &[&user])?;
            pg_owned_site(&mut tx, user, funnel.website_id)?;
            let count: i64 = tx
                .query_one(
                    "SELECT COUNT(*) FROM funnels f JOIN websites w ON w.id = f.website_id WHERE w.user_id = $1",
                    &[&user],
                )?
                .get(0);
            if count >= max {
                return Err(Error::invalid(TOO_MANY));
            }
            let id: i64 = tx
                .query_one(
                    "INSERT INTO funnels (website_id, name, status, created_at, updated_at)
                     VALUES ($1, $2, $3, $4, $4) RETURNING id",
                    &[&funnel.website_id, &funnel.name, &funnel.status, &funnel.created_at],
                )?
                .get(0);
            pg_insert_steps(&mut tx, id, funnel.steps)?;
            tx.commit()?;
            Ok(id)
        })
    }

    fn update_funnel(&self, user: UserId, id: i64, changes: FunnelChanges) -> Result<WebsiteId> {
        self.pg.with(|c| {
            let mut tx = c.transaction()?;
            // Locked, so two edits of its steps on two daemons do not interleave their step rows.
            let old_site: WebsiteId = tx
                .query_opt(
                    "SELECT f.website_id FROM funnels f JOIN websites w ON w.id = f.website_id
                     WHERE f.id = $1 AND w.user_id = $2 FOR UPDATE OF f",
                    &[&id, &user],
                )?
                .ok_or(Error::NotFound("funnel"))?
                .get(0);
            if let Some(site) = changes.website_id {
                pg_owned_site(&mut tx, user, site)?;
            }
            tx.execute(
                "UPDATE funnels SET name = COALESCE($2, name), website_id = COALESCE($3, website_id),
                    status = COALESCE($4, status), updated_at = $5 WHERE id = $1",
                &[&id, &changes.name, &changes.website_id, &changes.status, &changes.updated_at],
            )?;
            if let Some(steps) = changes.steps {
                tx.execute("DELETE FROM funnel_steps WHERE funnel_id = $1", &[&id])?;
                pg_insert_steps(&mut tx, id, steps)?;
            }
            tx.commit()?;
            Ok(old_site)
        })
    }

    fn delete_funnel(&self, user: UserId, id: i64) -> Result<()> {
        self.pg.with(|c| {
            let deleted = c.execute(
                "DELETE FROM funnels WHERE id = $1 AND website_id IN (SELECT id FROM websites WHERE user_id = $2)",
                &[&id, &user],
            )?;
            if deleted == 0 { Err(Error::NotFound("funnel")) } else { Ok(()) }
        })
    }
}

fn pg_owned_site(c: &mut impl postgres::GenericClient, user: UserId, site: WebsiteId) -> Result<()> {
    c.query_opt("SELECT 1 FROM websites WHERE id = $1 AND user_id = $2", &[&site, &user])?
        .map(|_| ())
        .ok_or(Error::NotFound("website"))
}

fn pg_insert_steps(tx: &mut postgres::Transaction, funnel: i64, steps: &[FunnelStepDef]) -> Result<()> {
    let insert = tx
        .prepare("INSERT INTO funnel_steps (funnel_id, position, name, url, event_name) VALUES ($1, $2, $3, $4, $5)")?;
    for (position, step) in steps.iter().enumerate() {
        tx.execute(&insert, &[&funnel, &(position as i64), &step.name, &step.url, &step.event_name])?;
    }
    Ok(())
}
