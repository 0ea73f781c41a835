//! `tracker annotate`: writes an annotation on a site's chart from a shell, for cron jobs and deploy scripts
//! on the daemon's machine (elsewhere, a `write` API key and `POST /api/websites/{id}/annotations` do the same).
//! The note is the operator's: it names no account.

use clap::Args;
use tracker_core::store::annotations::AnnotationRequest;

use super::{GlobalArgs, find_site};
use crate::output::print_json;

#[derive(Args)]
#[command(after_help = "Examples:\n  tracker annotate blog.example.com --text 'Release 2.0'\n  \
tracker annotate 1 --date 2026-11-20 --text 'Newsletter sent'\n  \
tracker annotate shop.example.com --text \"Deploy $(git rev-parse --short HEAD)\" --json")]
pub struct AnnotateArgs {
    /// Website id or domain
    pub site: String,
    /// The day it marks, YYYY-MM-DD (UTC) [default: today]
    #[arg(long)]
    pub date: Option<String>,
    /// One line, at most 280 characters
    #[arg(long)]
    pub text: String,
}

pub fn run(global: &GlobalArgs, args: &AnnotateArgs) -> anyhow::Result<()> {
    let tracker = global.open_shared()?;
    let site = find_site(&tracker, &args.site)?;
    let date = args.date.clone().unwrap_or_else(|| chrono::Utc::now().format("%Y-%m-%d").to_string());
    let annotation = tracker.annotations.create(site.id, None, &AnnotationRequest { date, text: args.text.clone() })?;
    if global.json {
        return print_json(&annotation);
    }
    println!("Annotated {} on {}: {} (id {})", site.domain, annotation.date, annotation.text, annotation.id);
    Ok(())
}
