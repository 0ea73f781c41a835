//! The All Sites table: today, yesterday, last 7 and last 30 days of one metric for every site of a user.

use rusqlite::params;
use serde::Serialize;

use super::Analytics;
use crate::error::{Error, Result};
use crate::model::{Millis, UserId, WebsiteId};

/// The figure the All Sites table shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum SiteMetric {
    PageViews,
    /// Daily unique visitors, added up over the days of a period (visitor hashes rotate daily).
    Visitors,
}

impl SiteMetric {
    /// Parses `pageviews` or `visitors`.
    pub fn parse(s: &str) -> Result<SiteMetric> {
        match s {
            "pageviews" => Ok(SiteMetric::PageViews),
            "visitors" => Ok(SiteMetric::Visitors),
            _ => Err(Error::invalid("metric must be pageviews or visitors")),
        }
    }

    /// The rollup column holding the metric (a fixed name, safe to put into SQL text).
    fn column(self) -> &'static str {
        match self {
            SiteMetric::PageViews => "pageviews",
            SiteMetric::Visitors => "visitors",
        }
    }
}

/// `GET /api/dashboard/sites` item. Periods are whole UTC days ending today, today included.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct SitePeriods {
    pub website_id: WebsiteId,
    pub today: i64,
    pub yesterday: i64,
    pub last7_days: i64,
    pub last30_days: i64,
}

impl Analytics {
    /// The metric per period for every website `owner` has, oldest site first, in one query over
    /// rollup_days.
    pub fn site_periods(&self, owner: UserId, metric: SiteMetric, now: Millis) -> Result<Vec<SitePeriods>> {
        let today = now.div_euclid(86_400_000) * 86_400;
        let day = 86_400;
        let m = metric.column();
        let sql = format!(
            "SELECT w.id,
                    COALESCE(SUM(CASE WHEN r.bucket >= ?2 THEN r.{m} END), 0),
                    COALESCE(SUM(CASE WHEN r.bucket >= ?3 AND r.bucket < ?2 THEN r.{m} END), 0),
                    COALESCE(SUM(CASE WHEN r.bucket >= ?4 THEN r.{m} END), 0),
                    COALESCE(SUM(r.{m}), 0)
             FROM websites w
             LEFT JOIN rollup_days r ON r.website_id = w.id AND r.dim = '' AND r.value = ''
                  AND r.bucket >= ?5 AND r.bucket < ?6
             WHERE w.user_id = ?1
             GROUP BY w.id ORDER BY w.id"
        );
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(&sql)?;
            let rows = stmt.query_map(
                params![owner, today, today - day, today - 6 * day, today - 29 * day, today + day],
                |r| {
                    Ok(SitePeriods {
                        website_id: r.get(0)?,
                        today: r.get(1)?,
                        yesterday: r.get(2)?,
                        last7_days: r.get(3)?,
                        last30_days: r.get(4)?,
                    })
                },
            )?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }
}
