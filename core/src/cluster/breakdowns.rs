//! Breakdowns read from ClickHouse: referrers, countries, any rollup dimension, traffic sources and the pages
//! of the heatmap's page list, ordered as SQLite's rollups order them (most first, ties by value in byte order).

use super::clickhouse::join;
use super::events::Events;
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
    pub fn page_urls(&self, site: WebsiteId, now: Millis) -> Result<Vec<String>> {
        let since = now.div_euclid(DAY_MS) * DAY_MS - URL_DAYS * DAY_MS;
        let db = self.database();
        let rows = self.nodes()[0].query(&format!(
            "SELECT path, sum(views) AS n FROM (
                SELECT path, count() AS views FROM {db}.hits
                WHERE website_id = {site} AND kind = 'pageview' AND ts >= {since} GROUP BY path
                UNION ALL
                SELECT path, toUInt64(0) AS views FROM {db}.interactions
                WHERE website_id = {site} AND kind IN ('click', 'move', 'submit', 'scroll') GROUP BY path
             )
             GROUP BY path ORDER BY n DESC, path LIMIT {MAX_URLS}"
        ))?;
        rows.iter().map(|row| text(row, 0)).collect()
    }

    /// The `limit` most frequent values of `dim` over a range: page views for pages (on their own time), visits
    /// otherwise (on their start, under their first hit's value).
    pub(super) fn top_values(
        &self,
        site: WebsiteId,
        range: TimeRange,
        dim: Dimension,
        limit: i64,
    ) -> Result<Vec<(String, i64)>> {
        let (db, from, to) = (self.database(), range.start, range.end);
        let limit = limit.max(0);
        let sql = match visit_dimension(dim) {
            None => format!(
                "SELECT path, count() AS n FROM {db}.hits
                 WHERE website_id = {site} AND kind = 'pageview' AND ts >= {from} AND ts < {to}
                 GROUP BY path ORDER BY n DESC, path LIMIT {limit}"
            ),
            Some(value) => format!(
                "SELECT {value} AS dim_value, count() AS n FROM ({})
                 GROUP BY dim_value ORDER BY n DESC, dim_value LIMIT {limit}",
                visits_sql(db, &[site], from, to)
            ),
        };
        self.nodes()[0].query(&sql)?.iter().map(|row| Ok((text(row, 0)?, int(row, 1)?))).collect()
    }
}
