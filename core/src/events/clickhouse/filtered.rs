//! ClickHouse's filtered reads: the visits (grouped from hits, as `cluster/visits.rs` groups them: a visit's
//! values are its first hit's) and the hits a filter admits, every value written by the quoting builder. The
//! SQLite dialect of the same questions is `events/sqlite/filtered.rs`.

use super::ClickHouseEvents;
use crate::analytics::heatmap::MAX_TIME_ON_PAGE_MS;
use crate::analytics::{ActivityEvent, Conversion, TimeRange, Totals, local_time};
use crate::cluster::activity::{HIT_ID, conversion_of};
use crate::cluster::clickhouse::quote;
use crate::cluster::local_hours::{bucket_sql, day_sql};
use crate::cluster::visits::{EARLIER_HITS_MS, int, sites_condition, text, visit_rows};
use crate::error::Result;
use crate::events::filtered::{
    FilteredReads, GroupBy, PairGrouping, aliased, group_totals, key, key_list, local_bucket, merge_series,
};
use crate::events::filters::{Dialect, Field, Filters, VisitField, condition_sql};
use crate::events::revenue::RevenueSum;
use crate::model::{Millis, WebsiteId};

/// The kinds the rollups count as events (custom events, outbound links, downloads).
const EVENT_KINDS: &str = "'custom', 'outbound', 'download'";

/// Conditions over a hit row, or over a grouped visit's `f_<field>` columns.
struct Ch;

impl Dialect for Ch {
    fn field(&mut self, field: &Field) -> String {
        match field {
            Field::Page => "path".into(),
            Field::Name => "if(name = '', kind, name)".into(),
            Field::Goal => "if(kind = 'conversion', name, '')".into(),
            Field::Prop(key) => {
                // The raw JSON value: a string unquoted, null and a missing key as '', numbers and booleans as
                // written (as SQLite's json_extract gives them as text).
                let raw = format!("visitParamExtractRaw(properties, {})", quote(key));
                format!(
                    "multiIf({raw} IN ('', 'null'), '', substring({raw}, 1, 1) = '\"', \
                     visitParamExtractString(properties, {}), {raw})",
                    quote(key)
                )
            }
            Field::Visit(v) => format!("f_{}", v.name()),
        }
    }

    fn text(&mut self, value: &str) -> String {
        quote(value)
    }

    fn contains(&self, haystack: &str, needle: &str) -> String {
        format!("position({haystack}, {needle}) > 0")
    }
}

/// A per-visit dimension from the visit's hits: its first hit's value; the entry and exit pages as SQLite's
/// writer keeps them (the first and the last page view's path, else the first hit's).
fn visit_value(field: VisitField) -> String {
    match field {
        VisitField::EntryPage => {
            "if(countIf(kind = 'pageview') > 0, argMinIf(path, ts, kind = 'pageview'), argMin(path, ts))".into()
        }
        VisitField::ExitPage => {
            "if(countIf(kind = 'pageview') > 0, argMaxIf(path, ts, kind = 'pageview'), argMin(path, ts))".into()
        }
        VisitField::Referrer => "argMin(referrer_host, ts)".into(),
        other => format!("argMin({}, ts)", other.name()),
    }
}

/// `, <value> AS f_<field>` for each field.
fn visit_columns(fields: &[VisitField]) -> String {
    fields.iter().map(|f| format!(", {} AS f_{}", visit_value(*f), f.name())).collect()
}

impl ClickHouseEvents {
    fn db(&self) -> &str {
        self.cluster.events.database()
    }

    fn ask(&self, sql: &str) -> Result<Vec<Vec<String>>> {
        self.cluster.events.nodes()[0].query(sql)
    }

    /// A subquery of the visits of `site` started in the range that `filters` admit: `visit_id`, `visitor`,
    /// `start`, `last`, `page_views`, the admitted page views, events and conversions (`pv`, `ev`, `cv`) and
    /// `f_<field>` of the filters' fields and `extra`.
    fn admitted_visits(&self, site: WebsiteId, range: TimeRange, filters: &Filters, extra: &[VisitField]) -> String {
        self.admitted_visits_with(site, range, filters, extra, "")
    }

