//! The Advanced Analytics screen's two reads: `GET /api/analytics/advanced` (summary, real-time metrics, top
//! pages with their own conversion rate, visitor segments) and `GET /api/analytics/ai-intent` (intent scores
//! of the range's visits, patterns, the high-intent list with reasons, recommendations backed by numbers).
//! Scores come from the site's intent model (`intent.rs`), fitted on demand and cached per site.

use std::collections::HashMap;
use std::sync::Arc;

use rusqlite::{Connection, params};
use serde::Serialize;

use super::intent::{self, IntentModel, IntentScore, ModelInfo, SessionFeatures, SourceType};
use super::live::ACTIVE_WINDOW_MS;
use super::overview::{percent, top_values, totals};
use super::{Analytics, Dimension, TimeRange};
use crate::error::Result;
use crate::model::{Millis, WebsiteId, now_ms};

/// A cached model is refitted when older than this (or on demand).
pub const MODEL_MAX_AGE_MS: Millis = 15 * 60 * 1000;
/// Most visits of a range that are scored, most recent first.
pub const SCORE_LIMIT: i64 = 5_000;
/// Top pages listed (spec part 2 §9).
const TOP_PAGES: i64 = 5;
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
    match category(score) {
        "high" => "ready_to_convert",
        "medium" => "researching",
        _ if f.page_views <= 1 && f.duration_s < 30 => "window_shopping",
        _ => "exploring",
    }
}

const PATTERNS: [&str; 4] = ["ready_to_convert", "researching", "exploring", "window_shopping"];

fn share(part: usize, whole: usize) -> f64 {
    percent(part as i64, whole as i64)
}

fn one_decimal(x: f64) -> f64 {
    (x * 10.0).round() / 10.0
}

impl Analytics {
    /// The site's intent model: the cached one unless older than [`MODEL_MAX_AGE_MS`] or `refit` is asked.
    pub fn intent_model(&self, site: WebsiteId, refit: bool) -> Result<Arc<IntentModel>> {
        let now = now_ms();
        if !refit {
            let cache = self.intent_models.lock().unwrap_or_else(|e| e.into_inner());
            if let Some(model) = cache.get(&site)
                && now - model.info.fitted_at < MODEL_MAX_AGE_MS
            {
                return Ok(model.clone());
            }
        }
        let model = Arc::new(self.db.read(|conn| intent::fit(conn, site, now))?);
        self.intent_models.lock().unwrap_or_else(|e| e.into_inner()).insert(site, model.clone());
        Ok(model)
    }

    /// Scores of the range's visits (the [`SCORE_LIMIT`] most recent).
    fn scored(
        &self,
        site: WebsiteId,
        range: TimeRange,
        model: &IntentModel,
    ) -> Result<Vec<(SessionFeatures, IntentScore)>> {
        let features =
            self.db.read(|conn| intent::load_features(conn, site, range.start, range.end, SCORE_LIMIT, None))?;
        Ok(features
            .into_iter()
            .map(|f| {
                let score = model.score(&f);
                (f, score)
            })
            .collect())
    }

    /// `GET /api/analytics/advanced`: the range's figures, real-time metrics, top pages and segments.
    pub fn advanced(&self, site: WebsiteId, range: TimeRange) -> Result<Advanced> {
        let model = self.intent_model(site, false)?;
        let scored = self.scored(site, range, &model)?;
        let high_intent_visitors = scored.iter().filter(|(_, s)| s.score >= HIGH_INTENT).count() as i64;
        let now = now_ms();
        self.db.read(|conn| {
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
                top_pages: top_pages(conn, site, range)?,
                visitor_segments: segments(conn, site, range)?,
                intent_analyzed: scored.len() as i64,
                intent_model: model.info.source,
            })
        })
    }

    /// `GET /api/analytics/ai-intent`: intent scores of the range's visits and what to do about them.
    pub fn ai_intent(&self, site: WebsiteId, range: TimeRange, refit: bool) -> Result<AiIntent> {
        let model = self.intent_model(site, refit)?;
        let scored = self.scored(site, range, &model)?;
        let n = scored.len();
        let count = |cat: &str| scored.iter().filter(|(_, s)| category(s.score) == cat).count();
        let (high, medium, low) = (count("high"), count("medium"), count("low"));
        let average = if n > 0 { scored.iter().map(|(_, s)| s.score as f64).sum::<f64>() / n as f64 } else { 0.0 };
        let patterns = PATTERNS
            .iter()
            .map(|&p| {
                let members: Vec<_> = scored.iter().filter(|(f, s)| pattern(s.score, f) == p).collect();
                let k = members.len();
                Pattern {
                    pattern: p,
                    count: k as i64,
                    percentage: share(k, n),
                    average_score: if k > 0 {
                        one_decimal(members.iter().map(|(_, s)| s.score as f64).sum::<f64>() / k as f64)
                    } else {
                        0.0
                    },
                    conversion_rate: share(members.iter().filter(|(f, _)| f.converted).count(), k),
                }
            })
            .collect();
        let mut ranked: Vec<&(SessionFeatures, IntentScore)> = scored.iter().collect();
        ranked.sort_by(|a, b| b.1.score.cmp(&a.1.score).then(b.0.first_seen.cmp(&a.0.first_seen)));
        let top_intent_sessions = ranked
            .iter()
            .take(TOP_SESSIONS)
            .map(|(f, s)| IntentSession {
                session_id: f.session_key.clone(),
                intent_score: s.score,
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
                key_page: s.key_page.clone(),
                raised_by: s.raised_by.clone(),
                lowered_by: s.lowered_by.clone(),
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
            recommendations: recommendations(&model, &scored),
            model: model.info.clone(),
        })
    }
}

