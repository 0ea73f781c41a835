//! Organizations behind the metadata boundary: who visited a site (ASN and name from the offline data, with its
//! confidence) and what its owner said of them (domain, industry, size). `Organizations` validates and calls
//! these; callers check the site's owner first. Their visits are events: SQLite's writer counts them on this
//! row, ClickHouse keeps each hit's organization.

use rusqlite::{OptionalExtension, params};

use super::{PgMeta, SqliteMeta};
use crate::error::Result;
use crate::model::{Millis, WebsiteId};
use crate::store::organizations::ImportReport;

/// An organization of a site as metadata ('' where the owner said nothing).
#[derive(Debug, Clone, PartialEq)]
pub struct KnownOrganization {
    pub id: i64,
    pub asn: i64,
    pub name: String,
    /// Percent, from the offline data's name.
    pub confidence: i64,
    pub domain: String,
    pub industry: String,
    pub size: String,
}

/// An organization a stored hit came from (cluster ingest records them; SQLite's writer counts them with their
/// visits in its own transaction).
#[derive(Debug, Clone, PartialEq)]
pub struct SeenOrganization {
    pub website_id: WebsiteId,
    pub asn: i64,
    pub name: String,
    pub confidence: i64,
    pub at: Millis,
}

/// An owner's checked changes: each field present replaces the stored one ("" clears), absent ones stay.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OwnerChanges {
    pub domain: Option<String>,
    pub industry: Option<String>,
    pub size: Option<String>,
}

/// A checked row of an import file: matched by ASN when it has one, else by name (case-insensitive).
#[derive(Debug, Clone)]
pub struct ImportRow {
    pub asn: Option<i64>,
    pub name: Option<String>,
    pub changes: OwnerChanges,
    /// The row's organization as written in the file (`AS15169` or the name), for the unmatched list.
    pub label: String,
}

/// Organizations: each method is one statement or one transaction.
pub trait OrganizationStore {
    /// A site's organizations.
    fn known_organizations(&self, site: WebsiteId) -> Result<Vec<KnownOrganization>>;
    /// One organization of a site.
    fn known_organization(&self, site: WebsiteId, id: i64) -> Result<Option<KnownOrganization>>;
    /// Records the organizations hits came from: new ones are created, known ones take the latest name and
    /// confidence; those of sites that no longer exist are left out.
    fn record_organizations(&self, seen: &[SeenOrganization]) -> Result<()>;
    /// Applies an owner's changes to one organization of a site; false if the site has none of that id.
    fn update_organization(&self, site: WebsiteId, id: i64, changes: &OwnerChanges) -> Result<bool>;
    /// Applies every row of an import in one transaction.
    fn import_organizations(&self, site: WebsiteId, rows: &[ImportRow]) -> Result<ImportReport>;
}

const COLUMNS: &str = "id, asn, name, confidence, domain, industry, size";

fn sqlite_row(r: &rusqlite::Row) -> rusqlite::Result<KnownOrganization> {
    Ok(KnownOrganization {
        id: r.get(0)?,
        asn: r.get(1)?,
        name: r.get(2)?,
        confidence: r.get(3)?,
        domain: r.get(4)?,
        industry: r.get(5)?,
        size: r.get(6)?,
    })
}

fn pg_row(r: &postgres::Row) -> KnownOrganization {
    KnownOrganization {
        id: r.get(0),
        asn: r.get(1),
        name: r.get(2),
        confidence: r.get(3),
        domain: r.get(4),
        industry: r.get(5),
        size: r.get(6),
    }
}