    /// `admitted_visits` with more of a visit's aggregates (`, expr AS name, ...`), whose conditions may name the
    /// event conditions' columns of a hit.
    fn admitted_visits_with(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        extra: &[VisitField],
        aggregates: &str,
    ) -> String {
        let db = self.db();
        let mut fields = filters.visit_fields();
        for field in extra {
            if !fields.contains(field) {
                fields.push(*field);
            }
        }
        let (from, to) = (range.start, range.end);
        let event = condition_sql(&filters.event, &mut Ch);
        let (matched, admitted) = match filters.event.is_empty() {
            true => (String::new(), "1".to_string()),
            false => (format!(", countIf({event}) AS matched"), "matched > 0".to_string()),
        };
        // The visit's admitted events, however late they came (as SQLite joins them to the visit).
        let counts = format!(
            ", countIf(kind = 'pageview' AND {event}) AS pv, countIf(kind IN ({EVENT_KINDS}) AND {event}) AS ev,
               countIf(kind = 'conversion' AND {event}) AS cv"
        );
        format!(
            "SELECT * FROM (
                SELECT visit_id, any(visitor) AS visitor, min(ts) AS start, max(ts) AS last,
                       countIf(kind = 'pageview') AS page_views{}{counts}{matched}{aggregates}
                FROM {db}.hits WHERE {}
                GROUP BY visit_id HAVING start >= {from} AND start < {to})
             WHERE {} AND {admitted}",
            visit_columns(&fields),
            visit_rows(db, &[site], from, to),
            condition_sql(&filters.visit, &mut Ch),
        )
    }

    /// The condition on hits of `sites` of the visits started in the range that `filters` admit (see
    /// [`admitted_visit_condition`]).
    pub(super) fn admitted_visits_of(&self, sites: &[WebsiteId], range: TimeRange, filters: &Filters) -> String {
        admitted_visit_condition(self.db(), &sites_condition(sites), filters, range.start)
    }

    /// The test of a hit row of `sites` whose visit started in the range and is one `filters` admit, as
    /// `visit_id IN (...)`; none without a filter (see [`admitted_visit_test`]).
    pub(super) fn admitted_visit_test_of(
        &self,
        sites: &[WebsiteId],
        range: TimeRange,
        filters: &Filters,
    ) -> Option<String> {
        admitted_visit_test(self.db(), &sites_condition(sites), filters, range.start)
    }

    /// Those of `site`'s `visits` that `filters` admit, judged on all their hits (a recording's visit may have
    /// started long before the range).
    pub(super) fn admitted_among(
        &self,
        site: WebsiteId,
        visits: &[i64],
        filters: &Filters,
    ) -> Result<std::collections::HashSet<i64>> {
        if visits.is_empty() {
            return Ok(Default::default());
        }
        let ids: Vec<String> = visits.iter().map(i64::to_string).collect();
        let rows = self.ask(&format!(
            "SELECT visit_id FROM (
                SELECT visit_id{}, countIf({}) AS matched FROM {}.hits
                WHERE website_id = {site} AND visit_id IN ({}) GROUP BY visit_id)
             WHERE {} AND matched > 0",
            visit_columns(&filters.visit_fields()),
            condition_sql(&filters.event, &mut Ch),
            self.db(),
            ids.join(", "),
            condition_sql(&filters.visit, &mut Ch)
        ))?;
        rows.iter().map(|row| int(row, 0)).collect()
    }

    /// `FROM hits WHERE ...`: the hits of visits of `site` timed in the range that `filters` admit. The visit
    /// conditions are checked on each shard against the visits of its own hits (a visit's hits are on one
    /// shard), grouped from `EARLIER_HITS_MS` before the range, where every visit with a hit in it is found.
    fn admitted_hits(&self, site: WebsiteId, range: TimeRange, filters: &Filters) -> String {
        let db = self.db();
        let (from, to) = (range.start, range.end);
        let event = condition_sql(&filters.event, &mut Ch);
        let mut sql = format!(
            "FROM {db}.hits WHERE website_id = {site} AND visit_id != 0 AND ts >= {from} AND ts < {to} AND {event}"
        );
        if !filters.visit.is_empty() {
            sql.push_str(&format!(" AND {}", admitted_visit_ids(db, site, filters, Some(from))));
        }
        sql
    }
}

/// The per-visit fields `group` groups by.
fn group_visit_fields(group: &GroupBy) -> Vec<VisitField> {
    group.fields.iter().filter_map(|f| if let Field::Visit(v) = f { Some(*v) } else { None }).collect()
}

