//! The tracking hit: the request body as sent by scripts, its validation, and the normalised `Hit`.

use std::net::IpAddr;

use serde::Deserialize;
use serde_json::{Map, Value};

use super::enrich::Organization;
use crate::error::{Error, Result};
use crate::model::{Millis, Website, WebsiteId};
use crate::privacy::ConsentData;

/// Longest url or referrer accepted.
pub const MAX_URL_LEN: usize = 2_000;
/// Most event properties accepted.
pub const MAX_PROPERTIES: usize = 30;
/// Longest event name accepted.
pub const MAX_EVENT_NAME_LEN: usize = 200;
/// Longest property key and string value accepted.
pub const MAX_PROPERTY_KEY_LEN: usize = 100;
pub const MAX_PROPERTY_VALUE_LEN: usize = 1_000;

/// The body of `POST /api/track` (spec part 2 §7), plus the optional `screen`.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
pub struct TrackRequest {
    pub tracking_key: String,
    pub session_id: String,
    pub url: String,
    #[serde(default)]
    pub referrer: Option<String>,
    #[serde(default)]
    pub event: Option<String>,
    #[serde(default)]
    pub event_name: Option<String>,
    #[serde(default)]
    pub event_properties: Option<Map<String, Value>>,
    #[serde(default)]
    pub timestamp: Option<Value>,
    #[serde(default)]
    pub screen: Option<String>,
}

/// What kind of hit this is.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum EventKind {
    Pageview,
    Custom,
    Conversion,
    Outbound,
    Download,
    Identify,
    Consent,
}

impl EventKind {
    pub fn parse(s: &str) -> Result<EventKind> {
        Ok(match s {
            "" | "pageview" | "page_view" => EventKind::Pageview,
            "custom" | "event" => EventKind::Custom,
            "conversion" => EventKind::Conversion,
            "outbound" => EventKind::Outbound,
            "download" => EventKind::Download,
            "identify" => EventKind::Identify,
            "consent" => EventKind::Consent,
            _ => {
                return Err(Error::invalid(
                    "event must be pageview, custom, conversion, outbound, download, identify or consent",
                ));
            }
        })
    }

    /// The stored name of the kind.
    pub fn as_str(self) -> &'static str {
        match self {
            EventKind::Pageview => "pageview",
            EventKind::Custom => "custom",
            EventKind::Conversion => "conversion",
            EventKind::Outbound => "outbound",
            EventKind::Download => "download",
            EventKind::Identify => "identify",
            EventKind::Consent => "consent",
        }
    }
}

/// UTM campaign parameters of the landing URL.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Utm {
    pub source: String,
    pub medium: String,
    pub campaign: String,
    pub term: String,
    pub content: String,
}

/// A validated, normalised hit on its way to the writer. Never holds a raw IP.
#[derive(Debug, Clone, Default)]
pub struct Hit {
    pub website_id: WebsiteId,
    pub session_key: String,
    pub ts: Millis,
    pub kind: Option<EventKind>,
    pub name: String,
    pub url: String,
    pub path: String,
    pub referrer: String,
    pub referrer_host: String,
    pub utm: Utm,
    pub properties: Option<String>,
    pub value: Option<f64>,
    pub currency: Option<String>,
    pub screen: String,
    pub country: String,
    pub region: String,
    pub city: String,
    pub device: String,
    pub browser: String,
    /// The browser's major version ("118"), '' when unknown.
    pub browser_version: String,
    pub os: String,
    /// The system's major version, and minor where given ("10.15"), '' when unknown.
    pub os_version: String,
    pub ip_address: Option<String>,
    pub visitor_seed: [u8; 32],
    /// The site keeps only anonymous page counts until the visit grants analytics consent.
    pub consent_required: bool,
    /// Who the visit comes from (professional sites; never an ISP).
    pub organization: Option<Organization>,
    /// The choice of a `consent` hit.
    pub consent: Option<ConsentData>,
}

