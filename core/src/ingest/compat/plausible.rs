//! Plausible's Events API (`POST /api/event`): the documented body (`name, url, domain, referrer, props,
//! revenue, interactive`) and the short keys its script sends (`n, u, d, r, p, m, $, i, h, v`, and `sd`, `e`
//! on its `engagement` events). The site is named by domain (a comma-separated list sends to each) or by
//! tracking key.

use serde::Deserialize;
use serde_json::Value;

use super::{Outcome, event_name, lenient_properties, lenient_referrer, page_url};
use crate::error::{Error, Result};
use crate::ingest::{Client, Ingest, InteractionsRequest, Submitted, TrackRequest};
use crate::model::{Website, now_ms};

/// Most sites one event may name in `domain`.
const MAX_DOMAINS: usize = 10;

/// The body of Plausible's `POST /api/event` (any content type; JSON text).
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
pub struct PlausibleEvent {
    /// `pageview`, `engagement`, or a custom event's name (`n`).
    #[serde(default, alias = "n")]
    pub name: Option<String>,
    /// The page's URL (`u`).
    #[serde(default, alias = "u")]
    pub url: Option<String>,
    /// The site's domain as registered here, several separated by commas, or its tracking key (`d`).
    #[serde(default, alias = "d")]
    pub domain: Option<String>,
    /// `document.referrer` (`r`).
    #[serde(default, alias = "r")]
    pub referrer: Option<String>,
    /// Custom properties: an object, or its JSON text (`p`; the legacy script's `m`, `meta`).
    #[serde(default, alias = "p", alias = "m", alias = "meta")]
    pub props: Option<Value>,
    /// `{currency, amount}` (`$`): the event becomes a conversion with that value.
    #[serde(default, alias = "$")]
    pub revenue: Option<Value>,
    /// Read and ignored: events never make a visit a bounce here (`i`).
    #[serde(default, alias = "i")]
    pub interactive: Option<bool>,
    /// Hash-based routing (`h`): read and ignored, the fragment is not part of a page here.
    #[serde(default, alias = "h", alias = "hashMode")]
    #[schema(value_type = Option<i64>)]
    pub hash_mode: Option<Value>,
    /// An `engagement` event's deepest scroll, in percent of the page (`sd`).
    #[serde(default, alias = "sd")]
    pub scroll_depth: Option<f64>,
    /// An `engagement` event's engaged milliseconds (`e`): the visit is kept alive until it arrives.
    #[serde(default, alias = "e")]
    pub engagement_time: Option<f64>,
    /// The script's version (`v`), ignored.
    #[serde(default, alias = "v")]
    #[schema(value_type = Option<i64>)]
    pub version: Option<Value>,
}

/// What `POST /api/event` did: the hits queued and how many copies were dropped (Plausible's
/// `x-plausible-dropped` header).
pub type PlausibleOutcome = Outcome;

impl Ingest {
    /// Sends a Plausible event to each site its `domain` names. An unknown domain, a bot or data the site's
    /// rules keep out is dropped (counted in `dropped`), as Plausible answers them; a body without a name or
    /// a URL is refused.
    pub fn plausible(&self, event: PlausibleEvent, client: &Client) -> Result<PlausibleOutcome> {
        let name = event.name.as_deref().and_then(event_name).ok_or_else(|| Error::invalid("name is required"))?;
        let raw_url = event.url.as_deref().map(str::trim).filter(|u| !u.is_empty());
        let raw_url = raw_url.ok_or_else(|| Error::invalid("url is required"))?;
        let domains = match event.domain.as_deref().map(str::trim) {
            Some("") => return Err(Error::invalid("domain must not be blank")),
            Some(list) => list.split(',').map(str::trim).filter(|d| !d.is_empty()).map(str::to_string).collect(),
            // Plausible takes the URL's host when no domain is sent.
            None => {
                vec![url::Url::parse(raw_url).ok().and_then(|u| u.host_str().map(str::to_string)).unwrap_or_default()]
            }
        };
        if domains.len() > MAX_DOMAINS {
            return Err(Error::invalid("domain may name at most 10 sites"));
        }
        let mut submitted = Vec::with_capacity(domains.len());
        let mut dropped = 0;
        for domain in &domains {
            let site = match self.site_of_key_or_domain(domain)? {
                Some(site) => site,
                None => {
                    dropped += 1;
                    continue;
                }
            };
            submitted.push(self.plausible_on(&site, &name, raw_url, &event, client)?);
        }
        Ok(Outcome::of(submitted, dropped))
    }

    /// A site named by its tracking key, else by its domain.
    fn site_of_key_or_domain(&self, name: &str) -> Result<Option<Website>> {
        match self.site(name) {
            Ok(site) => return Ok(Some(site)),
            Err(Error::NotFound(_)) => {}
            Err(e) => return Err(e),
        }
        self.site_of_domain(name)
    }

