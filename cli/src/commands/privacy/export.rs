//! `tracker privacy export --site S --visitor ID`: everything stored about one visitor as JSON on stdout
//! (or `--out FILE`), the same document as GET /api/privacy/visitor-data; recorded in the site's audit log.

use anyhow::Context;
use clap::Args;
use serde_json::json;
use tracker_core::privacy::{Actor, AuditAction, visitor_id};

use super::super::{GlobalArgs, find_site};

#[derive(Args)]
#[command(after_help = "The visitor is a session id or the id given to identify() (traits id, userId or email).\n\n\
Examples:\n  tracker privacy export --site 1 --visitor user-42\n  \
tracker privacy export --site blog.example.com --visitor 3f2a9c1e --out visitor.json")]
pub struct ExportArgs {
    /// Website id or domain
    #[arg(long)]
    site: String,
    /// Session id or identify() id of the visitor
    #[arg(long, value_name = "ID")]
    visitor: String,
    /// Write to this file instead of standard output
    #[arg(long, value_name = "FILE")]
    out: Option<std::path::PathBuf>,
}

pub fn run(global: &GlobalArgs, args: &ExportArgs) -> anyhow::Result<()> {
    let visitor = visitor_id(&args.visitor).context("--visitor")?;
    // In cluster mode the visitor's data is read from the shards and PostgreSQL.
    let tracker = global.open_shared()?;
    let site = find_site(&tracker, &args.site)?;
    let data = tracker.events.visitor_data(site.id, &visitor)?;
    tracker.privacy.record_audit(site.id, Actor::Cli, AuditAction::VisitorExported, json!({ "visitorId": visitor }))?;
    let text = serde_json::to_string_pretty(&data)?;
    match &args.out {
        Some(path) => {
            std::fs::write(path, text + "\n").with_context(|| format!("writing {}", path.display()))?;
            if !global.json {
                eprintln!("Wrote the data of visitor {visitor} of {} to {}", site.domain, path.display());
            }
        }
        None => println!("{text}"),
    }
    Ok(())
}
