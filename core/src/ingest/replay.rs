//! `POST /api/replay`: one gzip chunk of rrweb events. Validates that it inflates (within bounds on size and
//! compression ratio) to a JSON array of objects and reads what the replay list shows: time span, clicks,
//! screen size. The events are read as they are parsed, never built into a tree: a chunk's inflated JSON
//! would take several times its size as `serde_json::Value`s.

use std::fmt;
use std::io::Read;

use flate2::read::MultiGzDecoder;
use serde::de::{DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use super::hit::{Hit, validate_session_id};
use crate::error::{Error, Result};
use crate::model::{Millis, Website};

/// Largest compressed chunk accepted.
pub const MAX_CHUNK_BYTES: usize = 512 * 1024;
/// Largest inflated chunk: a bound against decompression bombs.
pub const MAX_INFLATED_BYTES: u64 = 8 * 1024 * 1024;
/// Largest recording of one visit, compressed.
pub const MAX_RECORDING_BYTES: i64 = 20 * 1024 * 1024;
/// Largest recording of one visit, inflated: what the player downloads and parses at most.
pub const MAX_RECORDING_INFLATED_BYTES: i64 = 64 * 1024 * 1024;
/// Highest inflated/compressed ratio of a chunk. rrweb JSON gzips about 5 to 20 times; past 100 times the
/// chunk is padding (whitespace, repeated bytes) made to cost the server more than the sender.
pub const MAX_COMPRESSION_RATIO: u64 = 100;
/// Chunks inflating to less than this are not held to the ratio (a tiny gzip has a fixed 20-byte frame).
const RATIO_FREE_BYTES: u64 = 64 * 1024;
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
    /// Bytes of JSON once inflated.
    pub inflated: i64,
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
        let inflated = inflate(&upload.body)?;
        let stats = read_events(&inflated)?;
        Ok(ReplayChunk {
            visit: Hit { website_id: site.id, session_key, ts: now, ..Hit::default() },
            seq: upload.seq,
            data: upload.body,
            is_final: upload.is_final,
            stats,
        })
    }
}

/// Inflates a gzip chunk, refusing more than 8 MiB of output or a compression ratio past 100.
pub fn inflate(gzip: &[u8]) -> Result<Vec<u8>> {
    let mut inflated = Vec::new();
    MultiGzDecoder::new(gzip)
        .take(MAX_INFLATED_BYTES + 1)
        .read_to_end(&mut inflated)
        .map_err(|_| Error::invalid("the replay chunk is not valid gzip"))?;
    let size = inflated.len() as u64;
    if size > MAX_INFLATED_BYTES {
        return Err(Error::TooLarge("a replay chunk must inflate to at most 8 MiB".into()));
    }
    if size > RATIO_FREE_BYTES && size > MAX_COMPRESSION_RATIO * gzip.len() as u64 {
        return Err(Error::TooLarge("a replay chunk must not inflate to more than 100 times its size".into()));
    }
    Ok(inflated)
}

/// Checks that inflated JSON is an array of objects and reads its stats on the way.
pub fn read_events(json: &[u8]) -> Result<ChunkStats> {
    let refused = || Error::invalid("a replay chunk must be the gzip of a JSON array of rrweb events");
    let mut de = serde_json::Deserializer::from_slice(json);
    let mut stats = de.deserialize_seq(EventsVisitor).map_err(|_| refused())?;
    de.end().map_err(|_| refused())?;
    stats.inflated = json.len() as i64;
    Ok(stats)
}

/// A JSON number read as an integer, anything else as nothing (what `Value::as_i64` gives).
struct Int(Option<i64>);

impl<'de> serde::Deserialize<'de> for Int {
    fn deserialize<D: Deserializer<'de>>(de: D) -> std::result::Result<Int, D::Error> {
        struct IntVisitor;
        impl<'de> Visitor<'de> for IntVisitor {
            type Value = Int;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_i64<E>(self, v: i64) -> std::result::Result<Int, E> {
                Ok(Int(Some(v)))
            }
            fn visit_u64<E>(self, v: u64) -> std::result::Result<Int, E> {
                Ok(Int(i64::try_from(v).ok()))
            }
            fn visit_f64<E>(self, _: f64) -> std::result::Result<Int, E> {
                Ok(Int(None))
            }
            fn visit_bool<E>(self, _: bool) -> std::result::Result<Int, E> {
                Ok(Int(None))
            }
            fn visit_str<E>(self, _: &str) -> std::result::Result<Int, E> {
                Ok(Int(None))
            }
            fn visit_unit<E>(self) -> std::result::Result<Int, E> {
                Ok(Int(None))
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<Int, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(Int(None))
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Int, A::Error> {
                while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
                Ok(Int(None))
            }
        }
        de.deserialize_any(IntVisitor)
    }
}

/// The fields of an event's `data` that the stats read; `None` when `data` is not an object.
#[derive(Default)]
struct EventData {
    source: Option<i64>,
    kind: Option<i64>,
    width: Option<i64>,
    height: Option<i64>,
}

