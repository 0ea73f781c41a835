//! Other tools' tracking protocols (Plausible's `POST /api/event`, Umami's `POST /api/send`, GoatCounter's
//! `count`), translated into a `TrackRequest` or an `InteractionsRequest` and sent down the one ingest path
//! (`Ingest::track`, `Ingest::interactions`): the same bot filter, privacy settings, source naming and path
//! normalisation as our own script's hits. Called by `daemon/src/routes/compat.rs`.
//!
//! Their scripts send no visit id: the visit of such a hit is named here from who sends it (address and user
//! agent, the visitor seed) and the site, under a key only this instance (or cluster) holds, and the UTC day,
//! as Plausible counts a visitor; the writer's 30-minute rule then splits visits as for our own script's.

mod goatcounter;
mod plausible;
mod umami;

use std::collections::HashMap;
use std::sync::Mutex;
use std::time::{Duration, Instant};

use hmac::{Hmac, Mac};
use serde_json::{Map, Value};
use sha2::Sha256;

use super::hit::{MAX_EVENT_NAME_LEN, MAX_PROPERTIES, MAX_PROPERTY_KEY_LEN, MAX_PROPERTY_VALUE_LEN, MAX_URL_LEN};
use super::{Client, Ingest, Submitted};
use crate::error::Result;
use crate::model::{Millis, Website, WebsiteId};
use crate::store::websites::{Websites, bare_host};

pub use goatcounter::GoatCounterHit;
pub use plausible::{PlausibleEvent, PlausibleOutcome};
pub use umami::{UmamiOutcome, UmamiPayload, UmamiSend};

/// How long the index of sites by domain and Umami id is trusted before it is read again (a change to a site
/// in this process, or a cluster notice of one, empties it at once).
const INDEX_TTL: Duration = Duration::from_secs(5);

/// What the compatible endpoints keep between hits: the secret naming visits, and the sites by domain and by
/// Umami website id.
pub(crate) struct CompatState {
    /// Names visits (see the module's comment). Random per process on SQLite (one daemon); derived from the
    /// configured visitor-salt key on a cluster, so every daemon names a visitor's hits alike.
    secret: [u8; 32],
    index: Mutex<Option<SiteIndex>>,
}

impl CompatState {
    /// A state with a random secret.
    pub(crate) fn random() -> CompatState {
        let mut secret = [0u8; 32];
        rand::RngCore::fill_bytes(&mut rand::rng(), &mut secret);
        CompatState { secret, index: Mutex::new(None) }
    }

    /// A state whose secret every daemon holding `key` (the cluster's visitor-salt key) derives alike.
    pub(crate) fn shared(key: &[u8]) -> CompatState {
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(key).expect("HMAC takes a key of any length");
        mac.update(b"tracker compatible visit key v1\0");
        CompatState { secret: mac.finalize().into_bytes().into(), index: Mutex::new(None) }
    }
}

/// Sites by the host of their domain and by Umami website id, for one generation of website changes.
struct SiteIndex {
    generation: u64,
    read_at: Instant,
    by_host: HashMap<String, Vec<Website>>,
    by_umami_id: HashMap<String, Website>,
}

/// A site's host as the tools send it: lowercase, no scheme, port, path, trailing dot or leading `www.`.
fn host_key(domain: &str) -> String {
    let host = bare_host(domain);
    let host = host.split(':').next().unwrap_or("").trim_end_matches('.');
    host.strip_prefix("www.").unwrap_or(host).to_string()
}

impl Ingest {
    /// Reads through the index of sites, refreshing it when stale.
    fn indexed<T>(&self, read: impl FnOnce(&SiteIndex) -> T) -> Result<T> {
        let mut index = self.compat.index.lock().unwrap_or_else(|e| e.into_inner());
        let generation = self.websites.generation();
        let stale = index.as_ref().is_none_or(|i| i.generation != generation || i.read_at.elapsed() > INDEX_TTL);
        if stale {
            *index = Some(build_index(&self.websites, generation)?);
        }
        Ok(read(index.as_ref().expect("just built")))
    }

