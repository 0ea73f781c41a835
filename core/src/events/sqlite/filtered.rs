//! SQLite's filtered reads: the stored visits (`sessions s`) and events (`events e`) a filter admits, every
//! value bound as a numbered parameter. The ClickHouse dialect of the same questions is
//! `events/clickhouse/filtered.rs`.

use rusqlite::types::Value;
use rusqlite::{Connection, params_from_iter};

use super::SqliteEvents;
use crate::analytics::heatmap::MAX_TIME_ON_PAGE_MS;
use crate::analytics::{ActivityEvent, Conversion, Grain, TimeRange, Totals, local_time};
use crate::error::Result;
use crate::events::filtered::{
    FilteredReads, GroupBy, PairGrouping, aliased, group_totals, key, key_list, local_bucket, merge_series,
};
use crate::events::filters::{Dialect, Field, Filters, VisitField, condition_sql};
use crate::events::revenue::RevenueSum;
use crate::model::WebsiteId;

/// The kinds the rollups count as events (custom events, outbound links, downloads).
const EVENT_KINDS: &str = "'custom', 'outbound', 'download'";

/// A statement's parameters, numbered in the order they are added (`?1`, `?2`, ... after the `placed` ones the
/// statement binds itself), so conditions can be written before or after the text that places them.
#[derive(Default)]
struct Params {
    values: Vec<Value>,
    placed: usize,
}

impl Params {
    fn push(&mut self, value: Value) -> String {
        self.values.push(value);
        format!("?{}", self.placed + self.values.len())
    }
}

/// The condition, over an event row `e` and its stored visit row `s`, of the events `filters` admit (an
/// export's rows, the recent activity's), with its values numbered after the statement's own `placed`
/// parameters.
pub(crate) fn admitted_event_condition(filters: &Filters, placed: usize) -> (String, Vec<Value>) {
    let mut p = Params { values: Vec::new(), placed };
    let visit = condition_sql(&filters.visit, &mut p);
    let event = condition_sql(&filters.event, &mut p);
    (format!("{visit} AND {event}"), p.values)
}

/// The condition, over a stored visit row `s`, of the visits `filters` admit: every visit condition holds and,
/// when there are event conditions, one of the visit's events passes them all (as `filtered_totals` counts
/// visits). The funnels', journeys', replays' and stream's reads list or count these visits; values numbered
/// after the statement's own `placed` parameters.
pub(crate) fn admitted_visit_condition(filters: &Filters, placed: usize) -> (String, Vec<Value>) {
    let mut p = Params { values: Vec::new(), placed };
    let mut sql = condition_sql(&filters.visit, &mut p);
    if !filters.event.is_empty() {
        let event = condition_sql(&filters.event, &mut p);
        sql.push_str(&format!(" AND EXISTS (SELECT 1 FROM events e WHERE e.session_id = s.id AND {event})"));
    }
    (sql, p.values)
}

impl Dialect for Params {
    fn field(&mut self, field: &Field) -> String {
        match field {
            Field::Page => "e.path".into(),
            Field::Name => "CASE WHEN e.name = '' THEN e.kind ELSE e.name END".into(),
            Field::Goal => "CASE WHEN e.kind = 'conversion' THEN e.name ELSE '' END".into(),
            Field::Prop(key) => {
                let path = self.push(Value::Text(format!("$.\"{key}\"")));
                // Booleans as JSON writes them and null as no value, as ClickHouse's raw value reads them.
                format!(
                    "COALESCE(CASE json_type(e.properties, {path}) WHEN 'true' THEN 'true' WHEN 'false' THEN 'false' \
                     WHEN 'null' THEN '' ELSE CAST(json_extract(e.properties, {path}) AS TEXT) END, '')"
                )
            }
            Field::Visit(v) => visit_column(*v).into(),
        }
    }

    fn text(&mut self, value: &str) -> String {
        self.push(Value::Text(value.to_string()))
    }

    fn contains(&self, haystack: &str, needle: &str) -> String {
        format!("instr({haystack}, {needle}) > 0")
    }
}

