//! Email reports and alerts (issue 17 part 4): each site's weekly report to its owner while Weekly Reports are
//! on, and a traffic-spike alert while Real-time Alerts are on, and each to the members who asked for them on the
//! site (issue 37), over SMTP (`smtp_url`). The daemon's scheduler
//! calls [`Email::run_due`] every few minutes; an email is claimed in `emails_sent` before it goes out (in
//! PostgreSQL in cluster mode, where every daemon runs the scheduler), so neither a restart nor a second daemon
//! sends it twice. Without `smtp_url` nothing is sent and the Settings screen says email is not configured.

mod mailer;
mod spike;
mod weekly;

pub use mailer::{Delivery, Mailer, Outgoing, is_configured, validate};
pub use spike::{SPIKE_FACTOR, SPIKE_MIN_PAGE_VIEWS, SPIKE_QUIET_MS, SPIKE_WINDOW_MS, Spike};
pub use weekly::{Change, TopRow, WeeklyReport, week_start};

use std::fmt::Write;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::events::Events;
use crate::model::{Millis, WebsiteId};
use crate::settings::Settings;
use crate::store::meta::{EmailClaim, EmailKind, EmailRecipient, Meta};
use weekly::WEEK_MS;

/// How long after its week a report may still go out: a daemon down on Monday sends it on Tuesday, one down
/// for a fortnight does not send a stale one.
pub const REPORT_GRACE_MS: Millis = 3 * 86_400_000;

const WEEKLY_FOOTER: &str =
    "You get this email because Weekly Reports are on in your tracker account (Settings, Notifications).";
const ALERT_FOOTER: &str = "You get this email because Real-time Alerts are on in your tracker account \
                            (Settings, Notifications). A site gets at most one alert every 6 hours.";
const MEMBER_WEEKLY_FOOTER: &str = "You get this email because you asked for this site's weekly report \
                                    (Your Websites, Emails on the site's card).";
const MEMBER_ALERT_FOOTER: &str = "You get this email because you asked for this site's traffic alerts \
                                   (Your Websites, Emails on the site's card). A site sends you at most one alert \
                                   every 6 hours.";

/// Why a recipient gets an email: an owner by the account's switches, a member by its choice on the site.
fn footer(kind: EmailKind, due: &EmailRecipient) -> &'static str {
    match (kind, due.owner) {
        (EmailKind::WeeklyReport, true) => WEEKLY_FOOTER,
        (EmailKind::WeeklyReport, false) => MEMBER_WEEKLY_FOOTER,
        (EmailKind::SpikeAlert, true) => ALERT_FOOTER,
        (EmailKind::SpikeAlert, false) => MEMBER_ALERT_FOOTER,
    }
}

/// What one run sent.
#[derive(Debug, Default, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct RunReport {
    pub reports_sent: usize,
    pub alerts_sent: usize,
    /// Refused for good by the server (not retried).
    pub refused: usize,
}

/// The email service: reports, alerts, and the operator's test messages.
#[derive(Clone)]
pub struct Email {
    meta: Meta,
    settings: Settings,
    /// Where reports and alerts read their figures: the dashboard's own reads, so both say the same.
    figures: Events,
}

impl Email {
    pub(crate) fn new(meta: Meta, settings: Settings, figures: Events) -> Email {
        Email { meta, settings, figures }
    }

    /// Whether `smtp_url` is set (the Settings screen's toggles say so when it is not).
    pub fn is_configured(&self) -> bool {
        self.settings.read(is_configured)
    }

    /// Sends what is due at `now` (the scheduler's clock; tests pass their own): last week's reports not sent
    /// yet, and alerts for sites spiking now. Nothing without `smtp_url`. A server out of reach ends the run
    /// with an error; what was not sent is tried again by the next run.
    pub fn run_due(&self, now: Millis) -> Result<RunReport> {
        let config = self.settings.get();
        let Some(mailer) = Mailer::from_config(&config)? else {
            return Ok(RunReport::default());
        };
        let base = config.base_url();
        let mut report = RunReport::default();
        self.send_weekly_reports(&mailer, &base, now, &mut report)?;
        self.send_spike_alerts(&mailer, &base, now, &mut report)?;
        Ok(report)
    }

