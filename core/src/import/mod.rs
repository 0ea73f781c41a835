//! History imported from another tool into a site (`tracker import`): Plausible CE's CSV export (daily
//! aggregates), Umami's event export and GoatCounter's CSV export (one row per hit). Hits become visits and
//! events as tracked ones do, with the same rollup counts; aggregates go straight into the rollups. Every
//! import is recorded in `imports`, which marks imported days in the API and refuses a second import of them.

mod files;
#[cfg(test)]
mod findings_tests;
mod goatcounter;
mod names;
mod plausible;
pub(crate) mod sqlite;
pub(crate) mod staging;
pub(crate) mod store;
mod umami;

use std::path::Path;

use serde::Serialize;

use crate::error::{Error, Result};
use crate::events::Events;
use crate::model::{Millis, WebsiteId};

pub use files::input_size;

pub(crate) const DAY_MS: i64 = 86_400_000;

/// The tool an export comes from.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source {
    Plausible,
    Umami,
    Goatcounter,
}

impl Source {
    /// Parses a source name as `--from` takes it.
    pub fn parse(s: &str) -> Result<Source> {
        match s.to_ascii_lowercase().as_str() {
            "plausible" => Ok(Source::Plausible),
            "umami" => Ok(Source::Umami),
            "goatcounter" => Ok(Source::Goatcounter),
            _ => Err(Error::invalid("source must be plausible, umami or goatcounter")),
        }
    }

    /// The stored name (`imports.source`).
    pub fn as_str(self) -> &'static str {
        match self {
            Source::Plausible => "plausible",
            Source::Umami => "umami",
            Source::Goatcounter => "goatcounter",
        }
    }

    /// The tool's own name, for messages.
    fn label(self) -> &'static str {
        match self {
            Source::Plausible => "Plausible",
            Source::Umami => "Umami",
            Source::Goatcounter => "GoatCounter",
        }
    }
}

/// How an import treats rows it cannot read, and how much it writes per transaction.
#[derive(Debug, Clone, Copy)]
pub struct ImportOptions {
    /// Import the readable rows and report the others; by default any bad row stops the import before it
    /// writes anything.
    pub skip_bad_rows: bool,
    /// Rows (hits, or daily aggregate rows) written per transaction: short transactions let a running
    /// daemon's ingest in between.
    pub batch_rows: usize,
}

impl Default for ImportOptions {
    fn default() -> Self {
        ImportOptions { skip_bad_rows: false, batch_rows: 5_000 }
    }
}

/// A row that could not be read: its file, its line (1 = the header) and why.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
pub struct BadRow {
    pub file: String,
    pub line: u64,
    pub reason: String,
}

/// What an import stored.
#[derive(Debug, Clone, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportReport {
    pub id: i64,
    pub source: &'static str,
    pub file_name: String,
    /// Rows read and imported.
    pub rows: u64,
    /// Rows left out on purpose (bots as the source flagged them, rows of things tracker does not count).
    pub ignored: u64,
    /// Why, with how many rows each.
    pub ignored_reasons: Vec<IgnoredRows>,
    /// Rows that could not be read (only with `skip_bad_rows`; otherwise the import fails).
    pub bad_rows: u64,
    /// The first of them (at most [`BadRows::KEPT`]).
    pub first_bad_rows: Vec<BadRow>,
    /// First and last imported day, YYYY-MM-DD (UTC).
    pub first_day: String,
    pub last_day: String,
    pub pageviews: i64,
    pub visits: i64,
}

/// Rows an import left out on purpose, for one reason.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
pub struct IgnoredRows {
    pub reason: &'static str,
    pub rows: u64,
}

/// An import as recorded.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct ImportRecord {
    pub id: i64,
    pub source: String,
    pub file_name: String,
    pub rows: i64,
    pub first_day: String,
    pub last_day: String,
    pub imported_at: Millis,
}

/// Imported history within a range, as the overview marks it: which tools, and the days it covers there.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ImportedHistory {
    pub sources: Vec<String>,
    /// First and last imported day inside the range, YYYY-MM-DD.
    pub from: String,
    pub to: String,
}

