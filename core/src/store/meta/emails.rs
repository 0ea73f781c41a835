//! The email record behind the metadata boundary: who gets the weekly reports and traffic alerts (owners whose
//! address is confirmed, issue 33), and which of them went out (`emails_sent`). An email is claimed before it is sent, in one statement that only one
//! caller can win, so two daemons (or a daemon and `tracker email run`) never send the same one twice.

use rusqlite::{Connection, params};

use super::{PgMeta, SqliteMeta};
use crate::error::Result;
use crate::model::{Millis, UserId, WebsiteId};

/// What an email is about: one row kind of `emails_sent`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EmailKind {
    /// A site's weekly report; its period is the week's start.
    WeeklyReport,
    /// A traffic-spike alert; its period is the end of the hour window (the run's clock).
    SpikeAlert,
}

impl EmailKind {
    pub fn as_str(self) -> &'static str {
        match self {
            EmailKind::WeeklyReport => "weekly_report",
            EmailKind::SpikeAlert => "spike_alert",
        }
    }
}

/// A site, its owner and the owner's address, as a run finds them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmailRecipient {
    pub site: WebsiteId,
    pub name: String,
    pub domain: String,
    pub user: UserId,
    pub email: String,
}

/// One email of `emails_sent`: its key, and when it is sent.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct EmailClaim {
    pub kind: EmailKind,
    pub site: WebsiteId,
    pub user: UserId,
    pub period: Millis,
    pub at: Millis,
}

/// The email record; each method one statement or one transaction.
pub trait EmailStore {
    /// Sites whose owner has Weekly Reports on and whose report of the week starting `week` is not claimed.
    fn report_recipients(&self, week: Millis) -> Result<Vec<EmailRecipient>>;
    /// Sites whose owner has Real-time Alerts on and that had no alert with a period after `quiet_since`.
    fn alert_recipients(&self, quiet_since: Millis) -> Result<Vec<EmailRecipient>>;
    /// Claims an email as sent before it goes out; true when this caller won it and may send it. A site no
    /// longer the user's is not claimed; an alert is not claimed while the site had one after `quiet_since`.
    fn claim_email(&self, claim: &EmailClaim, quiet_since: Option<Millis>) -> Result<bool>;
    /// Records that the mail server refused a claimed email for good (it is not tried again).
    fn email_refused(&self, claim: &EmailClaim) -> Result<()>;
    /// Gives a claimed email back (the server could not take it now), so the next run tries it again.
    fn release_email(&self, claim: &EmailClaim) -> Result<()>;
}

const SQLITE_REPORT_RECIPIENTS: &str = "SELECT w.id, w.name, w.domain, u.id, u.email FROM websites w
     JOIN users u ON u.id = w.user_id
     WHERE u.weekly_reports AND u.email_verified_at IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM emails_sent e WHERE e.kind = 'weekly_report' AND e.website_id = w.id AND e.user_id = u.id AND e.period = ?1)
     ORDER BY w.id";

const SQLITE_ALERT_RECIPIENTS: &str = "SELECT w.id, w.name, w.domain, u.id, u.email FROM websites w
     JOIN users u ON u.id = w.user_id
     WHERE u.real_time_alerts AND u.email_verified_at IS NOT NULL
       AND NOT EXISTS (SELECT 1 FROM emails_sent e WHERE e.kind = 'spike_alert' AND e.website_id = w.id AND e.period > ?1)
     ORDER BY w.id";

