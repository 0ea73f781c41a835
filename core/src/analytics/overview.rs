//! The overview: totals of a range against the previous one, active sessions and top pages.

use rusqlite::{Connection, params};
use serde::Serialize;

use super::live::ACTIVE_WINDOW_MS;
use super::{Analytics, Dimension, TimeRange};
use crate::error::Result;
use crate::import::ImportedHistory;
use crate::import::sqlite::imported_within;
use crate::model::{WebsiteId, now_ms};

/// `GET /api/dashboard/overview`.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Overview {
    pub metrics: OverviewMetrics,
    pub previous: PreviousMetrics,
    pub top_pages: Vec<PageViews>,
    /// History imported from another tool within the range (`tracker import`); null when there is none.
    pub imported: Option<ImportedHistory>,
}

#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OverviewMetrics {
    pub total_visitors: i64,
    pub active_sessions: i64,
    pub page_views: i64,
    pub conversions: i64,
    /// Share of visits with a single page view, in percent.
    pub bounce_rate: f64,
    /// Mean visit length in seconds.
    pub avg_session_duration: f64,
}

#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PreviousMetrics {
    pub total_visitors: i64,
    pub page_views: i64,
    pub conversions: i64,
}

#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
pub struct PageViews {
    pub url: String,
    pub views: i64,
}

impl Overview {
    /// The overview of a range's and the previous range's totals, whichever store counted them.
    pub(crate) fn of(
        current: Totals,
        previous: Totals,
        active_sessions: i64,
        top_pages: Vec<PageViews>,
        imported: Option<ImportedHistory>,
    ) -> Overview {
        Overview {
            metrics: OverviewMetrics {
                total_visitors: current.visitors,
                active_sessions,
                page_views: current.pageviews,
                conversions: current.conversions,
                bounce_rate: percent(current.bounces, current.visits),
                avg_session_duration: ratio(current.duration_s, current.visits),
            },
            previous: PreviousMetrics {
                total_visitors: previous.visitors,
                page_views: previous.pageviews,
                conversions: previous.conversions,
            },
            top_pages,
            imported,
        }
    }
}

/// Summed totals row of a range.
#[derive(Debug, Default, Clone, Copy, PartialEq)]
pub struct Totals {
    pub pageviews: i64,
    pub visits: i64,
    pub visitors: i64,
    pub events: i64,
    pub conversions: i64,
    pub bounces: i64,
    pub duration_s: i64,
}

/// Both totals added, figure by figure (visitors too: a visitor is one site's on one day).
impl std::ops::Add for Totals {
    type Output = Totals;

    fn add(self, other: Totals) -> Totals {
        Totals {
            pageviews: self.pageviews + other.pageviews,
            visits: self.visits + other.visits,
            visitors: self.visitors + other.visitors,
            events: self.events + other.events,
            conversions: self.conversions + other.conversions,
            bounces: self.bounces + other.bounces,
            duration_s: self.duration_s + other.duration_s,
        }
    }
}

impl Analytics {
    /// Metrics of `range` with the previous period's, active sessions now, and the ten most viewed pages.
    pub fn overview(&self, site: WebsiteId, range: TimeRange) -> Result<Overview> {
        self.db.read(|conn| {
            let current = totals(conn, site, range)?;
            let previous = totals(conn, site, range.previous())?;
            let active_sessions = conn.query_row(
                "SELECT COUNT(*) FROM sessions WHERE website_id = ?1 AND last_seen >= ?2",
                params![site, now_ms() - ACTIVE_WINDOW_MS],
                |r| r.get(0),
            )?;
            let top_pages = top_values(conn, site, range, Dimension::Page, 10)?
                .into_iter()
                .map(|(url, views)| PageViews { url, views })
                .collect();
            let imported = imported_within(conn, site, range.start, range.end)?;
            Ok(Overview::of(current, previous, active_sessions, top_pages, imported))
        })
    }

    /// The totals row of a site over a range.
    pub fn totals(&self, site: WebsiteId, range: TimeRange) -> Result<Totals> {
        self.db.read(|conn| totals(conn, site, range))
    }
}

pub(crate) fn totals(conn: &Connection, site: WebsiteId, range: TimeRange) -> Result<Totals> {
    let (from, to) = range.buckets();
    let sql = format!(
        "SELECT COALESCE(SUM(pageviews), 0), COALESCE(SUM(visits), 0), COALESCE(SUM(visitors), 0),
                COALESCE(SUM(events), 0), COALESCE(SUM(conversions), 0), COALESCE(SUM(bounces), 0),
                COALESCE(SUM(duration_s), 0)
         FROM {} WHERE website_id = ?1 AND dim = '' AND bucket >= ?2 AND bucket < ?3",
        range.grain.table()
    );
    Ok(conn.prepare_cached(&sql)?.query_row(params![site, from, to], |r| {
        Ok(Totals {
            pageviews: r.get(0)?,
            visits: r.get(1)?,
            visitors: r.get(2)?,
            events: r.get(3)?,
            conversions: r.get(4)?,
            bounces: r.get(5)?,
            duration_s: r.get(6)?,
        })
    })?)
}

/// The most frequent values of a dimension, by page views for pages and by visits otherwise.
pub(crate) fn top_values(
    conn: &Connection,
    site: WebsiteId,
    range: TimeRange,
    dim: Dimension,
    limit: i64,
) -> Result<Vec<(String, i64)>> {
    let (from, to) = range.buckets();
    let measure = dim.measure();
    let sql = format!(
        "SELECT value, SUM({measure}) AS n FROM {} WHERE website_id = ?1 AND dim = ?2 AND bucket >= ?3 AND bucket < ?4
         GROUP BY value HAVING n > 0 ORDER BY n DESC, value LIMIT ?5",
        range.grain.table()
    );
    let mut stmt = conn.prepare_cached(&sql)?;
    let rows = stmt.query_map(params![site, dim.as_str(), from, to, limit], |r| Ok((r.get(0)?, r.get(1)?)))?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// `part / whole` in percent with one decimal, 0 when there is no whole.
pub fn percent(part: i64, whole: i64) -> f64 {
    if whole <= 0 { 0.0 } else { (part as f64 * 1000.0 / whole as f64).round() / 10.0 }
}

/// `part / whole` with one decimal, 0 when there is no whole.
fn ratio(part: i64, whole: i64) -> f64 {
    if whole <= 0 { 0.0 } else { (part as f64 * 10.0 / whole as f64).round() / 10.0 }
}