/// A per-visit dimension over the stored visit row `s`.
fn visit_column(field: VisitField) -> &'static str {
    match field {
        VisitField::EntryPage => "s.entry_page",
        VisitField::ExitPage => "s.exit_page",
        VisitField::Source => "s.source",
        VisitField::Referrer => "s.referrer_host",
        VisitField::UtmSource => "s.utm_source",
        VisitField::UtmMedium => "s.utm_medium",
        VisitField::UtmCampaign => "s.utm_campaign",
        VisitField::UtmContent => "s.utm_content",
        VisitField::UtmTerm => "s.utm_term",
        VisitField::Country => "s.country",
        VisitField::Region => "s.region",
        VisitField::City => "s.city",
        VisitField::Device => "s.device",
        VisitField::Browser => "s.browser",
        VisitField::BrowserVersion => "s.browser_version",
        VisitField::Os => "s.os",
        VisitField::OsVersion => "s.os_version",
        VisitField::Screen => "s.screen",
    }
}

/// `FROM sessions s WHERE ...`: the visits of `site` started in the range that `filters` admits, with their
/// parameters.
fn admitted_visits(site: WebsiteId, range: TimeRange, filters: &Filters) -> (String, Params) {
    let mut p = Params::default();
    let (site, from, to) = (p.push(site.into()), p.push(range.start.into()), p.push(range.end.into()));
    let visit = condition_sql(&filters.visit, &mut p);
    let mut sql = format!(
        "FROM sessions s WHERE s.website_id = {site} AND s.first_seen >= {from} AND s.first_seen < {to} AND {visit}"
    );
    if !filters.event.is_empty() {
        let event = condition_sql(&filters.event, &mut p);
        sql.push_str(&format!(" AND EXISTS (SELECT 1 FROM events e WHERE e.session_id = s.id AND {event})"));
    }
    (sql, p)
}

/// `FROM events e JOIN sessions s ... WHERE ...`: the events of `site` timed in the range that `filters`
/// admits, with their parameters.
fn admitted_events(site: WebsiteId, range: TimeRange, filters: &Filters) -> (String, Params) {
    let mut p = Params::default();
    let (site, from, to) = (p.push(site.into()), p.push(range.start.into()), p.push(range.end.into()));
    let visit = condition_sql(&filters.visit, &mut p);
    let event = condition_sql(&filters.event, &mut p);
    let sql = format!(
        "FROM events e JOIN sessions s ON s.id = e.session_id
         WHERE e.website_id = {site} AND e.ts >= {from} AND e.ts < {to} AND {visit} AND {event}"
    );
    (sql, p)
}

fn rows<T>(
    conn: &Connection,
    sql: &str,
    p: Params,
    map: impl FnMut(&rusqlite::Row) -> rusqlite::Result<T>,
) -> Result<Vec<T>> {
    let mut stmt = conn.prepare(sql)?;
    let rows = stmt.query_map(params_from_iter(p.values), map)?;
    Ok(rows.collect::<rusqlite::Result<_>>()?)
}

