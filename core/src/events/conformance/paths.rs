//! `PathReads` on every engine: five visits of one site and one of another, whose paths, funnels and
//! drop-offs are known, each read asserted against them.

use super::{Engine, Visit, engines, hits_of};
use crate::analytics::TimeRange;
use crate::analytics::funnels::StepPattern;
use crate::analytics::journeys::JourneyFilter;
use crate::cluster::seeded::{comparable_funnel, funnel_input, journey_hits, seeded_hits, without_visit_id};
use crate::cluster::testing::scroll_reports;
use crate::events::Filters;
use crate::ingest::EventKind::{Conversion as Purchase, Pageview};
use crate::ingest::Hit;
use crate::model::{Millis, WebsiteId, now_ms};
use crate::store::funnels::{DropOffVisit, Funnel, Funnels};
use crate::store::websites::Websites;

const MINUTE: Millis = 60_000;

/// Three minutes apart from 50 minutes ago, 20 s between hits, from DE on a desktop, on the first site visits
/// 1 (/a, /b, /c and a purchase), 2 (/a, /b), 3 (/a, /a, /b: the repeat folded in its path), 4 (/b) and 5 (/a),
/// and on the second site visit 6 (/a, /b).
fn seeded(engine: &Engine, sites: &[WebsiteId], now: Millis) -> Vec<Hit> {
    let base = (now - 50 * MINUTE) / 1000 * 1000;
    let visit = |visitor: u8, hits| Visit {
        visitor,
        start: base + visitor as Millis * 3 * MINUTE,
        referrer_host: "",
        utm_source: "",
        country: "DE",
        device: "desktop",
        hits,
    };
    let one = [
        visit(
            1,
            &[
                (0, Pageview, "", "/a"),
                (20, Pageview, "", "/b"),
                (40, Pageview, "", "/c"),
                (60, Purchase, "purchase", "/c"),
            ],
        ),
        visit(2, &[(0, Pageview, "", "/a"), (20, Pageview, "", "/b")]),
        visit(3, &[(0, Pageview, "", "/a"), (20, Pageview, "", "/a"), (40, Pageview, "", "/b")]),
        visit(4, &[(0, Pageview, "", "/b")]),
        visit(5, &[(0, Pageview, "", "/a")]),
    ];
    let mut hits = hits_of(sites[0], &one);
    hits.extend(hits_of(sites[1], &[visit(6, &[(0, Pageview, "", "/a"), (20, Pageview, "", "/b")])]));
    hits.sort_by_key(|h| h.ts);
    engine.store(hits.clone());
    hits
}

#[test]
fn journey_paths_and_customer_journeys_follow_each_visits_pages_on_each_engine() {
    let now = now_ms();
    for engine in engines() {
        let (events, name) = (&engine.events, engine.name);
        let sites = engine.with_more_sites(1);
        let hits = seeded(&engine, &sites, now);
        let range = TimeRange::parse("24h", now).unwrap();

        let paths = events.journey_paths(&sites[..1], range, &Filters::none()).unwrap();
        assert_eq!(paths.total_sessions, 5, "{name}");
        let listed: Vec<(String, u64, u64, f64)> =
            paths.paths.iter().map(|p| (p.pages.join(" "), p.sessions, p.conversions, p.conversion_rate)).collect();
        assert_eq!(listed[0], ("/a /b".to_string(), 2, 0, 0.0), "{name}: {listed:?}");
        let mut rest = listed[1..].to_vec();
        rest.sort_by(|a, b| a.0.cmp(&b.0));
        let expected = [("/a", 1, 0, 0.0), ("/a /b /c", 1, 1, 100.0), ("/b", 1, 0, 0.0)]
            .map(|(pages, sessions, conversions, rate)| (pages.to_string(), sessions, conversions, rate));
        assert_eq!(rest, expected, "{name}");
        // The account's sites together: the second site's /a, /b is counted with the first's.
        let both = events.journey_paths(&sites, range, &Filters::none()).unwrap();
        assert_eq!((both.total_sessions, both.paths[0].sessions), (6, 3), "{name}");

        let all = events.customer_journeys(&sites[..1], range, &Filters::none(), JourneyFilter::All, now).unwrap();
        let listed: Vec<(&str, u64, u64, Millis)> = all
            .journeys
            .iter()
            .map(|j| (j.session_id.as_str(), j.touchpoints, j.conversion_events, j.started_at))
            .collect();
        let start = |visitor: &str| hits.iter().find(|h| h.session_key == visitor).unwrap().ts;
        let expected = [
            ("visitor-005", 1, 0),
            ("visitor-004", 1, 0),
            ("visitor-003", 3, 0),
            ("visitor-002", 2, 0),
            ("visitor-001", 4, 1),
        ]
        .map(|(key, touchpoints, conversions)| (key, touchpoints, conversions, start(key)));
        assert_eq!(listed, expected, "{name}");
        assert_eq!((all.summary.total_journeys, all.summary.conversion_rate), (5, 20.0), "{name}");
        let converted =
            events.customer_journeys(&sites[..1], range, &Filters::none(), JourneyFilter::Converted, now).unwrap();
        let keys: Vec<&str> = converted.journeys.iter().map(|j| j.session_id.as_str()).collect();
        assert_eq!(keys, ["visitor-001"], "{name}");
        // One step a touchpoint: the purchase on /c too.
        let steps: Vec<&str> = converted.journeys[0].steps.iter().map(|s| s.page.as_str()).collect();
        assert_eq!(steps, ["/a", "/b", "/c", "/c"], "{name}");
        let both = events.customer_journeys(&sites, range, &Filters::none(), JourneyFilter::All, now).unwrap();
        assert_eq!((both.journeys.len(), both.journeys[0].website_id), (6, sites[1]), "{name}");
    }
}

