//! `tracker orgs import`: sets what the site owner knows of the organizations visiting a site (domain,
//! industry, size) from a CSV file, matched by ASN or name. The same core call as the dashboard's table edit.

use std::fs::File;

use anyhow::Context;
use clap::{Args, Subcommand};

use super::{GlobalArgs, find_site};
use crate::output::{print_json, table};

#[derive(Args)]
#[command(after_help = "The file's header names `name` and/or `asn` and any of `domain`, `industry`, `size`\n\
(enterprise, large, medium or small). A row with an ASN matches by ASN, else by name (case-insensitive);\n\
an empty cell clears the value, a missing column keeps it. Every row is checked before anything is written.\n\n\
Examples:\n  tracker orgs import --site blog.example.com companies.csv\n  \
tracker orgs import --site 1 companies.csv --json")]
pub struct OrgsArgs {
    #[command(subcommand)]
    command: OrgsCommand,
}

#[derive(Subcommand)]
enum OrgsCommand {
    /// Import domain, industry and size of a site's organizations from a CSV file
    Import {
        /// Website id or domain
        #[arg(long)]
        site: String,
        /// CSV file (name or asn, domain, industry, size)
        file: std::path::PathBuf,
    },
}

pub fn run(global: &GlobalArgs, args: &OrgsArgs) -> anyhow::Result<()> {
    match &args.command {
        OrgsCommand::Import { site, file } => {
            let input = File::open(file).with_context(|| format!("cannot open {}", file.display()))?;
            // Organizations are metadata: in cluster mode the shared PostgreSQL holds them.
            let tracker = global.open_shared()?;
            let site = find_site(&tracker, site)?;
            let report = tracker.organizations.import(site.id, input).with_context(|| file.display().to_string())?;
            if global.json {
                return print_json(&report);
            }
            let mut t = table(&["Rows", "Organizations updated", "Not seen on this site"]);
            t.add_row(vec![report.rows.to_string(), report.updated.to_string(), report.unmatched.len().to_string()]);
            println!("{t}");
            if !report.unmatched.is_empty() {
                println!("Not seen on {}: {}", site.domain, report.unmatched.join(", "));
            }
            Ok(())
        }
    }
}