impl ImportedHistory {
    /// The marker of a range from each source's first and last imported day in it (ms, by source); `None`
    /// without any.
    pub(crate) fn of(rows: Vec<(String, Millis, Millis)>) -> Option<ImportedHistory> {
        let from = rows.iter().map(|r| r.1).min()?;
        let to = rows.iter().map(|r| r.2).max()?;
        Some(ImportedHistory {
            sources: rows.into_iter().map(|r| r.0).collect(),
            from: day_string(from),
            to: day_string(to),
        })
    }
}

/// One hit of a per-hit export, normalised to tracker's values.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct ImportedHit {
    /// The source's visit (or session) id; a visit idle for 30 minutes is split as tracked visits are.
    pub visit: String,
    /// The source's visitor id (its session id where it has no other).
    pub visitor: String,
    pub ts: Millis,
    /// `None` for a page view, the event name for a custom event.
    pub event: Option<String>,
    pub url: String,
    pub path: String,
    pub referrer: String,
    pub referrer_host: String,
    pub country: String,
    pub region: String,
    pub city: String,
    pub device: String,
    pub browser: String,
    pub os: String,
    pub utm_source: String,
    pub utm_medium: String,
    pub utm_campaign: String,
    pub screen: String,
}

/// One imported daily aggregate row: a rollup dimension's value (dim '' = the site totals) on a day.
#[derive(Debug, Clone, Default, PartialEq)]
pub(crate) struct DayRow {
    pub day: Millis,
    pub dim: &'static str,
    pub value: String,
    pub pageviews: i64,
    pub visits: i64,
    pub visitors: i64,
    pub events: i64,
    pub bounces: i64,
    pub duration_s: i64,
}

/// What a parser read from an export: the rows staged on disk (not in memory), and the counts.
pub struct Parsed {
    pub(crate) staging: staging::Staging,
    pub(crate) rows: u64,
    /// Rows left out on purpose, by reason, in the order first met.
    pub(crate) ignored: Vec<IgnoredRows>,
    pub(crate) bad: BadRows,
    /// The website id of an Umami export's rows, recorded on the site for Umami's clients (`POST /api/send`).
    pub(crate) umami_website_id: Option<String>,
}

impl Parsed {
    fn new(options: ImportOptions) -> Result<Parsed> {
        let bad = BadRows { count: 0, first: Vec::new(), stop_at: (!options.skip_bad_rows).then_some(BadRows::SHOWN) };
        Ok(Parsed { staging: staging::Staging::new()?, rows: 0, ignored: Vec::new(), bad, umami_website_id: None })
    }

    /// Counts a row left out on purpose.
    pub(crate) fn ignore(&mut self, reason: &'static str, rows: u64) {
        match self.ignored.iter_mut().find(|i| i.reason == reason) {
            Some(i) => i.rows += rows,
            None => self.ignored.push(IgnoredRows { reason, rows }),
        }
    }
}

/// The rows an export could not read: how many, and the first few with their lines. Only those few are kept,
/// whatever the count (a small gzip of millions of bad rows once held them all, 1.7 GB); an import that does
/// not skip bad rows stops reading at the first [`BadRows::SHOWN`], since it writes nothing anyway.
pub(crate) struct BadRows {
    pub count: u64,
    pub first: Vec<BadRow>,
    /// Stop reading at this many bad rows (`None`: read on, skipping them).
    stop_at: Option<usize>,
}

impl BadRows {
    /// The bad rows kept for the report.
    pub const KEPT: usize = 20;
    /// The bad rows an import that does not skip them reads before it stops, and its error names.
    pub const SHOWN: usize = 10;

    /// Counts a bad row, keeping it when it is among the first.
    pub fn push(&mut self, row: BadRow) {
        self.count += 1;
        if self.first.len() < Self::KEPT {
            self.first.push(row);
        }
    }

    /// Whether reading stops here: the import will fail and has found enough to say why.
    pub fn stop(&self) -> bool {
        self.stop_at.is_some_and(|at| self.count >= at as u64)
    }
}

