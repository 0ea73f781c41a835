//! Filtered reads: the dashboard's figures of the visits and events a `Filters` admits, counted from the stored
//! visits and events (the rollups hold no combination of dimensions), and breakdowns by any per-visit or event
//! dimension. Each engine answers three questions (`FilteredReads`); the answers the routes hand out are
//! assembled from them once, here, and fall back to the rollups' reads when there is no filter.

use super::EventStore;
use super::filters::{Condition, Expr, Field, Filters, Op, VisitField};
use super::revenue::RevenueSum;
use crate::analytics::{
    ActivityEvent, Compare, Conversion, Conversions, CountryCount, Dimension, DimensionCount, EventSummary,
    LiveVisitors, Overview, PageViews, PreviousMetrics, ReferrerCount, TimePoint, TimeRange, Timeseries, Totals,
    TrafficSource,
};
use crate::error::{Error, Result};
use crate::model::{WebsiteId, now_ms};

/// A group's keys with its time bucket (the last key, when `group` has one) made the start of its local hour or
/// day: the engines' SQL gives days as local day numbers (see `local_time::bucket_start`).
pub(crate) fn local_bucket(range: TimeRange, group: &GroupBy, keys: &mut [String]) {
    if group.bucket
        && let Some(last) = keys.last_mut()
    {
        *last = crate::analytics::local_time::bucket_start(range, last.parse().unwrap_or(0)).to_string();
    }
}

/// What a breakdown groups by: a rollup dimension's name or any filter dimension's (without `visit:` or
/// `event:`; `prop:<key>` for a property).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct BreakdownBy {
    pub field: Field,
}

impl BreakdownBy {
    /// Parses a breakdown's dimension: `page`, `name` (custom events), `prop:<key>`, or a per-visit one
    /// (`entry_page`, `source`, `utm_medium`, `region`, ...).
    pub fn parse(name: &str) -> Result<BreakdownBy> {
        let field = match name {
            "page" => Field::Page,
            "event" | "name" => Field::Name,
            "goal" => Field::Goal,
            _ => match name.strip_prefix("prop:") {
                Some(key) => Field::parse(&format!("event:props:{key}"))?,
                None => Field::parse(&format!("visit:{name}")).map_err(|_| {
                    Error::invalid(format!(
                        "dimension must be page, event, goal, prop:<key> or one of {}",
                        VisitField::ALL.iter().map(|(_, n)| *n).collect::<Vec<_>>().join(", ")
                    ))
                })?,
            },
        };
        Ok(BreakdownBy { field })
    }

    /// The rollup dimension answering this breakdown without filters, when there is one.
    pub fn rollup(&self) -> Option<Dimension> {
        Some(match &self.field {
            Field::Page => Dimension::Page,
            Field::Visit(VisitField::Referrer) => Dimension::Referrer,
            Field::Visit(VisitField::Country) => Dimension::Country,
            Field::Visit(VisitField::Device) => Dimension::Device,
            Field::Visit(VisitField::Browser) => Dimension::Browser,
            Field::Visit(VisitField::Os) => Dimension::Os,
            Field::Visit(VisitField::UtmSource) => Dimension::UtmSource,
            Field::Visit(VisitField::Source) => Dimension::Source,
            _ => return None,
        })
    }

    /// What the counts count: page views by page, events by event name, goal or property, visits otherwise.
    pub fn measure(&self) -> &'static str {
        match &self.field {
            Field::Page => "pageviews",
            Field::Name | Field::Goal | Field::Prop(_) => "events",
            Field::Visit(_) => "visits",
        }
    }

    /// The count of a group's totals a breakdown ranks by and shows (`measure`): a property counts every event
    /// carrying it, page views included; a name or goal its custom events and conversions.
    pub fn count(&self, totals: &Totals) -> i64 {
        match &self.field {
            Field::Page => totals.pageviews,
            Field::Name | Field::Goal => totals.events + totals.conversions,
            Field::Prop(_) => totals.pageviews + totals.events + totals.conversions,
            Field::Visit(_) => totals.visits,
        }
    }

    /// The group query of this breakdown: by its field, ranked by its count.
    pub fn group(&self) -> GroupBy {
        let count = match &self.field {
            Field::Page => CountOf::Pageviews,
            Field::Name | Field::Goal => CountOf::Events,
            Field::Prop(_) => CountOf::AllEvents,
            Field::Visit(_) => CountOf::Visits,
        };
        GroupBy { fields: vec![self.field.clone()], bucket: false, rank: Rank::Count(count) }
    }
}

