//! Tests of `rollups`.

use std::collections::HashSet;
use std::sync::Arc;

use chrono_tz::Tz;

use super::*;
use crate::analytics::TimeRange;
use crate::cluster::seeded::{assert_every_read_equal, assert_every_read_equal_in, seeded_hits};
use crate::cluster::testing::{TestCluster, fresh, store_in_both};
use crate::model::now_ms;
use crate::privacy::{DataType, DeletionReport};
use crate::testing::{OneSite, one_site};

/// Parity's day of seeded visits, ending now, stored in SQLite and in a fresh cluster whose closed hours are
/// then rolled up as if it were `later` (hits older than a day are not sent through the live sink, whose
/// shared state forgets visits and salts a day old). Returns the cluster's mark.
fn seeded(later: Millis) -> Option<(TestCluster, OneSite, Cluster, Vec<crate::ingest::Hit>, Millis)> {
    let test = fresh()?;
    let fixture = one_site();
    test.add_site(fixture.site);
    let hits = seeded_hits(fixture.site, now_ms());
    store_in_both(&fixture, &test, hits.clone());
    let cluster = Cluster { pg: Arc::new(test.pg()), events: Arc::new(test.events()) };
    let target = (later - CLOSED_AFTER_MS).div_euclid(HOUR_MS) * HOUR_MS;
    assert_eq!(cluster.roll_up(later).unwrap(), Some(target));
    assert_eq!(cluster.events.rolled_up_through().unwrap(), target);
    Some((test, fixture, cluster, hits, target))
}

/// Sets a site's timezone on both engines, each keying the site by it at once (`Upkeep::timezone_changed` on
/// SQLite, `Cluster::rekey_site` on the cluster).
fn set_zone(fixture: &OneSite, cluster: &Cluster, name: &str) {
    let meta = &fixture.tracker.privacy.meta;
    let mut site = meta.website(fixture.site).unwrap().unwrap();
    site.timezone = name.to_string();
    assert!(meta.update_website(&site).unwrap());
    fixture.tracker.events.timezone_changed(fixture.site).unwrap();
    cluster
        .pg
        .with(|c| Ok(c.execute("UPDATE websites SET timezone = $1 WHERE id = $2", &[&name, &fixture.site])?))
        .unwrap();
    cluster.rekey_site(fixture.site).unwrap();
}

/// The minutes past the UTC hour of a site's rollup keys (those not summing to zero).
fn minutes_of_keys(cluster: &Cluster, site: WebsiteId) -> HashSet<Millis> {
    keys_held(cluster, site).into_iter().map(|(_, hour, _)| hour.rem_euclid(HOUR_MS) / 60_000).collect()
}

/// The rollups summed over both shards: (rows, page views, visits, visitors).
fn stored(cluster: &Cluster) -> (i64, i64, i64, i64) {
    let rows = cluster.events.nodes()[0]
        .query(&format!(
            "SELECT count(), sum(pageviews), sum(visits), sum(visitors) FROM {}.rollup_hours WHERE dim = ''",
            cluster.events.database()
        ))
        .unwrap();
    (int(&rows[0], 0).unwrap(), int(&rows[0], 1).unwrap(), int(&rows[0], 2).unwrap(), int(&rows[0], 3).unwrap())
}

/// A site's rollup keys as each shard holds them (its rows summed per key, those summing to zero left out),
/// united over the shards: what a deletion's `rollup_rows` counts, found another way.
fn keys_held(cluster: &Cluster, site: WebsiteId) -> HashSet<(String, Millis, String)> {
    let mut keys = HashSet::new();
    for node in cluster.events.nodes() {
        let rows = node
            .query(&format!(
                "SELECT dim, hour, value, sum(pageviews), sum(visits), sum(visitors), sum(events),
                        sum(conversions), sum(bounces), sum(duration_s)
                 FROM {}.rollup_hours_local WHERE website_id = {site} GROUP BY dim, hour, value",
                cluster.events.database()
            ))
            .unwrap();
        for row in rows {
            if (3..10).any(|i| int(&row, i).unwrap() != 0) {
                keys.insert((row[0].clone(), int(&row, 1).unwrap(), row[2].clone()));
            }
        }
    }
    keys
}

/// The reads that rollups answer, compared on both engines.
fn assert_rolled_reads_equal(fixture: &OneSite, events: &Events, now: Millis) {
    assert_rolled_reads_equal_in(fixture, events, Tz::UTC, now);
}