/// `visit_id IN (...)`: the visits of `site` on this shard that the visit conditions of `filters` admit, their
/// values grouped from the hits since `EARLIER_HITS_MS` before `from` (from all the site's hits without it).
fn admitted_visit_ids(db: &str, site: WebsiteId, filters: &Filters, from: Option<Millis>) -> String {
    let earlier = from.map(|from| format!(" AND ts >= {}", from - EARLIER_HITS_MS)).unwrap_or_default();
    format!(
        "visit_id IN (SELECT visit_id FROM (
            SELECT visit_id{} FROM {db}.hits_local
            WHERE website_id = {site} AND visit_id != 0{earlier} GROUP BY visit_id)
          WHERE {})",
        visit_columns(&filters.visit_fields()),
        condition_sql(&filters.visit, &mut Ch)
    )
}

/// The condition, over a shard's hit rows of `site` from `from` on, of the hits `filters` admit (an export's
/// rows): `" AND ..."`, or nothing when there is no filter. A visit's hits are all on one shard, so each shard
/// decides its own visits.
pub(crate) fn admitted_hit_condition(db: &str, site: WebsiteId, filters: &Filters, from: Option<Millis>) -> String {
    let mut sql = String::new();
    if !filters.event.is_empty() {
        sql.push_str(&format!(" AND {}", condition_sql(&filters.event, &mut Ch)));
    }
    if !filters.visit.is_empty() {
        sql.push_str(&format!(" AND {}", admitted_visit_ids(db, site, filters, from)));
    }
    sql
}

/// The condition, over hit rows of `sites` from `from` on, of the hits of the visits `filters` admit (every
/// visit condition holds and, with event conditions, one of the visit's hits passes them all): `" AND ..."`,
/// or nothing when there is no filter. The funnels', journeys' and stream's reads.
fn admitted_visit_condition(db: &str, sites: &str, filters: &Filters, from: Millis) -> String {
    admitted_visit_test(db, sites, filters, from).map(|test| format!(" AND {test}")).unwrap_or_default()
}

/// `visit_id IN (...)`, of a hit row of `sites`, for the visits `filters` admit (see
/// [`admitted_visit_condition`]), none when there is no filter: each shard decides its own visits, their
/// values grouped from the hits since `EARLIER_HITS_MS` before `from`.
fn admitted_visit_test(db: &str, sites: &str, filters: &Filters, from: Millis) -> Option<String> {
    if filters.is_empty() {
        return None;
    }
    Some(format!(
        "visit_id IN (SELECT visit_id FROM (
            SELECT visit_id{}, countIf({}) AS matched FROM {db}.hits_local
            WHERE {sites} AND visit_id != 0 AND ts >= {} GROUP BY visit_id)
          WHERE {} AND matched > 0)",
        visit_columns(&filters.visit_fields()),
        condition_sql(&filters.event, &mut Ch),
        from - EARLIER_HITS_MS,
        condition_sql(&filters.visit, &mut Ch)
    ))
}

/// SQL of the local day (its number) of a column of instants, in the range's timezone: a visitor counts once a
/// local day.
fn day(range: TimeRange, column: &str) -> String {
    day_sql(range.tz, column, range.start, range.end)
}

impl FilteredReads for ClickHouseEvents {
    fn filtered_totals(&self, site: WebsiteId, range: TimeRange, filters: &Filters) -> Result<Totals> {
        self.cluster.settle(&[site])?;
        let visits = self.admitted_visits(site, range, filters, &[]);
        let row = self.ask(&format!(
            "SELECT count(), countIf(page_views = 1), sum(intDiv(last - start, 1000)), uniqExact({}, visitor)
             FROM ({visits})",
            day(range, "start")
        ))?;
        let hits = self.admitted_hits(site, range, filters);
        let counts = self.ask(&format!(
            "SELECT countIf(kind = 'pageview'), countIf(kind IN ({EVENT_KINDS})), countIf(kind = 'conversion') {hits}"
        ))?;
        let (v, c) = (&row[0], &counts[0]);
        Ok(Totals {
            visits: int(v, 0)?,
            bounces: int(v, 1)?,
            duration_s: int(v, 2)?,
            visitors: int(v, 3)?,
            pageviews: int(c, 0)?,
            events: int(c, 1)?,
            conversions: int(c, 2)?,
        })
    }