/// What a group query groups by: per-visit fields, or event fields (one kind, so each row is a visit's or an
/// event's), and a time bucket of the range's grain (a visit's start, an event's time); ranked by `rank`.
#[derive(Debug, Clone, PartialEq)]
pub struct GroupBy {
    pub fields: Vec<Field>,
    pub bucket: bool,
    pub rank: Rank,
}

/// How groups are ranked: by a count, greatest first, then by the keys; or by the keys alone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Rank {
    /// `BreakdownBy::count` of the field's kind.
    Count(CountOf),
    Keys,
}

/// The counts a breakdown ranks by.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CountOf {
    Visits,
    Pageviews,
    /// Custom events and conversions.
    Events,
    /// Every event, page views included.
    AllEvents,
}

impl CountOf {
    /// The count over the SQL columns every engine's group query names (`n_pv`, `n_ev`, `n_cv`, `n_visits`).
    pub(crate) fn sql(self) -> &'static str {
        match self {
            CountOf::Visits => "n_visits",
            CountOf::Pageviews => "n_pv",
            CountOf::Events => "(n_ev + n_cv)",
            CountOf::AllEvents => "(n_pv + n_ev + n_cv)",
        }
    }
}

impl GroupBy {
    /// Groups by `fields` (all a visit's or all an event's; a 400 otherwise) and the bucket when asked.
    pub fn new(fields: Vec<Field>, bucket: bool, rank: Rank) -> Result<GroupBy> {
        if fields.iter().any(|f| f.is_visit()) && fields.iter().any(|f| !f.is_visit()) {
            return Err(Error::invalid(
                "dimensions: group by visit: dimensions or by event: dimensions, not both at once",
            ));
        }
        Ok(GroupBy { fields, bucket, rank })
    }

    /// Whether the groups are visits' (else events').
    pub(crate) fn by_visit(&self) -> bool {
        self.fields.first().is_none_or(Field::is_visit)
    }

    /// The SQL condition keeping a group: a value an event does not have (a property, a goal, a name) is no
    /// group; a visit's unknown value or a page is. `key(i)` names the i-th field's key column.
    pub(crate) fn kept_sql(&self, key: impl Fn(usize) -> String) -> String {
        let counted = match self.rank {
            Rank::Count(count) => format!("{} > 0", count.sql()),
            Rank::Keys => "n_visits + n_pv + n_ev + n_cv > 0".to_string(),
        };
        format!("{counted} AND {}", self.valued_sql(key))
    }

    /// The SQL condition keeping a group by its keys alone: a value an event does not have (a property, a goal, a
    /// name) is no group.
    pub(crate) fn valued_sql(&self, key: impl Fn(usize) -> String) -> String {
        let mut parts = vec!["1 = 1".to_string()];
        for (i, field) in self.fields.iter().enumerate() {
            if !matches!(field, Field::Visit(_) | Field::Page) {
                parts.push(format!("{} != ''", key(i)));
            }
        }
        parts.join(" AND ")
    }

    /// The SQL order of the groups over key columns `key(i)` (the bucket's after the fields').
    pub(crate) fn order_sql(&self, key: impl Fn(usize) -> String) -> String {
        let keys: Vec<String> = (0..self.fields.len() + self.bucket as usize).map(key).collect();
        match self.rank {
            Rank::Count(count) => format!("{} DESC, {}", count.sql(), keys.join(", ")),
            Rank::Keys => keys.join(", "),
        }
    }
}

