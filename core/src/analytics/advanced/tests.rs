//! Advanced Analytics' stored hours and stored scores against counting and scoring the raw rows.

use super::hours::{DAY_MS, store_finished_hours};
use super::scored::{high_intent, newest_scored};
use super::*;
use crate::Tracker;
use crate::ingest::{EventKind, Hit};
use crate::privacy::{DataType, RetentionUpdate};
use crate::testing::{client, rows, send_from};

/// Segments and top-page rates straight from the raw rows, as the definitions in API.md read.
fn raw(conn: &Connection, site: WebsiteId, range: TimeRange, pages: &[String]) -> (Vec<Segment>, Vec<f64>) {
    let mut counts: HashMap<(&'static str, String), Counts> = HashMap::new();
    let mut stmt = conn
        .prepare(
            "SELECT * FROM (
                SELECT first_seen, is_converted, referrer_host, utm_source, utm_medium, utm_campaign, device,
                    ROW_NUMBER() OVER (PARTITION BY visitor_hash, first_seen / 86400000 ORDER BY first_seen, id) > 1
                FROM sessions WHERE website_id = ?1)
             WHERE first_seen >= ?2 AND first_seen < ?3",
        )
        .unwrap();
    let mut q = stmt.query(params![site, range.start, range.end]).unwrap();
    while let Some(r) = q.next().unwrap() {
        let converted: bool = r.get(1).unwrap();
        let s: Vec<String> = (2..7).map(|i| r.get(i).unwrap()).collect();
        let visitor = if r.get(7).unwrap() { "Returning Visitors" } else { "New Visitors" };
        let source = SourceType::classify(&s[0], &s[1], &s[2], &s[3]).label().to_string();
        for key in [("visitor", visitor.to_string()), ("source", source), ("device", device_label(&s[4]))] {
            let entry = counts.entry(key).or_default();
            entry.0 += 1;
            entry.1 += converted as i64;
        }
    }
    let rates = pages
        .iter()
        .map(|page| {
            let (n, c): (i64, i64) = conn
                .query_row(
                    "SELECT COUNT(DISTINCT s.id), COUNT(DISTINCT CASE WHEN s.is_converted THEN s.id END)
                     FROM sessions s JOIN events e ON e.session_id = s.id
                     WHERE s.website_id = ?1 AND s.first_seen >= ?2 AND s.first_seen < ?3
                       AND e.kind = 'pageview' AND e.path = ?4",
                    params![site, range.start, range.end, page],
                    |r| Ok((r.get(0)?, r.get(1)?)),
                )
                .unwrap();
            percent(c, n)
        })
        .collect();
    (segments(&counts), rates)
}

fn check(tracker: &Tracker, site: WebsiteId, name: &str) -> Advanced {
    let now = now_ms();
    let range = TimeRange::parse(name, now).unwrap();
    let fast = tracker.analytics().advanced(site, range).unwrap();
    let pages: Vec<String> = fast.top_pages.iter().map(|p| p.url.clone()).collect();
    let (segments, rates) = tracker.db().read(|conn| Ok(raw(conn, site, range, &pages))).unwrap();
    assert_eq!(fast.visitor_segments, segments, "{name}");
    assert_eq!(fast.top_pages.iter().map(|p| p.conversion_rate).collect::<Vec<_>>(), rates, "{name}");
    fast
}

fn stored(tracker: &Tracker) -> i64 {
    rows(tracker, "advanced_hours")
}

