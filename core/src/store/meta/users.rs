//! Accounts behind the metadata boundary: registration, password hashes and emails. Their settings are in
//! `account_settings.rs`, their second factor in `two_factor.rs`. `Auth` and `Account` call these.

use rusqlite::{OptionalExtension, params};

use super::email_verification::{PG_SET_EMAIL, SQLITE_SET_EMAIL};
use super::{PgMeta, SqliteMeta, unique_violation};
use crate::error::{Error, Result};
use crate::model::{Millis, User, UserId};

/// Accounts: each method is one statement or one transaction.
pub trait UserStore {
    /// Whether any account exists.
    fn any_user(&self) -> Result<bool>;
    /// Inserts an account (`Conflict` when the email is taken whatever its case); with `only_first`, only into
    /// an empty table, atomically: `None` when another account exists.
    fn insert_user(&self, email: &str, hash: &str, created_at: Millis, only_first: bool) -> Result<Option<User>>;
    /// The account with this id.
    fn user(&self, id: UserId) -> Result<Option<User>>;
    /// The account with this email (case-insensitive).
    fn user_by_email(&self, email: &str) -> Result<Option<User>>;
    /// The account with this email and its password hash (login).
    fn credentials_by_email(&self, email: &str) -> Result<Option<(User, String)>>;
    /// Email and password hash of an account (password checks).
    fn credentials(&self, id: UserId) -> Result<Option<(String, String)>>;
    /// Every account, oldest first.
    fn list_users(&self) -> Result<Vec<User>>;
    /// Stores a new password hash, raises the token version and ends every sign-in; false if no such account.
    fn replace_password(&self, id: UserId, hash: &str, now: Millis) -> Result<bool>;
    /// Sets the email if no other account has it (`Conflict` otherwise). Another address (not the same one in
    /// another case) is unconfirmed, and a link token out for the old one is forgotten.
    fn set_email(&self, id: UserId, email: &str) -> Result<()>;
    /// Deletes an account and, by cascade, everything it owns in the metadata store.
    fn delete_user(&self, id: UserId) -> Result<()>;
}

fn conflict() -> Error {
    Error::Conflict("an account with this email already exists".into())
}

impl UserStore for SqliteMeta {
    fn any_user(&self) -> Result<bool> {
        self.db.read(|conn| Ok(conn.query_row("SELECT EXISTS (SELECT 1 FROM users)", [], |r| r.get(0))?))
    }

    fn insert_user(&self, email: &str, hash: &str, created_at: Millis, only_first: bool) -> Result<Option<User>> {
        // The write connection serialises writers: the check and the insert cannot be overtaken.
        self.db.write(|conn| {
            if conn.query_row("SELECT EXISTS (SELECT 1 FROM users WHERE email = ?1)", [email], |r| r.get(0))? {
                return Err(conflict());
            }
            let inserted = conn.execute(
                "INSERT INTO users (email, password_hash, created_at)
                 SELECT ?1, ?2, ?3 WHERE NOT ?4 OR NOT EXISTS (SELECT 1 FROM users)",
                params![email, hash, created_at, only_first],
            )?;
            if inserted == 0 {
                return Ok(None);
            }
            Ok(Some(User { id: conn.last_insert_rowid(), email: email.to_string(), created_at }))
        })
    }

    fn user(&self, id: UserId) -> Result<Option<User>> {
        self.db.read(|conn| {
            Ok(conn
                .query_row("SELECT id, email, created_at FROM users WHERE id = ?1", [id], |r| {
                    Ok(User { id: r.get(0)?, email: r.get(1)?, created_at: r.get(2)? })
                })
                .optional()?)
        })
    }

    fn user_by_email(&self, email: &str) -> Result<Option<User>> {
        self.db.read(|conn| {
            Ok(conn
                .query_row("SELECT id, email, created_at FROM users WHERE email = ?1", [email], |r| {
                    Ok(User { id: r.get(0)?, email: r.get(1)?, created_at: r.get(2)? })
                })
                .optional()?)
        })
    }

    fn credentials_by_email(&self, email: &str) -> Result<Option<(User, String)>> {
        self.db.read(|conn| {
            Ok(conn
                .query_row("SELECT id, email, created_at, password_hash FROM users WHERE email = ?1", [email], |r| {
                    Ok((User { id: r.get(0)?, email: r.get(1)?, created_at: r.get(2)? }, r.get::<_, String>(3)?))
                })
                .optional()?)
        })
    }

    fn credentials(&self, id: UserId) -> Result<Option<(String, String)>> {
        self.db.read(|conn| {
            Ok(conn
                .query_row("SELECT email, password_hash FROM users WHERE id = ?1", [id], |r| Ok((r.get(0)?, r.get(1)?)))
                .optional()?)
        })
    }

    fn list_users(&self) -> Result<Vec<User>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare("SELECT id, email, created_at FROM users ORDER BY id")?;
            let rows = stmt.query_map([], |r| Ok(User { id: r.get(0)?, email: r.get(1)?, created_at: r.get(2)? }))?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

    fn replace_password(&self, id: UserId, hash: &str, now: Millis) -> Result<bool> {
        self.db.write(|conn| {
            let tx = conn.transaction()?;
            let changed = tx.execute(
                "UPDATE users SET password_hash = ?1, token_version = token_version + 1 WHERE id = ?2",
                params![hash, id],
            )?;
            if changed == 0 {
                return Ok(false);
            }
            tx.execute(
                "UPDATE auth_sessions SET revoked_at = ?1 WHERE user_id = ?2 AND revoked_at IS NULL",
                params![now, id],
            )?;
            tx.execute(
                "DELETE FROM refresh_tokens WHERE session_id IN (SELECT id FROM auth_sessions WHERE user_id = ?1)",
                [id],
            )?;
            tx.commit()?;
            Ok(true)
        })
    }

