//! Event definitions behind the metadata boundary: a site's named events (by CSS selector for clicks and
//! submits). `EventDefinitions` validates and calls these; callers check the site's owner first.

use rusqlite::{Row, params};

use super::{PgMeta, SqliteMeta, unique_violation};
use crate::error::{Error, Result};
use crate::model::WebsiteId;
use crate::store::event_definitions::EventDefinition;

const COLUMNS: &str = "id, name, display_name, description, event_type, selector, is_conversion, \
    conversion_value, is_active, created_at";

/// What storing a new definition came to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum NewDefinition {
    Stored(i64),
    /// The site has `max` definitions already.
    TooMany,
    /// The site has a definition of that name.
    NameTaken,
}

/// Event definitions: each method is one statement or one transaction.
pub trait EventDefinitionStore {
    /// A site's definitions, newest first.
    fn definitions(&self, site: WebsiteId) -> Result<Vec<EventDefinition>>;
    /// One definition of a site.
    fn definition(&self, site: WebsiteId, id: i64) -> Result<Option<EventDefinition>>;
    /// Stores `def` (its id ignored) unless the site has `max` already or the name is taken.
    fn insert_definition(&self, site: WebsiteId, def: &EventDefinition, max: i64) -> Result<NewDefinition>;
    /// Saves every field but id and time; false when nothing was saved (the name is taken, or the definition
    /// went meanwhile).
    fn update_definition(&self, site: WebsiteId, id: i64, def: &EventDefinition) -> Result<bool>;
    /// Deletes a definition of a site; false if it has none of that id.
    fn delete_definition(&self, site: WebsiteId, id: i64) -> Result<bool>;
}

impl EventDefinitionStore for SqliteMeta {
    fn definitions(&self, site: WebsiteId) -> Result<Vec<EventDefinition>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM event_definitions WHERE website_id = ?1 ORDER BY created_at DESC, id DESC"
            ))?;
            let rows = stmt.query_map([site], sqlite_row)?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

    fn definition(&self, site: WebsiteId, id: i64) -> Result<Option<EventDefinition>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT {COLUMNS} FROM event_definitions WHERE website_id = ?1 AND id = ?2"
            ))?;
            match stmt.query_row(params![site, id], sqlite_row) {
                Ok(def) => Ok(Some(def)),
                Err(rusqlite::Error::QueryReturnedNoRows) => Ok(None),
                Err(e) => Err(e.into()),
            }
        })
    }

    fn insert_definition(&self, site: WebsiteId, def: &EventDefinition, max: i64) -> Result<NewDefinition> {
        // The write connection serialises writers: the count and the insert cannot be overtaken.
        self.db.write(|conn| {
            let count: i64 =
                conn.query_row("SELECT COUNT(*) FROM event_definitions WHERE website_id = ?1", [site], |r| r.get(0))?;
            if count >= max {
                return Ok(NewDefinition::TooMany);
            }
            let inserted = conn.execute(
                "INSERT INTO event_definitions (website_id, name, display_name, description, event_type, selector,
                    is_conversion, conversion_value, is_active, created_at)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10)
                 ON CONFLICT (website_id, name) DO NOTHING",
                params![
                    site,
                    def.name,
                    def.display_name,
                    def.description,
                    def.event_type,
                    def.selector,
                    def.is_conversion,
                    def.conversion_value,
                    def.is_active,
                    def.created_at
                ],
            )?;
            Ok(if inserted == 0 { NewDefinition::NameTaken } else { NewDefinition::Stored(conn.last_insert_rowid()) })
        })
    }

    fn update_definition(&self, site: WebsiteId, id: i64, def: &EventDefinition) -> Result<bool> {
        self.db.write(|conn| {
            Ok(conn.execute(
                "UPDATE OR IGNORE event_definitions SET name = ?3, display_name = ?4, description = ?5,
                    event_type = ?6, selector = ?7, is_conversion = ?8, conversion_value = ?9, is_active = ?10
                 WHERE website_id = ?1 AND id = ?2",
                params![
                    site,
                    id,
                    def.name,
                    def.display_name,
                    def.description,
                    def.event_type,
                    def.selector,
                    def.is_conversion,
                    def.conversion_value,
                    def.is_active
                ],
            )? > 0)
        })
    }

    fn delete_definition(&self, site: WebsiteId, id: i64) -> Result<bool> {
        self.db.write(|conn| {
            Ok(conn.execute("DELETE FROM event_definitions WHERE website_id = ?1 AND id = ?2", params![site, id])? > 0)
        })
    }
}