fn sqlite_recipients(conn: &Connection, sql: &str, bound: Millis) -> Result<Vec<EmailRecipient>> {
    let mut stmt = conn.prepare_cached(sql)?;
    let rows = stmt.query_map([bound], |r| {
        Ok(EmailRecipient { site: r.get(0)?, name: r.get(1)?, domain: r.get(2)?, user: r.get(3)?, email: r.get(4)? })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

impl EmailStore for SqliteMeta {
    fn report_recipients(&self, week: Millis) -> Result<Vec<EmailRecipient>> {
        self.db.read(|conn| sqlite_recipients(conn, SQLITE_REPORT_RECIPIENTS, week))
    }

    fn alert_recipients(&self, quiet_since: Millis) -> Result<Vec<EmailRecipient>> {
        self.db.read(|conn| sqlite_recipients(conn, SQLITE_ALERT_RECIPIENTS, quiet_since))
    }

    fn claim_email(&self, claim: &EmailClaim, quiet_since: Option<Millis>) -> Result<bool> {
        // One statement: SQLite lets one writer at a time in, so the check and the insert cannot interleave
        // with another process's.
        self.db.write(|conn| {
            let inserted = conn.execute(
                "INSERT OR IGNORE INTO emails_sent (kind, website_id, user_id, period, sent_at, outcome)
                 SELECT ?1, w.id, w.user_id, ?4, ?5, 'sent' FROM websites w WHERE w.id = ?2 AND w.user_id = ?3
                   AND (?6 IS NULL OR NOT EXISTS (SELECT 1 FROM emails_sent e WHERE e.kind = ?1
                        AND e.website_id = w.id AND e.period > ?6))",
                params![claim.kind.as_str(), claim.site, claim.user, claim.period, claim.at, quiet_since],
            )?;
            Ok(inserted == 1)
        })
    }

    fn email_refused(&self, claim: &EmailClaim) -> Result<()> {
        self.db.write(|conn| {
            conn.execute(
                "UPDATE emails_sent SET outcome = 'refused'
                 WHERE kind = ?1 AND website_id = ?2 AND user_id = ?3 AND period = ?4",
                params![claim.kind.as_str(), claim.site, claim.user, claim.period],
            )?;
            Ok(())
        })
    }

    fn release_email(&self, claim: &EmailClaim) -> Result<()> {
        self.db.write(|conn| {
            conn.execute(
                "DELETE FROM emails_sent WHERE kind = ?1 AND website_id = ?2 AND user_id = ?3 AND period = ?4",
                params![claim.kind.as_str(), claim.site, claim.user, claim.period],
            )?;
            Ok(())
        })
    }
}

fn pg_recipient(r: &postgres::Row) -> EmailRecipient {
    EmailRecipient { site: r.get(0), name: r.get(1), domain: r.get(2), user: r.get(3), email: r.get(4) }
}

impl EmailStore for PgMeta {
    fn report_recipients(&self, week: Millis) -> Result<Vec<EmailRecipient>> {
        self.pg.with(|c| {
            let rows = c.query(
                "SELECT w.id, w.name, w.domain, u.id, u.email FROM websites w JOIN users u ON u.id = w.user_id
                 WHERE u.weekly_reports AND u.email_verified_at IS NOT NULL
                   AND NOT EXISTS (SELECT 1 FROM emails_sent e WHERE e.kind = 'weekly_report' AND e.website_id = w.id AND e.user_id = u.id AND e.period = $1)
                 ORDER BY w.id",
                &[&week],
            )?;
            Ok(rows.iter().map(pg_recipient).collect())
        })
    }

    fn alert_recipients(&self, quiet_since: Millis) -> Result<Vec<EmailRecipient>> {
        self.pg.with(|c| {
            let rows = c.query(
                "SELECT w.id, w.name, w.domain, u.id, u.email FROM websites w JOIN users u ON u.id = w.user_id
                 WHERE u.real_time_alerts AND u.email_verified_at IS NOT NULL
                   AND NOT EXISTS (SELECT 1 FROM emails_sent e WHERE e.kind = 'spike_alert' AND e.website_id = w.id AND e.period > $1)
                 ORDER BY w.id",
                &[&quiet_since],
            )?;
            Ok(rows.iter().map(pg_recipient).collect())
        })
    }

    fn claim_email(&self, claim: &EmailClaim, quiet_since: Option<Millis>) -> Result<bool> {
        self.pg.with(|c| {
            let mut tx = c.transaction()?;
            if quiet_since.is_some() {
                // Alerts of two daemons have different periods (each its own clock), so the key cannot keep
                // them apart: the site's row lock makes the second claim wait for the first, and its insert
                // then sees the first's row (under READ COMMITTED each statement reads anew). NO KEY UPDATE
                // does not block inserts that reference the site.
                tx.execute("SELECT 1 FROM websites WHERE id = $1 FOR NO KEY UPDATE", &[&claim.site])?;
            }
            let inserted = tx.execute(
                "INSERT INTO emails_sent (kind, website_id, user_id, period, sent_at, outcome)
                 SELECT $1::TEXT, w.id, w.user_id, $4, $5, 'sent' FROM websites w WHERE w.id = $2 AND w.user_id = $3
                   AND ($6::BIGINT IS NULL OR NOT EXISTS (SELECT 1 FROM emails_sent e WHERE e.kind = $1
                        AND e.website_id = w.id AND e.period > $6::BIGINT))
                 ON CONFLICT DO NOTHING",
                &[&claim.kind.as_str(), &claim.site, &claim.user, &claim.period, &claim.at, &quiet_since],
            )?;
            tx.commit()?;
            Ok(inserted == 1)
        })
    }

    fn email_refused(&self, claim: &EmailClaim) -> Result<()> {
        self.pg.with(|c| {
            c.execute(
                "UPDATE emails_sent SET outcome = 'refused'
                 WHERE kind = $1 AND website_id = $2 AND user_id = $3 AND period = $4",
                &[&claim.kind.as_str(), &claim.site, &claim.user, &claim.period],
            )?;
            Ok(())
        })
    }

    fn release_email(&self, claim: &EmailClaim) -> Result<()> {
        self.pg.with(|c| {
            c.execute(
                "DELETE FROM emails_sent WHERE kind = $1 AND website_id = $2 AND user_id = $3 AND period = $4",
                &[&claim.kind.as_str(), &claim.site, &claim.user, &claim.period],
            )?;
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::testing::engines;
    use super::*;
    use crate::model::TrackingLevel;

    const WEEK: Millis = 1_763_942_400_000;

    /// An account and a site of it on `meta`: (user, site).
    fn owner_and_site(meta: &super::super::Meta, email: &str) -> (UserId, WebsiteId) {
        let user = meta.insert_user(email, "hash", 1, false).unwrap().unwrap().id;
        meta.vouch_for_email(user, 1).unwrap();
        let key = format!("key-{email}");
        let site = meta.insert_website(user, "Shop", "shop.example.com", &key, TrackingLevel::Light, 1).unwrap();
        (user, site.unwrap())
    }

    #[test]
    fn a_report_is_claimed_once_and_a_released_one_can_be_claimed_again() {
        for engine in engines() {
            let meta = &engine.meta;
            let (user, site) = owner_and_site(meta, "ann@example.com");
            let (other, _) = owner_and_site(meta, "bob@example.com");
            let claim = EmailClaim { kind: EmailKind::WeeklyReport, site, user, period: WEEK, at: WEEK + 10 };
            let due = |meta: &super::super::Meta| -> Vec<WebsiteId> {
                meta.report_recipients(WEEK).unwrap().iter().filter(|r| r.user == user).map(|r| r.site).collect()
            };
            assert_eq!(due(meta), [site], "{}", engine.name);
            assert!(!meta.claim_email(&EmailClaim { user: other, ..claim }, None).unwrap(), "{}", engine.name);
            assert!(meta.claim_email(&claim, None).unwrap(), "{}", engine.name);
            assert!(!meta.claim_email(&EmailClaim { at: WEEK + 20, ..claim }, None).unwrap(), "{}", engine.name);
            assert!(due(meta).is_empty(), "{}", engine.name);
            meta.release_email(&claim).unwrap();
            assert_eq!(due(meta), [site], "{}: a released claim is due again", engine.name);
            assert!(meta.claim_email(&claim, None).unwrap(), "{}", engine.name);
            meta.email_refused(&claim).unwrap();
            assert!(due(meta).is_empty(), "{}: a refused report is not tried again", engine.name);
            assert!(!meta.claim_email(&claim, None).unwrap(), "{}", engine.name);
        }
    }

    #[test]
    fn an_owner_whose_address_is_unconfirmed_gets_no_report_or_alert() {
        for engine in engines() {
            let meta = &engine.meta;
            let (user, site) = owner_and_site(meta, "ann@example.com");
            meta.update_notifications(
                user,
                crate::account::NotificationsUpdate { real_time_alerts: Some(true), ..Default::default() },
            )
            .unwrap();
            let sites = |meta: &super::super::Meta| {
                let reports = meta.report_recipients(WEEK).unwrap().iter().map(|r| r.site).collect::<Vec<_>>();
                let alerts = meta.alert_recipients(WEEK).unwrap().iter().map(|r| r.site).collect::<Vec<_>>();
                (reports, alerts)
            };
            assert_eq!(sites(meta), (vec![site], vec![site]), "{}", engine.name);
            meta.set_email(user, "changed@example.com").unwrap();
            assert_eq!(sites(meta), (vec![], vec![]), "{}: a changed address is unconfirmed", engine.name);
        }
    }

    #[test]
    fn alerts_claimed_at_once_at_different_clocks_keep_the_quiet_period() {
        const QUIET: Millis = 6 * 3_600_000;
        for engine in engines() {
            let meta = &engine.meta;
            let (user, site) = owner_and_site(meta, "ann@example.com");
            // Eight daemons, each its own clock a second apart, claim the same spike's alert at once.
            let won: usize = (0..8)
                .map(|i| {
                    let meta = Arc::clone(meta);
                    std::thread::spawn(move || {
                        let at = WEEK + i * 1_000;
                        let claim = EmailClaim { kind: EmailKind::SpikeAlert, site, user, period: at, at };
                        meta.claim_email(&claim, Some(at - QUIET)).unwrap()
                    })
                })
                .collect::<Vec<_>>()
                .into_iter()
                .map(|t| usize::from(t.join().unwrap()))
                .sum();
            assert_eq!(won, 1, "{}", engine.name);
            let after = WEEK + QUIET + 10_000;
            let claim = EmailClaim { kind: EmailKind::SpikeAlert, site, user, period: after, at: after };
            assert!(meta.claim_email(&claim, Some(after - QUIET)).unwrap(), "{}: after the quiet period", engine.name);
        }
    }
}
