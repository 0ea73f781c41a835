//! Organizations' visits read from ClickHouse: each hit keeps the organization it came from, and a visit counts
//! for the organization of its first hit that had one, as SQLite's writer links a visit once; the list joins
//! these with what PostgreSQL knows of each organization.

use std::collections::HashMap;

use super::events::Events;
use super::visits::{int, text};
use crate::analytics::{MAX_ORGANIZATIONS, OrganizationSummary, OrganizationVisits};
use crate::error::Result;
use crate::model::WebsiteId;
use crate::store::meta::KnownOrganization;

impl Events {
    /// `GET /api/websites/{id}/organizations` in cluster mode: the known organizations that have visits, most
    /// visits first.
    pub fn organizations(&self, site: WebsiteId, known: Vec<KnownOrganization>) -> Result<Vec<OrganizationSummary>> {
        let mut visits = self.organization_visits(site, None)?;
        let mut list: Vec<OrganizationSummary> = known
            .into_iter()
            .filter_map(|org| visits.remove(&org.asn).map(|v| OrganizationSummary::of(org, v)))
            .collect();
        list.sort_by(OrganizationSummary::list_order);
        list.truncate(MAX_ORGANIZATIONS as usize);
        Ok(list)
    }

    /// One known organization of a site with its visits (the answer to an owner's edit).
    pub fn organization(&self, site: WebsiteId, known: KnownOrganization) -> Result<OrganizationSummary> {
        let visits = self.organization_visits(site, Some(known.asn))?.remove(&known.asn);
        // Known from a stored hit, so visited; its rows may have gone since (retention, a visitor's deletion).
        let visits = visits.unwrap_or(OrganizationVisits { session_count: 0, location: String::new(), last_seen: 0 });
        Ok(OrganizationSummary::of(known, visits))
    }

    /// Each organization's visits on a site (or those of one ASN), by ASN. A visit is linked on its first hit
    /// with an organization; every later hit of it moves the organization's last sight, and the location is
    /// the country of the latest linked visit that had one. Only visits with an organization are read (found
    /// on each shard locally: a visit's rows are on its visitor's shard).
    fn organization_visits(&self, site: WebsiteId, asn: Option<i64>) -> Result<HashMap<i64, OrganizationVisits>> {
        let db = self.database();
        let one = match asn {
            Some(asn) => format!("AND asn = {asn}"),
            None => String::new(),
        };
        let rows = self.nodes()[0].query(&format!(
            "SELECT asn, count() AS visits, argMaxIf(link_country, link_ts, link_country != '') AS location,
                    max(last) AS last_seen
             FROM (
                SELECT visit_id, argMinIf(organization_asn, ts, organization_asn != 0) AS asn,
                       minIf(ts, organization_asn != 0) AS link_ts,
                       argMinIf(country, ts, organization_asn != 0) AS link_country, max(ts) AS last
                FROM {db}.hits
                WHERE website_id = {site} AND visit_id IN (
                    SELECT visit_id FROM {db}.hits_local
                    WHERE website_id = {site} AND visit_id != 0 AND organization_asn != 0)
                GROUP BY visit_id
             )
             WHERE 1 {one}
             GROUP BY asn"
        ))?;
        rows.iter()
            .map(|row| {
                let visits = OrganizationVisits {
                    session_count: int(row, 1)?,
                    location: text(row, 2)?,
                    last_seen: int(row, 3)?,
                };
                Ok((int(row, 0)?, visits))
            })
            .collect()
    }
}
