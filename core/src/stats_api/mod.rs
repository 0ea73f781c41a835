//! Plausible's Stats API v2 (`POST /api/v2/query`) over the events boundary: a query's metrics, dimension,
//! filters, date range, order and page, checked here (a 400 names the bad field) and answered from the same
//! filtered reads as the dashboard, so existing Plausible clients work by changing the host.

use std::collections::HashMap;

use serde::Serialize;
use serde_json::{Value, json};

use crate::analytics::{Grain, TimeRange, Totals};
use crate::error::{Error, Result};
use crate::events::EventStore;
use crate::events::filtered::{CountOf, GroupBy, Rank};
use crate::events::filters::{Expr, Field, Filters};
use crate::model::{Millis, WebsiteId};

mod dates;
mod fields;
mod revenue;
use dates::{date_range, labels, time_label};
use fields::{order_by, quoted, strings};
use revenue::{Currencies, RowRevenue};

/// Most rows one query answers (Plausible's page limit too).
const MAX_ROWS: i64 = 10_000;

/// The metrics a query may ask for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Metric {
    Visitors,
    Visits,
    Pageviews,
    ViewsPerVisit,
    BounceRate,
    VisitDuration,
    Events,
    Percentage,
    ConversionRate,
    GroupConversionRate,
    TotalRevenue,
    ScrollDepth,
    TimeOnPage,
}

const METRICS: [(Metric, &str); 13] = [
    (Metric::Visitors, "visitors"),
    (Metric::Visits, "visits"),
    (Metric::Pageviews, "pageviews"),
    (Metric::ViewsPerVisit, "views_per_visit"),
    (Metric::BounceRate, "bounce_rate"),
    (Metric::VisitDuration, "visit_duration"),
    (Metric::Events, "events"),
    (Metric::Percentage, "percentage"),
    (Metric::ConversionRate, "conversion_rate"),
    (Metric::GroupConversionRate, "group_conversion_rate"),
    (Metric::TotalRevenue, "total_revenue"),
    (Metric::ScrollDepth, "scroll_depth"),
    (Metric::TimeOnPage, "time_on_page"),
];

impl Metric {
    fn parse(name: &str) -> Result<Metric> {
        if let Some((metric, _)) = METRICS.iter().find(|(_, n)| *n == name) {
            return Ok(*metric);
        }
        Err(Error::invalid(format!(
            "metrics: unknown metric {}; use {}",
            quoted(name),
            METRICS.iter().map(|(_, n)| *n).collect::<Vec<_>>().join(", ")
        )))
    }

    fn name(self) -> &'static str {
        METRICS.iter().find(|(m, _)| *m == self).map(|(_, n)| *n).expect("every metric is listed")
    }

    /// The metric of a row's totals, with the visitors the shares divide by; null for the revenue, the scroll
    /// depth and the time on page, which are not counts (`run` reads them).
    fn value(self, t: &Totals, wholes: Wholes) -> Value {
        let ratio = |part: i64, whole: i64, scale: f64| {
            if whole <= 0 { 0.0 } else { (part as f64 * scale / whole as f64 * 100.0).round() / 100.0 }
        };
        match self {
            Metric::Visitors => json!(t.visitors),
            Metric::Visits => json!(t.visits),
            Metric::Pageviews => json!(t.pageviews),
            Metric::ViewsPerVisit => json!(ratio(t.pageviews, t.visits, 1.0)),
            Metric::BounceRate => json!(ratio(t.bounces, t.visits, 100.0).round()),
            Metric::VisitDuration => json!(ratio(t.duration_s, t.visits, 1.0).round()),
            Metric::Events => json!(t.pageviews + t.events + t.conversions),
            Metric::Percentage => json!((ratio(t.visitors, wholes.total, 100.0) * 10.0).round() / 10.0),
            Metric::ConversionRate => json!(ratio(t.visitors, wholes.all, 100.0)),
            Metric::GroupConversionRate => json!(ratio(t.visitors, wholes.group, 100.0)),
            Metric::TotalRevenue | Metric::ScrollDepth | Metric::TimeOnPage => Value::Null,
        }
    }

    fn is_conversion_rate(self) -> bool {
        matches!(self, Metric::ConversionRate | Metric::GroupConversionRate)
    }

    /// Whether the metric is a page's figure per visit, asked of one page or per page.
    fn is_per_page(self) -> bool {
        matches!(self, Metric::ScrollDepth | Metric::TimeOnPage)
    }
}

