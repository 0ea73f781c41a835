//! `PageData`'s recordings on every engine: the replay list and its cards under every filter, on more
//! recordings than one page of the cluster's reads (three in core tests), before and after an organization is
//! made an enterprise; the page under a heatmap from the latest recording that viewed it, past pages of
//! others; and one recording with its events, for its owner alone.

use std::io::Write;

use flate2::Compression;
use flate2::write::GzEncoder;
use serde_json::json;

use super::{Engine, engines};
use crate::Error;
use crate::analytics::{ReplayFilter, ReplaySummary, TimeRange};
use crate::auth::Auth;
use crate::events::Filters;
use crate::ingest::EventKind::Pageview;
use crate::ingest::Hit;
use crate::ingest::enrich::Organization;
use crate::ingest::replay::{ChunkStats, ReplayChunk};
use crate::ingest::writer::Job;
use crate::model::{Millis, now_ms};
use crate::store::meta::KnownOrganization;
use crate::store::organizations::{OrganizationUpdate, Organizations};

const MINUTE: Millis = 60_000;

/// Recorded visitors: more than two pages of recordings.
const VISITORS: u8 = 8;

const FILTERS: [ReplayFilter; 4] =
    [ReplayFilter::All, ReplayFilter::Complete, ReplayFilter::Incomplete, ReplayFilter::Enterprise];

fn gzip(text: &str) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
    encoder.write_all(text.as_bytes()).unwrap();
    encoder.finish().unwrap()
}

/// Visitor v (0 to 7) views a page `20 - v` minutes before `now` and records one chunk a second later: two
/// rrweb events (the page's meta, then a full snapshot naming the visitor), v clicks, 1.5 × v seconds long.
/// Visitors 0, 3 and 6 come from Acme's network, 1, 4 and 7 from Microsoft's, 2 and 5 from none; 0 and 1 view
/// /p, the others /; even visitors' recordings are final.
fn seeded(engine: &Engine, now: Millis) {
    let site = engine.site;
    let mut jobs = Vec::new();
    let mut chunks = Vec::new();
    for visitor in 0..VISITORS {
        let organization = match visitor % 3 {
            0 => Some((64512, "Acme GmbH")),
            1 => Some((8075, "Microsoft Corporation")),
            _ => None,
        };
        let path = if visitor < 2 { "/p" } else { "/" };
        let hit = Hit {
            website_id: site,
            session_key: format!("visitor-{visitor:03}"),
            ts: now - 20 * MINUTE + visitor as Millis * MINUTE,
            kind: Some(Pageview),
            url: format!("https://s.example.com{path}"),
            path: path.into(),
            visitor_seed: [visitor; 32],
            organization: organization.map(|(asn, name)| Organization {
                asn,
                name: name.into(),
                confidence: 90,
                is_isp: false,
            }),
            ..Hit::default()
        };
        let start = hit.ts + 1_000;
        let events = json!([
            {"type": 4, "data": {"href": hit.url, "width": 1280, "height": 720}, "timestamp": start},
            {"type": 2, "data": {"node": {"type": 0, "id": 1, "visitor": visitor}}, "timestamp": start + 1},
        ]);
        let stats = ChunkStats {
            events: 2,
            clicks: visitor as i64,
            first_ts: Some(start),
            last_ts: Some(start + 1_500 * visitor as i64),
            screen: Some("1280x720".into()),
            inflated: 200,
        };
        let visit = Hit { ts: start, kind: None, organization: None, ..hit.clone() };
        let data = gzip(&events.to_string());
        chunks.push(Job::Replay(Box::new(ReplayChunk { visit, seq: 0, data, is_final: visitor % 2 == 0, stats })));
        jobs.push(Job::Hit(Box::new(hit)));
    }
    jobs.extend(chunks);
    engine.store_jobs(jobs);
}

/// The visitors of a list, in its order.
fn visitors(list: &[ReplaySummary]) -> Vec<String> {
    list.iter().map(|r| r.session_id.clone()).collect()
}

/// The session keys of the visitors `of`.
fn keys(of: &[u8]) -> Vec<String> {
    of.iter().map(|v| format!("visitor-{v:03}")).collect()
}