    fn set_email(&self, id: UserId, email: &str) -> Result<()> {
        self.db.write(|conn| {
            let taken: bool = conn.query_row(
                "SELECT EXISTS (SELECT 1 FROM users WHERE email = ?1 AND id != ?2)",
                params![email, id],
                |r| r.get(0),
            )?;
            if taken {
                return Err(conflict());
            }
            conn.execute(SQLITE_SET_EMAIL, params![email, id])?;
            Ok(())
        })
    }

    fn delete_user(&self, id: UserId) -> Result<()> {
        self.db.write(|conn| {
            conn.execute("DELETE FROM users WHERE id = ?1", [id])?;
            // The account's data must not stay readable in the log (as after privacy deletions).
            crate::db::empty_log(conn)
        })
    }
}

impl UserStore for PgMeta {
    fn any_user(&self) -> Result<bool> {
        self.pg.with(|c| Ok(c.query_one("SELECT EXISTS (SELECT 1 FROM users)", &[])?.get(0)))
    }

    fn insert_user(&self, email: &str, hash: &str, created_at: Millis, only_first: bool) -> Result<Option<User>> {
        self.pg.with(|c| {
            let mut tx = c.transaction()?;
            if only_first {
                // Two first sign-ups at once must not both see an empty table: serialise them (this lock is
                // released at the end of the transaction; other inserts do not take it).
                tx.execute("SELECT pg_advisory_xact_lock($1)", &[&FIRST_USER_LOCK])?;
            }
            let row = tx
                .query_opt(
                    "INSERT INTO users (email, password_hash, created_at)
                     SELECT $1::TEXT, $2::TEXT, $3::BIGINT WHERE NOT $4::BOOLEAN OR NOT EXISTS (SELECT 1 FROM users)
                     RETURNING id",
                    &[&email, &hash, &created_at, &only_first],
                )
                .map_err(|e| if unique_violation(&e) { conflict() } else { e.into() })?;
            tx.commit()?;
            Ok(row.map(|r| User { id: r.get(0), email: email.to_string(), created_at }))
        })
    }

    fn user(&self, id: UserId) -> Result<Option<User>> {
        self.pg.with(|c| {
            Ok(c.query_opt("SELECT id, email, created_at FROM users WHERE id = $1", &[&id])?.map(|r| User {
                id: r.get(0),
                email: r.get(1),
                created_at: r.get(2),
            }))
        })
    }

    fn user_by_email(&self, email: &str) -> Result<Option<User>> {
        self.pg.with(|c| {
            Ok(c.query_opt("SELECT id, email, created_at FROM users WHERE lower(email) = lower($1)", &[&email])?
                .map(|r| User { id: r.get(0), email: r.get(1), created_at: r.get(2) }))
        })
    }

    fn credentials_by_email(&self, email: &str) -> Result<Option<(User, String)>> {
        self.pg.with(|c| {
            Ok(c.query_opt(
                "SELECT id, email, created_at, password_hash FROM users WHERE lower(email) = lower($1)",
                &[&email],
            )?
            .map(|r| (User { id: r.get(0), email: r.get(1), created_at: r.get(2) }, r.get(3))))
        })
    }

    fn credentials(&self, id: UserId) -> Result<Option<(String, String)>> {
        self.pg.with(|c| {
            Ok(c.query_opt("SELECT email, password_hash FROM users WHERE id = $1", &[&id])?
                .map(|r| (r.get(0), r.get(1))))
        })
    }

    fn list_users(&self) -> Result<Vec<User>> {
        self.pg.with(|c| {
            Ok(c.query("SELECT id, email, created_at FROM users ORDER BY id", &[])?
                .into_iter()
                .map(|r| User { id: r.get(0), email: r.get(1), created_at: r.get(2) })
                .collect())
        })
    }

    fn replace_password(&self, id: UserId, hash: &str, now: Millis) -> Result<bool> {
        self.pg.with(|c| {
            let mut tx = c.transaction()?;
            let changed = tx.execute(
                "UPDATE users SET password_hash = $1, token_version = token_version + 1 WHERE id = $2",
                &[&hash, &id],
            )?;
            if changed == 0 {
                return Ok(false);
            }
            tx.execute(
                "UPDATE auth_sessions SET revoked_at = $1 WHERE user_id = $2 AND revoked_at IS NULL",
                &[&now, &id],
            )?;
            tx.execute(
                "DELETE FROM refresh_tokens WHERE session_id IN (SELECT id FROM auth_sessions WHERE user_id = $1)",
                &[&id],
            )?;
            tx.commit()?;
            Ok(true)
        })
    }

    fn set_email(&self, id: UserId, email: &str) -> Result<()> {
        self.pg.with(|c| {
            // The unique index has the last word: no check-then-write window between two daemons.
            c.execute(PG_SET_EMAIL, &[&email, &id])
                .map_err(|e| if unique_violation(&e) { conflict() } else { e.into() })?;
            Ok(())
        })
    }

    fn delete_user(&self, id: UserId) -> Result<()> {
        self.pg.with(|c| {
            // Its sites' open visits in the shared ingest state name their visitors' session keys: they go too.
            c.execute(
                "WITH visits AS (
                    DELETE FROM ingest_visits WHERE website_id IN (SELECT id FROM websites WHERE user_id = $1))
                 DELETE FROM users WHERE id = $1",
                &[&id],
            )?;
            Ok(())
        })
    }
}

/// An advisory lock key (any constant) that serialises first-account sign-ups across daemons.
const FIRST_USER_LOCK: i64 = 0x0074_7261_636b_0001;