    /// The one site registered for a domain on this instance; `None` for none, or for several (accounts may
    /// register one domain each: a hit naming it is then dropped rather than given to one of them; such sites
    /// name themselves by tracking key instead).
    pub(crate) fn site_of_domain(&self, domain: &str) -> Result<Option<Website>> {
        let host = host_key(domain);
        self.indexed(|index| match index.by_host.get(&host).map(Vec::as_slice) {
            Some([site]) => Some(site.clone()),
            _ => None,
        })
    }

    /// The site with this Umami website id.
    pub(crate) fn site_of_umami_id(&self, umami_id: &str) -> Result<Option<Website>> {
        let wanted = umami_id.trim().to_ascii_lowercase();
        self.indexed(|index| index.by_umami_id.get(&wanted).cloned())
    }

    /// The visit id of a compatible hit: an HMAC of the site, the UTC day and the visitor seed under the
    /// state's secret, 32 hex digits (the stored session key; the address cannot be tried against it).
    pub(crate) fn derived_session_id(&self, site: WebsiteId, client: &Client, ts: Millis) -> String {
        let mut mac = <Hmac<Sha256> as Mac>::new_from_slice(&self.compat.secret).expect("any key length");
        mac.update(&site.to_le_bytes());
        mac.update(&ts.div_euclid(86_400_000).to_le_bytes());
        mac.update(&super::visitor_seed(client));
        let digest = mac.finalize().into_bytes();
        digest[..16].iter().map(|b| format!("{b:02x}")).collect()
    }
}

fn build_index(websites: &Websites, generation: u64) -> Result<SiteIndex> {
    let mut by_host: HashMap<String, Vec<Website>> = HashMap::new();
    let mut by_umami_id = HashMap::new();
    for site in websites.list_all()? {
        if let Some(umami_id) = &site.umami_website_id {
            by_umami_id.insert(umami_id.clone(), site.clone());
        }
        by_host.entry(host_key(&site.domain)).or_default().push(site);
    }
    Ok(SiteIndex { generation, read_at: Instant::now(), by_host, by_umami_id })
}

/// What became of each site's copy of one compatible hit.
pub struct Outcome {
    /// The hits queued: the answer waits for their commits.
    pub queued: Vec<super::Commit>,
    /// Hits accepted and deliberately not stored (a bot, an unknown site, the site's rules).
    pub dropped: usize,
}

impl Outcome {
    fn of(submitted: Vec<Submitted>, mut dropped: usize) -> Outcome {
        let mut queued = Vec::with_capacity(submitted.len());
        for s in submitted {
            match s {
                Submitted::Queued(commit) => queued.push(commit),
                Submitted::Ignored => dropped += 1,
            }
        }
        Outcome { queued, dropped }
    }
}

/// Properties as the tools send them, kept as far as ours hold them: scalar values (strings cut to our
/// length), at most our number of keys; nested values, empty ones and bad keys are left out (as Plausible
/// leaves them out) rather than refusing the hit.
fn lenient_properties(raw: Option<&Value>) -> Map<String, Value> {
    let object = match raw {
        Some(Value::Object(o)) => o.clone(),
        // Plausible's legacy script sends `m` as a JSON string.
        Some(Value::String(s)) => match serde_json::from_str(s) {
            Ok(Value::Object(o)) => o,
            _ => Map::new(),
        },
        _ => Map::new(),
    };
    let mut kept = Map::new();
    for (key, value) in object {
        if kept.len() == MAX_PROPERTIES {
            break;
        }
        let key_ok =
            !key.is_empty() && key.chars().count() <= MAX_PROPERTY_KEY_LEN && !key.chars().any(char::is_control);
        let value = match value {
            Value::String(s) if s.is_empty() => continue,
            Value::String(s) => {
                let s: String = s.chars().filter(|c| !c.is_control() || matches!(c, '\n' | '\t')).collect();
                Value::String(s.chars().take(MAX_PROPERTY_VALUE_LEN).collect())
            }
            v @ (Value::Number(_) | Value::Bool(_)) => v,
            _ => continue,
        };
        if key_ok {
            kept.insert(key, value);
        }
    }
    kept
}

