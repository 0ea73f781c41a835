//! Identified visitors: visits whose company is known, from `tracker.identify(traits)` (company or
//! companyName, industry) or from organization detection, with a lead score from how engaged the visit was.

use rusqlite::params;
use serde::Serialize;

use super::Analytics;
use crate::error::Result;
use crate::model::{Millis, WebsiteId, ser_iso};

/// Most identified visitors listed.
pub const IDENTIFIED_LIMIT: i64 = 100;

/// `GET /api/websites/{id}/identified-visitors` item.
#[derive(Debug, Clone, Serialize, PartialEq, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IdentifiedVisitor {
    pub id: i64,
    pub company_name: String,
    /// 0 to 100: page views (10 each, at most 50), other events (5 each, at most 20), a conversion (30).
    pub lead_score: i64,
    pub industry: String,
    pub country: String,
    pub city: String,
    #[serde(serialize_with = "ser_iso")]
    #[schema(value_type = String, format = DateTime)]
    pub identified_at: Millis,
}

impl Analytics {
    /// Identified visits of a site, highest lead score first (identify() traits win over the detected
    /// organization, since the visitor said so themselves).
    pub fn identified_visitors(&self, site: WebsiteId) -> Result<Vec<IdentifiedVisitor>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT s.id,
                        COALESCE(NULLIF(json_extract(s.traits, '$.company'), ''),
                                 NULLIF(json_extract(s.traits, '$.companyName'), ''), o.name, '') AS company,
                        s.lead_score,
                        COALESCE(NULLIF(json_extract(s.traits, '$.industry'), ''), o.industry, ''),
                        s.country, s.city, s.first_seen
                 FROM sessions s LEFT JOIN organizations o ON o.id = s.organization_id
                 WHERE s.website_id = ?1 AND (s.organization_id IS NOT NULL OR s.traits IS NOT NULL)
                   AND (s.traits IS NULL OR json_valid(s.traits))
                 ORDER BY s.lead_score DESC, s.last_seen DESC LIMIT ?2",
            )?;
            let rows = stmt.query_map(params![site, IDENTIFIED_LIMIT], |r| {
                Ok(IdentifiedVisitor {
                    id: r.get(0)?,
                    company_name: r.get::<_, rusqlite::types::Value>(1).map(text)?,
                    lead_score: r.get::<_, i64>(2)?.clamp(0, 100),
                    industry: r.get::<_, rusqlite::types::Value>(3).map(text)?,
                    country: r.get(4)?,
                    city: r.get(5)?,
                    identified_at: r.get(6)?,
                })
            })?;
            let visitors: Vec<IdentifiedVisitor> = rows.collect::<rusqlite::Result<_>>()?;
            // Traits without a company name identify nobody.
            Ok(visitors.into_iter().filter(|v| !v.company_name.is_empty()).collect())
        })
    }
}

/// A JSON trait as display text, whatever scalar type the site sent.
fn text(v: rusqlite::types::Value) -> String {
    use rusqlite::types::Value;
    match v {
        Value::Text(s) => s,
        Value::Integer(i) => i.to_string(),
        Value::Real(f) => f.to_string(),
        Value::Null | Value::Blob(_) => String::new(),
    }
}
