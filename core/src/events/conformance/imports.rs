//! Imported history on every engine: daily aggregates (Plausible's) older than a year answer "all time" and a
//! custom range of their days, as tracked days do (issue 38, finding 10).

use super::engines;
use crate::analytics::{Period, TimeRange};
use crate::import::{ImportOptions, Imports, Source};
use crate::model::{Millis, now_ms};

const DAY: Millis = 86_400_000;

fn day(ms: Millis) -> String {
    chrono::DateTime::from_timestamp_millis(ms).unwrap().format("%Y-%m-%d").to_string()
}

#[test]
fn imported_days_older_than_a_year_answer_all_time_and_custom_ranges() {
    let now = now_ms();
    let (first, second) = (now / DAY * DAY - 800 * DAY, now / DAY * DAY - 400 * DAY);
    let folder = tempfile::tempdir().unwrap();
    let compact = |ms: Millis| day(ms).replace('-', "");
    std::fs::write(
        folder.path().join(format!("imported_visitors_{}_{}.csv", compact(first), compact(second))),
        format!(
            "date,visitors,pageviews,bounces,visits,visit_duration\n{},40,100,20,50,3000\n{},30,80,10,35,2100\n",
            day(first),
            day(second)
        ),
    )
    .unwrap();
    for engine in engines() {
        let imports = Imports::new(engine.events.clone(), crate::store::websites::Websites::new(engine.meta.clone()));
        imports.import(engine.site, Source::Plausible, folder.path(), ImportOptions::default(), &|_| {}).unwrap();
        let events = &*engine.events;
        let all = events.range_of(engine.site, Period::All, now).unwrap();
        assert_eq!(all.start, first, "{}: all time starts on the first imported day", engine.name);
        let totals = events.totals(engine.site, all).unwrap();
        assert_eq!((totals.pageviews, totals.visits), (180, 85), "{}", engine.name);
        let that_day = TimeRange::custom(&day(first), &day(first)).unwrap();
        assert_eq!(events.totals(engine.site, that_day).unwrap().pageviews, 100, "{}", engine.name);
        let both = TimeRange::custom(&day(first), &day(second)).unwrap();
        let series = events.timeseries(engine.site, both).unwrap();
        let counted: i64 = series.points.iter().map(|p| p.page_views).sum();
        assert_eq!((series.points.len() as i64, counted), (401, 180), "{}", engine.name);
    }
}

/// GoatCounter hits without a session (`0-0`) count a visitor each on every engine, and a later import is
/// refused only on the days an earlier one holds (issue 38, findings 6 and 11).
#[test]
fn sessionless_hits_are_visitors_each_and_repeats_are_refused_by_day() {
    let now = now_ms();
    let (old, recent) = (now / DAY * DAY - 300 * DAY, now / DAY * DAY - 10 * DAY);
    let folder = tempfile::tempdir().unwrap();
    let header = "2Path,Title,Event,UserAgent,Browser,System,Session,Bot,Referrer,Referrer scheme,Screen size,Location,\
                  FirstVisit,Date\n";
    let hit = |session: &str, at: Millis| {
        let at = chrono::DateTime::from_timestamp_millis(at).unwrap().format("%Y-%m-%dT%H:%M:%SZ");
        format!("/,Home,false,,Firefox 133,Linux,{session},0,,,,DE,true,{at}\n")
    };
    let write = |name: &str, rows: &[String]| {
        let path = folder.path().join(name);
        std::fs::write(&path, format!("{header}{}", rows.concat())).unwrap();
        path
    };
    let first = write(
        "first.csv",
        &[
            hit("0-0", old + 3_600_000),
            hit("0-0", recent + 3_600_000),
            hit("0-0", recent + 4_000_000),
            hit("0-0", recent + 5_000_000),
        ],
    );
    let between = write("between.csv", &[hit("b-1", old + 100 * DAY)]);
    let again = write("again.csv", &[hit("c-1", old + 101 * DAY), hit("c-2", recent + 7_000_000)]);
    for engine in engines() {
        // A second site: the test above imports into the first site at the same time, and a second import into
        // one site is refused while the first holds its lock.
        let site = engine.with_more_sites(1)[1];
        let imports = Imports::new(engine.events.clone(), crate::store::websites::Websites::new(engine.meta.clone()));
        let import =
            |path: &std::path::Path| imports.import(site, Source::Goatcounter, path, ImportOptions::default(), &|_| {});
        import(&first).unwrap();
        let days = TimeRange::custom(&day(recent), &day(recent)).unwrap();
        let totals = engine.events.totals(site, days).unwrap();
        assert_eq!((totals.visitors, totals.visits), (3, 3), "{}: a visitor per sessionless hit", engine.name);
        import(&between).unwrap();
        let refused = import(&again).unwrap_err().to_string();
        assert!(refused.contains(&format!("on {} (first.csv", day(recent))), "{}: {refused}", engine.name);
        assert_eq!(imports.list(site).unwrap().len(), 2, "{}", engine.name);
    }
}
