//! `IntentReads` under filters on every engine: the Advanced Analytics screen and the intent scores of the
//! visits a filter admits (every visit condition holds and, with event conditions, one of the visit's events
//! passes them all), over seven visits whose cards, segments, page conversion rates, visitors on the site now
//! and scored visits are known by construction.

use super::{Engine, Visit, engines, hits_of};
use crate::analytics::{Advanced, TimeRange};
use crate::events::Filters;
use crate::ingest::EventKind::{Conversion as Purchase, Custom, Pageview};
use crate::model::{Millis, now_ms};

const MINUTE: Millis = 60_000;
const DAY: Millis = 86_400_000;

/// Stores five finished visits of one UTC day (from 50 minutes ago, or the day before in the day's first
/// hour), five minutes apart, and two visits on the site now:
/// 1. google.com, DE, desktop: /pricing, /a 20 s later, a purchase there 10 s later;
/// 2. direct, FR, mobile: /blog/y, a signup there 10 s later;
/// 3. direct, FR, mobile: / (a bounce);
/// 4. news.example, US, tablet: /pricing, /c 15 s later;
/// 5. visitor 1 again (returning), direct, DE, desktop: /pricing, /a 10 s later;
/// 6. now: google.com, DE, desktop: /pricing, a purchase there 30 s later;
/// 7. now: direct, FR, mobile: /blog/z.
fn seeded(engine: &Engine, now: Millis) {
    let day_start = now.div_euclid(DAY) * DAY;
    let base = if now - day_start >= 60 * MINUTE { now - 50 * MINUTE } else { day_start - 120 * MINUTE };
    let base = base / 1000 * 1000;
    let live = (now - MINUTE) / 1000 * 1000;
    let visit = |visitor: u8, start, referrer_host, country, device, hits| Visit {
        visitor,
        start,
        referrer_host,
        utm_source: "",
        country,
        device,
        hits,
    };
    let at = |visitor: u8| base + visitor as Millis * 5 * MINUTE;
    let visits = [
        visit(
            1,
            at(1),
            "google.com",
            "DE",
            "desktop",
            &[(0, Pageview, "", "/pricing"), (20, Pageview, "", "/a"), (30, Purchase, "purchase", "/a")],
        ),
        visit(2, at(2), "", "FR", "mobile", &[(0, Pageview, "", "/blog/y"), (10, Custom, "signup", "/blog/y")]),
        visit(3, at(3), "", "FR", "mobile", &[(0, Pageview, "", "/")]),
        visit(4, at(4), "news.example", "US", "tablet", &[(0, Pageview, "", "/pricing"), (15, Pageview, "", "/c")]),
        visit(5, at(5), "", "DE", "desktop", &[(0, Pageview, "", "/pricing"), (10, Pageview, "", "/a")]),
        visit(
            6,
            live,
            "google.com",
            "DE",
            "desktop",
            &[(0, Pageview, "", "/pricing"), (30, Purchase, "purchase", "/pricing")],
        ),
        visit(7, live + 5_000, "", "FR", "mobile", &[(0, Pageview, "", "/blog/z")]),
    ];
    let mut hits = hits_of(engine.site, &visits);
    // Visit 5 is visitor 1's second visit of the day.
    for hit in hits.iter_mut().filter(|h| h.session_key == "visitor-005") {
        hit.visitor_seed = [1; 32];
    }
    engine.store(hits);
}

fn filters(raw: &str) -> Filters {
    Filters::parse(Some(raw)).unwrap()
}

/// The figures of an answer that are known by construction.
#[derive(Debug, PartialEq)]
struct Known {
    /// Visitors, visits analysed, conversion rate, bounce rate.
    cards: (i64, i64, f64, f64),
    /// Top pages: url, views, conversion rate.
    pages: Vec<(String, i64, f64)>,
    /// Segments with visits: name, visits, conversion rate.
    segments: Vec<(String, i64, f64)>,
    /// Active visitors, new ones, conversions.
    now: (i64, i64, i64),
}

fn known(a: &Advanced) -> Known {
    Known {
        cards: (a.total_visitors, a.intent_analyzed, a.conversion_rate, a.bounce_rate),
        pages: a.top_pages.iter().map(|p| (p.url.clone(), p.views, p.conversion_rate)).collect(),
        segments: a
            .visitor_segments
            .iter()
            .filter(|s| s.count > 0)
            .map(|s| (s.segment.clone(), s.count, s.conversion_rate))
            .collect(),
        now: (a.real_time_metrics.active_visitors, a.real_time_metrics.new_visitors, a.real_time_metrics.conversions),
    }
}

fn rows(list: &[(&str, i64, f64)]) -> Vec<(String, i64, f64)> {
    list.iter().map(|&(name, n, rate)| (name.to_string(), n, rate)).collect()
}

