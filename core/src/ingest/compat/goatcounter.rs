//! GoatCounter's `count.js` pointed at `{public_url}/goatcounter/{trackingKey}/count`: the query it sends
//! (`p` path, `r` referrer, `t` title, `e` event flag, `s` screen width, `b` its bot guess, `q` the page's
//! query, `rnd`), as a beacon (POST, no body) or an image (GET).

use serde::Deserialize;

use super::{Outcome, event_name, lenient_referrer, page_url};
use crate::error::{Error, Result};
use crate::ingest::{Client, Ingest, TrackRequest};
use crate::model::now_ms;

/// Longest path GoatCounter accepts (longer ones it refuses with 400).
const MAX_PATH_BYTES: usize = 2048;

/// The query string of GoatCounter's count request.
#[derive(Debug, Clone, Default, Deserialize, utoipa::IntoParams)]
#[into_params(parameter_in = Query)]
pub struct GoatCounterHit {
    /// The page's path (with its query), or an event's name when `e` is set.
    #[serde(default)]
    pub p: Option<String>,
    /// The referrer.
    #[serde(default)]
    pub r: Option<String>,
    /// The page's title (not stored).
    #[serde(default)]
    pub t: Option<String>,
    /// `true` for an event.
    #[serde(default)]
    pub e: Option<String>,
    /// The screen's width in CSS pixels.
    #[serde(default)]
    pub s: Option<String>,
    /// The script's guess that a headless browser runs it: 150 and up.
    #[serde(default)]
    pub b: Option<String>,
    /// The page's `location.search` (campaign parameters).
    #[serde(default)]
    pub q: Option<String>,
    /// A random value against caches, ignored.
    #[serde(default)]
    pub rnd: Option<String>,
}

impl GoatCounterHit {
    /// The hit of a raw query string; unknown keys are ignored and a repeated key keeps its last value, so any
    /// query reads.
    pub fn from_query(query: &str) -> GoatCounterHit {
        let mut hit = GoatCounterHit::default();
        for (key, value) in url::form_urlencoded::parse(query.as_bytes()) {
            let field = match key.as_ref() {
                "p" => &mut hit.p,
                "r" => &mut hit.r,
                "t" => &mut hit.t,
                "e" => &mut hit.e,
                "s" => &mut hit.s,
                "b" => &mut hit.b,
                "q" => &mut hit.q,
                "rnd" => &mut hit.rnd,
                _ => continue,
            };
            *field = Some(value.into_owned());
        }
        hit
    }
}

impl Ingest {
    /// Counts a GoatCounter hit for the site with `tracking_key`; `page` is the request's Referer (the page
    /// that ran the script), where an event happened. A headless browser (`b` from 150) is dropped; a bad `b`
    /// or a path over 2048 bytes is refused, as GoatCounter refuses them.
    pub fn goatcounter(
        &self,
        tracking_key: &str,
        hit: GoatCounterHit,
        page: Option<&str>,
        client: &Client,
    ) -> Result<Outcome> {
        let site = self.site(tracking_key)?;
        let bot: i64 = match hit.b.as_deref().map(str::trim).filter(|b| !b.is_empty()) {
            None => 0,
            Some(b) => b.parse().map_err(|_| Error::invalid("b must be a number"))?,
        };
        if bot > 0 && bot < 150 {
            return Err(Error::invalid(format!("wrong value: b={bot}")));
        }
        let path = hit.p.as_deref().unwrap_or("").trim();
        if path.len() > MAX_PATH_BYTES {
            return Err(Error::invalid("p must be at most 2048 bytes"));
        }
        if path.is_empty() {
            return Err(Error::invalid("p is required"));
        }
        if bot >= 150 {
            return Ok(Outcome::of(Vec::new(), 1));
        }
        let event = matches!(hit.e.as_deref(), Some("true" | "t" | "1"));
        let on_site = |raw: &str| {
            page_url(raw, &site.domain).filter(|url| crate::store::websites::url_on_domain(url, &site.domain))
        };
        let (url, event_name) = if event {
            // An event's `p` is its name; where it happened is the page that sent it, if that page is the site's.
            let name = event_name(path.trim_start_matches('/')).ok_or_else(|| Error::invalid("p is required"))?;
            (
                page.and_then(on_site).unwrap_or_else(|| format!("https://{}/", super::host_key(&site.domain))),
                Some(name),
            )
        } else {
            // The path carries the page's query when count.js read it from the location; else `q` is that query.
            let query = hit.q.as_deref().map(str::trim).filter(|q| !path.contains('?') && q.starts_with('?'));
            let with_query = format!("{path}{}", query.unwrap_or(""));
            let url = page_url(&with_query, &site.domain)
                .ok_or_else(|| Error::invalid("p must be a path of at most 2000 characters"))?;
            (url, None)
        };
        // GoatCounter keeps the width alone; stored as the width, as its importer stores it.
        let screen =
            hit.s.as_deref().and_then(|s| s.trim().parse::<u32>().ok()).filter(|w| *w > 0).map(|w| w.to_string());
        let request = TrackRequest {
            tracking_key: site.tracking_key.clone(),
            session_id: self.derived_session_id(site.id, client, now_ms()),
            url,
            referrer: if event { None } else { lenient_referrer(hit.r.as_deref()) },
            event: Some(if event { "custom" } else { "pageview" }.to_string()),
            event_name,
            event_properties: None,
            timestamp: None,
            screen,
        };
        Ok(Outcome::of(vec![self.track(request, client)?], 0))
    }
}