/// Visitors on the site now (seen in the last five minutes), those of them on their first visit of the day,
/// and the conversions of those visits.
fn real_time(conn: &Connection, site: WebsiteId, now: Millis) -> Result<RealTimeMetrics> {
    let since = now - ACTIVE_WINDOW_MS;
    let day_start = now.div_euclid(86_400_000) * 86_400_000;
    Ok(conn
        .prepare_cached(
            "SELECT COUNT(DISTINCT s.visitor_hash),
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

/// The five most viewed pages of the range, each with the share of the visits viewing it that converted.
fn top_pages(conn: &Connection, site: WebsiteId, range: TimeRange) -> Result<Vec<TopPage>> {
    let pages = top_values(conn, site, range, Dimension::Page, TOP_PAGES)?;
    let mut stmt = conn.prepare_cached(
        "SELECT COUNT(DISTINCT e.session_id), COUNT(DISTINCT CASE WHEN s.is_converted THEN e.session_id END)
         FROM events e JOIN sessions s ON s.id = e.session_id
         WHERE e.website_id = ?1 AND e.ts >= ?2 AND e.ts < ?3 AND e.kind = 'pageview' AND e.path = ?4",
    )?;
    pages
        .into_iter()
        .map(|(url, views)| {
            let (visits, converted): (i64, i64) =
                stmt.query_row(params![site, range.start, range.end, url], |r| Ok((r.get(0)?, r.get(1)?)))?;
            Ok(TopPage { url, views, conversion_rate: percent(converted, visits) })
        })
        .collect()
}

/// Visits of the range by visitor type (new or returning that day), source type and device, each with the
/// share that converted.
fn segments(conn: &Connection, site: WebsiteId, range: TimeRange) -> Result<Vec<Segment>> {
    let day_start = range.start.div_euclid(86_400_000) * 86_400_000;
    // The row number per visitor hash and day tells a day's first visit from the ones after it.
    let mut stmt = conn.prepare_cached(
        "SELECT first_seen >= ?2 AS in_range, is_converted, referrer_host, utm_source, utm_medium, utm_campaign,
                device, ROW_NUMBER() OVER (PARTITION BY visitor_hash, first_seen / 86400000 ORDER BY first_seen, id) > 1
         FROM sessions WHERE website_id = ?1 AND first_seen >= ?4 AND first_seen < ?3",
    )?;
    let mut counts: HashMap<(&'static str, String), (i64, i64)> = HashMap::new();
    let mut q = stmt.query(params![site, range.start, range.end, day_start])?;
    while let Some(r) = q.next()? {
        if !r.get::<_, bool>(0)? {
            continue;
        }
        let converted: bool = r.get(1)?;
        let source = SourceType::classify(
            &r.get::<_, String>(2)?,
            &r.get::<_, String>(3)?,
            &r.get::<_, String>(4)?,
            &r.get::<_, String>(5)?,
        );
        let device: String = r.get(6)?;
        let returning: bool = r.get(7)?;
        let visitor = if returning { "Returning Visitors" } else { "New Visitors" };
        let device = match device.as_str() {
            "" => "Unknown Device".to_string(),
            d => {
                let mut c = d.chars();
                c.next().map(|f| f.to_uppercase().collect::<String>() + c.as_str()).unwrap_or_default()
            }
        };
        for key in [("visitor", visitor.to_string()), ("source", source.label().to_string()), ("device", device)] {
            let entry = counts.entry(key).or_default();
            entry.0 += 1;
            entry.1 += converted as i64;
        }
    }
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
    let mut devices: Vec<(String, i64)> =
        counts.iter().filter(|((g, _), _)| *g == "device").map(|((_, d), (n, _))| (d.clone(), *n)).collect();
    devices.sort_by(|a, b| b.1.cmp(&a.1).then(a.0.cmp(&b.0)));
    for (device, _) in devices {
        push("device", &device);
    }
    Ok(out)
}

/// Recommendations drawn from the model and the range's scored visits; each cites the numbers behind it.
fn recommendations(model: &IntentModel, scored: &[(SessionFeatures, IntentScore)]) -> Vec<Recommendation> {
    let mut out = Vec::new();
    let n = scored.len();
    let converted = scored.iter().filter(|(f, _)| f.converted).count();
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
        let viewers = scored.iter().filter(|(f, _)| f.pages.contains(&key.page)).count();
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
            let members: Vec<_> = scored.iter().filter(|(f, _)| f.source == s).collect();
            (s, members.len() as i64, members.iter().filter(|(f, _)| f.converted).count() as i64)
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
    let waiting: Vec<_> = scored.iter().filter(|(f, s)| s.score >= HIGH_INTENT && !f.converted).collect();
    if !waiting.is_empty() {
        let key_viewers = waiting.iter().filter(|(_, s)| s.key_page.is_some()).count();
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
    let glances = scored.iter().filter(|(f, s)| pattern(s.score, f) == "window_shopping").count();
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