#[test]
fn every_engine_answers_advanced_analytics_of_the_visits_a_filter_admits() {
    let now = now_ms();
    let range = TimeRange::parse("7d", now).unwrap();
    let corpus: Vec<(&str, Known, &[&str])> = vec![
        (
            r#"[["is","visit:country",["DE"]]]"#,
            Known {
                // Visitors 1 (twice) and 6; two of three visits converted; visit 6 bounced (one page view).
                cards: (2, 3, 66.7, 33.3),
                pages: rows(&[("/pricing", 3, 66.7), ("/a", 2, 50.0)]),
                segments: rows(&[
                    ("New Visitors", 2, 100.0),
                    ("Returning Visitors", 1, 0.0),
                    ("Search", 2, 100.0),
                    ("Direct", 1, 0.0),
                    ("Desktop", 3, 66.7),
                ]),
                now: (1, 1, 1),
            },
            &["visitor-001", "visitor-005", "visitor-006"],
        ),
        (
            // Only visit 5: returning after visitor 1's first visit, which the filter does not admit.
            r#"[["is","visit:country",["DE"]],["is_not","visit:referrer",["google.com"]]]"#,
            Known {
                cards: (1, 1, 0.0, 0.0),
                pages: rows(&[("/a", 1, 0.0), ("/pricing", 1, 0.0)]),
                segments: rows(&[("Returning Visitors", 1, 0.0), ("Direct", 1, 0.0), ("Desktop", 1, 0.0)]),
                now: (0, 0, 0),
            },
            &["visitor-005"],
        ),
        (
            // An event condition: the visits that viewed a blog page, and only those pages' views.
            r#"[["contains","event:page",["/blog"]]]"#,
            Known {
                cards: (2, 2, 0.0, 100.0),
                pages: rows(&[("/blog/y", 1, 0.0), ("/blog/z", 1, 0.0)]),
                segments: rows(&[("New Visitors", 2, 0.0), ("Direct", 2, 0.0), ("Mobile", 2, 0.0)]),
                now: (1, 1, 0),
            },
            &["visitor-002", "visitor-007"],
        ),
        (
            r#"[["is_not","visit:country",["DE"]]]"#,
            Known {
                cards: (4, 4, 0.0, 75.0),
                pages: rows(&[
                    ("/", 1, 0.0),
                    ("/blog/y", 1, 0.0),
                    ("/blog/z", 1, 0.0),
                    ("/c", 1, 0.0),
                    ("/pricing", 1, 0.0),
                ]),
                segments: rows(&[
                    ("New Visitors", 4, 0.0),
                    ("Direct", 3, 0.0),
                    ("Referral", 1, 0.0),
                    ("Mobile", 3, 0.0),
                    ("Tablet", 1, 0.0),
                ]),
                now: (1, 1, 0),
            },
            &["visitor-002", "visitor-003", "visitor-004", "visitor-007"],
        ),
        (
            r#"[["is","visit:city",["Nowhere"]]]"#,
            Known { cards: (0, 0, 0.0, 0.0), pages: Vec::new(), segments: Vec::new(), now: (0, 0, 0) },
            &[],
        ),
    ];
    let mut answers: Vec<(&str, Vec<serde_json::Value>)> = Vec::new();
    for engine in engines() {
        seeded(&engine, now);
        let (events, site, name) = (&engine.events, engine.site, engine.name);
        let all = events.advanced(site, range, &Filters::none()).unwrap();
        assert_eq!((all.total_visitors, all.intent_analyzed, all.conversion_rate), (6, 7, 28.6), "{name}: {all:?}");
        assert_eq!(known(&all).now, (2, 2, 1), "{name}");
        let mut got = Vec::new();
        for (raw, expected, scored) in &corpus {
            let advanced = events.advanced(site, range, &filters(raw)).unwrap();
            assert_eq!(&known(&advanced), expected, "{name}: {raw}");
            let intent = events.ai_intent(site, range, &filters(raw), false).unwrap();
            assert_eq!(intent.summary.total_analyzed, scored.len() as i64, "{name}: {raw}");
            // SQLite sends a retired key as `key~id`.
            let mut listed: Vec<&str> =
                intent.top_intent_sessions.iter().map(|s| s.session_id.split('~').next().unwrap()).collect();
            listed.sort_unstable();
            assert_eq!(listed, *scored, "{name}: {raw}");
            got.push(serde_json::json!([advanced.high_intent_visitors, intent.summary, intent.patterns]));
        }
        answers.push((name, got));
    }
    // The scores are the model's: each engine's (fitted on the same visits) as SQLite's.
    let (_, sqlite) = &answers[0];
    for (name, got) in &answers[1..] {
        assert_eq!(got, sqlite, "{name} scores as sqlite");
    }
}
