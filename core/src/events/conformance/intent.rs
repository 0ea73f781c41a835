//! `IntentReads` on every engine: the Advanced Analytics screen and the intent scores on visits for the intent
//! model (search, social, referral and campaign sources, returning visitors, conversions more often after
//! /pricing) with three visitors on the site now, one of whom converts. The model's figures are not easy to
//! state, so besides the live figures each engine answers as SQLite's, with each engine's own fit (the same
//! finished visits, so the same weights) compared but for when and how fast it was fitted.

use super::engines;
use crate::analytics::TimeRange;
use crate::cluster::seeded::intent_hits;
use crate::cluster::testing::scroll_reports;
use crate::events::Filters;
use crate::ingest::{EventKind, Hit};
use crate::model::{Millis, now_ms};

const MINUTE: Millis = 60_000;

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
fn the_advanced_screen_and_intent_scores_answer_as_sqlites_on_each_engine() {
    let now = now_ms();
    let mut answers: Vec<(&str, Vec<serde_json::Value>)> = Vec::new();
    for engine in engines() {
        let (events, site, name) = (&engine.events, engine.site, engine.name);
        let mut hits = intent_hits(site, now);
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
        engine.store_all(hits, reports);

        let mut got = Vec::new();
        for period in ["24h", "7d"] {
            let range = TimeRange::parse(period, now).unwrap();
            let advanced = events.advanced(site, range, &Filters::none()).unwrap();
            assert!(advanced.high_intent_visitors > 0 && advanced.top_pages.len() == 5, "{name}: {advanced:?}");
            let live = &advanced.real_time_metrics;
            assert_eq!((live.active_visitors, live.conversions), (3, 1), "{name} {period}: {advanced:?}");
            got.push(comparable(&advanced));
            let intent = events.ai_intent(site, range, &Filters::none(), false).unwrap();
            assert_eq!(intent.top_intent_sessions.len(), 20, "{name} {period}");
            got.push(comparable(&intent));
        }
        // Refitting answers the same (the same finished visits).
        let range = TimeRange::parse("7d", now).unwrap();
        assert_eq!(comparable(events.ai_intent(site, range, &Filters::none(), true).unwrap()), got[3], "{name}");
        answers.push((name, got));
    }
    let (first, expected) = &answers[0];
    for (name, got) in &answers[1..] {
        for (got, expected) in got.iter().zip(expected) {
            assert_eq!(got, expected, "{name} against {first}");
        }
    }
}
