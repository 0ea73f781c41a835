//! The heatmap's point figures per page and hour of the points' own time: click grid cells, clicks by element
//! group (with their summed page fractions), the tallest page and the mouse-move count, and scroll depth
//! deciles. Settled hours are kept in the tables of migration 0023, and whole days of stored hours summed again
//! per day in those of 0025; the other hours of a range are counted from the raw rows on each read, which also
//! stores the settled ones. Called by `heatmap.rs` and the warming pass; whatever changes points forgets hours
//! (and their days) through `forget_stored_hours`, and the interactions ingest through [`forget_hours`] for
//! points stamped late.
//!
//! Why: each read went through every point of the page and range (at 10M events with one click and one scroll
//! depth per /pricing page view, 90 days: p95 5.97 s). Summing one page's stored hours took that to 377 ms, most
//! of it the 224,000 hour rows of 90 days; a day packed per page leaves a row per day and the range's ragged ends.

use std::collections::{BTreeMap, HashMap, HashSet};

use rusqlite::{Connection, params};

use super::TimeRange;
use super::heatmap::{GRID, OFFSET_STEPS, PAGE_STEPS, REFERENCE_WIDTH};
use super::stored_hours::SETTLED_MS;
use super::visit_hours::HOUR_MS;
use crate::error::Result;
use crate::model::{Millis, WebsiteId};

const DAY_MS: Millis = 86_400_000;

/// Page fractions are summed in millionths, so that sums of stored hours and of raw rows are equal exactly.
pub(crate) const FRACTION_UNIT: f64 = 1_000_000.0;

/// An element group: selector, offset step inside the element (-1 without an offset), page step (-1 with one).
pub(crate) type ElementKey = (String, i64, i64, i64, i64);

/// One page's point figures over some hours.
#[derive(Debug, Default, Clone, PartialEq)]
pub(crate) struct PagePoints {
    /// Clicks per grid cell (its centre).
    pub cells: HashMap<(i64, i64), i64>,
    /// Per element group: summed page fractions x and y (millionths), and clicks.
    pub elements: HashMap<ElementKey, (i64, i64, i64)>,
    /// The tallest page at the reference width, 0 without points.
    pub ref_height: i64,
    pub moves: i64,
    /// Page views per scroll depth decile.
    pub deciles: [i64; 11],
}

impl PagePoints {
    fn add(&mut self, other: &PagePoints) {
        for (cell, n) in &other.cells {
            *self.cells.entry(*cell).or_default() += n;
        }
        for (key, (fx, fy, n)) in &other.elements {
            let sums = self.elements.entry(key.clone()).or_default();
            sums.0 += fx;
            sums.1 += fy;
            sums.2 += n;
        }
        self.ref_height = self.ref_height.max(other.ref_height);
        self.moves += other.moves;
        for (total, n) in self.deciles.iter_mut().zip(other.deciles) {
            *total += n;
        }
    }
}

