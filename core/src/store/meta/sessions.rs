//! Sign-ins behind the metadata boundary: auth sessions and the refresh tokens each rotates through. The
//! tokens themselves are made by `auth` and arrive here as hashes; whether a presented token rotates, is
//! refused or gives its sign-in away is decided once, in [`decide`], for both engines.

use rusqlite::{OptionalExtension, Transaction, params};

use super::{PgMeta, SqliteMeta};
use crate::auth::REFRESH_REUSE_GRACE_MS;
use crate::error::Result;
use crate::model::{Millis, UserId};

/// What a presented refresh token leads to.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rotation {
    /// Rotated: the new token is stored; an access token of this account, sign-in and token version is due.
    Rotated { user: UserId, session: i64, version: i64 },
    /// Unknown, expired, idle too long, or its sign-in ended.
    Rejected,
    /// An already rotated token presented again outside the benign race: its sign-in is revoked.
    Revoked { user: UserId, session: i64 },
}

/// A refresh token with its sign-in and account, as a refresh reads them.
#[derive(Debug, Clone, Copy)]
pub struct RefreshRow {
    pub session: i64,
    pub used_at: Option<Millis>,
    pub user: UserId,
    pub revoked_at: Option<Millis>,
    pub expires_at: Millis,
    pub version: i64,
    pub last_used_at: Millis,
    /// The account's session timeout as stored (minutes).
    pub session_timeout: i64,
}

/// What an access token's check needs of its sign-in and account.
#[derive(Debug, Clone, Copy)]
pub struct SessionState {
    pub version: i64,
    pub user_created_at: Millis,
    pub revoked_at: Option<Millis>,
    pub last_used_at: Millis,
    /// The account's session timeout as stored (minutes).
    pub session_timeout: i64,
}

/// What a refresh does to the store after reading its token.
enum Step {
    Reject,
    Revoke,
    Rotate { mark_used: bool },
}

/// The refresh rules, engine-free: a sign-in revoked, expired or idle past the account's timeout refuses; a
/// used token again is a theft unless it is the benign race (two tabs refreshing at once: within the grace,
/// and its successor not used yet, so the legitimate client has not moved on).
fn decide(row: &RefreshRow, now: Millis, successor_used: impl FnOnce(Millis) -> Result<bool>) -> Result<Step> {
    let idle_until = row.last_used_at + crate::account::session_timeout_ms(row.session_timeout);
    if row.revoked_at.is_some() || row.expires_at <= now || idle_until <= now {
        return Ok(Step::Reject);
    }
    match row.used_at {
        None => Ok(Step::Rotate { mark_used: true }),
        Some(used_at) if now - used_at > REFRESH_REUSE_GRACE_MS || successor_used(used_at)? => Ok(Step::Revoke),
        Some(_) => Ok(Step::Rotate { mark_used: false }),
    }
}

/// Sign-ins: each method is one statement or one transaction.
pub trait SessionStore {
    /// Starts a sign-in of `user` with its first refresh token (by hash), forgetting sign-ins long ended;
    /// answers the session id and the account's token version, `None` if the account is gone.
    fn start_session(
        &self,
        user: UserId,
        now: Millis,
        expires_at: Millis,
        token_hash: &[u8],
    ) -> Result<Option<(i64, i64)>>;
    /// Presents a refresh token: on `Rotated`, `new_hash` is stored as its successor (kept as it is when the
    /// token was rotated before: the successor is the same each time) and the sign-in is extended to
    /// `expires_at`.
    fn rotate_refresh_token(&self, hash: &[u8], new_hash: &[u8], now: Millis, expires_at: Millis) -> Result<Rotation>;
    /// Ends the sign-in a refresh token belongs to; false if no sign-in has that token.
    fn revoke_by_token(&self, hash: &[u8], now: Millis) -> Result<bool>;
    /// Ends one sign-in of `user`.
    fn end_session(&self, user: UserId, session: i64, now: Millis) -> Result<()>;
    /// Ends every sign-in of `user` but `keep` (all of them when `None`): their refresh tokens are forgotten and
    /// their access tokens stop working. Answers how many ended.
    fn end_other_sessions(&self, user: UserId, keep: Option<i64>, now: Millis) -> Result<u64>;
    /// The sign-in `session` of `user` and its account, if both exist.
    fn session_state(&self, user: UserId, session: i64) -> Result<Option<SessionState>>;
    /// Records a use of the sign-in (never moving its last use back).
    fn touch_session(&self, session: i64, now: Millis) -> Result<()>;
}

