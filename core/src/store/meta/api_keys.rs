//! API keys behind the metadata boundary (issue 36): an account's long-lived, scoped credentials, kept as the
//! SHA-256 of their secret. `Auth` (auth/api_keys.rs) makes the secrets, validates names and decides scope;
//! these methods only store, list, find and forget rows.

use rusqlite::{OptionalExtension, params};

use super::{PgMeta, SqliteMeta};
use crate::auth::{ApiKey, ApiKeyScope};
use crate::error::{Error, Result};
use crate::model::{Millis, UserId};

/// A key to store: what the account named it, its scope, its secret's hash and shown prefix.
pub struct NewApiKey<'a> {
    pub name: &'a str,
    pub scope: ApiKeyScope,
    pub secret_hash: &'a [u8],
    pub prefix: &'a str,
}

/// API keys: each method is one statement or one transaction.
pub trait ApiKeyStore {
    /// Stores a key for `user` unless the account already has `max` keys (then `None`, and nothing stored).
    fn insert_api_key(&self, user: UserId, key: &NewApiKey, now: Millis, max: u32) -> Result<Option<ApiKey>>;
    /// The account's keys, newest first.
    fn api_keys(&self, user: UserId) -> Result<Vec<ApiKey>>;
    /// Deletes one of the account's keys; false when it has no key of that id.
    fn delete_api_key(&self, user: UserId, id: i64) -> Result<bool>;
    /// The key whose secret has this hash, and its account.
    fn api_key_by_hash(&self, secret_hash: &[u8]) -> Result<Option<(UserId, ApiKey)>>;
    /// Records a use of the key (never moving its last use back).
    fn touch_api_key(&self, id: i64, now: Millis) -> Result<()>;
}

/// PostgreSQL's scope column.
fn scope_of(text: &str) -> Result<ApiKeyScope> {
    ApiKeyScope::parse(text).ok_or_else(|| Error::Internal(format!("unknown API key scope in the database: {text}")))
}

const COLUMNS: &str = "id, name, scope, prefix, created_at, last_used_at";

/// SQLite's scope column (its CHECK admits only the two names).
impl rusqlite::types::FromSql for ApiKeyScope {
    fn column_result(value: rusqlite::types::ValueRef<'_>) -> rusqlite::types::FromSqlResult<Self> {
        let text = value.as_str()?;
        ApiKeyScope::parse(text).ok_or_else(|| rusqlite::types::FromSqlError::Other(format!("scope {text}").into()))
    }
}

fn sqlite_key(r: &rusqlite::Row, at: usize) -> rusqlite::Result<ApiKey> {
    Ok(ApiKey {
        id: r.get(at)?,
        name: r.get(at + 1)?,
        scope: r.get(at + 2)?,
        prefix: r.get(at + 3)?,
        created_at: r.get(at + 4)?,
        last_used_at: r.get(at + 5)?,
    })
}

impl ApiKeyStore for SqliteMeta {
    fn insert_api_key(&self, user: UserId, key: &NewApiKey, now: Millis, max: u32) -> Result<Option<ApiKey>> {
        // The count and the insert are one statement, and SQLite has one writer: two creations at once cannot
        // both pass the limit.
        self.db.write(|conn| {
            let inserted = conn.execute(
                "INSERT INTO api_keys (user_id, name, scope, secret_hash, prefix, created_at)
                 SELECT ?1, ?2, ?3, ?4, ?5, ?6
                 WHERE EXISTS (SELECT 1 FROM users WHERE id = ?1)
                   AND (SELECT count(*) FROM api_keys WHERE user_id = ?1) < ?7",
                params![user, key.name, key.scope.as_str(), key.secret_hash, key.prefix, now, max],
            )?;
            if inserted == 0 {
                return Ok(None);
            }
            let id = conn.last_insert_rowid();
            let key =
                conn.query_row(&format!("SELECT {COLUMNS} FROM api_keys WHERE id = ?1"), [id], |r| sqlite_key(r, 0))?;
            Ok(Some(key))
        })
    }

    fn api_keys(&self, user: UserId) -> Result<Vec<ApiKey>> {
        self.db.read(|conn| {
            let mut stmt =
                conn.prepare(&format!("SELECT {COLUMNS} FROM api_keys WHERE user_id = ?1 ORDER BY id DESC"))?;
            Ok(stmt.query_map([user], |r| sqlite_key(r, 0))?.collect::<rusqlite::Result<_>>()?)
        })
    }

