//! The heatmap's point figures per page and hour of the points' own time: click grid cells, clicks by element
//! group (with their summed page fractions), the tallest page and the mouse-move count, and scroll depth
//! deciles. Settled hours are kept in the tables of migration 0023; the other hours of a range are counted from
//! the raw rows on each read, which also stores the settled ones. Called by `heatmap.rs` and the warming pass;
//! whatever changes points forgets hours through `forget_stored_hours`, and the interactions ingest through
//! [`forget_hours`] for points stamped late.
//!
//! Why: each read went through every point of the page and range (at 10M events with one click and one scroll
//! depth per /pricing page view, 90 days: p95 5.97 s). Now a read sums one page's stored hours.

use std::collections::{BTreeMap, HashMap, HashSet};

use rusqlite::{Connection, params};

use super::TimeRange;
use super::heatmap::{GRID, OFFSET_STEPS, PAGE_STEPS, REFERENCE_WIDTH};
use super::stored_hours::SETTLED_MS;
use super::visit_hours::HOUR_MS;
use crate::error::Result;
use crate::model::{Millis, WebsiteId};

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
            break;
        }
    }
    Ok(())
}

/// Forgets the stored hours of `[from, to)` (ms; widened to whole hours) of a site, in the caller's transaction.
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
    Ok(())
}

