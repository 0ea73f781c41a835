//! Imports of export files built as each tool writes them (issue 38's findings), each checked on what the site
//! then holds. How each file is made is said at the file:
//! - Plausible CE: the CSVs of its export (`Plausible.Exports`' queries: one file per table named
//!   `imported_<table>_<first>_<last>.csv`, columns as in tests/fixtures/import/plausible, which follow its own
//!   test CSVs). Its `custom_events` query takes every event but page views, so the `engagement` pings its
//!   script sends on leaving a page are rows there; its device column is its screen-size class (Desktop,
//!   Laptop, Tablet, Mobile); browser names are its UA parser's ("Yandex Browser", "Microsoft Edge").
//! - Umami: its `website_event` joined with `session` as CSV (columns of its PostgreSQL/ClickHouse schemas);
//!   `event_type` 1 page view, 2 custom event, 3 link, 4 pixel, 5 performance; `url_path` keeps a hash-router's
//!   `#fragment`; a psql `\copy` writes `created_at` (timestamptz) as `2026-10-01 02:16:41+00`. Its dashboard's
//!   Export button writes a zip of summary CSVs (events, pages, referrers, browsers, os, devices, countries),
//!   each `x,y` rows: a value and its count over the chosen range.
//! - GoatCounter: exportcsv.go's format 2 (`2Path,Title,Event,UserAgent,Browser,System,Session,Bot,Referrer,
//!   Referrer scheme,Screen size,Location,FirstVisit,Date`), `Session` `0-0` for hits it gave no session,
//!   `Screen size` "width,height,ratio" with height 0 where only the width is known, `Path` with its query.

use std::path::{Path, PathBuf};

use rusqlite::params;

use super::*;
use crate::ingest::hit::tracked_path;
use crate::store::websites::NewWebsite;
use crate::{Config, Tracker};

struct Fixture {
    dir: tempfile::TempDir,
    tracker: Tracker,
    site: WebsiteId,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let tracker = Tracker::open(&Config { data_dir: dir.path().join("data"), ..Config::default() }).unwrap();
    let user = tracker.auth.create_user("findings@example.com", "secret12").unwrap();
    let site = tracker
        .websites
        .create(user.id, NewWebsite { name: "S".into(), domain: "s.example.com".into(), tracking_level: None })
        .unwrap()
        .id;
    Fixture { dir, tracker, site }
}

impl Fixture {
    fn file(&self, name: &str, text: &str) -> PathBuf {
        let path = self.dir.path().join(name);
        std::fs::create_dir_all(path.parent().unwrap()).unwrap();
        std::fs::write(&path, text).unwrap();
        path
    }

    fn import(&self, source: Source, path: &Path) -> Result<ImportReport> {
        self.tracker.imports.import(self.site, source, path, ImportOptions::default(), &|_| {})
    }

    /// (value, visits, pageviews, visitors, events) of a dimension's daily rollups, by value.
    fn rollups(&self, dim: &str) -> Vec<(String, i64, i64, i64, i64)> {
        self.tracker
            .db()
            .read(|c| {
                let mut stmt = c.prepare(
                    "SELECT value, SUM(visits), SUM(pageviews), SUM(visitors), SUM(events) FROM rollup_days
                     WHERE website_id = ?1 AND dim = ?2 GROUP BY value ORDER BY value",
                )?;
                let rows = stmt.query_map(params![self.site, dim], |r| {
                    Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
                })?;
                Ok(rows.collect::<rusqlite::Result<_>>()?)
            })
            .unwrap()
    }

    /// A column of the site's imported visits, in time order.
    fn visit_column(&self, column: &str) -> Vec<String> {
        self.tracker
            .db()
            .read(|c| {
                let mut stmt = c.prepare(&format!(
                    "SELECT CAST({column} AS TEXT) FROM sessions WHERE website_id = ?1 ORDER BY first_seen, id"
                ))?;
                let rows = stmt.query_map([self.site], |r| r.get(0))?;
                Ok(rows.collect::<rusqlite::Result<_>>()?)
            })
            .unwrap()
    }

    fn event_paths(&self) -> Vec<String> {
        self.tracker
            .db()
            .read(|c| {
                let mut stmt = c.prepare("SELECT path FROM events WHERE website_id = ?1 ORDER BY ts, id")?;
                let rows = stmt.query_map([self.site], |r| r.get(0))?;
                Ok(rows.collect::<rusqlite::Result<_>>()?)
            })
            .unwrap()
    }
}

