//! Organizations visiting a site: the ingest writer records each new visit (name and confidence from the
//! offline ASN data; in cluster mode the sink records them through the metadata store); the site owner supplies
//! domain, industry and size, in the dashboard (`update`) or from a CSV file (`import`, for `tracker orgs
//! import`), stored behind the metadata boundary. Nothing here guesses those from a name.

use std::io::Read;

use rusqlite::{Connection, params};
use serde::Deserialize;

use crate::error::{Error, Result};
use crate::ingest::enrich::Organization;
use crate::model::{Millis, WebsiteId};
use crate::store::meta::{ImportRow, KnownOrganization, Meta, OwnerChanges};

/// The sizes an owner may give (spec part 2 §9); unknown is empty and shows as 'other'.
pub const SIZES: [&str; 4] = ["enterprise", "large", "medium", "small"];
/// Longest industry label.
pub const MAX_INDUSTRY_LEN: usize = 100;
/// Most rows one import file may have.
pub const MAX_IMPORT_ROWS: usize = 100_000;

/// The body of `PUT /api/websites/{id}/organizations/{orgId}`: each field present replaces the stored one
/// ("" clears it); absent fields keep theirs.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase", deny_unknown_fields)]
pub struct OrganizationUpdate {
    pub domain: Option<String>,
    pub industry: Option<String>,
    pub size: Option<String>,
}

/// What an import did.
#[derive(Debug, Clone, Default, PartialEq, serde::Serialize)]
#[serde(rename_all = "camelCase")]
pub struct ImportReport {
    /// Rows read (header excluded).
    pub rows: usize,
    /// Organizations of the site changed.
    pub updated: usize,
    /// Rows that named no organization seen on the site (by ASN or name), as written in the file.
    pub unmatched: Vec<String>,
}

/// The owner-supplied side of a site's organizations (callers check the site is the caller's first).
#[derive(Clone)]
pub struct Organizations {
    meta: Meta,
}

impl Organizations {
    pub(crate) fn new(meta: Meta) -> Organizations {
        Organizations { meta }
    }

    /// Sets what `changes` carries on one organization of a site; another site's id is not found.
    pub fn update(&self, site: WebsiteId, id: i64, changes: OrganizationUpdate) -> Result<KnownOrganization> {
        let changes = checked(changes)?;
        if !self.meta.update_organization(site, id, &changes)? {
            return Err(Error::NotFound("organization"));
        }
        self.meta.known_organization(site, id)?.ok_or(Error::NotFound("organization"))
    }

    /// A site's organizations as metadata (in cluster mode the list adds their visits from ClickHouse).
    pub fn known(&self, site: WebsiteId) -> Result<Vec<KnownOrganization>> {
        self.meta.known_organizations(site)
    }

    /// Reads a CSV file with a header naming `name` and/or `asn` and any of `domain`, `industry`, `size`,
    /// checks every row first (an error names its line and nothing is written), then sets the given values on
    /// the site's organizations matched by ASN when the row has one, else by name (case-insensitive).
    pub fn import(&self, site: WebsiteId, input: impl Read) -> Result<ImportReport> {
        let mut reader = csv::ReaderBuilder::new().trim(csv::Trim::All).flexible(false).from_reader(input);
        let headers = reader.headers().map_err(|e| Error::invalid(format!("could not read the header: {e}")))?;
        let column = |name: &str| headers.iter().position(|h| h.eq_ignore_ascii_case(name));
        let (name_col, asn_col) = (column("name"), column("asn"));
        if name_col.is_none() && asn_col.is_none() {
            return Err(Error::invalid("the header must name a `name` or an `asn` column"));
        }
        let (domain_col, industry_col, size_col) = (column("domain"), column("industry"), column("size"));
        if domain_col.is_none() && industry_col.is_none() && size_col.is_none() {
            return Err(Error::invalid("the header must name at least one of `domain`, `industry`, `size`"));
        }
        let mut rows = Vec::new();
        for (i, record) in reader.records().enumerate() {
            let line = i + 2;
            let record = record.map_err(|e| Error::invalid(format!("line {line}: {e}")))?;
            if rows.len() >= MAX_IMPORT_ROWS {
                return Err(Error::invalid(format!("at most {MAX_IMPORT_ROWS} rows per file")));
            }
            let cell = |col: Option<usize>| col.and_then(|c| record.get(c)).map(str::to_string);
            let at = |e: Error| Error::invalid(format!("line {line}: {e}"));
            let asn = match cell(asn_col).filter(|a| !a.is_empty()) {
                None => None,
                Some(a) => Some(
                    a.trim_start_matches("AS")
                        .trim_start_matches("as")
                        .parse::<u32>()
                        .map_err(|_| at(Error::invalid("asn must be a number such as 15169 or AS15169")))?,
                ),
            };
            let name = cell(name_col).filter(|n| !n.is_empty());
            if asn.is_none() && name.is_none() {
                return Err(at(Error::invalid("each row needs a name or an asn")));
            }
            let changes = checked(OrganizationUpdate {
                domain: cell(domain_col),
                industry: cell(industry_col),
                size: cell(size_col),
            })
            .map_err(at)?;
            let label = asn.map(|a| format!("AS{a}")).or(name.clone()).unwrap_or_default();
            rows.push(ImportRow { asn: asn.map(i64::from), name, changes, label });
        }
        self.meta.import_organizations(site, &rows)
    }
}

