//! The All Sites table: today, yesterday, last 7 and last 30 days of one metric for every site of a user.

use rusqlite::params;
use serde::Serialize;

use super::{Analytics, local_time};
use crate::error::{Error, Result};
use crate::model::{Millis, WebsiteId};

/// Which figure the All Sites table shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SiteMetric {
    Pageviews,
    Visitors,
}

impl SiteMetric {
    /// Parses `pageviews` or `visitors`.
    pub fn parse(s: &str) -> Result<SiteMetric> {
        match s {
            "pageviews" => Ok(SiteMetric::Pageviews),
            "visitors" => Ok(SiteMetric::Visitors),
            _ => Err(Error::invalid("metric must be pageviews or visitors")),
        }
    }

    /// The rollup column of this metric (a fixed name, safe to put into SQL text).
    fn column(self) -> &'static str {
        match self {
            SiteMetric::Pageviews => "pageviews",
            SiteMetric::Visitors => "visitors",
        }
    }
}

/// `GET /api/dashboard/sites` item. Periods are whole days of each site's timezone; the 7- and 30-day ones
/// include today.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SitePeriods {
    pub website_id: WebsiteId,
    pub today: i64,
    pub yesterday: i64,
    pub last7_days: i64,
    pub last30_days: i64,
}

impl SitePeriods {
    /// A site's periods before anything is counted.
    pub(crate) fn zero(website_id: WebsiteId) -> SitePeriods {
        SitePeriods { website_id, today: 0, yesterday: 0, last7_days: 0, last30_days: 0 }
    }
}

impl Analytics {
    /// The four period figures of `metric` for each of `sites` (a user's, from `Websites::list`), in that order.
    ///
    /// The site list comes from the metadata store and the figures from the events store: in cluster mode they
    /// are different databases, so this no longer joins `websites` with the rollups. One cached statement per
    /// site walks the rollup primary key (website_id, dim, bucket) as the join's inner loop did.
    pub fn site_periods(&self, sites: &[WebsiteId], metric: SiteMetric, now: Millis) -> Result<Vec<SitePeriods>> {
        let col = metric.column();
        // Each site's days are its own (its timezone): the starts of today, yesterday, 6 and 29 days ago, and
        // tomorrow, in seconds.
        let sql = format!(
            "SELECT COALESCE(SUM(CASE WHEN bucket >= ?2 THEN {col} END), 0),
                    COALESCE(SUM(CASE WHEN bucket >= ?3 AND bucket < ?2 THEN {col} END), 0),
                    COALESCE(SUM(CASE WHEN bucket >= ?4 THEN {col} END), 0),
                    COALESCE(SUM({col}), 0)
             FROM rollup_days
             WHERE website_id = ?1 AND dim = '' AND value = '' AND bucket >= ?5 AND bucket < ?6"
        );
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(&sql)?;
            sites
                .iter()
                .map(|&website_id| {
                    let tz = crate::privacy::deletion::site_zone(conn, website_id)?;
                    let today = local_time::date_of(tz, now);
                    let start = |days_ago: u64| local_time::midnight(tz, today - chrono::Days::new(days_ago)) / 1000;
                    let tomorrow = local_time::midnight(tz, today + chrono::Days::new(1)) / 1000;
                    let days = params![website_id, start(0), start(1), start(6), start(29), tomorrow];
                    Ok(stmt.query_row(days, |r| {
                        Ok(SitePeriods {
                            website_id,
                            today: r.get(0)?,
                            yesterday: r.get(1)?,
                            last7_days: r.get(2)?,
                            last30_days: r.get(3)?,
                        })
                    })?)
                })
                .collect()
        })
    }
}
