//! Realistic synthetic visitors: landing page with referrer and UTM, then a few page views of one session,
//! from varied public IPs and user agents. Shared by the HTTP load, the storage ceiling and the seeder.

use std::net::{IpAddr, Ipv4Addr};

use rand::Rng;
use rand::rngs::SmallRng;

const PAGES: &[&str] = &[
    "/",
    "/pricing",
    "/features",
    "/blog",
    "/blog/launch",
    "/blog/sqlite-at-scale",
    "/blog/privacy-first",
    "/docs",
    "/docs/install",
    "/docs/api",
    "/docs/tracking-script",
    "/about",
    "/contact",
    "/careers",
    "/signup",
    "/login",
    "/changelog",
    "/integrations",
    "/customers",
    "/security",
];

const REFERRERS: &[&str] = &[
    "",
    "",
    "",
    "https://www.google.com/search?q=analytics",
    "https://duckduckgo.com/",
    "https://news.ycombinator.com/item?id=1",
    "https://www.reddit.com/r/selfhosted/",
    "https://twitter.com/someone/status/1",
    "https://github.com/explore",
    "https://www.bing.com/search?q=tracker",
    "https://lobste.rs/",
    "https://dev.to/top/week",
];

const UTM: &[&str] = &[
    "",
    "",
    "",
    "",
    "?utm_source=newsletter&utm_medium=email&utm_campaign=spring",
    "?utm_source=twitter&utm_medium=social",
    "?utm_source=google&utm_medium=cpc&utm_campaign=brand&utm_term=analytics",
];

const USER_AGENTS: &[&str] = &[
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36",
    "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Safari/605.1.15",
    "Mozilla/5.0 (iPhone; CPU iPhone OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Mobile Safari/537.36",
    "Mozilla/5.0 (X11; Linux x86_64; rv:125.0) Gecko/20100101 Firefox/125.0",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:125.0) Gecko/20100101 Firefox/125.0",
    "Mozilla/5.0 (iPad; CPU OS 17_4 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.4 Mobile/15E148 Safari/604.1",
    "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/124.0.0.0 Safari/537.36 Edg/124.0.0.0",
    "Mozilla/5.0 (Linux; Android 13; SM-S911B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/24.0 Chrome/117.0.0.0 Mobile Safari/537.36",
];

/// First octets of public IPv4 blocks spread over several countries.
const FIRST_OCTETS: &[u8] =
    &[3, 5, 8, 13, 18, 23, 31, 37, 45, 51, 62, 77, 81, 89, 93, 104, 109, 128, 141, 151, 176, 185, 195, 203, 212];

/// One visit: who, from where, and the page views still to send.
pub struct Visitor {
    pub session_id: String,
    pub ip: IpAddr,
    pub user_agent: &'static str,
    referrer: &'static str,
    utm: &'static str,
    sent: u32,
    pages: u32,
}

/// One tracking hit of a visitor.
pub struct HitSpec {
    pub session_id: String,
    pub url: String,
    pub referrer: String,
    pub event: Option<&'static str>,
    pub event_name: Option<&'static str>,
}

impl Visitor {
    /// A new visitor planning 1 to 8 page views (mean about 3).
    pub fn new(rng: &mut SmallRng) -> Visitor {
        let ip = Ipv4Addr::new(
            FIRST_OCTETS[rng.random_range(0..FIRST_OCTETS.len())],
            rng.random(),
            rng.random(),
            rng.random_range(1..255),
        );
        let pages = if rng.random_bool(0.4) { 1 } else { rng.random_range(2..=8) };
        Visitor {
            session_id: session_id(rng),
            ip: IpAddr::V4(ip),
            user_agent: USER_AGENTS[rng.random_range(0..USER_AGENTS.len())],
            referrer: REFERRERS[rng.random_range(0..REFERRERS.len())],
            utm: UTM[rng.random_range(0..UTM.len())],
            sent: 0,
            pages,
        }
    }

    /// Whether the visit has sent all its hits.
    pub fn done(&self) -> bool {
        self.sent >= self.pages
    }

    /// The next hit: the landing page carries referrer and UTM; a few visits end in a conversion or event.
    /// `identify` lets some visits identify themselves (stored only by professional-level sites; a light
    /// site answers 202 and drops them, so the HTTP load, which counts stored hits, leaves them out).
    pub fn next_hit(&mut self, rng: &mut SmallRng, identify: bool) -> HitSpec {
        let page = PAGES[rng.random_range(0..PAGES.len())];
        let first = self.sent == 0;
        self.sent += 1;
        let (event, event_name) = match rng.random_range(0..100) {
            0 if !first => (Some("conversion"), Some("signup")),
            1 | 2 if !first => (Some("custom"), Some("cta_click")),
            3 if !first && identify => (Some("identify"), None),
            _ => (None, None),
        };
        HitSpec {
            session_id: self.session_id.clone(),
            url: format!("https://example.com{page}{}", if first { self.utm } else { "" }),
            referrer: if first { self.referrer.to_string() } else { String::new() },
            event,
            event_name,
        }
    }
}

/// A session id made as the tracking script makes it: the start time in base 36, then random digits.
fn session_id(rng: &mut SmallRng) -> String {
    let start = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap_or_default().as_millis();
    format!("{}{}", base36(start as u64), base36(rng.random::<u64>()))
}

fn base36(mut n: u64) -> String {
    let mut digits = Vec::new();
    loop {
        digits.push(char::from_digit((n % 36) as u32, 36).unwrap_or('0'));
        n /= 36;
        if n == 0 {
            break;
        }
    }
    digits.iter().rev().collect()
}

impl HitSpec {
    /// The JSON body of `POST /api/track`.
    pub fn body(&self, tracking_key: &str) -> String {
        let mut body = serde_json::json!({
            "tracking_key": tracking_key,
            "session_id": self.session_id,
            "url": self.url,
            "referrer": self.referrer,
            "screen": "1920x1080",
        });
        if let Some(event) = self.event {
            body["event"] = event.into();
            body["event_name"] = self.event_name.unwrap_or_default().into();
        }
        if self.event == Some("identify") {
            body["event_properties"] = serde_json::json!({"company": "Acme Corp", "industry": "Software"});
        }
        body.to_string()
    }
}
