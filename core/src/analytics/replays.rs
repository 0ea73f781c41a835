//! Session recordings: the list of a site's replays with their visit and organization, and one replay's
//! rrweb events for the player, inflated a piece at a time so that a large recording never sits in memory
//! whole.

use std::io::Read;

use flate2::read::MultiGzDecoder;
use rusqlite::types::Value;
use rusqlite::{OptionalExtension, params, params_from_iter};
use serde::Serialize;

use super::{Analytics, TimeRange};
use crate::error::{Error, Result};
use crate::events::{Filters, admitted_visit_condition};
use crate::ingest::replay::MAX_INFLATED_BYTES;
use crate::model::{Millis, UserId, WebsiteId, now_ms, ser_iso};
use crate::store::meta::Meta;

/// A recording is complete once the script said so or no chunk came for this long.
pub const REPLAY_QUIET_MS: Millis = 60_000;
/// Most replays one list call returns.
pub const MAX_REPLAYS: i64 = 100;

/// Which recordings the list shows (spec part 2 §9: all, complete, incomplete, enterprise).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum ReplayFilter {
    #[default]
    All,
    /// Finished: the script sent its last chunk, or nothing came for [`REPLAY_QUIET_MS`].
    Complete,
    /// Still recording.
    Incomplete,
    /// Visits from an organization whose size the site owner set to enterprise (never guessed).
    Enterprise,
}

impl ReplayFilter {
    /// Parses a filter value; anything but the four names is `Invalid`.
    pub fn parse(value: &str) -> Result<Self> {
        match value {
            "all" => Ok(Self::All),
            "complete" => Ok(Self::Complete),
            "incomplete" => Ok(Self::Incomplete),
            "enterprise" => Ok(Self::Enterprise),
            _ => Err(Error::invalid("filter must be all, complete, incomplete or enterprise")),
        }
    }

    fn as_str(self) -> &'static str {
        match self {
            Self::All => "all",
            Self::Complete => "complete",
            Self::Incomplete => "incomplete",
            Self::Enterprise => "enterprise",
        }
    }
}

/// `GET /api/websites/{id}/session-replays` item (spec part 2 §3, plus `clickCount`).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReplaySummary {
    pub id: i64,
    pub session_id: String,
    #[serde(serialize_with = "ser_iso")]
    #[schema(value_type = String, format = DateTime)]
    pub start_time: Millis,
    /// Seconds between the first and the last recorded event.
    pub duration: i64,
    /// Compressed bytes stored.
    pub file_size: i64,
    pub screen_resolution: Option<String>,
    pub is_complete: bool,
    /// Clicks recorded (rrweb mouse-interaction click events).
    pub click_count: i64,
    pub session: ReplaySession,
    pub organization: Option<ReplayOrganization>,
}

/// `GET /api/replays/{id}`: one recording and the site it belongs to.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReplayDetail {
    pub website_id: WebsiteId,
    pub replay: ReplaySummary,
}

/// The recorded visit.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReplaySession {
    pub device_type: String,
    pub browser: String,
    pub os: String,
    pub country: String,
    pub ip_address: Option<String>,
    pub page_view_count: i64,
}

/// Who the visit came from.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReplayOrganization {
    pub organization_name: String,
    pub industry: Option<String>,
    pub size: Option<String>,
}

/// `GET /api/websites/{id}/session-replays/stats`: the four cards of the Session Replays screen over every
/// recording of the range that passes the filter (the list shows at most [`MAX_REPLAYS`]).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReplayStats {
    pub total: i64,
    pub complete: i64,
    /// Seconds, over all the recordings counted.
    pub average_duration: f64,
    /// Recordings of visits from organizations the owner set to enterprise.
    pub enterprise: i64,
}

