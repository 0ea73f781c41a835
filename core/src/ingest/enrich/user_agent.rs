//! User-agent parsing with uap-core's regexes (ua-parser), mapped to the few names the dashboard shows,
//! behind a bounded cache: a parse costs tens of microseconds, and most hits repeat a few hundred UAs.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use super::UserAgentInfo;

/// Written by build.rs from uap-core's regexes.yaml.
static REGEXES_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/uap-regexes.json"));

/// Entries kept across both cache generations.
const CACHE_CAPACITY: usize = 10_000;
/// Real user agents are a few hundred bytes; longer ones are cut so that a client cannot make the cache
/// (or the regexes) chew on megabytes.
const MAX_UA_LEN: usize = 512;

pub(super) struct Parser {
    /// Built on the first parse, not in `Enricher::new`: compiling uap's browser and OS regexes takes
    /// about 35 ms and 10 MB (release build), which an idle daemon should not pay.
    extractors: OnceLock<Option<Extractors>>,
    cache: Mutex<Cache>,
}

struct Extractors {
    browser: ua_parser::user_agent::Extractor<'static>,
    os: ua_parser::os::Extractor<'static>,
}

impl Extractors {
    /// uap's device regexes are left out on purpose: they took 64 ms and 14 MB more to build, and the
    /// device class the dashboard needs follows from the OS and a few UA tokens (see `device_class`).
    fn build() -> Result<Extractors, String> {
        let regexes: ua_parser::Regexes<'static> = serde_json::from_str(REGEXES_JSON).map_err(|e| e.to_string())?;
        let browser = regexes
            .user_agent_parsers
            .into_iter()
            .try_fold(ua_parser::user_agent::Builder::new(), |b, p| b.push(p))
            .map_err(|e| e.to_string())?
            .build()
            .map_err(|e| e.to_string())?;
        let os = regexes
            .os_parsers
            .into_iter()
            .try_fold(ua_parser::os::Builder::new(), |b, p| b.push(p))
            .map_err(|e| e.to_string())?
            .build()
            .map_err(|e| e.to_string())?;
        Ok(Extractors { browser, os })
    }
}

impl Parser {
    pub(super) fn new() -> Parser {
        Parser { extractors: OnceLock::new(), cache: Mutex::new(Cache::default()) }
    }

    pub(super) fn parse(&self, user_agent: &str) -> Arc<UserAgentInfo> {
        let user_agent = truncate(user_agent.trim(), MAX_UA_LEN);
        if let Some(hit) = self.cache.lock().unwrap_or_else(|e| e.into_inner()).get(user_agent) {
            return hit;
        }
        // Parsed outside the lock: other threads keep hitting the cache meanwhile.
        let info = Arc::new(self.classify(user_agent));
        self.cache.lock().unwrap_or_else(|e| e.into_inner()).insert(user_agent, info.clone());
        info
    }

    fn classify(&self, ua: &str) -> UserAgentInfo {
        let extractors = self.extractors.get_or_init(|| {
            // The regexes are embedded and compiled in tests, so this only fails on a broken build;
            // hits still get recorded, without browser and OS.
            Extractors::build().inspect_err(|e| tracing::error!("embedded uap regexes: {e}")).ok()
        });
        let Some(extractors) = extractors else {
            return UserAgentInfo::default();
        };
        let os_match = extractors.os.extract(ua);
        let os = os_match.as_ref().map(|o| os_name(&o.os)).unwrap_or_default();
        let os_version = os_match
            .filter(|_| !os.is_empty())
            .map(|o| version(o.major.as_deref(), o.minor.as_deref()))
            .unwrap_or_default();
        let browser_match = extractors.browser.extract(ua);
        let browser = browser_match.as_ref().map(|b| browser_name(&b.family)).unwrap_or_default();
        let browser_version =
            browser_match.filter(|_| !browser.is_empty()).map(|b| version(b.major, None)).unwrap_or_default();
        UserAgentInfo { browser, browser_version, device: device_class(ua, &os).to_owned(), os, os_version }
    }
}