impl Hit {
    /// The hit's kind (page view when unset).
    pub fn kind(&self) -> EventKind {
        self.kind.unwrap_or(EventKind::Pageview)
    }

    /// Validates a request for `site`; `now` is the server time used unless the client's is plausible.
    pub fn from_request(request: TrackRequest, site: &Website, now: Millis) -> Result<Hit> {
        let session_key = validate_session_id(&request.session_id)?;
        let url = parse_http_url("url", &request.url)?.ok_or_else(|| Error::invalid("url is required"))?;
        let referrer_url = parse_http_url("referrer", request.referrer.as_deref().unwrap_or(""))?;
        let kind = EventKind::parse(request.event.as_deref().unwrap_or(""))?;
        let name = request.event_name.unwrap_or_default().trim().to_string();
        if name.chars().count() > MAX_EVENT_NAME_LEN {
            return Err(Error::invalid("event_name must be at most 200 characters"));
        }
        crate::model::check_line("event_name", &name)?;
        if matches!(kind, EventKind::Custom | EventKind::Conversion) && name.is_empty() {
            return Err(Error::invalid("event_name is required for custom events and conversions"));
        }
        let properties = request.event_properties.unwrap_or_default();
        validate_properties(&properties)?;
        let (value, currency) = match kind {
            EventKind::Conversion => conversion_value(&properties)?,
            _ => (None, None),
        };
        let consent = match kind {
            EventKind::Consent => Some(consent_data(&properties)?),
            _ => None,
        };
        let client_ts = request.timestamp.as_ref().and_then(parse_timestamp);
        let host = url.host_str().unwrap_or("").trim_start_matches("www.").to_ascii_lowercase();
        let referrer_host = referrer_url
            .as_ref()
            .and_then(|r| r.host_str())
            .map(|h| h.trim_start_matches("www.").to_ascii_lowercase())
            // Navigation inside the site is not a referral.
            .filter(|h| *h != host)
            .unwrap_or_default();
        let screen = request.screen.unwrap_or_default();
        if screen.len() > 20 {
            return Err(Error::invalid("screen must be at most 20 characters"));
        }
        crate::model::check_line("screen", &screen)?;
        Ok(Hit {
            website_id: site.id,
            session_key,
            ts: super::accept_timestamp(client_ts, now),
            kind: Some(kind),
            name,
            path: tracked_path(&url),
            utm: utm_of(&url),
            url: url.to_string(),
            referrer: referrer_url.map(|u| u.to_string()).unwrap_or_default(),
            referrer_host,
            properties: (!properties.is_empty()).then(|| Value::Object(properties).to_string()),
            value,
            currency,
            screen,
            consent,
            ..Hit::default()
        })
    }
}

/// The page path a hit is counted under: the URL's path as the WHATWG parser writes it (query and fragment
/// dropped, characters percent-encoded as browsers send them). Imports call [`path_as_tracked`] so that one
/// page is one row whether tracked or imported.
pub(crate) fn tracked_path(url: &url::Url) -> String {
    url.path().to_string()
}

/// A path (or path with query and fragment) from another tool's export, as [`tracked_path`] gives it for the
/// same page: `/` first, `?query` and `#fragment` dropped, percent-encoding as tracked. At most
/// [`MAX_URL_LEN`] characters.
pub(crate) fn path_as_tracked(raw: &str) -> String {
    let raw: String = raw.trim().chars().take(MAX_URL_LEN).collect();
    let slashed = if raw.starts_with('/') { raw } else { format!("/{raw}") };
    match url::Url::parse(&format!("https://import.invalid{slashed}")) {
        Ok(url) => tracked_path(&url).chars().take(MAX_URL_LEN).collect(),
        Err(_) => slashed.split(['?', '#']).next().unwrap_or("/").to_string(),
    }
}

pub(crate) fn validate_session_id(id: &str) -> Result<String> {
    let ok = (8..=64).contains(&id.len()) && id.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
    if !ok {
        return Err(Error::invalid("session_id must be 8 to 64 characters of letters, digits, - and _"));
    }
    Ok(id.to_string())
}