/// Which recordings of a site pass a filter and touch a range; ?1 site, ?2..?3 range, ?4 filter, ?5 the
/// time before which a recording without its final chunk counts as complete. Shared by list and stats.
const REPLAYS_MATCHING: &str = "FROM replays r
     JOIN sessions s ON s.id = r.session_id
     LEFT JOIN organizations o ON o.id = s.organization_id
     WHERE r.website_id = ?1 AND r.last_chunk_at >= ?2 AND r.started_at < ?3
       AND CASE ?4
           WHEN 'complete' THEN r.is_final = 1 OR r.last_chunk_at <= ?5
           WHEN 'incomplete' THEN r.is_final = 0 AND r.last_chunk_at > ?5
           WHEN 'enterprise' THEN o.size = 'enterprise'
           ELSE 1 END";

/// What [`summary`] reads, from `replays r`, `sessions s` and `organizations o` joined as in [`REPLAYS_MATCHING`].
const SUMMARY_COLUMNS: &str = "r.id, s.session_key, r.started_at, r.ended_at, r.byte_size, r.screen, r.is_final,
     r.last_chunk_at, r.click_count, s.device, s.browser, s.os, s.country, s.ip_address, s.page_views, s.screen,
     o.name, o.industry, o.size";

/// Whether a recording is complete at `now`: the script sent its last chunk, or nothing came for
/// [`REPLAY_QUIET_MS`].
pub(crate) fn is_complete(is_final: bool, last_chunk_at: Millis, now: Millis) -> bool {
    is_final || now - last_chunk_at >= REPLAY_QUIET_MS
}

/// A recording's length in whole seconds, between its first and its last event.
pub(crate) fn duration_seconds(started_at: Millis, ended_at: Millis) -> i64 {
    (ended_at - started_at).max(0) / 1000
}

/// The screen the list shows: the recording's own, else its visit's.
pub(crate) fn screen_resolution(recording: String, visit: String) -> Option<String> {
    non_empty(recording).or_else(|| non_empty(visit))
}

/// A visit's organization as the list shows it: its name, and the owner's industry and size where set.
pub(crate) fn replay_organization(name: String, industry: String, size: String) -> ReplayOrganization {
    ReplayOrganization { organization_name: name, industry: non_empty(industry), size: non_empty(size) }
}

/// A row of [`SUMMARY_COLUMNS`] as a list item.
fn summary(r: &rusqlite::Row, now: Millis) -> rusqlite::Result<ReplaySummary> {
    let started: Millis = r.get(2)?;
    let org_name: Option<String> = r.get(16)?;
    Ok(ReplaySummary {
        id: r.get(0)?,
        session_id: r.get(1)?,
        start_time: started,
        duration: duration_seconds(started, r.get(3)?),
        file_size: r.get(4)?,
        screen_resolution: screen_resolution(r.get(5)?, r.get(15)?),
        is_complete: is_complete(r.get(6)?, r.get(7)?, now),
        click_count: r.get(8)?,
        session: ReplaySession {
            device_type: r.get(9)?,
            browser: r.get(10)?,
            os: r.get(11)?,
            country: r.get(12)?,
            ip_address: r.get(13)?,
            page_view_count: r.get(14)?,
        },
        organization: match org_name {
            Some(name) => Some(replay_organization(
                name,
                r.get::<_, Option<String>>(17)?.unwrap_or_default(),
                r.get::<_, Option<String>>(18)?.unwrap_or_default(),
            )),
            None => None,
        },
    })
}

fn non_empty(s: String) -> Option<String> {
    (!s.is_empty()).then_some(s)
}

