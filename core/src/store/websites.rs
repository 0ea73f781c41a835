//! Websites: registration, the one check of a caller's role on a site (issue 37), edits and deletion with all
//! their data.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use crate::auth::tokens_random;
use crate::error::{Error, Result};
use crate::model::{Caller, Millis, Role, TrackingLevel, UserId, Website, WebsiteId, now_ms};
use crate::settings::Settings;
use crate::store::meta::Meta;

/// Fields of a new website.
#[derive(Debug, Clone, Default)]
pub struct NewWebsite {
    pub name: String,
    pub domain: String,
    pub tracking_level: Option<TrackingLevel>,
}

/// Changes to a website; `None` keeps the current value.
#[derive(Debug, Clone, Default)]
pub struct WebsiteChanges {
    pub name: Option<String>,
    pub domain: Option<String>,
    pub tracking_level: Option<TrackingLevel>,
    pub domain_only: Option<bool>,
    /// `Some(None)` clears the site's Umami website id.
    pub umami_website_id: Option<Option<String>>,
    /// An IANA timezone name (checked by `account::validate_timezone`).
    pub timezone: Option<String>,
}

/// Websites and who owns them.
#[derive(Clone)]
pub struct Websites {
    meta: Meta,
    /// Bumped on every update or deletion, so caches in this process drop what they hold at once.
    generation: Arc<AtomicU64>,
    /// Where `max_sites_per_account` is read (the tracker's running settings; none in some unit tests).
    settings: Option<Settings>,
}

impl Websites {
    pub(crate) fn new(meta: Meta) -> Websites {
        Websites { meta, generation: Arc::default(), settings: None }
    }

    /// The same, refusing a site beyond `max_sites_per_account` of these settings.
    pub(crate) fn limited_by(self, settings: Settings) -> Websites {
        Websites { settings: Some(settings), ..self }
    }

    /// Changes whenever a website of this process is updated or deleted.
    pub fn generation(&self) -> u64 {
        self.generation.load(Ordering::Acquire)
    }

    /// Makes this process's caches of websites read them again (cluster mode: another daemon changed one).
    pub(crate) fn forget_cached(&self) {
        self.generation.fetch_add(1, Ordering::AcqRel);
    }

    /// Registers a website for `owner` with a fresh tracking key.
    pub fn create(&self, owner: UserId, new: NewWebsite) -> Result<Website> {
        let name = validate_name(&new.name)?;
        let domain = validate_domain(&new.domain)?;
        // One read of the account's sites serves both checks.
        let theirs = self.meta.websites_of(owner)?;
        refuse_same_domain(&theirs, None, &domain)?;
        let level = new.tracking_level.unwrap_or_default();
        if let Some(cap) = self.settings.as_ref().map(|s| s.read(|c| c.max_sites_per_account)) {
            // Counted before the insert: two creations racing may pass one over, which a cap against abuse
            // (an account making sites by the thousand) can allow.
            if theirs.len() >= cap as usize {
                return Err(Error::Conflict(format!(
                    "an account may have at most {cap} websites (max_sites_per_account): delete one first"
                )));
            }
        }
        let created_at: Millis = now_ms();
        // 16 random bytes: a collision is practically impossible, but the UNIQUE index has the last word.
        let tracking_key = tokens_random(16);
        let (id, timezone) = self
            .meta
            .insert_website(owner, &name, &domain, &tracking_key, level, created_at)?
            // The account was deleted after its request was authenticated.
            .ok_or_else(|| Error::Unauthorized("account no longer exists".into()))?;
        Ok(Website {
            id,
            user_id: owner,
            name,
            domain,
            tracking_key,
            tracking_level: level,
            created_at,
            domain_only: false,
            umami_website_id: None,
            timezone,
        })
    }

    /// The owner's websites, oldest first.
    pub fn list(&self, owner: UserId) -> Result<Vec<Website>> {
        self.meta.websites_of(owner)
    }

    /// Every website of every user (operator views).
    pub fn list_all(&self) -> Result<Vec<Website>> {
        self.meta.all_websites()
    }

    /// The sites `user` may reach, oldest first, with its role on each: its own (`owner`), then those it is a
    /// member of.
    pub fn visible(&self, user: UserId) -> Result<Vec<(Website, Role)>> {
        let mut sites: Vec<(Website, Role)> = self.list(user)?.into_iter().map(|site| (site, Role::Owner)).collect();
        sites.extend(self.meta.shared_websites(user)?);
        Ok(sites)
    }