impl FilteredReads for SqliteEvents {
    fn filtered_totals(&self, site: WebsiteId, range: TimeRange, filters: &Filters) -> Result<Totals> {
        self.db.read(|conn| {
            let (visits, p) = admitted_visits(site, range, filters);
            let sql = format!(
                "SELECT COUNT(*), COALESCE(SUM(s.page_views = 1), 0), COALESCE(SUM((s.last_seen - s.first_seen) / 1000), 0),
                        COUNT(DISTINCT {} || '-' || s.visitor_hash) {visits}",
                day_sql(range, "s.first_seen")
            );
            let [(visits, bounces, duration_s, visitors)] =
                rows(conn, &sql, p, |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?, r.get(3)?)))?[..]
            else {
                unreachable!("an aggregate answers one row")
            };
            let (events, p) = admitted_events(site, range, filters);
            let sql = format!(
                "SELECT COALESCE(SUM(e.kind = 'pageview'), 0), COALESCE(SUM(e.kind IN ({EVENT_KINDS})), 0),
                        COALESCE(SUM(e.kind = 'conversion'), 0) {events}"
            );
            let [(pageviews, events, conversions)] = rows(conn, &sql, p, |r| Ok((r.get(0)?, r.get(1)?, r.get(2)?)))?[..]
            else {
                unreachable!("an aggregate answers one row")
            };
            Ok(Totals { pageviews, visits, visitors, events, conversions, bounces, duration_s })
        })
    }

    fn filtered_series(&self, site: WebsiteId, range: TimeRange, filters: &Filters) -> Result<Vec<(i64, i64, i64)>> {
        self.db.read(|conn| {
            let (visits, p) = admitted_visits(site, range, filters);
            let sql = format!(
                "SELECT {}, COUNT(*) FROM (
                    SELECT MIN(s.first_seen) AS m {visits} GROUP BY {}, s.visitor_hash)
                 GROUP BY 1",
                bucket_sql(range, "m"),
                day_sql(range, "s.first_seen")
            );
            let local = |r: &rusqlite::Row| Ok((local_time::bucket_start(range, r.get(0)?), r.get(1)?));
            let visitors: Vec<(i64, i64)> = rows(conn, &sql, p, local)?;
            let (events, p) = admitted_events(site, range, filters);
            let sql =
                format!("SELECT {}, COUNT(*) {events} AND e.kind = 'pageview' GROUP BY 1", bucket_sql(range, "e.ts"));
            let views: Vec<(i64, i64)> = rows(conn, &sql, p, local)?;
            Ok(merge_series(visitors, views))
        })
    }

    fn filtered_groups(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        group: &GroupBy,
        limit: i64,
    ) -> Result<Vec<(Vec<String>, Totals)>> {
        let keys = group.fields.len() + group.bucket as usize;
        self.db.read(|conn| {
            let (sql, mut p) = match group.by_visit() {
                true => {
                    let mut columns: Vec<String> =
                        group.fields.iter().map(|f| visit_column(visit(f)).to_string()).collect();
                    if group.bucket {
                        columns.push(format!("CAST({} AS TEXT)", bucket_sql(range, "s.first_seen")));
                    }
                    visit_groups(site, range, filters, &columns)
                }
                false => {
                    let (events, mut p) = admitted_events(site, range, filters);
                    let mut columns: Vec<String> = group.fields.iter().map(|f| p.field(f)).collect();
                    if group.bucket {
                        columns.push(format!("CAST({} AS TEXT)", bucket_sql(range, "e.ts")));
                    }
                    let sql = format!(
                        "SELECT {}, COUNT(DISTINCT e.session_id) AS n_visits, 0, 0,
                                COUNT(DISTINCT {} || '-' || s.visitor_hash),
                                SUM(e.kind = 'pageview') AS n_pv, SUM(e.kind IN ({EVENT_KINDS})) AS n_ev,
                                SUM(e.kind = 'conversion') AS n_cv
                         {events} GROUP BY {}",
                        aliased(&columns),
                        day_sql(range, "e.ts"),
                        key_list(keys)
                    );
                    (sql, p)
                }
            };
            let (kept, order) = (group.kept_sql(key), group.order_sql(key));
            let limit = p.push(limit.into());
            let sql = format!("{sql} HAVING {kept} ORDER BY {order} LIMIT {limit}");
            rows(conn, &sql, p, |r| {
                let mut values = (0..keys).map(|i| r.get(i)).collect::<rusqlite::Result<Vec<String>>>()?;
                local_bucket(range, group, &mut values);
                let counts: [i64; 7] = std::array::from_fn(|i| r.get(keys + i).unwrap_or(0));
                Ok((values, group_totals(counts)))
            })
        })
    }

    fn filtered_activity(&self, site: WebsiteId, filters: &Filters, limit: i64) -> Result<Vec<ActivityEvent>> {
        let (admitted, values) = admitted_event_condition(filters, 2);
        self.analytics.recent_activity_where(site, limit, &admitted, values)
    }

    fn filtered_revenue(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        group: &GroupBy,
        limit: i64,
    ) -> Result<Vec<RevenueSum>> {
        let keys = group.fields.len() + group.bucket as usize;
        // A value times 100 plus a half, truncated: ClickHouse's `toInt64` does the same arithmetic.
        let sums = "COALESCE(e.currency, '') AS cur, SUM(CAST(e.value * 100 + 0.5 AS INTEGER)) AS cents, COUNT(*)";
        let valued = "e.kind = 'conversion' AND e.value IS NOT NULL";
        let by_visit = !group.fields.is_empty() && group.by_visit();
        self.db.read(|conn| {
            let (from, mut p, mut columns) = match by_visit {
                true => {
                    let (visits, mut p) = admitted_visits(site, range, filters);
                    let event = condition_sql(&filters.event, &mut p);
                    let from = visits.replacen(
                        "FROM sessions s WHERE",
                        &format!("FROM sessions s JOIN events e ON e.session_id = s.id AND {event} WHERE"),
                        1,
                    );
                    let columns: Vec<String> =
                        group.fields.iter().map(|f| visit_column(visit(f)).to_string()).collect();
                    (from, p, columns)
                }
                false => {
                    let (events, mut p) = admitted_events(site, range, filters);
                    let columns: Vec<String> = group.fields.iter().map(|f| p.field(f)).collect();
                    (events, p, columns)
                }
            };
            if group.bucket {
                let time = if by_visit { "s.first_seen" } else { "e.ts" };
                columns.push(format!("CAST({} AS TEXT)", bucket_sql(range, time)));
            }
            let listed = if keys == 0 { String::new() } else { format!("{}, ", aliased(&columns)) };
            let grouped = if keys == 0 { "cur".to_string() } else { format!("{}, cur", key_list(keys)) };
            let limit = p.push(limit.into());
            let sql = format!(
                "SELECT {listed}{sums} {from} AND {valued} GROUP BY {grouped} HAVING {}
                 ORDER BY cents DESC, {grouped} LIMIT {limit}",
                group.valued_sql(key),
            );
            rows(conn, &sql, p, |r| {
                let mut keys_of = (0..keys).map(|i| r.get(i)).collect::<rusqlite::Result<Vec<String>>>()?;
                local_bucket(range, group, &mut keys_of);
                Ok(RevenueSum {
                    keys: keys_of,
                    currency: r.get(keys)?,
                    cents: r.get(keys + 1)?,
                    conversions: r.get(keys + 2)?,
                })
            })
        })
    }

    fn filtered_scroll(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        group: &GroupBy,
    ) -> Result<Vec<(Vec<String>, i64, i64)>> {
        let keys = group.fields.len() + group.bucket as usize;
        self.db.read(|conn| {
            let mut p = Params::default();
            let (site, from, to) = (p.push(site.into()), p.push(range.start.into()), p.push(range.end.into()));
            let visit = condition_sql(&filters.visit, &mut p);
            let event = condition_sql(&filters.event, &mut p);
            let mut columns: Vec<String> = group.fields.iter().map(|f| p.field(f)).collect();
            if group.bucket {
                columns.push(format!("CAST({} AS TEXT)", bucket_sql(range, "e.ts")));
            }
            let PairGrouping { listed, per_pair, outer, outer_keys } = PairGrouping::of(group, &columns);
            // A report as an event row: the page view's path, of no name, kind or property of its own.
            let sql = format!(
                "SELECT {outer_keys}COALESCE(SUM(d), 0), COUNT(*) FROM (
                    SELECT {listed}MAX(e.depth) AS d
                    FROM (SELECT session_id, path, ts, depth, 'engagement' AS kind, '' AS name, NULL AS properties
                          FROM scroll_depths WHERE website_id = {site} AND ts >= {from} AND ts < {to}) e
                    JOIN sessions s ON s.id = e.session_id
                    WHERE {visit} AND {event}
                    GROUP BY e.session_id, e.path{per_pair}){outer}"
            );
            rows(conn, &sql, p, |r| {
                let mut values = (0..keys).map(|i| r.get(i)).collect::<rusqlite::Result<Vec<String>>>()?;
                local_bucket(range, group, &mut values);
                Ok((values, r.get(keys)?, r.get(keys + 1)?))
            })
        })
    }

    fn filtered_page_time(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        group: &GroupBy,
    ) -> Result<Vec<(Vec<String>, i64, i64)>> {
        let step = range.grain.seconds();
        let keys = group.fields.len() + group.bucket as usize;
        self.db.read(|conn| {
            let mut p = Params::default();
            let (site, from, to) = (p.push(site.into()), p.push(range.start.into()), p.push(range.end.into()));
            // A view's next one further than the cap after the range changes nothing: capped either way.
            let until = p.push((range.end + MAX_TIME_ON_PAGE_MS).into());
            let cap = p.push(MAX_TIME_ON_PAGE_MS.into());
            let visit = condition_sql(&filters.visit, &mut p);
            let event = condition_sql(&filters.event, &mut p);
            let mut columns: Vec<String> = group.fields.iter().map(|f| p.field(f)).collect();
            if group.bucket {
                columns.push(format!("CAST((e.ts / {}) * {step} AS TEXT)", step * 1000));
            }
            let PairGrouping { listed, per_pair, outer, outer_keys } = PairGrouping::of(group, &columns);
            let sql = format!(
                "SELECT {outer_keys}COALESCE(SUM(t), 0), COUNT(*) FROM (
                    SELECT {listed}SUM(e.span) AS t
                    FROM (SELECT v.session_id, v.path, v.ts, v.kind, v.name, v.properties,
                                 MIN(COALESCE(LEAD(v.ts) OVER (PARTITION BY v.session_id ORDER BY v.ts, v.path, v.id),
                                              vs.last_seen) - v.ts, {cap}) AS span
                          FROM events v JOIN sessions vs ON vs.id = v.session_id
                          WHERE v.website_id = {site} AND v.kind = 'pageview' AND v.ts >= {from} AND v.ts < {until}) e
                    JOIN sessions s ON s.id = e.session_id
                    WHERE e.ts < {to} AND e.span > 0 AND {visit} AND {event}
                    GROUP BY e.session_id, e.path{per_pair}){outer}"
            );
            rows(conn, &sql, p, |r| {
                let values = (0..keys).map(|i| r.get(i)).collect::<rusqlite::Result<Vec<String>>>()?;
                Ok((values, r.get(keys)?, r.get(keys + 1)?))
            })
        })
    }

    fn filtered_property_keys(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        limit: i64,
    ) -> Result<Vec<(String, i64)>> {
        self.db.read(|conn| {
            let (events, mut p) = admitted_events(site, range, filters);
            let limit = p.push(limit.into());
            let sql = format!(
                "SELECT j.key AS k, COUNT(*) AS n
                 FROM (SELECT e.properties AS props {events} AND e.properties IS NOT NULL) a, json_each(a.props) j
                 WHERE j.key != '' AND instr(j.key, '\"') = 0 AND instr(j.key, '\\') = 0
                 GROUP BY k ORDER BY n DESC, k LIMIT {limit}"
            );
            rows(conn, &sql, p, |r| Ok((r.get(0)?, r.get(1)?)))
        })
    }

    fn filtered_conversions(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        limit: i64,
    ) -> Result<Vec<Conversion>> {
        self.db.read(|conn| {
            let (events, mut p) = admitted_events(site, range, filters);
            let limit = p.push(limit.into());
            let sql = format!(
                "SELECT e.id, e.name, e.value, e.currency, e.ts {events} AND e.kind = 'conversion'
                 ORDER BY e.ts DESC, e.id DESC LIMIT {limit}"
            );
            rows(conn, &sql, p, Conversion::of_row)
        })
    }
}