/// A Plausible export folder: the daily totals and `tables` (name, CSV text), over 2025-03-01..02.
fn plausible(f: &Fixture, tables: &[(&str, &str)]) -> PathBuf {
    let folder = f.dir.path().join("plausible");
    f.file(
        "plausible/imported_visitors_20250301_20250302.csv",
        "date,visitors,pageviews,bounces,visits,visit_duration\n2025-03-01,40,100,20,50,3000\n\
         2025-03-02,30,80,10,35,2100\n",
    );
    for (table, text) in tables {
        f.file(&format!("plausible/imported_{table}_20250301_20250302.csv"), text);
    }
    folder
}

const UMAMI_HEADER: &str = "website_id,session_id,visit_id,event_id,hostname,browser,os,device,screen,language,\
                            country,url_path,url_query,referrer_domain,page_title,event_type,event_name,created_at\n";

/// An Umami row: session, visit, browser, os, device, url_path, event_type, event_name, created_at.
fn umami_row(cells: [&str; 9]) -> String {
    let [session, visit, browser, os, device, path, kind, name, at] = cells;
    format!(
        "w1,{session},{visit},e-{session}-{at},s.example.com,{browser},{os},{device},1920x1080,en,DE,{path},,,T,\
         {kind},{name},{at}\n"
    )
}

const GOATCOUNTER_HEADER: &str = "2Path,Title,Event,UserAgent,Browser,System,Session,Bot,Referrer,Referrer scheme,\
                                  Screen size,Location,FirstVisit,Date\n";

/// Finding 1: Plausible's `engagement` rows are no custom events; the report counts them as left out.
#[test]
fn plausible_engagement_pings_are_not_custom_events() {
    let f = fixture();
    let folder = plausible(
        &f,
        &[(
            "custom_events",
            "date,name,link_url,path,visitors,events\n2025-03-01,engagement,,,35,140\n2025-03-01,Signup,,,3,4\n\
             2025-03-02,engagement,,,20,90\n",
        )],
    );
    let report = f.import(Source::Plausible, &folder).unwrap();
    let events: Vec<(String, i64)> = f.rollups("event").into_iter().map(|r| (r.0, r.4)).collect();
    assert_eq!(events, [("Signup".to_string(), 4)]);
    assert_eq!(f.rollups("").iter().map(|r| r.4).sum::<i64>(), 4, "the site's event count");
    assert_eq!(report.ignored, 2);
    assert!(report.ignored_reasons[0].reason.contains("engagement"), "{:?}", report.ignored_reasons);
}

/// Finding 2: Plausible's `Laptop` class is the parser's desktop.
#[test]
fn plausible_laptops_are_desktops() {
    let f = fixture();
    let folder = plausible(
        &f,
        &[(
            "devices",
            "date,device,visitors,visits,visit_duration,bounces,pageviews\n2025-03-01,Desktop,20,25,1500,10,50\n\
             2025-03-01,Laptop,10,12,600,5,30\n2025-03-01,Mobile,5,13,600,5,20\n",
        )],
    );
    f.import(Source::Plausible, &folder).unwrap();
    let devices: Vec<(String, i64)> = f.rollups("device").into_iter().map(|r| (r.0, r.1)).collect();
    assert_eq!(devices, [("desktop".to_string(), 37), ("mobile".to_string(), 13)]);
}

/// Finding 3: Umami's link, pixel and performance rows are left out and counted; the page views import.
#[test]
fn umami_link_pixel_and_performance_rows_are_counted_not_fatal() {
    let f = fixture();
    let mut csv = UMAMI_HEADER.to_string();
    csv += &umami_row(["s1", "v1", "chrome", "Mac OS", "laptop", "/", "1", "", "2025-03-01 10:00:00"]);
    csv += &umami_row(["s1", "v1", "chrome", "Mac OS", "laptop", "/go", "3", "", "2025-03-01 10:01:00"]);
    csv += &umami_row(["s2", "v2", "chrome", "Mac OS", "laptop", "/px", "4", "", "2025-03-01 10:02:00"]);
    csv += &umami_row(["s1", "v1", "chrome", "Mac OS", "laptop", "/", "5", "", "2025-03-01 10:03:00"]);
    csv += &umami_row(["s1", "v1", "chrome", "Mac OS", "laptop", "/", "2", "signup", "2025-03-01 10:04:00"]);
    let report = f.import(Source::Umami, &f.file("umami.csv", &csv)).unwrap();
    assert_eq!((report.rows, report.ignored, report.bad_rows, report.pageviews, report.visits), (2, 3, 0, 1, 1));
    assert_eq!(report.ignored_reasons.len(), 3, "{:?}", report.ignored_reasons);
}