impl SessionStore for SqliteMeta {
    fn start_session(
        &self,
        user: UserId,
        now: Millis,
        expires_at: Millis,
        token_hash: &[u8],
    ) -> Result<Option<(i64, i64)>> {
        self.db.write(|conn| {
            let tx = conn.transaction()?;
            let version: Option<i64> =
                tx.query_row("SELECT token_version FROM users WHERE id = ?1", [user], |r| r.get(0)).optional()?;
            let Some(version) = version else { return Ok(None) };
            tx.execute(
                "INSERT INTO auth_sessions (user_id, created_at, last_used_at, expires_at) VALUES (?1, ?2, ?2, ?3)",
                params![user, now, expires_at],
            )?;
            let session = tx.last_insert_rowid();
            insert_token(&tx, token_hash, session, now)?;
            // Sign-ins long expired or revoked are only history; keep the table small.
            tx.execute("DELETE FROM auth_sessions WHERE expires_at <= ?1 OR revoked_at <= ?1 - 86400000", [now])?;
            tx.commit()?;
            Ok(Some((session, version)))
        })
    }

    fn rotate_refresh_token(&self, hash: &[u8], new_hash: &[u8], now: Millis, expires_at: Millis) -> Result<Rotation> {
        self.db.write(|conn| {
            let tx = conn.transaction()?;
            let found = tx
                .query_row(
                    "SELECT t.session_id, t.used_at, s.user_id, s.revoked_at, s.expires_at, u.token_version,
                     s.last_used_at, u.session_timeout
                     FROM refresh_tokens t
                     JOIN auth_sessions s ON s.id = t.session_id
                     JOIN users u ON u.id = s.user_id
                     WHERE t.token_hash = ?1",
                    [hash],
                    |r| {
                        Ok(RefreshRow {
                            session: r.get(0)?,
                            used_at: r.get(1)?,
                            user: r.get(2)?,
                            revoked_at: r.get(3)?,
                            expires_at: r.get(4)?,
                            version: r.get(5)?,
                            last_used_at: r.get(6)?,
                            session_timeout: r.get(7)?,
                        })
                    },
                )
                .optional()?;
            let Some(row) = found else { return Ok(Rotation::Rejected) };
            let successor_used = |used_at: Millis| -> Result<bool> {
                Ok(tx.query_row(
                    "SELECT EXISTS (SELECT 1 FROM refresh_tokens
                     WHERE session_id = ?1 AND token_hash != ?2 AND created_at >= ?3 AND used_at IS NOT NULL)",
                    params![row.session, hash, used_at],
                    |r| r.get(0),
                )?)
            };
            let rotation = match decide(&row, now, successor_used)? {
                Step::Reject => return Ok(Rotation::Rejected),
                Step::Revoke => {
                    revoke_sqlite(&tx, row.session, now)?;
                    Rotation::Revoked { user: row.user, session: row.session }
                }
                Step::Rotate { mark_used } => {
                    if mark_used {
                        tx.execute("UPDATE refresh_tokens SET used_at = ?1 WHERE token_hash = ?2", params![now, hash])?;
                    }
                    // Presented again within the grace, the token's successor is there already.
                    tx.execute(
                        "INSERT INTO refresh_tokens (token_hash, session_id, created_at) VALUES (?1, ?2, ?3)
                         ON CONFLICT (token_hash) DO NOTHING",
                        params![new_hash, row.session, now],
                    )?;
                    tx.execute(
                        "UPDATE auth_sessions SET last_used_at = ?1, expires_at = ?2 WHERE id = ?3",
                        params![now, expires_at, row.session],
                    )?;
                    Rotation::Rotated { user: row.user, session: row.session, version: row.version }
                }
            };
            tx.commit()?;
            Ok(rotation)
        })
    }

    fn revoke_by_token(&self, hash: &[u8], now: Millis) -> Result<bool> {
        self.db.write(|conn| {
            let session: Option<i64> = conn
                .query_row("SELECT session_id FROM refresh_tokens WHERE token_hash = ?1", [hash], |r| r.get(0))
                .optional()?;
            let Some(session) = session else { return Ok(false) };
            let tx = conn.transaction()?;
            revoke_sqlite(&tx, session, now)?;
            tx.commit()?;
            Ok(true)
        })
    }

    fn end_session(&self, user: UserId, session: i64, now: Millis) -> Result<()> {
        self.db.write(|conn| {
            let tx = conn.transaction()?;
            tx.execute(
                "UPDATE auth_sessions SET revoked_at = ?1 WHERE id = ?2 AND user_id = ?3 AND revoked_at IS NULL",
                params![now, session, user],
            )?;
            tx.execute("DELETE FROM refresh_tokens WHERE session_id = ?1", [session])?;
            tx.commit()?;
            Ok(())
        })
    }

    fn end_other_sessions(&self, user: UserId, keep: Option<i64>, now: Millis) -> Result<u64> {
        self.db.write(|conn| {
            let tx = conn.transaction()?;
            tx.execute(
                "DELETE FROM refresh_tokens WHERE session_id IN
                 (SELECT id FROM auth_sessions WHERE user_id = ?1 AND id IS NOT ?2)",
                params![user, keep],
            )?;
            let ended = tx.execute(
                "UPDATE auth_sessions SET revoked_at = ?1 WHERE user_id = ?2 AND id IS NOT ?3 AND revoked_at IS NULL",
                params![now, user, keep],
            )?;
            tx.commit()?;
            Ok(ended as u64)
        })
    }

    fn session_state(&self, user: UserId, session: i64) -> Result<Option<SessionState>> {
        self.db.read(|conn| {
            Ok(conn
                .query_row(
                    "SELECT u.token_version, u.created_at, s.revoked_at, s.last_used_at, u.session_timeout
                     FROM auth_sessions s JOIN users u ON u.id = s.user_id WHERE s.id = ?1 AND s.user_id = ?2",
                    params![session, user],
                    |r| {
                        Ok(SessionState {
                            version: r.get(0)?,
                            user_created_at: r.get(1)?,
                            revoked_at: r.get(2)?,
                            last_used_at: r.get(3)?,
                            session_timeout: r.get(4)?,
                        })
                    },
                )
                .optional()?)
        })
    }

    fn touch_session(&self, session: i64, now: Millis) -> Result<()> {
        self.db.write(|conn| {
            conn.execute(
                "UPDATE auth_sessions SET last_used_at = max(last_used_at, ?1) WHERE id = ?2",
                params![now, session],
            )?;
            Ok(())
        })
    }
}