/// SQL of the local day (its number) of a column of instants, in the range's timezone: a visitor counts once a
/// local day.
fn day_sql(range: TimeRange, column: &str) -> String {
    local_time::day_number_sql(range.tz, column, range.start, range.end)
}

/// SQL of a column's bucket of the range's grain: the local hour's start in seconds, or for days the local day's
/// number times 86,400, which `local_time::bucket_start` turns into the day's start (a DST day's start is not its local
/// midnight less the offset of its later hours).
fn bucket_sql(range: TimeRange, column: &str) -> String {
    match range.grain {
        Grain::Hour => local_time::hour_bucket_sql(range.tz, column, range.start, range.end),
        Grain::Day => format!("({} * 86400)", day_sql(range, column)),
    }
}

/// The per-visit field of a visit group (`GroupBy` holds only those there).
fn visit(field: &Field) -> VisitField {
    match field {
        Field::Visit(v) => *v,
        other => unreachable!("a visit group of {other:?}"),
    }
}

/// The admitted visits grouped by `columns` (SQL over the visit row `s`), each visit with its admitted events
/// however late they came, in a group query's columns.
fn visit_groups(site: WebsiteId, range: TimeRange, filters: &Filters, columns: &[String]) -> (String, Params) {
    let (visits, mut p) = admitted_visits(site, range, filters);
    let event = condition_sql(&filters.event, &mut p);
    let visits = visits.replacen(
        "FROM sessions s WHERE",
        &format!("FROM sessions s LEFT JOIN events e ON e.session_id = s.id AND {event} WHERE"),
        1,
    );
    let keys = key_list(columns.len());
    let sql = format!(
        "SELECT {keys}, COUNT(*) AS n_visits, SUM(b), SUM(d), COUNT(DISTINCT dv), SUM(pv) AS n_pv, SUM(ev) AS n_ev,
                SUM(cv) AS n_cv
         FROM (SELECT {}, s.page_views = 1 AS b, (s.last_seen - s.first_seen) / 1000 AS d,
                      {} || '-' || s.visitor_hash AS dv,
                      COALESCE(SUM(e.kind = 'pageview'), 0) AS pv, COALESCE(SUM(e.kind IN ({EVENT_KINDS})), 0) AS ev,
                      COALESCE(SUM(e.kind = 'conversion'), 0) AS cv
               {visits} GROUP BY s.id)
         GROUP BY {keys}",
        aliased(columns),
        day_sql(range, "s.first_seen")
    );
    (sql, p)
}