    /// May this caller act on site `id` with at least the role its call needs: the site with the caller's role.
    /// A site the caller has no role on is `NotFound`, exactly like a missing one; a role below the call's is
    /// `Forbidden`. Read on every call (no cache), so a role removed or lowered counts on the next request.
    pub fn access(&self, caller: impl Into<Caller>, id: WebsiteId) -> Result<(Website, Role)> {
        let caller = caller.into();
        let (site, role) = self.meta.site_role(caller.user, id)?.ok_or(Error::NotFound("website"))?;
        if role < caller.needs {
            return Err(Error::Forbidden(format!(
                "your role on this website is {}: this needs {} or above",
                role.as_str(),
                caller.needs.as_str()
            )));
        }
        Ok((site, role))
    }

    /// A website the caller may act on as its call needs (a bare `UserId` reads); see [`Websites::access`].
    pub fn get(&self, caller: impl Into<Caller>, id: WebsiteId) -> Result<Website> {
        Ok(self.access(caller, id)?.0)
    }

    /// A website `user` may reach by its domain (with or without scheme or `www.`, any case), as Plausible's
    /// API names sites; another user's is `NotFound`, exactly like a missing one.
    pub fn of_domain(&self, user: UserId, domain: &str) -> Result<Website> {
        let wanted = bare_host(domain);
        let sites = self.visible(user)?;
        let site = sites.into_iter().map(|(site, _)| site).find(|site| {
            let host = bare_host(&site.domain);
            host.eq_ignore_ascii_case(&wanted)
                || host.trim_start_matches("www.").eq_ignore_ascii_case(wanted.trim_start_matches("www."))
        });
        site.ok_or(Error::NotFound("website"))
    }

    /// A website by id regardless of owner (CLI operators).
    pub fn get_any(&self, id: WebsiteId) -> Result<Website> {
        self.meta.website(id)?.ok_or(Error::NotFound("website"))
    }

    /// A website by its tracking key (ingest).
    pub fn by_tracking_key(&self, key: &str) -> Result<Website> {
        self.meta.website_by_key(key)?.ok_or(Error::NotFound("website"))
    }

    /// A website by the Umami website id it was imported from or given (Umami's `POST /api/send`).
    pub fn by_umami_id(&self, umami_id: &str) -> Result<Website> {
        self.meta.website_by_umami_id(umami_id)?.ok_or(Error::NotFound("website"))
    }

    /// Records the Umami website id a site's history came from, unless the site has one already or another
    /// site has this one (the import goes on either way); true if it was recorded.
    pub fn record_umami_id(&self, id: WebsiteId, umami_id: &str) -> Result<bool> {
        let Ok(umami_id) = umami_website_id(umami_id) else { return Ok(false) };
        let recorded = !umami_id.is_empty() && self.meta.record_umami_id(id, &umami_id)?;
        if recorded {
            self.generation.fetch_add(1, Ordering::AcqRel);
        }
        Ok(recorded)
    }

    /// Finds a site by numeric id or by domain (with or without scheme), for operators.
    pub fn find(&self, id_or_domain: &str) -> Result<Website> {
        if let Ok(id) = id_or_domain.parse::<WebsiteId>() {
            return self.get_any(id);
        }
        let wanted = bare_host(id_or_domain);
        let matches: Vec<Website> =
            self.list_all()?.into_iter().filter(|site| bare_host(&site.domain).eq_ignore_ascii_case(&wanted)).collect();
        match matches.len() {
            0 => Err(Error::NotFound("website")),
            1 => Ok(matches.into_iter().next().expect("one match")),
            n => Err(Error::invalid(format!("{n} websites have the domain {wanted}; name one by id"))),
        }
    }