/// The stored hours plus the live ones give exactly what the raw rows give, before and after a deletion,
/// a retention run and new traffic, for ranges aligned to days and to hours.
#[test]
fn stored_hours_and_live_ones_equal_a_raw_count() {
    let crate::testing::OneSite { dir: _dir, tracker, site, .. } = crate::testing::one_site();
    let now = now_ms();
    let send = |visits: std::ops::Range<i64>, start: Millis| {
        let mut hits = Vec::new();
        for v in visits {
            let client = client(
                &format!("198.18.{}.{}", v % 3, v % 11),
                ["Mozilla/5.0 Chrome/1", "Mozilla/5.0 Mobile Firefox/1"][(v % 2) as usize],
            );
            // Visits 23 minutes apart from `start`, the last ones still going on.
            let mut ts = start + v * 23 * 60_000;
            for step in 0..(v % 5 + 1) {
                let kind = match step {
                    0 => EventKind::Pageview,
                    _ if step == 3 && v % 3 == 0 => EventKind::Conversion,
                    _ if step == 2 => EventKind::Custom,
                    _ => EventKind::Pageview,
                };
                let path = format!("/p{}", (v * 7 + step) % 6);
                let hit = Hit {
                    website_id: site,
                    session_key: format!("visit{v:04}"),
                    ts,
                    kind: Some(kind),
                    name: if kind == EventKind::Pageview { String::new() } else { "e".into() },
                    url: format!("https://s.example.com{path}"),
                    path,
                    referrer_host: ["", "google.com", "t.co", "blog.example.org"][(v % 4) as usize].into(),
                    value: (kind == EventKind::Conversion).then_some(10.0),
                    ..Hit::default()
                };
                hits.push((hit, client.clone()));
                ts += 95_000;
            }
        }
        send_from(&tracker, hits);
    };
    // Three days of visits up to a few minutes ago.
    let start = now - 3 * DAY_MS;
    send(0..(3 * 24 * 60 / 23), start);
    for name in ["7d", "1d", "30d"] {
        check(&tracker, site, name);
    }
    let first = stored(&tracker);
    assert!(first >= 3 * 24 - 2, "{first} hours stored");
    // Read again from what is stored: same answer.
    let before = check(&tracker, site, "7d");
    assert_eq!(stored(&tracker), first);

    // A deletion (page views of the first day and a half) changes visits of stored hours.
    let report = tracker.privacy.delete_data(site, DataType::Pageviews, Some(start + 36 * 3_600_000)).unwrap();
    assert!(report.pageviews > 0);
    let after = check(&tracker, site, "7d");
    assert_ne!(after.top_pages, before.top_pages);

    // Retention as if run a day and a half later with 3-day retention: the first day and a half go.
    tracker
        .privacy
        .update_retention(
            site,
            RetentionUpdate {
                pageviews: Some(3),
                events: Some(3),
                sessions: Some(3),
                heatmaps: None,
                recordings: None,
                conversions: Some(3),
            },
        )
        .unwrap();
    let retention = tracker.privacy.apply_retention_at(now + 36 * 3_600_000).unwrap();
    assert!(retention.total.values().sum::<u64>() > 0, "{retention:?}");
    check(&tracker, site, "7d");
    check(&tracker, site, "1d");

    // New traffic on a stored hour's visitors' day (returning visitors) and now.
    send(0..6, now - 10 * 60_000);
    check(&tracker, site, "7d");
    check(&tracker, site, "1d");
}

