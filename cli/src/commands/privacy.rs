//! `tracker privacy delete`: deletes a site's page views, events or all data, after confirmation.

use std::io::{BufRead, IsTerminal, Write};

use anyhow::{Context, bail};
use clap::{Args, Subcommand};
use tracker_core::model::iso;
use tracker_core::privacy::DataType;

use super::{GlobalArgs, find_site, parse_date};
use crate::output::{print_json, table};

#[derive(Args)]
#[command(after_help = "Rollups of the days touched are recomputed from the rows that remain; `--data all` without\n\
--before also clears the site's sessions and rollups.\n\n\
Examples:\n  tracker privacy delete --site blog.example.com --data events\n  \
tracker privacy delete --site 1 --data pageviews --before 2026-01-01 --yes\n  \
tracker privacy delete --site 1 --data all --yes --json")]
pub struct PrivacyArgs {
    #[command(subcommand)]
    command: PrivacyCommand,
}

#[derive(Subcommand)]
enum PrivacyCommand {
    /// Delete a site's page views, events or all of its data
    #[command(after_help = "Examples:\n  tracker privacy delete --site 1 --data events\n  \
tracker privacy delete --site 1 --data all --before 2026-01-01 --yes")]
    Delete {
        /// Website id or domain
        #[arg(long)]
        site: String,
        /// pageviews, events or all
        #[arg(long, value_name = "TYPE")]
        data: String,
        /// Only data before this date (YYYY-MM-DD: before that day's midnight UTC; or RFC 3339)
        #[arg(long, value_name = "DATE")]
        before: Option<String>,
        /// Do not ask for confirmation (required when standard input is not a terminal)
        #[arg(long, short)]
        yes: bool,
    },
}

pub fn run(global: &GlobalArgs, args: &PrivacyArgs) -> anyhow::Result<()> {
    match &args.command {
        PrivacyCommand::Delete { site, data, before, yes } => {
            let data = DataType::parse(data).context("--data")?;
            let before = before.as_deref().map(|b| parse_date("--before", b)).transpose()?;
            let tracker = global.open()?;
            let site = find_site(&tracker, site)?;
            let what = format!(
                "{} of {} ({}, id {}){}",
                match data {
                    DataType::Pageviews => "the page views",
                    DataType::Events => "the events",
                    DataType::All => "all data",
                },
                site.name,
                site.domain,
                site.id,
                before.map(|b| format!(" before {}", iso(b))).unwrap_or_default()
            );
            if !yes {
                if !std::io::stdin().is_terminal() {
                    bail!("refusing to delete without --yes when standard input is not a terminal");
                }
                eprint!("Delete {what}? This cannot be undone. Type 'yes' to confirm: ");
                std::io::stderr().flush()?;
                let mut answer = String::new();
                std::io::stdin().lock().read_line(&mut answer)?;
                if !matches!(answer.trim(), "yes" | "y") {
                    bail!("not confirmed: nothing deleted");
                }
            }
            let report = tracker.privacy.delete_data(site.id, data, before)?;
            if global.json {
                return print_json(&serde_json::json!({
                    "websiteId": site.id,
                    "dataType": data.as_str(),
                    "before": before.map(iso),
                    "deleted": report,
                    "recordsDeleted": report.records_deleted(),
                }));
            }
            println!("Deleted {what}:");
            let mut t = table(&["Table", "Rows"]);
            t.add_row(vec!["events (page views)".to_string(), report.pageviews.to_string()]);
            t.add_row(vec!["events (other)".to_string(), report.events.to_string()]);
            t.add_row(vec!["sessions".to_string(), report.sessions.to_string()]);
            let rollups =
                if data == DataType::All && before.is_none() { "rollups (deleted)" } else { "rollups (recomputed)" };
            t.add_row(vec![rollups.to_string(), report.rollup_rows.to_string()]);
            println!("{t}");
            Ok(())
        }
    }
}
