//! `TrafficReads` on every engine: six visits whose every figure is known (three from google.com, two direct,
//! one tagged by a newsletter; eight page views, six of /a; one purchase, one signup), each read asserted
//! against them.

use super::{Engine, Visit, engines, hits_of};
use crate::analytics::{
    Conversion, CountryCount, Dimension, DimensionCount, EventCount, PageViews, SiteMetric, SitePeriods, TimeRange,
    TrafficSource,
};
use crate::cluster::seeded::{seeded_hits, without_visit_id};
use crate::cluster::testing::scroll_reports;
use crate::ingest::EventKind::{Conversion as Purchase, Custom, Pageview};
use crate::ingest::Hit;
use crate::model::{Millis, now_ms};
use crate::store::event_definitions::{EventDefinitions, NewEventDefinition};

const MINUTE: Millis = 60_000;
const HOUR: Millis = 60 * MINUTE;
const DAY: Millis = 24 * HOUR;

/// The six visits, the first five from `base` on, a minute or two apart, the newsletter's two minutes ago
/// (the one active visit):
/// 1. google.com, DE: /a, then /b a minute later;  2. and 3. google.com, DE: /a (bounces);
/// 4. direct, US: /a twice, 30 s apart;  5. direct, US: /c, a purchase of 10 EUR 20 s later (a bounce);
/// 6. t.co with utm_source=newsletter, no country, on a phone: /a, a signup 15 s later (a bounce).
fn seeded(engine: &Engine, now: Millis) -> (Vec<Hit>, Millis) {
    let base = (now - 40 * MINUTE) / 1000 * 1000;
    let google = |visitor: u8, start: Millis, hits| Visit {
        visitor,
        start,
        referrer_host: "google.com",
        utm_source: "",
        country: "DE",
        device: "desktop",
        hits,
    };
    let direct = |visitor: u8, start: Millis, hits| Visit {
        visitor,
        start,
        referrer_host: "",
        utm_source: "",
        country: "US",
        device: "desktop",
        hits,
    };
    let visits = [
        google(1, base, &[(0, Pageview, "", "/a"), (60, Pageview, "", "/b")]),
        google(2, base + 2 * MINUTE, &[(0, Pageview, "", "/a")]),
        google(3, base + 4 * MINUTE, &[(0, Pageview, "", "/a")]),
        direct(4, base + 6 * MINUTE, &[(0, Pageview, "", "/a"), (30, Pageview, "", "/a")]),
        direct(5, base + 8 * MINUTE, &[(0, Pageview, "", "/c"), (20, Purchase, "purchase", "/c")]),
        Visit {
            visitor: 6,
            start: (now - 2 * MINUTE) / 1000 * 1000,
            referrer_host: "t.co",
            utm_source: "newsletter",
            country: "",
            device: "mobile",
            hits: &[(0, Pageview, "", "/a"), (15, Custom, "signup", "/a")],
        },
    ];
    let hits = hits_of(engine.site, &visits);
    engine.store(hits.clone());
    (hits, base)
}

fn counts(pairs: &[(&str, i64)]) -> Vec<DimensionCount> {
    pairs.iter().map(|&(value, count)| DimensionCount { value: value.into(), count }).collect()
}

#[test]
fn totals_overview_and_timeseries_count_the_seeded_visits_on_each_engine() {
    let now = now_ms();
    for engine in engines() {
        let (events, site, name) = (&engine.events, engine.site, engine.name);
        seeded(&engine, now);
        for period in ["24h", "7d"] {
            let range = TimeRange::parse(period, now).unwrap();
            let totals = events.totals(site, range).unwrap();
            assert_eq!(
                (totals.pageviews, totals.visits, totals.visitors, totals.conversions, totals.bounces),
                (8, 6, 6, 1, 4),
                "{name} {period}: {totals:?}"
            );
            // Visits 1, 4, 5 and 6 last 60, 30, 20 and 15 seconds; the signup is an event (the purchase a
            // conversion).
            assert_eq!((totals.duration_s, totals.events), (125, 1), "{name} {period}: {totals:?}");

            let overview = events.overview(site, range).unwrap();
            let m = &overview.metrics;
            assert_eq!((m.total_visitors, m.page_views, m.conversions), (6, 8, 1), "{name} {period}");
            assert_eq!((m.bounce_rate, m.avg_session_duration, m.active_sessions), (66.7, 20.8, 1), "{name}");
            let p = &overview.previous;
            assert_eq!((p.total_visitors, p.page_views, p.conversions), (0, 0, 0), "{name} {period}");
            let pages = [("/a", 6), ("/b", 1), ("/c", 1)].map(|(url, views)| PageViews { url: url.into(), views });
            assert_eq!(overview.top_pages, pages, "{name} {period}");
            assert_eq!(overview.imported, None, "{name} {period}");

            let points = events.timeseries(site, range).unwrap().points;
            assert_eq!(points.len(), if period == "24h" { 24 } else { 7 }, "{name} {period}");
            let summed = points.iter().fold((0, 0), |(v, p), point| (v + point.visitors, p + point.page_views));
            assert_eq!(summed, (6, 8), "{name} {period}: {points:?}");
        }
        // Another site's figures are its own (none).
        let range = TimeRange::parse("7d", now).unwrap();
        assert_eq!(events.totals(site + 1, range).unwrap(), Default::default(), "{name}");
    }
}

