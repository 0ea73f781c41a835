//! `tracker stats`: a site's summary over a range and its top pages, referrers, traffic sources (named as
//! the dashboard names them), countries, devices, browsers, operating systems and UTM sources: from the
//! rollups, or from the stored visits and events when filtered (the dashboard's reads, through the same events
//! boundary).

use std::collections::BTreeMap;

use clap::Args;
use serde::Serialize;
use tracker_core::analytics::{Dimension, DimensionCount, Period};
use tracker_core::events::{BreakdownBy, Filters};
use tracker_core::model::{iso, now_ms};

use super::{GlobalArgs, find_site};
use crate::output::{print_json, table};

#[derive(Args)]
#[command(
    after_help = "Examples:\n  tracker stats --site blog.example.com\n  tracker stats --site 1 --range 7d --limit 5\n  \
tracker stats --site 1 --range 1d --json | jq .pageViews\n  tracker stats --site 1 --from 2026-01-01 --to 2026-01-31\n  \
tracker stats --site 1 --range all --filter '[[\"is\",\"visit:country\",[\"DE\"]]]'"
)]
pub struct StatsArgs {
    /// Website id or domain
    #[arg(long)]
    pub site: String,
    /// Time range: whole UTC days ending today (7d, 28d, 30d, 90d, 365d), calendar ones (today, yesterday,
    /// month, last_month, year), the last 24 hours (1d) or all time (all)
    #[arg(long, default_value = "30d", value_parser = RANGES)]
    pub range: String,
    /// First day (YYYY-MM-DD), with --to, in place of --range
    #[arg(long, requires = "to")]
    pub from: Option<String>,
    /// Last day (YYYY-MM-DD, included), with --from
    #[arg(long, requires = "from")]
    pub to: Option<String>,
    /// Filters in Plausible's Stats API v2 syntax (JSON), as the dashboard's URL holds them
    #[arg(long)]
    pub filter: Option<String>,
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

/// The names `--range` takes (core's).
const RANGES: [&str; 17] = [
    "today",
    "yesterday",
    "1d",
    "24h",
    "7d",
    "28d",
    "30d",
    "90d",
    "3m",
    "365d",
    "12m",
    "12mo",
    "1y",
    "month",
    "last_month",
    "year",
    "all",
];

pub fn run(global: &GlobalArgs, args: &StatsArgs) -> anyhow::Result<()> {
    let period = Period::parse(Some(&args.range), args.from.as_deref(), args.to.as_deref(), "30d", now_ms())?;
    let filters = Filters::parse(args.filter.as_deref()).map_err(|e| anyhow::anyhow!("--filter: {e}"))?;
    let name = match (&args.from, &args.to) {
        (Some(from), Some(to)) => format!("{from}..{to}"),
        _ => args.range.clone(),
    };
    if args.limit < 1 {
        anyhow::bail!("--limit must be at least 1");
    }
    // Reads the cluster's shards in cluster mode, as the dashboard does.
    let tracker = global.open_shared()?;
    let site = find_site(&tracker, &args.site)?;
    let range = tracker.events.range_of(site.id, period, now_ms())?;
    let overview = tracker.events.overview_where(site.id, range, &filters, None)?;
    let totals = tracker.events.totals_where(site.id, range, &filters)?;
    let mut breakdowns = BTreeMap::new();
    for dim in Dimension::ALL {
        let by = BreakdownBy::parse(dim.as_str())?;
        breakdowns.insert(dim.as_str(), tracker.events.breakdown_where(site.id, range, &filters, &by, args.limit)?);
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
