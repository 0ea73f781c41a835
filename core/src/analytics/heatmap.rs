//! Heatmaps of one page: click grid, clicks by element (to place them on the page as rendered), mouse-move
//! sample, scroll reach, page metrics and form fields; and the list of pages that have data.

use rusqlite::{Connection, params};
use serde::Serialize;

use super::overview::percent;
pub(crate) use super::page_hours::{MAX_TIME_ON_PAGE_MS, PageFigures};
pub(crate) use super::point_hours::PagePoints;
use super::point_hours::{self, FRACTION_UNIT};
use super::{Analytics, TimeRange, page_hours};
use crate::error::{Error, Result};
use crate::model::{WebsiteId, now_ms};

/// Width that click and move x coordinates are scaled to, whatever the visitor's page width was.
pub const REFERENCE_WIDTH: i64 = 1280;
/// Side of a click grid cell, in reference pixels.
pub const GRID: i64 = 10;
/// Most click cells and mouse positions returned.
pub const MAX_CELLS: i64 = 2_000;
pub const MAX_MOVES: i64 = 1_000;
/// Most form fields returned.
pub(crate) const MAX_FIELDS: i64 = 20;
/// Click offsets inside an element are grouped in steps of 1/OFFSET_STEPS of its box, page positions of
/// clicks without an offset in steps of 1/PAGE_STEPS of the page.
pub(crate) const OFFSET_STEPS: f64 = 20.0;
pub(crate) const PAGE_STEPS: f64 = 200.0;
/// Most pages the URL list returns, and how far back it looks for page views.
pub(crate) const MAX_URLS: i64 = 100;
pub(crate) const URL_DAYS: i64 = 90;

/// `GET /api/analytics/heatmap` (spec part 2 §3), plus the reference width of the coordinates.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Heatmap {
    pub clicks: Vec<ClickCell>,
    /// The clicks by element, for drawing them over the page rendered from a recording (API.md).
    pub element_clicks: Vec<ElementClick>,
    pub scroll_depth: Vec<ScrollReach>,
    pub mouse_movements: Vec<Position>,
    pub page_metrics: PageMetrics,
    pub form_interactions: Vec<FormField>,
    pub reference_width: i64,
    /// The page's height at the reference width (the tallest seen), 0 without interactions: the size of
    /// the canvas the heat is drawn on.
    pub reference_height: i64,
}

/// Clicks in a 10 px cell; x, y are the cell's centre (x scaled to the reference width).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct ClickCell {
    pub x: i64,
    pub y: i64,
    pub count: i64,
}

/// Clicks on one element at about one place inside it. The panel puts them at `offsetX`, `offsetY` of the
/// element's box when `selector` resolves in the rendered page, else at `pageX`, `pageY` (fractions of the
/// document's width and height, averaged over the group). Offsets are null for clicks sent without them.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ElementClick {
    pub selector: String,
    pub offset_x: Option<f64>,
    pub offset_y: Option<f64>,
    pub page_x: f64,
    pub page_y: f64,
    pub count: i64,
}

/// Share of page views that scrolled at least `depth` percent.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct ScrollReach {
    pub depth: i64,
    pub percentage: f64,
    pub visitors: i64,
}

#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
pub struct Position {
    pub x: i64,
    pub y: i64,
}

/// Of the visits that started in the range (as Advanced Analytics' top pages and the journeys count them).
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PageMetrics {
    /// Visits that viewed the page.
    pub total_visitors: i64,
    /// Seconds, one decimal.
    pub average_time_on_page: f64,
    /// Percent of visits entering on the page that viewed nothing else.
    pub bounce_rate: f64,
    /// Percent of visits viewing the page that converted.
    pub conversion_rate: f64,
}

/// A form field (its selector, and its form's): visits that focused or changed it, visits where it ended
/// filled, and visits that left it as the last field they touched of a form they never submitted.
#[derive(Debug, Clone, PartialEq, Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FormField {
    pub element: String,
    /// The form's selector, empty for a field outside any form.
    pub form: String,
    pub interactions: i64,
    pub completions: i64,
    pub drop_offs: i64,
    /// drop_offs of interactions, in percent.
    pub drop_off_rate: f64,
}