#[test]
fn breakdowns_referrers_sources_and_countries_count_visits_by_their_first_hit_on_each_engine() {
    let now = now_ms();
    for engine in engines() {
        let (events, site, name) = (&engine.events, engine.site, engine.name);
        seeded(&engine, now);
        let range = TimeRange::parse("24h", now).unwrap();
        let referrers = events.referrers(site, range).unwrap();
        let referrers: Vec<(&str, i64)> = referrers.iter().map(|r| (r.referrer.as_str(), r.count)).collect();
        assert_eq!(referrers, [("google.com", 3), ("", 2), ("t.co", 1)], "{name}");
        let sources = events.traffic_sources(site, range).unwrap();
        let expected = [("Google", 3, 50.0), ("Direct", 2, 33.3), ("newsletter", 1, 16.7)]
            .map(|(source, visits, percentage)| TrafficSource { source: source.into(), visits, percentage });
        assert_eq!(sources, expected, "{name}");
        let countries = [("DE", 3), ("US", 2), ("", 1)].map(|(c, count)| CountryCount { country: c.into(), count });
        assert_eq!(events.countries(site, range).unwrap(), countries, "{name}");

        let expected = |dim: Dimension| match dim {
            // Page views for pages, visits for the rest; ties by value.
            Dimension::Page => counts(&[("/a", 6), ("/b", 1), ("/c", 1)]),
            Dimension::Referrer => counts(&[("google.com", 3), ("", 2), ("t.co", 1)]),
            Dimension::Country => counts(&[("DE", 3), ("US", 2), ("", 1)]),
            Dimension::Device => counts(&[("desktop", 5), ("mobile", 1)]),
            Dimension::Browser => counts(&[("Firefox", 6)]),
            Dimension::Os => counts(&[("Linux", 6)]),
            Dimension::UtmSource => counts(&[("", 5), ("newsletter", 1)]),
            Dimension::Source => counts(&[("Google", 3), ("", 2), ("newsletter", 1)]),
        };
        for dim in Dimension::ALL {
            let all = expected(dim);
            assert_eq!(events.breakdown(site, range, dim, 100).unwrap(), all, "{name} {}", dim.as_str());
            assert_eq!(events.breakdown(site, range, dim, 1).unwrap(), all[..1], "{name} {}", dim.as_str());
        }
        assert!(events.referrers(site + 1, range).unwrap().is_empty(), "{name}");
    }
}

