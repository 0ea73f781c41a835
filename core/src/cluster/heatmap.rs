//! The heatmap of one page read from ClickHouse (`interactions` and, for its page figures, `hits`), with the
//! figures SQLite's `analytics/heatmap.rs` gives: the same click cells and element groups (SQLite's integer and
//! rounding arithmetic written out), the newest moves, the deepest scroll per page view, the page figures of
//! the visits started in the range and the form fields.

use std::collections::{BTreeMap, HashMap};

use super::clickhouse::quote;
use super::events::Events;
use super::visits::{EARLIER_HITS_MS, int, text};
use crate::analytics::TimeRange;
use crate::analytics::heatmap::{
    FormField, GRID, Heatmap, MAX_FIELDS, MAX_MOVES, MAX_TIME_ON_PAGE_MS, OFFSET_STEPS, PAGE_STEPS, PageFigures,
    PagePoints, Position, REFERENCE_WIDTH,
};
use crate::error::Result;
use crate::model::{Millis, WebsiteId};

/// Page fractions are summed in millionths (`point_hours::FRACTION_UNIT`).
const FRACTION_UNIT: &str = "1000000.";

/// A form-field event of a visit: time, place in its body, field, whether it left the field filled.
type FieldRow = (Millis, i64, String, bool);

/// SQLite's `ROUND(v)` of a float: half away from zero.
fn sqlite_round(v: &str) -> String {
    format!("if(({v}) < 0, -floor(-({v}) + 0.5), floor(({v}) + 0.5))")
}

impl Events {
    /// `GET /api/analytics/heatmap` in cluster mode: the heatmap of `path` over `range`.
    pub fn heatmap(&self, site: WebsiteId, path: &str, range: TimeRange) -> Result<Heatmap> {
        let points = self.page_points(site, path, range)?;
        let moves = self.newest_moves(site, path, range)?;
        let figures = self.page_figures(site, path, range)?;
        let fields = self.form_fields(site, path, range)?;
        Ok(Heatmap::of(&points, moves, figures, fields))
    }

    /// The rows of `interactions` of one page in a range, as SQL.
    fn page_rows(&self, site: WebsiteId, path: &str, range: TimeRange) -> String {
        format!("website_id = {site} AND path = {} AND ts >= {} AND ts < {}", quote(path), range.start, range.end)
    }

    /// Click cells, element groups, the tallest page and the scroll depth deciles, as `point_hours` counts them.
    fn page_points(&self, site: WebsiteId, path: &str, range: TimeRange) -> Result<PagePoints> {
        let (db, rows) = (self.database(), self.page_rows(site, path, range));
        let node = &self.nodes()[0];
        let mut points = PagePoints::default();
        for row in node.query(&format!(
            "SELECT intDiv(least(intDiv(x * {REFERENCE_WIDTH}, page_w), {REFERENCE_WIDTH} - 1), {GRID}) * {GRID}
                    + intDiv({GRID}, 2) AS cx,
                    intDiv(y, {GRID}) * {GRID} + intDiv({GRID}, 2) AS cy, count()
             FROM {db}.interactions WHERE {rows} AND kind = 'click' GROUP BY cx, cy"
        ))? {
            points.cells.insert((int(&row, 0)?, int(&row, 1)?), int(&row, 2)?);
        }
        let (bx, by) = (
            sqlite_round(&format!("assumeNotNull(offset_x) * {OFFSET_STEPS:?}")),
            sqlite_round(&format!("assumeNotNull(offset_y) * {OFFSET_STEPS:?}")),
        );
        let (fx, fy) = (
            sqlite_round(&format!("least(x / page_w, 1.) * {FRACTION_UNIT}")),
            sqlite_round(&format!("least(y / page_h, 1.) * {FRACTION_UNIT}")),
        );
        for row in node.query(&format!(
            "SELECT selector, if(isNull(offset_x), -1, toInt64({bx})) AS bx, if(isNull(offset_y), -1, toInt64({by})) AS by,
                    if(isNull(offset_x), toInt64(x * {PAGE_STEPS:?} / page_w), -1) AS px,
                    if(isNull(offset_x), toInt64(y * {PAGE_STEPS:?} / page_h), -1) AS py,
                    sum(toInt64({fx})), sum(toInt64({fy})), count()
             FROM {db}.interactions WHERE {rows} AND kind = 'click' GROUP BY selector, bx, by, px, py"
        ))? {
            let key = (text(&row, 0)?, int(&row, 1)?, int(&row, 2)?, int(&row, 3)?, int(&row, 4)?);
            points.elements.insert(key, (int(&row, 5)?, int(&row, 6)?, int(&row, 7)?));
        }
        points.ref_height = node.query_value(&format!(
            "SELECT max(intDiv(page_h * {REFERENCE_WIDTH}, page_w)) FROM {db}.interactions
             WHERE {rows} AND kind IN ('click', 'move', 'submit') AND page_w > 0"
        ))?;
        points.deciles = self.scroll_deciles(site, path, range)?;
        Ok(points)
    }

