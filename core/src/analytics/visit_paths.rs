//! The path tallies of `visit_hours`: an hour's paths in their stored form (two blobs) and the exact top paths
//! over many hours and sites, read by `journeys.rs`.

use std::collections::HashMap;

use super::visit_hours::{JourneyTotals, PathCount};
use crate::error::Result;
use crate::model::WebsiteId;

/// Journey totals and path tallies of the visits of one site that started in `range`.
pub struct SiteJourneys {
    pub totals: JourneyTotals,
    /// Path tallies, one per hour.
    pub(super) paths: Vec<PathHour>,
}

/// One hour's path tallies (see [`encode_paths`]); the keys of a stored hour are read only when needed.
pub(super) struct PathHour {
    pub(super) site: WebsiteId,
    pub(super) hour: i64,
    pub(super) records: Vec<u8>,
    pub(super) keys: Option<Vec<u8>>,
}

/// 64-bit FNV-1a: a stable hash of a path key (stored, so it must not change between releases).
fn fnv(text: &str) -> u64 {
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    for &b in text.as_bytes() {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    }
    h
}

/// An hour's path tallies as two blobs: records (a u32 count n, then n records of hash u64, visits u32,
/// converted u32, most visits first) and keys (the n keys in the same order, each a u32 length and its UTF-8
/// bytes). A read scans the fixed-size records and reads keys for the few winners only.
pub(super) fn encode_paths(paths: &HashMap<String, (u64, u64)>) -> (Vec<u8>, Vec<u8>) {
    let mut list: Vec<(&String, &(u64, u64))> = paths.iter().collect();
    list.sort_by(|a, b| b.1.0.cmp(&a.1.0).then_with(|| a.0.cmp(b.0)));
    let mut records = Vec::with_capacity(4 + list.len() * 16);
    records.extend((list.len() as u32).to_le_bytes());
    let mut keys = Vec::with_capacity(list.len() * 32);
    for (key, (sessions, conversions)) in &list {
        records.extend(fnv(key).to_le_bytes());
        records.extend((*sessions as u32).to_le_bytes());
        records.extend((*conversions as u32).to_le_bytes());
        keys.extend((key.len() as u32).to_le_bytes());
        keys.extend(key.as_bytes());
    }
    (records, keys)
}

fn u32_at(blob: &[u8], at: usize) -> u32 {
    blob.get(at..at + 4).map_or(0, |b| u32::from_le_bytes([b[0], b[1], b[2], b[3]]))
}

/// Record `i` of a path blob: (hash, visits, converted).
fn record(blob: &[u8], i: usize) -> (u64, u64, u64) {
    let at = 4 + i * 16;
    let hash = blob.get(at..at + 8).map_or(0, |b| u64::from_le_bytes(b.try_into().unwrap_or([0; 8])));
    (hash, u64::from(u32_at(blob, at + 8)), u64::from(u32_at(blob, at + 12)))
}

/// The records of a records blob in order: (hash, visits, converted).
fn records(blob: &[u8]) -> impl Iterator<Item = (u64, u64, u64)> + '_ {
    let n = u32_at(blob, 0) as usize;
    blob.get(4..4 + n * 16).unwrap_or(&[]).chunks_exact(16).map(|c| {
        let word = |at: usize| u64::from(u32::from_le_bytes([c[at], c[at + 1], c[at + 2], c[at + 3]]));
        (word(0) | (word(4) << 32), word(8), word(12))
    })
}

/// Where each key of a keys blob starts.
fn key_offsets(blob: &[u8]) -> Vec<usize> {
    let mut at = 0;
    let mut out = Vec::new();
    while at + 4 <= blob.len() {
        out.push(at);
        at += 4 + u32_at(blob, at) as usize;
    }
    out
}

/// The key starting at `at` of a keys blob.
fn key_at(blob: &[u8], at: usize) -> String {
    let len = u32_at(blob, at) as usize;
    blob.get(at + 4..at + 4 + len).map(|b| String::from_utf8_lossy(b).into_owned()).unwrap_or_default()
}

