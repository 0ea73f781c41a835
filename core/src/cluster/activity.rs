//! Single events read from ClickHouse: the Recent Activity card, the Conversions tab and the events summary,
//! as SQLite answers them from its events table and `event` rollups.
//!
//! ClickHouse rows have no id of their own: an item's `id` is a hash of the hit (stable between reads, not
//! SQLite's), and hits of the same millisecond are listed in that hash's order rather than in arrival order.

use std::collections::HashMap;

use super::clickhouse::{join, quote};
use super::events::Events;
use super::rollups::{EVENT_NAME, hour_tables};
use super::visits::{float, int, text, visits_sql};
use crate::analytics::{
    ActivityEvent, CONVERSIONS_LIMIT, Conversion, Conversions, EventSummary, TimeRange, check_activity_limit, percent,
};
use crate::error::Result;
use crate::model::WebsiteId;

/// A hit's id: its hash, within JavaScript's exact integers.
/// A conversion from a row of (id, name, isNull(value), ifNull(value, 0), currency, ts) of `hits`.
pub(crate) fn conversion_of(row: &[String]) -> Result<Conversion> {
    let currency = text(row, 4)?;
    Ok(Conversion {
        id: int(row, 0)?,
        goal_name: text(row, 1)?,
        value: if int(row, 2)? == 1 { None } else { Some(float(row, 3)?) },
        // Stored as '' when the hit had none (SQLite: NULL).
        currency: if currency.is_empty() { None } else { Some(currency) },
        timestamp: int(row, 5)?,
    })
}

pub(crate) const HIT_ID: &str = "bitAnd(cityHash64(visit_id, ts, kind, name, url), 9007199254740991)";

impl Events {
    /// `GET /api/dashboard/recent-activity` in cluster mode: the `limit` (1 to 50) newest page views, custom
    /// events, conversions, outbound links and downloads, with their visit's country. As in SQLite, a visit
    /// that a later one of the same key has replaced is named `key~id` (here its visit id). Anonymous page
    /// views (visit 0) are counts only, as in SQLite, and are not listed. `admitted` is the events engine's
    /// condition of the hits a filter admits (`" AND ..."` over hit rows, empty without filters).
    pub fn recent_activity(&self, site: WebsiteId, limit: i64, admitted: &str) -> Result<Vec<ActivityEvent>> {
        check_activity_limit(limit)?;
        let (db, node) = (self.database(), &self.nodes()[0]);
        let rows = node.query(&format!(
            "SELECT {HIT_ID} AS id, kind, name, url, session_key, visit_id, isNull(value), ifNull(value, 0), ts
             FROM {db}.hits
             WHERE website_id = {site} AND visit_id != 0
               AND kind IN ('pageview', 'custom', 'conversion', 'outbound', 'download'){admitted}
             ORDER BY ts DESC, id DESC LIMIT {limit}"
        ))?;
        if rows.is_empty() {
            return Ok(Vec::new());
        }
        let visit_ids: Vec<String> = rows.iter().map(|row| text(row, 5)).collect::<Result<_>>()?;
        let keys: Vec<String> = rows.iter().map(|row| text(row, 4).map(|k| quote(&k))).collect::<Result<_>>()?;
        // The visit's country is its first hit's, as SQLite stores it on the visit.
        let (countries, latest) = join(
            || {
                node.query(&format!(
                    "SELECT visit_id, argMin(country, ts) FROM {db}.hits
                     WHERE website_id = {site} AND visit_id IN ({}) GROUP BY visit_id",
                    visit_ids.join(", ")
                ))
            },
            || {
                node.query(&format!(
                    "SELECT session_key, argMax(visit_id, ts) FROM {db}.hits
                     WHERE website_id = {site} AND session_key IN ({}) GROUP BY session_key",
                    keys.join(", ")
                ))
            },
        )?;
        let countries: HashMap<i64, String> =
            countries.iter().map(|row| Ok((int(row, 0)?, text(row, 1)?))).collect::<Result<_>>()?;
        let latest: HashMap<String, i64> =
            latest.iter().map(|row| Ok((text(row, 0)?, int(row, 1)?))).collect::<Result<_>>()?;
        rows.iter()
            .map(|row| {
                let (key, visit) = (text(row, 4)?, int(row, 5)?);
                let session_id = match latest.get(&key) {
                    Some(current) if *current != visit => format!("{key}~{visit}"),
                    _ => key,
                };
                Ok(ActivityEvent {
                    id: int(row, 0)?,
                    kind: text(row, 1)?,
                    name: text(row, 2)?,
                    url: text(row, 3)?,
                    session_id,
                    country: countries.get(&visit).cloned().unwrap_or_default(),
                    value: if int(row, 6)? == 1 { None } else { Some(float(row, 7)?) },
                    timestamp: int(row, 8)?,
                })
            })
            .collect()
    }

