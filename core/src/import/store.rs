//! Writing an import in batches of short transactions: per-hit exports as visits (sessions) and events with
//! the rollup counts the ingest writer would have made for them, daily aggregates as rollup rows kept in
//! `imported_rollups` as well. The last batch marks the import complete.

use rusqlite::{Connection, params};
use sha2::{Digest, Sha256};

use super::staging::Staging;
use super::{DayRow, ImportedHit};
use crate::analytics::{Dimension, VisitDims};
use crate::db::Db;
use crate::error::Result;
use crate::ingest::writer::rollups::Rollups;
use crate::model::{Millis, WebsiteId};

/// A visit ends after this long without a hit, as tracked visits do.
pub(crate) const SESSION_TIMEOUT_MS: Millis = 30 * 60 * 1000;

/// The `session_key` range of an import's visits, `[from, to)`: keys are `import-{id}-{n}`.
pub(super) fn session_keys(import: i64) -> (String, String) {
    (format!("import-{import}-"), format!("import-{import}."))
}

/// Stores the staged hits as visits and events in transactions of about `batch` hits, with the rollup counts
/// the ingest writer would have made; the last transaction adds the visitors and marks the import complete.
/// Returns (page views, visits).
pub(super) fn store_hits(db: &Db, site: WebsiteId, import: i64, staging: &Staging, batch: usize) -> Result<(i64, i64)> {
    let domain: String =
        db.read(|c| Ok(c.query_row("SELECT domain FROM websites WHERE id = ?1", [site], |r| r.get(0))?))?;
    let mut written = Written { site, import, domain, visits: 0, pageviews: 0 };
    staging.each_visit_batch(batch, |visits, last| {
        db.write(|conn| {
            let tx = conn.transaction()?;
            written.visits_in(&tx, visits)?;
            if last {
                visitors(&tx, site, import)?;
                complete(&tx, import)?;
            }
            Ok(tx.commit()?)
        })
    })?;
    Ok((written.pageviews, written.visits))
}

/// What the batches of one import have written so far.
struct Written {
    site: WebsiteId,
    import: i64,
    domain: String,
    visits: i64,
    pageviews: i64,
}

impl Written {
    /// Writes `visits` (each a run of hits of one visit, in time order) and their rollup counts but the
    /// visitors, which `visitors` counts over the whole import at its end.
    fn visits_in(&mut self, tx: &Connection, visits: &[Vec<ImportedHit>]) -> Result<()> {
        let site = self.site;
        let mut rollups = Rollups::default();
        let mut insert_session = tx.prepare_cached(
            "INSERT INTO sessions (website_id, session_key, visitor_hash, first_seen, last_seen, entry_page, exit_page,
                page_views, events, country, region, city, device, browser, os, referrer, referrer_host, utm_source,
                utm_medium, utm_campaign, screen, source)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, ?17, ?18, ?19, ?20, ?21,
                ?22)",
        )?;
        let mut insert_event = tx.prepare_cached(
            "INSERT INTO events (website_id, session_id, ts, kind, name, url, path, referrer)
             VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)",
        )?;
        for visit in visits {
            let first = &visit[0];
            let (first_seen, last_seen) = (first.ts, visit[visit.len() - 1].ts);
            let pages: Vec<&ImportedHit> = visit.iter().filter(|h| h.event.is_none()).collect();
            let source = crate::ingest::sources::source_of(&first.utm_source, &first.referrer_host);
            let page_views = pages.len() as i64;
            let events = visit.len() as i64 - page_views;
            let entry = pages.first().map_or(first.path.as_str(), |h| h.path.as_str());
            let exit = pages.last().map_or(first.path.as_str(), |h| h.path.as_str());
            insert_session.execute(params![
                site,
                format!("import-{}-{}", self.import, self.visits),
                visitor_hash(site, &first.visitor),
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
                source,
            ])?;
            self.visits += 1;
            let session = tx.last_insert_rowid();
            let dims = VisitDims {
                referrer_host: first.referrer_host.clone(),
                country: first.country.clone(),
                device: first.device.clone(),
                browser: first.browser.clone(),
                os: first.os.clone(),
                utm_source: first.utm_source.clone(),
                source,
            };
            let totals = rollups.at(site, "", "", first_seen);
            totals.visits += 1;
            totals.bounces += (page_views == 1) as i64;
            totals.duration_s += (last_seen - first_seen) / 1000;
            for (dim, value) in dims.pairs() {
                rollups.at(site, dim, value, first_seen).visits += 1;
            }
            for hit in visit {
                let url = if hit.url.starts_with('/') {
                    format!("https://{}{}", self.domain, hit.url)
                } else {
                    hit.url.clone()
                };
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
            self.pageviews += page_views;
        }
        rollups.flush(tx)?;
        Ok(())
    }
}

