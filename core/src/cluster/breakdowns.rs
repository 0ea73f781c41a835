//! Breakdowns read from ClickHouse: referrers, countries, any rollup dimension, traffic sources and the pages
//! of the heatmap's page list, ordered as SQLite's rollups order them (most first, ties by value in byte order);
//! rolled-up hours from the rollups.

use super::clickhouse::join;
use super::events::Events;
use super::rollups::hour_tables;
use super::visits::{DAY_MS, int, text, visit_dimension, visits_sql};
use crate::analytics::{
    BREAKDOWN_LIMIT, CountryCount, Dimension, DimensionCount, MAX_URLS, ReferrerCount, SOURCES_LIMIT, TimeRange,
    TrafficSource, URL_DAYS,
};
use crate::error::Result;
use crate::model::{Millis, WebsiteId};

impl Events {
    /// `GET /api/websites/{id}/referrers` in cluster mode: visits by referring host, most first.
    pub fn referrers(&self, site: WebsiteId, range: TimeRange) -> Result<Vec<ReferrerCount>> {
        let rows = self.top_values(site, range, Dimension::Referrer, BREAKDOWN_LIMIT)?;
        Ok(rows.into_iter().map(|(referrer, count)| ReferrerCount { referrer, count }).collect())
    }

    /// `GET /api/websites/{id}/countries` in cluster mode: visits by country, most first.
    pub fn countries(&self, site: WebsiteId, range: TimeRange) -> Result<Vec<CountryCount>> {
        let rows = self.top_values(site, range, Dimension::Country, BREAKDOWN_LIMIT)?;
        Ok(rows.into_iter().map(|(country, count)| CountryCount { country, count }).collect())
    }

    /// `GET /api/websites/{id}/breakdown/{dimension}` in cluster mode.
    pub fn breakdown(
        &self,
        site: WebsiteId,
        range: TimeRange,
        dim: Dimension,
        limit: i64,
    ) -> Result<Vec<DimensionCount>> {
        let rows = self.top_values(site, range, dim, limit)?;
        Ok(rows.into_iter().map(|(value, count)| DimensionCount { value, count }).collect())
    }

    /// `GET /api/websites/{id}/traffic-sources` in cluster mode: visits by their one source, most first.
    pub fn traffic_sources(&self, site: WebsiteId, range: TimeRange) -> Result<Vec<TrafficSource>> {
        let (rows, totals) =
            join(|| self.top_values(site, range, Dimension::Source, SOURCES_LIMIT), || self.totals(site, range))?;
        Ok(TrafficSource::of(rows, totals.visits))
    }

    /// `GET /api/analytics/urls` in cluster mode: the pages viewed over the last 90 UTC days, most viewed
    /// first, then those with heatmap points or scroll depths (of any time) alone, as SQLite lists them.
    /// The 90 days start on the local hour of `tz` (the zone the site's rollups are keyed by) holding the UTC
    /// midnight SQLite starts them on.
    pub fn page_urls(&self, site: WebsiteId, tz: chrono_tz::Tz, now: Millis) -> Result<Vec<String>> {
        let since = crate::analytics::local_time::hour_start(tz, now.div_euclid(DAY_MS) * DAY_MS - URL_DAYS * DAY_MS);
        let db = self.database();
        let (rolled, live) = self.split(tz, since, Millis::MAX)?;
        let mut parts = vec![format!(
            "SELECT path AS value, toInt64(0) AS n FROM {db}.interactions
             WHERE website_id = {site} AND kind IN ('click', 'move', 'submit', 'scroll') GROUP BY value"
        )];
        for table in hour_tables(rolled, (since, Millis::MAX), tz) {
            parts.push(self.rolled_values_sql(site, Dimension::Page.as_str(), "pageviews", table));
        }
        if let Some((from, _)) = live {
            parts.push(format!(
                "SELECT path AS value, toInt64(count()) AS n FROM {db}.hits
                 WHERE website_id = {site} AND kind = 'pageview' AND ts >= {from} GROUP BY value"
            ));
        }
        let rows = self.nodes()[0].query(&format!(
            "SELECT value, sum(n) AS views FROM ({}) GROUP BY value ORDER BY views DESC, value LIMIT {MAX_URLS}",
            parts.join(" UNION ALL ")
        ))?;
        rows.iter().map(|row| text(row, 0)).collect()
    }

    /// The `limit` most frequent values of `dim` over a range: page views for pages (on their own time), visits
    /// otherwise (on their start, under their first hit's value); rolled-up hours from the rollups.
    pub(super) fn top_values(
        &self,
        site: WebsiteId,
        range: TimeRange,
        dim: Dimension,
        limit: i64,
    ) -> Result<Vec<(String, i64)>> {
        let db = self.database();
        let limit = limit.max(0);
        let (rolled, live) = self.split(range.tz, range.start, range.end)?;
        let mut parts = Vec::new();
        let counter = if dim == Dimension::Page { "pageviews" } else { "visits" };
        for table in hour_tables(rolled, (range.start, range.end), range.tz) {
            parts.push(self.rolled_values_sql(site, dim.as_str(), counter, table));
        }
        if let Some((from, to)) = live {
            parts.push(match visit_dimension(dim) {
                None => format!(
                    "SELECT path AS value, toInt64(count()) AS n FROM {db}.hits
                     WHERE website_id = {site} AND kind = 'pageview' AND ts >= {from} AND ts < {to}
                     GROUP BY value"
                ),
                Some(value) => format!(
                    "SELECT {value} AS value, toInt64(count()) AS n FROM ({}) GROUP BY value",
                    visits_sql(db, &[site], from, to)
                ),
            });
        }
        if parts.is_empty() {
            return Ok(Vec::new());
        }
        let sql = format!(
            "SELECT value, sum(n) AS total FROM ({}) GROUP BY value HAVING total > 0
             ORDER BY total DESC, value LIMIT {limit}",
            parts.join(" UNION ALL ")
        );
        self.nodes()[0].query(&sql)?.iter().map(|row| Ok((text(row, 0)?, int(row, 1)?))).collect()
    }
}
