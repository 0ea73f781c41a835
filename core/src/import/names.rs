//! The names other tools give browsers, systems and device classes, as tracker's user-agent parser names them
//! (`ingest::enrich::user_agent`): one table for every import, so an imported visit and a tracked one of the
//! same browser are one row. Keys are the names Plausible CE writes (its UA parser's, e.g. "Microsoft Edge",
//! "Yandex Browser", "Mac", "GNU/Linux"), the ids Umami stores (the `detect-browser` package's, e.g.
//! "edge-chromium", "silk", "Android OS") and GoatCounter's names without their version ("Chrome 120" is
//! looked up as "Chrome"). The test reads real user agents with the parser and checks every mapping against
//! its output.

use super::files::capped;

/// (lower-case name as another tool writes it, the parser's name).
const BROWSERS: &[(&str, &str)] = &[
    ("chrome", "Chrome"),
    ("crios", "Chrome"),
    ("chrome mobile", "Chrome"),
    ("chrome mobile ios", "Chrome"),
    ("chromium-webview", "Chrome WebView"),
    ("chrome webview", "Chrome WebView"),
    ("firefox", "Firefox"),
    ("fxios", "Firefox"),
    ("firefox mobile", "Firefox"),
    ("firefox ios", "Firefox"),
    ("safari", "Safari"),
    ("mobile safari", "Safari"),
    ("ios", "Safari"),
    ("ios-webview", "Safari WebView"),
    ("safari webview", "Safari WebView"),
    ("edge", "Edge"),
    ("edge-chromium", "Edge"),
    ("edge-ios", "Edge"),
    ("microsoft edge", "Edge"),
    ("opera", "Opera"),
    ("opera-mini", "Opera Mini"),
    ("opera mini", "Opera Mini"),
    ("samsung", "Samsung Internet"),
    ("samsung internet", "Samsung Internet"),
    ("samsung browser", "Samsung Internet"),
    ("yandexbrowser", "Yandex"),
    ("yandex browser", "Yandex"),
    ("yandex", "Yandex"),
    ("silk", "Amazon Silk"),
    ("amazon silk", "Amazon Silk"),
    ("ie", "IE"),
    ("internet explorer", "IE"),
    ("msie", "IE"),
    ("facebook", "Facebook"),
    ("instagram", "Instagram"),
];

/// (lower-case name as another tool writes it, the parser's name).
const SYSTEMS: &[(&str, &str)] = &[
    ("mac", "macOS"),
    ("mac os", "macOS"),
    ("mac os x", "macOS"),
    ("os x", "macOS"),
    ("macos", "macOS"),
    ("ios", "iOS"),
    ("ipados", "iOS"),
    ("android", "Android"),
    ("android os", "Android"),
    ("windows", "Windows"),
    ("linux", "Linux"),
    ("gnu/linux", "Linux"),
    ("ubuntu", "Ubuntu"),
    ("chrome os", "ChromeOS"),
    ("chromeos", "ChromeOS"),
];

/// A browser's name as the parser gives it; names the table does not know are kept (at most 50 characters).
pub(super) fn browser(name: &str) -> String {
    look_up(BROWSERS, name).unwrap_or_else(|| capped(name.trim(), 50))
}

/// A system's name as the parser gives it: Umami's "Windows 10" and "Windows 7" are the parser's "Windows"
/// (which keeps the version apart, phones' systems aside); unknown names are kept (at most 50 characters).
pub(super) fn os(name: &str) -> String {
    let name = name.trim();
    let lower = name.to_ascii_lowercase();
    if lower.starts_with("windows") && !lower.starts_with("windows phone") && !lower.starts_with("windows mobile") {
        return "Windows".into();
    }
    look_up(SYSTEMS, name).unwrap_or_else(|| capped(name, 50))
}

/// A device class as tracker's (desktop, mobile, tablet): Plausible's and Umami's `Laptop` (a screen width
/// class of theirs) is a desktop, as the parser counts every laptop; unknown classes are ''.
pub(super) fn device(class: &str) -> &'static str {
    match class.trim().to_ascii_lowercase().as_str() {
        "desktop" | "laptop" => "desktop",
        "mobile" => "mobile",
        "tablet" => "tablet",
        _ => "",
    }
}

