//! The Traffic Overview chart: visitors and page views per bucket of a range, zero-filled, from rollups.

use rusqlite::params;
use serde::Serialize;

use super::{Analytics, Grain, TimeRange};
use crate::error::Result;
use crate::model::WebsiteId;

/// `GET /api/dashboard/timeseries`.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct Timeseries {
    pub points: Vec<TimeseriesPoint>,
}

/// One bucket: `date` is `2026-11-15` for daily ranges and `2026-11-15T13:00:00Z` for hourly ones.
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct TimeseriesPoint {
    pub date: String,
    /// Daily buckets: unique visitors of the day. Hourly buckets: visitors first seen that day in that
    /// hour, so the hours of a day add up to its unique visitors.
    pub visitors: i64,
    pub page_views: i64,
}

impl Analytics {
    /// One point per bucket of `range`, oldest first, with zeros where nothing happened.
    pub fn timeseries(&self, site: WebsiteId, range: TimeRange) -> Result<Timeseries> {
        let (from, to) = range.buckets();
        let step = range.grain.seconds();
        let sql = format!(
            "SELECT bucket, visitors, pageviews FROM {} WHERE website_id = ?1 AND dim = '' AND value = ''
             AND bucket >= ?2 AND bucket < ?3 ORDER BY bucket",
            range.grain.table()
        );
        let rows: Vec<(i64, i64, i64)> = self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(&sql)?;
            let rows = stmt.query_map(params![site, from, to], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })?;
        let mut rows = rows.into_iter().peekable();
        let mut points = Vec::with_capacity(((to - from) / step).max(0) as usize);
        let mut bucket = from;
        while bucket < to {
            let (mut visitors, mut page_views) = (0, 0);
            while let Some(&(at, v, p)) = rows.peek() {
                if at >= bucket + step {
                    break;
                }
                visitors += v;
                page_views += p;
                rows.next();
            }
            points.push(TimeseriesPoint { date: label(bucket, range.grain), visitors, page_views });
            bucket += step;
        }
        Ok(Timeseries { points })
    }
}

/// The bucket's start as the API shows it.
fn label(bucket: i64, grain: Grain) -> String {
    let at = chrono::DateTime::from_timestamp(bucket, 0).unwrap_or_default();
    match grain {
        Grain::Hour => at.format("%Y-%m-%dT%H:00:00Z").to_string(),
        Grain::Day => at.format("%Y-%m-%d").to_string(),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn labels_follow_the_grain() {
        assert_eq!(label(1_763_215_200, Grain::Hour), "2025-11-15T14:00:00Z");
        assert_eq!(label(1_763_164_800, Grain::Day), "2025-11-15");
    }
}