    /// Page views per decile of their deepest scroll, of the page views whose latest report is in the range.
    ///
    /// SQLite keeps one row per page view: a report raises the depth of the visit's latest page view of the
    /// path when it arrives, and moves the row to the report's time. Here each report is a row; a report's
    /// page view is the visit's latest page view of the path up to the report (SQLite's, when hits arrive in
    /// their order), none (0) without one. Only the visits with a report in the range can have such a page view,
    /// and a visit's rows are on one shard (the INs read `interactions_local`).
    fn scroll_deciles(&self, site: WebsiteId, path: &str, range: TimeRange) -> Result<[i64; 11]> {
        let (db, page) = (self.database(), quote(path));
        let visits = format!(
            "SELECT visit_id FROM {db}.interactions_local WHERE {} AND kind = 'scroll'",
            self.page_rows(site, path, range)
        );
        let node = &self.nodes()[0];
        let reports = node.query(&format!(
            "SELECT visit_id, ts, depth FROM {db}.interactions
             WHERE website_id = {site} AND path = {page} AND kind = 'scroll' AND ts < {} AND visit_id IN ({visits})",
            range.end
        ))?;
        if reports.is_empty() {
            return Ok([0; 11]);
        }
        let mut views: HashMap<i64, Vec<Millis>> = HashMap::new();
        for row in node.query(&format!(
            "SELECT visit_id, ts FROM {db}.hits
             WHERE website_id = {site} AND path = {page} AND kind = 'pageview' AND visit_id IN ({visits})"
        ))? {
            views.entry(int(&row, 0)?).or_default().push(int(&row, 1)?);
        }
        // Per (visit, page view time): the deepest scroll and the latest report.
        let mut per_view: HashMap<(i64, Millis), (i64, Millis)> = HashMap::new();
        for row in &reports {
            let (visit, ts, depth) = (int(row, 0)?, int(row, 1)?, int(row, 2)?);
            let view = views.get(&visit).and_then(|v| v.iter().filter(|&&t| t <= ts).max()).copied().unwrap_or(0);
            let entry = per_view.entry((visit, view)).or_insert((depth, ts));
            *entry = (entry.0.max(depth), entry.1.max(ts));
        }
        let mut deciles = [0; 11];
        for (depth, ts) in per_view.into_values() {
            if ts >= range.start {
                deciles[(depth / 10).clamp(0, 10) as usize] += 1;
            }
        }
        Ok(deciles)
    }

    /// The newest `MAX_MOVES` mouse moves of the range, newest first (a body's moves share its time: the later
    /// in the body first, as SQLite's row ids order them).
    fn newest_moves(&self, site: WebsiteId, path: &str, range: TimeRange) -> Result<Vec<Position>> {
        let rows = self.nodes()[0].query(&format!(
            "SELECT least(intDiv(x * {REFERENCE_WIDTH}, page_w), {REFERENCE_WIDTH}), y FROM {}.interactions
             WHERE {} AND kind = 'move' ORDER BY ts DESC, seq DESC LIMIT {MAX_MOVES}",
            self.database(),
            self.page_rows(site, path, range)
        ))?;
        rows.iter().map(|row| Ok(Position { x: int(row, 0)?, y: int(row, 1)? })).collect()
    }