fn look_up(table: &[(&str, &str)], name: &str) -> Option<String> {
    let lower = name.trim().to_ascii_lowercase();
    if lower.is_empty() {
        return Some(String::new());
    }
    table.iter().find(|(k, _)| *k == lower).map(|(_, v)| v.to_string())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ingest::enrich::Enricher;

    /// Real user agents, with the names other tools give what they send: each must map to the name the
    /// parser reads from the user agent.
    const BROWSER_CASES: &[(&str, &[&str])] = &[
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 \
             Safari/537.36",
            &["Chrome", "chrome", "CriOS", "Chrome Mobile"],
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 \
             YaBrowser/24.1.0.0 Safari/537.36",
            &["Yandex Browser", "yandexbrowser", "Yandex"],
        ),
        (
            "Mozilla/5.0 (Linux; Android 9; KFTRWI) AppleWebKit/537.36 (KHTML, like Gecko) Silk/119.3.1 \
             like Chrome/119.0.6045.193 Safari/537.36",
            &["silk", "Amazon Silk"],
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 \
             Safari/537.36 Edg/120.0.2210.91",
            &["Microsoft Edge", "edge-chromium", "Edge"],
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) \
             Version/17.2 Mobile/15E148 Safari/604.1",
            &["Safari", "Mobile Safari", "ios"],
        ),
        ("Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", &["Firefox", "fxios"]),
        (
            "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) \
             SamsungBrowser/23.0 Chrome/115.0.0.0 Mobile Safari/537.36",
            &["samsung", "Samsung Internet"],
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 \
             Safari/537.36 OPR/106.0.0.0",
            &["Opera", "opera"],
        ),
        ("Mozilla/5.0 (Windows NT 10.0; WOW64; Trident/7.0; rv:11.0) like Gecko", &["ie", "Internet Explorer"]),
        (
            "Mozilla/5.0 (Linux; Android 13; Pixel 7 Build/TQ3A.230805.001; wv) AppleWebKit/537.36 (KHTML, like \
             Gecko) Version/4.0 Chrome/119.0.6045.163 Mobile Safari/537.36",
            &["chromium-webview", "Chrome WebView"],
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) \
             Mobile/15E148",
            &["ios-webview", "Safari WebView"],
        ),
        (
            "Opera/9.80 (Android; Opera Mini/36.2.2254/119.132; U; id) Presto/2.12.423 Version/12.16",
            &["opera-mini", "Opera Mini"],
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) \
             Mobile/15E148 [FBAN/FBIOS;FBAV/442.0.0.38.107;FBBV/541436478;FBDV/iPhone14,5;FBMD/iPhone;FBSN/iOS;\
             FBSV/17.1;FBSS/3;FBID/phone;FBLC/en_US;FBOP/5]",
            &["facebook"],
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_1 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) \
             Mobile/15E148 Instagram 307.0.0.34.111 (iPhone14,5; iOS 17_1; en_US; en; scale=3.00; 1170x2532; \
             532277078)",
            &["instagram"],
        ),
    ];

    const SYSTEM_CASES: &[(&str, &[&str])] = &[
        (
            "Mozilla/5.0 (Macintosh; Intel Mac OS X 10_15_7) AppleWebKit/605.1.15 (KHTML, like Gecko) \
             Version/17.2 Safari/605.1.15",
            &["Mac", "Mac OS", "macOS"],
        ),
        (
            "Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 \
             Safari/537.36",
            &["Windows", "Windows 10", "windows 7"],
        ),
        ("Mozilla/5.0 (X11; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", &["GNU/Linux", "Linux"]),
        (
            "Mozilla/5.0 (Linux; Android 14; SM-S918B) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 \
             Mobile Safari/537.36",
            &["Android", "Android OS"],
        ),
        (
            "Mozilla/5.0 (iPhone; CPU iPhone OS 17_2 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) \
             Version/17.2 Mobile/15E148 Safari/604.1",
            &["iOS"],
        ),
        (
            "Mozilla/5.0 (X11; CrOS x86_64 14541.0.0) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/120.0.0.0 \
             Safari/537.36",
            &["Chrome OS", "ChromeOS"],
        ),
        ("Mozilla/5.0 (X11; Ubuntu; Linux x86_64; rv:133.0) Gecko/20100101 Firefox/133.0", &["Ubuntu", "ubuntu"]),
    ];

    #[test]
    fn imported_names_are_the_user_agent_parsers() {
        let enricher = Enricher::new().unwrap();
        for (ua, names) in BROWSER_CASES {
            let parsed = enricher.user_agent(ua).browser.clone();
            assert!(!parsed.is_empty(), "{ua}");
            for name in *names {
                assert_eq!(browser(name), parsed, "browser {name}");
            }
        }
        for (ua, names) in SYSTEM_CASES {
            let parsed = enricher.user_agent(ua).os.clone();
            for name in *names {
                assert_eq!(os(name), parsed, "system {name}");
            }
        }
        // Every name the tables map to is the parser's for one of the user agents above: no mapping can
        // drift to a name no tracked hit has.
        let parsed: Vec<String> = BROWSER_CASES
            .iter()
            .chain(SYSTEM_CASES)
            .flat_map(|(ua, _)| {
                let info = enricher.user_agent(ua);
                [info.browser.clone(), info.os.clone()]
            })
            .collect();
        for (raw, name) in BROWSERS.iter().chain(SYSTEMS) {
            assert!(parsed.iter().any(|p| p == name), "{raw} maps to {name}, which no user agent here parses to");
        }
        assert_eq!(device("Laptop"), "desktop");
    }
}