/// Parses an http(s) URL of at most 2,000 characters; empty is `None`.
pub(crate) fn parse_http_url(field: &str, raw: &str) -> Result<Option<url::Url>> {
    let raw = raw.trim();
    if raw.is_empty() {
        return Ok(None);
    }
    if raw.chars().count() > MAX_URL_LEN {
        return Err(Error::TooLarge(format!("{field} must be at most 2000 characters")));
    }
    match url::Url::parse(raw) {
        Ok(url) if matches!(url.scheme(), "http" | "https") && url.host_str().is_some() => Ok(Some(url)),
        _ => Err(Error::invalid(format!("{field} must be an http or https URL"))),
    }
}

fn validate_properties(properties: &Map<String, Value>) -> Result<()> {
    if properties.len() > MAX_PROPERTIES {
        return Err(Error::invalid("event_properties may have at most 30 entries"));
    }
    for (key, value) in properties {
        if key.is_empty() || key.chars().count() > MAX_PROPERTY_KEY_LEN {
            return Err(Error::invalid("event_properties keys must be 1 to 100 characters"));
        }
        crate::model::check_line("event_properties keys", key)?;
        match value {
            Value::String(s) if s.chars().count() > MAX_PROPERTY_VALUE_LEN => {
                return Err(Error::invalid("event_properties values must be at most 1000 characters"));
            }
            Value::String(s) => crate::model::check_text("event_properties values", s)?,
            Value::Array(_) | Value::Object(_) => {
                return Err(Error::invalid("event_properties values must be strings, numbers, booleans or null"));
            }
            _ => {}
        }
    }
    Ok(())
}

fn conversion_value(properties: &Map<String, Value>) -> Result<(Option<f64>, Option<String>)> {
    let value = match properties.get("value") {
        None | Some(Value::Null) => None,
        Some(Value::Number(n)) => n.as_f64(),
        Some(Value::String(s)) => Some(s.trim().parse::<f64>().map_err(|_| Error::invalid("value must be a number"))?),
        Some(_) => return Err(Error::invalid("value must be a number")),
    };
    if value.is_some_and(|v| !(0.0..=1e12).contains(&v)) {
        return Err(Error::invalid("value must be a number between 0 and 1e12"));
    }
    let currency = match properties.get("currency") {
        None | Some(Value::Null) => None,
        Some(Value::String(c)) if c.len() == 3 && c.bytes().all(|b| b.is_ascii_alphabetic()) => {
            Some(c.to_ascii_uppercase())
        }
        Some(_) => return Err(Error::invalid("currency must be a 3-letter code")),
    };
    Ok((value, currency))
}

/// The `{analytics, marketing}` choice of a consent hit; a missing flag is a refusal.
fn consent_data(properties: &Map<String, Value>) -> Result<ConsentData> {
    let flag = |name: &str| match properties.get(name) {
        None | Some(Value::Null) => Ok(false),
        Some(Value::Bool(b)) => Ok(*b),
        Some(_) => Err(Error::invalid(format!("event_properties.{name} must be true or false"))),
    };
    Ok(ConsentData { analytics: flag("analytics")?, marketing: flag("marketing")? })
}

/// Accepts Unix milliseconds or an RFC 3339 string.
fn parse_timestamp(value: &Value) -> Option<Millis> {
    match value {
        Value::Number(n) => n.as_i64(),
        Value::String(s) => chrono::DateTime::parse_from_rfc3339(s).ok().map(|t| t.timestamp_millis()),
        _ => None,
    }
}

fn utm_of(url: &url::Url) -> Utm {
    let mut utm = Utm::default();
    for (key, value) in url.query_pairs() {
        let value: String = value.chars().take(200).collect();
        match key.as_ref() {
            "utm_source" => utm.source = value,
            "utm_medium" => utm.medium = value,
            "utm_campaign" => utm.campaign = value,
            "utm_term" => utm.term = value,
            "utm_content" => utm.content = value,
            _ => {}
        }
    }
    utm
}