/// One page's point figures over a range: the settled hours stored first, then the stored ones summed and the
/// others counted from the raw rows, in one snapshot. Also the lower bound of the hours holding the newest
/// `moves` mouse moves, so that the caller reads only those.
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
    let args = params![site, path, range.start, range.end];
    {
        let mut stmt = snapshot.prepare_cached(
            "SELECT cx, cy, SUM(clicks) FROM click_cell_hours
             WHERE website_id = ?1 AND path = ?2 AND hour >= ?3 AND hour < ?4 GROUP BY cx, cy",
        )?;
        let mut q = stmt.query(args)?;
        while let Some(r) = q.next()? {
            points.cells.insert((r.get(0)?, r.get(1)?), r.get(2)?);
        }
        let mut stmt = snapshot.prepare_cached(
            "SELECT selector, bx, by, px, py, SUM(sum_fx), SUM(sum_fy), SUM(clicks) FROM element_click_hours
             WHERE website_id = ?1 AND path = ?2 AND hour >= ?3 AND hour < ?4 GROUP BY selector, bx, by, px, py",
        )?;
        let mut q = stmt.query(args)?;
        while let Some(r) = q.next()? {
            points
                .elements
                .insert((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?), (r.get(5)?, r.get(6)?, r.get(7)?));
        }
        let mut stmt = snapshot.prepare_cached(
            "SELECT hour, ref_height, moves FROM point_hours
             WHERE website_id = ?1 AND path = ?2 AND hour >= ?3 AND hour < ?4",
        )?;
        let mut q = stmt.query(args)?;
        while let Some(r) = q.next()? {
            points.ref_height = points.ref_height.max(r.get(1)?);
            moves_per_hour.insert(r.get(0)?, r.get(2)?);
        }
        let mut stmt = snapshot.prepare_cached(
            "SELECT decile, SUM(views) FROM scroll_hours
             WHERE website_id = ?1 AND path = ?2 AND hour >= ?3 AND hour < ?4 GROUP BY decile",
        )?;
        let mut q = stmt.query(args)?;
        while let Some(r) = q.next()? {
            let decile: i64 = r.get(0)?;
            points.deciles[decile.clamp(0, 10) as usize] += r.get::<_, i64>(1)?;
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

#[cfg(test)]
mod tests {
    use super::*;
    use crate::analytics::heatmap::{ClickCell, ElementClick, Heatmap, MAX_CELLS, MAX_MOVES, Position};
    use crate::analytics::stored_hours::LATE_HIT_MS;
    use crate::ingest::interactions::{ClickIn, MoveIn, Size};
    use crate::ingest::{InteractionsRequest, Submitted};
    use crate::model::{TrackingLevel, now_ms};
    use crate::store::websites::NewWebsite;
    use crate::testing::{client, one_site, rows};
    use crate::tracker::Tracker;

    const PAGES: [&str; 3] = ["/", "/pricing", "/signup"];
    const SELECTORS: [&str; 4] = ["#buy", "nav > a:nth-child(2)", "footer a", ""];

    /// One interactions body of visitor `v` on a page, its clicks stamped `clicked` (ms, client time).
    fn body(key: &str, v: i64, clicked: Millis) -> InteractionsRequest {
        let (w, h) = if v % 3 == 0 { (390.0, 4200.0 + v as f64) } else { (1400.0, 2600.0 + v as f64) };
        InteractionsRequest {
            tracking_key: key.into(),
            session_id: format!("visitor-{v:03}"),
            url: format!("https://p.example.com{}", PAGES[(v % 3) as usize]),
            viewport: Size { w, h: 800.0 },
            page: Size { w, h },
            clicks: (0..(v % 4 + 1))
                .map(|c| ClickIn {
                    x: ((v * 37 + c * 11) % w as i64) as f64,
                    y: ((v * 53 + c * 7) % 900) as f64,
                    selector: Some(SELECTORS[((v + c) % 4) as usize].into()),
                    ox: (v % 5 != 0).then(|| ((v + c) % 10) as f64 / 10.0),
                    oy: (v % 5 != 0).then(|| ((v * c) % 7) as f64 / 7.0),
                    t: Some(clicked + c * 1_000),
                })
                .collect(),
            moves: (0..(v % 3)).map(|m| MoveIn { x: (m * 40 + v) as f64, y: (v * 9) as f64 }).collect(),
            submits: Vec::new(),
            fields: Vec::new(),
            scroll_depth: Some(((v * 17) % 101) as f64),
        }
    }

    fn send(tracker: &Tracker, bodies: impl IntoIterator<Item = InteractionsRequest>) {
        let commits: Vec<_> = bodies
            .into_iter()
            .map(|b| match tracker.ingest.interactions(b, &client("198.18.0.4", "Mozilla/5.0 Chrome/1")).unwrap() {
                Submitted::Queued(commit) => commit,
                Submitted::Ignored => panic!("a test body was ignored"),
            })
            .collect();
        for commit in commits {
            commit.wait_blocking().unwrap();
        }
    }

    /// The point figures of a page straight from the raw rows, as API.md defines them.
    #[allow(clippy::type_complexity)]
    fn raw(
        conn: &Connection,
        site: WebsiteId,
        path: &str,
        range: TimeRange,
    ) -> (Vec<ClickCell>, Vec<ElementClick>, Vec<(i64, i64)>, i64, Vec<Position>) {
        let args = params![site, path, range.start, range.end];
        let mut stmt = conn
            .prepare(
                "SELECT MIN(x * 1280 / page_w, 1279) / 10 * 10 + 5 AS cx, y / 10 * 10 + 5 AS cy, COUNT(*) AS n
                 FROM heatmap_points WHERE website_id = ?1 AND path = ?2 AND ts >= ?3 AND ts < ?4 AND kind = 'click'
                 GROUP BY cx, cy ORDER BY n DESC, cy, cx",
            )
            .unwrap();
        let mut cells: Vec<ClickCell> = stmt
            .query_map(args, |r| Ok(ClickCell { x: r.get(0)?, y: r.get(1)?, count: r.get(2)? }))
            .unwrap()
            .map(Result::unwrap)
            .collect();
        cells.truncate(MAX_CELLS as usize);
        let mut stmt = conn
            .prepare(
                "SELECT selector, COALESCE(CAST(ROUND(offset_x * 20) AS INTEGER), -1) AS bx,
                        COALESCE(CAST(ROUND(offset_y * 20) AS INTEGER), -1) AS by,
                        CASE WHEN offset_x IS NULL THEN CAST(x * 200.0 / page_w AS INTEGER) ELSE -1 END AS px,
                        CASE WHEN offset_x IS NULL THEN CAST(y * 200.0 / page_h AS INTEGER) ELSE -1 END AS py,
                        SUM(CAST(ROUND(MIN(CAST(x AS REAL) / page_w, 1.0) * 1000000) AS INTEGER)),
                        SUM(CAST(ROUND(MIN(CAST(y AS REAL) / page_h, 1.0) * 1000000) AS INTEGER)), COUNT(*) AS n
                 FROM heatmap_points WHERE website_id = ?1 AND path = ?2 AND ts >= ?3 AND ts < ?4 AND kind = 'click'
                 GROUP BY selector, bx, by, px, py ORDER BY n DESC, selector, bx, by, px, py",
            )
            .unwrap();
        let mut elements: Vec<ElementClick> = stmt
            .query_map(args, |r| {
                let (bx, by, n): (i64, i64, i64) = (r.get(1)?, r.get(2)?, r.get(7)?);
                Ok(ElementClick {
                    selector: r.get(0)?,
                    offset_x: (bx >= 0).then(|| bx as f64 / 20.0),
                    offset_y: (by >= 0).then(|| by as f64 / 20.0),
                    page_x: r.get::<_, i64>(5)? as f64 / n as f64 / 1e6,
                    page_y: r.get::<_, i64>(6)? as f64 / n as f64 / 1e6,
                    count: n,
                })
            })
            .unwrap()
            .map(Result::unwrap)
            .collect();
        elements.truncate(MAX_CELLS as usize);
        let mut stmt = conn
            .prepare(
                "SELECT depth / 10 * 10, COUNT(*) FROM scroll_depths
                 WHERE website_id = ?1 AND path = ?2 AND ts >= ?3 AND ts < ?4 GROUP BY depth / 10 ORDER BY 1",
            )
            .unwrap();
        let deciles = stmt.query_map(args, |r| Ok((r.get(0)?, r.get(1)?))).unwrap().map(Result::unwrap).collect();
        let height = conn
            .query_row(
                "SELECT COALESCE(MAX(page_h * 1280 / page_w), 0) FROM heatmap_points
                 WHERE website_id = ?1 AND path = ?2 AND ts >= ?3 AND ts < ?4",
                args,
                |r| r.get(0),
            )
            .unwrap();
        let mut stmt = conn
            .prepare(
                "SELECT MIN(x * 1280 / page_w, 1280), y FROM heatmap_points
                 WHERE website_id = ?1 AND path = ?2 AND ts >= ?3 AND ts < ?4 AND kind = 'move'
                 ORDER BY ts DESC, id DESC LIMIT ?5",
            )
            .unwrap();
        let moves = stmt
            .query_map(params![site, path, range.start, range.end, MAX_MOVES], |r| {
                Ok(Position { x: r.get(0)?, y: r.get(1)? })
            })
            .unwrap()
            .map(Result::unwrap)
            .collect();
        (cells, elements, deciles, height, moves)
    }

    fn assert_matches_raw(tracker: &Tracker, site: WebsiteId, what: &str) {
        for name in ["1d", "7d"] {
            let range = TimeRange::parse(name, now_ms()).unwrap();
            for path in PAGES {
                // Twice: the first read may store hours, the second reads them.
                for _ in 0..2 {
                    let Heatmap { clicks, element_clicks, scroll_depth, mouse_movements, reference_height, .. } =
                        tracker.analytics.heatmap(site, path, range).unwrap();
                    let (cells, elements, deciles, height, moves) =
                        tracker.db().read(|c| Ok(raw(c, site, path, range))).unwrap();
                    assert_eq!(clicks, cells, "{what}, {name}, {path}: click cells");
                    assert_eq!(element_clicks, elements, "{what}, {name}, {path}: element clicks");
                    assert_eq!(reference_height, height, "{what}, {name}, {path}: reference height");
                    assert_eq!(mouse_movements, moves, "{what}, {name}, {path}: moves");
                    // Reach at each decile is the views at it or deeper.
                    let total: i64 = deciles.iter().map(|d| d.1).sum();
                    let reach: Vec<(i64, i64)> = (0..=10)
                        .map(|d| (d * 10, total - deciles.iter().filter(|x| x.0 < d * 10).map(|x| x.1).sum::<i64>()))
                        .filter(|_| total > 0)
                        .collect();
                    let got: Vec<(i64, i64)> = scroll_depth.iter().map(|s| (s.depth, s.visitors)).collect();
                    assert_eq!(got, reach, "{what}, {name}, {path}: scroll reach");
                }
            }
        }
    }

    /// Clicks stamped over the last day (as a client sends them), moves and scroll depths now: the stored hours
    /// plus the open ones equal a raw read, before and after late clicks into stored hours and an erasure.
    #[test]
    fn stored_point_hours_equal_a_raw_read() {
        let fixture = one_site();
        let tracker = &fixture.tracker;
        let new = NewWebsite {
            name: "P".into(),
            domain: "p.example.com".into(),
            tracking_level: Some(TrackingLevel::Enhanced),
        };
        let website = tracker.websites.create(fixture.user.id, new).unwrap();
        let (site, key) = (website.id, website.tracking_key.as_str());
        let now = now_ms();
        send(tracker, (0..120).map(|v| body(key, v, now - 23 * HOUR_MS + v * 11 * 60_000)));
        assert_matches_raw(tracker, site, "seeded");
        let stored = rows(tracker, "point_hours_stored");
        assert!(stored >= 20, "{stored} hours stored");
        assert!(rows(tracker, "click_cell_hours") > 0 && rows(tracker, "element_click_hours") > 0);

        // Late clicks of new visitors into stored hours (the interactions ingest forgets those hours).
        let late = now - 5 * HOUR_MS;
        assert!(late + 40 * 60_000 < now - LATE_HIT_MS);
        send(tracker, (200..240).map(|v| body(key, v, late + (v - 200) * 60_000)));
        assert_matches_raw(tracker, site, "after late clicks");

        // A visitor erased: their clicks in stored hours go (forget_stored_hours).
        tracker.privacy.delete_visitor(site, "visitor-013").unwrap();
        assert_matches_raw(tracker, site, "after an erasure");
    }

    /// Retention deletes the points before its cut-off: only the hours it could have changed are forgotten, the
    /// later stored hours stay (each is a day's worth of counting at 10M events).
    #[test]
    fn retention_forgets_only_the_point_hours_before_its_cutoff() {
        let fixture = one_site();
        let tracker = &fixture.tracker;
        let new = NewWebsite {
            name: "P".into(),
            domain: "p.example.com".into(),
            tracking_level: Some(TrackingLevel::Enhanced),
        };
        let website = tracker.websites.create(fixture.user.id, new).unwrap();
        let (site, key) = (website.id, website.tracking_key.as_str());
        let now = now_ms();
        send(tracker, (0..60).map(|v| body(key, v, now - 23 * HOUR_MS + v * 22 * 60_000)));
        let range = TimeRange::parse("1d", now).unwrap();
        tracker.analytics.heatmap(site, PAGES[0], range).unwrap();
        let stored_from = |from: Millis| -> Vec<Millis> {
            let sql = "SELECT hour FROM point_hours_stored WHERE website_id = ?1 AND hour >= ?2 ORDER BY hour";
            tracker
                .db()
                .read(|c| {
                    Ok(c.prepare(sql)?
                        .query_map(params![site, from], |r| r.get(0))?
                        .collect::<rusqlite::Result<_>>()?)
                })
                .unwrap()
        };
        // Heatmaps are kept 30 days: a run 30 days less 12 hours from now cuts 12 hours back.
        let cutoff = now - 12 * HOUR_MS;
        let after_cutoff = stored_from((cutoff.div_euclid(HOUR_MS) + 1) * HOUR_MS);
        assert!(after_cutoff.len() >= 10, "{} hours stored after the cut-off", after_cutoff.len());
        let report = tracker.privacy.apply_retention_at(cutoff + 30 * 24 * HOUR_MS).unwrap();
        assert!(report.total["heatmaps"] > 0, "{report:?}");
        assert_eq!(stored_from((cutoff.div_euclid(HOUR_MS) + 1) * HOUR_MS), after_cutoff, "hours after the cut-off");
        assert!(stored_from(Millis::MIN).len() < 24 - 2, "the hours before the cut-off are forgotten");
        assert_matches_raw(tracker, site, "after retention");
    }
}
