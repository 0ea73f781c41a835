//! `PageData`'s heatmaps on every engine: a page with known clicks, a move and a scroll report, then every
//! page's heatmap answering as SQLite's on a day of random visits and interactions. (Recordings and the page
//! under a heatmap are in `replays.rs`.)

use super::{Engine, Visit, engines, hits_of};
use crate::analytics::TimeRange;
use crate::analytics::heatmap::{ClickCell, Position};
use crate::cluster::seeded::{seeded_bodies, seeded_hits};
use crate::ingest::EventKind::Pageview;
use crate::ingest::interactions::{Interactions, Point, PointKind};
use crate::model::{Millis, now_ms};

const MINUTE: Millis = 60_000;

/// 1. /a, then /b a minute later, with one interactions body of /a two seconds in: two clicks on #buy in one
///    10 px cell, a move and a scroll to half the page;  2. /a alone (a bounce).
fn seeded(engine: &Engine, now: Millis) {
    let base = (now - 30 * MINUTE) / 1000 * 1000;
    let visit = |visitor: u8, hits| Visit {
        visitor,
        start: base + visitor as Millis * 5 * MINUTE,
        referrer_host: "",
        utm_source: "",
        country: "DE",
        device: "desktop",
        hits,
    };
    let visits = [visit(1, &[(0, Pageview, "", "/a"), (60, Pageview, "", "/b")]), visit(2, &[(0, Pageview, "", "/a")])];
    let hits = hits_of(engine.site, &visits);
    let first = hits[0].clone();
    let ts = first.ts + 2_000;
    let point = |kind: PointKind, x: i64, y: i64| Point {
        kind,
        x,
        y,
        ts: ts - 500,
        selector: if kind == PointKind::Click { "#buy".into() } else { String::new() },
        offset: (kind == PointKind::Click).then_some((0.5, 0.5)),
    };
    let body = Interactions {
        visit: crate::ingest::Hit { ts, kind: None, ..first },
        viewport: (1280, 800),
        page: (1280, 3000),
        points: vec![
            point(PointKind::Click, 101, 202),
            point(PointKind::Click, 108, 209),
            point(PointKind::Move, 640, 1500),
        ],
        fields: Vec::new(),
        scroll_depth: Some(50),
    };
    engine.store_all(hits, vec![body]);
}

#[test]
fn a_pages_heatmap_counts_its_clicks_moves_and_visits_on_each_engine() {
    let now = now_ms();
    let mut answers = Vec::new();
    for engine in engines() {
        let (events, site, name) = (&engine.events, engine.site, engine.name);
        seeded(&engine, now);
        let mut pages = events.page_urls(site).unwrap();
        pages.sort();
        assert_eq!(pages, ["/a", "/b"], "{name}");

        let range = TimeRange::parse("24h", now).unwrap();
        let heatmap = events.heatmap(site, "/a", range).unwrap();
        assert_eq!(heatmap.clicks, [ClickCell { x: 105, y: 205, count: 2 }], "{name}");
        let on_buy: Vec<(&str, i64)> = heatmap.element_clicks.iter().map(|c| (c.selector.as_str(), c.count)).collect();
        assert_eq!(on_buy, [("#buy", 2)], "{name}");
        assert_eq!(heatmap.mouse_movements.len(), 1, "{name}: {:?}", heatmap.mouse_movements);
        let Position { x, y } = heatmap.mouse_movements[0];
        assert!((635..=645).contains(&x) && (1495..=1505).contains(&y), "{name}: {x}, {y}");
        assert_eq!((heatmap.reference_width, heatmap.reference_height), (1280, 3000), "{name}");
        let metrics = &heatmap.page_metrics;
        assert_eq!((metrics.total_visitors, metrics.bounce_rate, metrics.conversion_rate), (2, 50.0, 0.0), "{name}");
        assert!(!heatmap.scroll_depth.is_empty(), "{name}");
        // No data of /b but its view.
        let other = events.heatmap(site, "/b", range).unwrap();
        assert!(other.clicks.is_empty() && other.mouse_movements.is_empty(), "{name}: {other:?}");
        answers.push((name, format!("{heatmap:?}")));
    }
    // The rest (time on page, scroll reach) as SQLite's.
    for (name, got) in &answers[1..] {
        assert_eq!(got, &answers[0].1, "{name} against {}", answers[0].0);
    }
}

/// Where a heatmap is not easy to state: clicks with and without offsets, moves, submits, form fields left
/// filled, empty or abandoned, scroll depths raised by later reports, on a day of random visits: every page's
/// heatmap over a day and a week answers as SQLite's.
#[test]
fn every_heatmap_answers_as_sqlites_on_a_day_of_random_visits() {
    let now = now_ms();
    let mut answers: Vec<(&str, Vec<String>)> = Vec::new();
    for engine in engines() {
        let (events, site) = (&engine.events, engine.site);
        let hits = seeded_hits(site, now);
        let bodies = seeded_bodies(&hits, now);
        engine.store_all(hits, bodies);
        let mut seen = (0, 0, 0, 0, 0);
        let mut got = Vec::new();
        for period in ["24h", "7d"] {
            let range = TimeRange::parse(period, now).unwrap();
            for path in ["/p0", "/p1", "/p2", "/p3", "/p4", "/p5", "/p6", "/none"] {
                let heatmap = events.heatmap(site, path, range).unwrap();
                seen.0 += heatmap.clicks.len();
                seen.1 += heatmap.mouse_movements.len();
                seen.2 += heatmap.form_interactions.iter().filter(|f| f.drop_offs > 0 && f.completions > 0).count();
                seen.3 += heatmap.scroll_depth.len();
                seen.4 += usize::from(heatmap.page_metrics.average_time_on_page > 0.0);
                got.push(format!("{period} {path}: {heatmap:?}"));
            }
        }
        assert!(seen.0 > 50 && seen.1 > 50 && seen.2 > 0 && seen.3 > 0 && seen.4 > 0, "{seen:?}");
        got.push(format!("pages: {:?}", events.page_urls(site).unwrap()));
        answers.push((engine.name, got));
    }
    let (first, expected) = &answers[0];
    for (name, got) in &answers[1..] {
        assert_eq!(got.len(), expected.len());
        for (got, expected) in got.iter().zip(expected) {
            assert_eq!(got, expected, "{name} against {first}");
        }
    }
}