fn insert_token(tx: &Transaction, hash: &[u8], session: i64, now: Millis) -> Result<()> {
    tx.execute(
        "INSERT INTO refresh_tokens (token_hash, session_id, created_at) VALUES (?1, ?2, ?3)",
        params![hash, session, now],
    )?;
    Ok(())
}

/// Marks a session revoked and forgets its refresh tokens.
fn revoke_sqlite(tx: &Transaction, session: i64, now: Millis) -> Result<()> {
    tx.execute("UPDATE auth_sessions SET revoked_at = ?1 WHERE id = ?2 AND revoked_at IS NULL", params![now, session])?;
    tx.execute("DELETE FROM refresh_tokens WHERE session_id = ?1", [session])?;
    Ok(())
}

impl SessionStore for PgMeta {
    fn start_session(
        &self,
        user: UserId,
        now: Millis,
        expires_at: Millis,
        token_hash: &[u8],
    ) -> Result<Option<(i64, i64)>> {
        self.pg.with(|c| {
            let mut tx = c.transaction()?;
            let Some(version) = tx.query_opt("SELECT token_version FROM users WHERE id = $1", &[&user])? else {
                return Ok(None);
            };
            let version: i64 = version.get(0);
            let session: i64 = tx
                .query_one(
                    "INSERT INTO auth_sessions (user_id, created_at, last_used_at, expires_at)
                     VALUES ($1, $2, $2, $3) RETURNING id",
                    &[&user, &now, &expires_at],
                )?
                .get(0);
            tx.execute(
                "INSERT INTO refresh_tokens (token_hash, session_id, created_at) VALUES ($1, $2, $3)",
                &[&token_hash, &session, &now],
            )?;
            tx.execute("DELETE FROM auth_sessions WHERE expires_at <= $1 OR revoked_at <= $1 - 86400000", &[&now])?;
            tx.commit()?;
            Ok(Some((session, version)))
        })
    }