fn sqlite_row(r: &Row) -> rusqlite::Result<EventDefinition> {
    Ok(EventDefinition {
        id: r.get(0)?,
        name: r.get(1)?,
        display_name: r.get(2)?,
        description: r.get(3)?,
        event_type: r.get(4)?,
        selector: r.get(5)?,
        is_conversion: r.get(6)?,
        conversion_value: r.get(7)?,
        is_active: r.get(8)?,
        created_at: r.get(9)?,
    })
}

impl EventDefinitionStore for PgMeta {
    fn definitions(&self, site: WebsiteId) -> Result<Vec<EventDefinition>> {
        self.pg.with(|c| {
            let sql = format!(
                "SELECT {COLUMNS} FROM event_definitions WHERE website_id = $1 ORDER BY created_at DESC, id DESC"
            );
            Ok(c.query(&sql, &[&site])?.iter().map(pg_row).collect())
        })
    }

    fn definition(&self, site: WebsiteId, id: i64) -> Result<Option<EventDefinition>> {
        self.pg.with(|c| {
            let sql = format!("SELECT {COLUMNS} FROM event_definitions WHERE website_id = $1 AND id = $2");
            Ok(c.query_opt(&sql, &[&site, &id])?.as_ref().map(pg_row))
        })
    }

    fn insert_definition(&self, site: WebsiteId, def: &EventDefinition, max: i64) -> Result<NewDefinition> {
        self.pg.with(|c| {
            let mut tx = c.transaction()?;
            // Creates on one site take turns (the site's row is locked), so two daemons cannot both pass the
            // count at max - 1. A site deleted since its owner was checked is not found.
            if tx.query_opt("SELECT 1 FROM websites WHERE id = $1 FOR NO KEY UPDATE", &[&site])?.is_none() {
                return Err(Error::NotFound("website"));
            }
            let count: i64 =
                tx.query_one("SELECT COUNT(*) FROM event_definitions WHERE website_id = $1", &[&site])?.get(0);
            if count >= max {
                return Ok(NewDefinition::TooMany);
            }
            let row = tx.query_opt(
                "INSERT INTO event_definitions (website_id, name, display_name, description, event_type, selector,
                    is_conversion, conversion_value, is_active, created_at)
                 VALUES ($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)
                 ON CONFLICT (website_id, name) DO NOTHING
                 RETURNING id",
                &[
                    &site,
                    &def.name,
                    &def.display_name,
                    &def.description,
                    &def.event_type,
                    &def.selector,
                    &def.is_conversion,
                    &def.conversion_value,
                    &def.is_active,
                    &def.created_at,
                ],
            )?;
            tx.commit()?;
            Ok(row.map_or(NewDefinition::NameTaken, |r| NewDefinition::Stored(r.get(0))))
        })
    }

    fn update_definition(&self, site: WebsiteId, id: i64, def: &EventDefinition) -> Result<bool> {
        self.pg.with(|c| {
            let updated = c.execute(
                "UPDATE event_definitions SET name = $3, display_name = $4, description = $5,
                    event_type = $6, selector = $7, is_conversion = $8, conversion_value = $9, is_active = $10
                 WHERE website_id = $1 AND id = $2",
                &[
                    &site,
                    &id,
                    &def.name,
                    &def.display_name,
                    &def.description,
                    &def.event_type,
                    &def.selector,
                    &def.is_conversion,
                    &def.conversion_value,
                    &def.is_active,
                ],
            );
            // SQLite's UPDATE OR IGNORE: a name taken by another definition saves nothing.
            match updated {
                Ok(n) => Ok(n > 0),
                Err(e) if unique_violation(&e) => Ok(false),
                Err(e) => Err(e.into()),
            }
        })
    }

    fn delete_definition(&self, site: WebsiteId, id: i64) -> Result<bool> {
        self.pg.with(|c| {
            Ok(c.execute("DELETE FROM event_definitions WHERE website_id = $1 AND id = $2", &[&site, &id])? > 0)
        })
    }
}

fn pg_row(r: &postgres::Row) -> EventDefinition {
    EventDefinition {
        id: r.get(0),
        name: r.get(1),
        display_name: r.get(2),
        description: r.get(3),
        event_type: r.get(4),
        selector: r.get(5),
        is_conversion: r.get(6),
        conversion_value: r.get(7),
        is_active: r.get(8),
        created_at: r.get(9),
    }
}