/// The three questions each engine answers over its stored visits and events.
pub trait FilteredReads {
    /// The totals of the visits (started in the range) and events (timed in it) `filters` admits.
    fn filtered_totals(&self, site: WebsiteId, range: TimeRange, filters: &Filters) -> Result<Totals>;
    /// Per bucket of the range's grain with traffic, in bucket order: (bucket start in seconds, visitors, page
    /// views). A visitor counts once per UTC day, in the bucket of its first admitted visit of that day.
    fn filtered_series(&self, site: WebsiteId, range: TimeRange, filters: &Filters) -> Result<Vec<(i64, i64, i64)>>;
    /// The totals of each group of `group` among what `filters` admits, `limit` of them in `group.rank`'s
    /// order, each with its keys (the fields' values, then the bucket's start in seconds); groups counting
    /// nothing, and event groups without a value of a property, goal or name, are left out. Visit groups hold
    /// the admitted visits started in the range (in the bucket of their start), each with its admitted events
    /// however late they came; event groups hold the admitted events of the range (in the bucket of their
    /// time), with their visits and visitors (a visitor once per UTC day of its events), without bounces or
    /// durations (0), which are a visit's.
    fn filtered_groups(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        group: &GroupBy,
        limit: i64,
    ) -> Result<Vec<(Vec<String>, Totals)>>;
    /// The Recent Activity card's `limit` (1 to 50) newest items that `filters` admit (of any time), newest
    /// first.
    fn filtered_activity(&self, site: WebsiteId, filters: &Filters, limit: i64) -> Result<Vec<ActivityEvent>>;
    /// The admitted conversions carrying a value, summed per group of `group` (as `filtered_groups` groups them;
    /// without fields, all the conversions timed in the range) and currency, the `limit` greatest sums first
    /// (then by keys and currency).
    fn filtered_revenue(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        group: &GroupBy,
        limit: i64,
    ) -> Result<Vec<RevenueSum>>;
    /// The scroll depth of the page views the range's scroll reports are of: per group of `group`'s event fields
    /// (a page; a report has no name, goal or property) and bucket, the sum over each visit's pages of its
    /// deepest scroll there (percent), and how many (visit, page) pairs were summed. A report is an event of the
    /// name `engagement` on its page for the event conditions; the visit conditions apply to its visit.
    fn filtered_scroll(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        group: &GroupBy,
    ) -> Result<Vec<(Vec<String>, i64, i64)>>;
    /// The time spent on pages: each page view of the range is timed until its visit's next page view (in time,
    /// then path order), else until the visit's last activity, at most `MAX_TIME_ON_PAGE_MS` (as the heatmaps'
    /// Page Performance times it). Per group of `group` (a page, a property of the page view, a visit's field) and
    /// bucket, the sum over each visit's pages of its times there (ms), and how many (visit, page) pairs had a
    /// time. The event conditions apply to the page view; the visit conditions to its visit.
    fn filtered_page_time(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        group: &GroupBy,
    ) -> Result<Vec<(Vec<String>, i64, i64)>>;
    /// The property keys of the events of the range that `filters` admit, each with how many of those events
    /// carry it, the `limit` most carried first (then by key): the names a `prop:<key>` breakdown or an
    /// `event:props:<key>` filter can take. A key no filter can name (holding a quote or a backslash) is left out.
    fn filtered_property_keys(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        limit: i64,
    ) -> Result<Vec<(String, i64)>>;
    /// The newest `limit` conversions of the range that `filters` admit, newest first.
    fn filtered_conversions(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        limit: i64,
    ) -> Result<Vec<Conversion>>;
}

/// The SQL columns of a group query, in this order: value, visits, bounces, duration, visitors, page views,
/// events, conversions.
pub(crate) fn group_totals(row: [i64; 7]) -> Totals {
    let [visits, bounces, duration_s, visitors, pageviews, events, conversions] = row;
    Totals { pageviews, visits, visitors, events, conversions, bounces, duration_s }
}

/// Rows of the overview's top pages.
const TOP_PAGES: i64 = 10;