/// Finding 4: the zip of Umami's dashboard Export is named for what it is, with what to export instead.
#[test]
fn umami_dashboard_export_is_refused_saying_what_it_is() {
    let f = fixture();
    let path = f.dir.path().join("umami-export.zip");
    let mut zip = zip::ZipWriter::new(std::fs::File::create(&path).unwrap());
    for (name, text) in [("events.csv", "x,y\nsignup,4\n"), ("pages.csv", "x,y\n/,100\n/pricing,40\n")] {
        zip.start_file(name, zip::write::SimpleFileOptions::default()).unwrap();
        std::io::Write::write_all(&mut zip, text.as_bytes()).unwrap();
    }
    zip.finish().unwrap();
    let err = f.import(Source::Umami, &path).unwrap_err().to_string();
    assert!(err.contains("dashboard Export") && err.contains("website_event"), "{err}");
}

/// Finding 5: timestamps as psql prints a timestamptz.
#[test]
fn umami_psql_timestamps_are_read() {
    let f = fixture();
    let mut csv = UMAMI_HEADER.to_string();
    for at in ["2026-10-01 02:16:41+00", "2026-10-01 02:17:41.5+00:00", "2026-10-01 04:18:41.25+02"] {
        csv += &umami_row(["s1", "v1", "firefox", "Linux", "desktop", "/", "1", "", at]);
    }
    let report = f.import(Source::Umami, &f.file("psql.csv", &csv)).unwrap();
    assert_eq!((report.rows, report.first_day.as_str()), (3, "2026-10-01"));
    let first = files::parse_time("2026-10-01 02:16:41+00").unwrap();
    assert_eq!(f.visit_column("last_seen"), [(first + 120_250).to_string()]);
}

/// Finding 6: GoatCounter hits without a session are a visitor each, not one visitor a day.
#[test]
fn goatcounter_hits_without_a_session_are_visitors_of_their_own() {
    let f = fixture();
    let mut csv = GOATCOUNTER_HEADER.to_string();
    for minute in [10, 20, 50] {
        csv += &format!("/,Home,false,,Firefox 133,Linux,0-0,0,,,\"1920,1080,1\",DE,true,2025-03-01T10:{minute}:00Z\n");
    }
    f.import(Source::Goatcounter, &f.file("goat.csv", &csv)).unwrap();
    let totals = &f.rollups("")[0];
    assert_eq!((totals.1, totals.2, totals.3), (3, 3, 3), "visits, page views, visitors");
}

/// Finding 7: a width-only screen is stored as the width, never `x0`.
#[test]
fn goatcounter_width_only_screens_keep_no_zero_height() {
    let f = fixture();
    let mut csv = GOATCOUNTER_HEADER.to_string();
    csv += "/,Home,false,,Chrome 120,Windows 10,a-1,0,,,\"1920,0,1\",DE,true,2025-03-01T10:00:00Z\n";
    csv += "/,Home,false,,Chrome 120,Windows 10,a-2,0,,,\"390,844,3\",DE,true,2025-03-01T11:00:00Z\n";
    f.import(Source::Goatcounter, &f.file("goat.csv", &csv)).unwrap();
    assert_eq!(f.visit_column("screen"), ["1920", "390x844"]);
}

