//! Traffic sources: visits by referring host (Direct without one) with their share of all visits.

use serde::Serialize;

use super::overview::{percent, top_values, totals};
use super::{Analytics, TimeRange};
use crate::error::Result;
use crate::model::WebsiteId;

/// `GET /api/websites/{id}/traffic-sources` item.
#[derive(Debug, Clone, Serialize, PartialEq)]
pub struct TrafficSource {
    pub source: String,
    pub visits: i64,
    /// Share of the range's visits in percent, one decimal.
    pub percentage: f64,
}

/// Most sources listed.
const SOURCES_LIMIT: i64 = 50;

impl Analytics {
    /// Visits by source over a range, most first.
    pub fn traffic_sources(&self, site: WebsiteId, range: TimeRange) -> Result<Vec<TrafficSource>> {
        self.db.read(|conn| {
            let total = totals(conn, site, range)?.visits;
            let rows = top_values(conn, site, range, "referrer", SOURCES_LIMIT)?;
            Ok(rows
                .into_iter()
                .map(|(host, visits)| TrafficSource {
                    source: if host.is_empty() { "Direct".to_string() } else { host },
                    visits,
                    percentage: percent(visits, total),
                })
                .collect())
        })
    }
}
