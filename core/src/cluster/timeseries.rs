//! Traffic over time read from ClickHouse: the Traffic Overview chart's buckets and the All Sites table's
//! periods, with the meanings SQLite's hourly and daily rollups give them (page views on their own time,
//! visitors once per site and day, in the hour their first visit of the day started).

use std::collections::HashMap;

use super::clickhouse::join;
use super::events::Events;
use super::visits::{DAY_MS, first_visits_sql, int, sites_condition};
use crate::analytics::{SiteMetric, SitePeriods, TimeRange, Timeseries};
use crate::error::Result;
use crate::model::{Millis, WebsiteId};

impl Events {
    /// `GET /api/dashboard/timeseries` in cluster mode: every bucket of `range` (hours or UTC days), oldest
    /// first, as SQLite's rollups give them.
    pub fn timeseries(&self, site: WebsiteId, range: TimeRange) -> Result<Timeseries> {
        let (db, node) = (self.database(), &self.nodes()[0]);
        let (from, to) = (range.start, range.end);
        let step_ms = range.grain.seconds() * 1000;
        let bucket = |column: &str| format!("intDiv({column}, {step_ms}) * {}", range.grain.seconds());
        let mut buckets: HashMap<i64, (i64, i64)> = HashMap::new();
        let (page_views, visitors) = join(
            || {
                node.query(&format!(
                    "SELECT {} AS bucket, count() FROM {db}.hits
                     WHERE website_id = {site} AND kind = 'pageview' AND ts >= {from} AND ts < {to}
                     GROUP BY bucket",
                    bucket("ts")
                ))
            },
            || {
                node.query(&format!(
                    "SELECT {} AS bucket, count() FROM ({}) WHERE first >= {from} GROUP BY bucket",
                    bucket("first"),
                    first_visits_sql(db, &[site], from, to)
                ))
            },
        )?;
        for row in page_views {
            buckets.entry(int(&row, 0)?).or_default().1 = int(&row, 1)?;
        }
        for row in visitors {
            buckets.entry(int(&row, 0)?).or_default().0 = int(&row, 1)?;
        }
        let mut rows: Vec<(i64, i64, i64)> = buckets.into_iter().map(|(b, (v, p))| (b, v, p)).collect();
        rows.sort_unstable();
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
        let (from, to) = (today - 29 * DAY_MS, today + DAY_MS);
        // Per site and day: page views on their own day, visitors on the day their visit started.
        let sql = match metric {
            SiteMetric::Pageviews => format!(
                "SELECT website_id, intDiv(ts, {DAY_MS}) * {DAY_MS} AS day, count() FROM {db}.hits
                 WHERE {} AND kind = 'pageview' AND ts >= {from} AND ts < {to}
                 GROUP BY website_id, day",
                sites_condition(sites)
            ),
            SiteMetric::Visitors => format!(
                "SELECT website_id, intDiv(first, {DAY_MS}) * {DAY_MS} AS day, count() FROM ({})
                 GROUP BY website_id, day",
                first_visits_sql(db, sites, from, to)
            ),
        };
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