#[test]
fn funnels_count_the_visits_reaching_each_step_in_order_and_list_those_that_dropped_on_each_engine() {
    let now = now_ms();
    for engine in engines() {
        let (events, name) = (&engine.events, engine.name);
        let sites = engine.with_more_sites(1);
        let hits = seeded(&engine, &sites, now);
        let (site, range) = (sites[0], TimeRange::parse("24h", now).unwrap());

        // Stored funnels (their ids key what SQLite keeps of their counts), as (url, event name) steps.
        let defined: [&[(&str, Option<&str>)]; 4] = [
            &[("/a", None), ("/b", None), ("/c", None)],
            &[("/a", None), ("*", Some("purchase"))],
            // Order matters: no visit views /a after /b.
            &[("/b", None), ("/a", None)],
            &[("*", None), ("/c/", None)],
        ];
        let stored = Funnels::new(engine.meta.clone(), engine.events.clone(), Websites::new(engine.meta.clone()));
        let funnels: Vec<(i64, Vec<StepPattern>)> = defined
            .iter()
            .map(|steps| {
                let id = stored.create(engine.owner, funnel_input(site, steps)).unwrap();
                let patterns = steps
                    .iter()
                    .map(|(url, event)| StepPattern { url: url.to_string(), event_name: event.map(str::to_string) })
                    .collect();
                (id, patterns)
            })
            .collect();
        let counts = events.funnel_counts(site, &funnels, range, &Filters::none()).unwrap();
        assert_eq!(counts, [vec![4, 3, 1], vec![4, 1], vec![4, 0], vec![5, 1]], "{name}");

        // Visit 5 stopped at /a; visits 3 and 2 (newest first) at /b.
        let dropped = |visitor: u8, page_views: i64, duration: i64, exit: &str| {
            let key = format!("visitor-{visitor:03}");
            let started_at = hits.iter().find(|h| h.session_key == key).unwrap().ts;
            let exit_page = exit.to_string();
            let (country, device) = ("DE".to_string(), "desktop".to_string());
            DropOffVisit {
                id: 0,
                session_id: key,
                started_at,
                duration,
                page_views,
                exit_page,
                country,
                device,
                replay_id: None,
            }
        };
        let steps = &funnels[0].1;
        let without_ids = |mut found: Vec<Vec<DropOffVisit>>| {
            found.iter_mut().flatten().for_each(|v| v.id = 0);
            found
        };
        let found = events.funnel_drop_offs(site, steps, range, &Filters::none(), 10, &[1, 2]).unwrap();
        let expected = vec![vec![dropped(5, 1, 0, "/a")], vec![dropped(3, 3, 40, "/b"), dropped(2, 2, 20, "/b")]];
        assert_eq!(without_ids(found), expected, "{name}");
        let newest = events.funnel_drop_offs(site, steps, range, &Filters::none(), 1, &[1, 2]).unwrap();
        assert_eq!(without_ids(newest), [vec![dropped(5, 1, 0, "/a")], vec![dropped(3, 3, 40, "/b")]], "{name}");
    }
}

