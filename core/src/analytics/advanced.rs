//! The Advanced Analytics screen's two reads: `GET /api/analytics/advanced` (summary, real-time metrics, top
//! pages with their own conversion rate, visitor segments) and `GET /api/analytics/ai-intent` (intent scores
//! of the range's visits, patterns, the high-intent list with reasons, recommendations backed by numbers).
//! Scores come from the site's intent model (`intent.rs`), fitted on demand and cached per site.

mod hours;
mod recommendations;
mod scored;
#[cfg(test)]
mod tests;

use std::collections::HashMap;
use std::sync::Arc;

use rusqlite::{Connection, params};
use serde::Serialize;

pub(crate) use hours::{Counts, SegmentCounts, device_label, forget_hours, segments};
use hours::{admitted_figures, store_finished_hours, top_pages};
use recommendations::recommendations;
pub(crate) use scored::ScoredVisit;
use scored::{CONVERTED, RETURNING, high_intent, newest_scored};

use super::intent::{self, IntentModel, ModelInfo, SessionFeatures, SourceType};
use super::live::ACTIVE_WINDOW_MS;
use super::overview::{percent, totals};
use super::{Analytics, TimeRange, Totals};
use crate::error::Result;
use crate::events::{Filters, admitted_visit_condition};
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

impl Advanced {
    /// The answer from a range's counts, as every engine and path counts them: `totals` of its visits,
    /// `converted` of them, its top pages, segments, the visitors on the site now, and the scored visits
    /// (`analyzed`, and `high` of them of high intent) under the model from `model_source`.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn of(
        totals: Totals,
        converted: i64,
        top_pages: Vec<TopPage>,
        visitor_segments: Vec<Segment>,
        real_time_metrics: RealTimeMetrics,
        (analyzed, high): (i64, i64),
        model_source: &'static str,
    ) -> Advanced {
        Advanced {
            total_visitors: totals.visitors,
            high_intent_visitors: high,
            conversion_rate: percent(converted, totals.visits),
            average_session_duration: if totals.visits > 0 {
                one_decimal(totals.duration_s as f64 / totals.visits as f64)
            } else {
                0.0
            },
            bounce_rate: percent(totals.bounces, totals.visits),
            real_time_metrics,
            top_pages,
            visitor_segments,
            intent_analyzed: analyzed,
            intent_model: model_source,
        }
    }
}

/// The top pages (url, views) with the share of each one's `visited` counts (visits, converted) that converted.
pub(crate) fn rated_pages(pages: Vec<(String, i64)>, visited: &HashMap<String, Counts>) -> Vec<TopPage> {
    pages
        .into_iter()
        .map(|(url, views)| {
            let (visits, converted) = visited.get(&url).copied().unwrap_or_default();
            TopPage { url, views, conversion_rate: percent(converted, visits) }
        })
        .collect()
}

/// The converted visits among segment counts: every visit is in one visitor segment.
pub(crate) fn converted_of(segments: &SegmentCounts) -> i64 {
    segments.iter().filter(|((group, _), _)| *group == "visitor").map(|(_, c)| c.1).sum()
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
            let scored = high_intent(conn, site, range, &model, SCORE_LIMIT)?;
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
            let real_time = real_time(conn, site, now, &Filters::none())?;
            Ok(Advanced::of(t, converted, top_pages, visitor_segments, real_time, scored, model.info.source))
        })
    }

    /// `GET /api/analytics/advanced` of the visits `filters` admit, whose `totals` and top `pages` (url, views)
    /// the filtered reads counted: counted from the raw rows of the range (no stored hour holds a filter's
    /// visits), the scores of its newest admitted visits, and the admitted visits on the site now.
    pub fn advanced_admitted(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        totals: Totals,
        pages: Vec<(String, i64)>,
    ) -> Result<Advanced> {
        let model = self.intent_model(site, false)?;
        let now = now_ms();
        self.db.read(|conn| {
            let urls: Vec<String> = pages.iter().map(|(url, _)| url.clone()).collect();
            let (segment_counts, visited) = admitted_figures(conn, site, range, filters, &urls)?;
            let features = intent::load_admitted_features(conn, site, range.start, range.end, SCORE_LIMIT, filters)?;
            let high = features.iter().filter(|f| model.score_without_reasons(f).score >= HIGH_INTENT).count();
            Ok(Advanced::of(
                totals,
                converted_of(&segment_counts),
                rated_pages(pages, &visited),
                segments(&segment_counts),
                real_time(conn, site, now, filters)?,
                (features.len() as i64, high as i64),
                model.info.source,
            ))
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

    /// `GET /api/analytics/ai-intent` of the visits `filters` admit: the range's newest [`SCORE_LIMIT`] of them
    /// scored live (no stored hour holds a filter's visits).
    pub fn ai_intent_admitted(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        refit: bool,
    ) -> Result<AiIntent> {
        let model = self.intent_model(site, refit)?;
        self.db.read(|conn| {
            let features = intent::load_admitted_features(conn, site, range.start, range.end, SCORE_LIMIT, filters)?;
            scored_live(&model, features)
        })
    }
}

/// The AI intent answer from visits whose features are all loaded (newest first), each scored under `model`.
pub(crate) fn scored_live(model: &IntentModel, features: Vec<SessionFeatures>) -> Result<AiIntent> {
    let visits: Vec<ScoredVisit> = features.iter().map(|f| ScoredVisit::of(model, f)).collect();
    let live: HashMap<i64, SessionFeatures> = features.into_iter().map(|f| (f.session_id, f)).collect();
    // Every scored visit's features are at hand.
    ai_intent(model, &visits, live, |_| Ok(Vec::new()))
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

/// Visitors on the site now (seen in the last five minutes) of the visits `filters` admit, those of them on
/// their first visit of the day (after no earlier visit of any kind), and the conversions of those visits.
fn real_time(conn: &Connection, site: WebsiteId, now: Millis, filters: &Filters) -> Result<RealTimeMetrics> {
    let since = now - ACTIVE_WINDOW_MS;
    let day_start = now.div_euclid(86_400_000) * 86_400_000;
    // The condition names `s`, the visit row of both the outer query and the conversions' subquery; its values
    // are bound once (numbered parameters repeat).
    let (admitted, values) = admitted_visit_condition(filters, 3);
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT COUNT(*),
            COUNT(DISTINCT CASE WHEN NOT EXISTS (
                SELECT 1 FROM sessions p WHERE p.website_id = s.website_id AND p.first_seen >= ?3
                  AND p.first_seen < s.first_seen AND p.visitor_hash = s.visitor_hash) THEN s.visitor_hash END),
            (SELECT COUNT(*) FROM events e WHERE e.website_id = ?1 AND e.ts >= ?3 AND e.kind = 'conversion'
               AND e.session_id IN (SELECT s.id FROM sessions s WHERE s.website_id = ?1 AND s.last_seen >= ?2
                                      AND {admitted}))
         FROM sessions s WHERE s.website_id = ?1 AND s.last_seen >= ?2 AND {admitted}",
    ))?;
    let bound = [rusqlite::types::Value::from(site), since.into(), day_start.into()];
    Ok(stmt.query_row(rusqlite::params_from_iter(bound.iter().chain(&values)), |r| {
        Ok(RealTimeMetrics { active_visitors: r.get(0)?, new_visitors: r.get(1)?, conversions: r.get(2)? })
    })?)
}
