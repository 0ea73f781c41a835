//! The Advanced Analytics screen's reads from ClickHouse (`/api/analytics/advanced` and `/ai-intent`): the
//! same answers as SQLite's `analytics::advanced` on the same hits, counted on the shards per request where
//! SQLite stores finished hours, and scored by the same intent model code.

use std::collections::{HashMap, HashSet};

use super::clickhouse::{join, quote};
use super::events::Events;
use super::visits::{DAY_MS, int, text, visit_rows};
use crate::analytics::advanced::{
    Advanced, AiIntent, Counts, HIGH_INTENT, RealTimeMetrics, SCORE_LIMIT, ScoredVisit, TOP_PAGES, TopPage, ai_intent,
    device_label, one_decimal, segments,
};
use crate::analytics::intent::{IntentModel, SessionFeatures, SourceType};
use crate::analytics::{ACTIVE_WINDOW_MS, Dimension, TimeRange, percent};
use crate::error::Result;
use crate::model::{Millis, WebsiteId};

impl Events {
    /// `GET /api/analytics/advanced` in cluster mode under `model` at `now`, as SQLite's `Analytics::advanced`.
    pub fn advanced(&self, site: WebsiteId, range: TimeRange, model: &IntentModel, now: Millis) -> Result<Advanced> {
        let ((totals, pages), (segment_counts, (real_time, scored))) = join(
            || join(|| self.totals(site, range), || self.top_values(site, range, Dimension::Page, TOP_PAGES)),
            || {
                join(
                    || self.visit_segments(site, range),
                    || {
                        join(
                            || self.real_time(site, now),
                            || self.intent_features(site, range.start, range.end, SCORE_LIMIT, None),
                        )
                    },
                )
            },
        )?;
        let urls: Vec<String> = pages.iter().map(|(url, _)| url.clone()).collect();
        let visited = self.page_visits(site, range, &urls)?;
        let top_pages = pages
            .into_iter()
            .map(|(url, views)| {
                let (visits, converted) = visited.get(&url).copied().unwrap_or_default();
                TopPage { url, views, conversion_rate: percent(converted, visits) }
            })
            .collect();
        // Every visit of the range is in one visitor segment: their conversions are the range's converted visits.
        let converted: i64 =
            segment_counts.iter().filter(|((group, _), _)| *group == "visitor").map(|(_, c)| c.1).sum();
        Ok(Advanced {
            total_visitors: totals.visitors,
            high_intent_visitors: scored.iter().filter(|f| model.score_without_reasons(f).score >= HIGH_INTENT).count()
                as i64,
            conversion_rate: percent(converted, totals.visits),
            average_session_duration: if totals.visits > 0 {
                one_decimal(totals.duration_s as f64 / totals.visits as f64)
            } else {
                0.0
            },
            bounce_rate: percent(totals.bounces, totals.visits),
            real_time_metrics: real_time,
            top_pages,
            visitor_segments: segments(&segment_counts),
            intent_analyzed: scored.len() as i64,
            intent_model: model.info.source,
        })
    }

    /// `GET /api/analytics/ai-intent` in cluster mode under `model`: the range's newest [`SCORE_LIMIT`] visits
    /// scored, as SQLite's `Analytics::ai_intent`.
    pub fn ai_intent(&self, site: WebsiteId, range: TimeRange, model: &IntentModel) -> Result<AiIntent> {
        let features = self.intent_features(site, range.start, range.end, SCORE_LIMIT, None)?;
        let visits: Vec<ScoredVisit> = features.iter().map(|f| ScoredVisit::of(model, f)).collect();
        let live: HashMap<i64, SessionFeatures> = features.into_iter().map(|f| (f.session_id, f)).collect();
        // Every scored visit's features are at hand.
        ai_intent(model, &visits, live, |_| Ok(Vec::new()))
    }

