//! The email record behind the metadata boundary: who gets the weekly reports and traffic alerts (a site's owner
//! while the account's switches are on, and each member who asked for them on the site, issue 37; a confirmed
//! address either way, issue 33), and which of them went out (`emails_sent`). An email is claimed before it is
//! sent, per recipient, in one statement that only one caller can win and that admits only a recipient still
//! entitled to it, so two daemons (or a daemon and `tracker email run`) never send the same one twice, one
//! recipient's email neither blocks nor stands for another's, and a member removed since the list was read gets
//! nothing.

use rusqlite::{Connection, OptionalExtension, params};

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

/// A site and one account that is to get its email, as a run finds them.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct EmailRecipient {
    pub site: WebsiteId,
    pub name: String,
    pub domain: String,
    pub user: UserId,
    pub email: String,
    /// The site's owner (its account's switches asked for it), not a member who asked on the site.
    pub owner: bool,
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
    /// Each owner with Weekly Reports on and each member who asked for the site's reports, per site, whose
    /// report of the week starting `week` is not claimed.
    fn report_recipients(&self, week: Millis) -> Result<Vec<EmailRecipient>>;
    /// Each owner with Real-time Alerts on and each member who asked for the site's alerts, per site, who got no
    /// alert of it with a period after `quiet_since`.
    fn alert_recipients(&self, quiet_since: Millis) -> Result<Vec<EmailRecipient>>;
    /// Claims an email as sent before it goes out; true when this caller won it and may send it. It is not
    /// claimed unless the user owns the site or is a member still asking for this kind of email on it; an alert
    /// is not claimed while the user got one of the site after `quiet_since`.
    fn claim_email(&self, claim: &EmailClaim, quiet_since: Option<Millis>) -> Result<bool>;
    /// Records that the mail server refused a claimed email for good (it is not tried again).
    fn email_refused(&self, claim: &EmailClaim) -> Result<()>;
    /// Gives a claimed email back (the server could not take it now), so the next run tries it again.
    fn release_email(&self, claim: &EmailClaim) -> Result<()>;
    /// A member's choice of the site's (reports, alerts); `None` when `user` is not a member of it.
    fn member_emails(&self, site: WebsiteId, user: UserId) -> Result<Option<(bool, bool)>>;
    /// Saves what is given of a member's choice and answers it after; `None` when `user` is not a member.
    fn set_member_emails(
        &self,
        site: WebsiteId,
        user: UserId,
        reports: Option<bool>,
        alerts: Option<bool>,
    ) -> Result<Option<(bool, bool)>>;
}

/// The recipients of one kind of email, `{p}` its one parameter in the engine's spelling: a site's owner while
/// the account's switch is on, and each member whose choice on the site is on, with a confirmed address and no
/// email of the kind claimed for them at the period (a report: the week; an alert: within the quiet period).
fn recipients_sql(kind: EmailKind, p: &str) -> String {
    let (owner_switch, member_choice, period) = match kind {
        EmailKind::WeeklyReport => ("u.weekly_reports", "m.email_reports", "="),
        EmailKind::SpikeAlert => ("u.real_time_alerts", "m.email_alerts", ">"),
    };
    let kind = kind.as_str();
    // Only constant column names and the kind's constant name are formatted in; the period is bound.
    format!(
        "SELECT r.website_id, w.name, w.domain, u.id, u.email, r.owner FROM (
             SELECT id AS website_id, user_id, TRUE AS owner FROM websites
             UNION ALL SELECT m.website_id, m.user_id, FALSE FROM site_members m WHERE {member_choice}) r
         JOIN websites w ON w.id = r.website_id JOIN users u ON u.id = r.user_id
         WHERE u.email_verified_at IS NOT NULL AND (NOT r.owner OR {owner_switch})
           AND NOT EXISTS (SELECT 1 FROM emails_sent e WHERE e.kind = '{kind}' AND e.website_id = r.website_id
                           AND e.user_id = r.user_id AND e.period {period} {p})
         ORDER BY r.website_id, r.owner DESC, u.id"
    )
}

