//! The events half of a copy: SQLite's events, page views without consent, heatmap data, the touches that keep
//! visits alive and imported aggregates, as the rows the ClickHouse shards store, handed over a chunk at a time.

use std::collections::HashMap;

use rusqlite::{Connection, params};

use super::CHUNK;
use crate::cluster::Cluster;
use crate::cluster::events::{HitRow, InteractionRow, TOUCH, month_of};
use crate::cluster::imports::ImportedHourRow;
use crate::cluster::sink::anonymous_row;
use crate::error::{Error, Result};
use crate::ingest::EventKind;
use crate::model::{Millis, WebsiteId};

/// The kinds of the rows of the last phase with a visit: heatmap rows and touches, quoted for an `IN`.
pub(super) fn captured_kinds() -> String {
    [TOUCH].iter().chain(HEATMAP_KINDS.iter()).map(|kind| format!("'{kind}'")).collect::<Vec<_>>().join(", ")
}

/// The kinds of `interactions` rows: SQLite's point and form-field kinds, and scroll.
const HEATMAP_KINDS: [&str; 7] = ["click", "move", "submit", "focus", "blur", "change", "scroll"];

/// Copies a site's imported daily aggregates (`imported_rollups`, bucketed in seconds) into
/// `imported_hours_local` on its shard (the hour in milliseconds), `CHUNK` rows per insert; the number of rows.
/// Part of the site's last phase: a repeat first deletes what an interrupted one stored (imports up to SQLite's
/// highest import id; the cluster's own imports take higher ones, as copy_metadata moved the sequence).
pub(super) fn imported_days(conn: &Connection, cluster: &Cluster, site: WebsiteId) -> Result<u64> {
    let highest: i64 = conn.query_row("SELECT COALESCE(MAX(id), 0) FROM imports", [], |r| r.get(0))?;
    let stored_before = format!("website_id = {site} AND import_id <= {highest}");
    let stored: u64 = cluster.events.nodes()[0].query_value(&format!(
        "SELECT count() FROM {}.imported_hours WHERE {stored_before}",
        cluster.events.database()
    ))?;
    if stored > 0 {
        cluster.events.delete_imported_where(&stored_before)?;
    }
    let mut stmt = conn.prepare(
        "SELECT import_id, dim, bucket, value, pageviews, visits, visitors, events, bounces, duration_s
         FROM imported_rollups WHERE website_id = ?1 ORDER BY import_id, bucket, dim, value",
    )?;
    let mut store = |rows: &[ImportedHourRow]| cluster.events.insert_imported(site, rows);
    let mut chunks = Chunks::new(&mut store);
    let mut rows = stmt.query([site])?;
    while let Some(r) = rows.next()? {
        chunks.push(ImportedHourRow {
            import_id: r.get(0)?,
            website_id: site,
            dim: r.get(1)?,
            hour: r.get::<_, i64>(2)? * 1000,
            value: r.get(3)?,
            pageviews: r.get(4)?,
            visits: r.get(5)?,
            visitors: r.get(6)?,
            events: r.get(7)?,
            conversions: 0,
            bounces: r.get(8)?,
            duration_s: r.get(9)?,
        })?;
    }
    chunks.finish()
}