/// Counts the points of `[from, to)` per page (only `path` when given) and hour, from the raw rows.
fn count_hours(
    conn: &Connection,
    site: WebsiteId,
    path: Option<&str>,
    from: Millis,
    to: Millis,
) -> Result<BTreeMap<(String, Millis), PagePoints>> {
    let mut hours: BTreeMap<(String, Millis), PagePoints> = BTreeMap::new();
    let filter = "website_id = ?1 AND ts >= ?2 AND ts < ?3 AND (?4 IS NULL OR path = ?4)";
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT path, ts / 3600000 * 3600000 AS hour, MIN(x * ?5 / page_w, ?5 - 1) / ?6 * ?6 + ?6 / 2 AS cx,
                y / ?6 * ?6 + ?6 / 2 AS cy, COUNT(*)
         FROM heatmap_points WHERE {filter} AND kind = 'click' GROUP BY path, hour, cx, cy"
    ))?;
    let mut q = stmt.query(params![site, from, to, path, REFERENCE_WIDTH, GRID])?;
    while let Some(r) = q.next()? {
        let page = hours.entry((r.get(0)?, r.get(1)?)).or_default();
        page.cells.insert((r.get(2)?, r.get(3)?), r.get(4)?);
    }
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT path, ts / 3600000 * 3600000 AS hour, selector,
                COALESCE(CAST(ROUND(offset_x * ?5) AS INTEGER), -1) AS bx,
                COALESCE(CAST(ROUND(offset_y * ?5) AS INTEGER), -1) AS by,
                CASE WHEN offset_x IS NULL THEN CAST(x * ?6 / page_w AS INTEGER) ELSE -1 END AS px,
                CASE WHEN offset_x IS NULL THEN CAST(y * ?6 / page_h AS INTEGER) ELSE -1 END AS py,
                SUM(CAST(ROUND(MIN(CAST(x AS REAL) / page_w, 1.0) * ?7) AS INTEGER)),
                SUM(CAST(ROUND(MIN(CAST(y AS REAL) / page_h, 1.0) * ?7) AS INTEGER)), COUNT(*)
         FROM heatmap_points WHERE {filter} AND kind = 'click' GROUP BY path, hour, selector, bx, by, px, py"
    ))?;
    let mut q = stmt.query(params![site, from, to, path, OFFSET_STEPS, PAGE_STEPS, FRACTION_UNIT])?;
    while let Some(r) = q.next()? {
        let page = hours.entry((r.get(0)?, r.get(1)?)).or_default();
        page.elements
            .insert((r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?, r.get(6)?), (r.get(7)?, r.get(8)?, r.get(9)?));
    }
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT path, ts / 3600000 * 3600000 AS hour,
                COALESCE(MAX(CASE WHEN page_w > 0 THEN page_h * ?5 / page_w END), 0), SUM(kind = 'move')
         FROM heatmap_points WHERE {filter} GROUP BY path, hour"
    ))?;
    let mut q = stmt.query(params![site, from, to, path, REFERENCE_WIDTH])?;
    while let Some(r) = q.next()? {
        let page = hours.entry((r.get(0)?, r.get(1)?)).or_default();
        page.ref_height = r.get(2)?;
        page.moves = r.get(3)?;
    }
    let mut stmt = conn.prepare_cached(&format!(
        "SELECT path, ts / 3600000 * 3600000 AS hour, depth / 10, COUNT(*)
         FROM scroll_depths WHERE {filter} GROUP BY path, hour, depth / 10"
    ))?;
    let mut q = stmt.query(params![site, from, to, path])?;
    while let Some(r) = q.next()? {
        let page = hours.entry((r.get(0)?, r.get(1)?)).or_default();
        let decile: i64 = r.get(2)?;
        page.deciles[decile.clamp(0, 10) as usize] += r.get::<_, i64>(3)?;
    }
    Ok(hours)
}

fn stored_hours(conn: &Connection, site: WebsiteId, from: Millis, to: Millis) -> Result<HashSet<Millis>> {
    let mut stmt =
        conn.prepare_cached("SELECT hour FROM point_hours_stored WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3")?;
    let hours = stmt.query_map(params![site, from, to], |r| r.get(0))?;
    Ok(hours.collect::<rusqlite::Result<_>>()?)
}

/// Stores the range's hours that ended [`SETTLED_MS`] ago and are not stored yet, for every page. A day at
/// a time through [`store_day`](super::stored_hours::store_day), so a change of the points (which forgets
/// hours in its own transaction) cannot slip between count and write.
pub(crate) fn store_settled_hours(conn: &Connection, site: WebsiteId, range: TimeRange, now: Millis) -> Result<()> {
    let until = range.end.min((now - SETTLED_MS).div_euclid(HOUR_MS) * HOUR_MS);
    let first = ((range.start - 1).div_euclid(HOUR_MS) + 1) * HOUR_MS;
    if until <= first {
        return Ok(());
    }
    let stored = stored_hours(conn, site, first, until)?;
    let missing = super::stored_hours::missing_by_day(&stored, first, until);
    for hours in missing.values() {
        let stored = super::stored_hours::store_day(conn, |tx| {
            let counted = count_hours(tx, site, None, hours[0], hours[hours.len() - 1] + HOUR_MS)?;
            let mut marker =
                tx.prepare_cached("INSERT OR REPLACE INTO point_hours_stored (website_id, hour) VALUES (?1, ?2)")?;
            for hour in hours {
                marker.execute(params![site, hour])?;
            }
            let mut page = tx.prepare_cached(
                "INSERT OR REPLACE INTO point_hours (website_id, path, hour, ref_height, moves)
                 VALUES (?1, ?2, ?3, ?4, ?5)",
            )?;
            let mut cell = tx.prepare_cached(
                "INSERT OR REPLACE INTO click_cell_hours (website_id, path, hour, cx, cy, clicks)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?;
            let mut element = tx.prepare_cached(
                "INSERT OR REPLACE INTO element_click_hours
                    (website_id, path, hour, selector, bx, by, px, py, sum_fx, sum_fy, clicks)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11)",
            )?;
            let mut scroll = tx.prepare_cached(
                "INSERT OR REPLACE INTO scroll_hours (website_id, path, hour, decile, views) VALUES (?1, ?2, ?3, ?4, ?5)",
            )?;
            for ((path, hour), p) in &counted {
                page.execute(params![site, path, hour, p.ref_height, p.moves])?;
                for ((cx, cy), n) in &p.cells {
                    cell.execute(params![site, path, hour, cx, cy, n])?;
                }
                for ((selector, bx, by, px, py), (fx, fy, n)) in &p.elements {
                    element.execute(params![site, path, hour, selector, bx, by, px, py, fx, fy, n])?;
                }
                for (decile, n) in p.deciles.iter().enumerate().filter(|(_, n)| **n > 0) {
                    scroll.execute(params![site, path, hour, decile as i64, n])?;
                }
            }
            Ok(())
        })?;
        if !stored {
            return Ok(());
        }
    }
    store_settled_days(conn, site, first, until)
}

