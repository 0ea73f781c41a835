//! `VisitReads` on every engine: three visits whose stream rows, journeys, organizations and identified
//! visitors are known (two on the site now, one half an hour ago; two from Acme's network, one identifying
//! itself as Beta Ltd), each read asserted against them.

use super::{Engine, Visit, engines, hits_of};
use crate::Error;
use crate::analytics::{
    ActiveSession, CurrentActivity, JourneyEvent, JourneyStep, LivePage, SessionJourney, StreamSession,
};
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

        let live = events.live_visitors(&sites).unwrap();
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