/// `assert_rolled_reads_equal` of a site whose timezone is `tz` on both engines, over its local days.
fn assert_rolled_reads_equal_in(fixture: &OneSite, events: &Events, tz: Tz, now: Millis) {
    let (sqlite, site) = (&fixture.tracker.analytics(), fixture.site);
    for name in ["24h", "7d", "30d"] {
        let range = TimeRange::parse_in(name, now, tz).unwrap();
        assert_eq!(events.totals(site, range).unwrap(), sqlite.totals(site, range).unwrap(), "totals {name}");
        assert_eq!(events.timeseries(site, range).unwrap(), sqlite.timeseries(site, range).unwrap(), "{name}");
        for dim in Dimension::ALL {
            let expected = sqlite.breakdown(site, range, dim, 100).unwrap();
            assert_eq!(events.breakdown(site, range, dim, 100).unwrap(), expected, "{} {name}", dim.as_str());
        }
        let sources = sqlite.traffic_sources(site, range).unwrap();
        assert_eq!(events.traffic_sources(site, range).unwrap(), sources, "{name}");
        let summary = sqlite.events_summary(site, range).unwrap();
        assert_eq!(events.events_summary(site, range, Vec::new()).unwrap(), summary, "{name}");
        let rate = sqlite.conversions(site, range).unwrap().conversion_rate;
        assert_eq!(events.conversions(site, range).unwrap().conversion_rate, rate, "{name}");
    }
    for metric in [crate::analytics::SiteMetric::Pageviews, crate::analytics::SiteMetric::Visitors] {
        let expected = sqlite.site_periods(&[site], metric, now).unwrap();
        assert_eq!(events.site_periods(&[(site, tz)], metric, now).unwrap(), expected);
    }
}

/// A cluster without hits is rolled up at once: each shard's mark goes to the target in one row.
#[test]
fn an_empty_cluster_is_rolled_up_in_one_step() {
    let Some(test) = fresh() else { return };
    let cluster = Cluster { pg: Arc::new(test.pg()), events: Arc::new(test.events()) };
    let now = now_ms();
    let target = (now - CLOSED_AFTER_MS).div_euclid(HOUR_MS) * HOUR_MS;
    assert_eq!(cluster.roll_up(now).unwrap(), Some(target));
    assert_eq!(cluster.events.rolled_up_through().unwrap(), target);
    let marks: u64 = cluster.events.nodes()[0]
        .query_value(&format!("SELECT count() FROM {}.rollup_marks", cluster.events.database()))
        .unwrap();
    assert_eq!(marks, 2, "one mark a shard");
}

/// A day of visits, rolled up as if three days and more had passed, is read from the rollups alone with
/// SQLite's answers, and stays so once its hits are gone (as after retention, which keeps rollups on both
/// engines); rolling up again adds nothing.
#[test]
fn closed_hours_are_read_from_rollups_with_sqlites_answers() {
    let now = now_ms();
    let Some((_test, fixture, cluster, _, _)) = seeded(now + CLOSED_AFTER_MS + DAY_MS) else { return };
    let before = stored(&cluster);
    assert!(before.0 > 20 && before.2 > 100, "rolled up: {before:?}");
    assert_every_read_equal(fixture.tracker.analytics(), &cluster.events, fixture.site, now);

    assert!(cluster.roll_up(now + CLOSED_AFTER_MS + DAY_MS).unwrap().is_some());
    assert_eq!(stored(&cluster), before, "a repeated roll-up adds nothing");

    cluster.events.delete_where(&format!("website_id = {}", fixture.site)).unwrap();
    assert_rolled_reads_equal(&fixture, &cluster.events, now);
}

