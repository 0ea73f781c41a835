//! Organizations that visited a site, identified from the offline ASN data at ingest, with what the owner
//! supplied about them.

use serde::Serialize;

use super::Analytics;
use crate::error::Result;
use crate::model::{Millis, WebsiteId, ser_iso};

/// Most organizations one call returns.
const MAX_ORGANIZATIONS: i64 = 1_000;

/// `GET /api/websites/{id}/organizations` item (spec part 2 §3).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrganizationSummary {
    pub id: i64,
    pub organization_name: String,
    /// Owner-supplied (a bare host name), else null.
    pub domain: Option<String>,
    /// Owner-supplied, else null.
    pub industry: Option<String>,
    /// Owner-supplied: enterprise, large, medium or small; else null (shown as 'other').
    pub size: Option<String>,
    /// Country (ISO 3166 alpha-2) of the latest visit.
    pub location: String,
    pub session_count: i64,
    /// Percent.
    pub confidence: i64,
    #[serde(serialize_with = "ser_iso")]
    #[schema(value_type = String, format = DateTime)]
    pub last_seen: Millis,
}

impl Analytics {
    /// A site's organizations, most visits first.
    pub fn organizations(&self, site: WebsiteId) -> Result<Vec<OrganizationSummary>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id, name, domain, industry, size, location, session_count, confidence, last_seen
                 FROM organizations WHERE website_id = ?1
                 ORDER BY session_count DESC, last_seen DESC LIMIT ?2",
            )?;
            let rows = stmt.query_map(rusqlite::params![site, MAX_ORGANIZATIONS], OrganizationSummary::from_row)?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }
}

impl OrganizationSummary {
    /// From `id, name, domain, industry, size, location, session_count, confidence, last_seen`.
    pub(crate) fn from_row(r: &rusqlite::Row) -> rusqlite::Result<OrganizationSummary> {
        let some = |s: String| (!s.is_empty()).then_some(s);
        Ok(OrganizationSummary {
            id: r.get(0)?,
            organization_name: r.get(1)?,
            domain: some(r.get(2)?),
            industry: some(r.get(3)?),
            size: some(r.get(4)?),
            location: r.get(5)?,
            session_count: r.get(6)?,
            confidence: r.get(7)?,
            last_seen: r.get(8)?,
        })
    }
}
