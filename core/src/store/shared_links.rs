//! Share links (issue 37): a site's dashboard shown read-only to whoever holds a link's slug, optionally behind a
//! password, always under the link's fixed filters, and framable only by the exact origins of an `embed` link.
//! The owner's routes create, list and delete links; the share routes resolve a slug on every request (a deleted
//! link or site ends every session at once) through [`SharedLinks::access`].

use std::net::{IpAddr, Ipv6Addr};

use std::sync::Arc;

use base64::Engine;
use base64::engine::general_purpose::URL_SAFE_NO_PAD;
use serde::Serialize;
use sha2::{Digest, Sha256};

use crate::auth::seal::Seal;
use crate::auth::{Auth, ShareSession, tokens_random};
use crate::error::{Error, Result};
use crate::events::Filters;
use crate::model::{Millis, Website, WebsiteId, check_line, now_ms, ser_iso};
use crate::store::meta::{Meta, NewSharedLink};

/// Links one site may have.
pub const MAX_SHARED_LINKS: u32 = 50;
/// Origins one embed link may list: enough for a site, its staging copy and a few intranets.
pub const MAX_ALLOWED_ORIGINS: usize = 10;
/// Longest link name, in characters.
pub const MAX_LINK_NAME: usize = 100;
/// Random bytes of a slug: 128 bits, 22 base64url characters.
const SLUG_BYTES: usize = 16;

/// A share link as its owner sees it (never its password hash: only whether it has one).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SharedLink {
    pub id: i64,
    #[serde(skip)]
    pub website_id: WebsiteId,
    /// Empty when the stored slug cannot be opened (the instance secret changed since the link was made): the
    /// link still opens for whoever holds it, but its owner can no longer be shown it.
    pub slug: String,
    pub name: String,
    pub password_required: bool,
    /// The link's fixed filters, Stats API v2 JSON text (`[]` for none).
    pub filters: String,
    pub embed: bool,
    pub allowed_origins: Vec<String>,
    #[serde(serialize_with = "ser_iso")]
    #[schema(value_type = String, format = DateTime)]
    pub created_at: Millis,
}

/// What an owner asks for: a name, and optionally a password, filters, and framing by some origins.
#[derive(Debug, Clone, Default)]
pub struct NewLink {
    pub name: String,
    pub password: Option<String>,
    /// A JSON array of filters, or JSON text of one (as the dashboard's URL holds it).
    pub filters: Option<serde_json::Value>,
    pub embed: bool,
    pub allowed_origins: Vec<String>,
}

/// What a share visitor may read: one site, under the link's filters.
#[derive(Debug, Clone)]
pub struct ShareAccess {
    pub link: SharedLink,
    pub website: Website,
    pub filters: Filters,
}

impl ShareAccess {
    /// The link's filters ANDed with the visitor's: the visitor can narrow what the link shows, never widen it.
    pub fn with(&self, visitor: Filters) -> Filters {
        self.filters.clone().and(visitor)
    }
}

/// What starts a sealed slug's stored text; a plain slug (base64url) never holds a colon.
const SEALED_SLUG: &str = "sealed:";

/// Share links and their sessions.
#[derive(Clone)]
pub struct SharedLinks {
    meta: Meta,
    auth: Auth,
    /// Seals slugs at rest: a copy of the database opens no shared dashboard.
    seal: Arc<Seal>,
}

impl SharedLinks {
    pub(crate) fn new(meta: Meta, auth: Auth, instance_secret: &[u8]) -> SharedLinks {
        let seal = Seal::new(instance_secret, "tracker share slug seal v1", b"sl1");
        SharedLinks { meta, auth, seal: Arc::new(seal) }
    }

    /// Seals the slugs of links made before slugs were sealed (run once at start; one read when there are none);
    /// answers how many. Their addresses stay the same.
    pub(crate) fn seal_plain_slugs(&self) -> Result<usize> {
        let plain = self.meta.plain_slugs()?;
        for (id, site, slug) in &plain {
            self.meta.seal_slug(*id, slug, &self.sealed(*site, slug)?, &slug_hash(slug))?;
        }
        Ok(plain.len())
    }

