//! The reads of whole visits under filters on every engine: funnels (counts and drop-offs), journey paths and
//! customer journeys of the visits a filter admits, over the four visits of `filters::seeded`, whose every
//! answer is known by construction.

use super::filters::seeded;
use super::{Engine, engines};
use crate::analytics::TimeRange;
use crate::analytics::funnels::StepPattern;
use crate::analytics::journeys::JourneyFilter;
use crate::cluster::seeded::funnel_input;
use crate::events::Filters;
use crate::model::now_ms;
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