/// Imports of other tools' history, reached as `tracker.imports`: read here, stored by the events store
/// (`events::HistoryImports`: the data folder, or the cluster).
#[derive(Clone)]
pub struct Imports {
    events: Events,
    websites: crate::store::websites::Websites,
}

impl Imports {
    pub(crate) fn new(events: Events, websites: crate::store::websites::Websites) -> Imports {
        Imports { events, websites }
    }

    /// Reads an export of `source` at `path` (a file, a folder or a zip as the tool writes it) and stores it
    /// in `site`, reporting bytes read to `progress`. Refused when the site already has imported history on
    /// any of its days; nothing is written when a row is bad, unless `skip_bad_rows`.
    ///
    /// The file is read into a temporary staging file first, then written in transactions of `batch_rows`
    /// rows; the import's row is marked complete with the last one. An import interrupted before that (killed,
    /// a failed write) is incomplete: the next import into the site deletes what it wrote first, so a re-run
    /// neither refuses the days nor counts them twice.
    pub fn import(
        &self,
        site: WebsiteId,
        source: Source,
        path: &Path,
        options: ImportOptions,
        progress: &dyn Fn(u64),
    ) -> Result<ImportReport> {
        // Held to the end: a second import into the site would take the first's unfinished rows for an
        // interrupted import's and delete them.
        let _running = self.events.lock_imports(site)?;
        let mut parsed = match source {
            Source::Plausible => plausible::parse(path, options, progress)?,
            Source::Umami => umami::parse(path, options, progress)?,
            Source::Goatcounter => goatcounter::parse(path, options, progress)?,
        };
        if parsed.bad.count > 0 && !options.skip_bad_rows {
            return Err(Error::invalid(bad_rows_message(&parsed.bad)));
        }
        let Some((first_day, last_day)) = parsed.staging.finish()? else {
            return Err(Error::invalid(format!("{} has no rows to import", path.display())));
        };
        let file_name = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
        let batch = options.batch_rows.max(1);
        let (id, (pageviews, visits)) =
            self.events.store_import(site, source, &file_name, &parsed, (first_day, last_day), batch)?;
        if let Some(umami_id) = &parsed.umami_website_id {
            self.websites.record_umami_id(site, umami_id)?;
        }
        Ok(ImportReport {
            id,
            source: source.as_str(),
            file_name,
            rows: parsed.rows,
            ignored: parsed.ignored.iter().map(|i| i.rows).sum(),
            ignored_reasons: parsed.ignored,
            bad_rows: parsed.bad.count,
            first_bad_rows: parsed.bad.first,
            first_day: day_string(first_day),
            last_day: day_string(last_day),
            pageviews,
            visits,
        })
    }

    /// A site's imports, oldest first.
    pub fn list(&self, site: WebsiteId) -> Result<Vec<ImportRecord>> {
        self.events.imports(site)
    }
}

/// Why an import is refused: `earlier`, a complete import, holds data on `common` (some of its days, in order,
/// at least one).
pub(crate) fn repeat_refused(earlier: &ImportRecord, common: &[Millis]) -> Error {
    let days = match common {
        [one] => day_string(*one),
        [first, .., last] => format!("{} days from {} to {}", common.len(), day_string(*first), day_string(*last)),
        [] => String::new(),
    };
    Error::Conflict(format!(
        "this site already has history imported from {} on {days} ({}, import {}, {} to {}); importing those days \
         again would count them twice (days without imported history import freely)",
        earlier.source, earlier.file_name, earlier.id, earlier.first_day, earlier.last_day,
    ))
}

/// YYYY-MM-DD of a UTC instant.
pub(crate) fn day_string(ms: Millis) -> String {
    chrono::DateTime::from_timestamp_millis(ms).map(|t| t.format("%Y-%m-%d").to_string()).unwrap_or_default()
}

