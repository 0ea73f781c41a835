//! `tracker stats`: a site's summary over a range and its top pages, referrers, traffic sources (named as
//! the dashboard names them), countries, devices, browsers, operating systems and UTM sources, from the rollups.

use std::collections::BTreeMap;

use clap::{Args, ValueEnum};
use serde::Serialize;
use tracker_core::analytics::{Dimension, DimensionCount, TimeRange};
use tracker_core::model::{iso, now_ms};

use super::{GlobalArgs, find_site};
use crate::output::{print_json, table};

#[derive(Args)]
#[command(
    after_help = "Examples:\n  tracker stats --site blog.example.com\n  tracker stats --site 1 --range 7d --limit 5\n  \
tracker stats --site 1 --range 1d --json | jq .pageViews"
)]
pub struct StatsArgs {
    /// Website id or domain
    #[arg(long)]
    pub site: String,
    /// Time range (all but 1d are whole UTC days ending today)
    #[arg(long, value_enum, default_value_t = Range::Days30)]
    pub range: Range,
    /// Rows per breakdown
    #[arg(long, default_value_t = 10)]
    pub limit: i64,
}

/// The JSON of `tracker stats --json`.
#[derive(Serialize)]
#[serde(rename_all = "camelCase")]
struct StatsOutput {
    website_id: i64,
    domain: String,
    range: String,
    from: String,
    to: String,
    visitors: i64,
    visits: i64,
    page_views: i64,
    events: i64,
    conversions: i64,
    bounce_rate: f64,
    avg_session_duration: f64,
    active_sessions: i64,
    /// Breakdowns by dimension: page, referrer, source, country, device, browser, os, utm_source.
    breakdowns: BTreeMap<&'static str, Vec<DimensionCount>>,
}

/// The ranges `--range` names (core's names; the aliases are theirs too).
#[derive(Clone, Copy, ValueEnum)]
pub enum Range {
    /// The last 24 hours, by hour
    #[value(name = "1d", alias = "24h")]
    Day,
    /// The last 7 days
    #[value(name = "7d")]
    Days7,
    /// The last 30 days
    #[value(name = "30d")]
    Days30,
    /// The last 90 days
    #[value(name = "90d", alias = "3m")]
    Days90,
    /// The last 365 days
    #[value(name = "365d", alias = "12m", alias = "1y")]
    Days365,
}

pub fn run(global: &GlobalArgs, args: &StatsArgs) -> anyhow::Result<()> {
    let name = args.range.to_possible_value().expect("no value is skipped").get_name().to_string();
    let range = TimeRange::parse(&name, now_ms())?;
    if args.limit < 1 {
        anyhow::bail!("--limit must be at least 1");
    }
    // Reads the cluster's shards in cluster mode, as the dashboard does.
    let tracker = global.open_shared()?;
    let site = find_site(&tracker, &args.site)?;
    let overview = tracker.events.overview(site.id, range)?;
    let totals = tracker.events.totals(site.id, range)?;
    let mut breakdowns = BTreeMap::new();
    for dim in Dimension::ALL {
        breakdowns.insert(dim.as_str(), tracker.events.breakdown(site.id, range, dim, args.limit)?);
    }
    let m = &overview.metrics;
    let out = StatsOutput {
        website_id: site.id,
        domain: site.domain.clone(),
        range: name,
        from: iso(range.start),
        to: iso(range.end),
        visitors: m.total_visitors,
        visits: totals.visits,
        page_views: m.page_views,
        events: totals.events,
        conversions: m.conversions,
        bounce_rate: m.bounce_rate,
        avg_session_duration: m.avg_session_duration,
        active_sessions: m.active_sessions,
        breakdowns,
    };
    if global.json {
        return print_json(&out);
    }
    println!(
        "{} ({}), {} to {}",
        site.name,
        site.domain,
        &out.from[..16].replace('T', " "),
        &out.to[..16].replace('T', " ")
    );
    let mut t = table(&[
        "Visitors",
        "Visits",
        "Page views",
        "Bounce rate",
        "Avg. duration",
        "Events",
        "Conversions",
        "Active now",
    ]);
    t.add_row(vec![
        out.visitors.to_string(),
        out.visits.to_string(),
        out.page_views.to_string(),
        format!("{:.1}%", out.bounce_rate),
        duration(out.avg_session_duration),
        out.events.to_string(),
        out.conversions.to_string(),
        out.active_sessions.to_string(),
    ]);
    println!("{t}");
    for dim in Dimension::ALL {
        let rows = &out.breakdowns[dim.as_str()];
        let (title, empty) = match dim {
            Dimension::Page => ("Top pages", "(none)"),
            Dimension::Referrer => ("Referrers", "(direct)"),
            Dimension::Country => ("Countries", "(unknown)"),
            Dimension::Device => ("Devices", "(unknown)"),
            Dimension::Browser => ("Browsers", "(unknown)"),
            Dimension::Os => ("Operating systems", "(unknown)"),
            Dimension::UtmSource => ("UTM sources", "(none)"),
            Dimension::Source => ("Traffic sources", "(direct)"),
        };
        let measure = if dim == Dimension::Page { "Views" } else { "Visits" };
        let whole = if dim == Dimension::Page { out.page_views } else { out.visits };
        let mut t = table(&[title, measure, "Share"]);
        for row in rows {
            let share = if whole > 0 { row.count as f64 * 100.0 / whole as f64 } else { 0.0 };
            t.add_row(vec![
                if row.value.is_empty() { empty.to_string() } else { row.value.clone() },
                row.count.to_string(),
                format!("{share:.1}%"),
            ]);
        }
        if rows.is_empty() {
            t.add_row(vec!["no data".to_string(), String::new(), String::new()]);
        }
        println!("{t}");
    }
    Ok(())
}

/// Seconds as "1m 05s".
fn duration(seconds: f64) -> String {
    let s = seconds.round() as i64;
    if s < 60 { format!("{s}s") } else { format!("{}m {:02}s", s / 60, s % 60) }
}
