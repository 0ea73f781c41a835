//! Plausible CE's CSV export: a zip (or the folder it unpacks to) of daily aggregates, one file per table named
//! `imported_<table>_<YYYYMMDD>_<YYYYMMDD>.csv` (the `imported_` prefix optional, as Plausible's importer takes
//! them). The tables read, with the columns Plausible writes:
//! visitors (date, visitors, pageviews, bounces, visits, visit_duration: the site totals, duration summed over
//! visits), pages (date, hostname, page, visits, visitors, pageviews, ...), sources (date, source, referrer,
//! utm_source, utm_medium, ..., pageviews, visitors, visits, visit_duration, bounces), locations (date, country,
//! region, city, visitors, visits, ...), devices (date, device, ...), browsers (date, browser, browser_version,
//! ...), operating_systems (date, operating_system, operating_system_version, ...) and custom_events (date,
//! name, link_url, path, visitors, events). Entry and exit pages are left out: tracker derives them from visits,
//! which the export does not have.

use std::io::Read;
use std::path::Path;

use super::files::{
    Bounded, Columns, Counting, capped, count, csv_reader, for_each_row, headers, is_zip, open_zip, parse_day,
    referrer_host, zip_error,
};
use super::{DayRow, ImportOptions, Parsed, Source, names};
use crate::analytics::Dimension;
use crate::error::{Error, Result};
use crate::ingest::hit::path_as_tracked;
use crate::ingest::sources::{name_stored_value, source_of};

/// A table of the export and how its rows become rollup rows.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Table {
    Visitors,
    Pages,
    Sources,
    Locations,
    Devices,
    Browsers,
    OperatingSystems,
    CustomEvents,
}

impl Table {
    /// The table a file holds, from its name; `None` for files this import does not read.
    fn of_file(name: &str) -> Option<Table> {
        let base = name.rsplit('/').next()?;
        let stem = base.strip_prefix("imported_").unwrap_or(base).strip_suffix(".csv")?;
        // Plausible's names end in the export's first and last day.
        let mut parts = stem.rsplitn(3, '_');
        let (last, first, table) = (parts.next()?, parts.next()?, parts.next()?);
        let is_day = |s: &str| s.len() == 8 && s.bytes().all(|b| b.is_ascii_digit());
        if !is_day(first) || !is_day(last) {
            return None;
        }
        Some(match table {
            "visitors" => Table::Visitors,
            "pages" => Table::Pages,
            "sources" => Table::Sources,
            "locations" => Table::Locations,
            "devices" => Table::Devices,
            "browsers" => Table::Browsers,
            "operating_systems" => Table::OperatingSystems,
            "custom_events" => Table::CustomEvents,
            _ => return None,
        })
    }

    /// The columns a file of this table must have.
    fn required(self) -> &'static [&'static str] {
        match self {
            Table::Visitors => &["date", "visitors", "pageviews", "bounces", "visits", "visit_duration"],
            Table::Pages => &["date", "page", "pageviews"],
            Table::Sources => &["date", "source", "visits"],
            Table::Locations => &["date", "country", "visits"],
            Table::Devices => &["date", "device", "visits"],
            Table::Browsers => &["date", "browser", "visits"],
            Table::OperatingSystems => &["date", "operating_system", "visits"],
            Table::CustomEvents => &["date", "name", "events"],
        }
    }
}

pub(super) fn parse(path: &Path, options: ImportOptions, progress: &dyn Fn(u64)) -> Result<Parsed> {
    let mut parsed = Parsed::new(options)?;
    let mut seen = Vec::new();
    let mut read = |name: &str, input: &mut dyn Read, parsed: &mut Parsed| -> Result<()> {
        if let Some(table) = Table::of_file(name) {
            seen.push(table);
            read_table(table, name, input, parsed)?;
        }
        Ok(())
    };
    if path.is_dir() {
        let mut names: Vec<_> = std::fs::read_dir(path)?
            .filter_map(|e| e.ok().map(|e| e.file_name().to_string_lossy().into_owned()))
            .collect();
        names.sort();
        for name in names {
            let file = std::fs::File::open(path.join(&name))?;
            if Table::of_file(&name).is_some() {
                read(&name, &mut Counting::new(file, progress), &mut parsed)?;
            } else if name.ends_with(".csv") {
                // Counted as done for the progress bar, which counts every CSV.
                progress(file.metadata()?.len());
            }
        }
    } else if is_zip(path)? {
        let mut zip = open_zip(path)?;
        for i in 0..zip.len() {
            let entry = zip.by_index(i).map_err(|e| zip_error(path, e))?;
            let name = entry.name().map_err(|e| zip_error(path, e))?.into_owned();
            if Table::of_file(&name).is_none() && name.ends_with(".csv") {
                progress(entry.size());
                continue;
            }
            let compressed = entry.compressed_size();
            read(&name, &mut Bounded::new(Counting::new(entry, progress), compressed), &mut parsed)?;
        }
    } else {
        let name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let file =
            std::fs::File::open(path).map_err(|e| Error::invalid(format!("cannot open {}: {e}", path.display())))?;
        read(&name, &mut Counting::new(file, progress), &mut parsed)?;
    }
    if !seen.contains(&Table::Visitors) {
        return Err(Error::invalid(format!(
            "{} is not a Plausible CSV export: it has no imported_visitors_YYYYMMDD_YYYYMMDD.csv (the daily totals); \
             give the export's zip or the folder it unpacks to",
            path.display()
        )));
    }
    Ok(parsed)
}

