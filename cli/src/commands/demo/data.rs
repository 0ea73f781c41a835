//! What the demo's traffic is made of: pages, sources, campaigns, countries, browsers, events, purchases and
//! the organizations of business visitors, each with its share, and a weighted pick among them.

use std::net::IpAddr;

use rand::Rng;

pub(super) const PAGES: &[&str] = &[
    "/",
    "/pricing",
    "/blog",
    "/docs",
    "/features",
    "/blog/launch-week",
    "/signup",
    "/docs/getting-started",
    "/about",
    "/blog/privacy-first-analytics",
    "/contact",
    "/docs/api",
    "/blog/self-hosting-guide",
    "/customers",
    "/changelog",
    "/docs/tracking-script",
    "/careers",
    "/blog/sqlite-at-scale",
    "/integrations",
    "/docs/events",
    "/security",
    "/blog/core-web-vitals",
    "/legal/privacy",
    "/docs/faq",
    "/legal/terms",
    "/blog/utm-campaigns",
    "/partners",
    "/docs/retention",
    "/status",
    "/blog/2025-in-review",
];

pub(super) const REFERRERS: &[(&str, f64)] = &[
    ("", 40.0),
    ("https://www.google.com/", 24.0),
    ("https://www.bing.com/", 4.0),
    ("https://duckduckgo.com/", 3.0),
    ("https://t.co/", 4.0),
    ("https://www.facebook.com/", 3.0),
    ("https://www.linkedin.com/feed/", 3.0),
    ("https://www.reddit.com/r/selfhosted/", 3.0),
    ("https://news.ycombinator.com/", 4.0),
    ("https://github.com/", 3.0),
    ("https://www.producthunt.com/", 1.5),
    ("https://search.brave.com/", 1.0),
    ("https://dev.to/", 1.5),
];

/// (utm_source, utm_medium, utm_campaign); chosen for about one visit in ten.
pub(super) const CAMPAIGNS: &[(&str, &str, &str)] = &[
    ("newsletter", "email", "spring_sale"),
    ("twitter", "social", "launch_week"),
    ("google", "cpc", "brand"),
    ("linkedin", "social", "b2b_q2"),
    ("producthunt", "referral", "launch"),
];

pub(super) const COUNTRIES: &[(&str, f64)] = &[
    ("US", 30.0),
    ("DE", 9.0),
    ("GB", 8.0),
    ("FR", 6.0),
    ("IN", 6.0),
    ("CA", 4.0),
    ("NL", 3.0),
    ("BR", 3.0),
    ("JP", 3.0),
    ("ES", 3.0),
    ("IT", 3.0),
    ("AU", 2.5),
    ("SE", 2.0),
    ("PL", 2.0),
    ("CH", 1.5),
    ("MX", 1.5),
    ("KR", 1.5),
    ("SG", 1.0),
    ("IE", 1.0),
    ("AT", 1.0),
    ("BE", 1.0),
    ("DK", 1.0),
    ("NO", 1.0),
    ("FI", 1.0),
    ("ZA", 0.8),
    ("AR", 0.8),
    ("NG", 0.6),
    ("", 1.0),
];

/// Real user agents with their share and screen size.
pub(super) const AGENTS: &[(&str, f64, &str)] = &[
    (
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
        28.0,
        "1920x1080",
    ),
    (
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
        10.0,
        "1440x900",
    ),
    (
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
        8.0,
        "1512x982",
    ),
    (
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
        16.0,
        "393x852",
    ),
    (
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
        12.0,
        "412x915",
    ),
    (
        "Mozilla/5.0 (Linux; Android 14; SAMSUNG SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/26.0 Chrome/122.0.0.0 Mobile Safari/537.36",
        5.0,
        "360x780",
    ),
    ("Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0", 6.0, "1920x1080"),
    ("Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", 3.0, "2560x1440"),
    (
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
        7.0,
        "1536x864",
    ),
    (
        "Mozilla/5.0 (iPad; CPU OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
        3.0,
        "820x1180",
    ),
    (
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
        2.0,
        "1920x1200",
    ),
];

/// Custom events: (name, chance per page view, a property key and its values).
pub(super) const CUSTOM_EVENTS: &[(&str, f64, &str, &[&str])] = &[
    ("cta_click", 0.05, "location", &["header", "hero", "footer"]),
    ("play_video", 0.02, "video", &["intro", "demo", "customer-story"]),
    ("newsletter_subscribe", 0.01, "form", &["footer", "blog"]),
    ("copy_snippet", 0.015, "language", &["html", "react", "vue"]),
];

pub(super) const PURCHASES: &[(f64, &str)] =
    &[(19.0, "USD"), (49.0, "USD"), (99.0, "EUR"), (199.0, "USD"), (9.0, "GBP")];

/// Picks by weight from `(item, weight)` pairs.
pub(super) struct Weighted<T> {
    items: Vec<T>,
    cumulative: Vec<f64>,
}

impl<T: Copy> Weighted<T> {
    pub(super) fn new(pairs: impl IntoIterator<Item = (T, f64)>) -> Weighted<T> {
        let mut items = Vec::new();
        let mut cumulative = Vec::new();
        let mut sum = 0.0;
        for (item, weight) in pairs {
            sum += weight;
            items.push(item);
            cumulative.push(sum);
        }
        Weighted { items, cumulative }
    }

    pub(super) fn pick(&self, rng: &mut impl Rng) -> T {
        let x = rng.random::<f64>() * self.cumulative.last().copied().unwrap_or(0.0);
        let i = self.cumulative.partition_point(|&c| c <= x).min(self.items.len() - 1);
        self.items[i]
    }
}

/// A returning visitor: an address, a browser and a country.
#[derive(Clone, Copy)]
pub(super) struct Visitor {
    pub(super) ip: IpAddr,
    pub(super) agent: usize,
    pub(super) country: &'static str,
    /// The business the visitor works at (professional sites name it), an index into ORGANIZATIONS.
    pub(super) organization: Option<usize>,
}

/// Fictional businesses (names used as examples across the industry) with their industry; their numbers are
/// from the private-use AS range (RFC 6996), so no real network is named.
pub(super) const ORGANIZATIONS: &[(&str, &str, u32)] = &[
    ("Northwind Traders", "Retail", 64_512),
    ("Contoso", "Technology", 64_513),
    ("Fabrikam", "Manufacturing", 64_514),
    ("Globex Corporation", "Energy", 64_515),
    ("Initech", "Software", 64_516),
    ("Tailspin Toys", "Retail", 64_517),
    ("Wide World Importers", "Logistics", 64_518),
    ("Adventure Works", "Outdoor Equipment", 64_519),
    ("Litware", "Software", 64_520),
    ("Woodgrove Bank", "Financial Services", 64_521),
];

/// Share of visitors who browse from a business network (the rest are on home and mobile access).
pub(super) const BUSINESS_SHARE: f64 = 0.08;

/// Share of a professional site's business visits that call `identify({company, industry})`.
pub(super) const IDENTIFY_SHARE: f64 = 0.3;
