//! The Traffic tab: visits by traffic source, from the rollups' `source` dimension.
//!
//! Each visit is attributed to exactly one source when it starts: its utm_source when the landing URL has
//! one, else the referring host, else Direct. The ingest writer records that choice as dim `source`, so the
//! rows add up to the range's visits and a tagged visit never counts again under its referrer.

use serde::Serialize;

use super::overview::{percent, top_values, totals};
use super::{Analytics, Dimension, TimeRange};
use crate::error::Result;
use crate::model::WebsiteId;

/// Label of visits with neither a utm_source nor an outside referrer.
const DIRECT: &str = "Direct";

/// Most sources one call lists.
pub(crate) const SOURCES_LIMIT: i64 = 100;

/// `GET /api/websites/{id}/traffic-sources` item.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
pub struct TrafficSource {
    pub source: String,
    pub visits: i64,
    /// Share of all visits of the range in percent, one decimal.
    pub percentage: f64,
}

impl Analytics {
    /// Visits by source over a range, most first.
    pub fn traffic_sources(&self, site: WebsiteId, range: TimeRange) -> Result<Vec<TrafficSource>> {
        let (rows, total) = self.db.read(|conn| {
            let rows = top_values(conn, site, range, Dimension::Source, SOURCES_LIMIT)?;
            Ok((rows, totals(conn, site, range)?.visits))
        })?;
        Ok(TrafficSource::of(rows, total))
    }
}

impl TrafficSource {
    /// The sources of a range from its (source, visits) rows, most first, and its visits.
    pub(crate) fn of(rows: Vec<(String, i64)>, total: i64) -> Vec<TrafficSource> {
        rows.into_iter()
            .map(|(source, visits)| TrafficSource {
                source: if source.is_empty() { DIRECT.to_string() } else { source },
                visits,
                percentage: percent(visits, total),
            })
            .collect()
    }
}