    /// Applies changes to a website the caller may change.
    pub fn update(&self, caller: impl Into<Caller>, id: WebsiteId, changes: WebsiteChanges) -> Result<Website> {
        let mut site = self.get(caller, id)?;
        let owner = site.user_id;
        if let Some(name) = changes.name {
            site.name = validate_name(&name)?;
        }
        if let Some(domain) = changes.domain {
            site.domain = validate_domain(&domain)?;
            refuse_same_domain(&self.list(owner)?, Some(id), &site.domain)?;
        }
        if let Some(level) = changes.tracking_level {
            site.tracking_level = level;
        }
        if let Some(domain_only) = changes.domain_only {
            site.domain_only = domain_only;
        }
        if let Some(umami_id) = changes.umami_website_id {
            site.umami_website_id = umami_id.as_deref().map(umami_website_id).transpose()?.filter(|u| !u.is_empty());
            if let Some(wanted) = &site.umami_website_id
                && self.meta.website_by_umami_id(wanted)?.is_some_and(|other| other.id != id)
            {
                return Err(Error::Conflict("another website already has this Umami website id".into()));
            }
        }
        if let Some(timezone) = changes.timezone {
            site.timezone = crate::account::validate_timezone(&timezone)?;
        }
        if !self.meta.update_website(&site)? {
            return Err(Error::NotFound("website"));
        }
        self.generation.fetch_add(1, Ordering::AcqRel);
        Ok(site)
    }

    /// Makes the admin member `to` the owner of the site `from` owns, and `from` an admin member. The new
    /// owner may not already own a site of the same domain (one account tracks a domain once); a site beyond
    /// its `max_sites_per_account` is refused as at creation. `NotFound` unless `from` owns the site and `to`
    /// is an admin member of it at the moment of the change.
    pub fn hand_over(&self, from: UserId, id: WebsiteId, to: UserId) -> Result<Website> {
        let mut site = self.get(Caller::new(from, Role::Owner), id)?;
        let theirs = self.meta.websites_of(to)?;
        // Said without naming the new owner's own site: the old owner learns only that there is one.
        let host = site_host(&site.domain);
        if theirs.iter().any(|s| site_host(&s.domain) == host) {
            return Err(Error::Conflict(format!(
                "the new owner already has a website for {host}: they must delete it before taking this one"
            )));
        }
        if let Some(cap) = self.settings.as_ref().map(|s| s.read(|c| c.max_sites_per_account))
            && theirs.len() >= cap as usize
        {
            return Err(Error::Conflict(format!(
                "the new owner has {cap} websites already (max_sites_per_account): they must delete one first"
            )));
        }
        if !self.meta.hand_over(id, from, to, now_ms())? {
            return Err(Error::NotFound("member"));
        }
        self.generation.fetch_add(1, Ordering::AcqRel);
        site.user_id = to;
        Ok(site)
    }

    /// Deletes a website of `owner` and, by cascade, all of its data in SQLite (in cluster mode
    /// `Tracker::delete_website` deletes its events first).
    pub fn delete(&self, owner: UserId, id: WebsiteId) -> Result<()> {
        if !self.meta.delete_website(owner, id)? {
            return Err(Error::NotFound("website"));
        }
        self.generation.fetch_add(1, Ordering::AcqRel);
        Ok(())
    }
}

/// One account tracks a domain once: `https://blog.example.com` from the dashboard and `blog.example.com` from
/// the CLI are the same site, and a second one would split its figures and make the domain ambiguous in every
/// command naming it. Other accounts may track the same domain (refusing would tell them it is tracked here).
fn refuse_same_domain(theirs: &[Website], except: Option<WebsiteId>, domain: &str) -> Result<()> {
    let host = site_host(domain);
    match theirs.iter().find(|s| Some(s.id) != except && site_host(&s.domain) == host) {
        Some(same) => {
            Err(Error::Conflict(format!("You already have a website for {host}: {} (id {})", same.name, same.id)))
        }
        None => Ok(()),
    }
}

fn validate_name(name: &str) -> Result<String> {
    let name = name.trim();
    if name.is_empty() {
        return Err(Error::invalid("Website name is required"));
    }
    if name.chars().count() > 100 {
        return Err(Error::invalid("Website name must be at most 100 characters"));
    }
    crate::model::check_line("Website name", name)?;
    Ok(name.to_string())
}

/// A domain is kept as the user typed it (trimmed) but must parse as an http(s) URL with a host.
fn validate_domain(domain: &str) -> Result<String> {
    let domain = domain.trim();
    if domain.is_empty() {
        return Err(Error::invalid("Domain is required"));
    }
    if domain.len() > 253 + 8 || domain.chars().any(char::is_control) {
        return Err(Error::invalid("Please enter a valid URL"));
    }
    let with_scheme = if domain.contains("://") { domain.to_string() } else { format!("https://{domain}") };
    match url::Url::parse(&with_scheme) {
        Ok(url) if matches!(url.scheme(), "http" | "https") && url.host_str().is_some_and(|h| !h.is_empty()) => {
            Ok(domain.to_string())
        }
        _ => Err(Error::invalid("Please enter a valid URL")),
    }
}

