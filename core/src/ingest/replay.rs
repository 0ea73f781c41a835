//! `POST /api/replay`: one gzip chunk of rrweb events. Validates that it inflates (within a bound) to a JSON
//! array and reads what the replay list shows: time span, clicks, screen size.

use std::io::Read;

use flate2::read::MultiGzDecoder;
use serde_json::Value;

use super::hit::{Hit, validate_session_id};
use crate::error::{Error, Result};
use crate::model::{Millis, Website};

/// Largest compressed chunk accepted.
pub const MAX_CHUNK_BYTES: usize = 512 * 1024;
/// Largest inflated chunk: a bound against decompression bombs.
pub const MAX_INFLATED_BYTES: u64 = 8 * 1024 * 1024;
/// Largest recording of one visit, compressed.
pub const MAX_RECORDING_BYTES: i64 = 20 * 1024 * 1024;
/// Highest chunk number accepted.
pub const MAX_SEQ: i64 = 100_000;

/// rrweb event types and sources this module reads (rrweb's `EventType`, `IncrementalSource`,
/// `MouseInteractions`).
const RRWEB_META: i64 = 4;
const RRWEB_INCREMENTAL: i64 = 3;
const RRWEB_SOURCE_MOUSE_INTERACTION: i64 = 2;
const RRWEB_MOUSE_CLICK: i64 = 2;

/// A chunk as uploaded.
#[derive(Debug, Clone)]
pub struct ReplayUpload {
    pub tracking_key: String,
    pub session_id: String,
    pub seq: i64,
    /// The script's last chunk of this page (pagehide).
    pub is_final: bool,
    pub body: Vec<u8>,
}

/// A validated chunk on its way to the writer, still compressed.
#[derive(Debug, Clone)]
pub struct ReplayChunk {
    pub visit: Hit,
    pub seq: i64,
    pub data: Vec<u8>,
    pub is_final: bool,
    pub stats: ChunkStats,
}

/// What a chunk's events say about the recording.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct ChunkStats {
    pub events: i64,
    pub clicks: i64,
    pub first_ts: Option<Millis>,
    pub last_ts: Option<Millis>,
    /// "WIDTHxHEIGHT" of the first meta event.
    pub screen: Option<String>,
}

impl ReplayChunk {
    /// Validates an upload for `site` at server time `now`.
    pub fn from_upload(upload: ReplayUpload, site: &Website, now: Millis) -> Result<ReplayChunk> {
        let session_key = validate_session_id(&upload.session_id)?;
        if !(0..=MAX_SEQ).contains(&upload.seq) {
            return Err(Error::invalid("seq must be between 0 and 100000"));
        }
        if upload.body.len() > MAX_CHUNK_BYTES {
            return Err(Error::TooLarge("a replay chunk must be at most 512 KiB".into()));
        }
        if upload.body.is_empty() {
            return Err(Error::invalid("the replay chunk is empty"));
        }
        let events = inflate_events(&upload.body)?;
        let stats = stats_of(&events);
        Ok(ReplayChunk {
            visit: Hit { website_id: site.id, session_key, ts: now, ..Hit::default() },
            seq: upload.seq,
            data: upload.body,
            is_final: upload.is_final,
            stats,
        })
    }
}

/// Inflates a gzip chunk, refusing more than 8 MiB of output, and parses it as a JSON array of objects.
pub fn inflate_events(gzip: &[u8]) -> Result<Vec<Value>> {
    let mut inflated = Vec::new();
    MultiGzDecoder::new(gzip)
        .take(MAX_INFLATED_BYTES + 1)
        .read_to_end(&mut inflated)
        .map_err(|_| Error::invalid("the replay chunk is not valid gzip"))?;
    if inflated.len() as u64 > MAX_INFLATED_BYTES {
        return Err(Error::TooLarge("a replay chunk must inflate to at most 8 MiB".into()));
    }
    match serde_json::from_slice::<Value>(&inflated) {
        Ok(Value::Array(events)) if events.iter().all(Value::is_object) => Ok(events),
        _ => Err(Error::invalid("a replay chunk must be the gzip of a JSON array of rrweb events")),
    }
}

/// Counts events and clicks, and finds the time span and screen size of a chunk.
pub fn stats_of(events: &[Value]) -> ChunkStats {
    let mut stats = ChunkStats { events: events.len() as i64, ..ChunkStats::default() };
    for event in events {
        let kind = event["type"].as_i64();
        if let Some(ts) = event["timestamp"].as_i64() {
            stats.first_ts = Some(stats.first_ts.map_or(ts, |t| t.min(ts)));
            stats.last_ts = Some(stats.last_ts.map_or(ts, |t| t.max(ts)));
        }
        let data = &event["data"];
        match kind {
            Some(RRWEB_INCREMENTAL)
                if data["source"].as_i64() == Some(RRWEB_SOURCE_MOUSE_INTERACTION)
                    && data["type"].as_i64() == Some(RRWEB_MOUSE_CLICK) =>
            {
                stats.clicks += 1;
            }
            Some(RRWEB_META) if stats.screen.is_none() => {
                if let (Some(w), Some(h)) = (data["width"].as_i64(), data["height"].as_i64())
                    && (1..=100_000).contains(&w)
                    && (1..=100_000).contains(&h)
                {
                    stats.screen = Some(format!("{w}x{h}"));
                }
            }
            _ => {}
        }
    }
    stats
}

#[cfg(test)]
mod tests {
    use super::*;
    use flate2::Compression;
    use flate2::write::GzEncoder;
    use std::io::Write;

    fn gzip(bytes: &[u8]) -> Vec<u8> {
        let mut encoder = GzEncoder::new(Vec::new(), Compression::default());
        encoder.write_all(bytes).unwrap();
        encoder.finish().unwrap()
    }

    #[test]
    fn reads_span_clicks_and_screen() {
        let events = serde_json::json!([
            {"type": 4, "data": {"href": "https://e.com/", "width": 1280, "height": 720}, "timestamp": 1000},
            {"type": 2, "data": {}, "timestamp": 1001},
            {"type": 3, "data": {"source": 2, "type": 2, "id": 5, "x": 1, "y": 2}, "timestamp": 3000},
            {"type": 3, "data": {"source": 2, "type": 1, "id": 5}, "timestamp": 2500},
            {"type": 3, "data": {"source": 1, "positions": []}, "timestamp": 4000}
        ]);
        let parsed = inflate_events(&gzip(events.to_string().as_bytes())).unwrap();
        let stats = stats_of(&parsed);
        assert_eq!(stats.events, 5);
        assert_eq!(stats.clicks, 1);
        assert_eq!((stats.first_ts, stats.last_ts), (Some(1000), Some(4000)));
        assert_eq!(stats.screen.as_deref(), Some("1280x720"));
    }

    #[test]
    fn refuses_bombs_and_non_arrays() {
        let bomb = gzip(&vec![b' '; 9 * 1024 * 1024]);
        assert!(bomb.len() < MAX_CHUNK_BYTES);
        assert!(matches!(inflate_events(&bomb), Err(Error::TooLarge(_))));
        assert!(matches!(inflate_events(&gzip(b"{\"a\":1}")), Err(Error::Invalid(_))));
        assert!(matches!(inflate_events(b"plain"), Err(Error::Invalid(_))));
        assert!(matches!(inflate_events(&gzip(b"[1,2]")), Err(Error::Invalid(_))));
    }
}