impl OrganizationStore for SqliteMeta {
    fn known_organizations(&self, site: WebsiteId) -> Result<Vec<KnownOrganization>> {
        self.db.read(|conn| {
            let mut stmt =
                conn.prepare_cached(&format!("SELECT {COLUMNS} FROM organizations WHERE website_id = ?1 ORDER BY id"))?;
            let rows = stmt.query_map([site], sqlite_row)?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

    fn known_organization(&self, site: WebsiteId, id: i64) -> Result<Option<KnownOrganization>> {
        self.db.read(|conn| {
            Ok(conn
                .prepare_cached(&format!("SELECT {COLUMNS} FROM organizations WHERE website_id = ?1 AND id = ?2"))?
                .query_row(params![site, id], sqlite_row)
                .optional()?)
        })
    }

    fn record_organizations(&self, seen: &[SeenOrganization]) -> Result<()> {
        self.db.write(|conn| {
            let tx = conn.transaction()?;
            for org in seen {
                tx.prepare_cached(
                    "INSERT INTO organizations (website_id, asn, name, confidence, first_seen, last_seen)
                     SELECT ?1, ?2, ?3, ?4, ?5, ?5 WHERE EXISTS (SELECT 1 FROM websites WHERE id = ?1)
                     ON CONFLICT (website_id, asn) DO UPDATE SET name = excluded.name,
                        confidence = excluded.confidence",
                )?
                .execute(params![org.website_id, org.asn, org.name, org.confidence, org.at])?;
            }
            tx.commit()?;
            Ok(())
        })
    }

    fn update_organization(&self, site: WebsiteId, id: i64, c: &OwnerChanges) -> Result<bool> {
        self.db.write(|conn| {
            let n = conn.execute(
                "UPDATE organizations SET domain = COALESCE(?3, domain), industry = COALESCE(?4, industry),
                    size = COALESCE(?5, size) WHERE website_id = ?1 AND id = ?2",
                params![site, id, c.domain, c.industry, c.size],
            )?;
            Ok(n > 0)
        })
    }

    fn import_organizations(&self, site: WebsiteId, rows: &[ImportRow]) -> Result<ImportReport> {
        self.db.write(|conn| {
            let tx = conn.transaction()?;
            let mut report = ImportReport { rows: rows.len(), ..ImportReport::default() };
            for row in rows {
                let id: Option<i64> = match row.asn {
                    Some(asn) => tx
                        .query_row(
                            "SELECT id FROM organizations WHERE website_id = ?1 AND asn = ?2",
                            params![site, asn],
                            |r| r.get(0),
                        )
                        .optional()?,
                    // Among organizations of one name (several networks of a company), the most visited.
                    None => tx
                        .query_row(
                            "SELECT id FROM organizations WHERE website_id = ?1 AND name = ?2 COLLATE NOCASE
                             ORDER BY session_count DESC LIMIT 1",
                            params![site, row.name],
                            |r| r.get(0),
                        )
                        .optional()?,
                };
                let Some(id) = id else {
                    report.unmatched.push(row.label.clone());
                    continue;
                };
                let c = &row.changes;
                tx.execute(
                    "UPDATE organizations SET domain = COALESCE(?2, domain), industry = COALESCE(?3, industry),
                        size = COALESCE(?4, size) WHERE id = ?1",
                    params![id, c.domain, c.industry, c.size],
                )?;
                report.updated += 1;
            }
            tx.commit()?;
            Ok(report)
        })
    }
}

impl OrganizationStore for PgMeta {
    fn known_organizations(&self, site: WebsiteId) -> Result<Vec<KnownOrganization>> {
        self.pg.with(|c| {
            let rows =
                c.query(&format!("SELECT {COLUMNS} FROM organizations WHERE website_id = $1 ORDER BY id"), &[&site])?;
            Ok(rows.iter().map(pg_row).collect())
        })
    }

    fn known_organization(&self, site: WebsiteId, id: i64) -> Result<Option<KnownOrganization>> {
        self.pg.with(|c| {
            let row = c.query_opt(
                &format!("SELECT {COLUMNS} FROM organizations WHERE website_id = $1 AND id = $2"),
                &[&site, &id],
            )?;
            Ok(row.as_ref().map(pg_row))
        })
    }

    fn record_organizations(&self, seen: &[SeenOrganization]) -> Result<()> {
        // One row per (site, ASN), the latest: an upsert may not touch one row twice.
        let mut latest: std::collections::BTreeMap<(WebsiteId, i64), &SeenOrganization> = Default::default();
        for org in seen {
            latest.insert((org.website_id, org.asn), org);
        }
        if latest.is_empty() {
            return Ok(());
        }
        let sites: Vec<i64> = latest.values().map(|o| o.website_id).collect();
        let asns: Vec<i64> = latest.values().map(|o| o.asn).collect();
        let names: Vec<&str> = latest.values().map(|o| o.name.as_str()).collect();
        let confidences: Vec<i64> = latest.values().map(|o| o.confidence).collect();
        let times: Vec<i64> = latest.values().map(|o| o.at).collect();
        self.pg.with(|c| {
            c.execute(
                "INSERT INTO organizations (website_id, asn, name, confidence, first_seen)
                 SELECT s.site, s.asn, s.name, s.confidence, s.at
                 FROM unnest($1::BIGINT[], $2::BIGINT[], $3::TEXT[], $4::BIGINT[], $5::BIGINT[])
                    AS s(site, asn, name, confidence, at)
                 JOIN websites w ON w.id = s.site
                 ON CONFLICT (website_id, asn) DO UPDATE SET name = excluded.name, confidence = excluded.confidence
                 WHERE (organizations.name, organizations.confidence)
                    IS DISTINCT FROM (excluded.name, excluded.confidence)",
                &[&sites, &asns, &names, &confidences, &times],
            )?;
            Ok(())
        })
    }

    fn update_organization(&self, site: WebsiteId, id: i64, c: &OwnerChanges) -> Result<bool> {
        self.pg.with(|client| {
            let n = client.execute(
                "UPDATE organizations SET domain = COALESCE($3, domain), industry = COALESCE($4, industry),
                    size = COALESCE($5, size) WHERE website_id = $1 AND id = $2",
                &[&site, &id, &c.domain, &c.industry, &c.size],
            )?;
            Ok(n > 0)
        })
    }

    fn import_organizations(&self, site: WebsiteId, rows: &[ImportRow]) -> Result<ImportReport> {
        self.pg.with(|client| {
            let mut tx = client.transaction()?;
            let mut report = ImportReport { rows: rows.len(), ..ImportReport::default() };
            for row in rows {
                let id: Option<i64> = match row.asn {
                    Some(asn) => tx
                        .query_opt("SELECT id FROM organizations WHERE website_id = $1 AND asn = $2", &[&site, &asn])?
                        .map(|r| r.get(0)),
                    // Visit counts are ClickHouse's: among organizations of one name, the first seen. SQLite's
                    // NOCASE folds ASCII letters only, as this does.
                    None => tx
                        .query_opt(
                            "SELECT id FROM organizations
                             WHERE website_id = $1 AND lower(name COLLATE \"C\") = lower($2 COLLATE \"C\")
                             ORDER BY id LIMIT 1",
                            &[&site, &row.name],
                        )?
                        .map(|r| r.get(0)),
                };
                let Some(id) = id else {
                    report.unmatched.push(row.label.clone());
                    continue;
                };
                let c = &row.changes;
                tx.execute(
                    "UPDATE organizations SET domain = COALESCE($2, domain), industry = COALESCE($3, industry),
                        size = COALESCE($4, size) WHERE id = $1",
                    &[&id, &c.domain, &c.industry, &c.size],
                )?;
                report.updated += 1;
            }
            tx.commit()?;
            Ok(report)
        })
    }
}

#[cfg(test)]
mod tests {
    use super::super::testing::engines;
    use super::*;
    use crate::auth::Auth;
    use crate::config::Config;
    use crate::settings::Settings;
    use crate::store::organizations::{OrganizationUpdate, Organizations};
    use crate::store::websites::{NewWebsite, Websites};

    fn seen(site: WebsiteId, asn: i64, name: &str, at: Millis) -> SeenOrganization {
        SeenOrganization { website_id: site, asn, name: name.into(), confidence: 90, at }
    }

    #[test]
    fn organizations_are_recorded_once_edited_by_their_site_and_imported_by_asn_or_name_on_each_engine() {
        for engine in engines() {
            let (meta, name) = (&engine.meta, engine.name);
            let auth = Auth::new(
                meta.clone(),
                b"a test signing secret of 32 bytes or more",
                Settings::new(Config::default()),
                None,
            );
            let owner = auth.create_user("orgs@example.com", "secret1").unwrap();
            let websites = Websites::new(meta.clone());
            let new = |n: &str| NewWebsite { name: n.into(), domain: format!("{n}.example.com"), tracking_level: None };
            let (site, other) =
                (websites.create(owner.id, new("a")).unwrap().id, websites.create(owner.id, new("b")).unwrap().id);
            meta.record_organizations(&[
                seen(site, 15169, "Google LLC", 1),
                seen(site, 64512, "Acme", 2),
                seen(site, 64512, "Acme GmbH", 3),
                seen(other, 15169, "Google LLC", 4),
                seen(other + 1000, 15169, "Google LLC", 5),
            ])
            .unwrap();
            meta.record_organizations(&[seen(site, 15169, "Google LLC", 6)]).unwrap();
            let by_asn = |site| {
                let mut known = meta.known_organizations(site).unwrap();
                known.sort_by_key(|o| o.asn);
                known
            };
            let known = by_asn(site);
            let names: Vec<(i64, &str)> = known.iter().map(|o| (o.asn, o.name.as_str())).collect();
            assert_eq!(names, [(15169, "Google LLC"), (64512, "Acme GmbH")], "{name}");
            assert!(meta.known_organizations(other + 1000).unwrap().is_empty(), "{name}: a missing site records none");

            let orgs = Organizations::new(meta.clone());
            let acme = known[1].id;
            let edit = OrganizationUpdate { size: Some("Large".into()), ..Default::default() };
            assert!(matches!(orgs.update(other, acme, edit.clone()), Err(crate::Error::NotFound(_))), "{name}");
            assert_eq!(orgs.update(site, acme, edit).unwrap().size, "large", "{name}");

            let csv = "asn,name,industry,domain\n15169,,Search,google.com\n,ACME GMBH,Retail,\n,Nobody,x,\n";
            let report = orgs.import(site, csv.as_bytes()).unwrap();
            assert_eq!(
                (report.rows, report.updated, report.unmatched.clone()),
                (3, 2, vec!["Nobody".to_string()]),
                "{name}"
            );
            let known = by_asn(site);
            assert_eq!((known[0].industry.as_str(), known[0].domain.as_str()), ("Search", "google.com"), "{name}");
            assert_eq!((known[1].industry.as_str(), known[1].size.as_str()), ("Retail", "large"), "{name}");
            assert_eq!(meta.known_organizations(other).unwrap()[0].industry, "", "{name}: the other site's is its own");
        }
    }
}