/// An Umami website id as stored: a UUID in lowercase (empty stays empty: no id).
pub fn umami_website_id(raw: &str) -> Result<String> {
    let raw = raw.trim();
    let hex_groups = raw.split('-').map(str::len).eq([8, 4, 4, 4, 12]);
    if raw.is_empty() || (hex_groups && raw.bytes().all(|b| b.is_ascii_hexdigit() || b == b'-')) {
        return Ok(raw.to_ascii_lowercase());
    }
    Err(Error::invalid("umamiWebsiteId must be a UUID, such as 0b1c2d3e-4f50-6172-8394-a5b6c7d8e9f0"))
}

/// Whether a page URL is on a site's domain or one of its subdomains (a leading "www." of the domain is
/// ignored, so "www.example.com" also accepts "example.com" and "shop.example.com").
pub fn url_on_domain(url: &str, domain: &str) -> bool {
    let Some(host) = url::Url::parse(url).ok().and_then(|u| u.host_str().map(str::to_ascii_lowercase)) else {
        return false;
    };
    let site = bare_host(domain);
    let site = site.split(':').next().unwrap_or("");
    let site = site.strip_prefix("www.").unwrap_or(site);
    !site.is_empty() && (host == site || host.strip_suffix(site).is_some_and(|rest| rest.ends_with('.')))
}

/// The host part of a domain as users type it ("https://www.Example.com/" → "www.example.com").
pub fn bare_host(domain: &str) -> String {
    let domain = domain.trim();
    let without_scheme = domain.split_once("://").map_or(domain, |(_, rest)| rest);
    without_scheme.split(['/', '?', '#']).next().unwrap_or("").to_ascii_lowercase()
}

/// The host a domain names, as compared between sites: lowercase, without scheme, path, a trailing dot or a
/// leading "www." ("https://WWW.Example.com./" and "example.com" are one site).
fn site_host(domain: &str) -> String {
    let host = bare_host(domain);
    let host = host.trim_end_matches('.');
    host.strip_prefix("www.").unwrap_or(host).to_string()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn one_domain_typed_several_ways_is_one_host() {
        for typed in ["https://WWW.Example.com./", "example.com", "http://example.com/shop?x=1", " www.example.com "] {
            assert_eq!(site_host(typed), "example.com", "{typed}");
        }
        assert_ne!(site_host("blog.example.com"), site_host("example.com"));
        assert_ne!(site_host("example.com:8443"), site_host("example.com"));
    }

    #[test]
    fn domains_must_be_urls() {
        assert_eq!(validate_domain(" example.com ").unwrap(), "example.com");
        assert!(validate_domain("https://example.com/shop").is_ok());
        assert!(validate_domain("").is_err());
        assert!(validate_domain("ftp://example.com").is_err());
        assert!(validate_domain("http://").is_err());
        assert!(validate_domain("exa mple.com").is_err());
    }

    #[test]
    fn urls_on_a_domain_and_its_subdomains() {
        assert!(url_on_domain("https://example.com/a", "example.com"));
        assert!(url_on_domain("https://shop.example.com/a", "https://www.example.com/"));
        assert!(url_on_domain("http://EXAMPLE.com:8080/", "example.com"));
        assert!(!url_on_domain("https://badexample.com/", "example.com"));
        assert!(!url_on_domain("https://example.com.evil.net/", "example.com"));
        assert!(!url_on_domain("not a url", "example.com"));
    }

    #[test]
    fn umami_website_ids_are_uuids() {
        let id = "0B1C2D3E-4F50-6172-8394-A5B6C7D8E9F0";
        assert_eq!(umami_website_id(id).unwrap(), id.to_ascii_lowercase());
        assert_eq!(umami_website_id(" ").unwrap(), "");
        for bad in ["0b1c2d3e4f5061728394a5b6c7d8e9f0", "0b1c2d3e-4f50-6172-8394-a5b6c7d8e9fg", "x", "--------"] {
            assert!(umami_website_id(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn bare_hosts() {
        assert_eq!(bare_host("https://www.Example.com/x"), "www.example.com");
        assert_eq!(bare_host("example.com"), "example.com");
    }
}