/// Zeroes the last octet of an IPv4 address or the last 80 bits of an IPv6 address.
pub fn anonymize_ip(ip: IpAddr) -> IpAddr {
    match ip {
        IpAddr::V4(v4) => {
            let [a, b, c, _] = v4.octets();
            IpAddr::from([a, b, c, 0])
        }
        IpAddr::V6(v6) => {
            let mut segments = v6.segments();
            for segment in &mut segments[3..] {
                *segment = 0;
            }
            IpAddr::from(segments)
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::model::TrackingLevel;

    fn site() -> Website {
        Website {
            id: 7,
            user_id: 1,
            name: "x".into(),
            domain: "example.com".into(),
            tracking_key: "k".into(),
            tracking_level: TrackingLevel::Light,
            created_at: 0,
            domain_only: false,
            umami_website_id: None,
            timezone: "UTC".into(),
        }
    }

    fn request(url: &str) -> TrackRequest {
        TrackRequest {
            tracking_key: "k".into(),
            session_id: "abcdefgh1234".into(),
            url: url.into(),
            ..Default::default()
        }
    }

    #[test]
    fn normalises_page_views() {
        let mut r = request("https://www.example.com/pricing?utm_source=news&x=1");
        r.referrer = Some("https://www.google.com/search?q=a".into());
        let hit = Hit::from_request(r, &site(), 1_000_000).unwrap();
        assert_eq!(hit.path, "/pricing");
        assert_eq!(hit.utm.source, "news");
        assert_eq!(hit.referrer_host, "google.com");
        assert_eq!(hit.kind(), EventKind::Pageview);
        assert_eq!(hit.ts, 1_000_000);
    }

    #[test]
    fn internal_referrers_are_direct() {
        let mut r = request("https://example.com/b");
        r.referrer = Some("https://www.example.com/a".into());
        assert_eq!(Hit::from_request(r, &site(), 0).unwrap().referrer_host, "");
    }

    #[test]
    fn rejects_bad_input() {
        assert!(Hit::from_request(request("javascript:alert(1)"), &site(), 0).is_err());
        assert!(Hit::from_request(request(&format!("https://e.com/{}", "a".repeat(2001))), &site(), 0).is_err());
        let mut r = request("https://e.com/");
        r.session_id = "short".into();
        assert!(Hit::from_request(r, &site(), 0).is_err());
        let mut r = request("https://e.com/");
        r.event = Some("custom".into());
        assert!(Hit::from_request(r, &site(), 0).is_err(), "custom needs a name");
        let mut r = request("https://e.com/");
        r.event_properties = Some((0..31).map(|i| (format!("k{i}"), Value::from(i))).collect());
        assert!(Hit::from_request(r, &site(), 0).is_err());
        let mut r = request("https://e.com/");
        r.event_properties = Some([("a".to_string(), serde_json::json!({"b": 1}))].into_iter().collect());
        assert!(Hit::from_request(r, &site(), 0).is_err());
    }

    #[test]
    fn conversions_carry_value_and_currency() {
        let mut r = request("https://e.com/");
        r.event = Some("conversion".into());
        r.event_name = Some("purchase".into());
        r.event_properties = Some(serde_json::from_str(r#"{"value": 49.5, "currency": "eur"}"#).unwrap());
        let hit = Hit::from_request(r, &site(), 0).unwrap();
        assert_eq!(hit.value, Some(49.5));
        assert_eq!(hit.currency.as_deref(), Some("EUR"));
    }

    #[test]
    fn anonymizes_addresses() {
        assert_eq!(anonymize_ip("1.2.3.4".parse().unwrap()).to_string(), "1.2.3.0");
        assert_eq!(anonymize_ip("2001:db8:1:2:3:4:5:6".parse().unwrap()).to_string(), "2001:db8:1::");
    }
}
