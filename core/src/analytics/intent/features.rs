//! The intent model's features of a visit: what it did, loaded from SQLite's visits and events (the cluster
//! groups its hits into the same `VisitRow` and calls `visit_features` too).

use std::collections::{HashMap, HashSet};

use rusqlite::types::Value;
use rusqlite::{Connection, OptionalExtension, params, params_from_iter};

use super::{SessionFeatures, SourceType};
use crate::error::Result;
use crate::events::{Filters, admitted_visit_condition};
use crate::model::{Millis, WebsiteId};

/// A visit's row as the feature loaders read it (SQLite's `sessions` row, or a visit the cluster groups its
/// hits into).
#[derive(Debug, Clone)]
pub(crate) struct VisitRow {
    pub id: i64,
    pub key: String,
    pub hash: i64,
    pub first_seen: Millis,
    pub last_seen: Millis,
    pub converted: bool,
    pub source: SourceType,
    pub organization: bool,
}

const ROW_COLUMNS: &str = "id, session_key, visitor_hash, first_seen, last_seen, is_converted, referrer_host, \
                           utm_source, utm_medium, utm_campaign, organization_id IS NOT NULL";

fn row(r: &rusqlite::Row) -> rusqlite::Result<VisitRow> {
    Ok(VisitRow {
        id: r.get(0)?,
        key: r.get(1)?,
        hash: r.get(2)?,
        first_seen: r.get(3)?,
        last_seen: r.get(4)?,
        converted: r.get(5)?,
        source: SourceType::classify(
            &r.get::<_, String>(6)?,
            &r.get::<_, String>(7)?,
            &r.get::<_, String>(8)?,
            &r.get::<_, String>(9)?,
        ),
        organization: r.get(10)?,
    })
}

/// Loads the features of a site's visits that started in [from, to), most recent first, at most `limit`;
/// `finished_before`: only visits idle since then or converted (for fitting).
pub fn load_features(
    conn: &Connection,
    site: WebsiteId,
    from: Millis,
    to: Millis,
    limit: i64,
    finished_before: Option<Millis>,
) -> Result<Vec<SessionFeatures>> {
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {ROW_COLUMNS}
         FROM sessions WHERE website_id = ?1 AND first_seen >= ?2 AND first_seen < ?3
           AND (?4 IS NULL OR last_seen < ?4 OR is_converted)
         ORDER BY first_seen DESC LIMIT ?5"
    ))?;
    let rows: Vec<VisitRow> =
        stmt.query_map(params![site, from, to, finished_before, limit], row)?.collect::<rusqlite::Result<_>>()?;
    features_of_rows(conn, site, rows)
}

/// [`load_features`] of the visits `filters` admit (a visit is returning after an earlier visit of any kind).
pub fn load_admitted_features(
    conn: &Connection,
    site: WebsiteId,
    from: Millis,
    to: Millis,
    limit: i64,
    filters: &Filters,
) -> Result<Vec<SessionFeatures>> {
    let (admitted, values) = admitted_visit_condition(filters, 4);
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT {ROW_COLUMNS}
         FROM sessions s WHERE s.website_id = ?1 AND s.first_seen >= ?2 AND s.first_seen < ?3 AND {admitted}
         ORDER BY s.first_seen DESC LIMIT ?4"
    ))?;
    let bound = [Value::from(site), Value::from(from), Value::from(to), Value::from(limit)];
    let rows: Vec<VisitRow> =
        stmt.query_map(params_from_iter(bound.iter().chain(&values)), row)?.collect::<rusqlite::Result<_>>()?;
    features_of_rows(conn, site, rows)
}