fn sqlite_recipients(conn: &Connection, kind: EmailKind, bound: Millis) -> Result<Vec<EmailRecipient>> {
    let mut stmt = conn.prepare_cached(&recipients_sql(kind, "?1"))?;
    let rows = stmt.query_map([bound], |r| {
        Ok(EmailRecipient {
            site: r.get(0)?,
            name: r.get(1)?,
            domain: r.get(2)?,
            user: r.get(3)?,
            email: r.get(4)?,
            owner: r.get(5)?,
        })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

impl EmailStore for SqliteMeta {
    fn report_recipients(&self, week: Millis) -> Result<Vec<EmailRecipient>> {
        self.db.read(|conn| sqlite_recipients(conn, EmailKind::WeeklyReport, week))
    }

    fn alert_recipients(&self, quiet_since: Millis) -> Result<Vec<EmailRecipient>> {
        self.db.read(|conn| sqlite_recipients(conn, EmailKind::SpikeAlert, quiet_since))
    }

    fn claim_email(&self, claim: &EmailClaim, quiet_since: Option<Millis>) -> Result<bool> {
        // One statement: SQLite lets one writer at a time in, so the check and the insert cannot interleave
        // with another process's.
        self.db.write(|conn| {
            let inserted = conn.execute(
                "INSERT OR IGNORE INTO emails_sent (kind, website_id, user_id, period, sent_at, outcome)
                 SELECT ?1, w.id, ?3, ?4, ?5, 'sent' FROM websites w WHERE w.id = ?2
                   AND (w.user_id = ?3 OR EXISTS (SELECT 1 FROM site_members m WHERE m.website_id = w.id
                        AND m.user_id = ?3 AND CASE ?1 WHEN 'weekly_report' THEN m.email_reports ELSE m.email_alerts END))
                   AND (?6 IS NULL OR NOT EXISTS (SELECT 1 FROM emails_sent e WHERE e.kind = ?1
                        AND e.website_id = w.id AND e.user_id = ?3 AND e.period > ?6))",
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

    fn member_emails(&self, site: WebsiteId, user: UserId) -> Result<Option<(bool, bool)>> {
        self.db.read(|conn| {
            Ok(conn
                .query_row(
                    "SELECT email_reports, email_alerts FROM site_members WHERE website_id = ?1 AND user_id = ?2",
                    params![site, user],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?)
        })
    }

    fn set_member_emails(
        &self,
        site: WebsiteId,
        user: UserId,
        reports: Option<bool>,
        alerts: Option<bool>,
    ) -> Result<Option<(bool, bool)>> {
        self.db.write(|conn| {
            Ok(conn
                .query_row(
                    "UPDATE site_members SET email_reports = coalesce(?3, email_reports),
                     email_alerts = coalesce(?4, email_alerts) WHERE website_id = ?1 AND user_id = ?2
                     RETURNING email_reports, email_alerts",
                    params![site, user, reports, alerts],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .optional()?)
        })
    }
}

fn pg_recipient(r: &postgres::Row) -> EmailRecipient {
    EmailRecipient {
        site: r.get(0),
        name: r.get(1),
        domain: r.get(2),
        user: r.get(3),
        email: r.get(4),
        owner: r.get(5),
    }
}

impl PgMeta {
    fn recipients(&self, kind: EmailKind, bound: Millis) -> Result<Vec<EmailRecipient>> {
        self.pg.with(|c| Ok(c.query(&recipients_sql(kind, "$1"), &[&bound])?.iter().map(pg_recipient).collect()))
    }
}

impl EmailStore for PgMeta {
    fn report_recipients(&self, week: Millis) -> Result<Vec<EmailRecipient>> {
        self.recipients(EmailKind::WeeklyReport, week)
    }

    fn alert_recipients(&self, quiet_since: Millis) -> Result<Vec<EmailRecipient>> {
        self.recipients(EmailKind::SpikeAlert, quiet_since)
    }

    fn claim_email(&self, claim: &EmailClaim, quiet_since: Option<Millis>) -> Result<bool> {
        self.pg.with(|c| {
            let mut tx = c.transaction()?;
            if quiet_since.is_some() {
                // Alerts of two daemons have different periods (each its own clock), so the key cannot keep
                // them apart: the recipient's own row (the site's for its owner, the membership for a member)
                // makes a second claim for the same recipient wait for the first, and its insert then sees the
                // first's row (under READ COMMITTED each statement reads anew), while claims for other
                // recipients go on. NO KEY UPDATE does not block inserts that reference the row.
                tx.execute(
                    "SELECT 1 FROM websites WHERE id = $1 AND user_id = $2 FOR NO KEY UPDATE",
                    &[&claim.site, &claim.user],
                )?;
                tx.execute(
                    "SELECT 1 FROM site_members WHERE website_id = $1 AND user_id = $2 FOR NO KEY UPDATE",
                    &[&claim.site, &claim.user],
                )?;
            }
            let inserted = tx.execute(
                "INSERT INTO emails_sent (kind, website_id, user_id, period, sent_at, outcome)
                 SELECT $1::TEXT, w.id, $3::BIGINT, $4, $5, 'sent' FROM websites w WHERE w.id = $2
                   AND (w.user_id = $3 OR EXISTS (SELECT 1 FROM site_members m WHERE m.website_id = w.id
                        AND m.user_id = $3 AND CASE $1 WHEN 'weekly_report' THEN m.email_reports ELSE m.email_alerts END))
                   AND ($6::BIGINT IS NULL OR NOT EXISTS (SELECT 1 FROM emails_sent e WHERE e.kind = $1
                        AND e.website_id = w.id AND e.user_id = $3 AND e.period > $6::BIGINT))
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

    fn member_emails(&self, site: WebsiteId, user: UserId) -> Result<Option<(bool, bool)>> {
        self.pg.with(|c| {
            Ok(c.query_opt(
                "SELECT email_reports, email_alerts FROM site_members WHERE website_id = $1 AND user_id = $2",
                &[&site, &user],
            )?
            .map(|r| (r.get(0), r.get(1))))
        })
    }

    fn set_member_emails(
        &self,
        site: WebsiteId,
        user: UserId,
        reports: Option<bool>,
        alerts: Option<bool>,
    ) -> Result<Option<(bool, bool)>> {
        self.pg.with(|c| {
            Ok(c.query_opt(
                "UPDATE site_members SET email_reports = coalesce($3, email_reports),
                 email_alerts = coalesce($4, email_alerts) WHERE website_id = $1 AND user_id = $2
                 RETURNING email_reports, email_alerts",
                &[&site, &user, &reports, &alerts],
            )?
            .map(|r| (r.get(0), r.get(1))))
        })
    }
}

#[cfg(test)]
#[path = "emails_tests.rs"]
mod tests;
