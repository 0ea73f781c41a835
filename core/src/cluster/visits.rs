//! The per-visit view of hits in ClickHouse SQL: the visits that started in a range, each with the values its
//! first hit gave it, as SQLite's writer counts a visit in its rollups (on its start, under its first hit's
//! dimensions, with its visitor hash of that day). Shared by the cluster's reports; values are parsed here.

use chrono_tz::Tz;

use crate::analytics::{Dimension, local_time};
use crate::error::{Error, Result};
use crate::model::{Millis, WebsiteId};

/// A UTC day in milliseconds: the visitor hash's salt changes daily (at UTC midnight).
pub(crate) const DAY_MS: Millis = 86_400_000;

/// The sites a query reads, as SQL text (ids are integers, formatted by us).
pub(crate) fn sites_condition(sites: &[WebsiteId]) -> String {
    match sites {
        [site] => format!("website_id = {site}"),
        _ => {
            let ids: Vec<String> = sites.iter().map(i64::to_string).collect();
            format!("website_id IN ({})", ids.join(", "))
        }
    }
}

/// A subquery of the visits of `sites` that started in [from, to), one row per visit: `website_id`,
/// `visit_id`, `visitor`, `start`, `last`, `page_views`, `conversions` and the first hit's dimensions as
/// `v_referrer_host`, `v_country`, `v_device`, `v_browser`, `v_os`, `v_utm_source`, `v_source`.
///
/// A visit's rows are on one shard (the sharding key is its visitor), so the visits are picked on each shard
/// locally (hits_local in the INs) and their rows read from `from` on, including those after the range: a
/// visit's length, bounce and conversion count whenever their hits came, as SQLite's rollups add them to the
/// visit's start. Anonymous page views (visit 0, kept without consent) are no visit.
///
/// The visits with a hit in the range that started before it are found in the `EARLIER_HITS_MS` before
/// `from`, so no read scans the site's history before the range. Why that window holds every such visit: a
/// hit's time is at most its arrival and at least a day before it (`accept_timestamp`), and a batch's run of a
/// key's hits joins the visit when its earliest time is at most the idle timeout after the visit's latest
/// (`IngestState::visits`). Take the run that first brings the visit's latest time to `from` or past it. If
/// the run's earliest hit is before `from`, it was queued with a hit timed at or after `from`, so it arrived
/// after `from` and is timed at most a day (and the queue's wait) before it. Otherwise the visit's latest time
/// before that run was within the idle timeout of `from`, and that hit is the one. Later hits timed before
/// `from` arrived after `from` too. Two days leave room for the queue and for daemons' clocks that differ.
pub(super) fn visits_sql(db: &str, sites: &[WebsiteId], from: Millis, to: Millis) -> String {
    visits_in(db, "hits", &sites_condition(sites), from, to)
}

/// `visits_sql` reading `table` (`hits`, every shard, or `hits_local`, the shard asked alone: a visit's rows are
/// on one shard) for the sites of the condition `sites` (on `website_id`, fixed text).
pub(super) fn visits_in(db: &str, table: &str, sites: &str, from: Millis, to: Millis) -> String {
    format!(
        "SELECT website_id, visit_id, any(visitor) AS visitor, min(ts) AS start, max(ts) AS last,
                countIf(kind = 'pageview') AS page_views, countIf(kind = 'conversion') AS conversions,
                argMin(referrer_host, ts) AS v_referrer_host, argMin(country, ts) AS v_country,
                argMin(device, ts) AS v_device, argMin(browser, ts) AS v_browser, argMin(os, ts) AS v_os,
                argMin(utm_source, ts) AS v_utm_source, argMin(source, ts) AS v_source
         FROM {db}.{table}
         WHERE {}
         GROUP BY website_id, visit_id
         HAVING start >= {from} AND start < {to}",
        rows_of_visits(db, sites, from, to)
    )
}

/// The condition on `hits` of the rows of the visits that may have started in [from, to) (see `visits_sql`;
/// a query grouping them by visit keeps those whose `min(ts)` is in the range).
pub(crate) fn visit_rows(db: &str, sites: &[WebsiteId], from: Millis, to: Millis) -> String {
    rows_of_visits(db, &sites_condition(sites), from, to)
}

fn rows_of_visits(db: &str, sites: &str, from: Millis, to: Millis) -> String {
    let earlier = from - EARLIER_HITS_MS;
    format!(
        "{sites} AND ts >= {from}
           AND visit_id IN (
            SELECT visit_id FROM {db}.hits_local WHERE {sites} AND visit_id != 0 AND ts >= {from} AND ts < {to})
           AND visit_id NOT IN (
            SELECT visit_id FROM {db}.hits_local WHERE {sites} AND visit_id != 0 AND ts >= {earlier} AND ts < {from})"
    )
}

/// How far before a range its visits that started earlier are looked for (see `visits_sql`).
pub(crate) const EARLIER_HITS_MS: Millis = 2 * DAY_MS;

/// A subquery of each visitor's first visit start per local day of `tz`, for visits of `sites` that started on
/// the days from the one holding `from` to `to`: `website_id`, `first`. SQLite counts a visitor once per site
/// and local day, in the hour its first visit of the day started, so a range counts the visitors whose `first`
/// is in it (a visitor seen earlier that day, before the range, is not counted in it).
pub(super) fn first_visits_sql(db: &str, sites: &[WebsiteId], tz: Tz, from: Millis, to: Millis) -> String {
    first_visits_in(db, "hits", &sites_condition(sites), tz, from, to)
}

/// `first_visits_sql` reading `table` for the sites of the condition `sites` (as `visits_in`).
pub(super) fn first_visits_in(db: &str, table: &str, sites: &str, tz: Tz, from: Millis, to: Millis) -> String {
    let day_start = local_time::day_start(tz, from);
    format!(
        "SELECT website_id, min(start) AS first FROM ({})
         GROUP BY website_id, {}, visitor",
        visits_in(db, table, sites, day_start, to),
        super::local_hours::day_sql(tz, "start", day_start, to)
    )
}

/// A per-visit dimension's value over a row of `visits_sql`, as `VisitDims::value` gives it; `None` for
/// pages, which are counted per page view.
pub(super) fn visit_dimension(dim: Dimension) -> Option<&'static str> {
    Some(match dim {
        Dimension::Page => return None,
        Dimension::Referrer => "v_referrer_host",
        Dimension::Country => "v_country",
        Dimension::Device => "v_device",
        Dimension::Browser => "v_browser",
        Dimension::Os => "v_os",
        Dimension::UtmSource => "v_utm_source",
        Dimension::Source => "v_source",
    })
}

/// A field of an answer row as an integer.
pub(crate) fn int(row: &[String], i: usize) -> Result<i64> {
    row.get(i)
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| Error::Internal(format!("ClickHouse: expected a number in column {i} of {row:?}")))
}

/// A field of an answer row as text.
pub(crate) fn text(row: &[String], i: usize) -> Result<String> {
    row.get(i).cloned().ok_or_else(|| Error::Internal(format!("ClickHouse: no column {i} in {row:?}")))
}

/// A field of an answer row as a float.
pub(crate) fn float(row: &[String], i: usize) -> Result<f64> {
    row.get(i)
        .and_then(|v| v.parse().ok())
        .ok_or_else(|| Error::Internal(format!("ClickHouse: expected a float in column {i} of {row:?}")))
}