/// Stores the whole days of `[from, to)` whose 24 hours are all stored, each page's day summed from its hours and
/// packed into one row, so that a long range reads a row per day. A day per transaction, counted in a read
/// snapshot as the hours are.
fn store_settled_days(conn: &Connection, site: WebsiteId, from: Millis, to: Millis) -> Result<()> {
    let (first, until) = (((from - 1).div_euclid(DAY_MS) + 1) * DAY_MS, to.div_euclid(DAY_MS) * DAY_MS);
    if until <= first {
        return Ok(());
    }
    let stored: HashSet<Millis> = {
        let mut stmt =
            conn.prepare_cached("SELECT day FROM point_days_stored WHERE website_id = ?1 AND day >= ?2 AND day < ?3")?;
        let days = stmt.query_map(params![site, first, until], |r| r.get(0))?;
        days.collect::<rusqlite::Result<_>>()?
    };
    for day in (first..until).step_by(DAY_MS as usize).filter(|day| !stored.contains(day)) {
        let stored = super::stored_hours::store_day(conn, |tx| {
            let args = params![site, day, day + DAY_MS];
            let hours: i64 = tx.query_row(
                "SELECT COUNT(*) FROM point_hours_stored WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3",
                args,
                |r| r.get(0),
            )?;
            if hours < DAY_MS / HOUR_MS {
                return Ok(());
            }
            let mut pages: HashMap<String, PagePoints> = HashMap::new();
            let mut stmt = tx.prepare_cached(
                "SELECT path, cx, cy, SUM(clicks) FROM click_cell_hours
                 WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3 GROUP BY path, cx, cy",
            )?;
            let mut q = stmt.query(args)?;
            while let Some(r) = q.next()? {
                pages.entry(r.get(0)?).or_default().cells.insert((r.get(1)?, r.get(2)?), r.get(3)?);
            }
            let mut stmt = tx.prepare_cached(
                "SELECT path, selector, bx, by, px, py, SUM(sum_fx), SUM(sum_fy), SUM(clicks) FROM element_click_hours
                 WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3 GROUP BY path, selector, bx, by, px, py",
            )?;
            let mut q = stmt.query(args)?;
            while let Some(r) = q.next()? {
                pages
                    .entry(r.get(0)?)
                    .or_default()
                    .elements
                    .insert((r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?, r.get(5)?), (r.get(6)?, r.get(7)?, r.get(8)?));
            }
            let mut stmt = tx.prepare_cached(
                "SELECT path, decile, SUM(views) FROM scroll_hours
                 WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3 GROUP BY path, decile",
            )?;
            let mut q = stmt.query(args)?;
            while let Some(r) = q.next()? {
                let decile: i64 = r.get(1)?;
                pages.entry(r.get(0)?).or_default().deciles[decile.clamp(0, 10) as usize] += r.get::<_, i64>(2)?;
            }
            tx.prepare_cached("INSERT OR REPLACE INTO point_days_stored (website_id, day) VALUES (?1, ?2)")?
                .execute(params![site, day])?;
            let mut row = tx.prepare_cached(
                "INSERT OR REPLACE INTO point_days (website_id, path, day, cells, elements, deciles)
                 VALUES (?1, ?2, ?3, ?4, ?5, ?6)",
            )?;
            for (path, points) in &pages {
                let (cells, elements, deciles) = packed::pack(points);
                row.execute(params![site, path, day, cells, elements, deciles])?;
            }
            Ok(())
        })?;
        if !stored {
            break;
        }
    }
    Ok(())
}