    /// One site's copy of the event through our own ingest.
    fn plausible_on(
        &self,
        site: &Website,
        name: &str,
        raw_url: &str,
        event: &PlausibleEvent,
        client: &Client,
    ) -> Result<Submitted> {
        let Some(url) = page_url(raw_url, &site.domain) else {
            return Err(Error::invalid("url must be a URL or a path of at most 2000 characters"));
        };
        let session_id = self.derived_session_id(site.id, client, now_ms());
        if name == "engagement" {
            // Our own script's equivalent: the page's deepest scroll, sent on the interactions endpoint, which
            // also keeps the visit alive (time on page) and is stored from the enhanced level up.
            let depth = event.scroll_depth.filter(|d| d.is_finite()).map(|d| d.clamp(0.0, 100.0));
            let request = InteractionsRequest {
                tracking_key: site.tracking_key.clone(),
                session_id,
                url,
                viewport: crate::ingest::interactions::Size { w: 1.0, h: 1.0 },
                page: crate::ingest::interactions::Size { w: 1.0, h: 1.0 },
                clicks: Vec::new(),
                moves: Vec::new(),
                submits: Vec::new(),
                fields: Vec::new(),
                scroll_depth: Some(depth.unwrap_or(0.0)),
            };
            return self.interactions(request, client);
        }
        let mut properties = lenient_properties(event.props.as_ref());
        let kind = match (name, revenue(event.revenue.as_ref())) {
            ("pageview", _) => "pageview",
            (_, Some((amount, currency))) => {
                properties.insert("value".into(), Value::from(amount));
                properties.insert("currency".into(), Value::String(currency));
                "conversion"
            }
            _ => "custom",
        };
        let request = TrackRequest {
            tracking_key: site.tracking_key.clone(),
            session_id,
            url,
            referrer: lenient_referrer(event.referrer.as_deref()),
            event: Some(kind.to_string()),
            event_name: (kind != "pageview").then(|| name.to_string()),
            event_properties: Some(properties),
            timestamp: None,
            screen: None,
        };
        self.track(request, client)
    }
}

/// Plausible's revenue `{currency, amount}` (amount a number or its text) as ours takes it; anything else is
/// discarded, the event still counted, as Plausible does.
fn revenue(raw: Option<&Value>) -> Option<(f64, String)> {
    let revenue = raw?.as_object()?;
    let amount = match revenue.get("amount")? {
        Value::Number(n) => n.as_f64()?,
        Value::String(s) => s.trim().parse().ok()?,
        _ => return None,
    };
    let currency = revenue.get("currency")?.as_str()?.trim();
    let valid = amount.is_finite()
        && (0.0..=1e12).contains(&amount)
        && currency.len() == 3
        && currency.bytes().all(|b| b.is_ascii_alphabetic());
    valid.then(|| (amount, currency.to_ascii_uppercase()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scripts_short_keys_and_the_apis_long_ones_read_alike() {
        let short: PlausibleEvent = serde_json::from_str(
            r#"{"n":"Signup","v":27,"u":"https://e.com/a","d":"e.com","r":null,"p":{"plan":"pro"},"$":{"amount":"9.5","currency":"eur"},"i":false,"h":1}"#,
        )
        .unwrap();
        let long: PlausibleEvent = serde_json::from_str(
            r#"{"name":"Signup","url":"https://e.com/a","domain":"e.com","props":{"plan":"pro"},"revenue":{"amount":9.5,"currency":"EUR"},"interactive":false}"#,
        )
        .unwrap();
        for event in [short, long] {
            assert_eq!(event.name.as_deref(), Some("Signup"));
            assert_eq!(event.domain.as_deref(), Some("e.com"));
            assert_eq!(revenue(event.revenue.as_ref()), Some((9.5, "EUR".to_string())));
            assert_eq!(lenient_properties(event.props.as_ref()).get("plan"), Some(&Value::from("pro")));
        }
        let engagement: PlausibleEvent = serde_json::from_str(
            r#"{"n":"engagement","sd":64,"d":"e.com","u":"https://e.com/","p":{},"e":5012,"v":27}"#,
        )
        .unwrap();
        assert_eq!((engagement.scroll_depth, engagement.engagement_time), (Some(64.0), Some(5012.0)));
    }

    #[test]
    fn bad_revenue_is_discarded() {
        for bad in [
            r#"{"amount":"x","currency":"EUR"}"#,
            r#"{"amount":1,"currency":"EURO"}"#,
            r#"{"amount":-1,"currency":"EUR"}"#,
            "[]",
        ] {
            assert_eq!(revenue(Some(&serde_json::from_str(bad).unwrap())), None, "{bad}");
        }
    }
}
