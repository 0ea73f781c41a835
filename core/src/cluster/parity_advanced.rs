//! The intent model fitted on the cluster's visits against SQLite's on the same hits, at the core: visits with
//! several pages, events, conversions, returning visitors and search, social, referral and campaign sources.

use std::time::Instant;

use rand::rngs::StdRng;
use rand::{Rng, SeedableRng};

use super::testing::{fresh, scroll_reports, store_all_in_both};
use crate::analytics::intent::{
    FINISHED_AFTER_MS, HISTORY_MS, SessionFeatures, TRAIN_LIMIT, fit_features, load_features,
};
use crate::ingest::enrich::Organization;
use crate::ingest::{EventKind, Hit, Utm};
use crate::model::{Millis, WebsiteId, now_ms};
use crate::testing::one_site;

const MINUTE: Millis = 60_000;

const PAGES: [&str; 5] = ["/", "/pricing", "/docs", "/blog", "/signup"];

/// Where visits come from: (referrer host, UTM source).
const SOURCES: [(&str, &str); 5] =
    [("", ""), ("google.com", ""), ("twitter.com", ""), ("news.example.org", ""), ("", "newsletter")];

/// 160 visitors over the last 20 hours, finished an hour ago (older hits are late hits, which the cluster's
/// ingest state no longer joins to their visits), 1 or 2 visits each (the second a returning visit), 1 to 6
/// hits a visit: page views, a custom event now and then, and a conversion for about a third of the visits,
/// more often after /pricing. Each visitor's times end in its own millisecond.
fn seeded_hits(site: WebsiteId, now: Millis) -> Vec<Hit> {
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

/// Features with the visit ids left out and SQLite's retired keys (`key~id`, for a visit after which the key
/// started another) as sent: each engine numbers its own visits.
fn without_ids(mut features: Vec<SessionFeatures>) -> Vec<SessionFeatures> {
    for f in &mut features {
        f.session_id = 0;
        if let Some((key, id)) = f.session_key.rsplit_once('~')
            && id.bytes().all(|b| b.is_ascii_digit())
        {
            f.session_key = key.to_string();
        }
    }
    features
}

/// The first place two lists differ, for a short failure message.
fn first_difference(got: &[SessionFeatures], expected: &[SessionFeatures]) -> String {
    match got.iter().zip(expected).position(|(g, e)| g != e) {
        Some(i) => format!("at {i}: got {:?}, expected {:?}", got[i], expected[i]),
        None => format!("lengths: got {}, expected {}", got.len(), expected.len()),
    }
}

#[test]
fn intent_features_and_the_fitted_model_equal_sqlites_on_the_same_hits() {
    let Some(cluster) = fresh() else { return };
    let fixture = one_site();
    cluster.add_site(fixture.site);
    let site = fixture.site;
    let now = now_ms();
    let hits = seeded_hits(site, now);
    let reports = scroll_reports(&hits);
    store_all_in_both(&fixture, &cluster, hits, reports);
    let events = cluster.events();

    let (from, finished) = (now - HISTORY_MS, Some(now - FINISHED_AFTER_MS));
    let sqlite = rusqlite::Connection::open(fixture.dir.path().join("tracker.db")).unwrap();
    let expected = load_features(&sqlite, site, from, now, TRAIN_LIMIT, finished).unwrap();
    assert!(expected.len() > 150, "{}", expected.len());
    assert!(expected.iter().any(|f| f.returning) && expected.iter().any(|f| f.events > 0 && f.converted));
    assert!(expected.iter().filter(|f| f.scroll_depth > 0).count() > 100, "scroll depths are read");
    let got = events.intent_features(site, from, now, TRAIN_LIMIT, finished).unwrap();
    let (got_plain, expected_plain) = (without_ids(got.clone()), without_ids(expected.clone()));
    assert!(got_plain == expected_plain, "{}", first_difference(&got_plain, &expected_plain));
    // A limit keeps the most recent visits on both.
    let recent = events.intent_features(site, from, now, 7, finished).unwrap();
    assert_eq!(without_ids(recent), without_ids(expected[..7].to_vec()));

    // The same fitting code on the same features: the same model, bit for bit.
    let mut sqlite_model = fit_features(&expected, now, Instant::now());
    let mut cluster_model = events.fit_intent(site, now).unwrap();
    assert_eq!(sqlite_model.info.source, "fitted", "{:?}", sqlite_model.info);
    (sqlite_model.info.fit_ms, cluster_model.info.fit_ms) = (0.0, 0.0);
    assert_eq!(cluster_model.info, sqlite_model.info);
    for (e, g) in expected.iter().zip(&got) {
        assert_eq!(cluster_model.score(g), sqlite_model.score(e));
    }

    // Another site's visits are not read.
    assert!(events.intent_features(site + 1, from, now, TRAIN_LIMIT, None).unwrap().is_empty());
}

/// A JSON answer with what differs by engine or by fit taken out: when and how fast the model was fitted, and
/// SQLite's retired keys (`key~id`) as sent.
fn comparable(answer: impl serde::Serialize) -> serde_json::Value {
    let mut value = serde_json::to_value(answer).unwrap();
    if let Some(model) = value.get_mut("model") {
        model["fittedAt"] = serde_json::Value::Null;
        model["fitMs"] = serde_json::Value::Null;
    }
    if let Some(sessions) = value.get_mut("topIntentSessions").and_then(|s| s.as_array_mut()) {
        for session in sessions {
            let key = session["sessionId"].as_str().unwrap();
            let key = key.rsplit_once('~').map_or(key, |(key, _)| key).to_string();
            session["sessionId"] = key.into();
        }
    }
    value
}

#[test]
fn the_advanced_screen_and_intent_scores_equal_sqlites_on_the_same_hits() {
    let Some(cluster) = fresh() else { return };
    let fixture = one_site();
    cluster.add_site(fixture.site);
    let site = fixture.site;
    let now = now_ms();
    let mut hits = seeded_hits(site, now);
    // Three visitors on the site now, one of whom converts, for the real-time figures.
    for visitor in 0..3u8 {
        let live = |ts: Millis, kind: EventKind, path: &str| Hit {
            website_id: site,
            session_key: format!("live-{visitor}"),
            ts,
            kind: Some(kind),
            name: if kind == EventKind::Conversion { "purchase".into() } else { String::new() },
            url: format!("https://s.example.com{path}"),
            path: path.into(),
            visitor_seed: [200 + visitor; 32],
            ..Hit::default()
        };
        hits.push(live(now - 3 * MINUTE + visitor as i64, EventKind::Pageview, "/pricing"));
        if visitor == 0 {
            hits.push(live(now - 2 * MINUTE, EventKind::Conversion, "/thanks"));
        }
    }
    hits.sort_by_key(|h| h.ts);
    let reports = scroll_reports(&hits);
    store_all_in_both(&fixture, &cluster, hits, reports);
    let events = cluster.events();
    let model = events.fit_intent(site, now_ms()).unwrap();

    for name in ["24h", "7d"] {
        let range = crate::analytics::TimeRange::parse(name, now).unwrap();
        let expected = fixture.tracker.analytics().advanced(site, range).unwrap();
        assert!(expected.high_intent_visitors > 0 && expected.top_pages.len() == 5, "{expected:?}");
        assert_eq!(expected.real_time_metrics.active_visitors, 3, "{expected:?}");
        assert_eq!(expected.real_time_metrics.conversions, 1, "{expected:?}");
        let got = events.advanced(site, range, &model, now_ms()).unwrap();
        assert_eq!(comparable(&got), comparable(&expected), "{name}");

        let expected = fixture.tracker.analytics().ai_intent(site, range, false).unwrap();
        assert!(expected.top_intent_sessions.len() == 20, "{expected:?}");
        let got = events.ai_intent(site, range, &model).unwrap();
        assert_eq!(comparable(&got), comparable(&expected), "{name}");
    }
}
