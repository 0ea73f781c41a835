//! `VisitReads` on every engine: three visits whose stream rows, journeys, organizations and identified
//! visitors are known (two on the site now, one half an hour ago; two from Acme's network, one identifying
//! itself as Beta Ltd), each read asserted against them; then organizations on random visits from several
//! networks answering as SQLite's.

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::{Engine, Visit, engines, hits_of};
use crate::Error;
use crate::analytics::{
    ActiveSession, CurrentActivity, JourneyEvent, JourneyStep, LivePage, SessionJourney, StreamSession,
};
use crate::cluster::seeded::journey_hits;
use crate::cluster::testing::scroll_reports;
use crate::ingest::EventKind;
use crate::ingest::EventKind::{Conversion as Purchase, Custom, Identify, Pageview};
use crate::ingest::Hit;
use crate::ingest::enrich::Organization;
use crate::model::{Millis, WebsiteId, now_ms};
use crate::store::organizations::{OrganizationUpdate, Organizations};

const MINUTE: Millis = 60_000;
const DAY: Millis = 24 * 60 * MINUTE;

/// 1. google.com, DE, from Acme's network, four minutes ago: /a, /b 30 s later, a purchase of 10 EUR 10 s
///    after that;
/// 2. direct, US, on a phone, three minutes ago: /c, identify() as Beta Ltd (Finance) 5 s later, a play event
///    5 s after that;
/// 3. direct, FR, from Acme's network, half an hour ago: /a alone.
fn seeded(engine: &Engine, now: Millis) -> Vec<Hit> {
    let at = |ago: Millis| (now - ago) / 1000 * 1000;
    let visits = [
        Visit {
            visitor: 1,
            start: at(4 * MINUTE),
            referrer_host: "google.com",
            utm_source: "",
            country: "DE",
            device: "desktop",
            hits: &[(0, Pageview, "", "/a"), (30, Pageview, "", "/b"), (40, Purchase, "purchase", "/b")],
        },
        Visit {
            visitor: 2,
            start: at(3 * MINUTE),
            referrer_host: "",
            utm_source: "",
            country: "US",
            device: "mobile",
            hits: &[(0, Pageview, "", "/c"), (5, Identify, "", "/c"), (10, Custom, "play", "/c")],
        },
        Visit {
            visitor: 3,
            start: at(30 * MINUTE),
            referrer_host: "",
            utm_source: "",
            country: "FR",
            device: "desktop",
            hits: &[(0, Pageview, "", "/a")],
        },
    ];
    let mut hits = hits_of(engine.site, &visits);
    for hit in &mut hits {
        if hit.session_key != "visitor-002" {
            hit.organization =
                Some(Organization { asn: 64_512, name: "Acme GmbH".into(), confidence: 70, is_isp: false });
        } else if hit.kind == Some(Identify) {
            hit.properties = Some(r#"{"company":"Beta Ltd","industry":"Finance"}"#.into());
        }
    }
    engine.store(hits.clone());
    hits
}

/// The hits of one seeded visitor.
fn of(hits: &[Hit], visitor: u8) -> Vec<&Hit> {
    hits.iter().filter(|h| h.session_key == format!("visitor-{visitor:03}")).collect()
}

/// Visit 1 as the stream lists it, under its engine's `id`.
fn first_visit(site: WebsiteId, id: i64, hits: &[Hit]) -> StreamSession {
    let visit = of(hits, 1);
    StreamSession {
        id,
        website_id: site,
        country: "DE".into(),
        region: String::new(),
        city: String::new(),
        device_type: "desktop".into(),
        browser: "Firefox".into(),
        os: "Linux".into(),
        first_seen: visit[0].ts,
        last_seen: visit[2].ts,
        is_converted: true,
        conversion_value: 10.0,
        session_duration: 40,
        page_view_count: 2,
        entry_page: "/a".into(),
        exit_page: "/b".into(),
        utm_source: String::new(),
        referrer: "https://google.com/".into(),
        current_activity: CurrentActivity {
            is_active: false,
            activity: "Converted: purchase".into(),
            current_page: "/b".into(),
        },
    }
}

#[test]
fn the_stream_lists_the_visits_active_now_and_each_visits_journey_on_each_engine() {
    let now = now_ms();
    for engine in engines() {
        let (events, name) = (&engine.events, engine.name);
        let sites = engine.with_more_sites(1);
        let site = sites[0];
        let hits = seeded(&engine, now);

        // Visits 2 and 1, the latest seen first; visit 3 is half an hour old.
        let active = events.active_sessions(site).unwrap();
        let listed: Vec<(&str, &str, &str, &str, Millis)> = active
            .iter()
            .map(|a: &ActiveSession| {
                (a.session_id.as_str(), a.current_page.as_str(), a.country.as_str(), a.device.as_str(), a.last_seen)
            })
            .collect();
        let (second, first) = (of(&hits, 2), of(&hits, 1));
        let expected =
            [("visitor-002", "/c", "US", "mobile", second[2].ts), ("visitor-001", "/b", "DE", "desktop", first[2].ts)];
        assert_eq!(listed, expected, "{name}");
        assert!(events.active_sessions(sites[1]).unwrap().is_empty(), "{name}");

        let live = events.live_visitors(&sites, &crate::events::Filters::none()).unwrap();
        let today = now.div_euclid(DAY) * DAY;
        let began_today = [1, 2, 3].iter().filter(|&&v| of(&hits, v)[0].ts >= today).count() as i64;
        assert_eq!(live.total_active_visitors, 2, "{name}");
        assert_eq!(live.new_visitors_today, began_today, "{name}");
        assert_eq!(live.conversions_today, i64::from(first[2].ts >= today), "{name}");
        let pages = [("/b", 1), ("/c", 1)].map(|(page, visitors)| LivePage { page: page.into(), visitors });
        assert_eq!(live.top_pages, pages, "{name}");
        let (second_id, first_id) = (active[0].id, active[1].id);
        assert_eq!(live.recent_sessions.iter().map(|s| s.id).collect::<Vec<_>>(), [second_id, first_id], "{name}");
        assert_eq!(live.recent_sessions[1], first_visit(site, first_id, &hits), "{name}");
        // The latest hit of visit 2 that says what the visitor does is the play event (identify() says nothing).
        assert_eq!(live.recent_sessions[0].current_activity.activity, "Event: play", "{name}");

        assert_eq!(events.stream_session(site, first_id).unwrap(), first_visit(site, first_id, &hits), "{name}");
        let journey = events.session_journey(site, first_id).unwrap();
        let expected = SessionJourney {
            session_id: first_id,
            website_id: site,
            first_seen: first[0].ts,
            last_seen: first[2].ts,
            steps: vec![
                JourneyStep { page: "/a".into(), entered_at: first[0].ts, duration: 30, events: Vec::new() },
                JourneyStep {
                    page: "/b".into(),
                    entered_at: first[1].ts,
                    duration: 10,
                    events: vec![JourneyEvent {
                        kind: "conversion".into(),
                        name: "purchase".into(),
                        label: "Converted: purchase".into(),
                        at: first[2].ts,
                        value: Some(10.0),
                        currency: Some("EUR".into()),
                    }],
                },
            ],
            truncated: false,
        };
        assert_eq!(journey, expected, "{name}");

        // A visit is its own site's: another site, no site or no visit is not found.
        assert_eq!(events.session_site(&[sites[1], site], first_id).unwrap(), site, "{name}");
        for found in [events.session_site(&[sites[1]], first_id), events.session_site(&[], first_id)] {
            assert!(matches!(found, Err(Error::NotFound(_))), "{name}: {found:?}");
        }
        assert!(matches!(events.session_site(&[site], 0), Err(Error::NotFound(_))), "{name}");
        assert!(matches!(events.stream_session(sites[1], first_id), Err(Error::NotFound(_))), "{name}");
        assert!(matches!(events.session_journey(sites[1], first_id), Err(Error::NotFound(_))), "{name}");
    }
}

#[test]
fn organizations_and_identified_visitors_come_from_networks_and_identify_calls_on_each_engine() {
    let now = now_ms();
    for engine in engines() {
        let (events, site, name) = (&engine.events, engine.site, engine.name);
        let hits = seeded(&engine, now);
        let first = of(&hits, 1);

        // Acme: visits 1 and 3, located by the latest (visit 1's DE).
        let orgs = events.organizations(site).unwrap();
        let listed: Vec<(&str, i64, &str, i64, Millis)> = orgs
            .iter()
            .map(|o| (o.organization_name.as_str(), o.session_count, o.location.as_str(), o.confidence, o.last_seen))
            .collect();
        assert_eq!(listed, [("Acme GmbH", 2, "DE", 70, first[2].ts)], "{name}");
        assert_eq!((orgs[0].domain.as_deref(), orgs[0].size.as_deref()), (None, None), "{name}");

        // One organization as the list shows it after the owner's edit (stored in the metadata, as
        // `Tracker::update_organization` does, then handed to the engine).
        let edit = OrganizationUpdate {
            domain: Some("https://Acme.example/".into()),
            industry: None,
            size: Some("Small".into()),
        };
        let edited = Organizations::new(engine.meta.clone()).update(site, orgs[0].id, edit).unwrap();
        assert_eq!(edited.asn, 64_512, "{name}");
        let one = events.organization(site, edited).unwrap();
        assert_eq!((one.domain.as_deref(), one.size.as_deref()), (Some("acme.example"), Some("small")), "{name}");
        assert_eq!((one.session_count, one.location.as_str(), one.last_seen), (2, "DE", first[2].ts), "{name}");

        // Highest lead score first (10 a page view, 5 any other hit, 30 a conversion besides): visit 1 (two
        // page views and a purchase: 55), visit 2 (identified as Beta Ltd: a page view, the identify() call
        // and an event: 20), visit 3 (a page view: 10).
        let identified = events.identified_visitors(site).unwrap();
        let listed: Vec<(&str, &str, &str, i64)> = identified
            .iter()
            .map(|v| (v.company_name.as_str(), v.industry.as_str(), v.country.as_str(), v.lead_score))
            .collect();
        let expected = [("Acme GmbH", "", "DE", 55), ("Beta Ltd", "Finance", "US", 20), ("Acme GmbH", "", "FR", 10)];
        assert_eq!(listed, expected, "{name}");
        assert_eq!(identified[0].identified_at, first[0].ts, "{name}");
        assert!(events.identified_visitors(site + 1).unwrap().is_empty(), "{name}");
    }
}

/// The networks visitors come from: (ASN, name, confidence).
const NETWORKS: [(u32, &str, u8); 4] = [
    (15169, "Google LLC", 95),
    (8075, "Microsoft Corporation", 95),
    (3320, "Deutsche Telekom AG", 60),
    (64512, "Acme GmbH", 70),
];

/// 60 visitors over the last 20 hours (older hits would be late hits, which the cluster's ingest state no
/// longer joins to their visits), 1 to 3 visits each (over 30 minutes apart), 1 to 5 hits a visit. Most
/// visits come from one network; some have no organization on their first hit (linked on a later one), some
/// change network within the visit, some have no country. Each visitor's times end in its own millisecond.
fn network_hits(site: WebsiteId, now: Millis) -> Vec<Hit> {
    let mut rng = StdRng::seed_from_u64(181_818);
    let mut hits = Vec::new();
    for visitor in 0..60u8 {
        let mut ts = (now - 20 * 60 * MINUTE + rng.random_range(0..16 * 60) * MINUTE) / 1000 * 1000 + visitor as i64;
        for _ in 0..rng.random_range(1..=3) {
            let network = rng.random_range(0..NETWORKS.len() + 1);
            let late_link = rng.random_range(0..4) == 0;
            let switches = rng.random_range(0..6) == 0;
            let country = ["DE", "US", "", "FR"][rng.random_range(0..4)];
            for n in 0..rng.random_range(1..=5) {
                if ts > now {
                    break;
                }
                let mut network = network;
                if switches && n > 1 {
                    network = (network + 1) % (NETWORKS.len() + 1);
                }
                let organization = NETWORKS.get(network).filter(|_| !(late_link && n == 0)).map(|(asn, name, c)| {
                    Organization { asn: *asn, name: name.to_string(), confidence: *c, is_isp: false }
                });
                let kind = if rng.random_range(0..5) == 0 { EventKind::Custom } else { EventKind::Pageview };
                hits.push(Hit {
                    website_id: site,
                    session_key: format!("visitor-{visitor:03}"),
                    ts,
                    kind: Some(kind),
                    name: if kind == EventKind::Custom { "signup".into() } else { String::new() },
                    url: "https://s.example.com/p".into(),
                    path: "/p".into(),
                    country: country.into(),
                    city: if country.is_empty() { String::new() } else { format!("City {country}") },
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

/// Where the list is not easy to state: visits linked to an organization on a later hit than their first, a
/// visitor's network changing within a visit, visits without a country after ones with; the organizations,
/// then one of them after the owner's edit, and the identified visitors answer as SQLite's (ids aside).
#[test]
fn organizations_answer_as_sqlites_on_random_visits_from_several_networks() {
    let now = now_ms();
    let mut answers: Vec<(&str, Vec<String>)> = Vec::new();
    for engine in engines() {
        let (events, site, name) = (&engine.events, engine.site, engine.name);
        engine.store(network_hits(site, now));
        let without_ids = |mut list: Vec<crate::analytics::OrganizationSummary>| {
            list.iter_mut().for_each(|org| org.id = 0);
            format!("{list:?}")
        };
        let listed = events.organizations(site).unwrap();
        assert_eq!(listed.len(), NETWORKS.len(), "{name}: {listed:?}");
        assert!(listed.iter().all(|o| o.session_count > 1 && !o.location.is_empty()), "{name}: {listed:?}");
        let acme = listed.iter().find(|o| o.organization_name == "Acme GmbH").unwrap().id;
        let edit = OrganizationUpdate {
            domain: Some("https://Acme.example/".into()),
            industry: Some("Retail".into()),
            size: Some("Small".into()),
        };
        let known = Organizations::new(engine.meta.clone()).update(site, acme, edit).unwrap();
        assert_eq!((known.domain.as_str(), known.size.as_str()), ("acme.example", "small"), "{name}");
        let edited = events.organization(site, known).unwrap();
        let mut identified = events.identified_visitors(site).unwrap();
        identified.iter_mut().for_each(|v| v.id = 0);
        let got = vec![
            without_ids(listed),
            without_ids(vec![edited]),
            without_ids(events.organizations(site).unwrap()),
            format!("{identified:?}"),
        ];
        answers.push((name, got));
    }
    for (name, got) in &answers[1..] {
        assert_eq!(got, &answers[0].1, "{name} against {}", answers[0].0);
    }
}

/// A visit that sent only heatmap data (no hit) from an organization's network is that organization's visit.
#[test]
fn a_visit_of_heatmap_data_alone_counts_for_its_organization_on_each_engine() {
    let now = now_ms();
    for engine in engines() {
        let (events, site, name) = (&engine.events, engine.site, engine.name);
        let visit = Hit {
            website_id: site,
            session_key: "quiet-visitor".into(),
            ts: now - 60_000,
            kind: Some(Pageview),
            url: "https://s.example.com/".into(),
            path: "/".into(),
            country: "DE".into(),
            organization: Some(Organization { asn: 64_512, name: "Quiet AG".into(), confidence: 80, is_isp: false }),
            visitor_seed: [7; 32],
            ..Hit::default()
        };
        let report = crate::ingest::Interactions {
            visit,
            viewport: (1280, 800),
            page: (1280, 3000),
            points: Vec::new(),
            fields: Vec::new(),
            scroll_depth: Some(40),
        };
        engine.store_all(Vec::new(), vec![report]);
        let listed = events.organizations(site).unwrap();
        let listed: Vec<(&str, i64, &str, i64)> = listed
            .iter()
            .map(|o| (o.organization_name.as_str(), o.session_count, o.location.as_str(), o.confidence))
            .collect();
        assert_eq!(listed, [("Quiet AG", 1, "DE", 80)], "{name}");
    }
}

/// Where the list is not easy to state: identify() calls with every kind of trait value (a later identify
/// replacing an earlier one, one without traits clearing them) and visits from a company's network linked on
/// a later hit than their first; the identified visitors answer as SQLite's (ids aside).
#[test]
fn identified_visitors_answer_as_sqlites_on_random_identify_calls() {
    let now = now_ms();
    let mut answers: Vec<(&str, Vec<crate::analytics::IdentifiedVisitor>)> = Vec::new();
    for engine in engines() {
        let (events, site, name) = (&engine.events, engine.site, engine.name);
        let hits = journey_hits(site, now);
        let reports = scroll_reports(&hits);
        engine.store_all(hits, reports);
        let mut listed = events.identified_visitors(site).unwrap();
        listed.iter_mut().for_each(|v| v.id = 0);
        // The seed reaches what the list must get right.
        let names: Vec<&str> = listed.iter().map(|v| v.company_name.as_str()).collect();
        for company in ["Acme", "Beta Ltd", "Gamma", "42", "1", "Acme GmbH", "Google LLC"] {
            assert!(names.contains(&company), "{name}: {company} in {names:?}");
        }
        assert!(listed.iter().any(|v| v.industry == "7.5") && listed.iter().any(|v| v.country.is_empty()));
        let scores: std::collections::HashSet<i64> = listed.iter().map(|v| v.lead_score).collect();
        assert!(scores.len() > 5, "{name}: {scores:?}");
        answers.push((name, listed));
    }
    for (name, got) in &answers[1..] {
        assert_eq!(got, &answers[0].1, "{name} against {}", answers[0].0);
    }
}
