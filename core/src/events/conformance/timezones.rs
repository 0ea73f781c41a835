//! A site's timezone on every engine (issue 36): visits seeded either side of a local midnight, in India (+5:30)
//! and in New York across its autumn DST change, are counted in the site's local days and hours, with and
//! without filters, by SQLite and the cluster alike; changing the timezone moves a visit to its new local day.

use chrono::NaiveDate;

use super::{Engine, Visit, engines, hits_of};
use crate::analytics::{Period, TimeRange};
use crate::events::filters::Filters;
use crate::ingest::EventKind::Pageview;
use crate::model::{Millis, now_ms};

const HOUR: Millis = 3_600_000;
const DAY: Millis = 86_400_000;

fn utc(date: NaiveDate, hours: i64, minutes: i64) -> Millis {
    date.and_hms_opt(0, 0, 0).unwrap().and_utc().timestamp_millis() + hours * HOUR + minutes * 60_000
}

/// One page view of `visitor` at `start`.
fn view(visitor: u8, start: Millis) -> Visit<'static> {
    Visit {
        visitor,
        start,
        referrer_host: "",
        utm_source: "",
        country: "IN",
        device: "desktop",
        hits: &[(0, Pageview, "", "/a")],
    }
}

/// Saves the site's timezone in the engine's metadata and has the engine key the site by it.
fn set_zone(engine: &Engine, name: &str) {
    let mut site = engine.meta.website(engine.site).unwrap().unwrap();
    site.timezone = name.to_string();
    assert!(engine.meta.update_website(&site).unwrap());
    engine.events.timezone_changed(engine.site).unwrap();
}

/// A chart point: (date, visitors, page views).
type Point = (String, i64, i64);

