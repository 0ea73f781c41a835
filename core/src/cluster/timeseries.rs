//! Traffic over time read from ClickHouse: the Traffic Overview chart's buckets and the All Sites table's
//! periods, with the meanings SQLite's hourly and daily rollups give them (page views on their own time,
//! visitors once per site and day, in the hour their first visit of the day started); rolled-up hours from the
//! rollups.

use std::collections::HashMap;

use super::events::Events;
use super::rollups::hour_tables;
use super::visits::{DAY_MS, first_visits_sql, int, sites_condition};
use crate::analytics::{SiteMetric, SitePeriods, TimeRange, Timeseries};
use crate::error::Result;
use crate::model::{Millis, WebsiteId};

impl Events {
    /// `GET /api/dashboard/timeseries` in cluster mode: every bucket of `range` (hours or UTC days), oldest
    /// first, as SQLite's rollups give them.
    pub fn timeseries(&self, site: WebsiteId, range: TimeRange) -> Result<Timeseries> {
        let (db, node) = (self.database(), &self.nodes()[0]);
        let step_ms = range.grain.seconds() * 1000;
        let bucket = |column: &str| format!("intDiv({column}, {step_ms}) * {}", range.grain.seconds());
        let (rolled, live) = self.split(range.start, range.end)?;
        // Rows of (bucket, visitors, page views), from the rollups and from the hits; a day may have both.
        let mut parts = Vec::new();
        for (table, (from, to)) in hour_tables(rolled, (range.start, range.end)) {
            parts.push(format!(
                "SELECT {} AS bucket, sum(visitors) AS visitors, sum(pageviews) AS pageviews FROM {db}.{table}
                 WHERE website_id = {site} AND dim = '' AND hour >= {from} AND hour < {to} GROUP BY bucket",
                bucket("hour")
            ));
        }
        if let Some((from, to)) = live {
            parts.push(format!(
                "SELECT {} AS bucket, toInt64(0) AS visitors, toInt64(count()) AS pageviews FROM {db}.hits
                 WHERE website_id = {site} AND kind = 'pageview' AND ts >= {from} AND ts < {to}
                 GROUP BY bucket",
                bucket("ts")
            ));
            parts.push(format!(
                "SELECT {} AS bucket, toInt64(count()) AS visitors, toInt64(0) AS pageviews FROM ({})
                 WHERE first >= {from} GROUP BY bucket",
                bucket("first"),
                first_visits_sql(db, &[site], from, to)
            ));
        }
        let mut rows = Vec::new();
        if !parts.is_empty() {
            let sql = format!(
                "SELECT bucket, sum(visitors), sum(pageviews) FROM ({}) GROUP BY bucket ORDER BY bucket",
                parts.join(" UNION ALL ")
            );
            for row in node.query(&sql)? {
                rows.push((int(&row, 0)?, int(&row, 1)?, int(&row, 2)?));
            }
        }
        Ok(Timeseries::of(range, rows))
    }

    /// `GET /api/dashboard/sites` in cluster mode: today, yesterday, the last 7 and 30 UTC days of `metric` for
    /// each of `sites`, in that order (zeros for a site without hits).
    pub fn site_periods(&self, sites: &[WebsiteId], metric: SiteMetric, now: Millis) -> Result<Vec<SitePeriods>> {
        if sites.is_empty() {
            return Ok(Vec::new());
        }
        let (db, node) = (self.database(), &self.nodes()[0]);
        let today = now.div_euclid(DAY_MS) * DAY_MS;
        let whole = (today - 29 * DAY_MS, today + DAY_MS);
        let (rolled, live) = self.split(whole.0, whole.1)?;
        let day = |column: &str| format!("intDiv({column}, {DAY_MS}) * {DAY_MS}");
        let in_sites = sites_condition(sites);
        // Per site and day: page views on their own day, visitors on the day their visit started.
        let mut parts = Vec::new();
        let counter = match metric {
            SiteMetric::Pageviews => "pageviews",
            SiteMetric::Visitors => "visitors",
        };
        for (table, (from, to)) in hour_tables(rolled, whole) {
            parts.push(format!(
                "SELECT website_id, {} AS day, sum({counter}) AS n FROM {db}.{table}
                 WHERE {in_sites} AND dim = '' AND hour >= {from} AND hour < {to} GROUP BY website_id, day",
                day("hour")
            ));
        }
        if let Some((from, to)) = live {
            parts.push(match metric {
                SiteMetric::Pageviews => format!(
                    "SELECT website_id, {} AS day, toInt64(count()) AS n FROM {db}.hits
                     WHERE {in_sites} AND kind = 'pageview' AND ts >= {from} AND ts < {to}
                     GROUP BY website_id, day",
                    day("ts")
                ),
                SiteMetric::Visitors => format!(
                    "SELECT website_id, {} AS day, toInt64(count()) AS n FROM ({}) WHERE first >= {from}
                     GROUP BY website_id, day",
                    day("first"),
                    first_visits_sql(db, sites, from, to)
                ),
            });
        }
        let sql =
            format!("SELECT website_id, day, sum(n) FROM ({}) GROUP BY website_id, day", parts.join(" UNION ALL "));
        let mut periods: HashMap<WebsiteId, SitePeriods> = HashMap::new();
        for row in node.query(&sql)? {
            let (website_id, day, n) = (int(&row, 0)?, int(&row, 1)?, int(&row, 2)?);
            let site = periods.entry(website_id).or_insert_with(|| SitePeriods::zero(website_id));
            site.today += if day == today { n } else { 0 };
            site.yesterday += if day == today - DAY_MS { n } else { 0 };
            site.last7_days += if day >= today - 6 * DAY_MS { n } else { 0 };
            site.last30_days += n;
        }
        Ok(sites.iter().map(|site| periods.remove(site).unwrap_or_else(|| SitePeriods::zero(*site))).collect())
    }
}