/// The stored scores give the high-intent count and the whole AI intent answer (distribution, patterns,
/// listed visits with their reasons, recommendations) that scoring the newest visits gives, for limits that
/// end inside an hour and ranges with live hours; a refit (another model) scores the stored hours again.
#[test]
fn stored_intent_scores_equal_scoring_the_newest_visits() {
    let crate::testing::OneSite { dir: _dir, tracker, site, .. } = crate::testing::one_site();
    let now = now_ms();
    let mut hits = Vec::new();
    // Two days of visits 17 minutes apart up to now (the newest still going on), 1 to 8 pages each, from
    // five browsers (so some are returning visits); one in seven converts on its fourth step.
    let start = now - 2 * DAY_MS;
    for v in 0..(2 * 24 * 60 / 17) {
        let client = client(&format!("198.18.0.{}", v % 5), "Mozilla/5.0 Chrome/1");
        let mut ts = start + v * 17 * 60_000;
        for step in 0..(v * 5 % 8 + 1) {
            let path = format!("/p{}", (v + step) % 4);
            let kind = match step {
                3 if v % 7 == 0 => EventKind::Conversion,
                4 => EventKind::Custom,
                _ => EventKind::Pageview,
            };
            let hit = Hit {
                website_id: site,
                session_key: format!("intent{v:04}"),
                ts,
                kind: Some(kind),
                name: if kind == EventKind::Pageview { String::new() } else { "e".into() },
                url: format!("https://s.example.com{path}"),
                path,
                referrer_host: ["", "google.com", "t.co"][(v % 3) as usize].into(),
                value: (kind == EventKind::Conversion).then_some(10.0),
                ..Hit::default()
            };
            hits.push((hit, client.clone()));
            ts += 70_000;
        }
    }
    send_from(&tracker, hits);
    let key_page = |page: &str| intent::KeyPage {
        page: page.into(),
        sessions: 10,
        conversions: 5,
        conversion_rate: 50.0,
        lift: 3.0,
    };
    // Two models that disagree about some visits: the second counts two pages as preceding conversions.
    let first = IntentModel::prior(String::new(), Vec::new(), 0.0, 1);
    let refitted = IntentModel::prior(String::new(), vec![key_page("/p1"), key_page("/p2")], 0.0, 2);
    let raw = |range: TimeRange, model: &IntentModel, limit: i64| {
        tracker
            .db()
            .read(|conn| {
                let features = intent::load_features(conn, site, range.start, range.end, limit, None)?;
                let visits: Vec<ScoredVisit> = features.iter().map(|f| ScoredVisit::of(model, f)).collect();
                let high = visits.iter().filter(|v| v.score >= HIGH_INTENT).count() as i64;
                let all = features.into_iter().map(|f| (f.session_id, f)).collect();
                Ok((
                    (visits.len() as i64, high),
                    ai_intent(model, &visits, all, |missing| intent::load_features_of(conn, site, missing))?,
                ))
            })
            .unwrap()
    };
    let stored = |range: TimeRange, model: &IntentModel, limit: i64| {
        tracker
            .db()
            .read(|conn| {
                store_finished_hours(conn, site, range, now)?;
                let high = high_intent(conn, site, range, model, limit)?;
                let (visits, live) = newest_scored(conn, site, range, model, limit)?;
                Ok((high, ai_intent(model, &visits, live, |missing| intent::load_features_of(conn, site, missing))?))
            })
            .unwrap()
    };
    // The first model again, fitted later: every refit scores the stored hours again.
    let first_again = IntentModel::prior(String::new(), Vec::new(), 0.0, 3);
    let rows_of_other_models = |model: &IntentModel| -> i64 {
        tracker
            .db()
            .read(|c| {
                Ok(c.query_row(
                    "SELECT COUNT(*) FROM advanced_intent WHERE model <> ?1",
                    [model.info.fitted_at],
                    |r| r.get(0),
                )?)
            })
            .unwrap()
    };
    let mut disagree = false;
    for model in [&first, &refitted, &first_again] {
        for name in ["1d", "7d"] {
            let range = TimeRange::parse(name, now).unwrap();
            // 7 and 30 end inside an hour; 500 is more than the range's visits.
            for limit in [1, 7, 30, 90, 500] {
                let expected = raw(range, model, limit);
                // The first read stores the scores, the second reads them.
                assert_eq!(stored(range, model, limit), expected, "{name} {limit} {}", model.info.fitted_at);
                assert_eq!(stored(range, model, limit), expected, "{name} {limit} again");
                disagree |= expected.1.summary != raw(range, &first, limit).1.summary;
                // Scoring a stored hour under a newer model (30 visits reach back to stored hours; fewer are
                // in the open ones) drops the older model's scores of every hour, read or not.
                if limit >= 30 {
                    assert_eq!(rows_of_other_models(model), 0, "{name} {limit} {}", model.info.fitted_at);
                }
            }
        }
    }
    assert!(disagree, "the two models score some visits differently");
    let (full, _) = raw(TimeRange::parse("7d", now).unwrap(), &refitted, 500);
    assert!(full.1 > 0 && full.1 < full.0, "some visits are high intent, not all: {full:?}");
    let scored = rows(&tracker, "advanced_intent");
    assert!(scored > 10, "{scored} hours with stored scores");
}
