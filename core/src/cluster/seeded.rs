//! A day of seeded visits with the edges an API test cannot place at will (a visitor seen earlier the same day
//! before the 24-hour range, visits across midnight, a visit's later hits with other dimensions than its first,
//! visits started by an event, conversions with and without values), visits for the intent model, and the
//! interactions of a day, for the cluster's tests and the events conformance suite, and the comparisons of the
//! cluster's inner reads with SQLite's on them.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::events::Events;
use crate::analytics::{Analytics, Dimension, SiteMetric, TimeRange};
use crate::ingest::enrich::Organization;
use crate::ingest::interactions::{FieldEvent, FieldKind, Interactions, Point, PointKind};
use crate::ingest::{EventKind, Hit, Utm};
use crate::model::{Millis, WebsiteId};
use crate::store::funnels::{Funnel, FunnelInput, StepInput};

const HOUR: Millis = 3_600_000;
const DAY: Millis = 24 * HOUR;
const MINUTE: Millis = 60_000;

/// Picks one of `values`.
fn one<'a>(rng: &mut StdRng, values: &[&'a str]) -> &'a str {
    values[rng.random_range(0..values.len())]
}

/// 90 visitors over the last 24 hours, 1 to 3 visits each (over 30 minutes apart), 1 to 6 hits a visit. Each
/// visitor's times end in its own millisecond, so no two hits share a time (their order is then the same on
/// both engines). Visitor 200 visits just before the 24-hour range begins and again 40 minutes later, the
/// same UTC day when the clock allows.
pub(crate) fn seeded_hits(site: WebsiteId, now: Millis) -> Vec<Hit> {
    let mut rng = StdRng::seed_from_u64(1818);
    let oldest = now - DAY + 10_000;
    let mut hits = Vec::new();
    let visit = |rng: &mut StdRng, visitor: u8, mut ts: Millis, hits: &mut Vec<Hit>| -> Millis {
        let referrer_host = one(rng, &["", "", "google.com", "t.co", "news.ycombinator.com"]);
        let utm_source = one(rng, &["", "", "", "newsletter", "twitter"]);
        let (country, device, browser, os) = (
            one(rng, &["DE", "GB", "US", "", "FR"]),
            one(rng, &["desktop", "mobile", "tablet"]),
            one(rng, &["Chrome", "Firefox", "Safari"]),
            one(rng, &["Windows", "macOS", "Android", "iOS"]),
        );
        for n in 0..rng.random_range(1..=6) {
            let kind = match rng.random_range(0..20) {
                0..=11 => EventKind::Pageview,
                12..=14 => EventKind::Custom,
                15 => EventKind::Outbound,
                16 => EventKind::Download,
                _ => EventKind::Conversion,
            };
            let name = match kind {
                EventKind::Custom => one(rng, &["play", "signup", "", "Sign Up"]),
                EventKind::Conversion => one(rng, &["purchase", "trial"]),
                _ => "",
            };
            let (value, currency) = match (kind, rng.random_range(0..3)) {
                (EventKind::Conversion, 0) => (None, None),
                (EventKind::Conversion, 1) => (Some(rng.random_range(5..200) as f64 + 0.25), Some("EUR".to_string())),
                (EventKind::Conversion, _) => (Some(rng.random_range(5..200) as f64), None),
                _ => (None, None),
            };
            let path = format!("/p{}", rng.random_range(0..7));
            let first = n == 0;
            hits.push(Hit {
                website_id: site,
                session_key: format!("visitor-{visitor:03}"),
                ts,
                kind: Some(kind),
                name: name.into(),
                url: format!("https://s.example.com{path}"),
                path,
                // A visit counts under its first hit's values; its later hits carry others.
                referrer_host: if first { referrer_host.into() } else { "s.example.com".into() },
                utm: Utm { source: if first { utm_source.into() } else { String::new() }, ..Utm::default() },
                value,
                currency,
                country: country.into(),
                device: if first { device.into() } else { "tv".into() },
                browser: browser.into(),
                os: os.into(),
                visitor_seed: [visitor; 32],
                ..Hit::default()
            });
            ts += rng.random_range(5..400) * 1000;
        }
        ts
    };
    for visitor in 0..90u8 {
        let mut ts = (oldest + rng.random_range(0..23 * 3_600) * 1000) / 1000 * 1000 + visitor as i64;
        for _ in 0..rng.random_range(1..=3) {
            if ts > now - 60_000 {
                break;
            }
            ts = visit(&mut rng, visitor, ts, &mut hits) + rng.random_range(31 * 60..240 * 60) * 1000;
        }
    }
    let day_start = TimeRange::parse("24h", now).unwrap().start;
    let early = (oldest.max(day_start - 60_000)) / 1000 * 1000 + 200;
    visit(&mut rng, 200, early, &mut hits);
    visit(&mut rng, 200, early + 40 * 60_000, &mut hits);
    hits.retain(|h| h.ts <= now);
    hits.sort_by_key(|h| h.ts);
    hits
}

