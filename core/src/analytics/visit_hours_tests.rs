//! Tests of `visit_hours`.

use super::*;
use crate::Tracker;
use crate::analytics::journeys::JourneyFilter;
use crate::ingest::{EventKind, Hit};
use crate::model::{UserId, now_ms};
use crate::privacy::DataType;
use crate::store::funnels::{FunnelInput, StepInput};
use crate::testing::{rows, send};

const PAGES: [&str; 6] = ["/", "/pricing", "/signup", "/docs", "/blog", "/about"];

fn hit(site: WebsiteId, session: &str, ts: Millis, kind: EventKind, path: &str) -> Hit {
    Hit {
        website_id: site,
        session_key: session.into(),
        ts,
        kind: Some(kind),
        name: if kind == EventKind::Pageview { String::new() } else { "signup".into() },
        url: format!("https://s.example.com{path}"),
        path: path.into(),
        ..Hit::default()
    }
}

fn steps(urls: &[(&str, Option<&str>)]) -> Vec<StepInput> {
    urls.iter()
        .map(|(url, event)| StepInput {
            name: Some(url.to_string()),
            url: Some(url.to_string()),
            event_name: event.map(str::to_string),
        })
        .collect()
}

/// The funnel, journeys and paths answers (stored hours plus live ones) equal one raw scan of the range.
fn assert_matches_raw(tracker: &Tracker, user: UserId, site: WebsiteId, funnel: i64, what: &str) {
    let now = now_ms();
    for period in ["1d", "7d", "30d"] {
        let range = TimeRange::parse(period, now).unwrap();
        for _ in 0..2 {
            let fast = tracker.funnels.get(user, funnel, range, &Filters::none()).unwrap();
            let patterns: Vec<StepPattern> = fast
                .steps
                .iter()
                .map(|s| StepPattern { url: s.url.clone(), event_name: s.event_name.clone() })
                .collect();
            let (counts, totals, paths, visits) = tracker
                .db()
                .read(|c| raw(c, site, std::slice::from_ref(&patterns), range, now, &Filters::none()))
                .unwrap();
            let fast_counts: Vec<u64> = fast.steps.iter().map(|s| s.visitors).collect();
            assert_eq!(fast_counts, counts[0], "{what}, {period}: funnel");
            for (filter, class) in [
                (JourneyFilter::Converted, totals.converted),
                (JourneyFilter::Abandoned, totals.abandoned),
                (JourneyFilter::Active, totals.active),
            ] {
                let answer =
                    tracker.analytics().customer_journeys(&[site], range, &Filters::none(), filter, now).unwrap();
                assert_eq!(answer.summary.total_journeys, class.visits, "{what}, {period}: {filter:?}");
                let average = if class.visits == 0 { 0.0 } else { class.duration_s as f64 / class.visits as f64 };
                assert!((answer.summary.average_duration - average).abs() < 1e-9, "{what}, {period}: {filter:?}");
            }
            let all = tracker
                .analytics()
                .customer_journeys(&[site], range, &Filters::none(), JourneyFilter::All, now)
                .unwrap();
            let everyone = totals.converted.visits + totals.abandoned.visits + totals.active.visits;
            assert_eq!(all.summary.total_journeys, everyone, "{what}, {period}");
            let fast_paths = tracker.analytics().journey_paths(&[site], range, &Filters::none()).unwrap();
            assert_eq!(fast_paths.total_sessions, visits, "{what}, {period}: visits with a page view");
            let fast_list: Vec<(Vec<String>, u64, u64)> =
                fast_paths.paths.into_iter().map(|p| (p.pages, p.sessions, p.conversions)).collect();
            let raw_list: Vec<(Vec<String>, u64, u64)> =
                paths.into_iter().take(10).map(|p| (p.pages, p.sessions, p.conversions)).collect();
            assert_eq!(fast_list, raw_list, "{what}, {period}: paths");
        }
    }
}

fn stored(tracker: &Tracker) -> (i64, i64) {
    (rows(tracker, "visit_hours"), rows(tracker, "funnel_hours"))
}

#[test]
fn stored_hours_match_a_raw_scan_through_late_hits_edits_deletions_and_retention() {
    let crate::testing::OneSite { dir: _dir, tracker, user, site } = crate::testing::one_site();
    let now = now_ms();
    // 300 visits over the last 5 days (late hits, as an import or the seeder sends them), and 10 live ones.
    let mut hits = Vec::new();
    for v in 0..310i64 {
        let mut ts = if v < 300 { now - 5 * 86_400_000 + v * 1_400_000 } else { now - 10 * 60_000 };
        if v < 300 && ts > now - 2 * HOUR_MS {
            ts -= 3 * HOUR_MS;
        }
        let session = format!("visit-{v:03}");
        for step in 0..(v % 5 + 1) {
            let path = PAGES[((v * 7 + step * 3) % 6) as usize];
            let kind = if step == 3 && v % 3 == 0 { EventKind::Conversion } else { EventKind::Pageview };
            hits.push(hit(site, &session, ts, kind, path));
            ts += 40_000;
        }
    }
    send(&tracker, hits);
    let input = FunnelInput {
        name: Some("F".into()),
        website_id: Some(serde_json::json!(site)),
        steps: Some(steps(&[("/", None), ("/pricing", None), ("*", Some("signup"))])),
        status: None,
    };
    let funnel = tracker.funnels.create(user.id, input).unwrap();
    assert_matches_raw(&tracker, user.id, site, funnel, "seeded");
    let (hours, funnel_hours) = stored(&tracker);
    assert!(hours > 100 && funnel_hours > 100, "settled hours are stored: {hours} {funnel_hours}");

    // A late page view continues an old visit: its hour is recomputed.
    let old = tracker
        .db()
        .read(|c| {
            Ok(c.query_row("SELECT session_key, last_seen FROM sessions WHERE session_key = 'visit-010'", [], |r| {
                Ok((r.get::<_, String>(0)?, r.get::<_, i64>(1)?))
            })?)
        })
        .unwrap();
    send(&tracker, vec![hit(site, &old.0, old.1 + 60_000, EventKind::Pageview, "/pricing")]);
    assert_matches_raw(&tracker, user.id, site, funnel, "late hit");

    // A funnel edit: the stored counts of the old steps are not used.
    let edit = FunnelInput { steps: Some(steps(&[("/docs", None), ("/blog", None)])), ..FunnelInput::default() };
    tracker.funnels.update(user.id, funnel, edit).unwrap();
    assert_matches_raw(&tracker, user.id, site, funnel, "funnel edit");

    // A visitor's erasure, a deletion of page views before a time, and retention.
    tracker.privacy.delete_visitor(site, "visit-015").unwrap();
    assert_matches_raw(&tracker, user.id, site, funnel, "visitor deletion");
    tracker.privacy.delete_data(site, DataType::Pageviews, Some(now - 4 * 86_400_000)).unwrap();
    assert_matches_raw(&tracker, user.id, site, funnel, "page view deletion");
    tracker.privacy.apply_retention_at(now + 87 * 86_400_000).unwrap();
    assert_matches_raw(&tracker, user.id, site, funnel, "retention");
}
