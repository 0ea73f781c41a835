//! The Advanced Analytics screen's two reads: `GET /api/analytics/advanced` (summary, real-time metrics, top
//! pages with their own conversion rate, visitor segments) and `GET /api/analytics/ai-intent` (intent scores
//! of the range's visits, patterns, the high-intent list with reasons, recommendations backed by numbers).
//! Scores come from the site's intent model (`intent.rs`), fitted on demand and cached per site.

use std::collections::{BTreeMap, HashMap, HashSet};
use std::sync::Arc;

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use super::intent::{self, IntentModel, ModelInfo, SessionFeatures, SourceType};
use super::live::ACTIVE_WINDOW_MS;
use super::overview::{percent, top_values, totals};
use super::stored_hours::SETTLED_MS;
use super::{Analytics, Dimension, TimeRange};
use crate::error::Result;
use crate::model::{Millis, WebsiteId, now_ms};

/// A cached model is refitted when older than this (or on demand).
pub const MODEL_MAX_AGE_MS: Millis = 15 * 60 * 1000;
/// Most visits of a range that are scored, most recent first.
pub const SCORE_LIMIT: i64 = 5_000;
/// Top pages listed (spec part 2 §9).
pub(crate) const TOP_PAGES: i64 = 5;
/// High intent from this score (spec part 2 §9: the high-intent list is 60 or more), medium from 40.
pub const HIGH_INTENT: i64 = 60;
pub const MEDIUM_INTENT: i64 = 40;
/// Sessions listed in `topIntentSessions`.
const TOP_SESSIONS: usize = 20;
/// A source type or page needs this many visits before a recommendation cites it.
const MIN_EVIDENCE: i64 = 10;

/// `GET /api/analytics/advanced` (spec part 2 §3 "Advanced analytics response").
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Advanced {
    pub total_visitors: i64,
    pub high_intent_visitors: i64,
    pub conversion_rate: f64,
    pub average_session_duration: f64,
    pub bounce_rate: f64,
    pub real_time_metrics: RealTimeMetrics,
    pub top_pages: Vec<TopPage>,
    pub visitor_segments: Vec<Segment>,
    /// Visits the intent figures were scored over, and where the model's weights came from.
    pub intent_analyzed: i64,
    pub intent_model: &'static str,
}

#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RealTimeMetrics {
    pub active_visitors: i64,
    pub new_visitors: i64,
    pub conversions: i64,
}

#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TopPage {
    pub url: String,
    pub views: i64,
    pub conversion_rate: f64,
}

#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Segment {
    pub segment: String,
    /// `visitor`, `source` or `device`.
    pub group: &'static str,
    pub count: i64,
    pub conversion_rate: f64,
}

/// `GET /api/analytics/ai-intent` (spec part 2 §3 "AI intent response", plus patterns, reasons, the model
/// and recommendations).
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AiIntent {
    pub summary: IntentSummary,
    pub distribution: Distribution,
    pub patterns: Vec<Pattern>,
    pub top_intent_sessions: Vec<IntentSession>,
    pub recommendations: Vec<Recommendation>,
    pub model: ModelInfo,
}

#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IntentSummary {
    pub total_analyzed: i64,
    pub high_intent: i64,
    pub medium_intent: i64,
    pub low_intent: i64,
    pub average_intent_score: f64,
}

/// Shares of the analysed visits in percent, one decimal.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
pub struct Distribution {
    pub high: f64,
    pub medium: f64,
    pub low: f64,
}

#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Pattern {
    /// ready_to_convert, researching, exploring, window_shopping.
    pub pattern: &'static str,
    pub count: i64,
    pub percentage: f64,
    pub average_score: f64,
    pub conversion_rate: f64,
}

#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IntentSession {
    pub session_id: String,
    pub intent_score: i64,
    /// The model's conversion probability for the visit in percent, one decimal.
    pub conversion_probability: f64,
    /// high, medium or low.
    pub category: &'static str,
    pub pattern: &'static str,
    pub signals: Signals,
    pub key_page: Option<String>,
    pub raised_by: Vec<intent::Reason>,
    pub lowered_by: Vec<intent::Reason>,
}

/// What the visit did, as the model saw it (up to the first conversion of a converted visit).
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Signals {
    pub page_views: i64,
    pub duration: i64,
    pub is_converted: bool,
    pub scroll_depth: i64,
    pub events: i64,
    pub returning: bool,
    pub source: SourceType,
    pub organization: bool,
}

#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
pub struct Evidence {
    pub label: String,
    pub value: String,
}

#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Recommendation {
    pub id: &'static str,
    /// high, medium or low.
    pub priority: &'static str,
    pub title: String,
    pub detail: String,
    /// The numbers the text cites.
    pub evidence: Vec<Evidence>,
}

/// The intent category and pattern of a score and visit.
pub fn category(score: i64) -> &'static str {
    if score >= HIGH_INTENT {
        "high"
    } else if score >= MEDIUM_INTENT {
        "medium"
    } else {
        "low"
    }
}

/// high = ready_to_convert, medium = researching; a low visit is window shopping when it glanced at one page
/// for under 30 seconds, otherwise exploring.
pub fn pattern(score: i64, f: &SessionFeatures) -> &'static str {
    pattern_of(score, f.page_views <= 1 && f.duration_s < 30)
}

fn pattern_of(score: i64, glance: bool) -> &'static str {
    match category(score) {
        "high" => "ready_to_convert",
        "medium" => "researching",
        _ if glance => "window_shopping",
        _ => "exploring",
    }
}

const PATTERNS: [&str; 4] = ["ready_to_convert", "researching", "exploring", "window_shopping"];