/// Makes Acme an enterprise in the engine's metadata.
fn make_acme_an_enterprise(engine: &Engine) {
    let organizations = Organizations::new(engine.meta.clone());
    let known: Vec<KnownOrganization> = organizations.known(engine.site).unwrap();
    let acme = known.into_iter().find(|o| o.asn == 64512).expect("Acme is known from its visits");
    let edit = OrganizationUpdate { domain: None, industry: None, size: Some("Enterprise".into()) };
    organizations.update(engine.site, acme.id, edit).unwrap();
}

#[test]
fn the_replay_list_and_its_cards_page_through_the_recordings_under_every_filter_on_each_engine() {
    let now = now_ms();
    let mut answers: Vec<(&str, Vec<String>)> = Vec::new();
    for engine in engines() {
        let (events, site, name) = (&engine.events, engine.site, engine.name);
        seeded(&engine, now);
        let range = TimeRange::parse("24h", now).unwrap();
        let mut got = Vec::new();
        for enterprise in [false, true] {
            if enterprise {
                make_acme_an_enterprise(&engine);
            }
            // Newest first; only final recordings are complete this soon.
            let newest_first: &[(ReplayFilter, &[u8])] = &[
                (ReplayFilter::All, &[7, 6, 5, 4, 3, 2, 1, 0]),
                (ReplayFilter::Complete, &[6, 4, 2, 0]),
                (ReplayFilter::Incomplete, &[7, 5, 3, 1]),
                (ReplayFilter::Enterprise, if enterprise { &[6, 3, 0] } else { &[] }),
            ];
            for &(filter, expected) in newest_first {
                for limit in [2, 5, 100] {
                    let list = events.replays(site, range, &Filters::none(), filter, limit).unwrap();
                    let shown = &expected[..expected.len().min(limit as usize)];
                    assert_eq!(visitors(&list), keys(shown), "{name}: {filter:?}, {limit}");
                    let clicks: Vec<i64> = list.iter().map(|r| r.click_count).collect();
                    assert_eq!(clicks, shown.iter().map(|&v| v as i64).collect::<Vec<_>>(), "{name}");
                    let complete: Vec<bool> = list.iter().map(|r| r.is_complete).collect();
                    assert_eq!(complete, shown.iter().map(|v| v % 2 == 0).collect::<Vec<_>>(), "{name}");
                    assert!(list.iter().all(|r| r.id > 0), "{name}");
                    let without_ids: Vec<ReplaySummary> =
                        list.into_iter().map(|r| ReplaySummary { id: 0, ..r }).collect();
                    got.push(format!("{enterprise} {filter:?} {limit}: {without_ids:?}"));
                }
            }
            for filter in FILTERS {
                let stats = events.replay_stats(site, range, &Filters::none(), filter).unwrap();
                let count = newest_first.iter().find(|(f, _)| *f == filter).unwrap().1.len() as i64;
                assert_eq!(stats.total, count, "{name}: {filter:?} {stats:?}");
                got.push(format!("{enterprise} {filter:?}: {stats:?}"));
            }
            let all = events.replay_stats(site, range, &Filters::none(), ReplayFilter::All).unwrap();
            assert_eq!((all.complete, all.enterprise), (4, if enterprise { 3 } else { 0 }), "{name}");
            // 0, 1, 3, 4, 6, 7, 9 and 10 seconds (whole seconds of 1.5 × v) over 8.
            assert!((all.average_duration - 5.0).abs() < 0.3, "{name}: {all:?}");
        }
        answers.push((name, got));
    }
    // The rest of each recording's card (its visit, size, screen) as SQLite's.
    let (first, expected) = &answers[0];
    for (name, got) in &answers[1..] {
        assert_eq!(got, expected, "{name} against {first}");
    }
}

#[test]
fn the_page_under_a_heatmap_is_the_latest_recording_that_viewed_it_on_each_engine() {
    let now = now_ms();
    let mut answers = Vec::new();
    for engine in engines() {
        let (events, site, name) = (&engine.events, engine.site, engine.name);
        seeded(&engine, now);
        let mut got = Vec::new();
        // /p only from the two oldest recordings, past two pages of others.
        for (path, visitor) in [("/p", Some(json!(1))), ("/", Some(json!(VISITORS - 1))), ("/none", None)] {
            let rendering = events.page_snapshot(site, path).unwrap();
            let snapshot = rendering.snapshot.as_ref();
            assert_eq!(snapshot.map(|s| s.node["visitor"].clone()), visitor, "{name}: {path}");
            if let Some(snapshot) = snapshot {
                assert_eq!(snapshot.href, format!("https://s.example.com{path}"), "{name}");
                assert!(snapshot.replay_id > 0, "{name}");
            }
            let mut rendering = rendering;
            rendering.snapshot.iter_mut().for_each(|s| s.replay_id = 0);
            got.push(format!("{rendering:?}"));
        }
        answers.push((name, got));
    }
    for (name, got) in &answers[1..] {
        assert_eq!(got, &answers[0].1, "{name} against {}", answers[0].0);
    }
}

