//! Traffic over time: visitors and page views per bucket of a range, for the Traffic Overview chart.

use rusqlite::params;
use serde::Serialize;

use super::{Analytics, Grain, TimeRange};
use crate::error::Result;
use crate::model::{WebsiteId, iso};
use crate::store::annotations::AnnotationMark;

/// `GET /api/dashboard/timeseries`.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
pub struct Timeseries {
    pub points: Vec<TimePoint>,
    /// With `compare=`: the compared period's points, one for each of `points`, in the same order.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub comparison: Option<Vec<TimePoint>>,
    /// The site's annotations on the range's days (issue 37), by day; the chart marks them.
    pub annotations: Vec<AnnotationMark>,
}

/// One bucket: a UTC day (`2026-11-15`) for daily ranges, an ISO hour for the 24-hour range.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TimePoint {
    pub date: String,
    pub visitors: i64,
    pub page_views: i64,
}

impl Analytics {
    /// Every bucket of `range`, oldest first, buckets without traffic as zeros.
    pub fn timeseries(&self, site: WebsiteId, range: TimeRange) -> Result<Timeseries> {
        let (from, to) = range.buckets();
        let rows: Vec<(i64, i64, i64)> = self.db.read(|conn| {
            let sql = format!(
                "SELECT bucket, visitors, pageviews FROM {} WHERE website_id = ?1 AND dim = '' AND value = ''
                 AND bucket >= ?2 AND bucket < ?3 ORDER BY bucket",
                range.grain.table()
            );
            let mut stmt = conn.prepare_cached(&sql)?;
            let rows = stmt.query_map(params![site, from, to], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })?;
        Ok(Timeseries::of(range, rows))
    }
}

impl Timeseries {
    /// Every bucket of `range`, oldest first, from the (bucket in seconds, visitors, page views) of the buckets
    /// with traffic, in bucket order; the others are zeros.
    pub(crate) fn of(range: TimeRange, rows: Vec<(i64, i64, i64)>) -> Timeseries {
        let (from, to) = range.buckets();
        let step = range.grain.seconds();
        let mut rows = rows.into_iter().peekable();
        let mut points = Vec::with_capacity(((to - from) / step) as usize);
        let mut bucket = from;
        while bucket < to {
            let (visitors, page_views) = match rows.peek() {
                Some(&(b, v, p)) if b == bucket => {
                    rows.next();
                    (v, p)
                }
                _ => (0, 0),
            };
            let stamp = iso(bucket * 1000);
            let date = match range.grain {
                Grain::Day => stamp[..10].to_string(),
                // The hour's start without milliseconds: `2026-11-15T13:00:00Z`.
                Grain::Hour => format!("{}Z", &stamp[..19]),
            };
            points.push(TimePoint { date, visitors, page_views });
            bucket += step;
        }
        Timeseries { points, comparison: None, annotations: Vec::new() }
    }
}
