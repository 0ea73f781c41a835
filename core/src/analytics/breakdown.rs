//! Breakdowns of visits by one dimension: referrers and countries.

use serde::Serialize;

use super::overview::top_values;
use super::{Analytics, Dimension, TimeRange};
use crate::error::Result;
use crate::model::WebsiteId;

/// `GET /api/websites/{id}/referrers` item; an empty referrer means Direct.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
pub struct ReferrerCount {
    pub referrer: String,
    pub count: i64,
}

/// `GET /api/websites/{id}/countries` item (ISO 3166 alpha-2, empty when unknown).
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
pub struct CountryCount {
    pub country: String,
    pub count: i64,
}

/// Most rows a breakdown returns.
pub(crate) const BREAKDOWN_LIMIT: i64 = 100;

impl Analytics {
    /// Visits by referring host over a range, most first.
    pub fn referrers(&self, site: WebsiteId, range: TimeRange) -> Result<Vec<ReferrerCount>> {
        let rows = self.db.read(|conn| top_values(conn, site, range, Dimension::Referrer, BREAKDOWN_LIMIT))?;
        Ok(rows.into_iter().map(|(referrer, count)| ReferrerCount { referrer, count }).collect())
    }

    /// Visits by country over a range, most first.
    pub fn countries(&self, site: WebsiteId, range: TimeRange) -> Result<Vec<CountryCount>> {
        let rows = self.db.read(|conn| top_values(conn, site, range, Dimension::Country, BREAKDOWN_LIMIT))?;
        Ok(rows.into_iter().map(|(country, count)| CountryCount { country, count }).collect())
    }
}
