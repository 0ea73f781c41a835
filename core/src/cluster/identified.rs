//! Identified visitors read from ClickHouse: a visit's latest identify() traits are its latest identify row's
//! properties, and its organization the one of its first hit that had one (as SQLite's writer links it), named
//! and given an industry by what PostgreSQL knows of it.

use std::collections::HashMap;

use serde_json::Value;

use super::events::Events;
use super::visits::{int, text};
use crate::analytics::{IDENTIFIED_LIMIT, IdentifiedVisitor};
use crate::error::Result;
use crate::model::WebsiteId;
use crate::store::meta::KnownOrganization;

impl Events {
    /// `GET /api/websites/{id}/identified-visitors` in cluster mode, as SQLite's
    /// `Analytics::identified_visitors` lists them: the visits with traits or an organization, highest lead
    /// score (SQLite's generated column, from the visit's counts) first, then the latest seen; the first
    /// [`IDENTIFIED_LIMIT`] of them, less those that name no company.
    pub fn identified_visitors(
        &self,
        site: WebsiteId,
        known: Vec<KnownOrganization>,
    ) -> Result<Vec<IdentifiedVisitor>> {
        let db = self.database();
        // `events` counts what SQLite's writer counts as a visit's events: every kind but page views, touches
        // and consent (which is not stored here). A visit's rows are on one shard: picked there (hits_local). The
        // visits without traits (none, or a latest identify without properties, which SQLite stores as NULL)
        // and without an organization are left out before the limit, as SQLite's WHERE does.
        let rows = self.nodes()[0].query(&format!(
            "SELECT visit_id, identified, traits, asn,
                    least(page_views * 10, 50) + least(events * 5, 20) + if(conversions > 0, 30, 0) AS lead_score,
                    country, city, first, last
             FROM (
                SELECT visit_id, countIf(kind = 'identify') > 0 AS identified,
                       argMaxIf(properties, ts, kind = 'identify') AS traits,
                       argMinIf(organization_asn, ts, organization_asn != 0) AS asn,
                       countIf(kind = 'pageview') AS page_views, countIf(kind NOT IN ('pageview', 'touch')) AS events,
                       countIf(kind = 'conversion') AS conversions,
                       argMin(country, ts) AS country, argMin(city, ts) AS city, min(ts) AS first, max(ts) AS last
                FROM {db}.hits
                WHERE website_id = {site} AND visit_id IN (
                    SELECT visit_id FROM {db}.hits_local
                    WHERE website_id = {site} AND visit_id != 0 AND (kind = 'identify' OR organization_asn != 0))
                GROUP BY visit_id
             )
             WHERE asn != 0 OR traits != ''
             ORDER BY lead_score DESC, last DESC, visit_id DESC
             LIMIT {IDENTIFIED_LIMIT}"
        ))?;
        let known: HashMap<i64, KnownOrganization> = known.into_iter().map(|org| (org.asn, org)).collect();
        let mut visitors = Vec::with_capacity(rows.len());
        for row in rows {
            let traits = match (text(&row, 1)?.as_str(), text(&row, 2)?) {
                ("1", traits) if !traits.is_empty() => match serde_json::from_str::<Value>(&traits) {
                    Ok(traits) => Some(traits),
                    // SQLite leaves out a visit whose traits are not JSON (the ingest only writes JSON).
                    Err(_) => continue,
                },
                _ => None,
            };
            let organization = known.get(&int(&row, 3)?);
            let trait_of = |name: &str| traits.as_ref().and_then(|t| t.get(name)).and_then(trait_text);
            let company = trait_of("company")
                .or_else(|| trait_of("companyName"))
                .or_else(|| organization.map(|o| o.name.clone()))
                .unwrap_or_default();
            // Traits without a company name identify nobody.
            if company.is_empty() {
                continue;
            }
            visitors.push(IdentifiedVisitor {
                id: int(&row, 0)?,
                company_name: company,
                lead_score: int(&row, 4)?.clamp(0, 100),
                industry: trait_of("industry").or_else(|| organization.map(|o| o.industry.clone())).unwrap_or_default(),
                country: text(&row, 5)?,
                city: text(&row, 6)?,
                identified_at: int(&row, 7)?,
            });
        }
        Ok(visitors)
    }
}

/// A trait as SQLite's `NULLIF(json_extract(traits, '$.name'), '')` gives it as text: strings as they are,
/// numbers as SQLite prints them, booleans as 1 or 0; null and the empty string as absent.
fn trait_text(value: &Value) -> Option<String> {
    match value {
        Value::String(s) if s.is_empty() => None,
        Value::String(s) => Some(s.clone()),
        Value::Number(n) => Some(match n.as_i64() {
            Some(i) => i.to_string(),
            None => n.as_f64().unwrap_or_default().to_string(),
        }),
        Value::Bool(b) => Some(if *b { "1" } else { "0" }.to_string()),
        Value::Null => None,
        other => Some(other.to_string()),
    }
}
