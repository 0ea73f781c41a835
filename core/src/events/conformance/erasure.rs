//! `Erasure` on every engine: a visitor's data and its erasure, a site's data by type, a deleted site's
//! events and retention, each on visits whose rows are known, the reads after each asserted.

use super::{Engine, engines, three_plain_visits};
use crate::Error;
use crate::analytics::{TimeRange, Totals};
use crate::ingest::EventKind::Conversion as Purchase;
use crate::model::{Millis, WebsiteId, now_ms};
use crate::privacy::{DataType, Privacy, PrivacyUpdate, RetentionUpdate};

const MINUTE: Millis = 60_000;
const DAY: Millis = 24 * 60 * MINUTE;

/// The privacy service over the engine's metadata, for the site settings erasure depends on.
fn privacy(engine: &Engine) -> Privacy {
    Privacy::new(engine.fixture.tracker.db().clone(), engine.meta.clone())
}

/// (page views, visits, events, conversions) of the last day.
fn counted(engine: &Engine, site: WebsiteId, now: Millis) -> (i64, i64, i64, i64) {
    let Totals { pageviews, visits, events, conversions, .. } =
        engine.events.totals(site, TimeRange::parse("24h", now).unwrap()).unwrap();
    (pageviews, visits, events, conversions)
}

#[test]
fn a_visitors_data_is_read_and_erased_only_where_the_site_allows_it_on_each_engine() {
    let now = now_ms();
    for engine in engines() {
        let (events, site, name) = (&engine.events, engine.site, engine.name);
        three_plain_visits(&engine, site, now);
        let rights = |on: bool| PrivacyUpdate {
            data_subject_rights: Some(true),
            data_portability: Some(on),
            data_deletion: Some(on),
            ..Default::default()
        };
        privacy(&engine).update_settings(site, rights(false)).unwrap();
        for refused in
            [events.visitor_data(site, "visitor-001").err(), events.delete_visitor(site, "visitor-001").err()]
        {
            assert!(matches!(refused, Some(Error::Forbidden(_))), "{name}: {refused:?}");
        }
        privacy(&engine).update_settings(site, rights(true)).unwrap();

        let data = events.visitor_data(site, "visitor-001").unwrap();
        assert_eq!(data["visitorId"], "visitor-001", "{name}");
        assert_eq!(data["sessions"].as_array().map(Vec::len), Some(1), "{name}: {data}");
        assert_eq!(data["events"].as_array().map(Vec::len), Some(3), "{name}: {data}");

        let erased = events.delete_visitor(site, "visitor-001").unwrap();
        assert_eq!((erased.sessions, erased.events, erased.recordings), (1, 3, 0), "{name}: {erased:?}");
        // The day's figures no longer count the visit.
        assert_eq!(counted(&engine, site, now), (2, 2, 1, 0), "{name}");
        for gone in [events.visitor_data(site, "visitor-001").err(), events.delete_visitor(site, "visitor-001").err()] {
            assert!(matches!(gone, Some(Error::NotFound(_))), "{name}: {gone:?}");
        }
        assert_eq!(events.visitor_data(site, "visitor-002").unwrap()["events"].as_array().map(Vec::len), Some(2));
    }
}

#[test]
fn a_sites_data_is_deleted_by_type_and_the_reads_follow_on_each_engine() {
    let now = now_ms();
    for engine in engines() {
        let (events, site, name) = (&engine.events, engine.site, engine.name);
        let sites = engine.with_more_sites(1);
        three_plain_visits(&engine, site, now);
        three_plain_visits(&engine, sites[1], now);
        assert_eq!(counted(&engine, site, now), (4, 3, 1, 1), "{name}");

        let report = events.delete_data(site, DataType::Events, None).unwrap();
        assert_eq!((report.pageviews, report.events), (0, 2), "{name}: {report:?}");
        assert_eq!(counted(&engine, site, now), (4, 3, 0, 0), "{name}");
        let report = events.delete_data(site, DataType::Pageviews, None).unwrap();
        assert_eq!((report.pageviews, report.events), (4, 0), "{name}: {report:?}");
        assert_eq!(counted(&engine, site, now).0, 0, "{name}");
        events.delete_data(site, DataType::All, None).unwrap();
        assert_eq!(counted(&engine, site, now), (0, 0, 0, 0), "{name}");
        assert!(events.recent_activity(site, 50).unwrap().is_empty(), "{name}");
        // The other site keeps all of its own.
        assert_eq!(counted(&engine, sites[1], now), (4, 3, 1, 1), "{name}");
    }
}

#[test]
fn a_deleted_sites_events_go_with_it_on_each_engine() {
    let now = now_ms();
    for engine in engines() {
        let (events, name) = (&engine.events, engine.name);
        let sites = engine.with_more_sites(1);
        three_plain_visits(&engine, sites[0], now);
        three_plain_visits(&engine, sites[1], now);
        // As `Tracker::delete_website` does: the events first (a job on the cluster), then the metadata; then
        // the jobs as a daemon runs them, past their grace.
        events.delete_sites(&sites[1..]).unwrap();
        let owner = engine.owner_of(sites[1]);
        assert!(engine.meta.delete_website(owner, sites[1]).unwrap(), "{name}");
        let jobs = usize::from(name != "sqlite");
        assert_eq!(events.deletion_jobs().unwrap().len(), jobs, "{name}");
        assert_eq!(events.run_deletions_due_by(now + 60_000).unwrap(), jobs, "{name}");
        assert!(events.deletion_jobs().unwrap().is_empty(), "{name}");
        assert_eq!(counted(&engine, sites[1], now), (0, 0, 0, 0), "{name}");
        assert!(events.recent_activity(sites[1], 50).unwrap().is_empty(), "{name}");
        assert_eq!(counted(&engine, sites[0], now), (4, 3, 1, 1), "{name}");
    }
}

#[test]
fn retention_deletes_each_type_of_data_after_its_days_on_each_engine() {
    let now = now_ms();
    for engine in engines() {
        let (events, site, name) = (&engine.events, engine.site, engine.name);
        let hits = three_plain_visits(&engine, site, now);
        // Page views kept 5 days, other events 10, conversions a year.
        let days = RetentionUpdate { pageviews: Some(5), events: Some(10), ..Default::default() };
        privacy(&engine).update_retention(site, days).unwrap();

        let report = events.apply_retention_at(now + 6 * DAY).unwrap();
        assert_eq!(report.total.get("pageviews"), Some(&4), "{name}: {report:?}");
        assert_eq!(report.total.get("events").copied().unwrap_or(0), 0, "{name}: {report:?}");
        let listed: Vec<String> = events.recent_activity(site, 50).unwrap().into_iter().map(|a| a.name).collect();
        assert_eq!(listed, ["signup", "purchase"], "{name}");

        let report = events.apply_retention_at(now + 11 * DAY).unwrap();
        assert_eq!(report.total.get("events"), Some(&1), "{name}: {report:?}");
        let purchase = hits.iter().find(|h| h.kind == Some(Purchase)).unwrap();
        let listed: Vec<Millis> = events.recent_activity(site, 50).unwrap().into_iter().map(|a| a.timestamp).collect();
        assert_eq!(listed, [purchase.ts], "{name}");
    }
}
