//! Where email reads its figures: the weekly report's totals and top lists through the dashboard's reads, the
//! spike rule's page-view counts from the raw page views; SQLite's on a single machine, ClickHouse's in
//! cluster mode, so that both send the same emails for the same hits.

use std::sync::Arc;

use rusqlite::params;

use crate::analytics::{Analytics, Dimension, DimensionCount, TimeRange, Totals};
use crate::cluster::events::Events;
use crate::db::Db;
use crate::error::Result;
use crate::model::{Millis, WebsiteId};

/// The engine email reads from.
#[derive(Clone)]
pub(crate) enum Figures {
    Sqlite { db: Db, analytics: Analytics },
    Cluster(Arc<Events>),
}

impl Figures {
    /// The dashboard's totals of a range.
    pub(crate) fn totals(&self, site: WebsiteId, range: TimeRange) -> Result<Totals> {
        match self {
            Figures::Sqlite { analytics, .. } => analytics.totals(site, range),
            Figures::Cluster(events) => events.totals(site, range),
        }
    }

    /// The dashboard's most frequent values of a dimension over a range.
    pub(crate) fn breakdown(
        &self,
        site: WebsiteId,
        range: TimeRange,
        dim: Dimension,
        limit: i64,
    ) -> Result<Vec<DimensionCount>> {
        match self {
            Figures::Sqlite { analytics, .. } => analytics.breakdown(site, range, dim, limit),
            Figures::Cluster(events) => events.breakdown(site, range, dim, limit),
        }
    }

    /// Page views in each of `windows` (start inclusive, end exclusive, not overlapping), or in the first alone
    /// when SQLite finds it below `enough`: there each window is an indexed count, and most sites most of the
    /// time stop after the first. ClickHouse counts them all in one query.
    pub(crate) fn page_views_in(&self, site: WebsiteId, windows: &[(Millis, Millis)], enough: i64) -> Result<Vec<i64>> {
        match self {
            Figures::Sqlite { db, .. } => db.read(|conn| {
                let mut stmt = conn.prepare_cached(
                    "SELECT COUNT(*) FROM events WHERE website_id = ?1 AND ts >= ?2 AND ts < ?3 AND kind = 'pageview'",
                )?;
                let mut counts = Vec::with_capacity(windows.len());
                for (start, end) in windows {
                    let count: i64 = stmt.query_row(params![site, start, end], |r| r.get(0))?;
                    counts.push(count);
                    if counts.len() == 1 && count < enough {
                        break;
                    }
                }
                Ok(counts)
            }),
            Figures::Cluster(events) => events.page_views_in(site, windows),
        }
    }

    /// The `limit` most viewed pages from `start` to `end`, most views first, then by path.
    pub(crate) fn top_pages(
        &self,
        site: WebsiteId,
        start: Millis,
        end: Millis,
        limit: i64,
    ) -> Result<Vec<(String, i64)>> {
        match self {
            Figures::Sqlite { db, .. } => db.read(|conn| {
                let mut stmt = conn.prepare_cached(
                    "SELECT path, COUNT(*) AS n FROM events
                     WHERE website_id = ?1 AND ts >= ?2 AND ts < ?3 AND kind = 'pageview'
                     GROUP BY path ORDER BY n DESC, path LIMIT ?4",
                )?;
                let rows = stmt.query_map(params![site, start, end, limit], |r| Ok((r.get(0)?, r.get(1)?)))?;
                Ok(rows.collect::<rusqlite::Result<_>>()?)
            }),
            Figures::Cluster(events) => events.top_pages(site, start, end, limit),
        }
    }
}
