//! Two-factor sign-in behind the metadata boundary: an account's TOTP secret (sealed), the last accepted
//! step and the recovery codes. `Auth` calls these.

use rusqlite::{OptionalExtension, params};

use super::{PgMeta, SqliteMeta};
use crate::error::Result;
use crate::model::{Millis, UserId};

/// What a second-factor check needs of an account.
#[derive(Debug, Clone)]
pub struct TwoFactorRow {
    pub email: String,
    /// Sealed (or, from before sealing, plain) TOTP secret; pending while `enabled` is false.
    pub secret: Option<Vec<u8>>,
    pub enabled: bool,
    pub last_step: i64,
}

/// An account's second factor: each method is one statement or one transaction.
pub trait TwoFactorStore {
    /// The account's two-factor state.
    fn two_factor(&self, id: UserId) -> Result<Option<TwoFactorRow>>;
    /// Stores a new pending secret (enrolment started or restarted).
    fn set_pending_secret(&self, id: UserId, sealed: &[u8]) -> Result<()>;
    /// Remembers `step` as the last accepted one, unless it is not after the last accepted: false then (a
    /// code is used once, even by two requests at the same moment).
    fn accept_step(&self, id: UserId, step: i64) -> Result<bool>;
    /// Uses up an unused recovery code by its hash; false if it is not one.
    fn use_recovery_code(&self, id: UserId, hash: &[u8], now: Millis) -> Result<bool>;
    /// Turns the pending secret on and replaces the recovery codes with these hashes.
    fn enable_two_factor(&self, id: UserId, code_hashes: &[Vec<u8>]) -> Result<()>;
    /// Turns two-factor off and forgets the secret and the recovery codes.
    fn disable_two_factor(&self, id: UserId) -> Result<()>;
    /// Unused recovery codes.
    fn recovery_codes_left(&self, id: UserId) -> Result<i64>;
    /// Secrets that do not start with `sealed_prefix` (stored before sealing).
    fn plain_secrets(&self, sealed_prefix: &[u8]) -> Result<Vec<(UserId, Vec<u8>)>>;
    /// Replaces a secret by its sealed form if it is still `plain`.
    fn reseal_secret(&self, id: UserId, plain: &[u8], sealed: &[u8]) -> Result<()>;
}

impl TwoFactorStore for SqliteMeta {
    fn two_factor(&self, id: UserId) -> Result<Option<TwoFactorRow>> {
        self.db.read(|conn| {
            Ok(conn
                .query_row(
                    "SELECT email, totp_secret, totp_enabled, totp_last_step FROM users WHERE id = ?1",
                    [id],
                    |r| {
                        Ok(TwoFactorRow {
                            email: r.get(0)?,
                            secret: r.get(1)?,
                            enabled: r.get(2)?,
                            last_step: r.get(3)?,
                        })
                    },
                )
                .optional()?)
        })
    }

    fn set_pending_secret(&self, id: UserId, sealed: &[u8]) -> Result<()> {
        self.db.write(|conn| {
            conn.execute("UPDATE users SET totp_secret = ?1, totp_last_step = 0 WHERE id = ?2", params![sealed, id])?;
            Ok(())
        })
    }

    fn accept_step(&self, id: UserId, step: i64) -> Result<bool> {
        self.db.write(|conn| {
            Ok(conn.execute(
                "UPDATE users SET totp_last_step = ?1 WHERE id = ?2 AND totp_last_step < ?1",
                params![step, id],
            )? == 1)
        })
    }

    fn use_recovery_code(&self, id: UserId, hash: &[u8], now: Millis) -> Result<bool> {
        self.db.write(|conn| {
            Ok(conn.execute(
                "UPDATE recovery_codes SET used_at = ?1 WHERE user_id = ?2 AND code_hash = ?3 AND used_at IS NULL",
                params![now, id, hash],
            )? == 1)
        })
    }

    fn enable_two_factor(&self, id: UserId, code_hashes: &[Vec<u8>]) -> Result<()> {
        self.db.write(|conn| {
            let tx = conn.transaction()?;
            tx.execute("UPDATE users SET totp_enabled = 1 WHERE id = ?1", [id])?;
            tx.execute("DELETE FROM recovery_codes WHERE user_id = ?1", [id])?;
            for hash in code_hashes {
                tx.execute("INSERT INTO recovery_codes (user_id, code_hash) VALUES (?1, ?2)", params![id, hash])?;
            }
            tx.commit()?;
            Ok(())
        })
    }

    fn disable_two_factor(&self, id: UserId) -> Result<()> {
        self.db.write(|conn| {
            let tx = conn.transaction()?;
            tx.execute(
                "UPDATE users SET totp_enabled = 0, totp_secret = NULL, totp_last_step = 0 WHERE id = ?1",
                [id],
            )?;
            tx.execute("DELETE FROM recovery_codes WHERE user_id = ?1", [id])?;
            tx.commit()?;
            Ok(())
        })
    }

