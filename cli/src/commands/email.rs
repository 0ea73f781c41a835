//! `tracker email`: checks the SMTP settings with a test message, sends a site's weekly report to any address,
//! or runs the scheduler's due work once (the daemon does that every 5 minutes).

use anyhow::bail;
use clap::{Args, Subcommand};
use tracker_core::email::{Delivery, week_start};
use tracker_core::model::now_ms;

use super::{GlobalArgs, find_site, parse_date};
use crate::output::print_json;

#[derive(Args)]
#[command(after_help = "Email needs smtp_url (and smtp_from) in the configuration; see `tracker config example`.\n\n\
Examples:\n  tracker email test --to me@example.com\n  tracker email report --site blog.example.com --to me@example.com\n  \
tracker email report --site 1 --to me@example.com --week 2026-11-16\n  tracker email run")]
pub struct EmailArgs {
    #[command(subcommand)]
    command: EmailCommand,
}

#[derive(Subcommand)]
enum EmailCommand {
    /// Send a test message, to check smtp_url and smtp_from
    #[command(after_help = "Examples:\n  tracker email test --to me@example.com")]
    Test {
        /// Recipient address
        #[arg(long, value_name = "EMAIL")]
        to: String,
    },
    /// Send a site's weekly report to an address now (the scheduled reports still go out)
    #[command(after_help = "Examples:\n  tracker email report --site blog.example.com --to me@example.com\n  \
tracker email report --site 1 --to me@example.com --week 2026-11-16")]
    Report {
        /// Website id or domain
        #[arg(long)]
        site: String,
        /// Recipient address
        #[arg(long, value_name = "EMAIL")]
        to: String,
        /// Any day of the week to report (weeks run Monday to Sunday, UTC) [default: last week]
        #[arg(long, value_name = "YYYY-MM-DD")]
        week: Option<String>,
    },
    /// Send the weekly reports and traffic alerts that are due, once
    #[command(after_help = "Examples:\n  tracker email run\n  tracker email run --now 2026-11-23T06:00:00Z --json")]
    Run {
        /// The clock to run at (RFC 3339 or YYYY-MM-DD) [default: now]
        #[arg(long, value_name = "TIME")]
        now: Option<String>,
    },
}

pub fn run(global: &GlobalArgs, args: &EmailArgs) -> anyhow::Result<()> {
    // In cluster mode the recipients and the emails sent are in PostgreSQL and the figures in ClickHouse.
    let tracker = global.open_shared()?;
    let delivery = match &args.command {
        EmailCommand::Test { to } => tracker.email.send_test(to)?,
        EmailCommand::Report { site, to, week } => {
            let site = find_site(&tracker, site)?;
            let week_of = match week {
                Some(day) => parse_date("--week", day)?,
                None => week_start(now_ms()) - 1,
            };
            tracker.email.send_weekly_report(site.id, to, week_of)?
        }
        EmailCommand::Run { now } => {
            let now = match now {
                Some(time) => parse_date("--now", time)?,
                None => now_ms(),
            };
            let report = tracker.email.run_due(now)?;
            if global.json {
                return print_json(&report);
            }
            println!(
                "{} weekly reports and {} traffic alerts sent; {} refused by the mail server",
                report.reports_sent, report.alerts_sent, report.refused
            );
            return Ok(());
        }
    };
    match delivery {
        Delivery::Sent if global.json => print_json(&serde_json::json!({ "sent": true })),
        Delivery::Sent => {
            println!("sent");
            Ok(())
        }
        Delivery::Refused(reason) => bail!("the mail server refused the message: {reason}"),
    }
}
