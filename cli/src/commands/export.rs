//! `tracker export`: a site's page views and events as CSV, a JSON array or JSON lines, streamed to a file
//! or standard output with flat memory, through the same core writer as the API's exports.

use std::fs::File;
use std::io::{BufWriter, IsTerminal, Write};
use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, ValueEnum};
use tracker_core::events::Filters;
use tracker_core::export::{ExportFormat, ExportKind, ExportQuery};

use super::{GlobalArgs, find_site, parse_date, parse_end_date, progress_bar};
use crate::output::print_json;

#[derive(Args)]
#[command(
    after_help = "Columns: timestamp (ISO UTC), type, name, url, path, referrer, session_id, country, device, browser,\n\
os, utm_source, utm_medium, utm_campaign, properties (JSON). No IP addresses are exported. In CSV, a cell\n\
starting with = + - @, a tab or a carriage return gets a leading ' so spreadsheets do not run it as a formula.\n\n\
Dates are YYYY-MM-DD (UTC; --until includes that whole day) or RFC 3339 (exact).\n\n\
Examples:\n  tracker export --site blog.example.com > all.csv\n  \
tracker export --site 1 --type pageviews --since 2026-01-01 --until 2026-01-31 --output january.csv\n  \
tracker export --site 1 --type events --format jsonl | jq -c 'select(.type == \"conversion\")'\n  \
tracker export --site 1 --filters '[[\"is\",\"visit:source\",[\"Google\"]]]' > google.csv"
)]
pub struct ExportArgs {
    /// Website id or domain
    #[arg(long)]
    pub site: String,
    /// Which rows
    #[arg(long = "type", value_enum, default_value_t = Kind::All, value_name = "TYPE")]
    pub kind: Kind,
    /// Only rows at or after this date
    #[arg(long, value_name = "DATE")]
    pub since: Option<String>,
    /// Only rows up to this date
    #[arg(long, value_name = "DATE")]
    pub until: Option<String>,
    /// Only the rows these filters admit: Plausible Stats API v2 JSON, as `tracker stats --filter` takes
    #[arg(long, alias = "filter", value_name = "JSON")]
    pub filters: Option<String>,
    /// File format
    #[arg(long, value_enum, default_value_t = Format::Csv)]
    pub format: Format,
    /// Write to this file instead of standard output ("-" is standard output); an existing file needs --force
    #[arg(long, short, value_name = "FILE")]
    pub output: Option<PathBuf>,
    /// Overwrite the --output file if it exists
    #[arg(long)]
    pub force: bool,
}

/// Which rows an export holds.
#[derive(Clone, Copy, ValueEnum)]
pub enum Kind {
    /// Page views only
    Pageviews,
    /// Everything but page views: custom events, conversions, outbound links, downloads, consent
    Events,
    /// Page views and events
    All,
}

/// The file format of an export.
#[derive(Clone, Copy, ValueEnum)]
pub enum Format {
    /// CSV with a header row
    Csv,
    /// One JSON array of objects
    Json,
    /// One JSON object per line
    #[value(alias = "ndjson")]
    Jsonl,
}

pub fn run(global: &GlobalArgs, args: &ExportArgs) -> anyhow::Result<()> {
    let kind = match args.kind {
        Kind::Pageviews => ExportKind::Pageviews,
        Kind::Events => ExportKind::Events,
        Kind::All => ExportKind::All,
    };
    let format = match args.format {
        Format::Csv => ExportFormat::Csv,
        Format::Json => ExportFormat::Json,
        Format::Jsonl => ExportFormat::JsonLines,
    };
    let filters = Filters::parse(args.filters.as_deref()).map_err(|e| anyhow::anyhow!("--filters: {e}"))?;
    let since = args.since.as_deref().map(|s| parse_date("--since", s)).transpose()?;
    let until = args.until.as_deref().map(|s| parse_end_date("--until", s)).transpose()?;
    if let (Some(since), Some(until)) = (since, until)
        && since >= until
    {
        anyhow::bail!("--since must be before --until");
    }
    // In cluster mode the rows come from every shard (as the dashboard's exports).
    let tracker = global.open_shared()?;
    let site = find_site(&tracker, &args.site)?;
    let query = ExportQuery { since, until, filters, ..ExportQuery::new(site.id, kind) };
    // "-" is standard output, as for most Unix tools.
    let output = args.output.as_ref().filter(|path| path.as_os_str() != "-");
    let out: Box<dyn Write> = match output {
        Some(path) => Box::new(create_output(path, args.force)?),
        None => Box::new(std::io::stdout().lock()),
    };
    // A bar only when it cannot mix with the data: stderr is a terminal and the rows go elsewhere.
    let to_terminal = output.is_none() && std::io::stdout().is_terminal();
    // An engine that does not count ahead (the cluster's shards) gets no bar.
    let total = if to_terminal { None } else { tracker.events.export_row_count(&query)? };
    let bar = match total {
        Some(total) => {
            progress_bar(total, "{elapsed_precise} [{bar:40}] {human_pos}/{human_len} rows ({per_sec}, {eta} left)")
        }
        None => indicatif::ProgressBar::hidden(),
    };
    let mut out = BufWriter::with_capacity(256 * 1024, out);
    let rows = tracker
        .events
        .write_export(&query, format, &mut out, &mut |n| bar.set_position(n))
        .and_then(|rows| Ok(out.flush().map(|_| rows)?))
        .context("export failed")?;
    bar.finish_and_clear();
    if let Some(path) = output {
        if global.json {
            print_json(&serde_json::json!({ "rows": rows, "output": path }))?;
        } else {
            eprintln!("exported {rows} rows to {}", path.display());
        }
    }
    Ok(())
}

/// Creates the export file; an existing one is kept unless `force` (an export run twice must not silently
/// replace last month's file).
fn create_output(path: &std::path::Path, force: bool) -> anyhow::Result<File> {
    let created = if force { File::create(path) } else { File::create_new(path) };
    created.map_err(|e| match e.kind() {
        std::io::ErrorKind::AlreadyExists => {
            anyhow::anyhow!("{} exists: add --force to overwrite it", path.display())
        }
        _ => anyhow::Error::new(e).context(format!("cannot write {}", path.display())),
    })
}