impl Analytics {
    /// Recordings of a site with activity in `range` that pass `filter`, of visits `filters` admit, newest first,
    /// at most `limit` (≤ 100).
    pub fn replays(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        filter: ReplayFilter,
        limit: i64,
    ) -> Result<Vec<ReplaySummary>> {
        let now = now_ms();
        let (admitted, values) = admitted_visit_condition(filters, 6);
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT {SUMMARY_COLUMNS}
                 {REPLAYS_MATCHING} AND {admitted}
                 ORDER BY r.id DESC LIMIT ?6"
            ))?;
            let quiet_since = now - REPLAY_QUIET_MS;
            let bound: [Value; 6] = [
                site.into(),
                range.start.into(),
                range.end.into(),
                filter.as_str().to_string().into(),
                quiet_since.into(),
                limit.clamp(1, MAX_REPLAYS).into(),
            ];
            let rows = stmt.query_map(params_from_iter(bound.into_iter().chain(values)), |r| summary(r, now))?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

    /// The Session Replays cards over every recording of `range` that passes `filter`, of visits `filters` admit.
    pub fn replay_stats(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        filter: ReplayFilter,
    ) -> Result<ReplayStats> {
        let quiet_since = now_ms() - REPLAY_QUIET_MS;
        let (admitted, values) = admitted_visit_condition(filters, 5);
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(&format!(
                "SELECT count(*),
                        coalesce(sum(r.is_final = 1 OR r.last_chunk_at <= ?5), 0),
                        coalesce(avg(max(r.ended_at - r.started_at, 0) / 1000), 0.0),
                        coalesce(sum(o.size = 'enterprise'), 0)
                 {REPLAYS_MATCHING} AND {admitted}"
            ))?;
            let bound: [Value; 5] = [
                site.into(),
                range.start.into(),
                range.end.into(),
                filter.as_str().to_string().into(),
                quiet_since.into(),
            ];
            Ok(stmt.query_row(params_from_iter(bound.into_iter().chain(values)), |r| {
                Ok(ReplayStats {
                    total: r.get(0)?,
                    complete: r.get(1)?,
                    average_duration: r.get(2)?,
                    enterprise: r.get(3)?,
                })
            })?)
        })
    }

    /// One recording of one of `owner`'s sites as the list shows it, and its site (a link to a recording opens
    /// it); another user's replay is `NotFound` exactly like a missing one.
    pub fn replay(&self, owner: UserId, replay: i64) -> Result<ReplayDetail> {
        let now = now_ms();
        self.db.read(|conn| {
            let found = conn
                .prepare_cached(&format!(
                    "SELECT {SUMMARY_COLUMNS}, r.website_id
                     FROM replays r
                     JOIN websites w ON w.id = r.website_id
                     JOIN sessions s ON s.id = r.session_id
                     LEFT JOIN organizations o ON o.id = s.organization_id
                     WHERE r.id = ?1
                     AND (w.user_id = ?2 OR w.id IN (SELECT website_id FROM site_members WHERE user_id = ?2))"
                ))?
                .query_row(params![replay, owner], |r| {
                    Ok(ReplayDetail { website_id: r.get(19)?, replay: summary(r, now)? })
                })
                .optional()?;
            found.ok_or(Error::NotFound("replay"))
        })
    }

    /// The rrweb events of a recording of one of `owner`'s sites, in seq order, as pieces of one JSON array's
    /// items; another user's replay is `NotFound` exactly like a missing one.
    pub fn replay_events(&self, owner: UserId, replay: i64) -> Result<ReplayEvents> {
        ReplayEvents::of(crate::store::meta::sqlite(self.db.clone()), owner, replay)
    }
}

/// Bytes inflated per piece: what one reader holds at a time, besides its compressed chunk (≤ 512 KiB).
const PIECE_BYTES: usize = 64 * 1024;

/// The events of a recording as pieces of JSON: the items of every chunk's array, without the brackets, with
/// a comma between chunks, so that `[`, the pieces and `]` make one array. Chunks are inflated a piece at a
/// time and each is read in its own short read (a slow client holds no connection), so a reader costs a
/// compressed chunk and a few pieces whatever the recording's size.
pub struct ReplayEvents {
    /// Where the chunks are: SQLite, or PostgreSQL in cluster mode.
    store: Meta,
    replay: i64,
    seqs: std::vec::IntoIter<i64>,
    chunk: Option<ChunkItems>,
    /// Whether an event was given already (the next chunk's need a comma).
    any: bool,
}

/// The chunk being inflated.
struct ChunkItems {
    seq: i64,
    gzip: std::io::Take<MultiGzDecoder<std::io::Cursor<Vec<u8>>>>,
    /// Past the array's opening bracket.
    opened: bool,
    /// Whether this chunk gave an event yet.
    started: bool,
    /// Inflated bytes not given yet: from the last non-space byte on, which may be the closing bracket.
    held: Vec<u8>,
}