/// Forgets the stored hours of `[from, to)` (ms; widened to whole hours) of a site and the days holding them, in
/// the caller's transaction.
pub(crate) fn forget_hours(conn: &Connection, site: WebsiteId, from: Millis, to: Millis) -> rusqlite::Result<()> {
    if from >= to {
        return Ok(());
    }
    let from = if from == Millis::MIN { from } else { from.div_euclid(HOUR_MS) * HOUR_MS };
    let to = if to == Millis::MAX { to } else { ((to - 1).div_euclid(HOUR_MS) + 1) * HOUR_MS };
    for statement in [
        "DELETE FROM point_hours_stored WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3",
        "DELETE FROM point_hours WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3",
        "DELETE FROM click_cell_hours WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3",
        "DELETE FROM element_click_hours WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3",
        "DELETE FROM scroll_hours WHERE website_id = ?1 AND hour >= ?2 AND hour < ?3",
    ] {
        conn.prepare_cached(statement)?.execute(params![site, from, to])?;
    }
    // A day is the sum of its hours: it goes with any of them.
    let from = if from == Millis::MIN { from } else { from.div_euclid(DAY_MS) * DAY_MS };
    let to = if to == Millis::MAX { to } else { ((to - 1).div_euclid(DAY_MS) + 1) * DAY_MS };
    for statement in [
        "DELETE FROM point_days_stored WHERE website_id = ?1 AND day >= ?2 AND day < ?3",
        "DELETE FROM point_days WHERE website_id = ?1 AND day >= ?2 AND day < ?3",
    ] {
        conn.prepare_cached(statement)?.execute(params![site, from, to])?;
    }
    Ok(())
}

/// The statements summing a page's stored hours of site `?1`, page `?2`, over `[?3, ?4)`: click cells, element
/// groups and scroll deciles.
const HOUR_SUMS: [&str; 3] = [
    "SELECT cx, cy, SUM(clicks) FROM click_cell_hours
     WHERE website_id = ?1 AND path = ?2 AND hour >= ?3 AND hour < ?4 GROUP BY cx, cy",
    "SELECT selector, bx, by, px, py, SUM(sum_fx), SUM(sum_fy), SUM(clicks) FROM element_click_hours
     WHERE website_id = ?1 AND path = ?2 AND hour >= ?3 AND hour < ?4 GROUP BY selector, bx, by, px, py",
    "SELECT decile, SUM(views) FROM scroll_hours
     WHERE website_id = ?1 AND path = ?2 AND hour >= ?3 AND hour < ?4 GROUP BY decile",
];

/// Adds the stored hours' sums of a page over `[from, to)` to `points`.
fn add_stored_hours(
    conn: &Connection,
    site: WebsiteId,
    path: &str,
    from: Millis,
    to: Millis,
    points: &mut PagePoints,
) -> Result<()> {
    if from >= to {
        return Ok(());
    }
    let args = params![site, path, from, to];
    let [cells, elements, deciles] = HOUR_SUMS;
    let mut stmt = conn.prepare_cached(cells)?;
    let mut q = stmt.query(args)?;
    while let Some(r) = q.next()? {
        *points.cells.entry((r.get(0)?, r.get(1)?)).or_default() += r.get::<_, i64>(2)?;
    }
    let mut stmt = conn.prepare_cached(elements)?;
    let mut q = stmt.query(args)?;
    while let Some(r) = q.next()? {
        let group = points.elements.entry((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?)).or_default();
        group.0 += r.get::<_, i64>(5)?;
        group.1 += r.get::<_, i64>(6)?;
        group.2 += r.get::<_, i64>(7)?;
    }
    let mut stmt = conn.prepare_cached(deciles)?;
    let mut q = stmt.query(args)?;
    while let Some(r) = q.next()? {
        let decile: i64 = r.get(0)?;
        points.deciles[decile.clamp(0, 10) as usize] += r.get::<_, i64>(1)?;
    }
    Ok(())
}