/// Each row carries its visit's values (SQLite keeps one per visit: its first hit's), which the cluster's reads
/// take from a visit's first row.
///
/// The site's next events after `after`, as hits rows, in time order: `chunk` of them and every other event
/// of the last one's millisecond (so a chunk ends between two times, which is what the progress records);
/// with the number left out for their kind and the last time, `None` when none are left.
pub(super) fn read_chunk(
    conn: &Connection,
    site: WebsiteId,
    after: Millis,
    chunk: usize,
) -> Result<(Vec<HitRow>, u64, Option<Millis>)> {
    const COLUMNS: &str = "SELECT e.id, e.ts, e.session_id, e.kind, e.name, e.url, e.path, e.referrer,
            COALESCE(e.properties, ''), e.value, COALESCE(e.currency, ''), s.session_key, s.visitor_hash, s.country,
            s.region, s.city, s.device, s.browser, s.os, s.screen, COALESCE(s.ip_address, ''),
            COALESCE(o.asn, 0), COALESCE(o.name, ''), s.referrer_host, s.utm_source, s.utm_medium, s.utm_campaign,
            s.utm_term, s.utm_content, s.source, s.browser_version, s.os_version
         FROM events e JOIN sessions s ON s.id = e.session_id
         LEFT JOIN organizations o ON o.id = s.organization_id";
    let mut rows = Vec::new();
    let mut skipped = 0u64;
    let mut read = |stmt: &mut rusqlite::Statement, args: &[&dyn rusqlite::ToSql]| -> Result<Option<(Millis, i64)>> {
        let mut last = None;
        let mut cursor = stmt.query(args)?;
        while let Some(r) = cursor.next()? {
            let (id, ts): (i64, Millis) = (r.get(0)?, r.get(1)?);
            last = Some((ts, id));
            let kind: String = r.get(3)?;
            let Ok(kind) = EventKind::parse(&kind) else {
                skipped += 1;
                continue;
            };
            rows.push(HitRow {
                month: month_of(ts),
                website_id: site,
                ts,
                visit_id: r.get(2)?,
                visitor: r.get::<_, i64>(12)? as u64,
                session_key: r.get(11)?,
                kind: kind.as_str(),
                name: r.get(4)?,
                url: r.get(5)?,
                path: r.get(6)?,
                referrer: r.get(7)?,
                referrer_host: r.get(23)?,
                utm_source: r.get(24)?,
                utm_medium: r.get(25)?,
                utm_campaign: r.get(26)?,
                utm_term: r.get(27)?,
                utm_content: r.get(28)?,
                source: r.get(29)?,
                browser_version: r.get(30)?,
                os_version: r.get(31)?,
                properties: r.get(8)?,
                value: r.get(9)?,
                currency: r.get(10)?,
                screen: r.get(19)?,
                country: r.get(13)?,
                region: r.get(14)?,
                city: r.get(15)?,
                device: r.get(16)?,
                browser: r.get(17)?,
                os: r.get(18)?,
                ip_address: r.get(20)?,
                organization_asn: u32::try_from(r.get::<_, i64>(21)?).unwrap_or(0),
                organization: r.get(22)?,
            });
        }
        Ok(last)
    };
    let mut first =
        conn.prepare_cached(&format!("{COLUMNS} WHERE e.website_id = ?1 AND e.ts > ?2 ORDER BY e.ts, e.id LIMIT ?3"))?;
    let Some((last_ts, last_id)) = read(&mut first, params![site, after, chunk as i64])? else {
        return Ok((rows, skipped, None));
    };
    let mut rest =
        conn.prepare_cached(&format!("{COLUMNS} WHERE e.website_id = ?1 AND e.ts = ?2 AND e.id > ?3 ORDER BY e.id"))?;
    read(&mut rest, params![site, last_ts, last_id])?;
    Ok((rows, skipped, Some(last_ts)))
}

/// Rows handed to a store `CHUNK` at a time, counted.
struct Chunks<'a, R> {
    pending: Vec<R>,
    store: &'a mut dyn FnMut(&[R]) -> Result<()>,
    stored: u64,
}

impl<'a, R> Chunks<'a, R> {
    fn new(store: &'a mut dyn FnMut(&[R]) -> Result<()>) -> Self {
        Chunks { pending: Vec::with_capacity(CHUNK), store, stored: 0 }
    }

    fn push(&mut self, row: R) -> Result<()> {
        self.pending.push(row);
        if self.pending.len() >= CHUNK { self.flush() } else { Ok(()) }
    }

    fn flush(&mut self) -> Result<()> {
        if !self.pending.is_empty() {
            (self.store)(&self.pending)?;
            self.stored += self.pending.len() as u64;
            self.pending.clear();
        }
        Ok(())
    }

    /// Stores what is left; the number of rows stored in all.
    fn finish(mut self) -> Result<u64> {
        self.flush()?;
        Ok(self.stored)
    }
}