/// `key~id` (a visit a later one replaced) as `key~`: the id is each engine's own.
pub(crate) fn without_visit_id(session_id: &str) -> String {
    match session_id.split_once('~') {
        Some((key, _)) => format!("{key}~"),
        None => session_id.to_string(),
    }
}

/// Asserts that every read moved to ClickHouse answers as SQLite's on a site holding `seeded_hits`.
pub(crate) fn assert_every_read_equal(sqlite: &Analytics, events: &Events, site: WebsiteId, now: Millis) {
    assert_every_read_equal_in(sqlite, events, site, chrono_tz::Tz::UTC, now);
}

/// `assert_every_read_equal` of a site whose timezone is `tz` on both engines, over ranges of its local days.
pub(crate) fn assert_every_read_equal_in(
    sqlite: &Analytics,
    events: &Events,
    site: WebsiteId,
    tz: chrono_tz::Tz,
    now: Millis,
) {
    for name in ["24h", "7d", "30d", "90d"] {
        let range = TimeRange::parse_in(name, now, tz).unwrap();
        let totals = sqlite.totals(site, range).unwrap();
        assert!(totals.visits > 100 && totals.bounces > 0 && totals.conversions > 0, "{name}: {totals:?}");
        assert_eq!(events.totals(site, range).unwrap(), totals, "totals {name}");
        assert_eq!(events.timeseries(site, range).unwrap(), sqlite.timeseries(site, range).unwrap(), "{name}");
        let referrers = sqlite.referrers(site, range).unwrap();
        assert!(referrers.len() >= 4, "{referrers:?}");
        assert_eq!(events.referrers(site, range).unwrap(), referrers, "referrers {name}");
        assert_eq!(events.countries(site, range).unwrap(), sqlite.countries(site, range).unwrap(), "{name}");
        for dim in Dimension::ALL {
            for limit in [2, 100] {
                let expected = sqlite.breakdown(site, range, dim, limit).unwrap();
                assert_eq!(events.breakdown(site, range, dim, limit).unwrap(), expected, "{} {name}", dim.as_str());
            }
        }
        assert_eq!(events.traffic_sources(site, range).unwrap(), sqlite.traffic_sources(site, range).unwrap());
        let mut expected = sqlite.conversions(site, range).unwrap();
        let mut got = events.conversions(site, range).unwrap();
        assert!(expected.conversions.iter().any(|c| c.value.is_none()), "{expected:?}");
        assert!(expected.conversions.iter().any(|c| c.currency.is_some()), "{expected:?}");
        for c in expected.conversions.iter_mut().chain(got.conversions.iter_mut()) {
            c.id = 0;
        }
        assert_eq!(got, expected, "conversions {name}");
        let expected = sqlite.events_summary(site, range).unwrap();
        assert!(expected.unique_events >= 5, "{expected:?}");
        assert_eq!(events.events_summary(site, range, Vec::new()).unwrap(), expected, "events {name}");
    }

    let mut expected = sqlite.recent_activity(site, 50).unwrap();
    let mut got = events.recent_activity(site, 50, "").unwrap();
    for item in expected.iter_mut().chain(got.iter_mut()) {
        item.id = 0;
        item.session_id = without_visit_id(&item.session_id);
    }
    assert!(expected.iter().any(|item| item.session_id.ends_with('~')), "a replaced visit is listed");
    assert_eq!(got, expected, "recent activity");
    assert!(events.recent_activity(site, 0, "").is_err() && events.recent_activity(site, 51, "").is_err());

    for metric in [SiteMetric::Pageviews, SiteMetric::Visitors] {
        let sites = [site, site + 1000];
        assert_eq!(
            events.site_periods(&[(site, tz), (site + 1000, chrono_tz::Tz::UTC)], metric, now).unwrap(),
            sqlite.site_periods(&sites, metric, now).unwrap()
        );
    }
    assert_eq!(events.page_urls(site, tz, now).unwrap(), sqlite.page_urls(site).unwrap());
}