/// Stages a table's rows as rollup rows; rows of the same day, dimension and value (Plausible splits browsers
/// by version and countries by city) are summed when read back.
fn read_table(table: Table, name: &str, input: &mut dyn Read, parsed: &mut Parsed) -> Result<()> {
    let mut reader = csv_reader(input);
    let cols = Columns::new(&headers(&mut reader, name)?, table.required(), name, Source::Plausible)?;
    for_each_row(&mut reader, name, parsed, |row, parsed| {
        let get = |col: &str| cols.get(row, col);
        let num = |col: &str| count(col, get(col));
        let day = parse_day(get("date")).ok_or_else(|| format!("date: not a day (YYYY-MM-DD): '{}'", get("date")))?;
        let (visits, pageviews) = (num("visits")?, num("pageviews")?);
        let mut add = |dim: &'static str, value: String, f: &dyn Fn(&mut DayRow)| {
            let mut row = DayRow { day, dim, value, ..DayRow::default() };
            f(&mut row);
            parsed.staging.day(row);
        };
        let per_visit = |row: &mut DayRow| {
            row.visits += visits;
            row.pageviews += pageviews;
        };
        match table {
            Table::Visitors => {
                let (visitors, bounces, duration) = (num("visitors")?, num("bounces")?, num("visit_duration")?);
                add("", String::new(), &|r| {
                    r.visitors += visitors;
                    r.pageviews += pageviews;
                    r.visits += visits;
                    r.bounces += bounces;
                    r.duration_s += duration;
                });
            }
            Table::Pages => add(Dimension::Page.as_str(), path_as_tracked(get("page")), &|r| r.pageviews += pageviews),
            Table::Sources => {
                let referrer = match (referrer_host(get("referrer")), get("source")) {
                    (host, _) if !host.is_empty() => host,
                    (_, "Direct / None") => String::new(),
                    (_, source) => capped(source, 200),
                };
                let utm_source = capped(get("utm_source"), 200);
                // Named as a tracked visit with this tag or referrer is (Plausible's Google from google.com is
                // our Google, its tag as tagged); a row with only Plausible's name lands on the list's.
                let host = referrer_host(get("referrer"));
                let source = match get("source") {
                    _ if !utm_source.is_empty() || !host.is_empty() => source_of(&utm_source, &host),
                    "" | "Direct / None" => String::new(),
                    named => name_stored_value(&capped(named, 200)),
                };
                add(Dimension::Referrer.as_str(), referrer, &per_visit);
                add(Dimension::UtmSource.as_str(), utm_source, &per_visit);
                add(Dimension::Source.as_str(), source, &per_visit);
            }
            Table::Locations => {
                add(Dimension::Country.as_str(), capped(&get("country").to_ascii_uppercase(), 2), &per_visit)
            }
            Table::Devices => add(Dimension::Device.as_str(), names::device(get("device")).into(), &per_visit),
            Table::Browsers => add(Dimension::Browser.as_str(), names::browser(get("browser")), &per_visit),
            Table::OperatingSystems => add(Dimension::Os.as_str(), names::os(get("operating_system")), &per_visit),
            // Plausible's script sends an `engagement` event as a page is left (time on page, scroll depth);
            // the export lists them with the custom events, but they are none. The export's per-day counts
            // cannot become tracker's per-page-view times, so they are left out and counted.
            Table::CustomEvents if get("name") == "engagement" => {
                parsed.ignore("Plausible engagement events (time on page pings, not custom events)", 1);
                return Ok(());
            }
            Table::CustomEvents => {
                let events = num("events")?;
                add("event", capped(get("name"), 200), &|r| r.events += events);
                add("", String::new(), &|r| r.events += events);
            }
        }
        parsed.rows += 1;
        Ok(())
    })
}