/// An update with every present field checked and normalised.
fn checked(changes: OrganizationUpdate) -> Result<OwnerChanges> {
    let domain = changes.domain.map(|d| normalise_domain(&d)).transpose()?;
    let industry = changes.industry.map(|i| i.trim().to_string());
    if let Some(industry) = &industry {
        if industry.chars().count() > MAX_INDUSTRY_LEN {
            return Err(Error::invalid("industry must be at most 100 characters"));
        }
        if industry.chars().any(char::is_control) {
            return Err(Error::invalid("industry must not contain control characters"));
        }
    }
    let size = changes.size.map(|s| s.trim().to_lowercase());
    if let Some(size) = &size
        && !size.is_empty()
        && !SIZES.contains(&size.as_str())
    {
        return Err(Error::invalid("size must be enterprise, large, medium or small"));
    }
    Ok(OwnerChanges { domain, industry, size })
}

/// A bare host name such as `example.com` (an `http://` or `https://` prefix and a trailing `/` are taken
/// off; "" clears). Anything else (another scheme, a path, a port, spaces) is refused: the dashboard opens
/// `https://{domain}` from it.
pub fn normalise_domain(raw: &str) -> Result<String> {
    let lower = raw.trim().to_ascii_lowercase();
    let host = lower.strip_prefix("https://").or_else(|| lower.strip_prefix("http://")).unwrap_or(&lower);
    let host = host.strip_suffix('/').unwrap_or(host);
    if host.is_empty() {
        return Ok(String::new());
    }
    let bad = || Error::invalid("domain must be a host name such as example.com");
    if host.len() > 253 || !host.contains('.') {
        return Err(bad());
    }
    for label in host.split('.') {
        let ok = !label.is_empty()
            && label.len() <= 63
            && !label.starts_with('-')
            && !label.ends_with('-')
            && label.chars().all(|c| c.is_ascii_alphanumeric() || c == '-');
        if !ok {
            return Err(bad());
        }
    }
    Ok(host.to_string())
}

/// Counts a new visit from `org` on `site` (creating the organization on first sight) and returns its id.
/// `country` is where the visit came from; the organization's location is the latest known one. Domain,
/// industry and size are the owner's and left alone.
pub(crate) fn record_visit(
    tx: &Connection,
    site: WebsiteId,
    org: &Organization,
    country: &str,
    ts: Millis,
) -> rusqlite::Result<i64> {
    tx.prepare_cached(
        "INSERT INTO organizations (website_id, asn, name, location, session_count, confidence, first_seen,
            last_seen)
         VALUES (?1, ?2, ?3, ?4, 1, ?5, ?6, ?6)
         ON CONFLICT (website_id, asn) DO UPDATE SET
            session_count = session_count + 1,
            name = excluded.name,
            confidence = excluded.confidence,
            location = CASE WHEN excluded.location <> '' THEN excluded.location ELSE location END,
            last_seen = MAX(last_seen, excluded.last_seen)
         RETURNING id",
    )?
    .query_row(params![site, org.asn, org.name, country, org.confidence.min(100), ts,], |r| r.get(0))
}

/// Moves an organization's last-seen time forward (a later hit of a visit already counted).
pub(crate) fn seen(tx: &Connection, org_id: i64, ts: Millis) -> rusqlite::Result<()> {
    tx.prepare_cached("UPDATE organizations SET last_seen = MAX(last_seen, ?2) WHERE id = ?1")?
        .execute(params![org_id, ts])?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn domains_are_bare_host_names() {
        assert_eq!(normalise_domain(" https://Example.com/ ").unwrap(), "example.com");
        assert_eq!(normalise_domain("http://a-b.example.co.uk").unwrap(), "a-b.example.co.uk");
        assert_eq!(normalise_domain("").unwrap(), "");
        for bad in [
            "javascript:alert(1)",
            "example",
            "ex ample.com",
            "example.com/path",
            "example.com:8080",
            "ftp://example.com",
            "-x.com",
            "a..com",
            "data:text/html,x",
        ] {
            assert!(normalise_domain(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn sizes_and_industries_are_checked() {
        assert!(checked(OrganizationUpdate { size: Some("Enterprise".into()), ..Default::default() }).is_ok());
        assert!(checked(OrganizationUpdate { size: Some("huge".into()), ..Default::default() }).is_err());
        assert!(checked(OrganizationUpdate { industry: Some("x".repeat(101)), ..Default::default() }).is_err());
        assert!(checked(OrganizationUpdate { industry: Some("a\nb".into()), ..Default::default() }).is_err());
    }
}