/// Funnels over a day of random visits, as the Funnels screen reads them through each engine: every funnel's
/// figures and drop-off visits, with what each engine numbers itself (ids, creation times, the site's name, a
/// replaced visit's id in its key) set aside.
fn funnel_answers(engine: &Engine, now: Millis) -> Vec<(String, String)> {
    let site = engine.site;
    let hits = seeded_hits(site, now);
    engine.store(hits);
    let stored = Funnels::new(engine.meta.clone(), engine.events.clone(), Websites::new(engine.meta.clone()));
    let funnels: &[&[(&str, Option<&str>)]] = &[
        &[("/p1", None), ("/p2", None), ("/p3", None)],
        // One hit reaches one step at most: a visit needs three views of /p1.
        &[("/p1", None), ("/p1/", None), ("p1", None)],
        &[("*", None), ("*", Some("signup")), ("/p*", Some("purchase"))],
        &[("/p*", None), ("*", Some("Sign Up")), ("/p[1]", None), ("https://x.example.com/p4?y=1", None)],
        &[("/p0", None), ("/p1", None), ("/p2", None), ("/p3", None), ("/p4", None), ("/p5", None), ("/p6", None)],
        // The most steps (ClickHouse once refused 13: "AST is too big"); a visit reaches one per page view.
        &[("/p*", None); crate::store::funnels::MAX_STEPS],
    ];
    let ids: Vec<i64> =
        funnels.iter().map(|steps| stored.create(engine.owner, funnel_input(site, steps)).unwrap()).collect();
    let mut answers = Vec::new();
    let mut reached_late_steps = false;
    for period in ["24h", "7d", "30d", "90d"] {
        let range = TimeRange::parse(period, now).unwrap();
        let listed: Vec<Funnel> = stored
            .list(engine.owner, Some(site), range, &Filters::none())
            .unwrap()
            .into_iter()
            .map(comparable_funnel)
            .collect();
        reached_late_steps |= listed.iter().all(|f| f.steps[1].visitors > 0 && f.total_visitors > 20);
        answers.push((format!("funnels {period}"), format!("{listed:?}")));
        for &id in &ids {
            for limit in [1, 100] {
                let mut drop_offs = stored.drop_offs(engine.owner, id, range, &Filters::none(), limit).unwrap();
                assert!(drop_offs.steps.iter().any(|s| !s.visits.is_empty()), "{drop_offs:?}");
                drop_offs.funnel_id = 0;
                for visit in drop_offs.steps.iter_mut().flat_map(|s| s.visits.iter_mut()) {
                    visit.id = 0;
                    visit.session_id = without_visit_id(&visit.session_id);
                }
                answers.push((format!("drop-offs {period} limit {limit}"), format!("{drop_offs:?}")));
            }
        }
    }
    assert!(reached_late_steps, "the seeded hits reach the second step of every funnel");
    answers
}

/// Where the figures are not easy to state: every funnel's figures and drop-offs on a day of random visits
/// answer as SQLite's on each engine.
#[test]
fn funnels_answer_as_sqlites_on_a_day_of_random_visits() {
    let now = now_ms();
    let answers: Vec<(&str, Vec<(String, String)>)> =
        engines().iter().map(|engine| (engine.name, funnel_answers(engine, now))).collect();
    let (first, expected) = &answers[0];
    for (name, got) in &answers[1..] {
        assert_eq!(got.len(), expected.len());
        for (got, expected) in got.iter().zip(expected) {
            assert_eq!(got, expected, "{name} against {first}");
        }
    }
}

/// Where the paths are not easy to state (folded repeats, paths cut, ties, conversions) on random visits: the
/// journey paths of one site, and of an account's two, answer as SQLite's.
#[test]
fn journey_paths_answer_as_sqlites_on_random_visits() {
    let now = now_ms();
    let mut answers: Vec<(&str, Vec<String>)> = Vec::new();
    for engine in engines() {
        let (events, name) = (&engine.events, engine.name);
        let sites = engine.with_more_sites(1);
        let hits = journey_hits(sites[0], now);
        let reports = scroll_reports(&hits);
        engine.store_all(hits, reports);
        let mut got = Vec::new();
        for period in ["1d", "7d", "30d", "90d"] {
            let range = TimeRange::parse(period, now).unwrap();
            let paths = events.journey_paths(&sites[..1], range, &Filters::none()).unwrap();
            assert!(paths.paths.len() == crate::analytics::journeys::TOP_PATHS, "{name}: {paths:?}");
            assert!(paths.paths.iter().any(|p| p.conversions > 0 && p.conversions < p.sessions), "{name}");
            assert!(paths.paths.windows(2).any(|w| w[0].sessions == w[1].sessions), "{name}: {paths:?}");
            // The account's second site has no visits: the paths of both are the first's.
            assert_eq!(events.journey_paths(&sites, range, &Filters::none()).unwrap(), paths, "{name} {period}");
            got.push(format!("{period}: {paths:?}"));
        }
        answers.push((name, got));
    }
    for (name, got) in &answers[1..] {
        assert_eq!(got, &answers[0].1, "{name} against {}", answers[0].0);
    }
}