fn share(part: usize, whole: usize) -> f64 {
    percent(part as i64, whole as i64)
}

pub(crate) fn one_decimal(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

impl Analytics {
    /// The site's intent model: the cached one unless older than [`MODEL_MAX_AGE_MS`] or `refit` is asked.
    pub fn intent_model(&self, site: WebsiteId, refit: bool) -> Result<Arc<IntentModel>> {
        self.intent_models.cached(site, refit, |now| self.db.read(|conn| intent::fit(conn, site, now)))
    }

    /// `GET /api/analytics/advanced`: the range's figures, real-time metrics, top pages and segments.
    pub fn advanced(&self, site: WebsiteId, range: TimeRange) -> Result<Advanced> {
        let model = self.intent_model(site, false)?;
        let now = now_ms();
        self.db.read(|conn| {
            store_finished_hours(conn, site, range, now)?;
            let (intent_analyzed, high_intent_visitors) = high_intent(conn, site, range, &model, SCORE_LIMIT)?;
            let (top_pages, visitor_segments) = top_pages(conn, site, range)?;
            let t = totals(conn, site, range)?;
            let (from, to) = range.buckets();
            let converted: i64 = conn
                .prepare_cached(&format!(
                    "SELECT COALESCE(SUM(visits), 0) FROM {} WHERE website_id = ?1 AND dim = 'converted' AND value = ''
                       AND bucket >= ?2 AND bucket < ?3",
                    range.grain.table()
                ))?
                .query_row(params![site, from, to], |r| r.get(0))?;
            Ok(Advanced {
                total_visitors: t.visitors,
                high_intent_visitors,
                conversion_rate: percent(converted, t.visits),
                average_session_duration: if t.visits > 0 {
                    one_decimal(t.duration_s as f64 / t.visits as f64)
                } else {
                    0.0
                },
                bounce_rate: percent(t.bounces, t.visits),
                real_time_metrics: real_time(conn, site, now)?,
                top_pages,
                visitor_segments,
                intent_analyzed,
                intent_model: model.info.source,
            })
        })
    }

    /// `GET /api/analytics/ai-intent`: intent scores of the range's visits (the [`SCORE_LIMIT`] most recent)
    /// and what to do about them.
    pub fn ai_intent(&self, site: WebsiteId, range: TimeRange, refit: bool) -> Result<AiIntent> {
        let model = self.intent_model(site, refit)?;
        let now = now_ms();
        self.db.read(|conn| {
            store_finished_hours(conn, site, range, now)?;
            let (visits, live) = newest_scored(conn, site, range, &model, SCORE_LIMIT)?;
            ai_intent(&model, &visits, live, |missing| intent::load_features_of(conn, site, missing))
        })
    }
}

/// The AI intent answer from the range's scored visits (newest first); the listed ones' features are taken
/// from `live` or loaded by `load_features_of` (visit id, returning).
pub(crate) fn ai_intent(
    model: &IntentModel,
    visits: &[ScoredVisit],
    mut live: HashMap<i64, SessionFeatures>,
    load_features_of: impl FnOnce(&[(i64, bool)]) -> Result<Vec<SessionFeatures>>,
) -> Result<AiIntent> {
    let n = visits.len();
    let count = |cat: &str| visits.iter().filter(|v| category(v.score) == cat).count();
    let (high, medium, low) = (count("high"), count("medium"), count("low"));
    let average = if n > 0 { visits.iter().map(|v| v.score as f64).sum::<f64>() / n as f64 } else { 0.0 };
    let patterns = PATTERNS
        .iter()
        .map(|&p| {
            let members: Vec<_> = visits.iter().filter(|v| v.pattern() == p).collect();
            let k = members.len();
            Pattern {
                pattern: p,
                count: k as i64,
                percentage: share(k, n),
                average_score: if k > 0 {
                    one_decimal(members.iter().map(|v| v.score as f64).sum::<f64>() / k as f64)
                } else {
                    0.0
                },
                conversion_rate: share(members.iter().filter(|v| v.has(CONVERTED)).count(), k),
            }
        })
        .collect();
    // Highest score first, the newest first among equals (the visits are newest first and the sort is stable).
    let mut ranked: Vec<&ScoredVisit> = visits.iter().collect();
    ranked.sort_by_key(|v| std::cmp::Reverse(v.score));
    ranked.truncate(TOP_SESSIONS);
    let missing: Vec<(i64, bool)> =
        ranked.iter().filter(|v| !live.contains_key(&v.id)).map(|v| (v.id, v.has(RETURNING))).collect();
    for f in load_features_of(&missing)? {
        live.insert(f.session_id, f);
    }
    let top_intent_sessions = ranked
        .iter()
        .filter_map(|v| live.get(&v.id))
        // Only the listed visits need their reasons: scored again with them (the same score).
        .map(|f| (f, model.score(f)))
        .map(|(f, s)| IntentSession {
            session_id: f.session_key.clone(),
            intent_score: s.score,
            conversion_probability: s.probability,
            category: category(s.score),
            pattern: pattern(s.score, f),
            signals: Signals {
                page_views: f.page_views,
                duration: f.duration_s,
                is_converted: f.converted,
                scroll_depth: f.scroll_depth,
                events: f.events,
                returning: f.returning,
                source: f.source,
                organization: f.organization,
            },
            key_page: s.key_page,
            raised_by: s.raised_by,
            lowered_by: s.lowered_by,
        })
        .collect();
    Ok(AiIntent {
        summary: IntentSummary {
            total_analyzed: n as i64,
            high_intent: high as i64,
            medium_intent: medium as i64,
            low_intent: low as i64,
            average_intent_score: one_decimal(average),
        },
        distribution: Distribution { high: share(high, n), medium: share(medium, n), low: share(low, n) },
        patterns,
        top_intent_sessions,
        recommendations: recommendations(model, visits),
        model: model.info.clone(),
    })
}

/// Visitors on the site now (seen in the last five minutes), those of them on their first visit of the day,
/// and the conversions of those visits.
fn real_time(conn: &Connection, site: WebsiteId, now: Millis) -> Result<RealTimeMetrics> {
    let since = now - ACTIVE_WINDOW_MS;
    let day_start = now.div_euclid(86_400_000) * 86_400_000;
    Ok(conn
        .prepare_cached(
            "SELECT COUNT(*),
                COUNT(DISTINCT CASE WHEN NOT EXISTS (
                    SELECT 1 FROM sessions p WHERE p.website_id = s.website_id AND p.first_seen >= ?3
                      AND p.first_seen < s.first_seen AND p.visitor_hash = s.visitor_hash) THEN s.visitor_hash END),
                (SELECT COUNT(*) FROM events e WHERE e.website_id = ?1 AND e.ts >= ?3 AND e.kind = 'conversion'
                   AND e.session_id IN (SELECT id FROM sessions WHERE website_id = ?1 AND last_seen >= ?2))
         FROM sessions s WHERE s.website_id = ?1 AND s.last_seen >= ?2",
        )?
        .query_row(params![site, since, day_start], |r| {
            Ok(RealTimeMetrics { active_visitors: r.get(0)?, new_visitors: r.get(1)?, conversions: r.get(2)? })
        })?)
}

/// Hour and day in ms.
const HOUR_MS: Millis = 3_600_000;
const DAY_MS: Millis = 86_400_000;

/// Visits and converted visits.
pub(crate) type Counts = (i64, i64);

/// What the visits that started in some hours did: segment and page counts (a page counts a visit once).
#[derive(Debug, Default, Clone, PartialEq)]
struct VisitFigures {
    segments: HashMap<(&'static str, String), Counts>,
    pages: HashMap<String, Counts>,
}

impl VisitFigures {
    fn add(&mut self, other: &VisitFigures) {
        for (key, (n, c)) in &other.segments {
            let entry = self.segments.entry(key.clone()).or_default();
            entry.0 += n;
            entry.1 += c;
        }
        for (page, (n, c)) in &other.pages {
            let entry = self.pages.entry(page.clone()).or_default();
            entry.0 += n;
            entry.1 += c;
        }
    }
}

/// One hour's figures, its visits, and the latest activity of those visits (an hour is stored only once all
/// of them have ended).
#[derive(Debug, Default)]
struct Hour {
    visits: i64,
    last_seen: Millis,
    figures: VisitFigures,
}

/// The segment label of a device as stored ("mobile" is "Mobile", "" is "Unknown Device").
pub(crate) fn device_label(device: &str) -> String {
    match device {
        "" => "Unknown Device".to_string(),
        d => {
            let mut c = d.chars();
            c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
        }
    }
}

/// Counts the visits that started in `[from, to)` per hour, from the raw rows: by visitor type (new, or
/// returning: the visitor hash had an earlier visit that UTC day), source type and device, and per page the
/// visits that viewed it; each with how many of them converted.
fn count_hours(conn: &Connection, site: WebsiteId, from: Millis, to: Millis) -> Result<BTreeMap<Millis, Hour>> {
    let mut hours: BTreeMap<Millis, Hour> = BTreeMap::new();
    if from >= to {
        return Ok(hours);
    }
    let day = |ms: Millis| ms.div_euclid(DAY_MS);
    // Visitors of the first day seen before `from` (the covering start index, no row reads).
    let mut seen: HashSet<(i64, i64)> = HashSet::new();
    {
        let mut stmt = conn.prepare_cached(
            "SELECT visitor_hash FROM sessions WHERE website_id = ?1 AND first_seen >= ?2 AND first_seen < ?3",
        )?;
        let mut q = stmt.query(params![site, day(from) * DAY_MS, from])?;
        while let Some(r) = q.next()? {
            seen.insert((day(from), r.get(0)?));
        }
    }
    let mut visits: HashMap<i64, (Millis, bool)> = HashMap::new();
    let mut latest = from;
    {
        let mut stmt = conn.prepare_cached(
            "SELECT id, visitor_hash, first_seen, last_seen, is_converted, referrer_host, utm_source, utm_medium,
                    utm_campaign, device
             FROM sessions WHERE website_id = ?1 AND first_seen >= ?2 AND first_seen < ?3 ORDER BY first_seen, id",
        )?;
        let mut q = stmt.query(params![site, from, to])?;
        while let Some(r) = q.next()? {
            let (id, hash, first_seen, last_seen, converted): (i64, i64, Millis, Millis, bool) =
                (r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?);
            let source = SourceType::classify(
                &r.get::<_, String>(5)?,
                &r.get::<_, String>(6)?,
                &r.get::<_, String>(7)?,
                &r.get::<_, String>(8)?,
            );
            let device = device_label(&r.get::<_, String>(9)?);
            let returning = !seen.insert((day(first_seen), hash));
            let visitor = if returning { "Returning Visitors" } else { "New Visitors" };
            let hour_start = first_seen.div_euclid(HOUR_MS) * HOUR_MS;
            let hour = hours.entry(hour_start).or_default();
            hour.visits += 1;
            hour.last_seen = hour.last_seen.max(last_seen);
            for key in [("visitor", visitor.to_string()), ("source", source.label().to_string()), ("device", device)] {
                let entry = hour.figures.segments.entry(key).or_default();
                entry.0 += 1;
                entry.1 += converted as i64;
            }
            visits.insert(id, (hour_start, converted));
            latest = latest.max(last_seen);
        }
    }
    if visits.is_empty() {
        return Ok(hours);
    }
    // A visit's page views lie between its first and last activity: one pass over the site's page views of
    // that span, keeping those of the visits above.
    let mut viewed: HashSet<(i64, String)> = HashSet::new();
    let mut stmt = conn.prepare_cached(
        "SELECT session_id, path FROM events WHERE website_id = ?1 AND ts >= ?2 AND ts <= ?3 AND kind = 'pageview'",
    )?;
    let mut q = stmt.query(params![site, from, latest])?;
    while let Some(r) = q.next()? {
        let id: i64 = r.get(0)?;
        let Some(&(hour_start, converted)) = visits.get(&id) else { continue };
        let path: String = r.get(1)?;
        if viewed.insert((id, path.clone())) {
            let hour = hours.get_mut(&hour_start).expect("every visit's hour is counted");
            let entry = hour.figures.pages.entry(path).or_default();
            entry.0 += 1;
            entry.1 += converted as i64;
        }
    }
    Ok(hours)
}

/// Stores the figures of the range's hours that have ended and whose visits have all been idle for
/// [`SETTLED_MS`] (so nothing can change them but a late hit, deletion, import or retention run, which
/// forget them). A day at a time through [`store_day`](super::stored_hours::store_day), so a deletion cannot
/// slip between count and write, and the pass stops when the write lock is not to be had.
fn store_finished_hours(conn: &Connection, site: WebsiteId, range: TimeRange, now: Millis) -> Result<()> {
    let finished_before = now - SETTLED_MS;
    let until = range.end.min(finished_before.div_euclid(HOUR_MS) * HOUR_MS);
    if until <= range.start {
        return Ok(());
    }
    let stored = stored_hours(conn, site, range.start, until)?;
    let missing = super::stored_hours::missing_by_day(&stored, range.start, until);
    for hours in missing.values() {
        let (first, last) = (hours[0], hours[hours.len() - 1]);
        let stored = super::stored_hours::store_day(conn, |tx| {
            let counted = count_hours(tx, site, first, last + HOUR_MS)?;
            let mut marker = tx.prepare_cached(
                "INSERT OR REPLACE INTO advanced_hours (website_id, hour, visits) VALUES (?1, ?2, ?3)",
            )?;
            let mut segment = tx.prepare_cached(
                "INSERT OR REPLACE INTO advanced_segments (website_id, hour, grp, segment, visits, converted)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?;
            let mut page = tx.prepare_cached(
                "INSERT OR REPLACE INTO advanced_pages (website_id, path, hour, visits, converted)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?;
            let empty = Hour::default();
            for &hour in hours {
                let counts = counted.get(&hour).unwrap_or(&empty);
                if counts.last_seen >= finished_before {
                    continue;
                }
                marker.execute(params![site, hour, counts.visits])?;
                for ((group, name), (n, c)) in &counts.figures.segments {
                    segment.execute(params![site, hour, group, name, n, c])?;
                }
                for (path, (n, c)) in &counts.figures.pages {
                    page.execute(params![site, path, hour, n, c])?;
                }
            }
            Ok(())
        })?;
        if !stored {
            break;
        }
    }
    Ok(())
}

fn stored_hours(conn: &Connection, site: WebsiteId, from: Millis, to: Millis) -> Result<HashSet<Millis>> {
    let mut stmt =
        conn.prepare_cached("SELECT hour FROM advanced_hours WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3")?;
    let hours = stmt.query_map(params![site, from, to], |r| r.get(0))?;
    Ok(hours.collect::<rusqlite::Result<_>>()?)
}

/// One of the range's visits scored under a model, as stored per hour: what the AI intent read counts.
#[derive(Debug, Clone, Copy, PartialEq)]
pub(crate) struct ScoredVisit {
    id: i64,
    score: i64,
    facts: u8,
}

const CONVERTED: u8 = 1;
/// One page for under 30 seconds (a low score makes it window shopping).
const GLANCE: u8 = 2;
/// Viewed a page the model counts as preceding conversions.
const KEY_PAGE: u8 = 4;
/// Viewed the model's first key page (the one the key-page recommendation cites).
const FIRST_KEY_PAGE: u8 = 8;
const RETURNING: u8 = 16;
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

    fn has(self, fact: u8) -> bool {
        self.facts & fact != 0
    }

    fn source(self) -> SourceType {
        SourceType::ALL[((self.facts >> SOURCE_SHIFT) as usize).min(SourceType::ALL.len() - 1)]
    }

    /// The visit's pattern (see [`pattern`]).
    fn pattern(self) -> &'static str {
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
fn newest_scored(
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
fn high_intent(
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

/// Forgets the stored hours of `[from, to)` (whole days in ms) after their raw rows changed: a deletion, a
/// rollup rebuild, an import, a retention run or a late hit (so on every late hit: the statements are cached).
/// The next read counts them again.
pub(crate) fn forget_hours(conn: &Connection, site: WebsiteId, from: Millis, to: Millis) -> Result<()> {
    for statement in [
        "DELETE FROM advanced_hours WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3",
        "DELETE FROM advanced_segments WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3",
        "DELETE FROM advanced_pages WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3",
        "DELETE FROM advanced_intent WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3",
    ] {
        conn.prepare_cached(statement)?.execute(params![site, from, to])?;
    }
    Ok(())
}

/// The segments of the range and the visit counts of `pages`: stored hours summed, the others counted live.
fn visit_figures(conn: &Connection, site: WebsiteId, range: TimeRange, pages: &[String]) -> Result<VisitFigures> {
    let mut figures = VisitFigures::default();
    {
        let mut stmt = conn.prepare_cached(
            "SELECT grp, segment, SUM(visits), SUM(converted) FROM advanced_segments
             WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3 GROUP BY grp, segment",
        )?;
        let mut q = stmt.query(params![site, range.start, range.end])?;
        while let Some(r) = q.next()? {
            let group: String = r.get(0)?;
            let group = match group.as_str() {
                "visitor" => "visitor",
                "source" => "source",
                _ => "device",
            };
            figures.segments.insert((group, r.get(1)?), (r.get(2)?, r.get(3)?));
        }
        let mut stmt = conn.prepare_cached(
            "SELECT COALESCE(SUM(visits), 0), COALESCE(SUM(converted), 0) FROM advanced_pages
             WHERE website_id = ?1 AND path = ?2 AND hour >= ?3 AND hour < ?4",
        )?;
        for page in pages {
            let counts = stmt.query_row(params![site, page, range.start, range.end], |r| Ok((r.get(0)?, r.get(1)?)))?;
            figures.pages.insert(page.clone(), counts);
        }
    }
    // The hours not stored (the current ones, and any whose visits are still going on), in runs.
    let stored = stored_hours(conn, site, range.start, range.end)?;
    let mut hour = range.start;
    while hour < range.end {
        if stored.contains(&hour) {
            hour += HOUR_MS;
            continue;
        }
        let from = hour;
        while hour < range.end && !stored.contains(&hour) {
            hour += HOUR_MS;
        }
        for counted in count_hours(conn, site, from, hour)?.values() {
            let mut live = counted.figures.clone();
            live.pages.retain(|page, _| pages.contains(page));
            figures.add(&live);
        }
    }
    Ok(figures)
}

/// The five most viewed pages of the range (page views, from the rollups), each with the share of the visits
/// that started in the range and viewed it that converted.
fn top_pages(conn: &Connection, site: WebsiteId, range: TimeRange) -> Result<(Vec<TopPage>, Vec<Segment>)> {
    let pages = top_values(conn, site, range, Dimension::Page, TOP_PAGES)?;
    let urls: Vec<String> = pages.iter().map(|(url, _)| url.clone()).collect();
    let figures = visit_figures(conn, site, range, &urls)?;
    let top = pages
        .into_iter()
        .map(|(url, views)| {
            let (visits, converted) = figures.pages.get(&url).copied().unwrap_or_default();
            TopPage { url, views, conversion_rate: percent(converted, visits) }
        })
        .collect();
    Ok((top, segments(&figures.segments)))
}

/// Visits of the range by visitor type, source type and device, each with the share that converted, in the
/// order the screen lists them (devices by visits).
pub(crate) fn segments(counts: &HashMap<(&'static str, String), Counts>) -> Vec<Segment> {
    let mut out: Vec<Segment> = Vec::new();
    let mut push = |group: &'static str, name: &str| {
        let (count, converted) = counts.get(&(group, name.to_string())).copied().unwrap_or_default();
        out.push(Segment { segment: name.to_string(), group, count, conversion_rate: percent(converted, count) });
    };
    push("visitor", "New Visitors");
    push("visitor", "Returning Visitors");
    for source in SourceType::ALL {
        push("source", source.label());
    }
    let mut devices: Vec<(String, i64)> = counts
        .iter()
        .filter(|((g, _), (n, _))| *g == "device" && *n > 0)
        .map(|((_, d), (n, _))| (d.clone(), *n))
        .collect();
    devices.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    for (device, _) in devices {
        push("device", &device);
    }
    out
}

/// Recommendations drawn from the model and the range's scored visits; each cites the numbers behind it.
fn recommendations(model: &IntentModel, scored: &[ScoredVisit]) -> Vec<Recommendation> {
    let mut out = Vec::new();
    let n = scored.len();
    let converted = scored.iter().filter(|v| v.has(CONVERTED)).count();
    let rate = share(converted, n);
    let ev = |label: &str, value: String| Evidence { label: label.to_string(), value };
    if model.info.source == "prior" {
        out.push(Recommendation {
            id: "track_conversions",
            priority: "high",
            title: "Record more conversions to train the intent model".into(),
            detail: format!(
                "Scores use prior weights: the last 30 days hold {} converted of {} finished visits, and fitting \
                 needs at least {}. Send conversions with tracker.track(name, {{ value }}) or mark an event \
                 definition as a conversion.",
                model.info.training_conversions,
                model.info.training_sessions,
                intent::MIN_CONVERSIONS
            ),
            evidence: vec![
                ev("Conversions (30 days)", model.info.training_conversions.to_string()),
                ev("Needed to fit", intent::MIN_CONVERSIONS.to_string()),
            ],
        });
    }
    // The page that precedes conversions most, and how its visitors behave in this range.
    if let Some(key) = model.info.key_pages.first() {
        let viewers = scored.iter().filter(|v| v.has(FIRST_KEY_PAGE)).count();
        out.push(Recommendation {
            id: "key_page",
            priority: "high",
            title: format!("Visitors who view {} convert {}x as often", key.page, key.lift),
            detail: format!(
                "{} of {} visits that viewed {} converted ({}%), against {}% of all visits. Link to it from your \
                 busiest pages; {} visits in this period reached it.",
                key.conversions, key.sessions, key.page, key.conversion_rate, model.info.base_conversion_rate, viewers
            ),
            evidence: vec![
                ev("Conversion rate after viewing", format!("{}%", key.conversion_rate)),
                ev("Site conversion rate", format!("{}%", model.info.base_conversion_rate)),
                ev("Visits viewing it", key.sessions.to_string()),
            ],
        });
    }
    // The source type whose visits convert best, against the range's overall rate.
    let mut by_source: Vec<(SourceType, i64, i64)> = SourceType::ALL
        .iter()
        .map(|&s| {
            let members: Vec<_> = scored.iter().filter(|v| v.source() == s).collect();
            (s, members.len() as i64, members.iter().filter(|v| v.has(CONVERTED)).count() as i64)
        })
        .filter(|(_, visits, _)| *visits >= MIN_EVIDENCE)
        .collect();
    by_source.sort_by(|a, b| (b.2 * a.1).cmp(&(a.2 * b.1)));
    if let Some(&(source, visits, conv)) = by_source.first() {
        let source_rate = percent(conv, visits);
        if conv > 0 && rate > 0.0 && source_rate > rate {
            out.push(Recommendation {
                id: "best_source",
                priority: "medium",
                title: format!("{} visitors convert {:.1}x the average", source.label(), source_rate / rate),
                detail: format!(
                    "{conv} of {visits} visits from {} converted ({source_rate}%), against {rate}% of all {n} \
                     visits in this period. Invest where these visitors come from.",
                    source.label().to_lowercase()
                ),
                evidence: vec![
                    ev(&format!("{} conversion rate", source.label()), format!("{source_rate}%")),
                    ev("Overall conversion rate", format!("{rate}%")),
                    ev(&format!("{} visits", source.label()), visits.to_string()),
                ],
            });
        }
    }
    // High-intent visits that have not converted: the people to reach now.
    let waiting: Vec<_> = scored.iter().filter(|v| v.score >= HIGH_INTENT && !v.has(CONVERTED)).collect();
    if !waiting.is_empty() {
        let key_viewers = waiting.iter().filter(|v| v.has(KEY_PAGE)).count();
        out.push(Recommendation {
            id: "follow_up_high_intent",
            priority: "high",
            title: format!("{} high-intent visits have not converted", waiting.len()),
            detail: format!(
                "{} visits scored {HIGH_INTENT} or more without converting; {key_viewers} of them viewed a page that \
                 precedes conversions. Offer help or a clear next step on those pages (chat, a demo, a discount).",
                waiting.len()
            ),
            evidence: vec![
                ev("High intent, not converted", waiting.len().to_string()),
                ev("Of them viewed a key page", key_viewers.to_string()),
            ],
        });
    }
    // Many visits leave after a glance.
    let glances = scored.iter().filter(|v| v.pattern() == "window_shopping").count();
    if n as i64 >= MIN_EVIDENCE && share(glances, n) >= 30.0 {
        out.push(Recommendation {
            id: "reduce_bounces",
            priority: "medium",
            title: format!("{}% of visits leave after one page in under 30 s", share(glances, n)),
            detail: format!(
                "{glances} of {n} visits in this period viewed a single page for under 30 seconds. Check that \
                 landing pages load fast and match what brought visitors there."
            ),
            evidence: vec![ev("Single-page visits under 30 s", glances.to_string()), ev("Visits", n.to_string())],
        });
    }
    // What the fitted model found matters most.
    let strongest = model.info.weights.iter().max_by(|a, b| a.weight.total_cmp(&b.weight));
    if model.info.source == "fitted"
        && let Some(strongest) = strongest
        && strongest.weight > 0.0
    {
        out.push(Recommendation {
            id: "strongest_signal",
            priority: "low",
            title: format!("{} is the strongest sign of intent on this site", feature_label(strongest.feature)),
            detail: format!(
                "Of the model's features, {} raises the score most ({:+.2} log-odds per standard deviation); \
                         held-out AUC {}. Design pages to encourage it.",
                feature_label(strongest.feature).to_lowercase(),
                strongest.weight,
                model.info.auc.map(|a| format!("{a:.3}")).unwrap_or_else(|| "not measurable".into())
            ),
            evidence: vec![
                ev("Weight", format!("{:+.2}", strongest.weight)),
                ev("Held-out AUC", model.info.auc.map(|a| format!("{a:.3}")).unwrap_or_else(|| "-".into())),
            ],
        });
    }
    out
}

fn feature_label(feature: &str) -> &'static str {
    match feature {
        "pages" => "Pages viewed",
        "duration" => "Time on site",
        "scrollDepth" => "Scroll depth",
        "keyPage" => "Viewing a key page",
        "events" => "Triggering events",
        "returning" => "Returning",
        "search" => "Coming from search",
        "social" => "Coming from social",
        "referral" => "Coming from a referral",
        "campaign" => "Coming from a campaign",
        _ => "A detected organization",
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Tracker;
    use crate::ingest::{EventKind, Hit};
    use crate::privacy::{DataType, RetentionUpdate};
    use crate::testing::{client, rows, send_from};

    /// Segments and top-page rates straight from the raw rows, as the definitions in API.md read.
    fn raw(conn: &Connection, site: WebsiteId, range: TimeRange, pages: &[String]) -> (Vec<Segment>, Vec<f64>) {
        let mut counts: HashMap<(&'static str, String), Counts> = HashMap::new();
        let mut stmt = conn
            .prepare(
                "SELECT * FROM (
                    SELECT first_seen, is_converted, referrer_host, utm_source, utm_medium, utm_campaign, device,
                        ROW_NUMBER() OVER (PARTITION BY visitor_hash, first_seen / 86400000 ORDER BY first_seen, id) > 1
                    FROM sessions WHERE website_id = ?1)
                 WHERE first_seen >= ?2 AND first_seen < ?3",
            )
            .unwrap();
        let mut q = stmt.query(params![site, range.start, range.end]).unwrap();
        while let Some(r) = q.next().unwrap() {
            let converted: bool = r.get(1).unwrap();
            let s: Vec<String> = (2..7).map(|i| r.get(i).unwrap()).collect();
            let visitor = if r.get(7).unwrap() { "Returning Visitors" } else { "New Visitors" };
            let source = SourceType::classify(&s[0], &s[1], &s[2], &s[3]).label().to_string();
            for key in [("visitor", visitor.to_string()), ("source", source), ("device", device_label(&s[4]))] {
                let entry = counts.entry(key).or_default();
                entry.0 += 1;
                entry.1 += converted as i64;
            }
        }
        let rates = pages
            .iter()
            .map(|page| {
                let (n, c): (i64, i64) = conn
                    .query_row(
                        "SELECT COUNT(DISTINCT s.id), COUNT(DISTINCT CASE WHEN s.is_converted THEN s.id END)
                         FROM sessions s JOIN events e ON e.session_id = s.id
                         WHERE s.website_id = ?1 AND s.first_seen >= ?2 AND s.first_seen < ?3
                           AND e.kind = 'pageview' AND e.path = ?4",
                        params![site, range.start, range.end, page],
                        |r| Ok((r.get(0)?, r.get(1)?)),
                    )
                    .unwrap();
                percent(c, n)
            })
            .collect();
        (segments(&counts), rates)
    }

    fn check(tracker: &Tracker, site: WebsiteId, name: &str) -> Advanced {
        let now = now_ms();
        let range = TimeRange::parse(name, now).unwrap();
        let fast = tracker.analytics().advanced(site, range).unwrap();
        let pages: Vec<String> = fast.top_pages.iter().map(|p| p.url.clone()).collect();
        let (segments, rates) = tracker.db().read(|conn| Ok(raw(conn, site, range, &pages))).unwrap();
        assert_eq!(fast.visitor_segments, segments, "{name}");
        assert_eq!(fast.top_pages.iter().map(|p| p.conversion_rate).collect::<Vec<_>>(), rates, "{name}");
        fast
    }

    fn stored(tracker: &Tracker) -> i64 {
        rows(tracker, "advanced_hours")
    }

    /// The stored hours plus the live ones give exactly what the raw rows give, before and after a deletion,
    /// a retention run and new traffic, for ranges aligned to days and to hours.
    #[test]
    fn stored_hours_and_live_ones_equal_a_raw_count() {
        let crate::testing::OneSite { dir: _dir, tracker, site, .. } = crate::testing::one_site();
        let now = now_ms();
        let send = |visits: std::ops::Range<i64>, start: Millis| {
            let mut hits = Vec::new();
            for v in visits {
                let client = client(
                    &format!("198.18.{}.{}", v % 3, v % 11),
                    ["Mozilla/5.0 Chrome/1", "Mozilla/5.0 Mobile Firefox/1"][(v % 2) as usize],
                );
                // Visits 23 minutes apart from `start`, the last ones still going on.
                let mut ts = start + v * 23 * 60_000;
                for step in 0..(v % 5 + 1) {
                    let kind = match step {
                        0 => EventKind::Pageview,
                        _ if step == 3 && v % 3 == 0 => EventKind::Conversion,
                        _ if step == 2 => EventKind::Custom,
                        _ => EventKind::Pageview,
                    };
                    let path = format!("/p{}", (v * 7 + step) % 6);
                    let hit = Hit {
                        website_id: site,
                        session_key: format!("visit{v:04}"),
                        ts,
                        kind: Some(kind),
                        name: if kind == EventKind::Pageview { String::new() } else { "e".into() },
                        url: format!("https://s.example.com{path}"),
                        path,
                        referrer_host: ["", "google.com", "t.co", "blog.example.org"][(v % 4) as usize].into(),
                        value: (kind == EventKind::Conversion).then_some(10.0),
                        ..Hit::default()
                    };
                    hits.push((hit, client.clone()));
                    ts += 95_000;
                }
            }
            send_from(&tracker, hits);
        };
        // Three days of visits up to a few minutes ago.
        let start = now - 3 * DAY_MS;
        send(0..(3 * 24 * 60 / 23), start);
        for name in ["7d", "1d", "30d"] {
            check(&tracker, site, name);
        }
        let first = stored(&tracker);
        assert!(first >= 3 * 24 - 2, "{first} hours stored");
        // Read again from what is stored: same answer.
        let before = check(&tracker, site, "7d");
        assert_eq!(stored(&tracker), first);

        // A deletion (page views of the first day and a half) changes visits of stored hours.
        let report = tracker.privacy.delete_data(site, DataType::Pageviews, Some(start + 36 * 3_600_000)).unwrap();
        assert!(report.pageviews > 0);
        let after = check(&tracker, site, "7d");
        assert_ne!(after.top_pages, before.top_pages);

        // Retention as if run a day and a half later with 3-day retention: the first day and a half go.
        tracker
            .privacy
            .update_retention(
                site,
                RetentionUpdate {
                    pageviews: Some(3),
                    events: Some(3),
                    sessions: Some(3),
                    heatmaps: None,
                    recordings: None,
                    conversions: Some(3),
                },
            )
            .unwrap();
        let retention = tracker.privacy.apply_retention_at(now + 36 * 3_600_000).unwrap();
        assert!(retention.total.values().sum::<u64>() > 0, "{retention:?}");
        check(&tracker, site, "7d");
        check(&tracker, site, "1d");

        // New traffic on a stored hour's visitors' day (returning visitors) and now.
        send(0..6, now - 10 * 60_000);
        check(&tracker, site, "7d");
        check(&tracker, site, "1d");
    }

    /// The stored scores give the high-intent count and the whole AI intent answer (distribution, patterns,
    /// listed visits with their reasons, recommendations) that scoring the newest visits gives, for limits that
    /// end inside an hour and ranges with live hours; a refit (another model) scores the stored hours again.
    #[test]
    fn stored_intent_scores_equal_scoring_the_newest_visits() {
        let crate::testing::OneSite { dir: _dir, tracker, site, .. } = crate::testing::one_site();
        let now = now_ms();
        let mut hits = Vec::new();
        // Two days of visits 17 minutes apart up to now (the newest still going on), 1 to 8 pages each, from
        // five browsers (so some are returning visits); one in seven converts on its fourth step.
        let start = now - 2 * DAY_MS;
        for v in 0..(2 * 24 * 60 / 17) {
            let client = client(&format!("198.18.0.{}", v % 5), "Mozilla/5.0 Chrome/1");
            let mut ts = start + v * 17 * 60_000;
            for step in 0..(v * 5 % 8 + 1) {
                let path = format!("/p{}", (v + step) % 4);
                let kind = match step {
                    3 if v % 7 == 0 => EventKind::Conversion,
                    4 => EventKind::Custom,
                    _ => EventKind::Pageview,
                };
                let hit = Hit {
                    website_id: site,
                    session_key: format!("intent{v:04}"),
                    ts,
                    kind: Some(kind),
                    name: if kind == EventKind::Pageview { String::new() } else { "e".into() },
                    url: format!("https://s.example.com{path}"),
                    path,
                    referrer_host: ["", "google.com", "t.co"][(v % 3) as usize].into(),
                    value: (kind == EventKind::Conversion).then_some(10.0),
                    ..Hit::default()
                };
                hits.push((hit, client.clone()));
                ts += 70_000;
            }
        }
        send_from(&tracker, hits);
        let key_page = |page: &str| intent::KeyPage {
            page: page.into(),
            sessions: 10,
            conversions: 5,
            conversion_rate: 50.0,
            lift: 3.0,
        };
        // Two models that disagree about some visits: the second counts two pages as preceding conversions.
        let first = IntentModel::prior(String::new(), Vec::new(), 0.0, 1);
        let refitted = IntentModel::prior(String::new(), vec![key_page("/p1"), key_page("/p2")], 0.0, 2);
        let raw = |range: TimeRange, model: &IntentModel, limit: i64| {
            tracker
                .db()
                .read(|conn| {
                    let features = intent::load_features(conn, site, range.start, range.end, limit, None)?;
                    let visits: Vec<ScoredVisit> = features.iter().map(|f| ScoredVisit::of(model, f)).collect();
                    let high = visits.iter().filter(|v| v.score >= HIGH_INTENT).count() as i64;
                    let all = features.into_iter().map(|f| (f.session_id, f)).collect();
                    Ok((
                        (visits.len() as i64, high),
                        ai_intent(model, &visits, all, |missing| intent::load_features_of(conn, site, missing))?,
                    ))
                })
                .unwrap()
        };
        let stored = |range: TimeRange, model: &IntentModel, limit: i64| {
            tracker
                .db()
                .read(|conn| {
                    store_finished_hours(conn, site, range, now)?;
                    let high = high_intent(conn, site, range, model, limit)?;
                    let (visits, live) = newest_scored(conn, site, range, model, limit)?;
                    Ok((
                        high,
                        ai_intent(model, &visits, live, |missing| intent::load_features_of(conn, site, missing))?,
                    ))
                })
                .unwrap()
        };
        // The first model again, fitted later: every refit scores the stored hours again.
        let first_again = IntentModel::prior(String::new(), Vec::new(), 0.0, 3);
        let rows_of_other_models = |model: &IntentModel| -> i64 {
            tracker
                .db()
                .read(|c| {
                    Ok(c.query_row(
                        "SELECT COUNT(*) FROM advanced_intent WHERE model <> ?1",
                        [model.info.fitted_at],
                        |r| r.get(0),
                    )?)
                })
                .unwrap()
        };
        let mut disagree = false;
        for model in [&first, &refitted, &first_again] {
            for name in ["1d", "7d"] {
                let range = TimeRange::parse(name, now).unwrap();
                // 7 and 30 end inside an hour; 500 is more than the range's visits.
                for limit in [1, 7, 30, 90, 500] {
                    let expected = raw(range, model, limit);
                    // The first read stores the scores, the second reads them.
                    assert_eq!(stored(range, model, limit), expected, "{name} {limit} {}", model.info.fitted_at);
                    assert_eq!(stored(range, model, limit), expected, "{name} {limit} again");
                    disagree |= expected.1.summary != raw(range, &first, limit).1.summary;
                    // Scoring a stored hour under a newer model (30 visits reach back to stored hours; fewer are
                    // in the open ones) drops the older model's scores of every hour, read or not.
                    if limit >= 30 {
                        assert_eq!(rows_of_other_models(model), 0, "{name} {limit} {}", model.info.fitted_at);
                    }
                }
            }
        }
        assert!(disagree, "the two models score some visits differently");
        let (full, _) = raw(TimeRange::parse("7d", now).unwrap(), &refitted, 500);
        assert!(full.1 > 0 && full.1 < full.0, "some visits are high intent, not all: {full:?}");
        let scored = rows(&tracker, "advanced_intent");
        assert!(scored > 10, "{scored} hours with stored scores");
    }
}
