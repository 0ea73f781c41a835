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

pub(crate) use hours::{Counts, device_label, forget_hours, segments};
use hours::{store_finished_hours, top_pages};
use recommendations::recommendations;
pub(crate) use scored::ScoredVisit;
use scored::{CONVERTED, RETURNING, high_intent, newest_scored};

use super::intent::{self, IntentModel, ModelInfo, SessionFeatures, SourceType};
use super::live::ACTIVE_WINDOW_MS;
use super::overview::{percent, totals};
use super::{Analytics, TimeRange};
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