    /// Sends a short test message to `to`, to check the SMTP settings.
    pub fn send_test(&self, to: &str) -> Result<Delivery> {
        let mailer = self.mailer()?;
        let base = self.settings.read(|c| c.base_url());
        let text = format!(
            "This is a test message from tracker at {base}.\n\nIf you can read it, weekly reports and traffic alerts \
             can reach you.\n"
        );
        let html = format!(
            "<p>This is a test message from tracker at {}.</p><p>If you can read it, weekly reports and traffic alerts can reach you.</p>",
            escape(&base)
        );
        mailer.send(&Outgoing { to: to.to_string(), subject: "tracker test message".into(), text, html })
    }

    /// Sends the report of the week holding `week_of` for a site to any address (the operator's check; not
    /// remembered, so the scheduled report still goes out).
    pub fn send_weekly_report(&self, site: WebsiteId, to: &str, week_of: Millis) -> Result<Delivery> {
        let mailer = self.mailer()?;
        let website = self.meta.website(site)?.ok_or(Error::NotFound("website"))?;
        let report = WeeklyReport::read(&self.figures, site, &website.name, &website.domain, week_start(week_of))?;
        let dashboard = dashboard_link(&self.settings.read(|c| c.base_url()), site, "dashboard");
        mailer.send(&Outgoing {
            to: to.to_string(),
            subject: report.subject(),
            text: report.text(&dashboard, WEEKLY_FOOTER),
            html: report.html(&dashboard, WEEKLY_FOOTER),
        })
    }

    fn mailer(&self) -> Result<Mailer> {
        Mailer::from_config(&self.settings.get())?
            .ok_or_else(|| Error::invalid("email is not configured: set smtp_url (see tracker config example)"))
    }

    /// Last week's report of every site to each of its recipients (`EmailStore::report_recipients`), once
    /// each; a site's figures are read once however many it has.
    fn send_weekly_reports(&self, mailer: &Mailer, base: &str, now: Millis, report: &mut RunReport) -> Result<()> {
        let week = week_start(now) - WEEK_MS;
        if now >= week + WEEK_MS + REPORT_GRACE_MS {
            return Ok(());
        }
        let mut read: Option<(WebsiteId, WeeklyReport)> = None;
        for due in self.meta.report_recipients(week)? {
            // Recipients come ordered by site.
            let weekly = match read {
                Some((site, ref weekly)) if site == due.site => weekly,
                _ => {
                    &read
                        .insert((due.site, WeeklyReport::read(&self.figures, due.site, &due.name, &due.domain, week)?))
                        .1
                }
            };
            // Not yet due where the site's Sunday is not over (west of UTC): a later run sends it.
            if weekly.is_empty() || now < weekly.week_end {
                continue;
            }
            let dashboard = dashboard_link(base, due.site, "dashboard");
            let footer = footer(EmailKind::WeeklyReport, &due);
            let mail = Outgoing {
                to: due.email.clone(),
                subject: weekly.subject(),
                text: weekly.text(&dashboard, footer),
                html: weekly.html(&dashboard, footer),
            };
            let claim =
                EmailClaim { kind: EmailKind::WeeklyReport, site: due.site, user: due.user, period: week, at: now };
            self.send_once(mailer, &claim, None, &due, &mail, report)?;
        }
        Ok(())
    }

    /// An alert for every site spiking now to each of its recipients (`EmailStore::alert_recipients`)
    /// outside their own quiet period; a site's spike is checked once however many it has.
    fn send_spike_alerts(&self, mailer: &Mailer, base: &str, now: Millis, report: &mut RunReport) -> Result<()> {
        let quiet_since = now - SPIKE_QUIET_MS;
        let mut checked: Option<(WebsiteId, Option<Spike>)> = None;
        for due in self.meta.alert_recipients(quiet_since)? {
            let spike = match checked {
                Some((site, ref spike)) if site == due.site => spike,
                _ => &checked.insert((due.site, Spike::check(&self.figures, due.site, &due.name, &due.domain, now)?)).1,
            };
            let Some(spike) = spike else {
                continue;
            };
            let live = dashboard_link(base, due.site, "live");
            let footer = footer(EmailKind::SpikeAlert, &due);
            let mail = Outgoing {
                to: due.email.clone(),
                subject: spike.subject(),
                text: spike.text(&live, footer),
                html: spike.html(&live, footer),
            };
            let claim =
                EmailClaim { kind: EmailKind::SpikeAlert, site: due.site, user: due.user, period: now, at: now };
            if self.send_once(mailer, &claim, Some(quiet_since), &due, &mail, report)? {
                // The chart keeps the spike too (issue 37), once however many people the alert reaches (the
                // annotation has the alert's quiet period of its own).
                crate::store::annotations::mark_spike(&self.meta, due.site, spike.page_views, now, SPIKE_QUIET_MS)?;
            }
        }
        Ok(())
    }

