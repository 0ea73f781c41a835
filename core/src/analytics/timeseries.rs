//! Traffic over time: visitors and page views per bucket of a range, for the Traffic Overview chart.

use rusqlite::params;
use serde::Serialize;

use super::{Analytics, Grain, TimeRange, local_time};
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

/// One bucket: a local day of the site (`2026-11-15`) for daily ranges, an ISO hour for hourly ones (`Z` in UTC,
/// else with the site's offset, `2026-11-15T13:00:00+05:30`).
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
        let tz = range.tz;
        let mut rows = rows.into_iter().peekable();
        let mut points = Vec::with_capacity(((to - from) / range.grain.seconds()).max(0) as usize + 1);
        let mut bucket = from;
        while bucket < to {
            // Local days are 23 to 25 hours long where the zone changes its offset.
            let next = match range.grain {
                Grain::Hour => bucket + 3_600,
                Grain::Day => {
                    let date = local_time::date_of(tz, bucket * 1000) + chrono::Days::new(1);
                    local_time::midnight(tz, date) / 1000
                }
            };
            let (mut visitors, mut page_views) = (0, 0);
            while let Some(&(b, v, p)) = rows.peek() {
                if b >= next {
                    break;
                }
                rows.next();
                if b >= bucket {
                    (visitors, page_views) = (visitors + v, page_views + p);
                }
            }
            let date = match range.grain {
                Grain::Day => local_time::date_of(tz, bucket * 1000).to_string(),
                // The hour's start without milliseconds: `2026-11-15T13:00:00Z`.
                Grain::Hour if tz == chrono_tz::Tz::UTC => format!("{}Z", &iso(bucket * 1000)[..19]),
                Grain::Hour => local_time::local_iso(tz, bucket * 1000),
            };
            points.push(TimePoint { date, visitors, page_views });
            bucket = next;
        }
        Timeseries { points, comparison: None, annotations: Vec::new() }
    }
}