    /// The visits that started in the range by visitor type (returning: the visitor hash had an earlier visit
    /// that UTC day), source type and device, each with how many converted, as SQLite's `count_hours` counts
    /// them.
    fn visit_segments(&self, site: WebsiteId, range: TimeRange) -> Result<HashMap<(&'static str, String), Counts>> {
        let db = self.database();
        let (from, to) = (range.start, range.end);
        let day_start = from.div_euclid(DAY_MS) * DAY_MS;
        // The visits from the start of the range's first day, so that a visit is returning after one earlier
        // that day; grouped by visitor and day, and only the range's counted.
        let rows = self.nodes()[0].query(&format!(
            "SELECT tupleElement(v, 1) > first_start AS returning, tupleElement(v, 2), tupleElement(v, 3),
                    tupleElement(v, 4), tupleElement(v, 5), tupleElement(v, 6), count(), sum(tupleElement(v, 7))
             FROM (
                SELECT visitor, intDiv(start, {DAY_MS}) AS day, min(start) AS first_start,
                       groupArray((start, referrer_host, utm_source, utm_medium, utm_campaign, device, converted)) AS vs
                FROM (
                    SELECT website_id, visit_id, any(visitor) AS visitor, min(ts) AS start,
                           argMin(referrer_host, ts) AS referrer_host, argMin(utm_source, ts) AS utm_source,
                           argMin(utm_medium, ts) AS utm_medium, argMin(utm_campaign, ts) AS utm_campaign,
                           argMin(device, ts) AS device, toUInt64(countIf(kind = 'conversion') > 0) AS converted
                    FROM {db}.hits
                    WHERE {rows}
                    GROUP BY website_id, visit_id
                    HAVING start >= {day_start} AND start < {to}
                )
                GROUP BY visitor, day
             )
             ARRAY JOIN vs AS v
             WHERE tupleElement(v, 1) >= {from}
             GROUP BY returning, tupleElement(v, 2), tupleElement(v, 3), tupleElement(v, 4), tupleElement(v, 5),
                      tupleElement(v, 6)",
            rows = visit_rows(db, &[site], day_start, to),
        ))?;
        let mut counts: HashMap<(&'static str, String), Counts> = HashMap::new();
        for row in &rows {
            let visitor = if int(row, 0)? != 0 { "Returning Visitors" } else { "New Visitors" };
            let source = SourceType::classify(&text(row, 1)?, &text(row, 2)?, &text(row, 3)?, &text(row, 4)?);
            let device = device_label(&text(row, 5)?);
            let (visits, converted) = (int(row, 6)?, int(row, 7)?);
            for key in [("visitor", visitor.to_string()), ("source", source.label().to_string()), ("device", device)] {
                let entry = counts.entry(key).or_default();
                entry.0 += visits;
                entry.1 += converted;
            }
        }
        Ok(counts)
    }

    /// Of the visits that started in the range, how many viewed each of `pages` and how many of those converted.
    fn page_visits(&self, site: WebsiteId, range: TimeRange, pages: &[String]) -> Result<HashMap<String, Counts>> {
        if pages.is_empty() {
            return Ok(HashMap::new());
        }
        let db = self.database();
        let (from, to) = (range.start, range.end);
        let listed = pages.iter().map(|p| quote(p)).collect::<Vec<_>>().join(", ");
        let rows = self.nodes()[0].query(&format!(
            "SELECT page, count(), sum(converted)
             FROM (
                SELECT website_id, visit_id, min(ts) AS start, toUInt64(countIf(kind = 'conversion') > 0) AS converted,
                       groupUniqArrayIf(path, kind = 'pageview') AS viewed
                FROM {db}.hits
                WHERE {rows}
                GROUP BY website_id, visit_id
                HAVING start >= {from} AND start < {to}
             )
             ARRAY JOIN viewed AS page
             WHERE page IN ({listed})
             GROUP BY page",
            rows = visit_rows(db, &[site], from, to),
        ))?;
        rows.iter().map(|row| Ok((text(row, 0)?, (int(row, 1)?, int(row, 2)?)))).collect()
    }

    /// Visitors on the site now (a hit in the last five minutes), those of them on their first visit of the UTC
    /// day, and the day's conversions of those visits, as SQLite's `real_time` counts them.
    fn real_time(&self, site: WebsiteId, now: Millis) -> Result<RealTimeMetrics> {
        let db = self.database();
        let node = &self.nodes()[0];
        let since = now - ACTIVE_WINDOW_MS;
        let day_start = now.div_euclid(DAY_MS) * DAY_MS;
        // The active visits with their starts (a visit's hits are on its visitor's shard), and the day's
        // conversions among them; then each visitor's first start of the day.
        let active = format!(
            "SELECT visit_id FROM {db}.hits_local WHERE website_id = {site} AND visit_id != 0 AND ts >= {since}"
        );
        let (visits, first_starts) = join(
            || {
                node.query(&format!(
                    "SELECT visit_id, any(visitor), min(ts), countIf(kind = 'conversion' AND ts >= {day_start})
                     FROM {db}.hits
                     WHERE website_id = {site} AND visit_id IN ({active})
                     GROUP BY visit_id"
                ))
            },
            || {
                node.query(&format!(
                    "SELECT visitor, min(start) FROM (
                        SELECT visit_id, any(visitor) AS visitor, min(ts) AS start FROM {db}.hits
                        WHERE {rows} GROUP BY website_id, visit_id HAVING start >= {day_start}
                     ) GROUP BY visitor",
                    rows = visit_rows(db, &[site], day_start, now + 1),
                ))
            },
        )?;
        let mut first_today: HashMap<String, Millis> = HashMap::new();
        for row in &first_starts {
            first_today.insert(text(row, 0)?, int(row, 1)?);
        }
        let mut new_visitors = HashSet::new();
        let mut conversions = 0;
        for row in &visits {
            let (visitor, start) = (text(row, 1)?, int(row, 2)?);
            if first_today.get(&visitor).is_none_or(|first| *first >= start) {
                new_visitors.insert(visitor.clone());
            }
            conversions += int(row, 3)?;
        }
        Ok(RealTimeMetrics {
            // Active visitors are active visits (see `LiveVisitors::total_active_visitors`).
            active_visitors: visits.len() as i64,
            new_visitors: new_visitors.len() as i64,
            conversions,
        })
    }
}