impl ReplayEvents {
    /// The events of a recording of one of `owner`'s sites kept in `store`; another user's replay is
    /// `NotFound` exactly like a missing one.
    pub(crate) fn of(store: Meta, owner: UserId, replay: i64) -> Result<ReplayEvents> {
        if store.owned_replay(owner, replay)?.is_none() {
            return Err(Error::NotFound("replay"));
        }
        let seqs = store.replay_chunk_seqs(replay)?;
        Ok(ReplayEvents { store, replay, seqs: seqs.into_iter(), chunk: None, any: false })
    }

    /// The next stored chunk, or `None` at the end; a chunk deleted meanwhile (retention, the site's deletion)
    /// is skipped.
    fn open_next(&mut self) -> Result<Option<ChunkItems>> {
        for seq in self.seqs.by_ref() {
            let gzip = self.store.replay_chunk(self.replay, seq)?;
            if let Some(gzip) = gzip {
                let gzip = MultiGzDecoder::new(std::io::Cursor::new(gzip)).take(MAX_INFLATED_BYTES);
                return Ok(Some(ChunkItems { seq, gzip, opened: false, started: false, held: Vec::new() }));
            }
        }
        Ok(None)
    }

    /// The next piece of the current chunk, `None` once it is done.
    fn piece(&mut self) -> Result<Option<Vec<u8>>> {
        let replay = self.replay;
        let Some(chunk) = self.chunk.as_mut() else { return Ok(None) };
        let seq = chunk.seq;
        let broken = |what: &str| Error::Internal(format!("replay {replay} chunk {seq}: {what}"));
        let mut buf = vec![0; PIECE_BYTES];
        loop {
            let n = chunk.gzip.read(&mut buf).map_err(|_| broken("not gzip"))?;
            if n == 0 {
                // Only the closing bracket (and spaces) may be left.
                return match chunk.held.trim_ascii() {
                    b"]" if chunk.opened => Ok(None),
                    _ => Err(broken("not a JSON array")),
                };
            }
            let mut data = &buf[..n];
            if !chunk.opened {
                data = data.trim_ascii_start();
                match data.first() {
                    None => continue,
                    Some(b'[') => {
                        chunk.opened = true;
                        data = &data[1..];
                    }
                    Some(_) => return Err(broken("not a JSON array")),
                }
            }
            chunk.held.extend_from_slice(data);
            let Some(last) = chunk.held.iter().rposition(|b| !b.is_ascii_whitespace()) else {
                if !chunk.started {
                    // Spaces before the first event mean nothing.
                    chunk.held.clear();
                }
                continue;
            };
            if last == 0 {
                continue;
            }
            let mut rest = chunk.held.split_off(last);
            std::mem::swap(&mut rest, &mut chunk.held);
            let mut piece = rest;
            if !chunk.started {
                let lead = piece.len() - piece.trim_ascii_start().len();
                piece.drain(..lead);
                if piece.is_empty() {
                    continue;
                }
                chunk.started = true;
                if self.any {
                    piece.insert(0, b',');
                }
                self.any = true;
            }
            return Ok(Some(piece));
        }
    }
}

impl Iterator for ReplayEvents {
    type Item = Result<Vec<u8>>;

    fn next(&mut self) -> Option<Result<Vec<u8>>> {
        loop {
            if self.chunk.is_none() {
                match self.open_next() {
                    Ok(Some(chunk)) => self.chunk = Some(chunk),
                    Ok(None) => return None,
                    Err(e) => return Some(Err(e)),
                }
            }
            match self.piece() {
                Ok(Some(piece)) => return Some(Ok(piece)),
                Ok(None) => self.chunk = None,
                Err(e) => {
                    // Nothing sensible can follow a broken chunk: the stream ends here.
                    self.chunk = None;
                    self.seqs = Vec::new().into_iter();
                    return Some(Err(e));
                }
            }
        }
    }
}