    /// The slug as stored: sealed for its site, as text.
    fn sealed(&self, site: WebsiteId, slug: &str) -> Result<String> {
        Ok(format!("{SEALED_SLUG}{}", URL_SAFE_NO_PAD.encode(self.seal.seal(site, slug.as_bytes())?)))
    }

    /// A stored link with its slug opened (empty when it cannot be).
    fn opened(&self, mut link: SharedLink) -> SharedLink {
        let opened = link
            .slug
            .strip_prefix(SEALED_SLUG)
            .and_then(|text| URL_SAFE_NO_PAD.decode(text).ok())
            .and_then(|sealed| self.seal.open(link.website_id, &sealed))
            .and_then(|slug| String::from_utf8(slug).ok());
        if opened.is_none() {
            tracing::warn!(link = link.id, "a share link's slug could not be opened: was the instance secret changed?");
        }
        link.slug = opened.unwrap_or_default();
        link
    }

    /// Makes a link of `site` (the caller has checked the site is the requester's to share).
    pub fn create(&self, site: WebsiteId, new: NewLink) -> Result<SharedLink> {
        let name = new.name.trim();
        if name.is_empty() || name.chars().count() > MAX_LINK_NAME {
            return Err(Error::invalid(format!("a share link needs a name of 1 to {MAX_LINK_NAME} characters")));
        }
        check_line("name", name)?;
        let filters = filters_text(new.filters.as_ref())?;
        let origins = allowed_origins(new.embed, &new.allowed_origins)?;
        let password_hash = match new.password.as_deref().filter(|p| !p.is_empty()) {
            Some(password) => Some(self.auth.hash_link_password(password)?),
            None => None,
        };
        let origins = serde_json::to_string(&origins).map_err(|e| Error::Internal(e.to_string()))?;
        let slug = tokens_random(SLUG_BYTES);
        let row = NewSharedLink {
            sealed_slug: &self.sealed(site, &slug)?,
            slug_hash: &slug_hash(&slug),
            name,
            password_hash: password_hash.as_deref(),
            filters: &filters,
            embed: new.embed,
            allowed_origins: &origins,
        };
        let link = self.meta.insert_shared_link(site, &row, now_ms(), MAX_SHARED_LINKS)?.ok_or_else(|| {
            Error::Conflict(format!("a site may have at most {MAX_SHARED_LINKS} share links: delete one first"))
        })?;
        Ok(SharedLink { slug, ..link })
    }

    /// The site's links, newest first.
    pub fn list(&self, site: WebsiteId) -> Result<Vec<SharedLink>> {
        Ok(self.meta.shared_links(site)?.into_iter().map(|link| self.opened(link)).collect())
    }

    /// Deletes a link of `site`: every page and session of it ends at once. Another site's link is not found.
    pub fn delete(&self, site: WebsiteId, id: i64) -> Result<()> {
        if self.meta.delete_shared_link(site, id)? { Ok(()) } else { Err(Error::NotFound("share link")) }
    }

    /// The link of a slug and its site, whoever asks (the share page and its public description).
    pub fn find(&self, slug: &str) -> Result<(SharedLink, Website)> {
        let (link, _) = self.by_slug(slug)?;
        let website = self.meta.website(link.website_id)?.ok_or(Error::NotFound("share link"))?;
        Ok((link, website))
    }

    /// Opens a session of a password link (a link without one needs none, and gets none: 400).
    pub fn open_session(&self, slug: &str, password: &str, client: IpAddr) -> Result<ShareSession> {
        let (link, hash) = self.by_slug(slug)?;
        let hash = hash.ok_or_else(|| Error::invalid("this share link has no password: it needs no session"))?;
        self.auth.open_share_session(link.id, &link.slug, &hash, password, client)
    }