/// A day of visits across the mark: its closed hours come from the rollups, the rest from the hits, and
/// the sums are SQLite's. A visitor's erasure and a deletion of page views rebuild the rollups of the days
/// they touched, as SQLite's do; the deletions count the rollup keys they rebuilt, or deleted.
#[test]
fn ranges_across_the_mark_and_deletions_give_sqlites_answers() {
    let now = now_ms();
    let Some((test, fixture, cluster, hits, mark)) = seeded(now + CLOSED_AFTER_MS - 8 * HOUR_MS) else { return };
    let rolled = hits.iter().filter(|h| h.ts < mark).count();
    assert!(rolled > 50 && rolled + 50 < hits.len(), "{rolled} of {} hits before the mark", hits.len());
    assert_every_read_equal(fixture.tracker.analytics(), &cluster.events, fixture.site, now);

    // A visitor of one visit (SQLite erases a key's latest visit, the cluster every visit of it), in
    // rolled-up hours.
    let key = (0..90)
        .map(|v| format!("visitor-{v:03}"))
        .find(|key| {
            let theirs: Vec<Millis> = hits.iter().filter(|h| &h.session_key == key).map(|h| h.ts).collect();
            let (first, last) = (theirs.iter().min(), theirs.iter().max());
            theirs.len() > 2
                && last.is_some_and(|last| *last < mark - 2 * HOUR_MS)
                && first.zip(last).is_some_and(|(first, last)| last - first < 30 * 60_000)
        })
        .expect("a visitor before the mark");
    let before = stored(&cluster);
    fixture.tracker.privacy.delete_visitor(fixture.site, &key).unwrap();
    cluster.delete_visitor(test.meta().as_ref(), fixture.site, &key).unwrap();
    cluster.settle(&[fixture.site]).unwrap();
    assert!(stored(&cluster).1 < before.1, "their page views left the rollups");
    assert_every_read_equal(fixture.tracker.analytics(), &cluster.events, fixture.site, now);

    fixture.tracker.privacy.delete_data(fixture.site, DataType::Pageviews, None).unwrap();
    let report = cluster.delete_data(fixture.site, DataType::Pageviews, None).unwrap();
    cluster.settle(&[fixture.site]).unwrap();
    assert_eq!(stored(&cluster).1, 0, "no page view left in the rollups");
    assert_rolled_reads_equal(&fixture, &cluster.events, now);
    // The hours to rebuild are the rolled-up hours of the days with page views, counted at the answer (their
    // page views' keys still there).
    let held = keys_held(&cluster, fixture.site);
    assert!(report.rollup_rows > held.len() as u64, "{report:?}, {}", held.len());

    // Everything: the keys the site had.
    let report = cluster.delete_data(fixture.site, DataType::All, None).unwrap();
    assert_eq!(report.rollup_rows, held.len() as u64, "{report:?}");
    cluster.settle(&[fixture.site]).unwrap();
    assert!(keys_held(&cluster, fixture.site).is_empty());
}
/// A visit still going when its first hour is rolled up (a page view every 20 minutes for over two days)
/// is noted by the sink when its later hits are stored; until the next roll-up its rolled-up hour lacks
/// them, and that roll-up adds them, giving SQLite's answers, and takes the note.
#[test]
fn a_visit_that_outgrows_its_rolled_up_hour_is_rolled_up_again() {
    let Some(test) = fresh() else { return };
    let fixture = one_site();
    test.add_site(fixture.site);
    let now = now_ms() / 1000 * 1000;
    let start = now - 2 * DAY_MS - 3 * HOUR_MS;
    let page_view = |ts: Millis| crate::ingest::Hit {
        website_id: fixture.site,
        session_key: "robot".into(),
        ts,
        kind: Some(crate::ingest::EventKind::Pageview),
        url: "https://s.example.com/status".into(),
        path: "/status".into(),
        visitor_seed: [7; 32],
        ..crate::ingest::Hit::default()
    };
    let twenty_minutes = 20 * 60_000;
    store_in_both(
        &fixture,
        &test,
        (0..).map(|n| start + n * twenty_minutes).take_while(|ts| *ts <= now - HOUR_MS).map(page_view).collect(),
    );
    let cluster = Cluster { pg: Arc::new(test.pg()), events: Arc::new(test.events()) };
    // As if a day had passed: the visit's first hours are rolled up.
    let later = start + CLOSED_AFTER_MS + 2 * HOUR_MS;
    assert!(cluster.roll_up(later).unwrap().unwrap() > start);
    let notes = || -> i64 {
        cluster.pg.with(|c| Ok(c.query_one("SELECT count(*) FROM rollup_stale_visits", &[])?.get(0))).unwrap()
    };
    assert_eq!(notes(), 0, "none is left once the hours are rolled up");

    store_in_both(&fixture, &test, vec![page_view(now - 2 * twenty_minutes), page_view(now - twenty_minutes)]);
    assert_eq!(notes(), 1, "the sink noted the visit");
    let week = TimeRange::parse("7d", now).unwrap();
    let expected = fixture.tracker.analytics().totals(fixture.site, week).unwrap();
    assert_eq!((expected.visits, expected.duration_s), (1, (now - twenty_minutes - start) / 1000));
    let stale = cluster.events.totals(fixture.site, week).unwrap();
    assert_eq!((stale.visits, stale.duration_s), (1, (now - HOUR_MS - start) / 1000), "the rolled-up hour");

    cluster.roll_up(later).unwrap().unwrap();
    assert_eq!(notes(), 0);
    assert_rolled_reads_equal(&fixture, &cluster.events, now);
}