    /// Sends `mail` if this run wins its claim (another daemon's run may have sent it since the recipients
    /// were read), and says whether it did. A refusal for good stays recorded; a server that cannot take it now
    /// gets the claim back, so the next run tries again, and ends this run with its error.
    fn send_once(
        &self,
        mailer: &Mailer,
        claim: &EmailClaim,
        quiet_since: Option<Millis>,
        due: &EmailRecipient,
        mail: &Outgoing,
        report: &mut RunReport,
    ) -> Result<bool> {
        if !self.meta.claim_email(claim, quiet_since)? {
            return Ok(false);
        }
        let kind = claim.kind.as_str();
        match mailer.send(mail) {
            Ok(Delivery::Sent) => match claim.kind {
                EmailKind::WeeklyReport => report.reports_sent += 1,
                EmailKind::SpikeAlert => report.alerts_sent += 1,
            },
            Ok(Delivery::Refused(reason)) => {
                // The site and account ids only: the address is the account's, not for the log.
                tracing::warn!(kind, site = due.site, user = due.user, reason = %reason, "email refused by the mail server");
                report.refused += 1;
                self.meta.email_refused(claim)?;
            }
            Err(e) => {
                if let Err(release) = self.meta.release_email(claim) {
                    // Then the email is not tried again; the log says which one.
                    tracing::error!(kind, site = due.site, user = due.user, error = %release, "could not release an unsent email's claim");
                }
                return Err(e);
            }
        }
        Ok(true)
    }
}

/// A link to one of the dashboard's screens for a site.
fn dashboard_link(base: &str, site: WebsiteId, screen: &str) -> String {
    format!("{base}/{screen}?website={site}&range=7d")
}

/// Opens an HTML mail: the document and its heading, `title` then the site's domain in grey, escaped.
fn html_start(out: &mut String, title: &str, domain: &str) {
    let _ = write!(
        out,
        "<!doctype html><html><body style=\"font-family:sans-serif;color:#111\">\
         <h2>{} <small style=\"color:#666\">{}</small></h2>",
        escape(title),
        escape(domain)
    );
}

/// Closes an HTML mail: the link to the dashboard and the footer saying why the mail came, escaped.
fn html_end(out: &mut String, link_text: &str, dashboard: &str, footer: &str) {
    let _ = write!(
        out,
        "<p><a href=\"{}\">{}</a></p><p style=\"color:#666;font-size:12px\">{}</p></body></html>",
        escape(dashboard),
        escape(link_text),
        escape(footer)
    );
}

/// Text made safe for HTML element content and quoted attribute values.
pub fn escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        match c {
            '&' => out.push_str("&amp;"),
            '<' => out.push_str("&lt;"),
            '>' => out.push_str("&gt;"),
            '"' => out.push_str("&quot;"),
            '\'' => out.push_str("&#39;"),
            c => out.push(c),
        }
    }
    out
}

/// "+50%", "-20%", "no change", or "new" when the week before had none.
pub fn percent_change(current: i64, previous: i64) -> String {
    if previous <= 0 {
        return if current > 0 { "new".into() } else { "no change".into() };
    }
    let change = ((current - previous) as f64 * 100.0 / previous as f64).round() as i64;
    match change {
        0 => "no change".into(),
        c if c > 0 => format!("+{c}%"),
        c => format!("{c}%"),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn changes_read_as_people_say_them() {
        assert_eq!(percent_change(12, 8), "+50%");
        assert_eq!(percent_change(6, 8), "-25%");
        assert_eq!(percent_change(8, 8), "no change");
        assert_eq!(percent_change(3, 0), "new");
        assert_eq!(percent_change(0, 0), "no change");
    }
}
