//! The reads of whole visits under filters on every engine: funnels (counts and drop-offs), journey paths and
//! customer journeys of the visits a filter admits, over the four visits of `filters::seeded`, and the visitor
//! stream of the active visits a filter admits; every answer known by construction.

use super::filters::seeded;
use super::{Engine, Visit, engines, hits_of};
use crate::analytics::TimeRange;
use crate::analytics::funnels::StepPattern;
use crate::analytics::journeys::JourneyFilter;
use crate::cluster::seeded::funnel_input;
use crate::events::Filters;
use crate::ingest::EventKind::{Custom, Pageview};
use crate::model::{Millis, now_ms};
use crate::store::funnels::Funnels;
use crate::store::websites::Websites;

fn filters(raw: &str) -> Filters {
    Filters::parse(Some(raw)).unwrap()
}

fn step(url: &str, event: Option<&str>) -> StepPattern {
    StepPattern { url: url.to_string(), event_name: event.map(str::to_string) }
}

/// Funnels /a then /c, and any page then a signup (at any page), stored on the engine's site (their ids key
/// what SQLite keeps of their unfiltered counts).
fn funnels(engine: &Engine) -> Vec<(i64, Vec<StepPattern>)> {
    let defined: [&[(&str, Option<&str>)]; 2] = [&[("/a", None), ("/c", None)], &[("*", None), ("*", Some("signup"))]];
    let stored = Funnels::new(engine.meta.clone(), engine.events.clone(), Websites::new(engine.meta.clone()));
    defined
        .iter()
        .map(|steps| {
            let id = stored.create(engine.owner, funnel_input(engine.site, steps)).unwrap();
            (id, steps.iter().map(|(url, event)| step(url, *event)).collect())
        })
        .collect()
}

