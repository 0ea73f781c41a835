//! Account settings behind the metadata boundary: the profile, the notification switches, the security
//! settings and the recorded sign-ins the Settings screen shows. `Account` and `Auth` call these.

use rusqlite::{OptionalExtension, params};

use super::{PgMeta, SqliteMeta};
use crate::account::{Notifications, NotificationsUpdate, Profile, Security, SignIn, session_timeout_ms};
use crate::error::Result;
use crate::model::{Millis, UserId};

/// An account's settings as the Settings screen shows them (`email_configured` is the caller's to fill).
pub type SettingsRow = (Profile, Notifications, Security);

/// An account's settings: each method is one statement or one transaction.
pub trait AccountSettingsStore {
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
}

impl AccountSettingsStore for SqliteMeta {
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
}

impl AccountSettingsStore for PgMeta {
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
}

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