    /// What a request to a share read may see: the link must still exist (and its site), and a password link
    /// wants a live share token of this very link. Unknown slug: 404; missing or wrong token: 401.
    pub fn access(&self, slug: &str, token: Option<&str>) -> Result<ShareAccess> {
        let (link, hash) = self.by_slug(slug)?;
        if hash.is_some() {
            let token = token.ok_or_else(|| Error::Unauthorized("this share link needs its password".into()))?;
            self.auth.check_share_token(token, link.id, &link.slug)?;
        }
        let website = self.meta.website(link.website_id)?.ok_or(Error::NotFound("share link"))?;
        let filters = Filters::parse(Some(&link.filters))?;
        Ok(ShareAccess { link, website, filters })
    }

    fn by_slug(&self, slug: &str) -> Result<(SharedLink, Option<String>)> {
        // Anything but a slug's shape is not looked up (nor is it one).
        if slug.len() != 22 || !slug.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_') {
            return Err(Error::NotFound("share link"));
        }
        let (link, hash) = self.meta.shared_link_by_hash(&slug_hash(slug))?.ok_or(Error::NotFound("share link"))?;
        Ok((SharedLink { slug: slug.to_string(), ..link }, hash))
    }
}

/// What finds a link: its slug's SHA-256 (128 random bits: no dictionary reaches them, so no salt or key).
fn slug_hash(slug: &str) -> Vec<u8> {
    Sha256::digest(slug.as_bytes()).to_vec()
}

/// A link's filters as stored: checked with the reads' own parser, kept as compact JSON text.
fn filters_text(filters: Option<&serde_json::Value>) -> Result<String> {
    let value = match filters {
        None | Some(serde_json::Value::Null) => return Ok("[]".into()),
        Some(serde_json::Value::String(text)) if text.trim().is_empty() => return Ok("[]".into()),
        Some(serde_json::Value::String(text)) => serde_json::from_str(text)
            .map_err(|e| Error::invalid(format!("filters must be a JSON array of filters: {e}")))?,
        Some(value) => value.clone(),
    };
    Filters::from_json(&value)?;
    serde_json::to_string(&value).map_err(|e| Error::Internal(e.to_string()))
}

/// An embed link's origins, each an exact `http(s)://host[:port]` (lower-cased, no path, no wildcard): what a
/// CSP `frame-ancestors` source list takes without widening it. Only an embed link lists any, and it must list
/// one at least.
fn allowed_origins(embed: bool, origins: &[String]) -> Result<Vec<String>> {
    if !embed {
        if origins.is_empty() {
            return Ok(Vec::new());
        }
        return Err(Error::invalid("allowedOrigins apply to embed links only: set embed to true"));
    }
    if origins.is_empty() || origins.len() > MAX_ALLOWED_ORIGINS {
        return Err(Error::invalid(format!(
            "an embed link lists 1 to {MAX_ALLOWED_ORIGINS} allowed origins (https://example.com)"
        )));
    }
    let mut out: Vec<String> = Vec::new();
    for origin in origins {
        let origin = origin_of(origin)?;
        if !out.contains(&origin) {
            out.push(origin);
        }
    }
    Ok(out)
}