/// The message of an import stopped by bad rows: how many (or that it stopped reading at the first few), and
/// those with their lines.
fn bad_rows_message(bad: &BadRows) -> String {
    let mut msg = if bad.stop() {
        format!(
            "stopped at the first {} rows that could not be read, nothing was imported (fix them, or pass \
             --skip-bad-rows to import the readable rows):",
            bad.count
        )
    } else {
        format!(
            "{} row{} could not be read, nothing was imported (fix them, or pass --skip-bad-rows to import the rest):",
            bad.count,
            if bad.count == 1 { "" } else { "s" }
        )
    };
    for row in bad.first.iter().take(BadRows::SHOWN) {
        msg.push_str(&format!("\n  {} line {}: {}", row.file, row.line, row.reason));
    }
    msg
}

#[cfg(test)]
mod tests {
    use std::cell::Cell;
    use std::io::Write;

    use rusqlite::params;

    use super::sqlite::imported_within;
    use super::*;
    use crate::store::websites::NewWebsite;
    use crate::{Config, Tracker};

    fn fixtures() -> std::path::PathBuf {
        Path::new(env!("CARGO_MANIFEST_DIR")).join("../tests/fixtures/import/plausible")
    }

    fn sum(tracker: &Tracker, table: &str, dim: &str, value: &str) -> i64 {
        tracker
            .db()
            .read(|c| {
                Ok(c.query_row(
                    &format!("SELECT COALESCE(SUM(pageviews), 0) FROM {table} WHERE dim = ?1 AND value = ?2"),
                    params![dim, value],
                    |r| r.get(0),
                )?)
            })
            .unwrap()
    }

    /// Plausible's export as downloaded (a zip of deflated CSVs) reads as its unpacked folder does, every byte
    /// is reported to the progress bar, and rebuilding the days' rollups from raw rows (after a privacy
    /// deletion) keeps the imported aggregates, which have no raw rows.
    #[test]
    fn plausible_zip_imports_and_survives_a_rollup_rebuild() {
        let dir = tempfile::tempdir().unwrap();
        let tracker = Tracker::open(&Config { data_dir: dir.path().join("data"), ..Config::default() }).unwrap();
        let user = tracker.auth.create_user("import@example.com", "secret12").unwrap();
        let site = tracker
            .websites
            .create(user.id, NewWebsite { name: "S".into(), domain: "s.example.com".into(), tracking_level: None })
            .unwrap();
        let zip_path = dir.path().join("Plausible export.zip");
        let mut zip = zip::ZipWriter::new(std::fs::File::create(&zip_path).unwrap());
        let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        for entry in std::fs::read_dir(fixtures()).unwrap() {
            let entry = entry.unwrap();
            zip.start_file(entry.file_name().to_string_lossy(), options).unwrap();
            zip.write_all(&std::fs::read(entry.path()).unwrap()).unwrap();
        }
        zip.finish().unwrap();

        let read = Cell::new(0u64);
        let report = tracker
            .imports
            .import(site.id, Source::Plausible, &zip_path, ImportOptions::default(), &|n| read.set(read.get() + n))
            .unwrap();
        assert_eq!(read.get(), input_size(&zip_path).unwrap());
        assert_eq!((report.pageviews, report.visits, report.first_day.as_str()), (180, 85, "2024-03-01"));
        assert_eq!((sum(&tracker, "rollup_days", "", ""), sum(&tracker, "rollup_hours", "page", "/")), (180, 110));

        let from = parse_day("2024-03-01");
        tracker
            .db()
            .write(|c| {
                let tx = c.transaction()?;
                crate::privacy::deletion::rebuild_rollups(&tx, site.id, from, from + 2 * DAY_MS)?;
                Ok(tx.commit()?)
            })
            .unwrap();
        assert_eq!((sum(&tracker, "rollup_days", "", ""), sum(&tracker, "rollup_days", "page", "/")), (180, 110));
        assert_eq!(tracker.imports.list(site.id).unwrap()[0].file_name, "Plausible export.zip");
    }

    fn parse_day(s: &str) -> Millis {
        files::parse_day(s).unwrap()
    }