    fn rotate_refresh_token(&self, hash: &[u8], new_hash: &[u8], now: Millis, expires_at: Millis) -> Result<Rotation> {
        self.pg.with(|c| {
            let mut tx = c.transaction()?;
            // The token's row is locked: two daemons presenting one token at once take turns, the second then
            // sees it used, as SQLite's single writer orders them.
            let found = tx.query_opt(
                "SELECT t.session_id, t.used_at, s.user_id, s.revoked_at, s.expires_at, u.token_version,
                 s.last_used_at, u.session_timeout
                 FROM refresh_tokens t
                 JOIN auth_sessions s ON s.id = t.session_id
                 JOIN users u ON u.id = s.user_id
                 WHERE t.token_hash = $1
                 FOR UPDATE OF t",
                &[&hash],
            )?;
            let Some(r) = found else { return Ok(Rotation::Rejected) };
            let row = RefreshRow {
                session: r.get(0),
                used_at: r.get(1),
                user: r.get(2),
                revoked_at: r.get(3),
                expires_at: r.get(4),
                version: r.get(5),
                last_used_at: r.get(6),
                session_timeout: r.get(7),
            };
            let step = {
                let tx = &mut tx;
                decide(&row, now, |used_at| {
                    Ok(tx
                        .query_one(
                            "SELECT EXISTS (SELECT 1 FROM refresh_tokens
                             WHERE session_id = $1 AND token_hash != $2 AND created_at >= $3 AND used_at IS NOT NULL)",
                            &[&row.session, &hash, &used_at],
                        )?
                        .get(0))
                })?
            };
            let rotation = match step {
                Step::Reject => return Ok(Rotation::Rejected),
                Step::Revoke => {
                    revoke_pg(&mut tx, row.session, now)?;
                    Rotation::Revoked { user: row.user, session: row.session }
                }
                Step::Rotate { mark_used } => {
                    if mark_used {
                        tx.execute("UPDATE refresh_tokens SET used_at = $1 WHERE token_hash = $2", &[&now, &hash])?;
                    }
                    // Presented again within the grace, the token's successor is there already.
                    tx.execute(
                        "INSERT INTO refresh_tokens (token_hash, session_id, created_at) VALUES ($1, $2, $3)
                         ON CONFLICT (token_hash) DO NOTHING",
                        &[&new_hash, &row.session, &now],
                    )?;
                    tx.execute(
                        "UPDATE auth_sessions SET last_used_at = $1, expires_at = $2 WHERE id = $3",
                        &[&now, &expires_at, &row.session],
                    )?;
                    Rotation::Rotated { user: row.user, session: row.session, version: row.version }
                }
            };
            tx.commit()?;
            Ok(rotation)
        })
    }

    fn revoke_by_token(&self, hash: &[u8], now: Millis) -> Result<bool> {
        self.pg.with(|c| {
            let mut tx = c.transaction()?;
            let Some(row) = tx.query_opt("SELECT session_id FROM refresh_tokens WHERE token_hash = $1", &[&hash])?
            else {
                return Ok(false);
            };
            revoke_pg(&mut tx, row.get(0), now)?;
            tx.commit()?;
            Ok(true)
        })
    }

    fn end_session(&self, user: UserId, session: i64, now: Millis) -> Result<()> {
        self.pg.with(|c| {
            let mut tx = c.transaction()?;
            tx.execute(
                "UPDATE auth_sessions SET revoked_at = $1 WHERE id = $2 AND user_id = $3 AND revoked_at IS NULL",
                &[&now, &session, &user],
            )?;
            tx.execute("DELETE FROM refresh_tokens WHERE session_id = $1", &[&session])?;
            tx.commit()?;
            Ok(())
        })
    }

    fn end_other_sessions(&self, user: UserId, keep: Option<i64>, now: Millis) -> Result<u64> {
        self.pg.with(|c| {
            let mut tx = c.transaction()?;
            tx.execute(
                "DELETE FROM refresh_tokens WHERE session_id IN
                 (SELECT id FROM auth_sessions WHERE user_id = $1 AND id IS DISTINCT FROM $2)",
                &[&user, &keep],
            )?;
            let ended = tx.execute(
                "UPDATE auth_sessions SET revoked_at = $1
                 WHERE user_id = $2 AND id IS DISTINCT FROM $3 AND revoked_at IS NULL",
                &[&now, &user, &keep],
            )?;
            tx.commit()?;
            Ok(ended)
        })
    }

    fn session_state(&self, user: UserId, session: i64) -> Result<Option<SessionState>> {
        self.pg.with(|c| {
            Ok(c.query_opt(
                "SELECT u.token_version, u.created_at, s.revoked_at, s.last_used_at, u.session_timeout
                 FROM auth_sessions s JOIN users u ON u.id = s.user_id WHERE s.id = $1 AND s.user_id = $2",
                &[&session, &user],
            )?
            .map(|r| SessionState {
                version: r.get(0),
                user_created_at: r.get(1),
                revoked_at: r.get(2),
                last_used_at: r.get(3),
                session_timeout: r.get(4),
            }))
        })
    }

    fn touch_session(&self, session: i64, now: Millis) -> Result<()> {
        self.pg.with(|c| {
            c.execute(
                "UPDATE auth_sessions SET last_used_at = GREATEST(last_used_at, $1) WHERE id = $2",
                &[&now, &session],
            )?;
            Ok(())
        })
    }
}

fn revoke_pg(tx: &mut postgres::Transaction, session: i64, now: Millis) -> Result<()> {
    tx.execute("UPDATE auth_sessions SET revoked_at = $1 WHERE id = $2 AND revoked_at IS NULL", &[&now, &session])?;
    tx.execute("DELETE FROM refresh_tokens WHERE session_id = $1", &[&session])?;
    Ok(())
}