/// The path a heatmap is asked for: a full http(s) URL's path, or a path starting with '/'.
pub fn page_path(url: &str) -> Result<String> {
    let url = url.trim();
    if url.is_empty() {
        return Err(Error::invalid("url is required"));
    }
    if url.chars().count() > 2000 {
        return Err(Error::invalid("url must be at most 2000 characters"));
    }
    if url.starts_with('/') {
        let path = url.split(['?', '#']).next().unwrap_or("/");
        return Ok(path.to_string());
    }
    match url::Url::parse(url) {
        Ok(parsed) if matches!(parsed.scheme(), "http" | "https") => Ok(parsed.path().to_string()),
        _ => Err(Error::invalid("url must be a page path or an http(s) URL")),
    }
}

impl Analytics {
    /// Paths of a site with page views in the last 90 days or heatmap data, most viewed first.
    pub fn page_urls(&self, site: WebsiteId) -> Result<Vec<String>> {
        let since_s = (now_ms() / 1000).div_euclid(86_400) * 86_400 - URL_DAYS * 86_400;
        self.db.read(|conn| {
            let mut stmt = conn.prepare_cached(
                "SELECT path, SUM(views) AS v FROM (
                    SELECT value AS path, pageviews AS views FROM rollup_days
                     WHERE website_id = ?1 AND dim = 'page' AND bucket >= ?2
                    UNION ALL
                    SELECT path, 0 FROM heatmap_points WHERE website_id = ?1 GROUP BY path
                    UNION ALL
                    SELECT path, 0 FROM scroll_depths WHERE website_id = ?1 GROUP BY path
                 ) GROUP BY path ORDER BY v DESC, path LIMIT ?3",
            )?;
            let rows = stmt.query_map(params![site, since_s, MAX_URLS], |r| r.get(0))?;
            Ok(rows.collect::<rusqlite::Result<_>>()?)
        })
    }

    /// Stores the heatmap's settled page and point hours (and whole point days) of a range that are not stored yet
    /// (the warming pass).
    pub(crate) fn store_page_hours(&self, site: WebsiteId, range: TimeRange) -> Result<()> {
        self.db.read(|conn| {
            page_hours::store_settled_hours(conn, site, range, now_ms())?;
            point_hours::store_settled_hours(conn, site, range, now_ms())
        })
    }

    /// The heatmap of one page over a range.
    pub fn heatmap(&self, site: WebsiteId, path: &str, range: TimeRange) -> Result<Heatmap> {
        self.db.read(|conn| {
            let (points, moves_since) = point_hours::page_points(conn, site, path, range, now_ms(), MAX_MOVES)?;
            Ok(Heatmap::of(
                &points,
                moves(conn, site, path, moves_since, range.end)?,
                page_hours::page_figures(conn, site, path, range, now_ms())?,
                form_fields(conn, site, path, range)?,
            ))
        })
    }
}

impl Heatmap {
    /// The heatmap of a page's point figures, its newest moves, its page figures and its form fields, as
    /// either engine counts them.
    pub(crate) fn of(
        points: &PagePoints,
        mouse_movements: Vec<Position>,
        figures: PageFigures,
        form_interactions: Vec<FormField>,
    ) -> Heatmap {
        Heatmap {
            clicks: click_cells(points),
            element_clicks: element_clicks(points),
            scroll_depth: scroll_reach(&points.deciles),
            mouse_movements,
            page_metrics: page_metrics(figures),
            form_interactions,
            reference_width: REFERENCE_WIDTH,
            reference_height: points.ref_height,
        }
    }
}

impl FormField {
    pub(crate) fn new(element: String, form: String, interactions: i64, completions: i64, drop_offs: i64) -> Self {
        let drop_off_rate = percent(drop_offs, interactions);
        FormField { element, form, interactions, completions, drop_offs, drop_off_rate }
    }
}