    /// Everything an import leaves in a site's tables, as comparable rows: the rollups (both tables, every
    /// dimension), the visits and the events.
    fn footprint(tracker: &Tracker, site: WebsiteId) -> Vec<String> {
        tracker
            .db()
            .read(|c| {
                let mut out = Vec::new();
                for sql in [
                    "SELECT 'h', dim, bucket, value, pageviews, visits, visitors, events, bounces, duration_s
                     FROM rollup_hours WHERE website_id = ?1 ORDER BY dim, bucket, value",
                    "SELECT 'd', dim, bucket, value, pageviews, visits, visitors, events, bounces, duration_s
                     FROM rollup_days WHERE website_id = ?1 ORDER BY dim, bucket, value",
                    // (Visitor hashes are salted per site: two sites' visits differ there.)
                    "SELECT 's', country, first_seen, last_seen, entry_page, exit_page, page_views, events, 0, 0
                     FROM sessions WHERE website_id = ?1 ORDER BY first_seen, last_seen, entry_page, exit_page",
                    "SELECT 'e', ts, kind, name, path, url, 0, 0, 0, 0 FROM events WHERE website_id = ?1
                     ORDER BY ts, kind, name, path",
                ] {
                    let mut stmt = c.prepare(sql)?;
                    let rows = stmt.query_map([site], |r| {
                        (0..10)
                            .map(|i| r.get::<_, rusqlite::types::Value>(i).map(|v| format!("{v:?}")))
                            .collect::<rusqlite::Result<Vec<_>>>()
                            .map(|v| v.join("|"))
                    })?;
                    out.extend(rows.collect::<rusqlite::Result<Vec<_>>>()?);
                }
                Ok(out)
            })
            .unwrap()
    }

    /// An import that fails part way (a real write error after some batches committed) leaves its rows
    /// behind but no import on record and no imported marker; running it again clears them first, and the
    /// site ends up exactly as after one clean import. For both kinds of export: hits (Umami) and daily
    /// aggregates (Plausible).
    #[test]
    fn an_import_failed_part_way_then_run_again_counts_everything_once() {
        let dir = tempfile::tempdir().unwrap();
        let tracker = Tracker::open(&Config { data_dir: dir.path().join("data"), ..Config::default() }).unwrap();
        let user = tracker.auth.create_user("batches@example.com", "secret12").unwrap();
        let new_site = |name: &str| {
            let domain = format!("{name}.example.com");
            tracker.websites.create(user.id, NewWebsite { name: name.into(), domain, tracking_level: None }).unwrap().id
        };
        // 400 Umami rows: 90 visits of 40 visitors over five days, every ninth row a custom event.
        let umami = dir.path().join("umami.csv");
        let mut csv = String::from("session_id,visit_id,hostname,url_path,event_type,event_name,created_at,country\n");
        for i in 0..400 {
            let (visitor, visit) = (i % 40, i % 90);
            let ts = parse_day("2025-03-01")
                + (visit as i64 % 5) * DAY_MS
                + (visit as i64 * 7 % 24) * 3_600_000
                + i as i64 * 20_000;
            let time = chrono::DateTime::from_timestamp_millis(ts).unwrap().format("%Y-%m-%d %H:%M:%S");
            let (kind, name) = if i % 9 == 0 { ("2", "signup") } else { ("1", "") };
            csv.push_str(&format!("s{visitor},v{visit},x.example.com,/p{},{kind},{name},{time},DE\n", i % 7));
        }
        std::fs::write(&umami, csv).unwrap();
        let small = ImportOptions { batch_rows: 10, ..ImportOptions::default() };

        for (source, file, table, limit) in
            [(Source::Umami, umami.clone(), "events", 60), (Source::Plausible, fixtures(), "imported_rollups", 25)]
        {
            let (clean, broken) = (new_site(&format!("clean-{}", source.as_str())), new_site(source.as_str()));
            tracker.imports.import(clean, source, &file, small, &|_| {}).unwrap();
            let expected = footprint(&tracker, clean);

            // The database refuses this site's rows past the limit: batches before it are committed.
            let trigger = format!(
                "CREATE TRIGGER fail_import BEFORE INSERT ON {table} WHEN NEW.website_id = {broken}
                   AND (SELECT COUNT(*) FROM {table} WHERE website_id = {broken}) >= {limit}
                 BEGIN SELECT RAISE(ABORT, 'disk full'); END"
            );
            tracker.db().write(|c| Ok(c.execute_batch(&trigger)?)).unwrap();
            let err = tracker.imports.import(broken, source, &file, small, &|_| {}).unwrap_err();
            assert!(err.to_string().contains("disk full"), "{err}");
            let left = footprint(&tracker, broken);
            assert!(!left.is_empty() && left != expected, "part of the import was written");
            assert!(tracker.imports.list(broken).unwrap().is_empty(), "an incomplete import is not on record");
            let marker = tracker.db().read(|c| imported_within(c, broken, 0, i64::MAX / 2)).unwrap();
            assert_eq!(marker, None, "nor marked in the API");

            tracker.db().write(|c| Ok(c.execute_batch("DROP TRIGGER fail_import")?)).unwrap();
            let report = tracker.imports.import(broken, source, &file, small, &|_| {}).unwrap();
            let after = footprint(&tracker, broken);
            let first_difference = after.iter().zip(&expected).find(|(a, b)| a != b);
            assert_eq!(
                (after.len(), first_difference),
                (expected.len(), None),
                "{}: the re-run counts everything once",
                source.as_str()
            );
            assert_eq!(tracker.imports.list(broken).unwrap().len(), 1);
            assert_eq!(tracker.imports.list(broken).unwrap()[0].id, report.id);
            // And a third run is refused as a repeat of a complete import.
            let again = tracker.imports.import(broken, source, &file, small, &|_| {}).unwrap_err();
            assert!(matches!(again, Error::Conflict(_)), "{again}");
        }
    }

