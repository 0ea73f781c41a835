//! The audit logs behind the metadata boundary: the privacy log, who changed a site's privacy settings (or, on
//! SQLite alone, retention, deletions and exports) and when, for `Privacy::record_audit` and `audit_logs`; and
//! the account log, what was done to an account's sign-in (two-factor on, off, reset by the operator), for
//! `Auth`. The actor's email is copied into the entry when it is written, so the entry still names them after
//! the account is gone.

use rusqlite::params;
use serde_json::Value;

use super::{PgMeta, SqliteMeta};
use crate::error::{Error, Result};
use crate::model::{Millis, UserId, WebsiteId};
use crate::privacy::{AuditEntry, AuditPage};

/// An entry of an account's log, newest first from [`AuditStore::account_audit`].
#[derive(Debug, Clone, PartialEq, serde::Serialize)]
pub struct AccountAuditEntry {
    pub timestamp: Millis,
    /// The account's email at the time, or `cli`.
    pub actor: String,
    pub action: String,
    pub detail: Value,
}

/// The audit log: entries are only ever added (and go with their site), so a page's count and rows are read
/// one after the other, not in one transaction; an entry added between the two is counted a read early.
pub trait AuditStore {
    /// Adds an entry; `user` is the account that acted (its email is stored with it), `None` for the CLI.
    fn insert_audit(
        &self,
        site: WebsiteId,
        at: Millis,
        user: Option<UserId>,
        action: &str,
        detail: &Value,
    ) -> Result<()>;
    /// A page of a site's entries, newest first, and how many there are in all.
    fn audit_page(&self, site: WebsiteId, offset: i64, limit: i64) -> Result<AuditPage>;
    /// Adds an entry to an account's log; `actor` acted on it (its email is stored), `None` for the CLI.
    fn insert_account_audit(
        &self,
        user: UserId,
        at: Millis,
        actor: Option<UserId>,
        action: &str,
        detail: &Value,
    ) -> Result<()>;
    /// An account's latest `limit` entries, newest first.
    fn account_audit(&self, user: UserId, limit: i64) -> Result<Vec<AccountAuditEntry>>;
}

/// The stored detail, a JSON object (`null` if it could not be read back).
fn detail_of(text: &str) -> Value {
    serde_json::from_str(text).unwrap_or(Value::Null)
}

impl AuditStore for SqliteMeta {
    fn insert_audit(
        &self,
        site: WebsiteId,
        at: Millis,
        user: Option<UserId>,
        action: &str,
        detail: &Value,
    ) -> Result<()> {
        self.db
            .write(|conn| {
                conn.execute(
                    "INSERT INTO privacy_audit (website_id, ts, user_id, actor, action, detail)
                     VALUES (?1, ?2, ?3, COALESCE((SELECT email FROM users WHERE id = ?3), 'cli'), ?4, ?5)",
                    params![site, at, user, action, detail.to_string()],
                )?;
                Ok(())
            })
            .map_err(site_gone)
    }

    fn audit_page(&self, site: WebsiteId, offset: i64, limit: i64) -> Result<AuditPage> {
        self.db.read(|conn| {
            let total =
                conn.query_row("SELECT COUNT(*) FROM privacy_audit WHERE website_id = ?1", [site], |r| r.get(0))?;
            let mut stmt = conn.prepare_cached(
                "SELECT id, ts, actor, action, detail FROM privacy_audit WHERE website_id = ?1
                 ORDER BY ts DESC, id DESC LIMIT ?2 OFFSET ?3",
            )?;
            let rows = stmt.query_map(params![site, limit, offset], |r| {
                let detail: String = r.get(4)?;
                Ok(AuditEntry {
                    id: r.get(0)?,
                    timestamp: r.get(1)?,
                    actor: r.get(2)?,
                    action: r.get(3)?,
                    detail: detail_of(&detail),
                })
            })?;
            Ok(AuditPage { entries: rows.collect::<rusqlite::Result<_>>()?, total })
        })
    }