/// The visitors a row's shares divide by: every row's (`percentage`), everyone's but for the goal filters
/// (`conversion_rate`), and the row's group's but for the goal filters (`group_conversion_rate`).
#[derive(Debug, Clone, Copy, Default)]
struct Wholes {
    total: i64,
    all: i64,
    group: i64,
}

/// One dimension a query groups by, under the name the query gave it.
#[derive(Debug, Clone, PartialEq)]
struct Dimension {
    name: String,
    kind: DimensionKind,
}

#[derive(Debug, Clone, PartialEq)]
enum DimensionKind {
    /// A field; `country_name` answers a country's English name for its stored code.
    Field { field: Field, country_name: bool },
    /// `time`, `time:hour`, `time:day`, `time:week`, `time:month`.
    Time(TimeUnit),
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum TimeUnit {
    Hour,
    Day,
    Week,
    Month,
}

impl Dimension {
    fn parse(name: &str, range: TimeRange) -> Result<Dimension> {
        let unit = match name {
            "time" if range.end - range.start <= 86_400_000 => TimeUnit::Hour,
            "time" | "time:day" => TimeUnit::Day,
            "time:hour" => TimeUnit::Hour,
            "time:week" => TimeUnit::Week,
            "time:month" => TimeUnit::Month,
            _ => {
                let field = Field::parse(name).map_err(|e| Error::invalid(format!("dimensions: {e}")))?;
                let country_name = name == "visit:country_name";
                return Ok(Dimension { name: name.to_string(), kind: DimensionKind::Field { field, country_name } });
            }
        };
        if unit == TimeUnit::Hour && range.end - range.start > 31 * 86_400_000 {
            return Err(Error::invalid("dimensions: time:hour covers at most 31 days"));
        }
        Ok(Dimension { name: name.to_string(), kind: DimensionKind::Time(unit) })
    }

    fn time_unit(&self) -> Option<TimeUnit> {
        match self.kind {
            DimensionKind::Time(unit) => Some(unit),
            DimensionKind::Field { .. } => None,
        }
    }

    fn is_goal(&self) -> bool {
        matches!(&self.kind, DimensionKind::Field { field: Field::Goal, .. })
    }
}

/// What a query orders by: a metric (its index) or a dimension (its index).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
enum OrderKey {
    Metric(usize),
    Dimension(usize),
}

/// A checked query.
#[derive(Debug)]
pub struct StatsQuery {
    /// The `site_id`: the site's domain.
    pub site_domain: String,
    metrics: Vec<Metric>,
    range: TimeRange,
    dimensions: Vec<Dimension>,
    filters: Filters,
    /// What the rows are ordered by, first key first, each with whether descending.
    order: Vec<(OrderKey, bool)>,
    limit: i64,
    offset: i64,
    time_labels: bool,
    total_rows: bool,
    /// The request as given, echoed with the resolved dates.
    echo: Value,
}

/// The answer: rows of metrics and dimension values, and what was asked.
#[derive(Debug, Serialize, PartialEq)]
pub struct StatsAnswer {
    pub results: Vec<StatsRow>,
    pub meta: Value,
    pub query: Value,
}

#[derive(Debug, Serialize, PartialEq)]
pub struct StatsRow {
    pub metrics: Vec<Value>,
    pub dimensions: Vec<Value>,
}

impl StatsQuery {
    /// The `site_id` of a request body: the site's domain.
    pub fn site_domain(body: &Value) -> Result<String> {
        if !body.is_object() {
            return Err(Error::invalid("the query must be a JSON object"));
        }
        body.get("site_id")
            .and_then(Value::as_str)
            .map(str::trim)
            .filter(|s| !s.is_empty())
            .map(str::to_string)
            .ok_or_else(|| Error::invalid("site_id is required: the site's domain"))
    }