    /// A second import into a site while one runs is refused before it reads or deletes anything: the first,
    /// still unfinished, would otherwise look interrupted to it and lose its rows. Another site imports freely.
    #[test]
    fn a_second_import_into_a_site_waits_for_the_first() {
        let dir = tempfile::tempdir().unwrap();
        let tracker = Tracker::open(&Config { data_dir: dir.path().join("data"), ..Config::default() }).unwrap();
        let user = tracker.auth.create_user("twice@example.com", "secret12").unwrap();
        let new_site = |name: &str| {
            let domain = format!("{name}.example.com");
            tracker.websites.create(user.id, NewWebsite { name: name.into(), domain, tracking_level: None }).unwrap().id
        };
        let (site, other) = (new_site("one"), new_site("other"));
        let file = fixtures();

        // The first import stops in its progress callback, after taking the lock and before writing, until
        // the main thread has tried its own.
        let (reading, read_on) = (std::sync::mpsc::channel(), std::sync::mpsc::channel::<()>());
        let first = {
            let (tracker, file) = (tracker.clone(), file.clone());
            let (reading, read_on) = (reading.0, std::sync::Mutex::new(read_on.1));
            std::thread::spawn(move || {
                let progress = |_| {
                    if reading.send(()).is_ok() {
                        read_on.lock().unwrap().recv().ok();
                    }
                };
                tracker.imports.import(site, Source::Plausible, &file, ImportOptions::default(), &progress)
            })
        };
        reading.1.recv().unwrap();
        drop(reading.1);
        let refused = tracker.imports.import(site, Source::Plausible, &file, ImportOptions::default(), &|_| {});
        assert!(matches!(&refused, Err(Error::Conflict(m)) if m.contains("another import")), "{refused:?}");
        tracker.imports.import(other, Source::Plausible, &file, ImportOptions::default(), &|_| {}).unwrap();
        read_on.0.send(()).unwrap();

        let report = first.join().unwrap().unwrap();
        assert_eq!(tracker.imports.list(site).unwrap().len(), 1);
        assert_eq!(footprint(&tracker, site), footprint(&tracker, other), "the first import lost nothing");
        assert!(report.pageviews > 0);
    }
}
