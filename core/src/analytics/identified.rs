//! The Identified Visitors card: companies behind visits, with a lead score.

use serde::Serialize;

use super::Analytics;
use crate::error::Result;
use crate::model::{Millis, WebsiteId, ser_iso};

/// `GET /api/websites/{id}/identified-visitors` item (spec part 1 §3 "Identified visitor").
#[derive(Debug, Clone, Serialize, PartialEq)]
#[serde(rename_all = "camelCase")]
pub struct IdentifiedVisitor {
    pub id: i64,
    pub company_name: String,
    /// 0 to 100.
    pub lead_score: i64,
    pub industry: String,
    pub country: String,
    pub city: String,
    #[serde(serialize_with = "ser_iso")]
    pub identified_at: Millis,
}

impl Analytics {
    /// The identified visitors of a site. Identification data (organizations detected from the visitor's
    /// network, identify() traits) arrives with organization detection; until a site's hits carry it,
    /// the list is empty.
    pub fn identified_visitors(&self, _site: WebsiteId) -> Result<Vec<IdentifiedVisitor>> {
        Ok(Vec::new())
    }
}
