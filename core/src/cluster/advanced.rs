//! The Advanced Analytics screen's reads from ClickHouse (`/api/analytics/advanced` and `/ai-intent`): the
//! same answers as SQLite's `analytics::advanced` on the same hits, counted on the shards per request where
//! SQLite stores finished hours, and scored by the same intent model code.

use std::collections::{HashMap, HashSet};

use super::clickhouse::{join, quote};
use super::events::Events;
use super::visits::{DAY_MS, int, text, visit_rows};
use crate::analytics::advanced::{
    Advanced, AiIntent, Counts, HIGH_INTENT, RealTimeMetrics, SCORE_LIMIT, SegmentCounts, TOP_PAGES, converted_of,
    device_label, rated_pages, scored_live, segments,
};
use crate::analytics::intent::{IntentModel, SourceType};
use crate::analytics::{ACTIVE_WINDOW_MS, Dimension, TimeRange, Totals};
use crate::error::Result;
use crate::model::{Millis, WebsiteId};

/// The visits an Advanced Analytics read counts, as tests of a hit row (`visit_id IN (...)`): those of the
/// range and those active now that a read's filters admit; none (every visit) without filters.
pub(crate) struct AdvancedVisits {
    pub of_range: Option<String>,
    pub active: Option<String>,
}

/// `" AND <test>"`, or nothing without a test.
fn and(test: Option<&str>) -> String {
    test.map(|t| format!(" AND {t}")).unwrap_or_default()
}

impl Events {
    /// `GET /api/analytics/advanced` in cluster mode under `model` at `now`, as SQLite's `Analytics::advanced`,
    /// of the `admitted` visits; `traffic` counts the cards' totals and the top pages (url, views).
    pub(crate) fn advanced(
        &self,
        site: WebsiteId,
        range: TimeRange,
        model: &IntentModel,
        now: Millis,
        admitted: &AdvancedVisits,
        traffic: impl FnOnce() -> Result<(Totals, Vec<(String, i64)>)> + Send,
    ) -> Result<Advanced> {
        let of_range = admitted.of_range.as_deref();
        let ((totals, pages), (segment_counts, (real_time, scored))) = join(traffic, || {
            join(
                || self.visit_segments(site, range, of_range),
                || {
                    join(
                        || self.real_time(site, now, admitted.active.as_deref()),
                        || self.intent_features(site, range.start, range.end, SCORE_LIMIT, None, &and(of_range)),
                    )
                },
            )
        })?;
        let urls: Vec<String> = pages.iter().map(|(url, _)| url.clone()).collect();
        let visited = self.page_visits(site, range, &urls, &and(of_range))?;
        let high = scored.iter().filter(|f| model.score_without_reasons(f).score >= HIGH_INTENT).count();
        Ok(Advanced::of(
            totals,
            converted_of(&segment_counts),
            rated_pages(pages, &visited),
            segments(&segment_counts),
            real_time,
            (scored.len() as i64, high as i64),
            model.info.source,
        ))
    }

    /// The cards' totals and the top pages of the range, from the rollups.
    pub fn totals_and_top_pages(&self, site: WebsiteId, range: TimeRange) -> Result<(Totals, Vec<(String, i64)>)> {
        join(|| self.totals(site, range), || self.top_values(site, range, Dimension::Page, TOP_PAGES))
    }

    /// `GET /api/analytics/ai-intent` in cluster mode under `model`: the range's newest [`SCORE_LIMIT`] visits
    /// that pass `admitted` (a test of a hit row, none for every visit) scored, as SQLite's `Analytics::ai_intent`.
    pub fn ai_intent(
        &self,
        site: WebsiteId,
        range: TimeRange,
        model: &IntentModel,
        admitted: Option<&str>,
    ) -> Result<AiIntent> {
        scored_live(model, self.intent_features(site, range.start, range.end, SCORE_LIMIT, None, &and(admitted))?)
    }

    /// The visits that started in the range and pass `admitted` (a test of a hit row, none for every visit) by
    /// visitor type (returning: the visitor hash had an earlier visit of any kind that UTC day), source type and
    /// device, each with how many converted, as SQLite's `count_hours` counts them.
    fn visit_segments(&self, site: WebsiteId, range: TimeRange, admitted: Option<&str>) -> Result<SegmentCounts> {
        let db = self.database();
        let (from, to) = (range.start, range.end);
        let day_start = from.div_euclid(DAY_MS) * DAY_MS;
        // The visits from the start of the range's first day, so that a visit is returning after one earlier
        // that day (admitted or not); grouped by visitor and day, and only the range's admitted ones counted.
        let test = admitted.unwrap_or("1");
        let rows = self.nodes()[0].query(&format!(
            "SELECT tupleElement(v, 1) > first_start AS returning, tupleElement(v, 2), tupleElement(v, 3),
                    tupleElement(v, 4), tupleElement(v, 5), tupleElement(v, 6), count(), sum(tupleElement(v, 7))
             FROM (
                SELECT visitor, intDiv(start, {DAY_MS}) AS day, min(start) AS first_start,
                       groupArray((start, referrer_host, utm_source, utm_medium, utm_campaign, device, converted,
                                   admitted)) AS vs
                FROM (
                    SELECT website_id, visit_id, any(visitor) AS visitor, min(ts) AS start,
                           argMin(referrer_host, ts) AS referrer_host, argMin(utm_source, ts) AS utm_source,
                           argMin(utm_medium, ts) AS utm_medium, argMin(utm_campaign, ts) AS utm_campaign,
                           argMin(device, ts) AS device, toUInt64(countIf(kind = 'conversion') > 0) AS converted,
                           max({test}) AS admitted
                    FROM {db}.hits
                    WHERE {rows}
                    GROUP BY website_id, visit_id
                    HAVING start >= {day_start} AND start < {to}
                )
                GROUP BY visitor, day
             )
             ARRAY JOIN vs AS v
             WHERE tupleElement(v, 1) >= {from} AND tupleElement(v, 8) = 1
             GROUP BY returning, tupleElement(v, 2), tupleElement(v, 3), tupleElement(v, 4), tupleElement(v, 5),
                      tupleElement(v, 6)",
            rows = visit_rows(db, &[site], day_start, to),
        ))?;
        let mut counts = SegmentCounts::new();
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

    /// Of the visits that started in the range and pass `admitted` (`" AND <test>"` of a hit row, or nothing),
    /// how many viewed each of `pages` and how many of those converted.
    fn page_visits(
        &self,
        site: WebsiteId,
        range: TimeRange,
        pages: &[String],
        admitted: &str,
    ) -> Result<HashMap<String, Counts>> {
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
                WHERE {rows}{admitted}
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

    /// Visitors on the site now (a hit in the last five minutes) of the visits that pass `admitted` (a test of
    /// a hit row, none for every visit), those of them on their first visit of the UTC day, and the day's
    /// conversions of those visits, as SQLite's `real_time` counts them.
    fn real_time(&self, site: WebsiteId, now: Millis, admitted: Option<&str>) -> Result<RealTimeMetrics> {
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
                     WHERE website_id = {site} AND visit_id IN ({active}){admitted}
                     GROUP BY visit_id",
                    admitted = and(admitted)
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