/// Most event names a filtered events summary counts (its totals count these; the rollups' summary has no cap,
/// and a site with more distinct names than this is a site sending ids as names).
const SUMMARY_NAMES: i64 = 10_000;

impl dyn EventStore {
    /// The Dashboard's cards of what `filters` admits, `previous` over the compared period (the one before by
    /// default); the rollups' overview when there is no filter. A filtered overview holds no imported history
    /// (other tools' aggregates cannot be filtered) and the live count is the site's.
    pub fn overview_where(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        compare: Option<Compare>,
    ) -> Result<Overview> {
        let overview = self.overview(site, range)?;
        let compared = compare.unwrap_or(Compare::PreviousPeriod).range(range);
        if filters.is_empty() {
            if compare != Some(Compare::YearOverYear) {
                return Ok(overview);
            }
            let year_before = self.totals(site, compared)?;
            let previous = PreviousMetrics {
                total_visitors: year_before.visitors,
                page_views: year_before.pageviews,
                conversions: year_before.conversions,
            };
            return Ok(Overview { previous, ..overview });
        }
        let current = self.filtered_totals(site, range, filters)?;
        let previous = self.filtered_totals(site, compared, filters)?;
        let pages = self.filtered_counts(site, range, filters, &BreakdownBy { field: Field::Page }, TOP_PAGES)?;
        let top_pages = pages.into_iter().map(|(url, views)| PageViews { url, views }).collect();
        Ok(Overview::of(current, previous, overview.metrics.active_sessions, top_pages, None))
    }

    /// The totals of what `filters` admits.
    pub fn totals_where(&self, site: WebsiteId, range: TimeRange, filters: &Filters) -> Result<Totals> {
        if filters.is_empty() { self.totals(site, range) } else { self.filtered_totals(site, range, filters) }
    }

    /// The chart of what `filters` admits, with the compared period's points when asked.
    pub fn timeseries_where(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        compare: Option<Compare>,
    ) -> Result<Timeseries> {
        let series = |range: TimeRange| match filters.is_empty() {
            true => self.timeseries(site, range),
            false => Ok(Timeseries::of(range, self.filtered_series(site, range, filters)?)),
        };
        let mut chart = series(range)?;
        if let Some(compare) = compare {
            let mut earlier = series(compare.range(range))?.points;
            // A year before may hold a day fewer or more (29 February): as many points as the chart's.
            earlier.resize_with(chart.points.len(), || TimePoint { date: String::new(), visitors: 0, page_views: 0 });
            chart.comparison = Some(earlier);
        }
        Ok(chart)
    }

    /// A breakdown of what `filters` admits by any dimension: the rollups answer a rollup dimension without
    /// filters, the stored visits and events the rest.
    pub fn breakdown_where(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        by: &BreakdownBy,
        limit: i64,
    ) -> Result<Vec<DimensionCount>> {
        if filters.is_empty()
            && let Some(dim) = by.rollup()
        {
            return self.breakdown(site, range, dim, limit);
        }
        let rows = self.filtered_counts(site, range, filters, by, limit)?;
        Ok(rows.into_iter().map(|(value, count)| DimensionCount { value, count }).collect())
    }

    /// The `limit` greatest counts of `by`'s values among what `filters` admits.
    fn filtered_counts(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        by: &BreakdownBy,
        limit: i64,
    ) -> Result<Vec<(String, i64)>> {
        filtered_counts(self, site, range, filters, by, limit)
    }

    /// The Conversions tab of what `filters` admits: its newest conversions, and the share of its visits with a
    /// conversion the filters admit.
    pub fn conversions_where(&self, site: WebsiteId, range: TimeRange, filters: &Filters) -> Result<Conversions> {
        if filters.is_empty() {
            return self.conversions(site, range);
        }
        let conversions = self.filtered_conversions(site, range, filters, crate::analytics::CONVERSIONS_LIMIT)?;
        let visits = self.filtered_totals(site, range, filters)?.visits;
        // Visits holding a conversion that passes the event conditions: one more condition on the same event.
        let mut converting = filters.clone();
        converting.event.push(Expr::Condition(Condition {
            op: Op::IsNot,
            field: Field::Goal,
            values: vec![String::new()],
            case_sensitive: true,
        }));
        let converted = self.filtered_totals(site, range, &converting)?.visits;
        Ok(Conversions { conversions, conversion_rate: crate::analytics::percent(converted, visits) })
    }