/// A version as stored: the major, and the minor where one is given ("10.15"); empty without a major. Each part
/// at most 10 bytes (uap's are a few digits; a user agent may say anything).
fn version(major: Option<&str>, minor: Option<&str>) -> String {
    let part = |p: Option<&str>| p.map(str::trim).filter(|p| !p.is_empty()).map(|p| truncate(p, 10).to_owned());
    match (part(major), part(minor)) {
        (None, _) => String::new(),
        (Some(major), None) => major,
        (Some(major), Some(minor)) => format!("{major}.{minor}"),
    }
}

/// uap's families, merged where the dashboard should count one browser: the device column already says
/// mobile or not, so "Mobile Safari" and "Chrome Mobile" fold into "Safari" and "Chrome".
fn browser_name(family: &str) -> String {
    let name = match family {
        "Other" => "",
        "Chrome Mobile" | "Chrome Mobile iOS" => "Chrome",
        "Chrome Mobile WebView" => "Chrome WebView",
        "Mobile Safari" => "Safari",
        "Mobile Safari UI/WKWebView" => "Safari WebView",
        "Firefox Mobile" | "Firefox iOS" => "Firefox",
        "Edge Mobile" => "Edge",
        "Opera Mobile" => "Opera",
        "Yandex Browser" => "Yandex",
        other => other,
    };
    name.to_owned()
}

fn os_name(family: &str) -> String {
    let name = match family {
        "Other" => "",
        "Mac OS X" => "macOS",
        "Chrome OS" => "ChromeOS",
        other => other,
    };
    name.to_owned()
}

/// desktop / mobile / tablet from the OS and the UA's tokens. Android tablets are the Android UAs
/// without "Mobile" (the convention Google documents for Chrome), or with a tablet's model or marker even with
/// it; Android UAs naming a laptop are desktops. iPadOS 13+ by default sends a Mac UA and counts as desktop, as
/// every UA-based tracker does. Whatever names no phone or tablet is a desktop: the script runs in a browser,
/// and the desktop systems are many more than those uap names (Gentoo, Slackware, BeOS, AmigaOS, ...).
/// Measured on an independent corpus in `corpus_tests`.
fn device_class(ua: &str, os: &str) -> &'static str {
    // "Tablet PC" is a Windows desktop's pen-input token, not a tablet.
    const TABLET_TOKENS: [&str; 7] = ["iPad", "Tablet;", "Tablet)", "Kindle", "Silk/", "PlayBook", "/apad"];
    const MOBILE_TOKENS: [&str; 7] = ["Mobi", "iPhone", "iPod", "Opera Mini", "MIDP", "Windows Phone", "Lumia"];
    if ua.is_empty() {
        return "";
    }
    if os == "Android" && android_desktop(ua) {
        return "desktop";
    }
    if TABLET_TOKENS.iter().any(|t| ua.contains(t)) {
        return "tablet";
    }
    match os {
        "Android" if android_tablet_model(ua) => "tablet",
        "Android" if ua.contains("Mobile") || android_foldable(ua) => "mobile",
        "Android" => "tablet",
        "iOS" => "mobile",
        _ if MOBILE_TOKENS.iter().any(|t| ua.contains(t)) => "mobile",
        _ => "desktop",
    }
}

/// The model in an Android UA: the part of its parenthesis after the Android version ("SM-T225N").
fn android_model(ua: &str) -> &str {
    let Some(start) = ua.find("Android") else { return "" };
    let rest = &ua[start..];
    let rest = &rest[..rest.find(')').unwrap_or(rest.len())];
    let model = rest.split(';').nth(1).unwrap_or("").trim();
    // "en-us; Nexus 7" and "arm_64; Android 11; SM-T220": skip a locale or an ABI before the model.
    let model = if model.len() <= 6 && model.contains('-') && !model.chars().any(|c| c.is_ascii_digit()) {
        rest.split(';').nth(2).unwrap_or("").trim()
    } else {
        model
    };
    model.split(" Build").next().unwrap_or(model)
}