    /// The page's figures over the visits that started in the range, as `page_hours` counts them: a visit's
    /// page views in time order, each timed until the next or the visit's last activity (its hits, touches of
    /// its interactions bodies included).
    fn page_figures(&self, site: WebsiteId, path: &str, range: TimeRange) -> Result<PageFigures> {
        let (db, page, from, to) = (self.database(), quote(path), range.start, range.end);
        let earlier = from - EARLIER_HITS_MS;
        // Each page view's end is the next one's time, or the visit's last activity (no lambda reads an outer
        // column: 18.16 then loses it).
        let row = self.nodes()[0].query(&format!(
            "SELECT countIf(viewed), countIf(viewed AND converted), countIf(entry_page = {page}),
                    countIf(entry_page = {page} AND page_views <= 1), sum(timed), sum(time_ms)
             FROM (
                SELECT viewed, converted, entry_page, page_views, view_ts, view_paths,
                       arrayMap((e, t) -> e - t,
                           if(empty(view_ts), view_ts, arrayPushBack(arrayPopFront(view_ts), last_hit)),
                           view_ts) AS spans,
                       arraySum(arrayMap((s, p) -> s > 0 AND p = {page}, spans, view_paths)) AS timed,
                       arraySum(arrayMap((s, p) -> if(s > 0 AND p = {page}, least(s, {MAX_TIME_ON_PAGE_MS}), 0),
                           spans, view_paths)) AS time_ms
                FROM (
                    SELECT visit_id, min(ts) AS start, max(ts) AS last_hit,
                           countIf(kind = 'pageview') AS page_views, countIf(kind = 'conversion') > 0 AS converted,
                           if(page_views > 0, argMinIf(path, ts, kind = 'pageview'), argMin(path, ts)) AS entry_page,
                           arraySort(groupArrayIf(ts, kind = 'pageview')) AS view_ts,
                           arraySort((p, t) -> t, groupArrayIf(path, kind = 'pageview'),
                               groupArrayIf(ts, kind = 'pageview')) AS view_paths,
                           has(view_paths, {page}) AS viewed
                    FROM {db}.hits
                    WHERE website_id = {site} AND ts >= {from}
                      AND visit_id IN (
                        SELECT visit_id FROM {db}.hits_local
                        WHERE website_id = {site} AND visit_id != 0 AND ts >= {from} AND ts < {to})
                      AND visit_id NOT IN (
                        SELECT visit_id FROM {db}.hits_local
                        WHERE website_id = {site} AND visit_id != 0 AND ts >= {earlier} AND ts < {from})
                    GROUP BY visit_id
                    HAVING start >= {from} AND start < {to}
                )
             )"
        ))?;
        let row = row.first().cloned().unwrap_or_default();
        Ok(PageFigures {
            viewers: int(&row, 0)?,
            converted: int(&row, 1)?,
            entries: int(&row, 2)?,
            bounces: int(&row, 3)?,
            timed_views: int(&row, 4)?,
            time_ms: int(&row, 5)?,
        })
    }

    /// Per field, as SQLite's `form_fields` counts it: a visit once per field, completed when its last event
    /// there left it filled, dropped off when it was the last field touched of a form the visit never submitted
    /// on the page (in the range). Each visit's rows are gathered here, ordered by time and place in the body.
    fn form_fields(&self, site: WebsiteId, path: &str, range: TimeRange) -> Result<Vec<FormField>> {
        let rows = self.nodes()[0].query(&format!(
            "SELECT visit_id, if(kind = 'submit', selector, form), kind = 'submit', ts, seq, field, filled
             FROM {}.interactions WHERE {} AND kind IN ('focus', 'blur', 'change', 'submit')",
            self.database(),
            self.page_rows(site, path, range)
        ))?;
        // Per visit and form: whether it was submitted, and its field events.
        let mut forms: HashMap<(i64, String), (bool, Vec<FieldRow>)> = HashMap::new();
        for row in &rows {
            let form = forms.entry((int(row, 0)?, text(row, 1)?)).or_default();
            match int(row, 2)? {
                1 => form.0 = true,
                _ => form.1.push((int(row, 3)?, int(row, 4)?, text(row, 5)?, int(row, 6)? == 1)),
            }
        }
        // Per (form, field): interactions, completions, drop-offs.
        let mut fields: BTreeMap<(String, String), (i64, i64, i64)> = BTreeMap::new();
        for ((_, form), (submitted, mut events)) in forms {
            events.sort_unstable_by_key(|e| (e.0, e.1));
            let mut last_of_field: HashMap<&str, bool> = HashMap::new();
            for (_, _, field, filled) in &events {
                last_of_field.insert(field, *filled);
            }
            let last_field = events.last().map(|e| e.2.as_str());
            for (field, filled) in last_of_field {
                let counts = fields.entry((form.clone(), field.to_string())).or_default();
                counts.0 += 1;
                counts.1 += i64::from(filled);
                counts.2 += i64::from(!submitted && last_field == Some(field));
            }
        }
        let mut fields: Vec<_> = fields.into_iter().collect();
        fields.sort_by(|(a, na), (b, nb)| nb.0.cmp(&na.0).then_with(|| a.cmp(b)));
        fields.truncate(MAX_FIELDS as usize);
        Ok(fields
            .into_iter()
            .map(|((form, field), (n, completions, drop_offs))| FormField::new(field, form, n, completions, drop_offs))
            .collect())
    }
}
