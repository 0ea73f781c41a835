//! Umami's event export: one CSV row per `website_event` with its session's columns (website_id, session_id,
//! visit_id, event_id, hostname, browser, os, device, screen, language, country, region, city, url_path,
//! url_query, utm_source ... utm_term, referrer_path, referrer_query, referrer_domain, page_title, ...,
//! event_type (1 = page view, 2 = custom event), event_name, ..., created_at in UTC).

use std::path::Path;

use super::files::{Columns, capped, csv_reader, for_each_row, headers, open_maybe_gz, parse_time, utm_of_query};
use super::{ImportOptions, ImportedHit, Parsed, Source};
use crate::error::Result;
use crate::ingest::hit::MAX_URL_LEN;

const REQUIRED: [&str; 4] = ["session_id", "created_at", "url_path", "event_type"];

pub(super) fn parse(path: &Path, options: ImportOptions, progress: &dyn Fn(u64)) -> Result<Parsed> {
    let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut reader = csv_reader(open_maybe_gz(path, progress)?);
    let cols = Columns::new(&headers(&mut reader, &file)?, &REQUIRED, &file, Source::Umami)?;
    let mut parsed = Parsed::new(options)?;
    for_each_row(&mut reader, &file, &mut parsed, |row, parsed| {
        let get = |name: &str| cols.get(row, name);
        let session = get("session_id");
        if session.is_empty() {
            return Err("session_id is empty".into());
        }
        let ts =
            parse_time(get("created_at")).ok_or_else(|| format!("created_at: not a time: '{}'", get("created_at")))?;
        let event = match get("event_type") {
            "1" => None,
            "2" => Some(capped(get("event_name"), 200)),
            other => return Err(format!("event_type must be 1 (page view) or 2 (event), not '{other}'")),
        };
        let path = match get("url_path") {
            "" => "/".to_string(),
            p if p.starts_with('/') => capped(p, MAX_URL_LEN),
            p => format!("/{}", capped(p, MAX_URL_LEN)),
        };
        let host = get("hostname").to_ascii_lowercase();
        let query = get("url_query").trim_start_matches('?');
        let url = format!("https://{host}{path}{}{query}", if query.is_empty() { "" } else { "?" });
        let (mut utm_source, mut utm_medium, mut utm_campaign) = utm_of_query(query);
        for (column, value) in
            [("utm_source", &mut utm_source), ("utm_medium", &mut utm_medium), ("utm_campaign", &mut utm_campaign)]
        {
            if !get(column).is_empty() {
                *value = capped(get(column), 200);
            }
        }
        let domain = get("referrer_domain").trim_start_matches("www.").to_ascii_lowercase();
        // Navigation inside the site is not a referral (Umami stores the site's own domain too).
        let referrer_host = if domain == host.trim_start_matches("www.") { String::new() } else { domain };
        let referrer = match referrer_host.as_str() {
            "" => String::new(),
            h => capped(&format!("https://{h}{}", get("referrer_path")), MAX_URL_LEN),
        };
        let visit = match get("visit_id") {
            "" => session.to_string(),
            v => v.to_string(),
        };
        if parsed.umami_website_id.is_none() && !get("website_id").is_empty() {
            parsed.umami_website_id = Some(get("website_id").to_string());
        }
        parsed.rows += 1;
        parsed.staging.hit(ImportedHit {
            visit,
            visitor: session.to_string(),
            ts,
            event,
            url: capped(&url, MAX_URL_LEN),
            path,
            referrer,
            referrer_host,
            country: capped(&get("country").to_ascii_uppercase(), 2),
            region: capped(get("region"), 10),
            city: capped(get("city"), 100),
            device: device(get("device")).to_string(),
            browser: browser(get("browser")),
            os: os(get("os")),
            utm_source,
            utm_medium,
            utm_campaign,
            screen: capped(get("screen"), 20),
        });
        Ok(())
    })?;
    Ok(parsed)
}

/// Umami's device classes as tracker's (desktop, mobile, tablet).
fn device(umami: &str) -> &'static str {
    match umami.to_ascii_lowercase().as_str() {
        "desktop" | "laptop" => "desktop",
        "mobile" => "mobile",
        "tablet" => "tablet",
        _ => "",
    }
}

/// Umami's browser ids (from the `detect-browser` package) as the names tracker's user-agent parser gives.
fn browser(umami: &str) -> String {
    let name = match umami.to_ascii_lowercase().as_str() {
        "" => "",
        "chrome" | "crios" | "chromium-webview" => "Chrome",
        "firefox" | "fxios" => "Firefox",
        "safari" | "ios" | "ios-webview" => "Safari",
        "edge" | "edge-chromium" | "edge-ios" => "Edge",
        "opera" | "opera-mini" => "Opera",
        "samsung" => "Samsung Internet",
        "yandexbrowser" => "Yandex Browser",
        "facebook" => "Facebook",
        "instagram" => "Instagram",
        _ => return capped(umami, 50),
    };
    name.to_string()
}

/// Umami's operating system names as tracker's.
fn os(umami: &str) -> String {
    let lower = umami.to_ascii_lowercase();
    let name = match lower.as_str() {
        "" => "",
        "mac os" => "macOS",
        "ios" => "iOS",
        "android os" => "Android",
        "linux" => "Linux",
        "chrome os" => "ChromeOS",
        _ if lower.starts_with("windows") => "Windows",
        _ => return capped(umami, 50),
    };
    name.to_string()
}