/// One page's point figures over a range: the settled hours (and whole days) stored first, then the stored days
/// and hours summed and the others counted from the raw rows, in one snapshot. Also the lower bound of the hours
/// holding the newest `moves` mouse moves, so that the caller reads only those.
pub(crate) fn page_points(
    conn: &Connection,
    site: WebsiteId,
    path: &str,
    range: TimeRange,
    now: Millis,
    moves: i64,
) -> Result<(PagePoints, Millis)> {
    store_settled_hours(conn, site, range, now)?;
    let snapshot = conn.unchecked_transaction()?;
    let mut points = PagePoints::default();
    let mut moves_per_hour: BTreeMap<Millis, i64> = BTreeMap::new();
    // The stored days wholly inside the range, then the hours between them (a long range's ragged ends).
    let days: Vec<Millis> = {
        let mut stmt = snapshot.prepare_cached(
            "SELECT day FROM point_days_stored WHERE website_id = ?1 AND day >= ?2 AND day <= ?3 ORDER BY day",
        )?;
        let days = stmt.query_map(params![site, range.start, range.end - DAY_MS], |r| r.get(0))?;
        days.collect::<rusqlite::Result<_>>()?
    };
    {
        let mut stmt = snapshot.prepare_cached(
            "SELECT cells, elements, deciles FROM point_days
             WHERE website_id = ?1 AND path = ?2 AND day >= ?3 AND day <= ?4",
        )?;
        let mut q = stmt.query(params![site, path, range.start, range.end - DAY_MS])?;
        while let Some(r) = q.next()? {
            let (cells, elements, deciles): (Vec<u8>, Vec<u8>, Vec<u8>) = (r.get(0)?, r.get(1)?, r.get(2)?);
            packed::add((&cells, &elements, &deciles), &mut points)?;
        }
    }
    let mut at = range.start;
    for day in days.iter().chain([&range.end]) {
        add_stored_hours(&snapshot, site, path, at, *day, &mut points)?;
        at = day + DAY_MS;
    }
    {
        let mut stmt = snapshot.prepare_cached(
            "SELECT hour, ref_height, moves FROM point_hours
             WHERE website_id = ?1 AND path = ?2 AND hour >= ?3 AND hour < ?4",
        )?;
        let mut q = stmt.query(params![site, path, range.start, range.end])?;
        while let Some(r) = q.next()? {
            points.ref_height = points.ref_height.max(r.get(1)?);
            moves_per_hour.insert(r.get(0)?, r.get(2)?);
        }
    }
    // Stored hours lie wholly inside the range (hours start on the hour); the rest is counted raw, in runs.
    let stored = stored_hours(&snapshot, site, range.start, range.end)?;
    let mut at = range.start;
    while at < range.end {
        let hour = at.div_euclid(HOUR_MS) * HOUR_MS;
        if hour == at && stored.contains(&hour) {
            at += HOUR_MS;
            continue;
        }
        let from = at;
        at = hour + HOUR_MS;
        while at < range.end && !stored.contains(&at) {
            at += HOUR_MS;
        }
        at = at.min(range.end);
        for ((_, hour), counted) in count_hours(&snapshot, site, Some(path), from, at)? {
            points.add(&counted);
            *moves_per_hour.entry(hour).or_default() += counted.moves;
        }
    }
    snapshot.finish()?;
    let mut seen = 0;
    let mut since = range.start;
    for (hour, n) in moves_per_hour.iter().rev() {
        seen += n;
        if seen >= moves {
            since = since.max(*hour);
            break;
        }
    }
    Ok((points, since))
}

/// The packed sums of a page's day in `point_days` (format in migration 0025): a list of integers, each
/// zigzag-encoded as an unsigned LEB128 varint. Why packed: a page's cells and element groups are mostly new each
/// hour, so a day keeps about a third of its hours' rows; one row per page and day is what makes a long range
/// cheap (90 rows and a decode, against about 57,000 rows summed by SQLite).
mod packed {
    use super::PagePoints;
    use crate::error::{Error, Result};

    fn put(out: &mut Vec<u8>, n: i64) {
        let mut v = ((n << 1) ^ (n >> 63)) as u64;
        while v >= 0x80 {
            out.push(v as u8 | 0x80);
            v >>= 7;
        }
        out.push(v as u8);
    }