/// Finding 8: imported paths are the tracked ones: no fragment (Umami), no query (GoatCounter), encoded as
/// the tracked path of the same URL is.
#[test]
fn imported_paths_are_normalised_as_tracked_paths() {
    let tracked = |url: &str| tracked_path(&url::Url::parse(url).unwrap());
    let f = fixture();
    let mut csv = UMAMI_HEADER.to_string();
    csv += &umami_row(["s1", "v1", "chrome", "Mac OS", "desktop", "/app#/settings", "1", "", "2025-03-01 10:00:00"]);
    csv += &umami_row(["s1", "v1", "chrome", "Mac OS", "desktop", "/café menu", "1", "", "2025-03-01 10:01:00"]);
    f.import(Source::Umami, &f.file("umami.csv", &csv)).unwrap();
    assert_eq!(
        f.event_paths(),
        [tracked("https://s.example.com/app#/settings"), tracked("https://s.example.com/café menu")]
    );
    assert_eq!(f.event_paths()[1], "/caf%C3%A9%20menu");

    let g = fixture();
    let mut csv = GOATCOUNTER_HEADER.to_string();
    csv += "/pricing?plan=pro,Pricing,false,,Chrome 120,Windows 10,a-1,0,,,,DE,true,2025-03-01T10:00:00Z\n";
    g.import(Source::Goatcounter, &g.file("goat.csv", &csv)).unwrap();
    assert_eq!(g.event_paths(), ["/pricing"]);

    let p = fixture();
    let folder = plausible(
        &p,
        &[("pages", "date,hostname,page,visits,visitors,pageviews\n2025-03-01,s.example.com,/café,3,3,5\n")],
    );
    p.import(Source::Plausible, &folder).unwrap();
    assert_eq!(p.rollups("page")[0].0, tracked("https://s.example.com/café"));
}

/// Finding 9: browser and system names as the user-agent parser gives them (the table itself is tested against
/// the parser in `names`).
#[test]
fn imported_browser_and_system_names_are_the_parsers() {
    let f = fixture();
    let mut csv = UMAMI_HEADER.to_string();
    csv += &umami_row(["s1", "v1", "yandexbrowser", "Windows 10", "desktop", "/", "1", "", "2025-03-01 10:00:00"]);
    csv += &umami_row(["s2", "v2", "silk", "Android OS", "tablet", "/", "1", "", "2025-03-01 11:00:00"]);
    f.import(Source::Umami, &f.file("umami.csv", &csv)).unwrap();
    assert_eq!(f.visit_column("browser"), ["Yandex", "Amazon Silk"]);
    assert_eq!(f.visit_column("os"), ["Windows", "Android"]);

    let p = fixture();
    let folder = plausible(
        &p,
        &[(
            "browsers",
            "date,browser,browser_version,visitors,visits,visit_duration,bounces,pageviews\n\
             2025-03-01,Yandex Browser,24.1,3,3,60,1,5\n2025-03-01,Microsoft Edge,120,2,2,60,1,4\n",
        )],
    );
    p.import(Source::Plausible, &folder).unwrap();
    let browsers: Vec<String> = p.rollups("browser").into_iter().map(|r| r.0).collect();
    assert_eq!(browsers, ["Edge", "Yandex"]);
}

/// Finding 11: an import is refused only on days an earlier one holds data on, not on every day between the
/// earlier one's first and last.
#[test]
fn only_days_already_imported_are_refused() {
    let f = fixture();
    let mut csv = UMAMI_HEADER.to_string();
    csv += &umami_row(["s1", "v1", "chrome", "Mac OS", "desktop", "/", "1", "", "2024-01-05 10:00:00"]);
    csv += &umami_row(["s2", "v2", "chrome", "Mac OS", "desktop", "/", "1", "", "2025-03-01 10:00:00"]);
    f.import(Source::Umami, &f.file("first.csv", &csv)).unwrap();

    let mut between = GOATCOUNTER_HEADER.to_string();
    between += "/,Home,false,,Chrome 120,Windows 10,a-1,0,,,,DE,true,2024-06-10T10:00:00Z\n";
    let report = f.import(Source::Goatcounter, &f.file("between.csv", &between)).unwrap();
    assert_eq!(report.first_day, "2024-06-10");

    let mut again = GOATCOUNTER_HEADER.to_string();
    again += "/,Home,false,,Chrome 120,Windows 10,a-2,0,,,,DE,true,2024-06-11T10:00:00Z\n";
    again += "/,Home,false,,Chrome 120,Windows 10,a-3,0,,,,DE,true,2025-03-01T12:00:00Z\n";
    let err = f.import(Source::Goatcounter, &f.file("again.csv", &again)).unwrap_err();
    assert!(matches!(&err, Error::Conflict(m) if m.contains("on 2025-03-01 (first.csv")), "{err}");
    assert_eq!(f.tracker.imports.list(f.site).unwrap().len(), 2);
}
