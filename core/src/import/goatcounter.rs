//! GoatCounter's CSV export (format version 2, usually gzipped): one row per hit with the columns
//! `Path, Title, Event, UserAgent, Browser, System, Session, Bot, Referrer, Referrer scheme, Screen size,
//! Location, FirstVisit, Date`, the format version written before the first column's name (`2Path`).
//! `UserAgent` holds the visitor's User-Agent header in exports of GoatCounter versions that stored it (blank
//! since): where it is there, browser, system and device class come from tracker's own user-agent parser, so
//! they read exactly as tracked hits' do; else from the `Browser` and `System` columns.

use std::path::Path;

use super::files::{Columns, capped, csv_reader, for_each_row, headers, open_maybe_gz, parse_time};
use super::{ImportOptions, ImportedHit, Parsed, Source, names};
use crate::error::{Error, Result};
use crate::ingest::enrich::{Enricher, UserAgentInfo};
use crate::ingest::hit::{MAX_URL_LEN, path_as_tracked};

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
    // Built on the first row with a user agent: most exports have none.
    let agents: std::cell::OnceCell<Option<Enricher>> = std::cell::OnceCell::new();
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
                parsed.ignore("bots (as GoatCounter flagged them)", 1);
                return Ok(());
            }
            other => return Err(format!("Bot must be a number, not '{other}'")),
        }
        let raw_path = get("path");
        if raw_path.is_empty() {
            return Err("Path is empty".into());
        }
        // GoatCounter keeps the query of a page's path; tracked pages drop it.
        let path = path_as_tracked(raw_path);
        let line = row.position().map(|p| p.line()).unwrap_or(0);
        let session = match get("session") {
            // A hit without a session ('' or GoatCounter's zero id `0-0`, written when it made none: hits of
            // bots it let through, of visitors it could not tell apart) belongs to no other hit: it is a visit
            // and a visitor of its own. (Grouping them by browser and day would merge every visitor of the
            // same browser into one; GoatCounter itself counts such a hit as a visit when it is a first visit.)
            s if s.is_empty() || s.bytes().all(|b| b == b'0' || b == b'-') => format!("line-{line}"),
            s => s.to_string(),
        };
        let (referrer, referrer_host, utm_source) = referral(get("referrer"), get("referrer scheme"));
        let (country, region) = match get("location").split_once('-') {
            Some((c, r)) => (c.to_string(), r.to_string()),
            None => (get("location").to_string(), String::new()),
        };
        let agent = match get("useragent").trim() {
            "" => None,
            header => agents.get_or_init(|| Enricher::new().ok()).as_ref().map(|e| e.user_agent(header)),
        };
        let (browser, os, device) = match agent.as_deref() {
            Some(UserAgentInfo { browser, os, device, .. }) if !browser.is_empty() || !os.is_empty() => {
                (browser.clone(), os.clone(), device.clone())
            }
            _ => {
                let system = name_without_version(get("system"));
                let os = names::os(&system);
                let device = device(&system, &os).to_string();
                (names::browser(&name_without_version(get("browser"))), os, device)
            }
        };
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
            device,
            browser,
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

/// The device class from the system (as GoatCounter names it, and as the parser does): phones' systems are
/// mobile, iPadOS a tablet, any other known system desktop.
fn device(system: &str, os: &str) -> &'static str {
    match os {
        "" => "",
        _ if system.eq_ignore_ascii_case("ipados") => "tablet",
        "iOS" | "Android" => "mobile",
        _ => "desktop",
    }
}

/// "1920,1080,2" (width, height, pixel ratio) → "1920x1080", as tracked screens are stored. GoatCounter
/// versions that keep only the width write "1920,0,1" (or "1920"): stored as "1920", the width alone, since a
/// screen breakdown lists the stored text and "1920x0" would read as a screen with no height.
fn screen(size: &str) -> String {
    let mut parts = size.split(',').map(str::trim).map(|v| v.parse::<u32>().ok().filter(|n| *n > 0));
    match (parts.next().flatten(), parts.next().flatten()) {
        (Some(w), Some(h)) => format!("{w}x{h}"),
        (Some(w), None) => w.to_string(),
        _ => String::new(),
    }
}