    fn delete_api_key(&self, user: UserId, id: i64) -> Result<bool> {
        self.db.write(|conn| {
            Ok(conn.execute("DELETE FROM api_keys WHERE id = ?1 AND user_id = ?2", params![id, user])? > 0)
        })
    }

    fn api_key_by_hash(&self, secret_hash: &[u8]) -> Result<Option<(UserId, ApiKey)>> {
        self.db.read(|conn| {
            Ok(conn
                .query_row(
                    &format!("SELECT user_id, {COLUMNS} FROM api_keys WHERE secret_hash = ?1"),
                    [secret_hash],
                    |r| Ok((r.get(0)?, sqlite_key(r, 1)?)),
                )
                .optional()?)
        })
    }

    fn touch_api_key(&self, id: i64, now: Millis) -> Result<()> {
        self.db.write(|conn| {
            conn.execute(
                "UPDATE api_keys SET last_used_at = max(coalesce(last_used_at, 0), ?1) WHERE id = ?2",
                params![now, id],
            )?;
            Ok(())
        })
    }
}

fn pg_key(r: &postgres::Row, at: usize) -> Result<ApiKey> {
    Ok(ApiKey {
        id: r.get(at),
        name: r.get(at + 1),
        scope: scope_of(r.get(at + 2))?,
        prefix: r.get(at + 3),
        created_at: r.get(at + 4),
        last_used_at: r.get(at + 5),
    })
}

impl ApiKeyStore for PgMeta {
    fn insert_api_key(&self, user: UserId, key: &NewApiKey, now: Millis, max: u32) -> Result<Option<ApiKey>> {
        self.pg.with(|c| {
            let mut tx = c.transaction()?;
            // The account's row is locked: two daemons creating keys for one account at once take turns, so the
            // second counts the first's key, as SQLite's single writer orders them.
            if tx.query_opt("SELECT 1 FROM users WHERE id = $1 FOR UPDATE", &[&user])?.is_none() {
                return Ok(None);
            }
            let count: i64 = tx.query_one("SELECT count(*) FROM api_keys WHERE user_id = $1", &[&user])?.get(0);
            if count >= i64::from(max) {
                return Ok(None);
            }
            let row = tx.query_one(
                &format!(
                    "INSERT INTO api_keys (user_id, name, scope, secret_hash, prefix, created_at)
                     VALUES ($1, $2, $3, $4, $5, $6) RETURNING {COLUMNS}"
                ),
                &[&user, &key.name, &key.scope.as_str(), &key.secret_hash, &key.prefix, &now],
            )?;
            let key = pg_key(&row, 0)?;
            tx.commit()?;
            Ok(Some(key))
        })
    }

    fn api_keys(&self, user: UserId) -> Result<Vec<ApiKey>> {
        self.pg.with(|c| {
            let rows =
                c.query(&format!("SELECT {COLUMNS} FROM api_keys WHERE user_id = $1 ORDER BY id DESC"), &[&user])?;
            rows.iter().map(|r| pg_key(r, 0)).collect()
        })
    }

    fn delete_api_key(&self, user: UserId, id: i64) -> Result<bool> {
        self.pg.with(|c| Ok(c.execute("DELETE FROM api_keys WHERE id = $1 AND user_id = $2", &[&id, &user])? > 0))
    }

    fn api_key_by_hash(&self, secret_hash: &[u8]) -> Result<Option<(UserId, ApiKey)>> {
        self.pg.with(|c| {
            let row = c.query_opt(
                &format!("SELECT user_id, {COLUMNS} FROM api_keys WHERE secret_hash = $1"),
                &[&secret_hash],
            )?;
            row.map(|r| Ok((r.get(0), pg_key(&r, 1)?))).transpose()
        })
    }

    fn touch_api_key(&self, id: i64, now: Millis) -> Result<()> {
        self.pg.with(|c| {
            c.execute(
                "UPDATE api_keys SET last_used_at = greatest(coalesce(last_used_at, 0), $1) WHERE id = $2",
                &[&now, &id],
            )?;
            Ok(())
        })
    }
}