/// One exact origin: scheme http or https, a host name of letters, digits and inner hyphens (or an IP address),
/// an optional port.
fn origin_of(raw: &str) -> Result<String> {
    let bad = || {
        Error::invalid(format!(
            "{} is not an origin: use https://host or https://host:port (no path, no wildcard)",
            serde_json::Value::String(raw.chars().take(100).collect())
        ))
    };
    let text = raw.trim().to_ascii_lowercase();
    let text = text.strip_suffix('/').unwrap_or(&text);
    let (scheme, rest) = text.split_once("://").ok_or_else(bad)?;
    if !matches!(scheme, "http" | "https") || rest.is_empty() || rest.len() > 260 {
        return Err(bad());
    }
    let (host, port) = if rest.starts_with('[') {
        let end = rest.find(']').ok_or_else(bad)?;
        rest[1..end].parse::<Ipv6Addr>().map_err(|_| bad())?;
        let after = &rest[end + 1..];
        (&rest[..=end], if after.is_empty() { None } else { Some(after.strip_prefix(':').ok_or_else(bad)?) })
    } else {
        match rest.split_once(':') {
            Some((host, port)) => (host, Some(port)),
            None => (rest, None),
        }
    };
    if let Some(port) = port
        && !(port.len() <= 5 && port.bytes().all(|b| b.is_ascii_digit()) && port.parse::<u16>().is_ok_and(|p| p > 0))
    {
        return Err(bad());
    }
    if !host.starts_with('[') {
        let labels: Vec<&str> = host.split('.').collect();
        let ok = labels.iter().all(|label| {
            !label.is_empty()
                && label.len() <= 63
                && !label.starts_with('-')
                && !label.ends_with('-')
                && label.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-')
        });
        if !ok {
            return Err(bad());
        }
    }
    Ok(match port {
        Some(port) => format!("{scheme}://{host}:{port}"),
        None => format!("{scheme}://{host}"),
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn origins_are_exact_http_origins() {
        for (raw, want) in [
            ("https://example.com", "https://example.com"),
            (" HTTPS://Example.COM/ ", "https://example.com"),
            ("http://127.0.0.1:8080", "http://127.0.0.1:8080"),
            ("https://[::1]:9000", "https://[::1]:9000"),
            ("https://[2001:db8::1]", "https://[2001:db8::1]"),
            ("https://a-b.example.co.uk:443", "https://a-b.example.co.uk:443"),
        ] {
            assert_eq!(origin_of(raw).unwrap(), want, "{raw}");
        }
        for bad in [
            "",
            "example.com",
            "https://",
            "ftp://example.com",
            "https://*.example.com",
            "https://*",
            "*",
            "'self'",
            "https://example.com/path",
            "https://example.com?x",
            "https://example.com#x",
            "https://user@example.com",
            "https://example.com:0",
            "https://example.com:99999",
            "https://example.com:80:80",
            "https://example.com:",
            "https://exa mple.com",
            "https://example.com; script-src *",
            "https://-example.com",
            "https://example..com",
            "https://[::1",
            "https://[nonsense]",
            "javascript://alert(1)",
            "data://x",
        ] {
            assert!(origin_of(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn only_embed_links_list_origins_and_a_bounded_number() {
        assert_eq!(allowed_origins(false, &[]).unwrap(), Vec::<String>::new());
        assert!(allowed_origins(false, &["https://a.com".into()]).is_err());
        assert!(allowed_origins(true, &[]).is_err(), "an embed link names who may frame it");
        let many: Vec<String> = (0..=MAX_ALLOWED_ORIGINS).map(|i| format!("https://a{i}.com")).collect();
        assert!(allowed_origins(true, &many).is_err());
        let twice = vec!["https://a.com".to_string(), "https://A.com/".to_string()];
        assert_eq!(allowed_origins(true, &twice).unwrap(), vec!["https://a.com"]);
    }

    #[test]
    fn filters_are_checked_and_kept_as_json() {
        assert_eq!(filters_text(None).unwrap(), "[]");
        let list = serde_json::json!([["is", "visit:country", ["DE"]]]);
        assert_eq!(filters_text(Some(&list)).unwrap(), r#"[["is","visit:country",["DE"]]]"#);
        let text = serde_json::Value::String(r#"[["is","event:page",["/"]]]"#.into());
        assert_eq!(filters_text(Some(&text)).unwrap(), r#"[["is","event:page",["/"]]]"#);
        for bad in
            [serde_json::json!([["is", "visit:nonsense", ["x"]]]), serde_json::json!({"a": 1}), serde_json::json!("[")]
        {
            assert!(filters_text(Some(&bad)).is_err(), "{bad}");
        }
    }
}