/// Visitors and page views of the days `first`..`last` of the engine's zone: (per day, totals), unfiltered
/// and filtered alike.
fn days(engine: &Engine, first: NaiveDate, last: NaiveDate) -> (Vec<Point>, (i64, i64)) {
    let events = &*engine.events;
    let range = Period::Days(first, last).resolve(events.site_zone(engine.site).unwrap(), now_ms(), || Ok(None));
    let range = range.unwrap();
    let chart = events.timeseries(engine.site, range).unwrap();
    let points: Vec<Point> = chart.points.into_iter().map(|p| (p.date, p.visitors, p.page_views)).collect();
    let totals = events.totals(engine.site, range).unwrap();
    let filters = Filters::parse(Some(r#"[["is","event:page",["/a"]]]"#)).unwrap();
    let filtered = events.timeseries_where(engine.site, range, &filters, None).unwrap();
    let filtered: Vec<Point> = filtered.points.into_iter().map(|p| (p.date, p.visitors, p.page_views)).collect();
    assert_eq!(filtered, points, "{}: filtered days as unfiltered", engine.name);
    let filtered = events.totals_where(engine.site, range, &filters).unwrap();
    assert_eq!((filtered.visitors, filtered.pageviews), (totals.visitors, totals.pageviews), "{}", engine.name);
    (points, (totals.visitors, totals.pageviews))
}

fn day(date: NaiveDate, visitors: i64, views: i64) -> Point {
    (date.to_string(), visitors, views)
}

#[test]
fn visits_either_side_of_an_indian_midnight_count_in_the_sites_days() {
    let d = (chrono::Utc::now() - chrono::Duration::days(10)).date_naive();
    let next = d.succ_opt().unwrap();
    for engine in engines() {
        // India's midnight between d and the next day is d 18:30 UTC. Visitor 3 comes back after 65 minutes:
        // a second visit, the same visitor hash (one UTC day), on the next local day.
        let visits =
            [view(1, utc(d, 18, 20)), view(3, utc(d, 18, 25)), view(2, utc(d, 18, 40)), view(3, utc(d, 19, 30))];
        engine.store(hits_of(engine.site, &visits));
        engine.events.rebuild_rollups(engine.site, utc(d, 0, 0) - DAY, utc(d, 0, 0) + 2 * DAY).unwrap();

        // In UTC (every site's zone before it names one) all four are on d: three visitors.
        assert_eq!(days(&engine, d, next), (vec![day(d, 3, 4), day(next, 0, 0)], (3, 4)), "{}", engine.name);

        set_zone(&engine, "Asia/Kolkata");
        let zone = engine.events.site_zone(engine.site).unwrap();
        assert_eq!(zone.name(), "Asia/Kolkata", "{}", engine.name);
        // Local days: d has visitors 1 and 3, the next day 2 and 3 again (a visitor counts once a day).
        assert_eq!(days(&engine, d, next), (vec![day(d, 2, 2), day(next, 2, 2)], (4, 4)), "{}", engine.name);
        // The next day alone is hourly, in India's hours: 00:10 and 01:00 local.
        let range = TimeRange::of_days(next, next, zone);
        assert_eq!(range.start, utc(d, 18, 30));
        let chart = engine.events.timeseries(engine.site, range).unwrap().points;
        assert_eq!(chart.len(), 24);
        assert_eq!(chart[0].date, format!("{next}T00:00:00+05:30"));
        assert_eq!((chart[0].page_views, chart[1].page_views, chart[2].page_views), (1, 1, 0), "{}", engine.name);
        // "Today" and "7d" are local days too: ten days ago is outside the week.
        let week = TimeRange::parse_in("7d", now_ms(), zone).unwrap();
        assert_eq!(engine.events.totals(engine.site, week).unwrap().pageviews, 0);

        // Back to UTC: the visits go back to d.
        set_zone(&engine, "UTC");
        assert_eq!(days(&engine, d, next), (vec![day(d, 3, 4), day(next, 0, 0)], (3, 4)), "{}", engine.name);
    }
}

#[test]
fn new_yorks_longer_day_holds_its_25_hours() {
    // New York falls back on the first Sunday of November: 2026-11-01 is 25 hours long (04:00 to 29:00 UTC).
    let (first, long_day, after) = (
        NaiveDate::from_ymd_opt(2026, 10, 31).unwrap(),
        NaiveDate::from_ymd_opt(2026, 11, 1).unwrap(),
        NaiveDate::from_ymd_opt(2026, 11, 2).unwrap(),
    );
    if utc(after, 0, 0) > now_ms() - 3 * DAY {
        return; // a clock set before the dates (the seeded hours must be past).
    }
    for engine in engines() {
        set_zone(&engine, "America/New_York");
        // 00:30 EDT on the 1st, 23:30 EST on the 1st (04:30 UTC on the 2nd), 00:30 EST on the 2nd.
        let visits = [view(1, utc(long_day, 4, 30)), view(2, utc(after, 4, 30)), view(3, utc(after, 5, 30))];
        engine.store(hits_of(engine.site, &visits));
        engine.events.rebuild_rollups(engine.site, utc(first, 0, 0), utc(after, 0, 0) + 2 * DAY).unwrap();
        let zone = engine.events.site_zone(engine.site).unwrap();
        assert_eq!(zone.name(), "America/New_York", "{}", engine.name);
        let expected = vec![day(first, 0, 0), day(long_day, 2, 2), day(after, 1, 1)];
        assert_eq!(days(&engine, first, after), (expected, (3, 3)), "{}", engine.name);
        let range = TimeRange::of_days(long_day, long_day, zone);
        assert_eq!((range.start, range.end - range.start), (utc(long_day, 4, 0), 25 * HOUR));
        let chart = engine.events.timeseries(engine.site, range).unwrap().points;
        assert_eq!(chart.len(), 25, "one point per hour, 01:00 twice");
        assert_eq!(
            (chart[1].date.as_str(), chart[2].date.as_str()),
            ("2026-11-01T01:00:00-04:00", "2026-11-01T01:00:00-05:00")
        );
        assert_eq!((chart[0].page_views, chart[24].page_views), (1, 1), "{}", engine.name);
        // Its previous period is the day before, 24 hours long.
        assert_eq!(range.previous().start, utc(first, 4, 0));
    }
}

#[test]
fn the_weekly_report_is_the_sites_monday_to_sunday() {
    // A Monday three weeks ago; India's Monday begins at 18:30 UTC on the Sunday before.
    let monday = crate::email::week_start(now_ms()) - 3 * 7 * DAY;
    let sunday_before = chrono::DateTime::from_timestamp_millis(monday - DAY).unwrap().date_naive();
    let last_sunday = chrono::DateTime::from_timestamp_millis(monday + 6 * DAY).unwrap().date_naive();
    for engine in engines() {
        // 00:10 on India's Monday of the week, and 00:10 on its next Monday (both Sundays in UTC).
        engine.store(hits_of(engine.site, &[view(1, utc(sunday_before, 18, 40)), view(2, utc(last_sunday, 18, 40))]));
        let report = |engine: &Engine| {
            let report =
                crate::email::WeeklyReport::read(&engine.events, engine.site, "Shop", "shop.example", monday).unwrap();
            (report.page_views.current, report.page_views.previous, report.timezone)
        };
        assert_eq!(report(&engine), (1, 1, "UTC".to_string()), "{}: UTC weeks", engine.name);
        set_zone(&engine, "Asia/Kolkata");
        assert_eq!(report(&engine), (1, 0, "Asia/Kolkata".to_string()), "{}: India's week", engine.name);
    }
}

/// Retention keeps the roll-ups of the hours it empties (history older than the raw rows); a timezone change
/// must keep them too, as they were, since no raw row is left to count them again in the new zone's hours.
#[test]
fn a_timezone_change_keeps_the_figures_retention_left_without_raw_rows() {
    let now = now_ms();
    let old = utc((chrono::Utc::now() - chrono::Duration::days(10)).date_naive(), 10, 0);
    for engine in engines() {
        let (events, site, name) = (&engine.events, engine.site, engine.name);
        engine.store(hits_of(site, &[view(1, old), view(2, now - 2 * HOUR)]));
        events.rebuild_rollups(site, old - DAY, old + DAY).unwrap();
        let kept = || {
            let month = TimeRange::parse_in("30d", now_ms(), events.site_zone(site).unwrap()).unwrap();
            let totals = events.totals(site, month).unwrap();
            (totals.visitors, totals.pageviews)
        };
        assert_eq!(kept(), (2, 2), "{name}: the seeded visits");
        let one_day = Some(1);
        let days = crate::privacy::RetentionUpdate {
            pageviews: one_day,
            events: one_day,
            sessions: one_day,
            heatmaps: one_day,
            recordings: one_day,
            conversions: one_day,
        };
        crate::privacy::Privacy::new(engine.fixture.tracker.db().clone(), engine.meta.clone())
            .update_retention(site, days)
            .unwrap();
        let report = events.apply_retention_at(now).unwrap();
        assert_eq!(report.total.get("pageviews").copied(), Some(1), "{name}: {report:?}");
        assert_eq!(kept(), (2, 2), "{name}: after retention");

        set_zone(&engine, "Asia/Kolkata");
        assert_eq!(kept(), (2, 2), "{name}: after the timezone change");
    }
}