/// The page views SQLite's rollups count beyond the site's stored page views and imported aggregates: those of
/// visitors without analytics consent (and of erased visitors, whose rollup counts SQLite keeps), one row per
/// view at the start of its hour, handed to `store` `CHUNK` at a time; the number of them.
pub(super) fn anonymous_pageviews(
    conn: &Connection,
    site: WebsiteId,
    store: &mut dyn FnMut(&[HitRow]) -> Result<()>,
) -> Result<u64> {
    let mut tracked: HashMap<(i64, String), i64> = HashMap::new();
    {
        let mut stmt = conn.prepare(
            "SELECT ts / 3600000 * 3600, path, COUNT(*) FROM events
             WHERE website_id = ?1 AND kind = 'pageview' GROUP BY 1, 2
             UNION ALL
             SELECT bucket, value, SUM(pageviews) FROM imported_rollups
             WHERE website_id = ?1 AND dim = 'page' GROUP BY 1, 2",
        )?;
        let mut rows = stmt.query([site])?;
        while let Some(r) = rows.next()? {
            *tracked.entry((r.get(0)?, r.get(1)?)).or_default() += r.get::<_, i64>(2)?;
        }
    }
    let mut stmt = conn.prepare(
        "SELECT bucket, value, pageviews FROM rollup_hours
         WHERE website_id = ?1 AND dim = 'page' AND pageviews > 0 ORDER BY bucket, value",
    )?;
    let mut chunks = Chunks::new(store);
    let mut rows = stmt.query([site])?;
    while let Some(r) = rows.next()? {
        let (bucket, path, views): (i64, String, i64) = (r.get(0)?, r.get(1)?, r.get(2)?);
        let beyond = views - tracked.get(&(bucket, path.clone())).copied().unwrap_or(0);
        for _ in 0..beyond.max(0) {
            chunks.push(anonymous_row(site, bucket * 1000, path.clone()))?;
        }
    }
    chunks.finish()
}

/// The site's heatmap points, form-field events and scroll depths as `interactions` rows, handed to `store`
/// `CHUNK` at a time; the number of them. A row's place among the rows of its time is its SQLite row id (the
/// order SQLite's reads take them in; the ids' low 32 bits, which keep that order below four billion rows). A
/// page view's scroll depth is one report, at the time of the report that raised it last, which the cluster
/// gives to the same page view (the visit's latest of the path before it).
pub(super) fn heatmap_rows(
    conn: &Connection,
    site: WebsiteId,
    store: &mut dyn FnMut(&[InteractionRow]) -> Result<()>,
) -> Result<u64> {
    let mut stmt = conn.prepare(
        "SELECT h.id, h.session_id, s.visitor_hash, s.session_key, h.path, h.ts, h.kind, h.x, h.y, h.page_w,
                h.page_h, h.viewport_w, h.viewport_h, h.selector, h.offset_x, h.offset_y, '', '', 0, 0
         FROM heatmap_points h JOIN sessions s ON s.id = h.session_id WHERE h.website_id = ?1
         UNION ALL
         SELECT f.id, f.session_id, s.visitor_hash, s.session_key, f.path, f.ts, f.kind, 0, 0, 0, 0, 0, 0, '',
                NULL, NULL, f.form, f.field, f.filled, 0
         FROM form_field_events f JOIN sessions s ON s.id = f.session_id WHERE f.website_id = ?1
         UNION ALL
         SELECT d.id, d.session_id, s.visitor_hash, s.session_key, d.path, d.ts, 'scroll', 0, 0, 0, 0, 0, 0, '',
                NULL, NULL, '', '', 0, d.depth
         FROM scroll_depths d JOIN sessions s ON s.id = d.session_id WHERE d.website_id = ?1",
    )?;
    let mut chunks = Chunks::new(store);
    let mut rows = stmt.query([site])?;
    while let Some(r) = rows.next()? {
        let kind: String = r.get(6)?;
        let Some(kind) = HEATMAP_KINDS.into_iter().find(|k| *k == kind) else {
            return Err(Error::Internal(format!("a heatmap row of an unknown kind: {kind}")));
        };
        let ts: Millis = r.get(5)?;
        chunks.push(InteractionRow {
            month: month_of(ts),
            website_id: site,
            ts,
            visit_id: r.get(1)?,
            visitor: r.get::<_, i64>(2)? as u64,
            session_key: r.get(3)?,
            path: r.get(4)?,
            kind,
            x: r.get(7)?,
            y: r.get(8)?,
            page_w: r.get(9)?,
            page_h: r.get(10)?,
            viewport_w: r.get(11)?,
            viewport_h: r.get(12)?,
            selector: r.get(13)?,
            offset_x: r.get(14)?,
            offset_y: r.get(15)?,
            form: r.get(16)?,
            field: r.get(17)?,
            filled: r.get(18)?,
            depth: r.get(19)?,
            seq: r.get::<_, i64>(0)? as u32,
        })?;
    }
    chunks.finish()
}

