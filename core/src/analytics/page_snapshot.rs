//! The page under a heatmap: the rrweb full snapshot of a page from the site's latest recording that viewed
//! it, which the heatmap panel rebuilds in a sandboxed frame (no scripts) and draws the heat over.

use std::io::Read;

use flate2::read::MultiGzDecoder;
use rusqlite::params;
use serde::{Deserialize, Serialize};
use serde_json::Value;

use super::Analytics;
use crate::error::Result;
use crate::ingest::replay::MAX_INFLATED_BYTES;
use crate::model::{Millis, WebsiteId, ser_iso};
use crate::store::meta::ReplayStore;

/// Recordings looked into, newest first, before giving up: a visit's recording may lack the page's snapshot
/// (it was cut by the size cap, or the page was reached by SPA navigation without a new snapshot).
pub(crate) const MAX_RECORDINGS: usize = 10;
/// Chunks inflated per recording at most, and bytes inflated per call at most: a call costs a bounded
/// amount of work whatever visitors uploaded.
const MAX_CHUNKS: usize = 50;
const MAX_INFLATED_PER_CALL: u64 = 64 * 1024 * 1024;

// rrweb event types (@rrweb/types).
const FULL_SNAPSHOT: i64 = 2;
const META: i64 = 4;

/// `GET /api/analytics/heatmap/page`: the page as recorded, or null with no recording of it.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PageRendering {
    pub snapshot: Option<PageSnapshot>,
}

/// A page's rrweb full snapshot and the viewport it was recorded at. `node` is visitor-controlled content:
/// the panel rebuilds it only in a frame sandboxed without scripts.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PageSnapshot {
    pub replay_id: i64,
    #[serde(serialize_with = "ser_iso")]
    #[schema(value_type = String)]
    pub recorded_at: Millis,
    pub href: String,
    /// Viewport width and height of the recording, CSS pixels.
    pub width: i64,
    pub height: i64,
    /// The serialized document (rrweb-snapshot's `serializedNodeWithId`).
    #[schema(value_type = Object)]
    pub node: Value,
}

#[derive(Deserialize)]
struct RecordedEvent {
    #[serde(rename = "type")]
    kind: i64,
    #[serde(default)]
    data: Value,
    #[serde(default)]
    timestamp: i64,
}

/// The path of a recorded href, if it is an http(s) URL.
fn path_of(href: &str) -> Option<String> {
    let url = url::Url::parse(href).ok()?;
    matches!(url.scheme(), "http" | "https").then(|| url.path().to_string())
}

impl Analytics {
    /// The latest full snapshot of `path` among the site's recordings, newest recording first.
    pub fn page_snapshot(&self, site: WebsiteId, path: &str) -> Result<PageRendering> {
        let replays: Vec<i64> = self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT r.id FROM replays r WHERE r.website_id = ?1 AND EXISTS (
                    SELECT 1 FROM events e WHERE e.session_id = r.session_id AND e.kind = 'pageview' AND e.path = ?2)
                 ORDER BY r.last_chunk_at DESC, r.id DESC LIMIT ?3",
            )?;
            let rows = stmt.query_map(params![site, path, MAX_RECORDINGS as i64], |r| r.get(0))?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })?;
        latest_snapshot(crate::store::meta::sqlite(self.db.clone()).as_ref(), replays, path)
    }
}

/// The latest full snapshot of `path` in `replays` (recordings whose visit viewed it, newest first; the first
/// [`MAX_RECORDINGS`] looked into), each recording's first [`MAX_CHUNKS`] chunks read from `store` (SQLite's
/// or PostgreSQL's).
pub(crate) fn latest_snapshot(
    store: &dyn ReplayStore,
    replays: impl IntoIterator<Item = i64>,
    path: &str,
) -> Result<PageRendering> {
    let chunks = |replay: i64| -> Result<Vec<Vec<u8>>> {
        let seqs = store.replay_chunk_seqs(replay)?;
        let first = seqs.into_iter().take(MAX_CHUNKS).map(|seq| store.replay_chunk(replay, seq));
        Ok(first.collect::<Result<Vec<_>>>()?.into_iter().flatten().collect())
    };
    let mut budget = MAX_INFLATED_PER_CALL;
    for replay in replays.into_iter().take(MAX_RECORDINGS) {
        if budget == 0 {
            break;
        }
        if let Some(snapshot) = snapshot_in(replay, path, chunks(replay)?, &mut budget) {
            return Ok(PageRendering { snapshot: Some(snapshot) });
        }
    }
    Ok(PageRendering { snapshot: None })
}

/// The last full snapshot taken while the recording was on `path` (after a meta event naming it).
fn snapshot_in(replay: i64, path: &str, chunks: Vec<Vec<u8>>, budget: &mut u64) -> Option<PageSnapshot> {
    let mut meta: Option<(String, i64, i64)> = None;
    let mut found = None;
    for gzip in chunks {
        if *budget == 0 {
            break;
        }
        let mut text = Vec::new();
        // A chunk that does not inflate or parse (stored as uploaded) is skipped, not an error.
        let read = MultiGzDecoder::new(&gzip[..]).take(MAX_INFLATED_BYTES.min(*budget)).read_to_end(&mut text);
        *budget = budget.saturating_sub(text.len() as u64);
        if read.is_err() {
            continue;
        }
        let Ok(events) = serde_json::from_slice::<Vec<RecordedEvent>>(&text) else { continue };
        for event in events {
            match event.kind {
                META => {
                    let href = event.data.get("href").and_then(Value::as_str).unwrap_or("").to_string();
                    let size = |k: &str| event.data.get(k).and_then(Value::as_i64).unwrap_or(0).clamp(0, 100_000);
                    meta = Some((href, size("width"), size("height")));
                }
                FULL_SNAPSHOT => {
                    let Some((href, width, height)) = &meta else { continue };
                    if path_of(href).as_deref() != Some(path) {
                        continue;
                    }
                    let mut data = event.data;
                    let Some(node) = data.get_mut("node").filter(|n| n.is_object()).map(Value::take) else {
                        continue;
                    };
                    found = Some(PageSnapshot {
                        replay_id: replay,
                        recorded_at: event.timestamp,
                        href: href.clone(),
                        width: *width,
                        height: *height,
                        node,
                    });
                }
                _ => {}
            }
        }
    }
    found
}
