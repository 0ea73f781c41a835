//! Organizations visiting a site (from the offline ASN data): the ingest writer records each new visit.

use rusqlite::{Connection, params};

use crate::ingest::enrich::Organization;
use crate::model::{Millis, WebsiteId};

/// Counts a new visit from `org` on `site` (creating the organization on first sight) and returns its id.
/// `country` is where the visit came from; the organization's location is the latest known one.
pub(crate) fn record_visit(
    tx: &Connection,
    site: WebsiteId,
    org: &Organization,
    country: &str,
    ts: Millis,
) -> rusqlite::Result<i64> {
    tx.prepare_cached(
        "INSERT INTO organizations (website_id, asn, name, domain, industry, size, location, session_count,
            confidence, first_seen, last_seen)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, 1, ?8, ?9, ?9)
         ON CONFLICT (website_id, asn) DO UPDATE SET
            session_count = session_count + 1,
            name = excluded.name,
            domain = excluded.domain,
            industry = excluded.industry,
            size = excluded.size,
            confidence = excluded.confidence,
            location = CASE WHEN excluded.location <> '' THEN excluded.location ELSE location END,
            last_seen = MAX(last_seen, excluded.last_seen)
         RETURNING id",
    )?
    .query_row(
        params![
            site,
            org.asn,
            org.name,
            org.domain.as_deref().unwrap_or(""),
            org.industry.as_deref().unwrap_or(""),
            org.size.as_deref().unwrap_or(""),
            country,
            org.confidence.min(100),
            ts,
        ],
        |r| r.get(0),
    )
}

/// Moves an organization's last-seen time forward (a later hit of a visit already counted).
pub(crate) fn seen(tx: &Connection, org_id: i64, ts: Millis) -> rusqlite::Result<()> {
    tx.prepare_cached("UPDATE organizations SET last_seen = MAX(last_seen, ?2) WHERE id = ?1")?
        .execute(params![org_id, ts])?;
    Ok(())
}
