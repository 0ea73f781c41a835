//! `tracker import`: a site's history from another tool (Plausible CE's CSV export, Umami's event export,
//! GoatCounter's CSV export) into the data folder, or in cluster mode into the cluster, through core's
//! `Imports`. The daemon may be running.

use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, ValueEnum};
use tracker_core::import::{ImportOptions, Source, input_size};

use super::{GlobalArgs, find_site, progress_bar};
use crate::output::{print_json, table};

#[derive(Args)]
#[command(after_help = "What each tool exports:\n  \
plausible    the CSV export's zip (Site settings > Imports & Exports), or the folder it unpacks to: daily\n               \
totals, pages, sources, countries, devices, browsers, systems and custom events\n  \
umami        the data export's CSV of events (one row per page view or event, with its session's columns)\n  \
goatcounter  the CSV export (format 2, .csv or .csv.gz as downloaded): one row per page view or event\n\n\
Umami and GoatCounter rows become visits and events like tracked ones; Plausible's daily aggregates go into\n\
the dashboard's totals and breakdowns only (no visitor stream, funnels or journeys for those days).\n\
Days that already hold imported history are refused, so running the same import twice counts nothing twice.\n\
A row that cannot be read stops the import before anything is written, with its line number.\n\
The file is read into a temporary file first, then written in batches of 5,000 rows; an import interrupted\n\
part way is undone by the next import into the site, so running it again is always safe.\n\n\
Examples:\n  tracker import --site blog.example.com --from plausible Plausible_export.zip\n  \
tracker import --site 1 --from umami umami-events.csv\n  \
tracker import --site 1 --from goatcounter goatcounter-export.csv.gz --skip-bad-rows --json")]
pub struct ImportArgs {
    /// Website id or domain
    #[arg(long)]
    pub site: String,
    /// The tool the export comes from
    #[arg(long, value_enum, value_name = "TOOL")]
    pub from: From,
    /// Import the readable rows and list the others, instead of stopping at the first bad row
    #[arg(long)]
    pub skip_bad_rows: bool,
    /// The export: a CSV file (optionally gzipped), or for Plausible its zip or unpacked folder
    pub file: PathBuf,
}

/// The tools `--from` names.
#[derive(Clone, Copy, ValueEnum)]
pub enum From {
    /// Plausible CE's CSV export (zip or folder)
    Plausible,
    /// Umami's event export (CSV)
    Umami,
    /// GoatCounter's CSV export (format 2)
    Goatcounter,
}

impl From {
    fn source(self) -> Source {
        match self {
            From::Plausible => Source::Plausible,
            From::Umami => Source::Umami,
            From::Goatcounter => Source::Goatcounter,
        }
    }
}

pub fn run(global: &GlobalArgs, args: &ImportArgs) -> anyhow::Result<()> {
    let size = input_size(&args.file).with_context(|| format!("cannot read {}", args.file.display()))?;
    let tracker = global.open_shared()?;
    let site = find_site(&tracker, &args.site)?;
    let bar = progress_bar(size, "{elapsed_precise} [{bar:40}] {binary_bytes}/{binary_total_bytes} ({eta} left)");
    let options = ImportOptions { skip_bad_rows: args.skip_bad_rows, ..ImportOptions::default() };
    let report = tracker
        .imports
        .import(site.id, args.from.source(), &args.file, options, &|n| bar.inc(n))
        .with_context(|| format!("{} not imported", args.file.display()));
    bar.finish_and_clear();
    let report = report?;
    if global.json {
        return print_json(&report);
    }
    let mut t = table(&["Import", "Rows", "Days", "Page views", "Visits", "Bots left out", "Bad rows"]);
    t.add_row(vec![
        report.id.to_string(),
        report.rows.to_string(),
        format!("{} to {}", report.first_day, report.last_day),
        report.pageviews.to_string(),
        report.visits.to_string(),
        report.ignored.to_string(),
        report.bad_rows.to_string(),
    ]);
    println!("Imported {} history into {}:\n{t}", args.from.source().as_str(), site.domain);
    for bad in &report.first_bad_rows {
        eprintln!("skipped {} line {}: {}", bad.file, bad.line, bad.reason);
    }
    let more = report.bad_rows - report.first_bad_rows.len() as u64;
    if more > 0 {
        eprintln!("... and {more} more bad rows");
    }
    Ok(())
}