    /// The events summary of what `filters` admits, each of the site's `definitions` (id, name, in id order;
    /// read only under filters, the rollups' summary reading its own) with its count; the rollups' summary when
    /// there is no filter.
    pub fn events_summary_where(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
        definitions: impl FnOnce() -> Result<Vec<(i64, String)>>,
    ) -> Result<EventSummary> {
        if filters.is_empty() {
            return self.events_summary(site, range);
        }
        let by_name = GroupBy { fields: vec![Field::Name], bucket: false, rank: Rank::Count(CountOf::Events) };
        let groups = self.filtered_groups(site, range, filters, &by_name, SUMMARY_NAMES)?;
        let rows = groups
            .into_iter()
            .map(|(mut keys, totals)| (keys.swap_remove(0), totals.events + totals.conversions, totals.conversions))
            .collect();
        Ok(EventSummary::of(rows, definitions()?))
    }

    /// The Recent Activity card of what `filters` admits; the unfiltered card read by index when there is none.
    pub fn recent_activity_where(&self, site: WebsiteId, filters: &Filters, limit: i64) -> Result<Vec<ActivityEvent>> {
        if filters.is_empty() {
            self.recent_activity(site, limit)
        } else {
            self.filtered_activity(site, filters, limit)
        }
    }

    /// The visitor stream of what `filters` admits: its active visits, and today's visitors and conversions
    /// counted from the admitted visits and events of each site's day; the rollups' day row when there is no filter.
    /// Of several sites, one whose data a deletion job is removing is left out until it is done (`settled_of`).
    pub fn live_visitors_where(&self, sites: &[WebsiteId], filters: &Filters) -> Result<LiveVisitors> {
        let sites = &self.settled_of(sites)?;
        let mut live = self.live_visitors(sites, filters)?;
        if !filters.is_empty() {
            let now = now_ms();
            (live.new_visitors_today, live.conversions_today) = (0, 0);
            for &site in sites {
                let today = TimeRange::parse_in("today", now, self.site_zone(site)?)?;
                let totals = self.filtered_totals(site, today, filters)?;
                live.new_visitors_today += totals.visitors;
                live.conversions_today += totals.conversions;
            }
        }
        Ok(live)
    }

    /// Referrers of what `filters` admits.
    pub fn referrers_where(&self, site: WebsiteId, range: TimeRange, filters: &Filters) -> Result<Vec<ReferrerCount>> {
        if filters.is_empty() {
            return self.referrers(site, range);
        }
        let by = BreakdownBy { field: Field::Visit(VisitField::Referrer) };
        let rows = self.filtered_counts(site, range, filters, &by, crate::analytics::BREAKDOWN_LIMIT)?;
        Ok(rows.into_iter().map(|(referrer, count)| ReferrerCount { referrer, count }).collect())
    }

    /// Countries of what `filters` admits.
    pub fn countries_where(&self, site: WebsiteId, range: TimeRange, filters: &Filters) -> Result<Vec<CountryCount>> {
        if filters.is_empty() {
            return self.countries(site, range);
        }
        let by = BreakdownBy { field: Field::Visit(VisitField::Country) };
        let rows = self.filtered_counts(site, range, filters, &by, crate::analytics::BREAKDOWN_LIMIT)?;
        Ok(rows.into_iter().map(|(country, count)| CountryCount { country, count }).collect())
    }