    fn filtered_series(&self, site: WebsiteId, range: TimeRange, filters: &Filters) -> Result<Vec<(i64, i64, i64)>> {
        self.cluster.settle(&[site])?;
        let visits = self.admitted_visits(site, range, filters, &[]);
        let visitors = self.ask(&format!(
            "SELECT {} AS b, count() FROM (
                SELECT min(start) AS m FROM ({visits}) GROUP BY {}, visitor)
             GROUP BY b",
            bucket_sql(range, "m"),
            day(range, "start")
        ))?;
        let hits = self.admitted_hits(site, range, filters);
        let views = self.ask(&format!(
            "SELECT {} AS b, count() {hits} AND kind = 'pageview' GROUP BY b",
            bucket_sql(range, "ts")
        ))?;
        let pairs = |rows: Vec<Vec<String>>| -> Result<Vec<(i64, i64)>> {
            rows.iter().map(|r| Ok((local_time::bucket_start(range, int(r, 0)?), int(r, 1)?))).collect()
        };
        Ok(merge_series(pairs(visitors)?, pairs(views)?))
    }

    fn filtered_groups(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        group: &GroupBy,
        limit: i64,
    ) -> Result<Vec<(Vec<String>, Totals)>> {
        self.cluster.settle(&[site])?;
        let keys = group.fields.len() + group.bucket as usize;
        let sql = match group.by_visit() {
            true => {
                let mut columns: Vec<String> = group.fields.iter().map(|f| Ch.field(f)).collect();
                if group.bucket {
                    columns.push(format!("toString({})", bucket_sql(range, "start")));
                }
                let extra = group_visit_fields(group);
                format!(
                    "SELECT {}, count() AS n_visits, countIf(page_views = 1), sum(intDiv(last - start, 1000)),
                            uniqExact({}, visitor), sum(pv) AS n_pv, sum(ev) AS n_ev, sum(cv) AS n_cv
                     FROM ({}) GROUP BY {}",
                    aliased(&columns),
                    day(range, "start"),
                    self.admitted_visits(site, range, filters, &extra),
                    key_list(keys)
                )
            }
            false => {
                let mut columns: Vec<String> = group.fields.iter().map(|f| Ch.field(f)).collect();
                if group.bucket {
                    columns.push(format!("toString({})", bucket_sql(range, "ts")));
                }
                format!(
                    "SELECT {}, uniqExact(visit_id) AS n_visits, 0, 0, uniqExact({}, visitor),
                            countIf(kind = 'pageview') AS n_pv, countIf(kind IN ({EVENT_KINDS})) AS n_ev,
                            countIf(kind = 'conversion') AS n_cv
                     {} GROUP BY {}",
                    aliased(&columns),
                    day(range, "ts"),
                    self.admitted_hits(site, range, filters),
                    key_list(keys)
                )
            }
        };
        let (kept, order) = (group.kept_sql(key), group.order_sql(key));
        let rows = self.ask(&format!("{sql} HAVING {kept} ORDER BY {order} LIMIT {limit}"))?;
        rows.iter()
            .map(|r| {
                let mut values = (0..keys).map(|i| text(r, i)).collect::<Result<Vec<_>>>()?;
                local_bucket(range, group, &mut values);
                let counts = (0..7).map(|i| int(r, keys + i)).collect::<Result<Vec<_>>>()?;
                Ok((values, group_totals(counts.try_into().expect("seven counts"))))
            })
            .collect()
    }

    fn filtered_activity(&self, site: WebsiteId, filters: &Filters, limit: i64) -> Result<Vec<ActivityEvent>> {
        self.cluster.settle(&[site])?;
        let admitted = admitted_hit_condition(self.db(), site, filters, None);
        self.cluster.events.recent_activity(site, limit, &admitted)
    }

    fn filtered_revenue(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        group: &GroupBy,
        limit: i64,
    ) -> Result<Vec<RevenueSum>> {
        self.cluster.settle(&[site])?;
        let keys = group.fields.len() + group.bucket as usize;
        let by_visit = !group.fields.is_empty() && group.by_visit();
        let mut columns: Vec<String> = group.fields.iter().map(|f| Ch.field(f)).collect();
        if group.bucket {
            let time = if by_visit { "start" } else { "ts" };
            columns.push(format!("toString({})", bucket_sql(range, time)));
        }
        let listed = if keys == 0 { String::new() } else { format!("{}, ", aliased(&columns)) };
        let grouped = if keys == 0 { "cur".to_string() } else { format!("{}, cur", key_list(keys)) };
        // A value times 100 plus a half, truncated: SQLite's `CAST(... AS INTEGER)` does the same arithmetic.
        let cents = "toInt64(ifNull(value, 0) * 100 + 0.5)";
        let sql = match by_visit {
            true => {
                // Each visit's valued conversions as two arrays, a row each after the ARRAY JOIN.
                let event = condition_sql(&filters.event, &mut Ch);
                let valued = format!("kind = 'conversion' AND isNotNull(value) AND {event}");
                let aggregates =
                    format!(", groupArrayIf(currency, {valued}) AS r_cur, groupArrayIf({cents}, {valued}) AS r_cents");
                let extra = group_visit_fields(group);
                format!(
                    "SELECT {listed}cur, sum(one) AS cents, count()
                     FROM ({}) ARRAY JOIN r_cur AS cur, r_cents AS one GROUP BY {grouped}",
                    self.admitted_visits_with(site, range, filters, &extra, &aggregates)
                )
            }
            false => format!(
                "SELECT {listed}currency AS cur, sum({cents}) AS cents, count()
                 {} AND kind = 'conversion' AND isNotNull(value) GROUP BY {grouped}",
                self.admitted_hits(site, range, filters)
            ),
        };
        let rows =
            self.ask(&format!("{sql} HAVING {} ORDER BY cents DESC, {grouped} LIMIT {limit}", group.valued_sql(key)))?;
        rows.iter()
            .map(|r| {
                let mut keys_of = (0..keys).map(|i| text(r, i)).collect::<Result<Vec<_>>>()?;
                local_bucket(range, group, &mut keys_of);
                Ok(RevenueSum {
                    keys: keys_of,
                    currency: text(r, keys)?,
                    cents: int(r, keys + 1)?,
                    conversions: int(r, keys + 2)?,
                })
            })
            .collect()
    }

    fn filtered_scroll(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        group: &GroupBy,
    ) -> Result<Vec<(Vec<String>, i64, i64)>> {
        self.cluster.settle(&[site])?;
        let db = self.db();
        let keys = group.fields.len() + group.bucket as usize;
        let mut columns: Vec<String> = group.fields.iter().map(|f| Ch.field(f)).collect();
        if group.bucket {
            columns.push(format!("toString({})", bucket_sql(range, "ts")));
        }
        let PairGrouping { listed, per_pair, outer, outer_keys } = PairGrouping::of(group, &columns);
        let event = condition_sql(&filters.event, &mut Ch);
        // The visit conditions on each shard, where the distributed table's read runs (a visit's rows are on one).
        let visits = match filters.visit.is_empty() {
            true => String::new(),
            false => format!(" AND {}", admitted_visit_ids(db, site, filters, Some(range.start))),
        };
        // Grouped by a visit's fields: its values from its hits on the same shard (a JOIN in the shard's own read).
        let by_visit = group_visit_fields(group);
        let (carried, values) = match by_visit.is_empty() {
            true => (String::new(), String::new()),
            false => (
                by_visit.iter().map(|f| format!(", f_{}", f.name())).collect(),
                format!(
                    " ANY INNER JOIN (
                        SELECT visit_id{} FROM {db}.hits_local
                        WHERE website_id = {site} AND visit_id != 0 AND ts >= {} GROUP BY visit_id) USING visit_id",
                    visit_columns(&by_visit),
                    range.start - EARLIER_HITS_MS
                ),
            ),
        };
        // A report as an event row (its kind renamed a level up from where the table's own is filtered on): the
        // page view's path, of no name or property of its own.
        let rows = self.ask(&format!(
            "SELECT {outer_keys}sum(d), count() FROM (
                SELECT {listed}max(depth) AS d FROM (
                    SELECT visit_id, path, ts, depth, 'engagement' AS kind, '' AS name, '' AS properties{carried} FROM (
                        SELECT visit_id, path, ts, depth{carried} FROM {db}.interactions{values}
                        WHERE website_id = {site} AND kind = 'scroll' AND ts >= {} AND ts < {}{visits}))
                WHERE {event}
                GROUP BY visit_id, path{per_pair}){outer}",
            range.start, range.end
        ))?;
        rows.iter()
            .map(|r| {
                let mut values = (0..keys).map(|i| text(r, i)).collect::<Result<Vec<_>>>()?;
                local_bucket(range, group, &mut values);
                Ok((values, int(r, keys)?, int(r, keys + 1)?))
            })
            .collect()
    }

    fn filtered_page_time(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        group: &GroupBy,
    ) -> Result<Vec<(Vec<String>, i64, i64)>> {
        self.cluster.settle(&[site])?;
        let (db, step) = (self.db(), range.grain.seconds());
        let (from, to) = (range.start, range.end);
        let keys = group.fields.len() + group.bucket as usize;
        let mut columns: Vec<String> = group.fields.iter().map(|f| Ch.field(f)).collect();
        if group.bucket {
            columns.push(format!("toString(intDiv(ts, {}) * {step})", step * 1000));
        }
        let PairGrouping { listed, per_pair, outer, outer_keys } = PairGrouping::of(group, &columns);
        let mut fields = filters.visit_fields();
        for field in group_visit_fields(group) {
            if !fields.contains(&field) {
                fields.push(field);
            }
        }
        let carried: String = fields.iter().map(|f| format!(", f_{}", f.name())).collect();
        // Per visit with a page view in the range (its values from the hits since `EARLIER_HITS_MS` before, as the
        // visit conditions read them everywhere), its page views in time then path order, each timed until the
        // next one or the visit's last hit (no lambda reads an outer column: 18.16 then loses it); then a row per
        // page view, as an event row for the event conditions.
        let rows = self.ask(&format!(
            "SELECT {outer_keys}sum(t), count() FROM (
                SELECT {listed}sum(span) AS t FROM (
                    SELECT visit_id{carried}, tupleElement(view, 1) AS ts, tupleElement(view, 2) AS path,
                           'pageview' AS kind, tupleElement(view, 3) AS name, tupleElement(view, 4) AS properties, span
                    FROM (
                        SELECT visit_id{carried}, views,
                               arrayMap((e, t) -> least(e - t, {MAX_TIME_ON_PAGE_MS}),
                                   arrayPushBack(arrayPopFront(view_ts), last), view_ts) AS spans
                        FROM (
                            SELECT visit_id, max(ts) AS last{},
                                   arraySort(groupArrayIf(tuple(ts, path, name, properties), kind = 'pageview')) AS views,
                                   arrayMap(v -> tupleElement(v, 1), views) AS view_ts
                            FROM {db}.hits
                            WHERE website_id = {site} AND visit_id != 0 AND ts >= {}
                              AND visit_id IN (
                                SELECT visit_id FROM {db}.hits_local
                                WHERE website_id = {site} AND visit_id != 0 AND kind = 'pageview'
                                  AND ts >= {from} AND ts < {to})
                            GROUP BY visit_id)
                        WHERE {})
                    ARRAY JOIN views AS view, spans AS span)
                WHERE ts >= {from} AND ts < {to} AND span > 0 AND {}
                GROUP BY visit_id, path{per_pair}){outer}",
            visit_columns(&fields),
            from - EARLIER_HITS_MS,
            condition_sql(&filters.visit, &mut Ch),
            condition_sql(&filters.event, &mut Ch),
        ))?;
        rows.iter()
            .map(|r| {
                let values = (0..keys).map(|i| text(r, i)).collect::<Result<Vec<_>>>()?;
                Ok((values, int(r, keys)?, int(r, keys + 1)?))
            })
            .collect()
    }

    fn filtered_property_keys(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        limit: i64,
    ) -> Result<Vec<(String, i64)>> {
        self.cluster.settle(&[site])?;
        // 18.16 has no JSON functions listing keys: each member of the stored object (written by serde_json,
        // flat, compact) is matched whole, key and value, so a key-like text inside a string value is never
        // taken for a key. The key comes as written; one with an escape (a quote, a backslash) is dropped.
        let member = quote(r#""((?:[^"\\]|\\.)*)":(?:"(?:[^"\\]|\\.)*"|[^,}]*)"#);
        let rows = self.ask(&format!(
            "SELECT k, count() AS n FROM (
                SELECT arrayJoin(extractAll(properties, {member})) AS k {} AND properties != '')
             WHERE k != '' AND position(k, {}) = 0
             GROUP BY k ORDER BY n DESC, k LIMIT {limit}",
            self.admitted_hits(site, range, filters),
            quote("\\")
        ))?;
        rows.iter().map(|r| Ok((text(r, 0)?, int(r, 1)?))).collect()
    }

    fn filtered_conversions(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        limit: i64,
    ) -> Result<Vec<Conversion>> {
        self.cluster.settle(&[site])?;
        let rows = self.ask(&format!(
            "SELECT {HIT_ID} AS id, name, isNull(value), ifNull(value, 0), currency, ts {} AND kind = 'conversion'
             ORDER BY ts DESC, id DESC LIMIT {limit}",
            self.admitted_hits(site, range, filters)
        ))?;
        rows.iter().map(|row| conversion_of(row)).collect()
    }
}
