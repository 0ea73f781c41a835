//! The consent log: visitors' analytics/marketing choices, written by ingest, read by the privacy panel (the
//! storage is `store::meta::ConsentStore`).

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
        self.meta.consent_page(site, offset.max(0), limit.clamp(1, CONSENT_LOG_LIMIT))
    }
}
