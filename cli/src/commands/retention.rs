//! `tracker retention run`: applies every site's retention days now (the daemon also runs it on a schedule).

use clap::{Args, Subcommand};

use super::GlobalArgs;
use crate::output::{print_json, table};

#[derive(Args)]
#[command(after_help = "Each site keeps page views, events, sessions and conversions for its retention days\n\
(privacy settings); rollups are kept. The daemon runs this every `retention_interval_hours`.\n\n\
Examples:\n  tracker retention run\n  tracker retention run --json   # e.g. from cron")]
pub struct RetentionArgs {
    #[command(subcommand)]
    command: RetentionCommand,
}

#[derive(Subcommand)]
enum RetentionCommand {
    /// Delete every site's data older than its retention days, now
    #[command(after_help = "Examples:\n  tracker retention run\n  tracker retention run --json")]
    Run,
}

pub fn run(global: &GlobalArgs, args: &RetentionArgs) -> anyhow::Result<()> {
    match args.command {
        RetentionCommand::Run => {
            // In cluster mode the run is the daemons' (one at a time across the cluster), on the shards.
            let tracker = global.open_shared()?;
            let report = tracker.events.apply_retention_at(tracker_core::model::now_ms())?;
            if global.json {
                return print_json(&report);
            }
            let kinds: Vec<&str> = report.total.keys().copied().collect();
            let mut header = vec!["Site"];
            header.extend(&kinds);
            let mut t = table(&header);
            for site in &report.sites {
                let mut row = vec![site.website_id.to_string()];
                row.extend(kinds.iter().map(|k| site.deleted.get(k).copied().unwrap_or(0).to_string()));
                t.add_row(row);
            }
            let mut row = vec!["total".to_string()];
            row.extend(kinds.iter().map(|k| report.total[k].to_string()));
            t.add_row(row);
            println!("Rows deleted by retention:\n{t}");
            Ok(())
        }
    }
}