    fn insert_account_audit(
        &self,
        user: UserId,
        at: Millis,
        actor: Option<UserId>,
        action: &str,
        detail: &Value,
    ) -> Result<()> {
        self.db.write(|conn| {
            conn.execute(
                "INSERT INTO account_audit (user_id, ts, actor, action, detail)
                 VALUES (?1, ?2, COALESCE((SELECT email FROM users WHERE id = ?3), 'cli'), ?4, ?5)",
                params![user, at, actor, action, detail.to_string()],
            )?;
            Ok(())
        })
    }

    fn account_audit(&self, user: UserId, limit: i64) -> Result<Vec<AccountAuditEntry>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT ts, actor, action, detail FROM account_audit WHERE user_id = ?1
                 ORDER BY ts DESC, id DESC LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![user, limit], |r| {
                let detail: String = r.get(3)?;
                Ok(AccountAuditEntry {
                    timestamp: r.get(0)?,
                    actor: r.get(1)?,
                    action: r.get(2)?,
                    detail: detail_of(&detail),
                })
            })?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }
}

impl AuditStore for PgMeta {
    fn insert_audit(
        &self,
        site: WebsiteId,
        at: Millis,
        user: Option<UserId>,
        action: &str,
        detail: &Value,
    ) -> Result<()> {
        self.pg
            .with(|c| {
                c.execute(
                    "INSERT INTO privacy_audit (website_id, ts, user_id, actor, action, detail)
                     VALUES ($1, $2, $3, COALESCE((SELECT email FROM users WHERE id = $3), 'cli'), $4, $5)",
                    &[&site, &at, &user, &action, &detail.to_string()],
                )?;
                Ok(())
            })
            .map_err(site_gone)
    }

    fn audit_page(&self, site: WebsiteId, offset: i64, limit: i64) -> Result<AuditPage> {
        self.pg.with(|c| {
            let total = c.query_one("SELECT count(*) FROM privacy_audit WHERE website_id = $1", &[&site])?.get(0);
            let rows = c.query(
                "SELECT id, ts, actor, action, detail FROM privacy_audit WHERE website_id = $1
                 ORDER BY ts DESC, id DESC LIMIT $2 OFFSET $3",
                &[&site, &limit, &offset],
            )?;
            let entries = rows
                .iter()
                .map(|r| AuditEntry {
                    id: r.get(0),
                    timestamp: r.get(1),
                    actor: r.get(2),
                    action: r.get(3),
                    detail: detail_of(&r.get::<_, String>(4)),
                })
                .collect();
            Ok(AuditPage { entries, total })
        })
    }

    fn insert_account_audit(
        &self,
        user: UserId,
        at: Millis,
        actor: Option<UserId>,
        action: &str,
        detail: &Value,
    ) -> Result<()> {
        self.pg.with(|c| {
            c.execute(
                "INSERT INTO account_audit (user_id, ts, actor, action, detail)
                 VALUES ($1, $2, COALESCE((SELECT email FROM users WHERE id = $3), 'cli'), $4, $5)",
                &[&user, &at, &actor, &action, &detail.to_string()],
            )?;
            Ok(())
        })
    }

    fn account_audit(&self, user: UserId, limit: i64) -> Result<Vec<AccountAuditEntry>> {
        self.pg.with(|c| {
            let rows = c.query(
                "SELECT ts, actor, action, detail FROM account_audit WHERE user_id = $1
                 ORDER BY ts DESC, id DESC LIMIT $2",
                &[&user, &limit],
            )?;
            Ok(rows
                .iter()
                .map(|r| AccountAuditEntry {
                    timestamp: r.get(0),
                    actor: r.get(1),
                    action: r.get(2),
                    detail: detail_of(&r.get::<_, String>(3)),
                })
                .collect())
        })
    }
}

/// An entry for a site deleted after the caller's ownership check (the cluster's site deletion waits about
/// 10 s on ClickHouse before it deletes the metadata, so a privacy request can start meanwhile): the site is
/// not found, as it would have been a moment later, rather than a database failure.
fn site_gone(e: Error) -> Error {
    if e.is_missing_reference() { Error::NotFound("website") } else { e }
}