#[test]
fn conversions_and_events_count_the_purchase_and_the_signup_on_each_engine() {
    let now = now_ms();
    for engine in engines() {
        let (events, site, name) = (&engine.events, engine.site, engine.name);
        let (hits, _) = seeded(&engine, now);
        let definition = |name: &str| NewEventDefinition {
            name: Some(name.into()),
            display_name: Some(name.into()),
            ..Default::default()
        };
        let defined = EventDefinitions::new(engine.meta.clone()).create(site, definition("signup")).unwrap();
        let unused = EventDefinitions::new(engine.meta.clone()).create(site, definition("unused")).unwrap();
        let purchase = hits.iter().find(|h| h.kind == Some(Purchase)).unwrap();
        for period in ["24h", "7d"] {
            let range = TimeRange::parse(period, now).unwrap();
            let mut conversions = events.conversions(site, range).unwrap();
            conversions.conversions.iter_mut().for_each(|c| c.id = 0);
            let expected = Conversion {
                id: 0,
                goal_name: "purchase".into(),
                value: Some(10.0),
                currency: Some("EUR".into()),
                timestamp: purchase.ts,
            };
            assert_eq!((conversions.conversions, conversions.conversion_rate), (vec![expected], 16.7), "{name}");

            let summary = events.events_summary(site, range).unwrap();
            let expected = [("purchase", 1), ("signup", 1)].map(|(n, count)| EventCount { name: n.into(), count });
            assert_eq!(summary.top_events, expected, "{name} {period}");
            assert_eq!((summary.total_events, summary.unique_events, summary.conversion_events), (2, 2, 1), "{name}");
            let triggers: Vec<(i64, i64)> = summary.definition_triggers.iter().map(|d| (d.id, d.count)).collect();
            assert_eq!(triggers, [(defined.id, 1), (unused.id, 0)], "{name} {period}");
        }
    }
}

#[test]
fn recent_activity_page_views_in_and_top_pages_read_the_seeded_hits_on_each_engine() {
    let now = now_ms();
    for engine in engines() {
        let (events, site, name) = (&engine.events, engine.site, engine.name);
        let (hits, base) = seeded(&engine, now);
        let recent = events.recent_activity(site, 3).unwrap();
        let newest: Vec<(&str, &str, &str, Millis)> =
            recent.iter().map(|a| (a.kind.as_str(), a.name.as_str(), a.url.as_str(), a.timestamp)).collect();
        let at = |n: usize| hits[hits.len() - n].ts;
        let expected = [
            ("custom", "signup", "https://s.example.com/a", at(1)),
            ("pageview", "", "https://s.example.com/a", at(2)),
            ("conversion", "purchase", "https://s.example.com/c", at(3)),
        ];
        assert_eq!(newest, expected, "{name}");
        assert_eq!(recent[2].value, Some(10.0), "{name}");
        assert_eq!(events.recent_activity(site, 50).unwrap().len(), 10, "{name}");
        assert!(events.recent_activity(site, 0).is_err() && events.recent_activity(site, 51).is_err(), "{name}");

        // Visits 1 to 3 in the first five minutes (4 views), 4 and 5 in the next five (3), 6 in the last three.
        let windows = [(base, base + 5 * MINUTE), (base + 5 * MINUTE, base + 10 * MINUTE), (now - 3 * MINUTE, now)];
        assert_eq!(events.page_views_in(site, &windows, 0).unwrap(), [4, 3, 1], "{name}");
        assert_eq!(events.page_views_in(site, &windows, 5).unwrap()[0], 4, "{name}");
        assert_eq!(events.page_views_in(site + 1, &windows, 0).unwrap(), [0, 0, 0], "{name}");

        let top = events.top_pages(site, base, now + 1, 2).unwrap();
        assert_eq!(top, [("/a".to_string(), 6), ("/b".to_string(), 1)], "{name}");
        let later = events.top_pages(site, base + 5 * MINUTE, now + 1, 10).unwrap();
        assert_eq!(later, [("/a".to_string(), 3), ("/c".to_string(), 1)], "{name}");
    }
}

#[test]
fn site_periods_count_each_sites_hits_by_day_on_each_engine() {
    let now = now_ms();
    for engine in engines() {
        let (events, name) = (&engine.events, engine.name);
        let sites = engine.with_more_sites(1);
        let (hits, _) = seeded(&engine, now);
        // Today and yesterday in UTC days (the seed may straddle midnight).
        let today = now.div_euclid(DAY) * DAY;
        let views = |from: Millis, to: Millis| {
            hits.iter().filter(|h| h.kind == Some(Pageview) && h.ts >= from && h.ts < to).count() as i64
        };
        let expected = SitePeriods {
            website_id: sites[0],
            today: views(today, today + DAY),
            yesterday: views(today - DAY, today),
            last7_days: 8,
            last30_days: 8,
        };
        let got = events.site_periods(&sites, SiteMetric::Pageviews, now).unwrap();
        assert_eq!(got, [expected, SitePeriods::zero(sites[1])], "{name}");
        let visitors = events.site_periods(&sites[..1], SiteMetric::Visitors, now).unwrap();
        assert_eq!((visitors[0].last7_days, visitors[0].last30_days), (6, 6), "{name}: {visitors:?}");
    }
}

