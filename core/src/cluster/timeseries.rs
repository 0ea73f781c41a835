//! Traffic over time read from ClickHouse: the Traffic Overview chart's buckets and the All Sites table's
//! periods, with the meanings SQLite's hourly and daily rollups give them (page views on their own time,
//! visitors once per site and day, in the hour their first visit of the day started); rolled-up hours from the
//! rollups.

use std::collections::HashMap;

use chrono_tz::Tz;

use super::events::Events;
use super::local_hours::{bucket_sql, day_sql};
use super::rollups::hour_tables;
use super::visits::{DAY_MS, first_visits_sql, int, sites_condition};
use crate::analytics::{Grain, SiteMetric, SitePeriods, TimeRange, Timeseries, local_time};
use crate::error::Result;
use crate::model::{Millis, WebsiteId};

impl Events {
    /// `GET /api/dashboard/timeseries` in cluster mode: every bucket of `range` (local hours or days of its
    /// zone), oldest first, as SQLite's rollups give them.
    pub fn timeseries(&self, site: WebsiteId, range: TimeRange) -> Result<Timeseries> {
        let (db, node) = (self.database(), &self.nodes()[0]);
        let (rolled, live) = self.split(range.tz, range.start, range.end)?;
        // Rows of (bucket, visitors, page views), from the rollups and from the hits; a day may have both.
        let mut parts = Vec::new();
        for (table, (from, to)) in hour_tables(rolled, (range.start, range.end), range.tz) {
            let bucket = if table == "imported_hours" { imported_bucket_sql(range) } else { bucket_sql(range, "hour") };
            parts.push(format!(
                "SELECT {bucket} AS bucket, sum(visitors) AS visitors, sum(pageviews) AS pageviews FROM {db}.{table}
                 WHERE website_id = {site} AND dim = '' AND hour >= {from} AND hour < {to} GROUP BY bucket"
            ));
        }
        if let Some((from, to)) = live {
            parts.push(format!(
                "SELECT {} AS bucket, toInt64(0) AS visitors, toInt64(count()) AS pageviews FROM {db}.hits
                 WHERE website_id = {site} AND kind = 'pageview' AND ts >= {from} AND ts < {to}
                 GROUP BY bucket",
                bucket_sql(range, "ts")
            ));
            parts.push(format!(
                "SELECT {} AS bucket, toInt64(count()) AS visitors, toInt64(0) AS pageviews FROM ({})
                 WHERE first >= {from} GROUP BY bucket",
                bucket_sql(range, "first"),
                first_visits_sql(db, &[site], range.tz, from, to)
            ));
        }
        let mut rows = Vec::new();
        if !parts.is_empty() {
            let sql = format!(
                "SELECT bucket, sum(visitors), sum(pageviews) FROM ({}) GROUP BY bucket ORDER BY bucket",
                parts.join(" UNION ALL ")
            );
            for row in node.query(&sql)? {
                rows.push((local_time::bucket_start(range, int(&row, 0)?), int(&row, 1)?, int(&row, 2)?));
            }
        }
        Ok(Timeseries::of(range, rows))
    }

    /// `GET /api/dashboard/sites` in cluster mode: today, yesterday, the last 7 and 30 local days of `metric`
    /// for each of `sites` (each with the zone its rollups are keyed by), in that order (zeros for a site without
    /// hits). One query per zone.
    pub fn site_periods(&self, sites: &[(WebsiteId, Tz)], metric: SiteMetric, now: Millis) -> Result<Vec<SitePeriods>> {
        let mut periods: HashMap<WebsiteId, SitePeriods> = HashMap::new();
        let mut zones: Vec<Tz> = sites.iter().map(|(_, tz)| *tz).collect();
        zones.sort_by_key(|tz| tz.name());
        zones.dedup();
        for tz in zones {
            let zoned: Vec<WebsiteId> = sites.iter().filter(|(_, zone)| *zone == tz).map(|(site, _)| *site).collect();
            self.zone_periods(&zoned, tz, metric, now, &mut periods)?;
        }
        Ok(sites.iter().map(|(site, _)| periods.remove(site).unwrap_or_else(|| SitePeriods::zero(*site))).collect())
    }

    /// `site_periods` of the sites of one zone, added to `periods`.
    fn zone_periods(
        &self,
        sites: &[WebsiteId],
        tz: Tz,
        metric: SiteMetric,
        now: Millis,
        periods: &mut HashMap<WebsiteId, SitePeriods>,
    ) -> Result<()> {
        let (db, node) = (self.database(), &self.nodes()[0]);
        let today = local_time::date_of(tz, now);
        let whole = (
            local_time::midnight(tz, today - chrono::Days::new(29)),
            local_time::midnight(tz, today + chrono::Days::new(1)),
        );
        let (rolled, live) = self.split(tz, whole.0, whole.1)?;
        // Local day numbers; an imported row's is its date's.
        let day = |column: &str| day_sql(tz, column, whole.0, whole.1);
        let in_sites = sites_condition(sites);
        // Per site and day: page views on their own day, visitors on the day their visit started.
        let mut parts = Vec::new();
        let counter = match metric {
            SiteMetric::Pageviews => "pageviews",
            SiteMetric::Visitors => "visitors",
        };
        for (table, (from, to)) in hour_tables(rolled, whole, tz) {
            let day = if table == "imported_hours" { format!("intDiv(hour, {DAY_MS})") } else { day("hour") };
            parts.push(format!(
                "SELECT website_id, {day} AS day, sum({counter}) AS n FROM {db}.{table}
                 WHERE {in_sites} AND dim = '' AND hour >= {from} AND hour < {to} GROUP BY website_id, day"
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
                    first_visits_sql(db, sites, tz, from, to)
                ),
            });
        }
        let sql =
            format!("SELECT website_id, day, sum(n) FROM ({}) GROUP BY website_id, day", parts.join(" UNION ALL "));
        let today = today.signed_duration_since(chrono::NaiveDate::from_ymd_opt(1970, 1, 1).expect("epoch")).num_days();
        for row in node.query(&sql)? {
            let (website_id, day, n) = (int(&row, 0)?, int(&row, 1)?, int(&row, 2)?);
            let site = periods.entry(website_id).or_insert_with(|| SitePeriods::zero(website_id));
            site.today += if day == today { n } else { 0 };
            site.yesterday += if day == today - 1 { n } else { 0 };
            site.last7_days += if day >= today - 6 { n } else { 0 };
            site.last30_days += n;
        }
        Ok(())
    }
}

/// SQL of an imported row's chart bucket in a range, as `bucket_sql`'s: its date's local midnight (the row's
/// `hour` is the date's UTC midnight), or for days the date's number times 86,400.
fn imported_bucket_sql(range: TimeRange) -> String {
    match range.grain {
        Grain::Day => format!("(intDiv(hour, {DAY_MS}) * 86400)"),
        Grain::Hour => {
            // An hourly range holds at most two local midnights.
            let (first, last) = range.dates();
            let mut branches = Vec::new();
            let mut date = first;
            while date <= last {
                let utc = date.and_hms_opt(0, 0, 0).expect("midnight").and_utc().timestamp_millis();
                branches.push(format!("hour = {utc}, {}", local_time::midnight(range.tz, date) / 1000));
                date = date + chrono::Days::new(1);
            }
            format!("multiIf({}, intDiv(hour, 1000))", branches.join(", "))
        }
    }
}