    /// Reads a request body, its dates the local ones of the site's zone `tz`; `first_data` gives the site's first
    /// data for `all` (asked only then).
    pub fn parse(
        body: &Value,
        now: Millis,
        tz: chrono_tz::Tz,
        first_data: impl FnOnce() -> Result<Option<Millis>>,
    ) -> Result<StatsQuery> {
        let object = body.as_object().ok_or_else(|| Error::invalid("the query must be a JSON object"))?;
        for key in object.keys() {
            if !["site_id", "metrics", "date_range", "dimensions", "filters", "order_by", "include", "pagination"]
                .contains(&key.as_str())
            {
                return Err(Error::invalid(format!("unknown field {}", quoted(key))));
            }
        }
        let site_domain = StatsQuery::site_domain(body)?;
        let metrics = strings(object.get("metrics"), "metrics")?;
        if metrics.is_empty() {
            return Err(Error::invalid("metrics: at least one metric is required"));
        }
        let metrics = metrics.iter().map(|m| Metric::parse(m)).collect::<Result<Vec<_>>>()?;
        let range = date_range(object.get("date_range"), now, tz, first_data)?;
        let names = match object.get("dimensions") {
            None => Vec::new(),
            some => strings(some, "dimensions")?,
        };
        let dimensions = names.iter().map(|d| Dimension::parse(d, range)).collect::<Result<Vec<_>>>()?;
        let fields: Vec<Field> = dimensions
            .iter()
            .filter_map(|d| match &d.kind {
                DimensionKind::Field { field, .. } => Some(field.clone()),
                DimensionKind::Time(_) => None,
            })
            .collect();
        if dimensions.len() - fields.len() > 1 {
            return Err(Error::invalid("dimensions: at most one time dimension"));
        }
        GroupBy::new(fields.clone(), false, Rank::Keys)?;
        if metrics.contains(&Metric::Percentage) && fields.is_empty() {
            return Err(Error::invalid("metrics: percentage needs a non-time dimension"));
        }
        if fields.iter().any(|f| !f.is_visit())
            && let Some(m) =
                metrics.iter().find(|m| matches!(m, Metric::BounceRate | Metric::VisitDuration | Metric::ViewsPerVisit))
        {
            return Err(Error::invalid(format!(
                "metrics: {} is a visit's, and cannot be grouped by an event: dimension",
                m.name()
            )));
        }
        let filters = match object.get("filters") {
            None => Filters::none(),
            Some(f) => Filters::from_json(f).map_err(|e| Error::invalid(format!("filters: {e}")))?,
        };
        if let Some(m) = metrics.iter().find(|m| m.is_per_page()) {
            // Plausible's rule and words: a page's figure, so a page dimension or a page filter at the top level.
            let page_filter = filters.event.iter().any(|e| matches!(e, Expr::Condition(c) if c.field == Field::Page));
            if !fields.contains(&Field::Page) && !page_filter {
                return Err(Error::invalid(format!(
                    "metrics: Metric `{}` can only be queried with event:page filters or dimensions.",
                    m.name()
                )));
            }
        }
        if let Some(m) = metrics.iter().find(|m| m.is_conversion_rate()) {
            if !filters.has_goal() && !fields.contains(&Field::Goal) {
                return Err(Error::invalid(format!("metrics: {} needs an event:goal filter or dimension", m.name())));
            }
            filters.without_goals()?;
        }
        let order = order_by(object.get("order_by"), &metrics, &dimensions)?;
        let include = object.get("include").cloned().unwrap_or(json!({}));
        let flag = |name: &str| -> Result<bool> {
            match include.get(name) {
                None | Some(Value::Null) => Ok(false),
                Some(Value::Bool(b)) => Ok(*b),
                Some(_) => Err(Error::invalid(format!("include.{name} must be true or false"))),
            }
        };
        let (time_labels, total_rows) = (flag("time_labels")?, flag("total_rows")?);
        flag("imports")?;
        let pagination = object.get("pagination").cloned().unwrap_or(json!({}));
        let number = |name: &str, default: i64, range: std::ops::RangeInclusive<i64>| -> Result<i64> {
            match pagination.get(name) {
                None => Ok(default),
                Some(v) => v.as_i64().filter(|n| range.contains(n)).ok_or_else(|| {
                    Error::invalid(format!(
                        "pagination.{name} must be a whole number from {} to {}",
                        range.start(),
                        range.end()
                    ))
                }),
            }
        };
        let (limit, offset) = (number("limit", MAX_ROWS, 1..=MAX_ROWS)?, number("offset", 0, 0..=1_000_000)?);
        let mut echo = body.clone();
        let stamp = |ms: Millis| {
            let at = chrono::DateTime::from_timestamp_millis(ms).expect("a time in chrono's range").with_timezone(&tz);
            at.format("%Y-%m-%dT%H:%M:%S%:z").to_string()
        };
        echo["date_range"] = json!([stamp(range.start), stamp(range.end - 1000)]);
        Ok(StatsQuery {
            site_domain,
            metrics,
            range,
            dimensions,
            filters,
            order,
            limit,
            offset,
            time_labels,
            total_rows,
            echo,
        })
    }

