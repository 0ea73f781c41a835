//! The Stats API's dates: Plausible's named ranges and ISO pairs, and the labels of time buckets.

use chrono::{Datelike, Duration, NaiveDate};
use chrono_tz::Tz;
use serde_json::Value;

use super::TimeUnit;
use crate::analytics::{Period, TimeRange, local_time};
use crate::error::{Error, Result};
use crate::model::Millis;

/// A bucket's label as Plausible writes it, in the site's zone `tz`: `2026-11-15 13:00:00` for hours, the day
/// (the week's Monday, the month's first day) otherwise.
pub(super) fn time_label(ms: Millis, unit: TimeUnit, tz: Tz) -> String {
    let at =
        chrono::DateTime::from_timestamp_millis(ms).expect("a time in chrono's range").with_timezone(&tz).naive_local();
    let day = at.date();
    match unit {
        TimeUnit::Hour => at.format("%Y-%m-%d %H:00:00").to_string(),
        TimeUnit::Day => day.to_string(),
        TimeUnit::Week => (day - Duration::days(day.weekday().num_days_from_monday() as i64)).to_string(),
        TimeUnit::Month => day.with_day(1).expect("a month's first day").to_string(),
    }
}

/// Every label of a range, in order (its local days or hours; an hour a DST change repeats is one label).
pub(super) fn labels(range: TimeRange, unit: TimeUnit) -> Vec<String> {
    let step = if unit == TimeUnit::Hour { 3_600_000 } else { 86_400_000 };
    let mut out: Vec<String> = Vec::new();
    let mut at = range.start;
    while at < range.end {
        let label = time_label(at, unit, range.tz);
        if out.last() != Some(&label) {
            out.push(label);
        }
        at += step;
    }
    out
}

/// Plausible's `date_range`: a name or `[first, last]` ISO dates (or times, of which the day counts), as local
/// days of the site's zone `tz` (Plausible's site timezone).
pub(super) fn date_range(
    raw: Option<&Value>,
    now: Millis,
    tz: Tz,
    first_data: impl FnOnce() -> Result<Option<Millis>>,
) -> Result<TimeRange> {
    let bad = || {
        Error::invalid(
            "date_range must be day, 7d, 28d, 30d, 91d, month, 6mo, 12mo, year, all or [\"YYYY-MM-DD\", \"YYYY-MM-DD\"]",
        )
    };
    match raw {
        Some(Value::String(name)) => {
            let today = local_time::date_of(tz, now);
            let months_back = |n: u32| {
                let months = today.year() * 12 + today.month0() as i32 - n as i32;
                NaiveDate::from_ymd_opt(months.div_euclid(12), months.rem_euclid(12) as u32 + 1, 1).expect("a month")
            };
            let days = |from: NaiveDate| Ok(TimeRange::of_days(from, today, tz));
            match name.as_str() {
                "day" => TimeRange::parse_in("today", now, tz),
                "7d" | "28d" | "30d" => TimeRange::parse_in(name, now, tz),
                "91d" => days(today - Duration::days(90)),
                "month" => days(months_back(0)),
                "6mo" => days(months_back(5)),
                "12mo" => days(months_back(11)),
                "year" => TimeRange::parse_in("year", now, tz),
                "all" => Ok(TimeRange::since_in(first_data()?, now, tz)),
                _ => Err(bad()),
            }
        }
        Some(Value::Array(pair)) => match pair.as_slice() {
            [Value::String(from), Value::String(to)] => {
                let day = |s: &str| s.get(..10).unwrap_or(s).to_string();
                Period::parse(None, Some(&day(from)), Some(&day(to)), "30d", now)
                    .and_then(|period| period.resolve(tz, now, || Ok(None)))
                    .map_err(|e| Error::invalid(format!("date_range: {e}")))
            }
            _ => Err(bad()),
        },
        _ => Err(bad()),
    }
}
