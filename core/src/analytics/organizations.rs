//! Organizations that visited a site, identified from the offline ASN data at ingest, with what the owner
//! supplied about them.

use serde::Serialize;

use super::Analytics;
use crate::error::{Error, Result};
use crate::model::{Millis, WebsiteId, ser_iso};
use crate::store::meta::KnownOrganization;

/// Most organizations one call returns.
pub(crate) const MAX_ORGANIZATIONS: i64 = 1_000;

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

impl Analytics {
    /// One organization of a site (the answer to an owner's edit).
    pub fn organization(&self, site: WebsiteId, id: i64) -> Result<OrganizationSummary> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id, name, domain, industry, size, location, session_count, confidence, last_seen
                 FROM organizations WHERE website_id = ?1 AND id = ?2",
            )?;
            match stmt.query_row(rusqlite::params![site, id], OrganizationSummary::from_row) {
                Ok(org) => Ok(org),
                Err(rusqlite::Error::QueryReturnedNoRows) => Err(Error::NotFound("organization")),
                Err(e) => Err(e.into()),
            }
        })
    }
}

/// An organization's visits: the events side of its summary (in cluster mode, counted in ClickHouse).
#[derive(Debug, Clone, PartialEq)]
pub struct OrganizationVisits {
    pub session_count: i64,
    /// Country of the latest visit that had one.
    pub location: String,
    pub last_seen: Millis,
}

impl OrganizationSummary {
    /// The summary of an organization known to the metadata store, with its visits.
    pub fn of(known: KnownOrganization, visits: OrganizationVisits) -> OrganizationSummary {
        let some = |s: String| (!s.is_empty()).then_some(s);
        OrganizationSummary {
            id: known.id,
            organization_name: known.name,
            domain: some(known.domain),
            industry: some(known.industry),
            size: some(known.size),
            location: visits.location,
            session_count: visits.session_count,
            confidence: known.confidence,
            last_seen: visits.last_seen,
        }
    }

    /// Most visits first, then the latest seen (SQLite's list order), then the first known.
    pub fn list_order(a: &OrganizationSummary, b: &OrganizationSummary) -> std::cmp::Ordering {
        (b.session_count, b.last_seen, a.id).cmp(&(a.session_count, a.last_seen, b.id))
    }

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