/// A funnel's steps as the dialog sends them: (url, event name).
pub(crate) fn funnel_input(site: WebsiteId, steps: &[(&str, Option<&str>)]) -> FunnelInput {
    FunnelInput {
        name: Some(format!("{} steps", steps.len())),
        website_id: Some(site.into()),
        steps: Some(
            steps
                .iter()
                .enumerate()
                .map(|(i, (url, event))| StepInput {
                    name: Some(format!("Step {}", i + 1)),
                    url: Some(url.to_string()),
                    event_name: event.map(str::to_string),
                })
                .collect(),
        ),
        status: None,
    }
}

/// What the two engines may differ in: ids, creation times and the site's name (each fixture's own), and a
/// replaced visit's id in its name.
pub(crate) fn comparable_funnel(mut funnel: Funnel) -> Funnel {
    (funnel.id, funnel.created_at, funnel.website.name) = (0, 0, String::new());
    funnel
}

/// After some of the page views among `hits`, one to three interactions bodies of that page a few seconds apart
/// (the scripts send one as the visitor scrolls on), none after `now`.
pub(crate) fn seeded_bodies(hits: &[Hit], now: Millis) -> Vec<Interactions> {
    let mut rng = StdRng::seed_from_u64(1_818_003);
    let mut bodies = Vec::new();
    for hit in hits {
        if hit.kind != Some(EventKind::Pageview) || rng.random_range(0..3) == 0 {
            continue;
        }
        let page = (1280 + rng.random_range(0..3) * 320, 2000 + rng.random_range(0..4) * 700);
        let mut depth = rng.random_range(0..60);
        for body in 0..rng.random_range(1..=3) {
            let ts = hit.ts + 1000 + body * 2000;
            if ts > now {
                break;
            }
            let click = |rng: &mut StdRng, n: i64| {
                let selector = ["#buy", "nav > a", "", "#hero .cta"][rng.random_range(0..4)];
                Point {
                    kind: PointKind::Click,
                    x: rng.random_range(0..page.0),
                    y: rng.random_range(0..page.1),
                    ts: ts - 900 + n,
                    selector: selector.into(),
                    offset: (rng.random_range(0..3) != 0)
                        .then(|| (rng.random_range(0..=40) as f64 / 40.0, rng.random_range(0..=8) as f64 / 8.0)),
                }
            };
            let mut points: Vec<Point> = (0..rng.random_range(0..4)).map(|n| click(&mut rng, n)).collect();
            for _ in 0..rng.random_range(0..5) {
                points.push(Point {
                    kind: PointKind::Move,
                    x: rng.random_range(0..page.0),
                    y: rng.random_range(0..page.1),
                    ts,
                    selector: String::new(),
                    offset: None,
                });
            }
            let form = ["#signup", "", "#search"][rng.random_range(0..3)];
            let mut fields = Vec::new();
            for n in 0..rng.random_range(0..4) {
                let field = ["#email", "#name", "#q"][rng.random_range(0..3)];
                let kind = [FieldKind::Focus, FieldKind::Change, FieldKind::Blur][rng.random_range(0..3)];
                let filled = rng.random_range(0..2) == 0;
                fields.push(FieldEvent { kind, form: form.into(), field: field.into(), filled, ts: ts - 500 + n });
            }
            if !form.is_empty() && rng.random_range(0..3) == 0 {
                points.push(Point {
                    kind: PointKind::Submit,
                    x: 0,
                    y: 0,
                    ts: ts - 100,
                    selector: form.into(),
                    offset: None,
                });
            }
            depth = (depth + rng.random_range(0..30)).min(100);
            let visit = Hit { ts, kind: None, name: String::new(), value: None, currency: None, ..hit.clone() };
            let scroll_depth = (rng.random_range(0..4) != 0).then_some(depth);
            bodies.push(Interactions { visit, viewport: (page.0, 900), page, points, fields, scroll_depth });
        }
    }
    bodies
}

