//! GoatCounter's CSV export (format version 2, usually gzipped): one row per hit with the columns
//! `Path, Title, Event, UserAgent, Browser, System, Session, Bot, Referrer, Referrer scheme, Screen size,
//! Location, FirstVisit, Date`, the format version written before the first column's name (`2Path`).

use std::path::Path;

use super::files::{Columns, capped, csv_reader, for_each_row, headers, open_maybe_gz, parse_time};
use super::{ImportOptions, ImportedHit, Parsed, Source};
use crate::error::{Error, Result};
use crate::ingest::hit::MAX_URL_LEN;

const REQUIRED: [&str; 4] = ["path", "event", "session", "date"];

pub(super) fn parse(path: &Path, options: ImportOptions, progress: &dyn Fn(u64)) -> Result<Parsed> {
    let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    let mut reader = csv_reader(open_maybe_gz(path, progress)?);
    let mut header = headers(&mut reader, &file)?;
    if let Some(first) = header.get(0) {
        let version: String = first.chars().take_while(char::is_ascii_digit).collect();
        if !version.is_empty() && version != "2" {
            return Err(Error::invalid(format!(
                "{file} is a GoatCounter export of format version {version}; this reads version 2 (GoatCounter 2.0 \
                 and later): export again from a current GoatCounter"
            )));
        }
        let mut fixed: Vec<String> = header.iter().map(str::to_string).collect();
        fixed[0] = first[version.len()..].to_string();
        header = csv::StringRecord::from(fixed);
        reader.set_headers(header.clone());
    }
    let cols = Columns::new(&header, &REQUIRED, &file, Source::Goatcounter)?;
    let mut parsed = Parsed::new(options)?;
    for_each_row(&mut reader, &file, &mut parsed, |row, parsed| {
        let get = |name: &str| cols.get(row, name);
        let ts = parse_time(get("date")).ok_or_else(|| format!("Date: not a time: '{}'", get("date")))?;
        let event = match get("event").to_ascii_lowercase().as_str() {
            "true" | "1" => true,
            "false" | "0" | "" => false,
            other => return Err(format!("Event must be true or false, not '{other}'")),
        };
        match get("bot") {
            "" | "0" => {}
            b if b.parse::<i64>().is_ok() => {
                // GoatCounter's own bot verdict; tracker does not count bots either.
                parsed.ignored += 1;
                return Ok(());
            }
            other => return Err(format!("Bot must be a number, not '{other}'")),
        }
        let raw_path = get("path");
        if raw_path.is_empty() {
            return Err("Path is empty".into());
        }
        let path = if raw_path.starts_with('/') {
            capped(raw_path, MAX_URL_LEN)
        } else {
            format!("/{}", capped(raw_path, MAX_URL_LEN))
        };
        let line = row.position().map(|p| p.line()).unwrap_or(0);
        let session = match get("session") {
            // A hit without a session is a visit of its own.
            "" => format!("line-{line}"),
            s => s.to_string(),
        };
        let (referrer, referrer_host, utm_source) = referral(get("referrer"), get("referrer scheme"));
        let (country, region) = match get("location").split_once('-') {
            Some((c, r)) => (c.to_string(), r.to_string()),
            None => (get("location").to_string(), String::new()),
        };
        let os = os(get("system"));
        parsed.rows += 1;
        parsed.staging.hit(ImportedHit {
            visit: session.clone(),
            visitor: session,
            ts,
            // GoatCounter keeps an event's name in its path.
            event: event.then(|| capped(raw_path.trim_start_matches('/'), 200)),
            url: path.clone(),
            path,
            referrer,
            referrer_host,
            country: capped(&country.to_ascii_uppercase(), 2),
            region: capped(&region, 10),
            device: device(&os).to_string(),
            browser: name_without_version(get("browser")),
            os,
            utm_source,
            screen: screen(get("screen size")),
            ..ImportedHit::default()
        });
        Ok(())
    })?;
    Ok(parsed)
}

/// The referrer, its host and a campaign, by GoatCounter's referrer scheme: `h` a URL without its scheme, `g`
/// a name GoatCounter generated (e.g. "Google"), `c` a campaign (`?ref=`, utm_source), `o` anything else.
fn referral(referrer: &str, scheme: &str) -> (String, String, String) {
    match (referrer, scheme) {
        ("", _) => Default::default(),
        (r, "c") => (String::new(), String::new(), capped(r, 200)),
        (r, "h") => {
            let url = capped(
                &format!("https://{}", r.trim_start_matches("https://").trim_start_matches("http://")),
                MAX_URL_LEN,
            );
            let host = super::files::referrer_host(&url);
            (url, host, String::new())
        }
        (r, _) => (capped(r, MAX_URL_LEN), capped(r, 200), String::new()),
    }
}

/// "Chrome 120" → "Chrome": the words before the first that starts with a digit.
fn name_without_version(s: &str) -> String {
    let words: Vec<&str> = s.split_whitespace().take_while(|w| !w.starts_with(|c: char| c.is_ascii_digit())).collect();
    capped(&words.join(" "), 50)
}

/// GoatCounter's system names ("Windows 10", "macOS 14.1", "iOS 17") as tracker's operating systems.
fn os(system: &str) -> String {
    let name = name_without_version(system);
    match name.as_str() {
        "Mac OS X" | "Mac OS" | "OS X" => "macOS".into(),
        "Chrome OS" => "ChromeOS".into(),
        _ => name,
    }
}

/// The device class from the system: phones' systems are mobile, any other known system desktop.
fn device(os: &str) -> &'static str {
    match os {
        "" => "",
        "iOS" | "Android" => "mobile",
        "iPadOS" => "tablet",
        _ => "desktop",
    }
}

/// "1920,1080,2" (width, height, pixel ratio) → "1920x1080".
fn screen(size: &str) -> String {
    let mut parts = size.split(',').map(str::trim);
    match (parts.next(), parts.next()) {
        (Some(w), Some(h)) if !w.is_empty() && !h.is_empty() => capped(&format!("{w}x{h}"), 20),
        _ => String::new(),
    }
}
