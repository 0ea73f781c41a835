//! Session recordings on each metadata engine (SQLite always, PostgreSQL when the harness is up): chunks add up
//! under the recording limits, and recordings go with their visit or their age alike on each engine.

use rusqlite::params;

use super::replays::{ReplayOrder, ReplayQuery, ReplayRow};
use super::testing::{Engine, engines};
use crate::auth::Auth;
use crate::config::Config;
use crate::error::Error;
use crate::ingest::Hit;
use crate::ingest::replay::ChunkStats;
use crate::ingest::replay::{MAX_RECORDING_BYTES, ReplayChunk};
use crate::model::{Millis, WebsiteId};
use crate::settings::Settings;
use crate::store::websites::{NewWebsite, Websites};

/// A visit of `site` to record: on SQLite its session row (recordings reference it), in PostgreSQL an id as
/// the shared ingest state hands them out.
fn visit(engine: &Engine, site: WebsiteId, key: &str, id: i64) -> i64 {
    if engine.name != "sqlite" {
        return id;
    }
    engine
        .db
        .write(|conn| {
            conn.execute(
                "INSERT INTO sessions (website_id, session_key, visitor_hash, first_seen, last_seen, entry_page,
                    exit_page) VALUES (?1, ?2, 0, 0, 0, '/', '/')",
                params![site, key],
            )?;
            Ok(conn.last_insert_rowid())
        })
        .unwrap()
}

fn chunk(site: WebsiteId, seq: i64, data: Vec<u8>, span: (Millis, Millis), last: bool) -> ReplayChunk {
    let screen = (seq == 0).then(|| "1280x720".to_string());
    let stats =
        ChunkStats { events: 4, clicks: 1, first_ts: Some(span.0), last_ts: Some(span.1), screen, inflated: 50 };
    ReplayChunk { visit: Hit { website_id: site, ..Hit::default() }, seq, data, is_final: last, stats }
}

#[test]
fn recordings_add_up_under_their_limits_and_go_with_their_visit_or_age_alike_on_each_engine() {
    let mut seen = Vec::new();
    for engine in engines() {
        let (name, meta) = (engine.name, &engine.meta);
        let auth = Auth::new(
            meta.clone(),
            b"a test signing secret of 32 bytes or more",
            Settings::new(Config::default()),
            None,
        );
        let owner = auth.create_user("owner@example.com", "secret1").unwrap().id;
        let stranger = auth.create_user("stranger@example.com", "secret1").unwrap().id;
        let new = NewWebsite { name: "Shop".into(), domain: "shop.example.com".into(), tracking_level: None };
        let site = Websites::new(meta.clone()).create(owner, new).unwrap().id;
        let (first, second) = (visit(&engine, site, "a", 101), visit(&engine, site, "b", 102));

        // Chunks out of order widen the span; a repeated number changes nothing; the last says if final.
        assert!(meta.append_replay_chunk(first, &chunk(site, 1, vec![1; 10], (2_000, 3_000), true), 10_000).unwrap());
        assert!(meta.append_replay_chunk(first, &chunk(site, 0, vec![0; 20], (1_000, 1_500), false), 11_000).unwrap());
        assert!(meta.append_replay_chunk(first, &chunk(site, 0, vec![9; 99], (0, 9_000), true), 12_000).unwrap());
        let too_large = chunk(site, 2, vec![2; MAX_RECORDING_BYTES as usize - 29], (3_000, 4_000), true);
        let refused = meta.append_replay_chunk(first, &too_large, 13_000);
        assert!(matches!(refused, Err(Error::TooLarge(_))), "{name}: {refused:?}");
        let gone = meta.append_replay_chunk(second, &chunk(site + 1_000, 0, vec![0], (0, 1), false), 13_000);
        assert!(!gone.unwrap(), "{name}: a chunk of a missing site is not stored");
        assert!(meta.append_replay_chunk(second, &chunk(site, 0, vec![5; 5], (5_000, 6_000), false), 20_000).unwrap());

        let touching = |from: Millis, to: Millis| {
            let query = ReplayQuery { from, to, ..ReplayQuery::all() };
            meta.replays_page(site, &query, ReplayOrder::Created, None, 10).unwrap()
        };
        let rows = touching(0, Millis::MAX);
        let [newest, oldest] = &rows[..] else { panic!("{name}: two recordings, {rows:?}") };
        assert_eq!((newest.visit, oldest.visit), (second, first), "{name}: newest first");
        let summary = |r: &ReplayRow| {
            (
                r.started_at,
                r.ended_at,
                r.byte_size,
                r.click_count,
                r.event_count,
                r.screen.clone(),
                r.is_final,
                r.last_chunk_at,
            )
        };
        assert_eq!(summary(oldest), (1_000, 3_000, 30, 2, 8, "1280x720".into(), false, 11_000), "{name}");
        assert_eq!(touching(11_001, Millis::MAX).len(), 1, "{name}: by last chunk");
        assert_eq!(touching(0, 1_000).len(), 0, "{name}: by start");
        assert_eq!(meta.owned_replay(owner, oldest.id).unwrap().as_ref(), Some(oldest), "{name}");
        assert_eq!(meta.owned_replay(stranger, oldest.id).unwrap(), None, "{name}: another user's");
        assert_eq!(meta.replay_chunk_seqs(oldest.id).unwrap(), [0, 1], "{name}");
        assert_eq!(meta.replay_chunk(oldest.id, 1).unwrap(), Some(vec![1; 10]), "{name}");
        let by_visit: Vec<i64> = meta.visit_replays(site, &[first, second]).unwrap().iter().map(|r| r.visit).collect();
        assert_eq!(by_visit, [first, second], "{name}: oldest first");
        seen.push(rows.iter().map(summary).collect::<Vec<_>>());

        // Retention takes those quiet since the cutoff; an erasure the visitor's.
        assert_eq!(meta.delete_replays_before(site, 11_000).unwrap(), 0, "{name}");
        assert_eq!(meta.delete_replays_before(site, 11_001).unwrap(), 1, "{name}");
        assert_eq!(meta.delete_visit_replays(site, &[first, second]).unwrap(), 1, "{name}");
        assert!(touching(0, Millis::MAX).is_empty(), "{name}");
        assert_eq!(meta.replay_chunk(oldest.id, 1).unwrap(), None, "{name}: chunks go with their recording");
    }
    assert!(seen.windows(2).all(|w| w[0] == w[1]), "the same recordings on each engine: {seen:?}");
}
