//! Identified visitors: sessions whose visitor told us their company through `tracker.identify(traits)`,
//! with a lead score from how engaged the visit was.

use rusqlite::params;
use serde::Serialize;

use super::Analytics;
use crate::error::Result;
use crate::model::{Millis, WebsiteId, ser_iso};

/// Most identified visitors listed.
const IDENTIFIED_LIMIT: i64 = 100;

/// `GET /api/websites/{id}/identified-visitors` item.
#[derive(Debug, Clone, Serialize, PartialEq)]
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
    pub identified_at: Millis,
}

impl Analytics {
    /// Identified sessions with a company, highest lead score first.
    pub fn identified_visitors(&self, site: WebsiteId) -> Result<Vec<IdentifiedVisitor>> {
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT s.id,
                        COALESCE(json_extract(e.properties, '$.company'), json_extract(e.properties, '$.companyName'), ''),
                        MIN(s.page_views * 10, 50) + MIN(s.events * 5, 20) + s.is_converted * 30,
                        COALESCE(json_extract(e.properties, '$.industry'), ''),
                        s.country, s.city, MAX(e.ts)
                 FROM events e JOIN sessions s ON s.id = e.session_id
                 WHERE e.website_id = ?1 AND e.kind = 'identify' AND json_valid(e.properties)
                 GROUP BY s.id
                 HAVING COALESCE(json_extract(e.properties, '$.company'), json_extract(e.properties, '$.companyName'), '') <> ''
                 ORDER BY 3 DESC, 7 DESC LIMIT ?2",
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
            Ok(rows.collect::<rusqlite::Result<_>>()?)
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