/// `touch` rows where a site's visit lasted beyond its events (SQLite's sessions are kept alive by heatmap data
/// and recordings, and may be started by them): one at the visit's start when it came before its first event,
/// one at its end when it came after its last, as the cluster's sink stores one for each body. A touch carries
/// the visit's values (the cluster's reads take them from a visit's first row) and its entry or exit page.
pub(super) fn touches(
    conn: &Connection,
    site: WebsiteId,
    store: &mut dyn FnMut(&[HitRow]) -> Result<()>,
) -> Result<()> {
    let mut stmt = conn.prepare(
        "SELECT s.id, s.first_seen, s.last_seen, MIN(e.ts), MAX(e.ts), s.session_key, s.visitor_hash,
                s.entry_page, s.exit_page, s.country, s.region, s.city, s.device, s.browser, s.os, s.screen,
                COALESCE(s.ip_address, ''), COALESCE(o.asn, 0), COALESCE(o.name, ''), s.referrer_host, s.utm_source,
                s.utm_medium, s.utm_campaign, s.utm_term, s.utm_content, s.source, s.browser_version, s.os_version
         FROM sessions s LEFT JOIN events e ON e.session_id = s.id
         LEFT JOIN organizations o ON o.id = s.organization_id
         WHERE s.website_id = ?1 GROUP BY s.id
         HAVING MIN(e.ts) IS NULL OR s.first_seen < MIN(e.ts) OR s.last_seen > MAX(e.ts)",
    )?;
    let mut chunks = Chunks::new(store);
    let mut rows = stmt.query([site])?;
    while let Some(r) = rows.next()? {
        let (first_seen, last_seen): (Millis, Millis) = (r.get(1)?, r.get(2)?);
        let (first_event, last_event): (Option<Millis>, Option<Millis>) = (r.get(3)?, r.get(4)?);
        let touch = |ts: Millis, path: String| -> rusqlite::Result<HitRow> {
            Ok(HitRow {
                month: month_of(ts),
                website_id: site,
                ts,
                visit_id: r.get(0)?,
                visitor: r.get::<_, i64>(6)? as u64,
                session_key: r.get(5)?,
                kind: TOUCH,
                path,
                country: r.get(9)?,
                region: r.get(10)?,
                city: r.get(11)?,
                device: r.get(12)?,
                browser: r.get(13)?,
                os: r.get(14)?,
                screen: r.get(15)?,
                ip_address: r.get(16)?,
                organization_asn: u32::try_from(r.get::<_, i64>(17)?).unwrap_or(0),
                organization: r.get(18)?,
                referrer_host: r.get(19)?,
                utm_source: r.get(20)?,
                utm_medium: r.get(21)?,
                utm_campaign: r.get(22)?,
                utm_term: r.get(23)?,
                utm_content: r.get(24)?,
                source: r.get(25)?,
                browser_version: r.get(26)?,
                os_version: r.get(27)?,
                ..HitRow::default()
            })
        };
        if first_event.is_none_or(|first| first_seen < first) {
            chunks.push(touch(first_seen, r.get(7)?)?)?;
        }
        if last_event.is_none_or(|last| last_seen > last) && (last_event.is_some() || last_seen > first_seen) {
            chunks.push(touch(last_seen, r.get(8)?)?)?;
        }
    }
    chunks.finish().map(|_| ())
}
