//! The All Sites table: today, yesterday, last 7 and last 30 days of one metric for every site of a user.

use rusqlite::params;
use serde::Serialize;

use super::Analytics;
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

/// `GET /api/dashboard/sites` item. Periods are whole UTC days; the 7- and 30-day ones include today.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SitePeriods {
    pub website_id: WebsiteId,
    pub today: i64,
    pub yesterday: i64,
    pub last7_days: i64,
    pub last30_days: i64,
}

const DAY_S: i64 = 86_400;

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
        let today = now.div_euclid(1000).div_euclid(DAY_S) * DAY_S;
        let col = metric.column();
        let sql = format!(
            "SELECT COALESCE(SUM(CASE WHEN bucket = ?2 THEN {col} END), 0),
                    COALESCE(SUM(CASE WHEN bucket = ?2 - {DAY_S} THEN {col} END), 0),
                    COALESCE(SUM(CASE WHEN bucket >= ?2 - 6 * {DAY_S} THEN {col} END), 0),
                    COALESCE(SUM({col}), 0)
             FROM rollup_days
             WHERE website_id = ?1 AND dim = '' AND value = '' AND bucket >= ?2 - 29 * {DAY_S} AND bucket <= ?2"
        );
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(&sql)?;
            sites
                .iter()
                .map(|&website_id| {
                    Ok(stmt.query_row(params![website_id, today], |r| {
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