/// The most clicked grid cells, most clicks first.
fn click_cells(points: &PagePoints) -> Vec<ClickCell> {
    let mut cells: Vec<ClickCell> = points.cells.iter().map(|(&(x, y), &count)| ClickCell { x, y, count }).collect();
    cells.sort_unstable_by(|a, b| b.count.cmp(&a.count).then(a.y.cmp(&b.y)).then(a.x.cmp(&b.x)));
    cells.truncate(MAX_CELLS as usize);
    cells
}

/// The largest element groups, most clicks first; page fractions averaged from their sums.
fn element_clicks(points: &PagePoints) -> Vec<ElementClick> {
    let mut groups: Vec<_> = points.elements.iter().collect();
    groups.sort_unstable_by(|(a, sa), (b, sb)| sb.2.cmp(&sa.2).then_with(|| a.cmp(b)));
    groups.truncate(MAX_CELLS as usize);
    groups
        .into_iter()
        .map(|((selector, bx, by, _, _), &(fx, fy, count))| ElementClick {
            selector: selector.clone(),
            offset_x: (*bx >= 0).then(|| *bx as f64 / OFFSET_STEPS),
            offset_y: (*by >= 0).then(|| *by as f64 / OFFSET_STEPS),
            page_x: fx as f64 / count as f64 / FRACTION_UNIT,
            page_y: fy as f64 / count as f64 / FRACTION_UNIT,
            count,
        })
        .collect()
}