#[test]
fn a_recording_and_its_events_are_read_by_its_owner_alone_on_each_engine() {
    let now = now_ms();
    for engine in engines() {
        let (events, site, name) = (&engine.events, engine.site, engine.name);
        seeded(&engine, now);
        let range = TimeRange::parse("24h", now).unwrap();
        let newest = events.replays(site, range, &Filters::none(), ReplayFilter::All, 1).unwrap().remove(0);
        let owner = engine.owner;

        let detail = events.replay(owner, newest.id).unwrap();
        assert_eq!((detail.website_id, &detail.replay), (site, &newest), "{name}");
        // The events one after another, as the route writes them between brackets.
        let pieces = events.replay_events(owner, newest.id).unwrap().flat_map(Result::unwrap);
        let bytes: Vec<u8> = b"[".iter().copied().chain(pieces).chain(*b"]").collect();
        let recorded: serde_json::Value = serde_json::from_slice(&bytes).unwrap();
        let kinds: Vec<i64> = recorded.as_array().unwrap().iter().map(|e| e["type"].as_i64().unwrap()).collect();
        assert_eq!(kinds, [4, 2], "{name}: {recorded}");
        assert_eq!(recorded[1]["data"]["node"]["visitor"], VISITORS - 1, "{name}");

        // Another account's, or none, is not found.
        let settings = crate::settings::Settings::new(crate::Config::default());
        let auth = Auth::new(engine.meta.clone(), b"a test signing secret of 32 bytes or more", settings, None);
        let other = auth.create_user("other@example.com", "secret1").unwrap().id;
        for missing in [events.replay(other, newest.id).err(), events.replay(owner, newest.id + 1_000).err()] {
            assert!(matches!(missing, Some(Error::NotFound(_))), "{name}: {missing:?}");
        }
        assert!(matches!(events.replay_events(other, newest.id).err(), Some(Error::NotFound(_))), "{name}");
    }
}

#[test]
fn the_replay_list_and_its_cards_keep_the_recordings_of_the_visits_a_filter_admits_on_each_engine() {
    let now = now_ms();
    for engine in engines() {
        let (events, site, name) = (&engine.events, engine.site, engine.name);
        seeded(&engine, now);
        make_acme_an_enterprise(&engine);
        let range = TimeRange::parse("24h", now).unwrap();
        let on_p = Filters::parse(Some(r#"[["is","event:page",["/p"]]]"#)).unwrap();
        let not_entering_p = Filters::parse(Some(r#"[["is_not","visit:entry_page",["/p"]]]"#)).unwrap();
        // Newest first; past the cluster's pages of three recordings.
        let expected: &[(&Filters, ReplayFilter, &[u8])] = &[
            (&on_p, ReplayFilter::All, &[1, 0]),
            (&on_p, ReplayFilter::Complete, &[0]),
            (&on_p, ReplayFilter::Incomplete, &[1]),
            (&on_p, ReplayFilter::Enterprise, &[0]),
            (&not_entering_p, ReplayFilter::All, &[7, 6, 5, 4, 3, 2]),
            (&not_entering_p, ReplayFilter::Complete, &[6, 4, 2]),
            (&not_entering_p, ReplayFilter::Enterprise, &[6, 3]),
        ];
        for &(filters, filter, shown) in expected {
            for limit in [1, 100] {
                let list = events.replays(site, range, filters, filter, limit).unwrap();
                let kept = &shown[..shown.len().min(limit as usize)];
                assert_eq!(visitors(&list), keys(kept), "{name}: {filters:?} {filter:?} {limit}");
            }
            let stats = events.replay_stats(site, range, filters, filter).unwrap();
            assert_eq!(stats.total, shown.len() as i64, "{name}: {filters:?} {filter:?}");
            let complete = shown.iter().filter(|v| *v % 2 == 0).count() as i64;
            let enterprise = shown.iter().filter(|v| *v % 3 == 0).count() as i64;
            assert_eq!((stats.complete, stats.enterprise), (complete, enterprise), "{name}: {filters:?} {filter:?}");
        }
    }
}