/// A referrer as ours keep it: an http(s) URL of at most our length, else none (the tools send anything here,
/// and a referrer they would not count is not a reason to lose the page view).
fn lenient_referrer(raw: Option<&str>) -> Option<String> {
    let raw = raw?.trim();
    let url = url::Url::parse(raw).ok()?;
    (matches!(url.scheme(), "http" | "https") && url.host_str().is_some() && raw.chars().count() <= MAX_URL_LEN)
        .then(|| raw.to_string())
}

/// The page a tool names, as an http(s) URL: a full URL as sent; a path (or an app's `app://host/path`) on
/// `host`. `None` when nothing page-like is left.
fn page_url(raw: &str, host: &str) -> Option<String> {
    let raw = raw.trim();
    let base = url::Url::parse(&format!("https://{}/", host_key(host))).ok()?;
    let url = match url::Url::parse(raw) {
        Ok(url) if matches!(url.scheme(), "http" | "https") && url.host_str().is_some() => url,
        // Another scheme (Plausible's docs suggest `app://localhost/login` for apps): its path on the site.
        Ok(url) => base.join(url.path()).ok()?,
        Err(_) => base.join(raw).ok()?,
    };
    let url = url.to_string();
    (url.chars().count() <= MAX_URL_LEN).then_some(url)
}

/// An event name cut to our length, without control characters; `None` when empty.
fn event_name(raw: &str) -> Option<String> {
    let name: String = raw.trim().chars().filter(|c| !c.is_control()).take(MAX_EVENT_NAME_LEN).collect();
    (!name.is_empty()).then_some(name)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn hosts_compare_as_the_tools_send_them() {
        for typed in ["https://WWW.Example.com./", "example.com", "example.com:8080", "http://example.com/x"] {
            assert_eq!(host_key(typed), "example.com", "{typed}");
        }
    }

    #[test]
    fn pages_become_urls_on_the_site() {
        assert_eq!(page_url("https://a.example/x?y=1", "example.com").unwrap(), "https://a.example/x?y=1");
        assert_eq!(
            page_url("/blog/post?utm_source=n", "www.example.com").unwrap(),
            "https://example.com/blog/post?utm_source=n"
        );
        assert_eq!(page_url("app://localhost/login", "example.com").unwrap(), "https://example.com/login");
        assert!(page_url(&format!("/{}", "a".repeat(2_100)), "example.com").is_none());
    }

    #[test]
    fn properties_keep_what_ours_hold() {
        let sent = serde_json::json!({"a": "x", "b": 2, "c": true, "d": null, "e": "", "f": [1], "g": {"h": 1}});
        let kept = lenient_properties(Some(&sent));
        assert_eq!(Value::Object(kept), serde_json::json!({"a": "x", "b": 2, "c": true}));
        let legacy = Value::String(r#"{"author":"Jo"}"#.into());
        assert_eq!(Value::Object(lenient_properties(Some(&legacy))), serde_json::json!({"author": "Jo"}));
        let many: Map<String, Value> = (0..40).map(|i| (format!("k{i}"), Value::from(i))).collect();
        assert_eq!(lenient_properties(Some(&Value::Object(many))).len(), MAX_PROPERTIES);
    }

    #[test]
    fn referrers_that_are_no_urls_are_left_out() {
        assert_eq!(lenient_referrer(Some("https://news.example/a")).as_deref(), Some("https://news.example/a"));
        for bad in ["", "null", "android-app://com.x", "/relative"] {
            assert_eq!(lenient_referrer(Some(bad)), None, "{bad}");
        }
    }

    #[test]
    fn visit_ids_differ_by_site_day_and_visitor_and_never_show_the_address() {
        let state = CompatState::shared(b"key");
        let again = CompatState::shared(b"key");
        assert_eq!(state.secret, again.secret, "every daemon with the key derives one secret");
        assert_ne!(state.secret, CompatState::shared(b"other").secret);
        assert_ne!(CompatState::random().secret, CompatState::random().secret);
    }
}