    /// Reads integers off a blob; a blob that ends early or runs over is refused (never a wrong sum).
    struct Reader<'a>(&'a [u8]);

    impl Reader<'_> {
        fn next(&mut self) -> Result<i64> {
            let mut v: u64 = 0;
            for (i, byte) in self.0.iter().enumerate().take(10) {
                v |= u64::from(byte & 0x7f) << (7 * i);
                if byte & 0x80 == 0 {
                    self.0 = &self.0[i + 1..];
                    return Ok((v >> 1) as i64 ^ -((v & 1) as i64));
                }
            }
            Err(Error::Internal("a stored heatmap day is damaged".into()))
        }

        fn bytes(&mut self, n: i64) -> Result<&[u8]> {
            let n = usize::try_from(n).ok().filter(|n| *n <= self.0.len());
            let n = n.ok_or_else(|| Error::Internal("a stored heatmap day is damaged".into()))?;
            let (taken, rest) = self.0.split_at(n);
            self.0 = rest;
            Ok(taken)
        }
    }

    /// A page's day as (cells, elements, deciles) blobs.
    pub(super) fn pack(points: &PagePoints) -> (Vec<u8>, Vec<u8>, Vec<u8>) {
        let mut cells = Vec::with_capacity(points.cells.len() * 5);
        for (&(cx, cy), &n) in &points.cells {
            for v in [cx, cy, n] {
                put(&mut cells, v);
            }
        }
        let mut selectors: Vec<&str> = points.elements.keys().map(|k| k.0.as_str()).collect();
        selectors.sort_unstable();
        selectors.dedup();
        let mut elements = Vec::with_capacity(points.elements.len() * 16);
        put(&mut elements, selectors.len() as i64);
        for selector in &selectors {
            put(&mut elements, selector.len() as i64);
            elements.extend_from_slice(selector.as_bytes());
        }
        for ((selector, bx, by, px, py), &(fx, fy, n)) in &points.elements {
            let index = selectors.binary_search(&selector.as_str()).unwrap_or_default() as i64;
            for v in [index, *bx, *by, *px, *py, fx, fy, n] {
                put(&mut elements, v);
            }
        }
        let mut deciles = Vec::with_capacity(11);
        for n in points.deciles {
            put(&mut deciles, n);
        }
        (cells, elements, deciles)
    }

    /// Adds a page's packed day to `points`.
    pub(super) fn add((cells, elements, deciles): (&[u8], &[u8], &[u8]), points: &mut PagePoints) -> Result<()> {
        let mut r = Reader(cells);
        while !r.0.is_empty() {
            let cell = (r.next()?, r.next()?);
            *points.cells.entry(cell).or_default() += r.next()?;
        }
        let mut r = Reader(elements);
        let count = r.next()?;
        let mut selectors = Vec::new();
        for _ in 0..count {
            let len = r.next()?;
            let text = std::str::from_utf8(r.bytes(len)?)
                .map_err(|_| Error::Internal("a stored heatmap day is damaged".into()))?;
            selectors.push(text.to_string());
        }
        while !r.0.is_empty() {
            let index = usize::try_from(r.next()?).ok().filter(|i| *i < selectors.len());
            let selector = index.map(|i| selectors[i].clone());
            let selector = selector.ok_or_else(|| Error::Internal("a stored heatmap day is damaged".into()))?;
            let key = (selector, r.next()?, r.next()?, r.next()?, r.next()?);
            let group = points.elements.entry(key).or_default();
            group.0 += r.next()?;
            group.1 += r.next()?;
            group.2 += r.next()?;
        }
        let mut r = Reader(deciles);
        for total in points.deciles.iter_mut() {
            *total += r.next()?;
        }
        Ok(())
    }

    #[cfg(test)]
    mod tests {
        use super::*;

        /// Whatever a day holds comes back as it went in, extreme values included.
        #[test]
        fn a_packed_day_reads_back_as_it_was() {
            let mut day = PagePoints::default();
            day.cells.insert((5, 1_000_005), 3);
            day.cells.insert((1275, -5), i64::MAX);
            day.elements.insert(("#buy".into(), 3, -1, -1, 17), (1_500_000, 999_999, 2));
            day.elements.insert(("".into(), -1, -1, 199, 0), (i64::MIN, 0, 1));
            day.elements.insert(("nav > a:nth-child(2) ✓".into(), 0, 19, -1, -1), (0, 1_000_000, 1));
            day.deciles = [1, 0, 2, 0, 0, 0, 0, 0, 0, 0, 7];
            let (cells, elements, deciles) = pack(&day);
            let mut back = PagePoints::default();
            add((&cells, &elements, &deciles), &mut back).unwrap();
            assert_eq!(back, day);
            assert!(add((&cells[..cells.len() - 1], &elements, &deciles), &mut PagePoints::default()).is_err());
            assert!(add((&cells, &elements, &deciles[..5]), &mut PagePoints::default()).is_err());
        }
    }
}

#[cfg(test)]
#[path = "point_hours_tests.rs"]
mod tests;