/// The newest mouse moves of `[since, end)`: `since` bounds the hours that hold enough of them.
fn moves(conn: &Connection, site: WebsiteId, path: &str, since: i64, end: i64) -> Result<Vec<Position>> {
    let mut stmt = conn.prepare_cached(
        "SELECT MIN(x * ?5 / page_w, ?5), y FROM heatmap_points
         WHERE website_id = ?1 AND path = ?2 AND ts >= ?3 AND ts < ?4 AND kind = 'move'
         ORDER BY ts DESC, id DESC LIMIT ?6",
    )?;
    let rows = stmt.query_map(params![site, path, since, end, REFERENCE_WIDTH, MAX_MOVES], |r| {
        Ok(Position { x: r.get(0)?, y: r.get(1)? })
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

/// Reach at 0, 10, ..., 100 percent from the page views per depth decile; empty without scroll data.
fn scroll_reach(per_decile: &[i64; 11]) -> Vec<ScrollReach> {
    let total: i64 = per_decile.iter().sum();
    if total == 0 {
        return Vec::new();
    }
    let mut reached = total;
    let mut reach = Vec::with_capacity(11);
    for (decile, count) in per_decile.iter().enumerate() {
        reach.push(ScrollReach { depth: decile as i64 * 10, percentage: percent(reached, total), visitors: reached });
        reached -= count;
    }
    reach
}

/// Page Performance over the visits that started in the range.
fn page_metrics(f: PageFigures) -> PageMetrics {
    let average_ms = if f.timed_views == 0 { 0.0 } else { f.time_ms as f64 / f.timed_views as f64 };
    PageMetrics {
        total_visitors: f.viewers,
        average_time_on_page: (average_ms / 100.0).round() / 10.0,
        bounce_rate: percent(f.bounces, f.entries),
        conversion_rate: percent(f.converted, f.viewers),
    }
}

/// Per field, from its focus, blur and change events: a visit counts once per field; it completed the field
/// when its last event there left it filled, and dropped off there when that field was the last it touched
/// of a form it never submitted on the page.
fn form_fields(conn: &Connection, site: WebsiteId, path: &str, range: TimeRange) -> Result<Vec<FormField>> {
    let mut stmt = conn.prepare_cached(
        "WITH touched AS (
            SELECT session_id, form, field, filled,
                   ROW_NUMBER() OVER (PARTITION BY session_id, form, field ORDER BY ts DESC, id DESC) AS last_of_field,
                   ROW_NUMBER() OVER (PARTITION BY session_id, form ORDER BY ts DESC, id DESC) AS last_of_form
            FROM form_field_events
            WHERE website_id = ?1 AND path = ?2 AND ts >= ?3 AND ts < ?4
         ),
         submitted AS (
            SELECT DISTINCT session_id, selector AS form FROM heatmap_points
            WHERE website_id = ?1 AND path = ?2 AND ts >= ?3 AND ts < ?4 AND kind = 'submit'
         )
         SELECT t.field, t.form, SUM(t.last_of_field = 1) AS n, SUM(t.last_of_field = 1 AND t.filled = 1),
                SUM(t.last_of_form = 1 AND s.session_id IS NULL)
         FROM touched t LEFT JOIN submitted s ON s.session_id = t.session_id AND s.form = t.form
         GROUP BY t.form, t.field ORDER BY n DESC, t.form, t.field LIMIT ?5",
    )?;
    let rows = stmt.query_map(params![site, path, range.start, range.end, MAX_FIELDS], |r| {
        Ok(FormField::new(r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?, r.get(4)?))
    })?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn paths_from_urls() {
        assert_eq!(page_path("https://e.com/a/b?x=1").unwrap(), "/a/b");
        assert_eq!(page_path("/pricing?x#y").unwrap(), "/pricing");
        assert_eq!(page_path("https://e.com").unwrap(), "/");
        assert!(page_path("").is_err());
        assert!(page_path("javascript:x").is_err());
    }

    /// Times the read alone against a seeded folder (`TRACKER_BENCH_DIR`, as `tracker-loadgen seed` and
    /// `seed-interactions` fill it; warmed by a first call), apart from the JSON it becomes, to tell which costs
    /// what in `tracker-loadgen query`'s figures: `cargo test --release -p tracker-core heatmap_read_alone --
    /// --ignored --nocapture`.
    #[test]
    #[ignore = "needs a seeded folder in TRACKER_BENCH_DIR"]
    fn heatmap_read_alone() {
        use std::time::Instant;
        let dir = std::env::var_os("TRACKER_BENCH_DIR").expect("TRACKER_BENCH_DIR");
        let config = crate::config::Config { data_dir: dir.into(), ..Default::default() };
        let tracker = crate::tracker::Tracker::open(&config).unwrap();
        let site: WebsiteId =
            tracker.db().read(|c| Ok(c.query_row("SELECT MIN(id) FROM websites", [], |r| r.get(0))?)).unwrap();
        for name in ["7d", "90d"] {
            let range = TimeRange::parse(name, now_ms()).unwrap();
            let started = Instant::now();
            tracker.analytics().heatmap(site, "/pricing", range).unwrap();
            println!("{name}: first call {:.1} ms", started.elapsed().as_secs_f64() * 1000.0);
            let (mut points, mut reads, mut shapes) = (Vec::new(), Vec::new(), Vec::new());
            let mut bytes = 0;
            for _ in 0..20 {
                let started = Instant::now();
                let page = |c: &Connection| point_hours::page_points(c, site, "/pricing", range, now_ms(), MAX_MOVES);
                tracker.db().read(page).unwrap();
                points.push(started.elapsed().as_secs_f64() * 1000.0);
                let started = Instant::now();
                let heatmap = tracker.analytics().heatmap(site, "/pricing", range).unwrap();
                reads.push(started.elapsed().as_secs_f64() * 1000.0);
                let started = Instant::now();
                bytes = serde_json::to_vec(&heatmap).unwrap().len();
                shapes.push(started.elapsed().as_secs_f64() * 1000.0);
            }
            for times in [&mut points, &mut reads, &mut shapes] {
                times.sort_by(f64::total_cmp);
            }
            println!(
                "{name}: points p50 {:.2} ms p95 {:.2} ms; whole read p50 {:.2} ms p95 {:.2} ms; JSON p50 {:.2} ms \
                 p95 {:.2} ms, {bytes} bytes",
                points[9], points[18], reads[9], reads[18], shapes[9], shapes[18]
            );
        }
    }
}
