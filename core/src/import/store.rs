//! Writing an import in its transaction: per-hit exports as visits (sessions) and events with the rollup
//! counts the ingest writer would have made for them, daily aggregates as rollup rows kept in
//! `imported_rollups` as well.

use std::collections::HashSet;

use rusqlite::{Connection, params};
use sha2::{Digest, Sha256};

use super::{DAY_MS, DayRow, ImportedHit};
use crate::analytics::{Dimension, VisitDims};
use crate::error::Result;
use crate::ingest::writer::rollups::Rollups;
use crate::model::{Millis, WebsiteId};

/// A visit ends after this long without a hit, as tracked visits do.
const SESSION_TIMEOUT_MS: Millis = 30 * 60 * 1000;

/// Stores per-hit rows as visits and events and adds their rollup counts; returns (page views, visits).
pub(super) fn store_hits(
    tx: &Connection,
    site: WebsiteId,
    import: i64,
    mut hits: Vec<ImportedHit>,
) -> Result<(i64, i64)> {
    let domain: String = tx.query_row("SELECT domain FROM websites WHERE id = ?1", [site], |r| r.get(0))?;
    hits.sort_by(|a, b| a.visit.cmp(&b.visit).then(a.ts.cmp(&b.ts)));
    // Split into visits: a source visit, cut where it idles past the timeout.
    let mut visits: Vec<&[ImportedHit]> = Vec::new();
    let mut start = 0;
    for i in 1..=hits.len() {
        if i == hits.len() || hits[i].visit != hits[i - 1].visit || hits[i].ts - hits[i - 1].ts > SESSION_TIMEOUT_MS {
            visits.push(&hits[start..i]);
            start = i;
        }
    }
    // In start order, so a visitor counts on a day at their first visit, as the writer and the rebuild count.
    visits.sort_by_key(|v| v[0].ts);

    let mut rollups = Rollups::default();
    let mut counted: HashSet<(i64, i64)> = HashSet::new();
    let mut insert_session = tx.prepare_cached(
        "INSERT INTO sessions (website_id, session_key, visitor_hash, first_seen, last_seen, entry_page, exit_page,
            page_views, events, country, region, city, device, browser, os, referrer, referrer_host, utm_source,
            utm_medium, utm_campaign, screen)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21)",
    )?;
    let mut insert_event = tx.prepare_cached(
        "INSERT INTO events (website_id, session_id, ts, kind, name, url, path, referrer)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
    )?;
    let mut pageviews_total = 0;
    for (n, visit) in visits.iter().enumerate() {
        let first = &visit[0];
        let (first_seen, last_seen) = (first.ts, visit[visit.len() - 1].ts);
        let pages: Vec<&ImportedHit> = visit.iter().filter(|h| h.event.is_none()).collect();
        let page_views = pages.len() as i64;
        let events = visit.len() as i64 - page_views;
        let entry = pages.first().map_or(first.path.as_str(), |h| h.path.as_str());
        let exit = pages.last().map_or(first.path.as_str(), |h| h.path.as_str());
        let visitor = visitor_hash(site, &first.visitor);
        insert_session.execute(params![
            site,
            format!("import-{import}-{n}"),
            visitor,
            first_seen,
            last_seen,
            entry,
            exit,
            page_views,
            events,
            first.country,
            first.region,
            first.city,
            first.device,
            first.browser,
            first.os,
            first.referrer,
            first.referrer_host,
            first.utm_source,
            first.utm_medium,
            first.utm_campaign,
            first.screen,
        ])?;
        let session = tx.last_insert_rowid();
        let dims = VisitDims {
            referrer_host: first.referrer_host.clone(),
            country: first.country.clone(),
            device: first.device.clone(),
            browser: first.browser.clone(),
            os: first.os.clone(),
            utm_source: first.utm_source.clone(),
        };
        let totals = rollups.at(site, "", "", first_seen);
        totals.visits += 1;
        totals.bounces += (page_views == 1) as i64;
        totals.duration_s += (last_seen - first_seen) / 1000;
        if counted.insert((first_seen.div_euclid(DAY_MS), visitor)) {
            totals.visitors += 1;
        }
        for (dim, value) in dims.pairs() {
            rollups.at(site, dim, value, first_seen).visits += 1;
        }
        for hit in visit.iter() {
            let url = if hit.url.starts_with('/') { format!("https://{domain}{}", hit.url) } else { hit.url.clone() };
            let (kind, name) = match &hit.event {
                None => ("pageview", ""),
                Some(name) => ("custom", name.as_str()),
            };
            insert_event.execute(params![site, session, hit.ts, kind, name, url, hit.path, hit.referrer])?;
            match &hit.event {
                None => {
                    rollups.at(site, "", "", hit.ts).pageviews += 1;
                    rollups.at(site, Dimension::Page.as_str(), &hit.path, hit.ts).pageviews += 1;
                    for (dim, value) in dims.pairs() {
                        rollups.at(site, dim, value, hit.ts).pageviews += 1;
                    }
                }
                Some(name) => {
                    let name = if name.is_empty() { "custom" } else { name.as_str() };
                    rollups.at(site, "", "", hit.ts).events += 1;
                    rollups.at(site, "event", name, hit.ts).events += 1;
                }
            }
        }
        pageviews_total += page_views;
    }
    rollups.flush(tx)?;
    // New visits on those days change the Advanced Analytics hours counted there (returning visitors too).
    if let (Some(first), Some(last)) = (visits.first(), hits.iter().map(|h| h.ts).max()) {
        let day = |ms: Millis| ms.div_euclid(DAY_MS) * DAY_MS;
        crate::analytics::forget_hours(tx, site, day(first[0].ts), day(last) + DAY_MS)?;
    }
    Ok((pageviews_total, visits.len() as i64))
}

/// Stores daily aggregates in the rollups (a day's row in its first hour and in the day) and in
/// `imported_rollups`; returns (page views, visits) of the site totals.
pub(super) fn store_days(tx: &Connection, site: WebsiteId, import: i64, days: &[DayRow]) -> Result<(i64, i64)> {
    let mut rollups = Rollups::default();
    let mut insert = tx.prepare_cached(
        "INSERT INTO imported_rollups (import_id, website_id, dim, bucket, value, pageviews, visits, visitors, events,
            bounces, duration_s)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?;
    let (mut pageviews, mut visits) = (0, 0);
    for row in days {
        insert.execute(params![
            import,
            site,
            row.dim,
            row.day / 1000,
            row.value,
            row.pageviews,
            row.visits,
            row.visitors,
            row.events,
            row.bounces,
            row.duration_s
        ])?;
        let c = rollups.at(site, row.dim, &row.value, row.day);
        c.pageviews += row.pageviews;
        c.visits += row.visits;
        c.visitors += row.visitors;
        c.events += row.events;
        c.bounces += row.bounces;
        c.duration_s += row.duration_s;
        if row.dim.is_empty() {
            pageviews += row.pageviews;
            visits += row.visits;
        }
    }
    rollups.flush(tx)?;
    Ok((pageviews, visits))
}

/// A stable visitor hash for an imported visitor id: the same id is one visitor across the import.
fn visitor_hash(site: WebsiteId, visitor: &str) -> i64 {
    let digest =
        Sha256::new().chain_update(b"import").chain_update(site.to_le_bytes()).chain_update(visitor).finalize();
    i64::from_le_bytes(digest[..8].try_into().expect("8 bytes"))
}
