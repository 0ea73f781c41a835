//! Umami's event export: one CSV row per `website_event` with its session's columns (website_id, session_id,
//! visit_id, event_id, hostname, browser, os, device, screen, language, country, region, city, url_path,
//! url_query, utm_source ... utm_term, referrer_path, referrer_query, referrer_domain, page_title, ...,
//! event_type (1 = page view, 2 = custom event, 3 = link, 4 = pixel, 5 = performance), event_name, ...,
//! created_at in UTC as its CSV writes it, or with an offset as psql prints a `timestamptz`).

use std::path::Path;

use super::files::{
    Columns, capped, csv_reader, for_each_row, headers, is_zip, open_maybe_gz, open_zip, parse_time, utm_of_query,
};
use super::{ImportOptions, ImportedHit, Parsed, Source, names};
use crate::error::{Error, Result};
use crate::ingest::hit::{MAX_URL_LEN, path_as_tracked};

const REQUIRED: [&str; 4] = ["session_id", "created_at", "url_path", "event_type"];

pub(super) fn parse(path: &Path, options: ImportOptions, progress: &dyn Fn(u64)) -> Result<Parsed> {
    let file = path.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
    if is_zip(path)? {
        return Err(refuse_zip(path, &file));
    }
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
            // Umami's own short links and tracking pixels (their hits are no visits to the site) and its
            // web-vitals measurements: tracker has nothing of theirs to count.
            kind @ ("3" | "4" | "5") => {
                parsed.ignore(
                    match kind {
                        "3" => "Umami link clicks (its short links)",
                        "4" => "Umami pixel hits (its tracking pixels)",
                        _ => "Umami performance measurements (web vitals)",
                    },
                    1,
                );
                return Ok(());
            }
            other => {
                return Err(format!(
                    "event_type must be 1 (page view), 2 (event), 3 (link), 4 (pixel) or 5 (performance), not '{other}'"
                ));
            }
        };
        // Umami keeps the fragment of hash-routed pages in url_path; tracked hits drop it.
        let path = path_as_tracked(get("url_path"));
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
            device: names::device(get("device")).to_string(),
            browser: names::browser(get("browser")),
            os: names::os(get("os")),
            utm_source,
            utm_medium,
            utm_campaign,
            screen: capped(get("screen"), 20),
        });
        Ok(())
    })?;
    Ok(parsed)
}

/// Why a zip is no Umami event export. The zip Umami's dashboard Export button writes holds summary tables
/// (`pages.csv`, `referrers.csv`, `browsers.csv`, ... of `x,y` rows: a value and its count over the whole
/// date range chosen), which have no days to spread the counts over: it is named for what it is.
fn refuse_zip(path: &Path, file: &str) -> Error {
    const DASHBOARD_EXPORT: [&str; 7] =
        ["events.csv", "pages.csv", "referrers.csv", "browsers.csv", "os.csv", "devices.csv", "countries.csv"];
    let names: Vec<String> = match open_zip(path) {
        Ok(mut zip) => (0..zip.len())
            .filter_map(|i| zip.by_index(i).ok().and_then(|e| e.name().ok().map(|n| n.into_owned())))
            .collect(),
        Err(e) => return e,
    };
    if names.iter().any(|n| DASHBOARD_EXPORT.contains(&n.rsplit('/').next().unwrap_or(n))) {
        return Error::invalid(format!(
            "{file} is Umami's dashboard Export (summary tables: each page, referrer, browser... with its count \
             over the whole date range, without days), which cannot become daily history. Import Umami's events \
             instead: the website_event table joined with its session, as CSV (see README, Importing from \
             another tool)"
        ));
    }
    Error::invalid(format!("{file} is a zip archive, not Umami's events CSV: give the CSV, plain or gzipped"))
}