/// Counts the import's visitors as the writer and the rollup rebuild do: once a day, in the hour of their
/// first visit that day (read back from the visits written, so no batch needs to remember the others').
fn visitors(tx: &Connection, site: WebsiteId, import: i64) -> Result<()> {
    let (from, to) = session_keys(import);
    let mut rollups = Rollups::default();
    let mut stmt = tx.prepare_cached(
        "SELECT MIN(first_seen) FROM sessions WHERE website_id = ?1 AND session_key >= ?2 AND session_key < ?3
         GROUP BY first_seen / 86400000, visitor_hash",
    )?;
    let mut rows = stmt.query(params![site, from, to])?;
    while let Some(row) = rows.next()? {
        rollups.at(site, "", "", row.get(0)?).visitors += 1;
    }
    rollups.flush(tx)?;
    Ok(())
}

fn complete(tx: &Connection, import: i64) -> Result<()> {
    tx.execute("UPDATE imports SET complete = 1 WHERE id = ?1", [import])?;
    Ok(())
}

/// Stores the staged daily aggregates in the rollups (a day's row in its first hour and in the day) and in
/// `imported_rollups`, in transactions of `batch` rows, the last marking the import complete; returns
/// (page views, visits) of the site totals.
pub(super) fn store_days(db: &Db, site: WebsiteId, import: i64, staging: &Staging, batch: usize) -> Result<(i64, i64)> {
    let (mut pageviews, mut visits) = (0, 0);
    let mut pending: Vec<DayRow> = Vec::new();
    staging.each_day(|row| {
        if row.dim.is_empty() {
            pageviews += row.pageviews;
            visits += row.visits;
        }
        pending.push(row);
        if pending.len() >= batch {
            db.write(|conn| {
                let tx = conn.transaction()?;
                days_in(&tx, site, import, &pending)?;
                Ok(tx.commit()?)
            })?;
            pending.clear();
        }
        Ok(())
    })?;
    db.write(|conn| {
        let tx = conn.transaction()?;
        days_in(&tx, site, import, &pending)?;
        complete(&tx, import)?;
        Ok(tx.commit()?)
    })?;
    Ok((pageviews, visits))
}

fn days_in(tx: &Connection, site: WebsiteId, import: i64, days: &[DayRow]) -> Result<()> {
    let mut rollups = Rollups::default();
    let mut insert = tx.prepare_cached(
        "INSERT INTO imported_rollups (import_id, website_id, dim, bucket, value, pageviews, visits, visitors, events,
            bounces, duration_s)
         VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
    )?;
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
    }
    rollups.flush(tx)?;
    Ok(())
}

/// A stable visitor hash for an imported visitor id: the same id is one visitor across the import.
pub(crate) fn visitor_hash(site: WebsiteId, visitor: &str) -> i64 {
    let digest =
        Sha256::new().chain_update(b"import").chain_update(site.to_le_bytes()).chain_update(visitor).finalize();
    i64::from_le_bytes(digest[..8].try_into().expect("8 bytes"))
}
