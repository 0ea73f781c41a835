//! `tracker privacy delete`: deletes a site's page views, events or all data (`--data`), or everything about
//! one visitor (`--visitor`), after confirmation; recorded in the site's audit log. On a cluster it waits for
//! the deletion job it leaves on the shards.

use anyhow::{Context, bail};
use clap::{Args, ValueEnum};
use serde_json::json;
use tracker_core::Tracker;
use tracker_core::model::{WebsiteId, iso};
use tracker_core::privacy::{Actor, AuditAction, DataType, visitor_id};

use super::super::{GlobalArgs, find_site, parse_date};
use super::confirm;
use crate::output::{print_json, table};

#[derive(Args)]
#[command(after_help = "Examples:\n  tracker privacy delete --site 1 --data events\n  \
tracker privacy delete --site 1 --data all --before 2026-01-01 --yes\n  \
tracker privacy delete --site 1 --visitor user-42 --yes")]
pub struct DeleteArgs {
    /// Website id or domain
    #[arg(long)]
    site: String,
    /// What to delete
    #[arg(long, value_enum, value_name = "TYPE", required_unless_present = "visitor", conflicts_with = "visitor")]
    data: Option<Data>,
    /// Only data before this date (YYYY-MM-DD: before that day's midnight UTC; or RFC 3339)
    #[arg(long, value_name = "DATE", conflicts_with = "visitor")]
    before: Option<String>,
    /// Everything about one visitor: a session id or the id given to identify() (traits id, userId or email)
    #[arg(long, value_name = "ID")]
    visitor: Option<String>,
    /// Do not ask for confirmation (required when standard input is not a terminal)
    #[arg(long, short)]
    yes: bool,
}

/// The data `--data` deletes.
#[derive(Clone, Copy, ValueEnum)]
enum Data {
    /// Page views
    Pageviews,
    /// Every other event: custom events, conversions, outbound links, downloads, identify, consent
    Events,
    /// Page views, events and visits (and, without --before, the site's counts)
    All,
}

pub fn run(global: &GlobalArgs, args: &DeleteArgs) -> anyhow::Result<()> {
    if let Some(visitor) = &args.visitor {
        return delete_visitor(global, args, visitor);
    }
    let Some(data) = args.data else { bail!("--data or --visitor is required") };
    let data = match data {
        Data::Pageviews => DataType::Pageviews,
        Data::Events => DataType::Events,
        Data::All => DataType::All,
    };
    let before = args.before.as_deref().map(|b| parse_date("--before", b)).transpose()?;
    // In cluster mode the rows go on every shard (awaited), as the dashboard's deletion.
    let tracker = global.open_shared()?;
    let site = find_site(&tracker, &args.site)?;
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
    confirm(args.yes, &what)?;
    let report = tracker.events.delete_data(site.id, data, before)?;
    tracker.privacy.record_audit(
        site.id,
        Actor::Cli,
        AuditAction::DataDeleted,
        json!({ "dataType": data.as_str(), "before": before.map(iso), "recordsDeleted": report.records_deleted() }),
    )?;
    finish(&tracker, site.id);
    if global.json {
        return print_json(&json!({
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
    let rollups = if data == DataType::All && before.is_none() { "rollups (deleted)" } else { "rollups (recomputed)" };
    t.add_row(vec![rollups.to_string(), report.rollup_rows.to_string()]);
    println!("{t}");
    Ok(())
}

fn delete_visitor(global: &GlobalArgs, args: &DeleteArgs, visitor: &str) -> anyhow::Result<()> {
    let visitor = visitor_id(visitor).context("--visitor")?;
    let tracker = global.open_shared()?;
    let site = find_site(&tracker, &args.site)?;
    confirm(args.yes, &format!("everything about visitor {visitor} of {} ({})", site.name, site.domain))?;
    let report = tracker.events.delete_visitor(site.id, &visitor)?;
    tracker.privacy.record_audit(
        site.id,
        Actor::Cli,
        AuditAction::VisitorDeleted,
        json!({ "visitorId": visitor, "recordsDeleted": report.records_deleted() }),
    )?;
    finish(&tracker, site.id);
    if global.json {
        return print_json(&json!({
            "websiteId": site.id,
            "visitorId": visitor,
            "deleted": report,
            "recordsDeleted": report.records_deleted(),
        }));
    }
    println!("Deleted visitor {visitor} of {}:", site.domain);
    let mut t = table(&["Table", "Rows"]);
    for (name, n) in [
        ("sessions", report.sessions),
        ("events", report.events),
        ("heatmap interactions", report.interactions),
        ("scroll depths", report.scroll_depths),
        ("recordings", report.recordings),
        ("consent choices", report.consent_logs),
    ] {
        t.add_row(vec![name.to_string(), n.to_string()]);
    }
    println!("{t}");
    Ok(())
}

/// Waits for the rows' deletion on a cluster (a job this command started), so the command ends with the work it
/// reports done; a job that waits for a retry (a shard down) is left to the daemons, and said so.
fn finish(tracker: &Tracker, site: WebsiteId) {
    if let Err(e) = tracker.events.settle(&[site]) {
        eprintln!("The deletion continues in the background (`tracker privacy jobs` lists it): {e}");
    }
}