/// Deletions before a time (events, page views, then everything) across the mark count what SQLite's
/// count and leave reads with SQLite's answers.
#[test]
fn deletions_before_a_time_give_sqlites_counts_and_answers() {
    let now = now_ms();
    let Some((_test, fixture, cluster, _, mark)) = seeded(now + CLOSED_AFTER_MS - 8 * HOUR_MS) else { return };
    for (data, cut) in [
        (DataType::Events, mark + HOUR_MS),
        (DataType::Pageviews, mark - 2 * HOUR_MS),
        (DataType::All, mark + 3 * HOUR_MS),
    ] {
        let expected = fixture.tracker.privacy.delete_data(fixture.site, data, Some(cut)).unwrap();
        let got = cluster.delete_data(fixture.site, data, Some(cut)).unwrap();
        cluster.settle(&[fixture.site]).unwrap();
        assert!(expected.records_deleted() > 0, "{data:?}");
        // Events, then page views, go from rolled-up hours that keep other rows: their rebuilt keys count.
        if data != DataType::All {
            assert!(got.rollup_rows > 0, "{data:?}: {got:?}");
        }
        // Each engine counts the rollup rows of its own layout (`DeletionReport::rollup_rows`).
        assert_eq!(DeletionReport { rollup_rows: 0, ..got }, DeletionReport { rollup_rows: 0, ..expected }, "{data:?}");
        assert_rolled_reads_equal(&fixture, &cluster.events, now);
    }
}

/// A site in India (+5:30) is rolled up in its local hours (keys on UTC half hours) and local days, and its
/// reads over its local ranges are SQLite's, from the rollups and hits and then from the rollups alone.
#[test]
fn a_sites_local_hours_are_rolled_up_with_sqlites_answers() {
    let Some(test) = fresh() else { return };
    let fixture = one_site();
    test.add_site(fixture.site);
    let cluster = Cluster { pg: Arc::new(test.pg()), events: Arc::new(test.events()) };
    set_zone(&fixture, &cluster, "Asia/Kolkata");
    let india: Tz = "Asia/Kolkata".parse().unwrap();
    let now = now_ms();
    store_in_both(&fixture, &test, seeded_hits(fixture.site, now));
    assert!(cluster.roll_up(now + CLOSED_AFTER_MS + DAY_MS).unwrap().is_some());
    assert_eq!(minutes_of_keys(&cluster, fixture.site), HashSet::from([30]));
    assert_every_read_equal_in(fixture.tracker.analytics(), &cluster.events, fixture.site, india, now);

    cluster.events.delete_where(&format!("website_id = {}", fixture.site)).unwrap();
    assert_rolled_reads_equal_in(&fixture, &cluster.events, india, now);
}

/// Rolled-up hours keyed in UTC are keyed again when the site moves to Nepal (+5:45) and back, each time
/// with SQLite's answers over the new zone's ranges.
#[test]
fn a_changed_timezone_keys_the_rolled_up_hours_again() {
    let now = now_ms();
    let Some((_test, fixture, cluster, _, _)) = seeded(now + CLOSED_AFTER_MS + DAY_MS) else { return };
    assert_eq!(minutes_of_keys(&cluster, fixture.site), HashSet::from([0]));
    set_zone(&fixture, &cluster, "Asia/Kathmandu");
    assert_eq!(minutes_of_keys(&cluster, fixture.site), HashSet::from([15]), "the old keys went to zero");
    let nepal: Tz = "Asia/Kathmandu".parse().unwrap();
    assert_every_read_equal_in(fixture.tracker.analytics(), &cluster.events, fixture.site, nepal, now);

    set_zone(&fixture, &cluster, "UTC");
    assert_eq!(minutes_of_keys(&cluster, fixture.site), HashSet::from([0]));
    assert_every_read_equal(fixture.tracker.analytics(), &cluster.events, fixture.site, now);
}