const PAGES: [&str; 5] = ["/", "/pricing", "/docs", "/blog", "/signup"];

/// Where visits come from: (referrer host, UTM source).
const SOURCES: [(&str, &str); 5] =
    [("", ""), ("google.com", ""), ("twitter.com", ""), ("news.example.org", ""), ("", "newsletter")];

/// 160 visitors over the last 20 hours, finished an hour ago (older hits are late hits, which the cluster's
/// ingest state no longer joins to their visits), 1 or 2 visits each (the second a returning visit), 1 to 6
/// hits a visit: page views, a custom event now and then, and a conversion for about a third of the visits,
/// more often after /pricing. Each visitor's times end in its own millisecond.
pub(crate) fn intent_hits(site: WebsiteId, now: Millis) -> Vec<Hit> {
    let mut rng = StdRng::seed_from_u64(1818);
    let mut hits = Vec::new();
    for visitor in 0..160u32 {
        let mut ts = (now - 20 * 60 * MINUTE + rng.random_range(0..15 * 60) * MINUTE) / 1000 * 1000 + visitor as i64;
        for _ in 0..rng.random_range(1..=2) {
            let (referrer_host, utm_source) = SOURCES[rng.random_range(0..SOURCES.len())];
            let organization = (rng.random_range(0..4) == 0).then(|| Organization {
                asn: 64512,
                name: "Acme GmbH".into(),
                confidence: 70,
                is_isp: false,
            });
            let mut pricing = false;
            for n in 0..rng.random_range(1..=6) {
                let path = PAGES[rng.random_range(0..PAGES.len())];
                pricing |= path == "/pricing";
                let kind = if n > 0 && rng.random_range(0..5) == 0 { EventKind::Custom } else { EventKind::Pageview };
                hits.push(Hit {
                    website_id: site,
                    session_key: format!("visitor-{visitor:03}"),
                    ts,
                    kind: Some(kind),
                    name: if kind == EventKind::Custom { "signup".into() } else { String::new() },
                    url: format!("https://s.example.com{path}"),
                    path: path.into(),
                    referrer: if referrer_host.is_empty() {
                        String::new()
                    } else {
                        format!("https://{referrer_host}/")
                    },
                    referrer_host: referrer_host.into(),
                    utm: Utm { source: utm_source.into(), ..Utm::default() },
                    visitor_seed: [(visitor % 256) as u8; 32],
                    organization: organization.clone(),
                    ..Hit::default()
                });
                ts += rng.random_range(5..300) * 1000;
            }
            if rng.random_range(0..10) < if pricing { 6 } else { 2 } {
                hits.push(Hit {
                    website_id: site,
                    session_key: format!("visitor-{visitor:03}"),
                    ts,
                    kind: Some(EventKind::Conversion),
                    name: "purchase".into(),
                    url: "https://s.example.com/thanks".into(),
                    path: "/thanks".into(),
                    value: Some(10.0),
                    visitor_seed: [(visitor % 256) as u8; 32],
                    ..Hit::default()
                });
            }
            ts += rng.random_range(31..120) * MINUTE;
        }
        hits.retain(|h| h.ts < now - 60 * MINUTE);
    }
    hits.sort_by_key(|h| h.ts);
    hits
}

/// The networks visitors come from: (ASN, name).
const JOURNEY_NETWORKS: [(u32, &str); 3] = [(15169, "Google LLC"), (3320, "Deutsche Telekom AG"), (64512, "Acme GmbH")];

