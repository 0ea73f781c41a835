//! Advanced Analytics' intent scores: each visit of a stored hour scored under the site's model and kept in a
//! few bytes, so the AI intent read sums stored scores instead of loading and scoring thousands of visits.

use std::collections::HashMap;

use rusqlite::{Connection, OptionalExtension, params};

use super::hours::{HOUR_MS, stored_hours};
use super::{HIGH_INTENT, pattern_of};
use crate::analytics::TimeRange;
use crate::analytics::intent::{self, IntentModel, SessionFeatures, SourceType};
use crate::error::Result;
use crate::model::{Millis, WebsiteId};

/// One of the range's visits scored under a model, as stored per hour: what the AI intent read counts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ScoredVisit {
    pub(super) id: i64,
    pub(super) score: i64,
    facts: u8,
}

pub(super) const CONVERTED: u8 = 1;
/// One page for under 30 seconds (a low score makes it window shopping).
pub(super) const GLANCE: u8 = 2;
/// Viewed a page the model counts as preceding conversions.
pub(super) const KEY_PAGE: u8 = 4;
/// Viewed the model's first key page (the one the key-page recommendation cites).
pub(super) const FIRST_KEY_PAGE: u8 = 8;
pub(super) const RETURNING: u8 = 16;
/// The source type's index in [`SourceType::ALL`], in the top three bits.
const SOURCE_SHIFT: u8 = 5;
/// Bytes a stored visit takes: score, facts, id.
const STORED_VISIT: usize = 10;

impl ScoredVisit {
    pub(crate) fn of(model: &IntentModel, f: &SessionFeatures) -> ScoredVisit {
        let score = model.score_without_reasons(f);
        let source = SourceType::ALL.iter().position(|&s| s == f.source).unwrap_or(0) as u8;
        let first_key = model.info.key_pages.first().is_some_and(|k| f.pages.contains(&k.page));
        let facts = (f.converted as u8 * CONVERTED)
            | ((f.page_views <= 1 && f.duration_s < 30) as u8 * GLANCE)
            | (score.key_page.is_some() as u8 * KEY_PAGE)
            | (first_key as u8 * FIRST_KEY_PAGE)
            | (f.returning as u8 * RETURNING)
            | (source << SOURCE_SHIFT);
        ScoredVisit { id: f.session_id, score: score.score, facts }
    }

    pub(super) fn has(self, fact: u8) -> bool {
        self.facts & fact != 0
    }

    pub(super) fn source(self) -> SourceType {
        SourceType::ALL[((self.facts >> SOURCE_SHIFT) as usize).min(SourceType::ALL.len() - 1)]
    }

    /// The visit's pattern (see [`pattern`]).
    pub(super) fn pattern(self) -> &'static str {
        pattern_of(self.score, self.has(GLANCE))
    }
}

fn encode(visits: &[ScoredVisit]) -> Vec<u8> {
    let mut out = Vec::with_capacity(visits.len() * STORED_VISIT);
    for v in visits {
        out.push(v.score.clamp(0, 100) as u8);
        out.push(v.facts);
        out.extend_from_slice(&v.id.to_le_bytes());
    }
    out
}

fn decode(bytes: &[u8]) -> impl Iterator<Item = ScoredVisit> + '_ {
    bytes.chunks_exact(STORED_VISIT).map(|c| ScoredVisit {
        score: c[0] as i64,
        facts: c[1],
        id: i64::from_le_bytes(c[2..].try_into().expect("eight bytes")),
    })
}

/// The range's newest `limit` visits scored under `model`, newest first: what scoring
/// `intent::load_features(range, limit)` gives, without loading and scoring thousands of visits on every read.
/// A stored hour answers from its stored scores when they are `model`'s and is scored again (and stored) when
/// a refit made them stale; the hours not stored (the current ones) are scored live, and their features are
/// returned by id so that listing them needs no second load.
pub(super) fn newest_scored(
    conn: &Connection,
    site: WebsiteId,
    range: TimeRange,
    model: &IntentModel,
    limit: i64,
) -> Result<(Vec<ScoredVisit>, HashMap<i64, SessionFeatures>)> {
    let stored = stored_hours(conn, site, range.start, range.end)?;
    let mut fresh =
        conn.prepare_cached("SELECT scores FROM advanced_intent WHERE website_id = ?1 AND hour = ?2 AND model = ?3")?;
    let limit = usize::try_from(limit).unwrap_or(0);
    let mut visits: Vec<ScoredVisit> = Vec::new();
    let mut live: HashMap<i64, SessionFeatures> = HashMap::new();
    // Hour by hour from the newest, as the visits are ordered.
    let mut end = range.end;
    while end > range.start && visits.len() < limit {
        let remaining = limit - visits.len();
        let hour = end - HOUR_MS;
        if stored.contains(&hour) {
            let scores: Option<Vec<u8>> =
                fresh.query_row(params![site, hour, model.info.fitted_at], |r| r.get(0)).optional()?;
            let scores = match scores {
                Some(scores) => scores,
                None => score_hour(conn, site, hour, model)?,
            };
            visits.extend(decode(&scores).take(remaining));
            end = hour;
            continue;
        }
        let to = end;
        while end > range.start && !stored.contains(&(end - HOUR_MS)) {
            end = (end - HOUR_MS).max(range.start);
        }
        for f in intent::load_features(conn, site, end, to, remaining as i64, None)? {
            visits.push(ScoredVisit::of(model, &f));
            live.insert(f.session_id, f);
        }
    }
    Ok((visits, live))
}

/// How many of the range's newest `limit` visits there are and how many of them score [`HIGH_INTENT`] or more
/// under `model`, from the stored scores (see [`newest_scored`]).
pub(super) fn high_intent(
    conn: &Connection,
    site: WebsiteId,
    range: TimeRange,
    model: &IntentModel,
    limit: i64,
) -> Result<(i64, i64)> {
    let (visits, _) = newest_scored(conn, site, range, model, limit)?;
    Ok((visits.len() as i64, visits.iter().filter(|v| v.score >= HIGH_INTENT).count() as i64))
}

/// Scores a stored hour's visits under `model` and stores them (newest first), under the write lock so that a
/// deletion cannot slip between the count and the store; an hour forgotten since the caller saw it stored
/// gets no row. Drops the scores of older models: they are never read again, which keeps the table to the
/// hours read since the last fit.
fn score_hour(conn: &Connection, site: WebsiteId, hour: Millis, model: &IntentModel) -> Result<Vec<u8>> {
    let tx = rusqlite::Transaction::new_unchecked(conn, rusqlite::TransactionBehavior::Immediate)?;
    let visits = intent::load_features(&tx, site, hour, hour + HOUR_MS, i64::MAX, None)?;
    let scores = encode(&visits.iter().map(|f| ScoredVisit::of(model, f)).collect::<Vec<_>>());
    tx.prepare_cached("DELETE FROM advanced_intent WHERE website_id = ?1 AND model < ?2")?
        .execute(params![site, model.info.fitted_at])?;
    tx.prepare_cached(
        "INSERT OR REPLACE INTO advanced_intent (website_id, hour, model, scores)
         SELECT ?1, ?2, ?3, ?4 WHERE EXISTS (SELECT 1 FROM advanced_hours WHERE website_id = ?1 AND hour = ?2)",
    )?
    .execute(params![site, hour, model.info.fitted_at, scores])?;
    tx.commit()?;
    Ok(scores)
}
