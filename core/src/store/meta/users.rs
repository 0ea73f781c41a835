//! Accounts behind the metadata boundary: registration, password hashes, emails, account settings, the
//! recorded sign-ins and the two-factor secret and recovery codes. `Auth` and `Account` call these.

use rusqlite::{OptionalExtension, params};

use super::email_verification::{PG_SET_EMAIL, SQLITE_SET_EMAIL};
use super::{PgMeta, SqliteMeta, unique_violation};
use crate::account::{Notifications, NotificationsUpdate, Profile, Security, SignIn, session_timeout_ms};
use crate::error::{Error, Result};
use crate::model::{Millis, User, UserId};

/// An account's settings as the Settings screen shows them (`email_configured` is the caller's to fill).
pub type SettingsRow = (Profile, Notifications, Security);

/// What a second-factor check needs of an account.
#[derive(Debug, Clone)]
pub struct TwoFactorRow {
    pub email: String,
    /// Sealed (or, from before sealing, plain) TOTP secret; pending while `enabled` is false.
    pub secret: Option<Vec<u8>>,
    pub enabled: bool,
    pub last_step: i64,
}

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

    /// Profile, notification and security settings.
    fn settings(&self, id: UserId) -> Result<Option<SettingsRow>>;
    /// The latest `limit` recorded sign-ins, newest first.
    fn sign_ins(&self, id: UserId, limit: usize) -> Result<Vec<SignIn>>;
    /// Saves name, company and timezone; false if no such account.
    fn update_profile(&self, id: UserId, name: &str, company: &str, timezone: &str) -> Result<bool>;
    /// Saves the toggles given; false if no such account.
    fn update_notifications(&self, id: UserId, update: NotificationsUpdate) -> Result<bool>;
    /// Saves the session timeout and/or login notifications (off forgets the recorded sign-ins); answers the
    /// security settings after, `None` if no such account.
    fn update_security(&self, id: UserId, timeout: Option<i64>, notify: Option<bool>) -> Result<Option<Security>>;
    /// Records a sign-in if the account has login notifications on, keeping the latest `keep`.
    fn record_sign_in(&self, id: UserId, at: Millis, address: &str, browser: &str, keep: usize) -> Result<()>;

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

    fn settings(&self, id: UserId) -> Result<Option<SettingsRow>> {
        self.db.read(|conn| {
            Ok(conn
                .query_row(
                    "SELECT name, email, company, timezone, email_alerts, weekly_reports, real_time_alerts,
                     marketing_emails, totp_enabled, session_timeout, login_notifications FROM users WHERE id = ?1",
                    [id],
                    |r| {
                        Ok(settings_row(
                            [r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?],
                            [r.get(4)?, r.get(5)?, r.get(6)?, r.get(7)?, r.get(8)?, r.get(10)?],
                            r.get(9)?,
                        ))
                    },
                )
                .optional()?)
        })
    }

    fn sign_ins(&self, id: UserId, limit: usize) -> Result<Vec<SignIn>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare(
                "SELECT at, ip_address, browser FROM sign_ins WHERE user_id = ?1 ORDER BY at DESC, id DESC LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![id, limit as i64], |r| {
                Ok(SignIn { at: r.get(0)?, ip_address: r.get(1)?, browser: r.get(2)? })
            })?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

    fn update_profile(&self, id: UserId, name: &str, company: &str, timezone: &str) -> Result<bool> {
        self.db.write(|conn| {
            Ok(conn.execute(
                "UPDATE users SET name = ?1, company = ?2, timezone = ?3 WHERE id = ?4",
                params![name, company, timezone, id],
            )? > 0)
        })
    }

    fn update_notifications(&self, id: UserId, update: NotificationsUpdate) -> Result<bool> {
        self.db.write(|conn| {
            Ok(conn.execute(
                "UPDATE users SET email_alerts = coalesce(?1, email_alerts), weekly_reports = coalesce(?2, weekly_reports),
                 real_time_alerts = coalesce(?3, real_time_alerts), marketing_emails = coalesce(?4, marketing_emails)
                 WHERE id = ?5",
                params![update.email_alerts, update.weekly_reports, update.real_time_alerts, update.marketing_emails, id],
            )? > 0)
        })
    }

    fn update_security(&self, id: UserId, timeout: Option<i64>, notify: Option<bool>) -> Result<Option<Security>> {
        self.db.write(|conn| {
            let tx = conn.transaction()?;
            let changed = tx.execute(
                "UPDATE users SET session_timeout = coalesce(?1, session_timeout),
                 login_notifications = coalesce(?2, login_notifications) WHERE id = ?3",
                params![timeout, notify, id],
            )?;
            if changed == 0 {
                return Ok(None);
            }
            if notify == Some(false) {
                tx.execute("DELETE FROM sign_ins WHERE user_id = ?1", [id])?;
            }
            let security = tx.query_row(
                "SELECT totp_enabled, session_timeout, login_notifications FROM users WHERE id = ?1",
                [id],
                |r| Ok(security(r.get(0)?, r.get(1)?, r.get(2)?)),
            )?;
            tx.commit()?;
            Ok(Some(security))
        })
    }

    fn record_sign_in(&self, id: UserId, at: Millis, address: &str, browser: &str, keep: usize) -> Result<()> {
        self.db.write(|conn| {
            let tx = conn.transaction()?;
            let inserted = tx.execute(
                "INSERT INTO sign_ins (user_id, at, ip_address, browser)
                 SELECT id, ?2, ?3, ?4 FROM users WHERE id = ?1 AND login_notifications",
                params![id, at, address, browser],
            )?;
            if inserted > 0 {
                tx.execute(
                    "DELETE FROM sign_ins WHERE user_id = ?1 AND id NOT IN
                     (SELECT id FROM sign_ins WHERE user_id = ?1 ORDER BY at DESC, id DESC LIMIT ?2)",
                    params![id, keep as i64],
                )?;
            }
            tx.commit()?;
            Ok(())
        })
    }

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

    fn settings(&self, id: UserId) -> Result<Option<SettingsRow>> {
        self.pg.with(|c| {
            Ok(c.query_opt(
                "SELECT name, email, company, timezone, email_alerts, weekly_reports, real_time_alerts,
                 marketing_emails, totp_enabled, session_timeout, login_notifications FROM users WHERE id = $1",
                &[&id],
            )?
            .map(|r| {
                settings_row(
                    [r.get(0), r.get(1), r.get(2), r.get(3)],
                    [r.get(4), r.get(5), r.get(6), r.get(7), r.get(8), r.get(10)],
                    r.get(9),
                )
            }))
        })
    }

    fn sign_ins(&self, id: UserId, limit: usize) -> Result<Vec<SignIn>> {
        self.pg.with(|c| {
            Ok(c.query(
                "SELECT at, ip_address, browser FROM sign_ins WHERE user_id = $1 ORDER BY at DESC, id DESC LIMIT $2",
                &[&id, &(limit as i64)],
            )?
            .into_iter()
            .map(|r| SignIn { at: r.get(0), ip_address: r.get(1), browser: r.get(2) })
            .collect())
        })
    }

    fn update_profile(&self, id: UserId, name: &str, company: &str, timezone: &str) -> Result<bool> {
        self.pg.with(|c| {
            Ok(c.execute(
                "UPDATE users SET name = $1, company = $2, timezone = $3 WHERE id = $4",
                &[&name, &company, &timezone, &id],
            )? > 0)
        })
    }

    fn update_notifications(&self, id: UserId, update: NotificationsUpdate) -> Result<bool> {
        self.pg.with(|c| {
            Ok(c.execute(
                "UPDATE users SET email_alerts = coalesce($1, email_alerts), weekly_reports = coalesce($2, weekly_reports),
                 real_time_alerts = coalesce($3, real_time_alerts), marketing_emails = coalesce($4, marketing_emails)
                 WHERE id = $5",
                &[&update.email_alerts, &update.weekly_reports, &update.real_time_alerts, &update.marketing_emails, &id],
            )? > 0)
        })
    }

    fn update_security(&self, id: UserId, timeout: Option<i64>, notify: Option<bool>) -> Result<Option<Security>> {
        self.pg.with(|c| {
            let mut tx = c.transaction()?;
            let row = tx.query_opt(
                "UPDATE users SET session_timeout = coalesce($1, session_timeout),
                 login_notifications = coalesce($2, login_notifications) WHERE id = $3
                 RETURNING totp_enabled, session_timeout, login_notifications",
                &[&timeout, &notify, &id],
            )?;
            let Some(row) = row else { return Ok(None) };
            if notify == Some(false) {
                tx.execute("DELETE FROM sign_ins WHERE user_id = $1", &[&id])?;
            }
            tx.commit()?;
            Ok(Some(security(row.get(0), row.get(1), row.get(2))))
        })
    }

    fn record_sign_in(&self, id: UserId, at: Millis, address: &str, browser: &str, keep: usize) -> Result<()> {
        self.pg.with(|c| {
            let mut tx = c.transaction()?;
            let inserted = tx.execute(
                "INSERT INTO sign_ins (user_id, at, ip_address, browser)
                 SELECT id, $2::BIGINT, $3::TEXT, $4::TEXT FROM users WHERE id = $1 AND login_notifications",
                &[&id, &at, &address, &browser],
            )?;
            if inserted > 0 {
                tx.execute(
                    "DELETE FROM sign_ins WHERE user_id = $1 AND id NOT IN
                     (SELECT id FROM sign_ins WHERE user_id = $1 ORDER BY at DESC, id DESC LIMIT $2)",
                    &[&id, &(keep as i64)],
                )?;
            }
            tx.commit()?;
            Ok(())
        })
    }

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

/// An advisory lock key (any constant) that serialises first-account sign-ups across daemons.
const FIRST_USER_LOCK: i64 = 0x0074_7261_636b_0001;

/// The settings row from its columns: `[name, email, company, timezone]`, `[email_alerts, weekly_reports,
/// real_time_alerts, marketing_emails, totp_enabled, login_notifications]`, and the stored timeout.
fn settings_row(text: [String; 4], flags: [bool; 6], timeout: i64) -> SettingsRow {
    let [name, email, company, timezone] = text;
    let [email_alerts, weekly_reports, real_time_alerts, marketing_emails, totp_enabled, login_notifications] = flags;
    (
        // Whether the address is confirmed is email_verification.rs's to say; `Account` fills it in.
        Profile { name, email, email_verified: false, company, timezone },
        Notifications { email_alerts, weekly_reports, real_time_alerts, marketing_emails, email_configured: false },
        security(totp_enabled, timeout, login_notifications),
    )
}

fn security(two_factor_enabled: bool, stored_timeout: i64, login_notifications: bool) -> Security {
    Security { two_factor_enabled, session_timeout: session_timeout_ms(stored_timeout) / 60_000, login_notifications }
}