/// The `top` most common paths over the hours of some sites, and the visits with at least one page view.
///
/// Exact without building a table of every path: records are sorted by visits within each hour, so the
/// paths with at least `t` visits in some hour are the candidates; their exact totals come from one probe
/// of every record; a path that is no candidate has fewer than `t` visits in every hour, so at most the sum
/// of each hour's largest count below `t`. When that bound could reach the top, `t` is lowered and the
/// rounds repeat (at `t` = 1 every path is a candidate).
/// `keys`: reads a stored hour's keys blob.
pub fn top_paths(
    journeys: &[SiteJourneys],
    top: usize,
    mut keys: impl FnMut(WebsiteId, i64) -> Result<Vec<u8>>,
) -> Result<(Vec<PathCount>, u64)> {
    let hours: Vec<&PathHour> = journeys.iter().flat_map(|j| j.paths.iter()).collect();
    let blobs: Vec<&[u8]> = hours.iter().map(|h| h.records.as_slice()).collect();
    let total: u64 = blobs.iter().map(|b| records(b).map(|r| r.1).sum::<u64>()).sum();
    // Start at half the typical hour's largest count: most hours then offer a candidate or two.
    let mut tops: Vec<u64> = blobs.iter().filter(|b| u32_at(b, 0) > 0).map(|b| record(b, 0).1).collect();
    tops.sort_unstable();
    let mut threshold: u64 = (tops.get(tops.len() / 2).copied().unwrap_or(1) / 2).max(1);
    loop {
        // Candidate hash -> (visits, converted, where its key is). The probes below are most of the work.
        let mut candidates: HashMap<u64, (u64, u64, usize, usize), foldhash::fast::FixedState> = HashMap::default();
        let mut bound = 0u64;
        for (b, blob) in blobs.iter().enumerate() {
            for (i, (hash, sessions, _)) in records(blob).enumerate() {
                if sessions < threshold {
                    bound += sessions;
                    break;
                }
                candidates.entry(hash).or_insert((0, 0, b, i));
            }
        }
        // Too few candidates while others exist: no exact answer at this threshold, so no need to count.
        if candidates.len() < top && bound > 0 && threshold > 1 {
            threshold = (threshold / 4).max(1);
            continue;
        }
        for blob in &blobs {
            for (hash, sessions, conversions) in records(blob) {
                if let Some(c) = candidates.get_mut(&hash) {
                    c.0 += sessions;
                    c.1 += conversions;
                }
            }
        }
        let mut ranked: Vec<(u64, u64, usize, usize, u64)> =
            candidates.into_iter().map(|(hash, (s, c, b, i))| (s, c, b, i, hash)).collect();
        ranked.sort_by_key(|r| std::cmp::Reverse(r.0));
        let kth = if ranked.len() >= top { ranked.get(top.saturating_sub(1)).map_or(0, |r| r.0) } else { 0 };
        let exact = threshold <= 1 || (ranked.len() >= top && top > 0 && kth > bound) || bound == 0;
        if !exact {
            threshold = (threshold / 4).max(1);
            continue;
        }
        // Ties at the cut are broken by the pages, as the raw answer does: keys only for those in reach.
        let reach = ranked.get(top.saturating_sub(1)).map_or(0, |r| r.0);
        let mut read: HashMap<usize, (Vec<u8>, Vec<usize>)> = HashMap::new();
        let mut list: Vec<PathCount> = Vec::new();
        for (sessions, conversions, b, i, hash) in ranked.into_iter().filter(|r| r.0 >= reach) {
            let (blob, offsets) = match read.entry(b) {
                std::collections::hash_map::Entry::Occupied(known) => known.into_mut(),
                std::collections::hash_map::Entry::Vacant(slot) => {
                    let blob = match &hours[b].keys {
                        Some(blob) => blob.clone(),
                        None => keys(hours[b].site, hours[b].hour)?,
                    };
                    let offsets = key_offsets(&blob);
                    slot.insert((blob, offsets))
                }
            };
            let key = offsets.get(i).map(|&at| key_at(blob, at)).unwrap_or_default();
            // A stored hour recomputed since its records were read: the caller reads again.
            if fnv(&key) != hash {
                return Err(crate::error::Error::Conflict("path keys changed while read".into()));
            }
            list.push(PathCount { pages: key.split('\n').map(str::to_string).collect(), sessions, conversions });
        }
        list.sort_by(|a, b| b.sessions.cmp(&a.sessions).then_with(|| a.pages.cmp(&b.pages)));
        list.truncate(top);
        return Ok((list, total));
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn path_blobs_round_trip_and_top_paths_are_exact() {
        // Hour 1: a popular path; hour 2: many one-visit paths whose sum beats a high threshold's bound.
        let mut h1 = HashMap::new();
        h1.insert("/".to_string(), (100, 3));
        h1.insert("/\n/a".to_string(), (2, 0));
        let mut h2 = HashMap::new();
        for i in 0..300 {
            h2.insert(format!("/x{i}"), (1, 0));
        }
        h2.insert("/\n/a".to_string(), (1, 1));
        let (records1, keys1) = encode_paths(&h1);
        assert_eq!(record(&records1, 0).1, 100);
        assert_eq!(records(&records1).map(|r| r.1).collect::<Vec<_>>(), [100, 2]);
        assert_eq!(records(&records1).next().unwrap().0, fnv("/"));
        assert_eq!(key_at(&keys1, key_offsets(&keys1)[1]), "/\n/a");
        let (records2, keys2) = encode_paths(&h2);
        let journeys = [SiteJourneys {
            totals: JourneyTotals::default(),
            paths: vec![
                // The first hour's keys are read on demand, as a stored hour's are.
                PathHour { site: 1, hour: 7, records: records1, keys: None },
                PathHour { site: 1, hour: 8, records: records2, keys: Some(keys2) },
            ],
        }];
        let stored = |site: WebsiteId, hour: i64| {
            assert_eq!((site, hour), (1, 7));
            Ok(keys1.clone())
        };
        let (top, total) = top_paths(&journeys, 2, stored).unwrap();
        assert_eq!(total, 403);
        assert_eq!(top[0], PathCount { pages: vec!["/".into()], sessions: 100, conversions: 3 });
        assert_eq!(top[1], PathCount { pages: vec!["/".into(), "/a".into()], sessions: 3, conversions: 1 });
        let (three, _) = top_paths(&journeys, 3, stored).unwrap();
        // Ties (one visit each) are broken by the pages.
        assert_eq!(three[2].pages, vec!["/x0".to_string()]);
    }
}
