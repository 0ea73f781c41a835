//! The consent log: visitors' analytics/marketing choices, written by the ingest writer, read by the
//! privacy panel; and the question ingest asks before keeping anything about a visit.

use rusqlite::{Connection, OptionalExtension, params};
use serde::Serialize;

use super::Privacy;
use crate::error::Result;
use crate::model::{Millis, WebsiteId, ser_iso};

/// Most consent log entries one call returns.
pub const CONSENT_LOG_LIMIT: i64 = 100;

/// What a visitor agreed to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "lowercase")]
pub enum ConsentType {
    /// Analytics and marketing.
    Accepted,
    /// Neither.
    Declined,
    /// One of the two.
    Partial,
}

impl ConsentType {
    /// The type of a choice.
    pub fn of(data: ConsentData) -> ConsentType {
        match (data.analytics, data.marketing) {
            (true, true) => ConsentType::Accepted,
            (false, false) => ConsentType::Declined,
            _ => ConsentType::Partial,
        }
    }

    /// The stored name.
    pub fn as_str(self) -> &'static str {
        match self {
            ConsentType::Accepted => "accepted",
            ConsentType::Declined => "declined",
            ConsentType::Partial => "partial",
        }
    }
}

/// The choice itself (spec part 2 §3 consentData).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, utoipa::ToSchema)]
pub struct ConsentData {
    pub analytics: bool,
    pub marketing: bool,
}

/// `GET /api/privacy/consent-logs` item.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ConsentLog {
    pub id: i64,
    pub consent_type: ConsentType,
    #[serde(serialize_with = "ser_iso")]
    #[schema(value_type = String, format = DateTime)]
    pub timestamp: Millis,
    pub ip_address: Option<String>,
    pub session_id: String,
    pub consent_data: ConsentData,
}

/// A consent choice on its way to the writer. The address is anonymised already.
#[derive(Debug, Clone)]
pub struct ConsentRecord {
    pub website_id: WebsiteId,
    pub session_key: String,
    pub ts: Millis,
    pub ip_address: Option<String>,
    pub data: ConsentData,
}

impl Privacy {
    /// The latest consent choices of a site, newest first, at most 100 (callers check ownership first).
    pub fn consent_logs(&self, site: WebsiteId) -> Result<Vec<ConsentLog>> {
        self.consent_logs_page(site, 0, CONSENT_LOG_LIMIT)
    }

    /// Consent choices of a site, newest first, skipping `offset`, at most `limit` (clamped to 1..=100): the
    /// panel shows 10 a page.
    pub fn consent_logs_page(&self, site: WebsiteId, offset: i64, limit: i64) -> Result<Vec<ConsentLog>> {
        let limit = limit.clamp(1, CONSENT_LOG_LIMIT);
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT id, ts, ip_address, session_key, analytics, marketing FROM consent_logs
                 WHERE website_id = ?1 ORDER BY ts DESC, id DESC LIMIT ?2 OFFSET ?3",
            )?;
            let rows = stmt.query_map(params![site, limit, offset.max(0)], |r| {
                let data = ConsentData { analytics: r.get(4)?, marketing: r.get(5)? };
                Ok(ConsentLog {
                    id: r.get(0)?,
                    consent_type: ConsentType::of(data),
                    timestamp: r.get(1)?,
                    ip_address: r.get(2)?,
                    session_id: r.get(3)?,
                    consent_data: data,
                })
            })?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }
}

/// Stores a consent choice (ingest writer).
pub(crate) fn insert_consent(tx: &Connection, record: &ConsentRecord) -> rusqlite::Result<()> {
    tx.prepare_cached(
        "INSERT INTO consent_logs (website_id, session_key, ts, consent_type, ip_address, analytics, marketing)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)",
    )?
    .execute(params![
        record.website_id,
        record.session_key,
        record.ts,
        ConsentType::of(record.data).as_str(),
        record.ip_address,
        record.data.analytics,
        record.data.marketing,
    ])?;
    Ok(())
}

/// The visit's latest analytics choice, `None` when it never chose (the writer decides what that allows).
pub(crate) fn latest_analytics_choice(
    tx: &Connection,
    site: WebsiteId,
    session_key: &str,
) -> rusqlite::Result<Option<bool>> {
    tx.prepare_cached(
        "SELECT analytics FROM consent_logs WHERE website_id = ?1 AND session_key = ?2
         ORDER BY id DESC LIMIT 1",
    )?
    .query_row(params![site, session_key], |r| r.get(0))
    .optional()
}