    /// Traffic sources of what `filters` admits, each a share of its visits.
    pub fn traffic_sources_where(
        &self,
        site: WebsiteId,
        range: TimeRange,
        filters: &Filters,
    ) -> Result<Vec<TrafficSource>> {
        if filters.is_empty() {
            return self.traffic_sources(site, range);
        }
        let by = BreakdownBy { field: Field::Visit(VisitField::Source) };
        let rows = self.filtered_counts(site, range, filters, &by, crate::analytics::SOURCES_LIMIT)?;
        let total = self.filtered_totals(site, range, filters)?.visits;
        Ok(TrafficSource::of(rows, total))
    }
}

/// The `limit` greatest counts of `by`'s values among what `filters` admits, from an engine's groups (the
/// engines' own reads ask it too: Advanced Analytics' top pages).
pub(crate) fn filtered_counts<R: FilteredReads + ?Sized>(
    reads: &R,
    site: WebsiteId,
    range: TimeRange,
    filters: &Filters,
    by: &BreakdownBy,
    limit: i64,
) -> Result<Vec<(String, i64)>> {
    let groups = reads.filtered_groups(site, range, filters, &by.group(), limit)?;
    Ok(groups.into_iter().map(|(mut keys, totals)| (keys.swap_remove(0), by.count(&totals))).collect())
}

/// The totals and the `limit` most viewed pages (url, views) of what `filters` admits, as the filtered
/// overview counts them: what Advanced Analytics' cards and top pages show under a filter.
pub(crate) fn totals_and_top_pages<R: FilteredReads + ?Sized>(
    reads: &R,
    site: WebsiteId,
    range: TimeRange,
    filters: &Filters,
    limit: i64,
) -> Result<(Totals, Vec<(String, i64)>)> {
    let totals = reads.filtered_totals(site, range, filters)?;
    let pages = filtered_counts(reads, site, range, filters, &BreakdownBy { field: Field::Page }, limit)?;
    Ok((totals, pages))
}

/// The i-th key column of a group query.
pub(crate) fn key(i: usize) -> String {
    format!("k{i}")
}

/// `k0, k1, ...` of `n` keys.
pub(crate) fn key_list(n: usize) -> String {
    (0..n).map(key).collect::<Vec<_>>().join(", ")
}

/// The dialect-neutral parts of the queries of a figure per visit and page (scroll depth, time on page), whose
/// inner level groups by visit and page and outer level by `group`'s keys (its `columns`, in the engine's
/// dialect): the inner SELECT's key columns, the inner GROUP BY's keys after the visit and page, the outer GROUP
/// BY with its HAVING, and the outer SELECT's keys. All empty without keys (one total).
pub(crate) struct PairGrouping {
    pub listed: String,
    pub per_pair: String,
    pub outer: String,
    pub outer_keys: String,
}

impl PairGrouping {
    pub(crate) fn of(group: &GroupBy, columns: &[String]) -> PairGrouping {
        if columns.is_empty() {
            return PairGrouping {
                listed: String::new(),
                per_pair: String::new(),
                outer: String::new(),
                outer_keys: String::new(),
            };
        }
        let keys = key_list(columns.len());
        PairGrouping {
            listed: format!("{}, ", aliased(columns)),
            per_pair: format!(", {keys}"),
            outer: format!(" GROUP BY {keys} HAVING {}", group.valued_sql(key)),
            outer_keys: format!("{keys}, "),
        }
    }
}

/// Columns named `k0, k1, ...` in a group query's SELECT.
pub(crate) fn aliased(columns: &[String]) -> String {
    columns.iter().enumerate().map(|(i, c)| format!("{c} AS {}", key(i))).collect::<Vec<_>>().join(", ")
}

/// (bucket, visitors) and (bucket, page views) rows merged in bucket order.
pub(crate) fn merge_series(visitors: Vec<(i64, i64)>, views: Vec<(i64, i64)>) -> Vec<(i64, i64, i64)> {
    let mut buckets: std::collections::BTreeMap<i64, (i64, i64)> = std::collections::BTreeMap::new();
    for (b, n) in visitors {
        buckets.entry(b).or_default().0 += n;
    }
    for (b, n) in views {
        buckets.entry(b).or_default().1 += n;
    }
    buckets.into_iter().map(|(b, (v, p))| (b, v, p)).collect()
}