/// The properties of identify() calls: company, companyName, industry, numbers, booleans, empty values and
/// none at all.
const TRAITS: [Option<&str>; 9] = [
    Some(r#"{"company":"Acme","industry":"Retail"}"#),
    Some(r#"{"companyName":"Beta Ltd","industry":"Finance"}"#),
    Some(r#"{"company":"","companyName":"Gamma","email":"g@example.com"}"#),
    Some(r#"{"company":42,"industry":7.5}"#),
    Some(r#"{"company":true}"#),
    Some(r#"{"email":"nobody@example.com"}"#),
    Some(r#"{"company":null,"industry":"Media"}"#),
    Some(r#"{"company":"Delta","industry":""}"#),
    None,
];

/// 70 visitors over the last 20 hours (older hits would be late hits, which the cluster no longer joins to
/// their visits), 1 to 3 visits each (over 30 minutes apart), 1 to 8 hits a visit: page views of several
/// pages, custom events, outbound links, downloads, conversions with and without a value, identify() calls
/// (some visits twice, the later one winning) and hits from a company's network (some linked on a later hit).
/// Each visitor's times end in its own millisecond, so no two hits share a time.
pub(crate) fn journey_hits(site: WebsiteId, now: Millis) -> Vec<Hit> {
    let mut rng = StdRng::seed_from_u64(18_182);
    let mut hits = Vec::new();
    for visitor in 0..70u8 {
        let mut ts = (now - 20 * 60 * MINUTE + rng.random_range(0..16 * 60) * MINUTE) / 1000 * 1000 + visitor as i64;
        let country = ["DE", "US", "", "FR"][rng.random_range(0..4)];
        for _ in 0..rng.random_range(1..=3) {
            let network = rng.random_range(0..JOURNEY_NETWORKS.len() + 2);
            let late_link = rng.random_range(0..4) == 0;
            for n in 0..rng.random_range(1..=8) {
                if ts > now {
                    break;
                }
                let kind = match rng.random_range(0..20) {
                    _ if n == 0 && rng.random_range(0..8) > 0 => EventKind::Pageview,
                    0..=9 => EventKind::Pageview,
                    10..=11 => EventKind::Custom,
                    12 => EventKind::Outbound,
                    13 => EventKind::Download,
                    14..=16 => EventKind::Identify,
                    _ => EventKind::Conversion,
                };
                let (value, currency) = match (kind, rng.random_range(0..3)) {
                    (EventKind::Conversion, 0) => (None, None),
                    (EventKind::Conversion, 1) => (Some(rng.random_range(5..200) as f64 + 0.5), Some("EUR".into())),
                    (EventKind::Conversion, _) => (Some(rng.random_range(5..200) as f64), None),
                    _ => (None, None),
                };
                let properties = match kind {
                    EventKind::Identify => TRAITS[rng.random_range(0..TRAITS.len())].map(str::to_string),
                    EventKind::Custom => Some(r#"{"video":"intro"}"#.to_string()),
                    _ => None,
                };
                let organization =
                    JOURNEY_NETWORKS.get(network).filter(|_| !(late_link && n == 0)).map(|(asn, name)| Organization {
                        asn: *asn,
                        name: name.to_string(),
                        confidence: 90,
                        is_isp: false,
                    });
                let page = rng.random_range(0..5);
                hits.push(Hit {
                    website_id: site,
                    session_key: format!("visitor-{visitor:03}"),
                    ts,
                    kind: Some(kind),
                    name: match kind {
                        EventKind::Custom => "play".into(),
                        EventKind::Conversion => ["purchase", "trial"][rng.random_range(0..2)].into(),
                        EventKind::Download => "brochure.pdf".into(),
                        _ => String::new(),
                    },
                    url: format!("https://s.example.com/p{page}"),
                    path: format!("/p{page}"),
                    referrer_host: ["", "google.com", "t.co"][rng.random_range(0..3)].into(),
                    properties,
                    value,
                    currency,
                    country: country.into(),
                    city: if country.is_empty() { String::new() } else { format!("City {country}") },
                    device: ["desktop", "mobile"][visitor as usize % 2].into(),
                    browser: ["Chrome", "Firefox", "Safari"][visitor as usize % 3].into(),
                    visitor_seed: [visitor; 32],
                    organization,
                    ..Hit::default()
                });
                ts += rng.random_range(5..600) * 1000;
            }
            ts += rng.random_range(31..300) * MINUTE;
        }
    }
    hits.sort_by_key(|h| h.ts);
    hits
}
