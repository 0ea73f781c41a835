//! The All Sites table: today, yesterday, last 7 and last 30 days of one metric for every site of a user.

use rusqlite::params;
use serde::Serialize;

use super::Analytics;
use crate::error::{Error, Result};
use crate::model::{Millis, UserId, WebsiteId};

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

impl Analytics {
    /// The four period figures of `metric` for every site `user` owns, oldest site first.
    pub fn site_periods(&self, user: UserId, metric: SiteMetric, now: Millis) -> Result<Vec<SitePeriods>> {
        let today = now.div_euclid(1000).div_euclid(DAY_S) * DAY_S;
        let col = metric.column();
        let sql = format!(
            "SELECT w.id,
                    COALESCE(SUM(CASE WHEN r.bucket = ?2 THEN r.{col} END), 0),
                    COALESCE(SUM(CASE WHEN r.bucket = ?2 - {DAY_S} THEN r.{col} END), 0),
                    COALESCE(SUM(CASE WHEN r.bucket >= ?2 - 6 * {DAY_S} THEN r.{col} END), 0),
                    COALESCE(SUM(r.{col}), 0)
             FROM websites w
             LEFT JOIN rollup_days r ON r.website_id = w.id AND r.dim = '' AND r.value = ''
                  AND r.bucket >= ?2 - 29 * {DAY_S} AND r.bucket <= ?2
             WHERE w.user_id = ?1
             GROUP BY w.id ORDER BY w.id"
        );
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(&sql)?;
            let rows = stmt.query_map(params![user, today], |r| {
                Ok(SitePeriods {
                    website_id: r.get(0)?,
                    today: r.get(1)?,
                    yesterday: r.get(2)?,
                    last7_days: r.get(3)?,
                    last30_days: r.get(4)?,
                })
            })?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }
}
