//! The most common paths through a site read from ClickHouse (`/api/analytics/journeys`): each visit's page
//! views gathered with `groupArray` in time order, folded and cut in SQL as SQLite's `visit_hours` tallies them,
//! counted per path on the shards; the ranking is done here, as SQLite's is.

use std::collections::HashMap;

use super::clickhouse::quote;
use super::events::Events;
use super::visits::{int, text, visit_rows};
use crate::analytics::TimeRange;
use crate::analytics::journeys::{JourneyPath, JourneyPaths, MORE_PAGES, PATH_DEPTH, TOP_PATHS};
use crate::analytics::visit_hours::HOUR_MS;
use crate::error::Result;
use crate::model::WebsiteId;

impl Events {
    /// `GET /api/analytics/journeys` in cluster mode over `sites` (the caller's, checked by the caller), as
    /// SQLite's `Analytics::journey_paths` answers it: the visits that started in the range's hours (SQLite
    /// tallies whole hours), each with its page views in order, repeats in a row folded and cut after
    /// [`PATH_DEPTH`] pages; the [`TOP_PATHS`] taken most, ties by their pages.
    pub fn journey_paths(&self, sites: &[WebsiteId], range: TimeRange) -> Result<JourneyPaths> {
        if sites.is_empty() {
            return Ok(JourneyPaths { total_sessions: 0, paths: Vec::new() });
        }
        let from = range.start.div_euclid(HOUR_MS) * HOUR_MS;
        let to = ((range.end - 1).div_euclid(HOUR_MS) + 1) * HOUR_MS;
        // Page views in (time, path) order: hits of one visit in the same millisecond have no other order here.
        // A path holds no line break (it is a URL's path), so the joined pages are the path's key.
        let rows = self.nodes()[0].query(&format!(
            "SELECT arrayStringConcat(pages, '\\n') AS key, count() AS sessions, countIf(converted) AS conversions
             FROM (
                SELECT website_id, visit_id, min(ts) AS start, countIf(kind = 'conversion') > 0 AS converted,
                       arrayMap(v -> v.2, arraySort(groupArrayIf((ts, path), kind = 'pageview'))) AS views,
                       arrayFilter((p, i) -> i = 1 OR p != views[i - 1], views, arrayEnumerate(views)) AS folded,
                       if(length(folded) > {PATH_DEPTH},
                          arrayPushBack(arraySlice(folded, 1, {PATH_DEPTH}), {more}), folded) AS pages
                FROM {db}.hits
                WHERE {rows}
                GROUP BY website_id, visit_id
                HAVING start >= {from} AND start < {to} AND length(views) > 0
             )
             GROUP BY key",
            more = quote(MORE_PAGES),
            db = self.database(),
            rows = visit_rows(self.database(), sites, from, to),
        ))?;
        let mut tallies: HashMap<String, (u64, u64)> = HashMap::new();
        for row in &rows {
            tallies.insert(text(row, 0)?, (int(row, 1)? as u64, int(row, 2)? as u64));
        }
        let total_sessions = tallies.values().map(|t| t.0).sum();
        let mut paths: Vec<JourneyPath> = tallies
            .into_iter()
            .map(|(key, (sessions, conversions))| JourneyPath {
                pages: key.split('\n').map(str::to_string).collect(),
                sessions,
                conversions,
                conversion_rate: conversions as f64 * 100.0 / sessions.max(1) as f64,
            })
            .collect();
        paths.sort_by(|a, b| b.sessions.cmp(&a.sessions).then_with(|| a.pages.cmp(&b.pages)));
        paths.truncate(TOP_PATHS);
        Ok(JourneyPaths { total_sessions, paths })
    }
}
