//! A site's local hours and days in ClickHouse SQL (issue 36), the cluster's twin of SQLite's use of
//! `analytics::local_time`: the same instants (a bucket is the UTC millisecond its local hour starts, a day its
//! local midnight), computed over a column by adding each span's offset (integers from chrono-tz, no zone names:
//! 18.16 takes a zone only as a constant of a column's type). UTC sites keep the plain `intDiv` of before.

use chrono_tz::Tz;

use crate::analytics::{Grain, TimeRange, local_time};
use crate::model::Millis;

const HOUR_MS: Millis = 3_600_000;
const DAY_MS: Millis = 86_400_000;

/// SQL of the local hour's start (UTC milliseconds) of a column of instants within [from, to).
pub(crate) fn hour_sql(tz: Tz, column: &str, from: Millis, to: Millis) -> String {
    if tz == Tz::UTC {
        return format!("(intDiv({column}, {HOUR_MS}) * {HOUR_MS})");
    }
    let local = local_time::local_ms_sql(tz, column, from, to);
    format!("(intDiv({local}, {HOUR_MS}) * {HOUR_MS} - ({local} - {column}))")
}

/// SQL of the local day's number (days since 1970-01-01 in local dates) of a column of instants within [from, to).
pub(crate) fn day_sql(tz: Tz, column: &str, from: Millis, to: Millis) -> String {
    format!("intDiv({}, {DAY_MS})", local_time::local_ms_sql(tz, column, from, to))
}

/// SQL of a column's chart bucket in a range (seconds): the local hour's start, or for days the local day's
/// number times 86,400, which `local_time::bucket_start` turns into the day's start.
pub(crate) fn bucket_sql(range: TimeRange, column: &str) -> String {
    match range.grain {
        Grain::Hour => format!("intDiv({}, 1000)", hour_sql(range.tz, column, range.start, range.end)),
        Grain::Day => format!("({} * 86400)", day_sql(range.tz, column, range.start, range.end)),
    }
}

/// The span of whole local hours of `tz` that a roll-up of the UTC hours [from, to) keys: from the local hour
/// holding `from` to the one holding `to`. Consecutive UTC spans give consecutive local ones, so every shard's
/// mark (a UTC hour) stands for "every local hour before the one holding it" in each zone.
pub(crate) fn local_span(tz: Tz, from: Millis, to: Millis) -> (Millis, Millis) {
    let floor = |ms: Millis| if ms <= 0 || ms == Millis::MAX { ms } else { local_time::hour_start(tz, ms) };
    (floor(from), floor(to))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn local_spans_start_on_the_zones_hours() {
        let india: Tz = "Asia/Kolkata".parse().unwrap();
        let hour = 1_700_000_000_000 / HOUR_MS * HOUR_MS;
        assert_eq!(local_span(india, hour, hour + 5 * HOUR_MS), (hour - 1_800_000, hour + 5 * HOUR_MS - 1_800_000));
        assert_eq!(local_span(Tz::UTC, hour, hour + HOUR_MS), (hour, hour + HOUR_MS));
        assert_eq!(local_span(india, 0, Millis::MAX), (0, Millis::MAX));
    }
}