impl<'de> serde::Deserialize<'de> for EventData {
    fn deserialize<D: Deserializer<'de>>(de: D) -> std::result::Result<EventData, D::Error> {
        struct DataVisitor;
        impl<'de> Visitor<'de> for DataVisitor {
            type Value = EventData;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("any JSON value")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<EventData, A::Error> {
                let mut data = EventData::default();
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    match key.as_ref() {
                        "source" => data.source = map.next_value::<Int>()?.0,
                        "type" => data.kind = map.next_value::<Int>()?.0,
                        "width" => data.width = map.next_value::<Int>()?.0,
                        "height" => data.height = map.next_value::<Int>()?.0,
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(data)
            }
            fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<EventData, A::Error> {
                while seq.next_element::<IgnoredAny>()?.is_some() {}
                Ok(EventData::default())
            }
            fn visit_i64<E>(self, _: i64) -> std::result::Result<EventData, E> {
                Ok(EventData::default())
            }
            fn visit_u64<E>(self, _: u64) -> std::result::Result<EventData, E> {
                Ok(EventData::default())
            }
            fn visit_f64<E>(self, _: f64) -> std::result::Result<EventData, E> {
                Ok(EventData::default())
            }
            fn visit_bool<E>(self, _: bool) -> std::result::Result<EventData, E> {
                Ok(EventData::default())
            }
            fn visit_str<E>(self, _: &str) -> std::result::Result<EventData, E> {
                Ok(EventData::default())
            }
            fn visit_unit<E>(self) -> std::result::Result<EventData, E> {
                Ok(EventData::default())
            }
        }
        de.deserialize_any(DataVisitor)
    }
}

/// One event: an object (anything else is refused), of which `type`, `timestamp` and `data` are read.
struct Event {
    kind: Option<i64>,
    timestamp: Option<i64>,
    data: EventData,
}

impl<'de> serde::Deserialize<'de> for Event {
    fn deserialize<D: Deserializer<'de>>(de: D) -> std::result::Result<Event, D::Error> {
        struct EventVisitor;
        impl<'de> Visitor<'de> for EventVisitor {
            type Value = Event;
            fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
                f.write_str("an rrweb event object")
            }
            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> std::result::Result<Event, A::Error> {
                let mut event = Event { kind: None, timestamp: None, data: EventData::default() };
                while let Some(key) = map.next_key::<std::borrow::Cow<'de, str>>()? {
                    match key.as_ref() {
                        "type" => event.kind = map.next_value::<Int>()?.0,
                        "timestamp" => event.timestamp = map.next_value::<Int>()?.0,
                        "data" => event.data = map.next_value()?,
                        _ => {
                            map.next_value::<IgnoredAny>()?;
                        }
                    }
                }
                Ok(event)
            }
        }
        de.deserialize_map(EventVisitor)
    }
}

/// Reads the array's events one at a time into the chunk's stats.
struct EventsVisitor;

impl<'de> Visitor<'de> for EventsVisitor {
    type Value = ChunkStats;
    fn expecting(&self, f: &mut fmt::Formatter) -> fmt::Result {
        f.write_str("a JSON array of rrweb events")
    }
    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> std::result::Result<ChunkStats, A::Error> {
        let mut stats = ChunkStats::default();
        while let Some(event) = seq.next_element_seed(EventSeed)? {
            add_event(&mut stats, event);
        }
        Ok(stats)
    }
}

struct EventSeed;

impl<'de> DeserializeSeed<'de> for EventSeed {
    type Value = Event;
    fn deserialize<D: Deserializer<'de>>(self, de: D) -> std::result::Result<Event, D::Error> {
        serde::Deserialize::deserialize(de)
    }
}

/// Counts an event and its click, and widens the time span; the first meta event gives the screen size.
fn add_event(stats: &mut ChunkStats, event: Event) {
    stats.events += 1;
    if let Some(ts) = event.timestamp {
        stats.first_ts = Some(stats.first_ts.map_or(ts, |t| t.min(ts)));
        stats.last_ts = Some(stats.last_ts.map_or(ts, |t| t.max(ts)));
    }
    let data = &event.data;
    match event.kind {
        Some(RRWEB_INCREMENTAL)
            if data.source == Some(RRWEB_SOURCE_MOUSE_INTERACTION) && data.kind == Some(RRWEB_MOUSE_CLICK) =>
        {
            stats.clicks += 1;
        }
        Some(RRWEB_META) if stats.screen.is_none() => {
            if let (Some(w), Some(h)) = (data.width, data.height)
                && (1..=100_000).contains(&w)
                && (1..=100_000).contains(&h)
            {
                stats.screen = Some(format!("{w}x{h}"));
            }
        }
        _ => {}
    }
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
        let stats = read_events(&inflate(&gzip(events.to_string().as_bytes())).unwrap()).unwrap();
        assert_eq!(stats.events, 5);
        assert_eq!(stats.clicks, 1);
        assert_eq!((stats.first_ts, stats.last_ts), (Some(1000), Some(4000)));
        assert_eq!(stats.screen.as_deref(), Some("1280x720"));
        assert_eq!(stats.inflated, events.to_string().len() as i64);
    }

    #[test]
    fn refuses_bombs_and_non_arrays() {
        let bomb = gzip(&vec![b' '; 9 * 1024 * 1024]);
        assert!(bomb.len() < MAX_CHUNK_BYTES);
        assert!(matches!(inflate(&bomb), Err(Error::TooLarge(_))));
        assert!(matches!(inflate(b"plain"), Err(Error::Invalid(_))));
        for bad in [&b"{\"a\":1}"[..], b"[1,2]", b"[{}] x", b"[{},]", b"[[]]", b"", b"[{\"type\":}]"] {
            assert!(matches!(read_events(bad), Err(Error::Invalid(_))), "{}", String::from_utf8_lossy(bad));
        }
    }

    #[test]
    fn refuses_absurd_compression_ratios() {
        // 1 MiB of empty events compresses far past 100 times; a tiny chunk is not held to the ratio.
        let padded = format!("[{}{{}}]", "{},".repeat(350_000));
        assert!(matches!(inflate(&gzip(padded.as_bytes())), Err(Error::TooLarge(_))));
        let small = gzip(b"[]");
        assert_eq!(inflate(&small).unwrap(), b"[]");
    }
}