    /// `GET /api/websites/{id}/conversions` in cluster mode: the newest 100 conversions of `range` and the
    /// share of the visits that started in it which converted (whenever they did).
    pub fn conversions(&self, site: WebsiteId, range: TimeRange) -> Result<Conversions> {
        let (db, node, from, to) = (self.database(), &self.nodes()[0], range.start, range.end);
        let (conversions, rate) = join(
            || {
                node.query(&format!(
                    "SELECT {HIT_ID} AS id, name, isNull(value), ifNull(value, 0), currency, ts FROM {db}.hits
                     WHERE website_id = {site} AND kind = 'conversion' AND ts >= {from} AND ts < {to}
                     ORDER BY ts DESC, id DESC LIMIT {CONVERSIONS_LIMIT}"
                ))
            },
            || self.converted_visits(site, range),
        )?;
        let conversions = conversions.iter().map(|row| conversion_of(row)).collect::<Result<Vec<_>>>()?;
        let (converted, visits) = rate;
        Ok(Conversions { conversions, conversion_rate: percent(converted, visits) })
    }

    /// The visits that started in a range which converted (whenever they did), and all of them.
    fn converted_visits(&self, site: WebsiteId, range: TimeRange) -> Result<(i64, i64)> {
        let db = self.database();
        let (rolled, live) = self.split(range.tz, range.start, range.end)?;
        let mut parts = Vec::new();
        for (table, (from, to)) in hour_tables(rolled, (range.start, range.end), range.tz) {
            parts.push(format!(
                "SELECT sumIf(visits, dim = 'converted') AS converted, sumIf(visits, dim = '') AS started
                 FROM {db}.{table}
                 WHERE website_id = {site} AND dim IN ('', 'converted') AND hour >= {from} AND hour < {to}"
            ));
        }
        if let Some((from, to)) = live {
            parts.push(format!(
                "SELECT toInt64(countIf(conversions > 0)) AS converted, toInt64(count()) AS started FROM ({})",
                visits_sql(db, &[site], from, to)
            ));
        }
        let rows = self.nodes()[0]
            .query(&format!("SELECT sum(converted), sum(started) FROM ({})", parts.join(" UNION ALL ")))?;
        let row = rows.first().map(Vec::as_slice).unwrap_or_default();
        Ok((int(row, 0)?, int(row, 1)?))
    }

    /// `GET /api/websites/{id}/events/summary` in cluster mode, with the site's event `definitions` (id, name)
    /// from the metadata store: custom events, outbound links and downloads (by name, or by kind when unnamed)
    /// and conversions (by goal name) of the range, most first.
    pub fn events_summary(
        &self,
        site: WebsiteId,
        range: TimeRange,
        definitions: Vec<(i64, String)>,
    ) -> Result<EventSummary> {
        let db = self.database();
        let (rolled, live) = self.split(range.tz, range.start, range.end)?;
        let mut parts = Vec::new();
        for (table, (from, to)) in hour_tables(rolled, (range.start, range.end), range.tz) {
            parts.push(format!(
                "SELECT value AS event_name, sum(events + conversions) AS n, sum(conversions) AS converted
                 FROM {db}.{table}
                 WHERE website_id = {site} AND dim = 'event' AND hour >= {from} AND hour < {to}
                 GROUP BY event_name HAVING n != 0"
            ));
        }
        if let Some((from, to)) = live {
            parts.push(format!(
                "SELECT {EVENT_NAME} AS event_name, toInt64(count()) AS n, toInt64(countIf(kind = 'conversion')) AS converted
                 FROM {db}.hits
                 WHERE website_id = {site} AND kind IN ('custom', 'outbound', 'download', 'conversion')
                   AND ts >= {from} AND ts < {to}
                 GROUP BY event_name"
            ));
        }
        let rows = self.nodes()[0]
            .query(&format!(
                "SELECT event_name, sum(n) AS total, sum(converted) FROM ({})
                 GROUP BY event_name ORDER BY total DESC, event_name",
                parts.join(" UNION ALL ")
            ))?
            .iter()
            .map(|row| Ok((text(row, 0)?, int(row, 1)?, int(row, 2)?)))
            .collect::<Result<_>>()?;
        Ok(EventSummary::of(rows, definitions))
    }
}