#[test]
fn every_engine_counts_funnels_of_the_visits_a_filter_admits() {
    let now = now_ms();
    let range = TimeRange::parse("7d", now).unwrap();
    // Each filter with the visits reaching each step of each funnel.
    let corpus: &[(&str, [[u64; 2]; 2])] = &[
        ("[]", [[2, 1], [4, 2]]),
        (r#"[["is","visit:country",["US"]]]"#, [[1, 1], [1, 1]]),
        (r#"[["is","visit:country",["DE"]]]"#, [[1, 0], [1, 0]]),
        (r#"[["is","visit:country",["FR"]]]"#, [[0, 0], [2, 1]]),
        (r#"[["is","event:name",["signup"]]]"#, [[1, 1], [2, 2]]),
        (r#"[["contains","event:page",["/blog"]]]"#, [[1, 0], [2, 1]]),
        (r#"[["is","visit:referrer",["google.com"]]]"#, [[1, 0], [1, 0]]),
        (r#"[["is_not","visit:device",["mobile"]],["is","event:props:plan",["free"]]]"#, [[1, 1], [1, 1]]),
        (r#"[["is","visit:city",["Nowhere"]]]"#, [[0, 0], [0, 0]]),
    ];
    for engine in engines() {
        seeded(&engine, now);
        let (events, funnels) = (&*engine.events, funnels(&engine));
        for (raw, expected) in corpus {
            let counts = events.funnel_counts(engine.site, &funnels, range, &filters(raw)).unwrap();
            assert_eq!(counts, expected.map(Vec::from), "{}: {raw}", engine.name);
        }
        // Reached /a and not /c: visit 1 (DE); none of the US visits.
        let steps = &funnels[0].1;
        let dropped = |raw: &str| -> Vec<Vec<String>> {
            let found = events.funnel_drop_offs(engine.site, steps, range, &filters(raw), 10, &[1]).unwrap();
            found.into_iter().map(|step| step.into_iter().map(|v| v.session_id).collect()).collect()
        };
        assert_eq!(dropped(r#"[["is","visit:country",["DE"]]]"#), [["visitor-001"]], "{}", engine.name);
        assert_eq!(dropped(r#"[["is","visit:country",["US"]]]"#), [Vec::<String>::new()], "{}", engine.name);
    }
}

#[test]
fn every_engine_answers_journeys_of_the_visits_a_filter_admits() {
    let now = now_ms();
    let range = TimeRange::parse("7d", now).unwrap();
    // Each filter with its paths (pages, visits, converted visits) and every visit's path counted.
    type Paths = &'static [(&'static [&'static str], u64, u64)];
    let corpus: &[(&str, Paths, u64)] = &[
        ("[]", &[(&["/"], 1, 0), (&["/a", "/blog/x"], 1, 1), (&["/a", "/c"], 1, 0), (&["/blog/y"], 1, 0)], 4),
        (r#"[["is","visit:country",["FR"]]]"#, &[(&["/"], 1, 0), (&["/blog/y"], 1, 0)], 2),
        (r#"[["is","visit:entry_page",["/a"]]]"#, &[(&["/a", "/blog/x"], 1, 1), (&["/a", "/c"], 1, 0)], 2),
        (r#"[["is","event:goal",["purchase"]]]"#, &[(&["/a", "/blog/x"], 1, 1)], 1),
        (r#"[["is","visit:city",["Nowhere"]]]"#, &[], 0),
    ];
    for engine in engines() {
        seeded(&engine, now);
        let (events, site, name) = (&*engine.events, engine.site, engine.name);
        for (raw, expected, total) in corpus {
            let answer = events.journey_paths(&[site], range, &filters(raw)).unwrap();
            let paths: Vec<(Vec<String>, u64, u64)> =
                answer.paths.into_iter().map(|p| (p.pages, p.sessions, p.conversions)).collect();
            let expected: Vec<(Vec<String>, u64, u64)> =
                expected.iter().map(|(p, s, c)| (p.iter().map(|p| p.to_string()).collect(), *s, *c)).collect();
            assert_eq!((paths, answer.total_sessions), (expected, *total), "{name}: {raw}");

            let journeys = events.customer_journeys(&[site], range, &filters(raw), JourneyFilter::All, now).unwrap();
            let listed: Vec<String> = journeys.journeys.iter().map(|j| j.session_id.clone()).collect();
            assert_eq!(journeys.summary.total_journeys, *total, "{name}: {raw}");
            assert_eq!(listed.len() as u64, *total, "{name}: {raw}: {listed:?}");
        }
        let french = events.customer_journeys(
            &[site],
            range,
            &filters(r#"[["is","visit:country",["FR"]]]"#),
            JourneyFilter::All,
            now,
        );
        let listed: Vec<String> = french.unwrap().journeys.into_iter().map(|j| j.session_id).collect();
        assert_eq!(listed, ["visitor-003", "visitor-002"], "{name}");
    }
}

#[test]
fn every_engine_streams_the_active_visits_a_filter_admits() {
    let now = now_ms();
    // Three visits of the last four minutes, 20 s apart: 1. google.com, DE: /a, /b;  2. FR: /a;
    // 3. FR: /c and a signup there.
    let base = (now - 4 * 60_000) / 1000 * 1000;
    let visit = |visitor: u8, referrer_host, country, hits| Visit {
        visitor,
        start: base + visitor as Millis * 20_000,
        referrer_host,
        utm_source: "",
        country,
        device: "desktop",
        hits,
    };
    let visits = [
        visit(1, "google.com", "DE", &[(0, Pageview, "", "/a"), (10, Pageview, "", "/b")]),
        visit(2, "", "FR", &[(0, Pageview, "", "/a")]),
        visit(3, "", "FR", &[(0, Pageview, "", "/c"), (5, Custom, "signup", "/c")]),
    ];
    // Today's figures count visits begun today: not asserted in the minutes after midnight.
    let whole_day = now.rem_euclid(86_400_000) > 10 * 60_000;
    for engine in engines() {
        engine.store(hits_of(engine.site, &visits));
        let (events, site, name) = (&*engine.events, engine.site, engine.name);
        // Each filter with its active visits (newest first), their pages, and today's visitors.
        type Live = (&'static str, &'static [u8], &'static [(&'static str, i64)], i64);
        let corpus: &[Live] = &[
            ("[]", &[3, 2, 1], &[("/a", 1), ("/b", 1), ("/c", 1)], 3),
            (r#"[["is","visit:country",["FR"]]]"#, &[3, 2], &[("/a", 1), ("/c", 1)], 2),
            (r#"[["is","event:name",["signup"]]]"#, &[3], &[("/c", 1)], 1),
            (r#"[["is","visit:entry_page",["/a"]]]"#, &[2, 1], &[("/a", 1), ("/b", 1)], 2),
            (r#"[["is","visit:city",["Nowhere"]]]"#, &[], &[], 0),
        ];
        for (raw, listed, pages, visitors) in corpus {
            let live = events.live_visitors_where(&[site], &filters(raw)).unwrap();
            // A visit by its start (each visitor's hits end in its own millisecond).
            let started: Vec<Millis> = live.recent_sessions.iter().map(|s| s.first_seen).collect();
            let expected: Vec<Millis> = listed.iter().map(|&v| base + v as Millis * 20_001).collect();
            assert_eq!(started, expected, "{name}: {raw}");
            assert_eq!(live.total_active_visitors, listed.len() as i64, "{name}: {raw}");
            assert_eq!(live.recent_sessions.len(), listed.len(), "{name}: {raw}");
            let shown: Vec<(String, i64)> = live.top_pages.iter().map(|p| (p.page.clone(), p.visitors)).collect();
            let expected: Vec<(String, i64)> = pages.iter().map(|(p, n)| (p.to_string(), *n)).collect();
            assert_eq!(shown, expected, "{name}: {raw}");
            if whole_day {
                assert_eq!(live.new_visitors_today, *visitors, "{name}: {raw}");
                assert_eq!(live.conversions_today, 0, "{name}: {raw}");
            }
        }
    }
}