    fn recovery_codes_left(&self, id: UserId) -> Result<i64> {
        self.db.read(|conn| {
            Ok(conn.query_row(
                "SELECT count(*) FROM recovery_codes WHERE user_id = ?1 AND used_at IS NULL",
                [id],
                |r| r.get(0),
            )?)
        })
    }

    fn plain_secrets(&self, sealed_prefix: &[u8]) -> Result<Vec<(UserId, Vec<u8>)>> {
        self.db.read(|conn| {
            Ok(conn
                .prepare(
                    "SELECT id, totp_secret FROM users WHERE totp_secret IS NOT NULL AND substr(totp_secret, 1, ?2) != ?1",
                )?
                .query_map(params![sealed_prefix, sealed_prefix.len() as i64], |r| Ok((r.get(0)?, r.get(1)?)))?
                .collect::<rusqlite::Result<_>>()?)
        })
    }

    fn reseal_secret(&self, id: UserId, plain: &[u8], sealed: &[u8]) -> Result<()> {
        self.db.write(|conn| {
            conn.execute(
                "UPDATE users SET totp_secret = ?1 WHERE id = ?2 AND totp_secret = ?3",
                params![sealed, id, plain],
            )?;
            Ok(())
        })
    }
}

impl TwoFactorStore for PgMeta {
    fn two_factor(&self, id: UserId) -> Result<Option<TwoFactorRow>> {
        self.pg.with(|c| {
            Ok(c.query_opt("SELECT email, totp_secret, totp_enabled, totp_last_step FROM users WHERE id = $1", &[&id])?
                .map(|r| TwoFactorRow { email: r.get(0), secret: r.get(1), enabled: r.get(2), last_step: r.get(3) }))
        })
    }

    fn set_pending_secret(&self, id: UserId, sealed: &[u8]) -> Result<()> {
        self.pg.with(|c| {
            c.execute("UPDATE users SET totp_secret = $1, totp_last_step = 0 WHERE id = $2", &[&sealed, &id])?;
            Ok(())
        })
    }

    fn accept_step(&self, id: UserId, step: i64) -> Result<bool> {
        self.pg.with(|c| {
            Ok(c.execute("UPDATE users SET totp_last_step = $1 WHERE id = $2 AND totp_last_step < $1", &[&step, &id])?
                == 1)
        })
    }

    fn use_recovery_code(&self, id: UserId, hash: &[u8], now: Millis) -> Result<bool> {
        self.pg.with(|c| {
            Ok(c.execute(
                "UPDATE recovery_codes SET used_at = $1 WHERE user_id = $2 AND code_hash = $3 AND used_at IS NULL",
                &[&now, &id, &hash],
            )? == 1)
        })
    }

    fn enable_two_factor(&self, id: UserId, code_hashes: &[Vec<u8>]) -> Result<()> {
        self.pg.with(|c| {
            let mut tx = c.transaction()?;
            tx.execute("UPDATE users SET totp_enabled = TRUE WHERE id = $1", &[&id])?;
            tx.execute("DELETE FROM recovery_codes WHERE user_id = $1", &[&id])?;
            for hash in code_hashes {
                tx.execute("INSERT INTO recovery_codes (user_id, code_hash) VALUES ($1, $2)", &[&id, hash])?;
            }
            tx.commit()?;
            Ok(())
        })
    }

    fn disable_two_factor(&self, id: UserId) -> Result<()> {
        self.pg.with(|c| {
            let mut tx = c.transaction()?;
            tx.execute(
                "UPDATE users SET totp_enabled = FALSE, totp_secret = NULL, totp_last_step = 0 WHERE id = $1",
                &[&id],
            )?;
            tx.execute("DELETE FROM recovery_codes WHERE user_id = $1", &[&id])?;
            tx.commit()?;
            Ok(())
        })
    }

    fn recovery_codes_left(&self, id: UserId) -> Result<i64> {
        self.pg.with(|c| {
            Ok(c.query_one("SELECT count(*) FROM recovery_codes WHERE user_id = $1 AND used_at IS NULL", &[&id])?
                .get(0))
        })
    }

    fn plain_secrets(&self, sealed_prefix: &[u8]) -> Result<Vec<(UserId, Vec<u8>)>> {
        self.pg.with(|c| {
            Ok(c.query(
                "SELECT id, totp_secret FROM users
                 WHERE totp_secret IS NOT NULL AND substring(totp_secret FROM 1 FOR $2) != $1",
                &[&sealed_prefix, &(sealed_prefix.len() as i32)],
            )?
            .into_iter()
            .map(|r| (r.get(0), r.get(1)))
            .collect())
        })
    }

    fn reseal_secret(&self, id: UserId, plain: &[u8], sealed: &[u8]) -> Result<()> {
        self.pg.with(|c| {
            c.execute("UPDATE users SET totp_secret = $1 WHERE id = $2 AND totp_secret = $3", &[&sealed, &id, &plain])?;
            Ok(())
        })
    }
}