/// The features of visit rows (newest first), with their events, returning status and scroll depths.
fn features_of_rows(conn: &Connection, site: WebsiteId, rows: Vec<VisitRow>) -> Result<Vec<SessionFeatures>> {
    let Some(earliest) = rows.iter().map(|r| r.first_seen).min() else {
        return Ok(Vec::new());
    };
    // The first visit of each visitor hash per day, from the start of the earliest visit's day (the hash's
    // salt rotates daily, so a visitor is recognised within a day only). Reads the covering start index.
    let day = |ms: Millis| ms.div_euclid(86_400_000);
    let mut first_of_day: HashMap<(i64, i64), Millis> = HashMap::new();
    {
        let latest = rows.iter().map(|r| r.first_seen).max().unwrap_or(earliest);
        let mut stmt = conn.prepare_cached(
            "SELECT visitor_hash, first_seen FROM sessions WHERE website_id = ?1 AND first_seen >= ?2 AND first_seen <= ?3",
        )?;
        let mut q = stmt.query(params![site, day(earliest) * 86_400_000, latest])?;
        while let Some(r) = q.next()? {
            let (hash, seen): (i64, Millis) = (r.get(0)?, r.get(1)?);
            let entry = first_of_day.entry((hash, day(seen))).or_insert(seen);
            *entry = (*entry).min(seen);
        }
    }
    // Every event of these visits lies between the earliest start and the latest activity among them: one pass
    // over the site's events of that span (in time order, as a visit's pages are listed) instead of a query
    // per visit; events of other visits in the span are skipped.
    let index: HashMap<i64, usize> = rows.iter().enumerate().map(|(i, r)| (r.id, i)).collect();
    let latest = rows.iter().map(|r| r.last_seen).max().unwrap_or(earliest);
    let mut visit_events: Vec<Vec<(Millis, String, String)>> = vec![Vec::new(); rows.len()];
    {
        let mut stmt = conn.prepare_cached(
            "SELECT session_id, ts, kind, path FROM events WHERE website_id = ?1 AND ts >= ?2 AND ts <= ?3
             ORDER BY ts, id",
        )?;
        let mut q = stmt.query(params![site, earliest, latest])?;
        while let Some(r) = q.next()? {
            if let Some(&i) = index.get(&r.get::<_, i64>(0)?) {
                visit_events[i].push((r.get(1)?, r.get(2)?, r.get(3)?));
            }
        }
    }
    let mut scroll =
        conn.prepare_cached("SELECT COALESCE(MAX(depth), 0) FROM scroll_depths WHERE session_id = ?1 AND ts < ?2")?;
    let mut out = Vec::with_capacity(rows.len());
    for (row, events) in rows.into_iter().zip(visit_events) {
        let first_today = first_of_day.get(&(row.hash, day(row.first_seen))).copied().unwrap_or(row.first_seen);
        let returning = first_today < row.first_seen;
        let depth = |id, cutoff| Ok(scroll.query_row(params![id, cutoff], |r| r.get(0))?);
        out.push(visit_features(row, events, returning, depth)?);
    }
    Ok(out)
}

/// The features of the site's visits `ids` (each with whether it is a returning visit, which the caller knows),
/// as [`load_features`] loads them, read visit by visit: for a few visits spread over a long range.
pub fn load_features_of(conn: &Connection, site: WebsiteId, ids: &[(i64, bool)]) -> Result<Vec<SessionFeatures>> {
    let mut session =
        conn.prepare_cached(&format!("SELECT {ROW_COLUMNS} FROM sessions WHERE id = ?1 AND website_id = ?2"))?;
    let mut events = conn.prepare_cached("SELECT ts, kind, path FROM events WHERE session_id = ?1 ORDER BY ts, id")?;
    let mut scroll =
        conn.prepare_cached("SELECT COALESCE(MAX(depth), 0) FROM scroll_depths WHERE session_id = ?1 AND ts < ?2")?;
    let mut out = Vec::with_capacity(ids.len());
    for &(id, returning) in ids {
        let Some(row) = session.query_row(params![id, site], row).optional()? else { continue };
        let visit_events = events
            .query_map(params![id], |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?
            .collect::<rusqlite::Result<Vec<_>>>()?;
        let depth = |id, cutoff| Ok(scroll.query_row(params![id, cutoff], |r| r.get(0))?);
        out.push(visit_features(row, visit_events, returning, depth)?);
    }
    Ok(out)
}

/// What a visit did, from its row and its events (time, kind, path) in time order: up to its first conversion
/// if it converted. `scroll_depth(visit id, cutoff)` is the deepest scroll the visit recorded before the cutoff.
pub(crate) fn visit_features(
    row: VisitRow,
    events: Vec<(Millis, String, String)>,
    returning: bool,
    scroll_depth: impl FnOnce(i64, Millis) -> Result<i64>,
) -> Result<SessionFeatures> {
    // A converted visit is seen up to its first conversion.
    let cutoff: Millis = if row.converted {
        events.iter().filter(|(_, kind, _)| kind == "conversion").map(|(ts, _, _)| *ts).min().unwrap_or(Millis::MAX)
    } else {
        Millis::MAX
    };
    let mut page_views = 0;
    let mut event_count = 0;
    let mut last_ts = row.first_seen;
    let mut pages: Vec<String> = Vec::new();
    let mut seen = HashSet::new();
    for (ts, kind, path) in events {
        if ts >= cutoff {
            continue;
        }
        last_ts = last_ts.max(ts);
        match kind.as_str() {
            "pageview" => {
                page_views += 1;
                if seen.insert(path.clone()) {
                    pages.push(path);
                }
            }
            "conversion" | "identify" | "consent" => {}
            _ => event_count += 1,
        }
    }
    let end = if cutoff == Millis::MAX { row.last_seen } else { cutoff.min(row.last_seen).max(last_ts) };
    let scroll_depth = scroll_depth(row.id, cutoff)?;
    Ok(SessionFeatures {
        session_id: row.id,
        session_key: row.key,
        page_views,
        duration_s: ((end - row.first_seen) / 1000).max(0),
        scroll_depth,
        events: event_count,
        returning,
        source: row.source,
        organization: row.organization,
        pages,
        converted: row.converted,
        first_seen: row.first_seen,
    })
}