/// Every traffic read of `engine` on its site, as (what, answer), with what differs by engine set aside: ids,
/// the id in a replaced visit's `key~id`, the site's id, and the visits active at the moment of reading.
fn traffic_answers(engine: &Engine, now: Millis) -> Vec<(String, String)> {
    let (events, site) = (&engine.events, engine.site);
    let mut answers = Vec::new();
    for period in ["24h", "7d", "30d", "90d"] {
        let range = TimeRange::parse(period, now).unwrap();
        let totals = events.totals(site, range).unwrap();
        assert!(totals.visits > 100 && totals.bounces > 0 && totals.conversions > 0, "{period}: {totals:?}");
        answers.push((format!("totals {period}"), format!("{totals:?}")));
        let mut overview = events.overview(site, range).unwrap();
        overview.metrics.active_sessions = 0;
        answers.push((format!("overview {period}"), format!("{overview:?}")));
        answers.push((format!("timeseries {period}"), format!("{:?}", events.timeseries(site, range).unwrap())));
        let referrers = events.referrers(site, range).unwrap();
        assert!(referrers.len() >= 4, "{referrers:?}");
        answers.push((format!("referrers {period}"), format!("{referrers:?}")));
        answers.push((format!("countries {period}"), format!("{:?}", events.countries(site, range).unwrap())));
        for dim in Dimension::ALL {
            for limit in [2, 100] {
                let rows = events.breakdown(site, range, dim, limit).unwrap();
                answers.push((format!("{} {limit} {period}", dim.as_str()), format!("{rows:?}")));
            }
        }
        let sources = events.traffic_sources(site, range).unwrap();
        answers.push((format!("sources {period}"), format!("{sources:?}")));
        let mut conversions = events.conversions(site, range).unwrap();
        assert!(conversions.conversions.iter().any(|c| c.value.is_none()), "{conversions:?}");
        assert!(conversions.conversions.iter().any(|c| c.currency.is_some()), "{conversions:?}");
        conversions.conversions.iter_mut().for_each(|c| c.id = 0);
        answers.push((format!("conversions {period}"), format!("{conversions:?}")));
        let summary = events.events_summary(site, range).unwrap();
        assert!(summary.unique_events >= 5, "{summary:?}");
        answers.push((format!("events {period}"), format!("{summary:?}")));
    }
    let mut recent = events.recent_activity(site, 50).unwrap();
    for item in &mut recent {
        item.id = 0;
        item.session_id = without_visit_id(&item.session_id);
    }
    assert!(recent.iter().any(|item| item.session_id.ends_with('~')), "a replaced visit is listed");
    answers.push(("recent activity".into(), format!("{recent:?}")));
    for metric in [SiteMetric::Pageviews, SiteMetric::Visitors] {
        let mut periods = events.site_periods(&[site], metric, now).unwrap();
        periods.iter_mut().for_each(|p| p.website_id = 0);
        answers.push((format!("site periods {metric:?}"), format!("{periods:?}")));
    }
    let hours: Vec<(Millis, Millis)> = (1..=24).map(|h| (now - h * HOUR, now - (h - 1) * HOUR)).collect();
    answers.push(("page views by hour".into(), format!("{:?}", events.page_views_in(site, &hours, 0).unwrap())));
    answers.push(("top pages".into(), format!("{:?}", events.top_pages(site, now - DAY, now + 1, 5).unwrap())));
    answers
}

/// Where a value is not easy to state: a day of random visits with every edge (a visitor seen before the
/// range the same day, visits across midnight, later hits with other dimensions, visits started by an event,
/// conversions with and without values), every traffic read answering the same on each engine.
#[test]
fn every_traffic_read_answers_as_sqlites_on_a_day_of_random_visits() {
    let now = now_ms();
    let answers: Vec<(&str, Vec<(String, String)>)> = engines()
        .iter()
        .map(|engine| {
            let hits = seeded_hits(engine.site, now);
            let reports = scroll_reports(&hits);
            engine.store_all(hits, reports);
            (engine.name, traffic_answers(engine, now))
        })
        .collect();
    let (first, expected) = &answers[0];
    for (name, got) in &answers[1..] {
        assert_eq!(got.len(), expected.len());
        for (got, expected) in got.iter().zip(expected) {
            assert_eq!(got, expected, "{name} against {first}");
        }
    }
}
