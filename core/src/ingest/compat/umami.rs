//! Umami's `POST /api/send`: `{type, payload: {website, hostname, url, referrer, screen, language, title, name,
//! data, ...}}` as its script and its Node client send it. `website` is the site's tracking key, or the Umami
//! website id recorded for it (by the Umami importer, or in its settings).

use serde::Deserialize;
use serde_json::Value;

use super::{Outcome, event_name, lenient_properties, lenient_referrer, page_url};
use crate::error::{Error, Result};
use crate::ingest::{Client, Ingest, TrackRequest};
use crate::model::{Website, now_ms};

/// The body of Umami's `POST /api/send`.
#[derive(Debug, Clone, Deserialize, utoipa::ToSchema)]
pub struct UmamiSend {
    /// `event` (a page view, or a custom event when `name` is set), `identify`, or `performance` (read and
    /// not stored).
    #[serde(rename = "type")]
    pub kind: String,
    pub payload: UmamiPayload,
}

/// What Umami's clients send about the page and the visitor.
#[derive(Debug, Clone, Default, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UmamiPayload {
    /// The site's tracking key, or its Umami website id.
    #[serde(default)]
    pub website: Option<String>,
    #[serde(default)]
    pub hostname: Option<String>,
    /// The page: a URL, or a path on `hostname`.
    #[serde(default)]
    pub url: Option<String>,
    #[serde(default)]
    pub referrer: Option<String>,
    /// "1920x1080".
    #[serde(default)]
    pub screen: Option<String>,
    #[serde(default)]
    pub language: Option<String>,
    #[serde(default)]
    pub title: Option<String>,
    /// A custom event's name; none for a page view.
    #[serde(default)]
    pub name: Option<String>,
    /// A custom event's properties, or an identify's traits.
    #[serde(default)]
    #[schema(value_type = Option<Object>)]
    pub data: Option<Value>,
    /// The distinct id of an identified visitor.
    #[serde(default)]
    pub id: Option<String>,
    /// Seconds since 1970 (trusted within the last day, as our own script's timestamps).
    #[serde(default)]
    pub timestamp: Option<i64>,
    /// The visitor's user agent, from a server-side sender.
    #[serde(default)]
    pub user_agent: Option<String>,
}

/// What `POST /api/send` did, for Umami's answer.
pub struct UmamiOutcome {
    pub outcome: Outcome,
    /// The user agent is a bot's: Umami answers these `{"beep": "boop"}`.
    pub bot: bool,
    /// The visit's id shaped as Umami's UUIDs (Umami's clients keep it, none sends it back).
    pub session_id: String,
}

impl Ingest {
    /// Sends an Umami `event` or `identify` through our ingest; `performance` is accepted and not stored. An
    /// unknown `website` is refused (400), as Umami refuses it.
    pub fn umami(&self, send: UmamiSend, client: &Client) -> Result<UmamiOutcome> {
        let payload = send.payload;
        let kind = match send.kind.as_str() {
            "event" => "event",
            "identify" => "identify",
            "performance" => "performance",
            _ => return Err(Error::invalid("type must be event, identify or performance")),
        };
        let website = payload.website.as_deref().map(str::trim).unwrap_or("");
        if website.is_empty() {
            return Err(Error::invalid("payload.website is required"));
        }
        let site = self.umami_site(website)?.ok_or_else(|| Error::invalid("Website not found."))?;
        let mut client = client.clone();
        if let Some(agent) = payload.user_agent.as_deref().filter(|a| !a.trim().is_empty()) {
            client.user_agent = agent.chars().take(512).collect();
        }
        let session_id = self.derived_session_id(site.id, &client, now_ms());
        let uuid_shaped = uuid_shaped(&session_id);
        if self.enricher.is_bot(&client.user_agent) {
            return Ok(UmamiOutcome { outcome: Outcome::of(Vec::new(), 1), bot: true, session_id: uuid_shaped });
        }
        if kind == "performance" {
            return Ok(UmamiOutcome { outcome: Outcome::of(Vec::new(), 1), bot: false, session_id: uuid_shaped });
        }
        let host = payload.hostname.as_deref().filter(|h| !h.trim().is_empty()).unwrap_or(&site.domain);
        let url = page_url(payload.url.as_deref().unwrap_or("/"), host)
            .ok_or_else(|| Error::invalid("payload.url must be a URL or a path of at most 2000 characters"))?;
        let referrer =
            payload.referrer.as_deref().and_then(|r| page_url(r, host)).and_then(|r| lenient_referrer(Some(&r)));
        let properties = lenient_properties(payload.data.as_ref());
        let name = payload.name.as_deref().and_then(event_name);
        let (event, event_name) = match (kind, name) {
            ("identify", _) => ("identify", payload.id.as_deref().and_then(event_name)),
            (_, Some(name)) => ("custom", Some(name)),
            (_, None) => ("pageview", None),
        };
        let screen = payload.screen.as_deref().map(|s| s.trim().chars().take(20).collect::<String>());
        let request = TrackRequest {
            tracking_key: site.tracking_key.clone(),
            session_id,
            url,
            referrer,
            event: Some(event.to_string()),
            event_name,
            event_properties: (event != "pageview").then_some(properties),
            timestamp: payload.timestamp.map(|s| Value::from(s.saturating_mul(1000))),
            screen: screen.filter(|s| !s.chars().any(char::is_control)),
        };
        let submitted = self.track(request, &client)?;
        Ok(UmamiOutcome { outcome: Outcome::of(vec![submitted], 0), bot: false, session_id: uuid_shaped })
    }

    /// The site a `website` names: an Umami website id recorded for a site, else a tracking key.
    fn umami_site(&self, website: &str) -> Result<Option<Website>> {
        if let Some(site) = self.site_of_umami_id(website)? {
            return Ok(Some(site));
        }
        match self.site(website) {
            Ok(site) => Ok(Some(site)),
            Err(Error::NotFound(_)) => Ok(None),
            Err(e) => Err(e),
        }
    }
}

/// 32 hex digits in a UUID's groups (8-4-4-4-12).
fn uuid_shaped(hex: &str) -> String {
    let (a, rest) = hex.split_at(8);
    let (b, rest) = rest.split_at(4);
    let (c, rest) = rest.split_at(4);
    let (d, e) = rest.split_at(4);
    format!("{a}-{b}-{c}-{d}-{e}")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_scripts_body_reads() {
        let send: UmamiSend = serde_json::from_str(
            r#"{"type":"event","payload":{"website":"5f0d9c2a-1b2c-4d3e-8f4a-5b6c7d8e9f0a","screen":"1920x1080","language":"en-US","title":"Home","hostname":"example.com","url":"https://example.com/a#x","referrer":"","name":"signup","data":{"plan":"pro"},"tag":"t"}}"#,
        )
        .unwrap();
        assert_eq!(send.kind, "event");
        assert_eq!(send.payload.name.as_deref(), Some("signup"));
        assert_eq!(uuid_shaped("0123456789abcdef0123456789abcdef"), "01234567-89ab-cdef-0123-456789abcdef");
    }
}