/// Android laptops and all-in-ones: Chromebooks and the PC lines that run Android apps.
fn android_desktop(ua: &str) -> bool {
    const DESKTOPS: [&str; 9] =
        ["Chromebook", "Pixelbook", "Inspiron", "Vostro", "TravelMate", "Latitude", "ThinkPad", "AIO", " PC"];
    let model = android_model(ua);
    DESKTOPS.iter().any(|d| model.contains(d))
}

/// Tablets whose browser still says "Mobile": by the model's series (Samsung Galaxy Tab SM-T/SM-X/SM-P and
/// GT-P, Lenovo TB, Huawei AGS and BAH, Amazon's KF, BQ's 7 to 10 inch lines) or a word in the model ("Pad",
/// "Tab").
fn android_tablet_model(ua: &str) -> bool {
    const PREFIXES: [&str; 18] = [
        "SM-T",
        "SM-X",
        "SM-P",
        "GT-P",
        "GT-N5",
        "TB-",
        "TB2-",
        "TB3-",
        "Lenovo TB",
        "KF",
        "AGS",
        "BAH",
        "MID",
        "Nexus 7",
        "BQ-7",
        "BQ-8",
        "BQ-10",
        "BQru-7",
    ];
    const WORDS: [&str; 6] = ["Pad", "PAD", "Tab", "TAB", "Nexus 9", "Nexus 10"];
    let model = android_model(ua);
    PREFIXES.iter().any(|p| model.starts_with(p)) || WORDS.iter().any(|w| model.contains(w))
}

/// Samsung's foldable phones send no "Mobile" (their browser asks for the desktop-width layout).
fn android_foldable(ua: &str) -> bool {
    android_model(ua).starts_with("SM-F")
}

fn truncate(s: &str, max: usize) -> &str {
    if s.len() <= max {
        return s;
    }
    let mut end = max;
    while !s.is_char_boundary(end) {
        end -= 1;
    }
    &s[..end]
}

/// A two-generation cache: new entries go into `hot`; when it fills, it becomes `cold` and the old
/// `cold` is dropped. Entries read from `cold` move back to `hot`. Bounded like an LRU without one's
/// bookkeeping or a dependency.
#[derive(Default)]
struct Cache {
    hot: HashMap<Box<str>, Arc<UserAgentInfo>>,
    cold: HashMap<Box<str>, Arc<UserAgentInfo>>,
}

impl Cache {
    fn get(&mut self, key: &str) -> Option<Arc<UserAgentInfo>> {
        if let Some(v) = self.hot.get(key) {
            return Some(v.clone());
        }
        let (k, v) = self.cold.remove_entry(key)?;
        self.insert_boxed(k, v.clone());
        Some(v)
    }

    fn insert(&mut self, key: &str, value: Arc<UserAgentInfo>) {
        self.insert_boxed(key.into(), value);
    }

    fn insert_boxed(&mut self, key: Box<str>, value: Arc<UserAgentInfo>) {
        if self.hot.len() >= CACHE_CAPACITY / 2 {
            self.cold = std::mem::take(&mut self.hot);
        }
        self.hot.insert(key, value);
    }

    #[cfg(test)]
    fn len(&self) -> usize {
        self.hot.len() + self.cold.len()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cache_stays_bounded_and_keeps_recent_entries() {
        let mut cache = Cache::default();
        let info = Arc::new(UserAgentInfo::default());
        for i in 0..CACHE_CAPACITY * 3 {
            cache.insert(&format!("ua {i}"), info.clone());
            assert!(cache.len() <= CACHE_CAPACITY);
        }
        let last = format!("ua {}", CACHE_CAPACITY * 3 - 1);
        assert!(cache.get(&last).is_some());
        assert!(cache.get("ua 0").is_none());
    }

    #[test]
    fn truncates_on_char_boundaries() {
        assert_eq!(truncate("héllo", 2), "h");
        assert_eq!(truncate("héllo", 3), "hé");
        assert_eq!(truncate("abc", 10), "abc");
    }
}
