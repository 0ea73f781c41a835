//! `tracker privacy`: a site's data on request: `delete` (a type of data, or one visitor's), `export`
//! (one visitor's data, GDPR article 15) and `jobs` (the cluster's deletions under way). One file per subcommand.

mod delete;
mod export;
mod jobs;

use std::io::{BufRead, IsTerminal, Write};

use anyhow::bail;
use clap::{Args, Subcommand};

use super::GlobalArgs;

#[derive(Args)]
#[command(after_help = "Rollups of the days touched are recomputed from the rows that remain; `--data all` without\n\
--before also clears the site's sessions and rollups.\n\n\
Examples:\n  tracker privacy delete --site blog.example.com --data events\n  \
tracker privacy delete --site 1 --data pageviews --before 2026-01-01 --yes\n  \
tracker privacy delete --site 1 --visitor user-42 --yes\n  \
tracker privacy export --site 1 --visitor user-42 > visitor.json\n  \
tracker privacy jobs")]
pub struct PrivacyArgs {
    #[command(subcommand)]
    command: PrivacyCommand,
}

#[derive(Subcommand)]
enum PrivacyCommand {
    /// Delete a site's page views, events or all of its data, or everything about one visitor
    Delete(delete::DeleteArgs),
    /// Write everything stored about one visitor as JSON (GDPR article 15 access request)
    Export(export::ExportArgs),
    /// List the deletions of sites' events still under way on the cluster's shards (and why one failed)
    Jobs(jobs::JobsArgs),
}

pub fn run(global: &GlobalArgs, args: &PrivacyArgs) -> anyhow::Result<()> {
    match &args.command {
        PrivacyCommand::Delete(args) => delete::run(global, args),
        PrivacyCommand::Export(args) => export::run(global, args),
        PrivacyCommand::Jobs(args) => jobs::run(global, args),
    }
}

/// Asks for 'yes' on a terminal; refuses without `--yes` when standard input is not one.
fn confirm(yes: bool, what: &str) -> anyhow::Result<()> {
    if yes {
        return Ok(());
    }
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
    Ok(())
}