    /// Answers the query for `site`.
    pub fn run(&self, events: &(dyn EventStore + 'static), site: WebsiteId) -> Result<StatsAnswer> {
        let mut meta = json!({});
        let converting = self.metrics.iter().any(|m| m.is_conversion_rate());
        let everyone = match converting {
            true => Some(self.filters.without_goals()?),
            false => None,
        };
        let all = match &everyone {
            Some(everyone) => events.filtered_totals(site, self.range, everyone)?.visitors,
            None => 0,
        };
        let revenue = match self.metrics.contains(&Metric::TotalRevenue) {
            true => Some(self.revenue(events, site)?),
            false => None,
        };
        let currencies = revenue.as_ref().map(|r| Currencies::of(r, self.dimensions.iter().any(Dimension::is_goal)));
        if let Some(warning) = currencies.as_ref().and_then(Currencies::warning) {
            meta["metric_warnings"] = json!({ "total_revenue": warning });
        }
        let (group, range) = self.group_of(&self.dimensions)?;
        let scroll = match self.metrics.contains(&Metric::ScrollDepth) {
            true => self.per_row(events.filtered_scroll(site, range, &self.filters, &group)?),
            false => HashMap::new(),
        };
        let page_time = match self.metrics.contains(&Metric::TimeOnPage) {
            true => self.per_row(events.filtered_page_time(site, range, &self.filters, &group)?),
            false => HashMap::new(),
        };
        let metric = |m: Metric, dims: &[Value], t: &Totals, wholes: Wholes| match (m, &currencies) {
            (Metric::TotalRevenue, Some(currencies)) => currencies.value(revenue.as_ref().and_then(|r| r.get(dims))),
            (Metric::ScrollDepth, _) => match scroll.get(dims) {
                Some(&(sum, pairs)) if pairs > 0 => json!((sum as f64 / pairs as f64).round() as i64),
                _ => Value::Null,
            },
            // Whole seconds per visit of the page, half to even as ClickHouse's round (Plausible's) does.
            (Metric::TimeOnPage, _) => match page_time.get(dims) {
                Some(&(ms, pairs)) if pairs > 0 => {
                    json!((ms as f64 / 1000.0 / pairs as f64).round_ties_even() as i64)
                }
                _ => Value::Null,
            },
            _ => m.value(t, wholes),
        };
        let values = |dims: &[Value], t: &Totals, wholes: Wholes| {
            self.metrics.iter().map(|m| metric(*m, dims, t, wholes)).collect::<Vec<_>>()
        };
        if self.dimensions.is_empty() {
            let totals = events.totals_where(site, self.range, &self.filters)?;
            let wholes = Wholes { total: totals.visitors, all, group: all };
            let results = vec![StatsRow { metrics: values(&[], &totals, wholes), dimensions: vec![] }];
            return Ok(StatsAnswer { results, meta, query: self.echo.clone() });
        }
        let mut rows = self.grouped(events, site, &self.filters, &self.dimensions)?;
        if self.time_labels
            && let Some(unit) = self.dimensions.iter().find_map(Dimension::time_unit)
        {
            meta["time_labels"] = json!(labels(self.range, unit));
        }
        let total = match self.metrics.contains(&Metric::Percentage) {
            true => events.filtered_totals(site, self.range, &self.filters)?.visitors,
            false => 0,
        };
        // Each group's divisor: its visitors but for the goal filters, grouped by the dimensions but the goal.
        let group_of = |dims: &[Value]| -> Vec<Value> {
            dims.iter().zip(&self.dimensions).filter(|(_, d)| !d.is_goal()).map(|(v, _)| v.clone()).collect()
        };
        let mut groups: HashMap<Vec<Value>, i64> = HashMap::new();
        if self.metrics.contains(&Metric::GroupConversionRate)
            && let Some(everyone) = &everyone
        {
            let by: Vec<Dimension> = self.dimensions.iter().filter(|d| !d.is_goal()).cloned().collect();
            if !by.is_empty() {
                let whole = self.grouped(events, site, everyone, &by)?;
                groups = whole.into_iter().map(|(dims, totals)| (dims, totals.visitors)).collect();
            }
        }
        let wholes = |dims: &[Value]| Wholes {
            total,
            all,
            group: if groups.is_empty() { all } else { groups.get(&group_of(dims)).copied().unwrap_or(0) },
        };
        rows.sort_by(|a, b| {
            for (key, descending) in &self.order {
                let (x, y) = match key {
                    OrderKey::Metric(i) => {
                        let m = self.metrics[*i];
                        (metric(m, &a.0, &a.1, wholes(&a.0)), metric(m, &b.0, &b.1, wholes(&b.0)))
                    }
                    OrderKey::Dimension(i) => (a.0[*i].clone(), b.0[*i].clone()),
                };
                let number = |v: &Value| v.as_f64().or_else(|| revenue::number(v));
                let ord = match (number(&x), number(&y)) {
                    (Some(x), Some(y)) => x.total_cmp(&y),
                    _ => x.as_str().unwrap_or("").cmp(y.as_str().unwrap_or("")),
                };
                let ord = if *descending { ord.reverse() } else { ord };
                if ord.is_ne() {
                    return ord;
                }
            }
            let text = |v: &Vec<Value>| v.iter().map(|x| x.as_str().unwrap_or("").to_string()).collect::<Vec<_>>();
            text(&a.0).cmp(&text(&b.0))
        });
        if self.total_rows {
            meta["total_rows"] = json!(rows.len());
        }
        let results = rows
            .into_iter()
            .skip(self.offset as usize)
            .take(self.limit as usize)
            .map(|(dimensions, totals)| StatsRow {
                metrics: values(&dimensions, &totals, wholes(&dimensions)),
                dimensions,
            })
            .collect();
        Ok(StatsAnswer { results, meta, query: self.echo.clone() })
    }

    /// The totals of what `filters` admits grouped by `dimensions`, each row with its dimensions' values in
    /// their order; weeks and months add up their days.
    fn grouped(
        &self,
        events: &(dyn EventStore + 'static),
        site: WebsiteId,
        filters: &Filters,
        dimensions: &[Dimension],
    ) -> Result<Vec<(Vec<Value>, Totals)>> {
        let (group, range) = self.group_of(dimensions)?;
        let groups = events.filtered_groups(site, range, filters, &group, MAX_ROWS)?;
        let mut rows: Vec<(Vec<Value>, Totals)> = Vec::new();
        for (keys, totals) in groups {
            let values = values_of(dimensions, &keys, self.range.tz);
            match rows.iter_mut().find(|(d, _)| *d == values) {
                Some((_, sum)) => *sum = *sum + totals,
                None => rows.push((values, totals)),
            }
        }
        Ok(rows)
    }

    /// The revenue of the query's rows, per currency in cents; weeks and months add up their days.
    fn revenue(&self, events: &(dyn EventStore + 'static), site: WebsiteId) -> Result<RowRevenue> {
        let (group, range) = self.group_of(&self.dimensions)?;
        let mut rows = RowRevenue::new();
        for sum in events.filtered_revenue(site, range, &self.filters, &group, MAX_ROWS)? {
            let row = rows.entry(values_of(&self.dimensions, &sum.keys, self.range.tz)).or_default();
            *row.entry(sum.currency).or_default() += sum.cents;
        }
        Ok(rows)
    }

    /// Per row, a figure per visit and page (`filtered_scroll`'s, `filtered_page_time`'s) summed and the number of
    /// (visit, page) pairs; weeks and months add up their days.
    fn per_row(&self, groups: Vec<(Vec<String>, i64, i64)>) -> HashMap<Vec<Value>, (i64, i64)> {
        let mut rows: HashMap<Vec<Value>, (i64, i64)> = HashMap::new();
        for (keys, sum, pairs) in groups {
            let row = rows.entry(values_of(&self.dimensions, &keys, self.range.tz)).or_default();
            *row = (row.0 + sum, row.1 + pairs);
        }
        rows
    }

    /// The group query of `dimensions` (ranked by visits for visit fields, by events otherwise) and the range at
    /// its time dimension's grain.
    fn group_of(&self, dimensions: &[Dimension]) -> Result<(GroupBy, TimeRange)> {
        let fields: Vec<Field> = dimensions
            .iter()
            .filter_map(|d| match &d.kind {
                DimensionKind::Field { field, .. } => Some(field.clone()),
                DimensionKind::Time(_) => None,
            })
            .collect();
        let unit = dimensions.iter().find_map(Dimension::time_unit);
        let by_visit = fields.first().is_none_or(Field::is_visit);
        let rank = Rank::Count(if by_visit { CountOf::Visits } else { CountOf::AllEvents });
        let group = GroupBy::new(fields, unit.is_some(), rank)?;
        let grain = if unit == Some(TimeUnit::Hour) { Grain::Hour } else { Grain::Day };
        Ok((group, TimeRange { grain, ..self.range }))
    }
}

/// A group's dimension values as the query shows them, from its keys (the fields' values, then the bucket's
/// start in seconds).
fn values_of(dimensions: &[Dimension], keys: &[String], tz: chrono_tz::Tz) -> Vec<Value> {
    let mut fields = keys.iter();
    let bucket = keys.last().and_then(|k| k.parse::<Millis>().ok()).unwrap_or(0) * 1000;
    dimensions
        .iter()
        .map(|d| match &d.kind {
            DimensionKind::Field { field, country_name } => {
                let value = fields.next().cloned().unwrap_or_default();
                json!(shown_value(field, *country_name, value))
            }
            DimensionKind::Time(unit) => json!(time_label(bucket, *unit, tz)),
        })
        .collect()
}

/// A dimension's value as Plausible shows it: a country's name for `visit:country_name`, `Direct / None` for no
/// source, `(not set)` for no UTM value.
fn shown_value(field: &Field, country_name: bool, value: String) -> String {
    use crate::events::filters::VisitField as V;
    match field {
        _ if country_name => country_name_of(&value),
        Field::Visit(V::Source) if value.is_empty() => "Direct / None".into(),
        Field::Visit(V::UtmSource | V::UtmMedium | V::UtmCampaign | V::UtmContent | V::UtmTerm) if value.is_empty() => {
            "(not set)".into()
        }
        _ => value,
    }
}

/// A country's English name (ISO 3166-1) for its stored code; the code itself when unknown, '' for none.
fn country_name_of(code: &str) -> String {
    isocountry::CountryCode::for_alpha2(code).map(|c| c.name().to_string()).unwrap_or_else(|_| code.to_string())
}

#[cfg(test)]
mod tests;
