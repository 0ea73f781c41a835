//! A site's local hours and days (issue 36): where, in UTC milliseconds, the local hour and the local day holding
//! an instant start, and the SQL that maps a column of instants to local ones over a span. The SQLite ingest
//! writer keys its rollups by these instants, its rebuild by the SQL, and ranges and charts step by them.
//!
//! Why instants rather than local wall-clock numbers: a range is then one half-open span of UTC milliseconds
//! for the rollups and the raw rows alike, and a day that DST makes 23 or 25 hours long is still one bucket.

use chrono::{DateTime, Duration, NaiveDate, Offset, TimeZone};
use chrono_tz::Tz;

use crate::model::Millis;

const HOUR_MS: Millis = 3_600_000;
const DAY_MS: Millis = 86_400_000;

/// A timezone by its IANA name; UTC for a name the bundled tz database does not know (names are validated when
/// saved, so only a database written by hand holds one).
pub fn zone(name: &str) -> Tz {
    name.parse().unwrap_or(Tz::UTC)
}

fn at(tz: Tz, ms: Millis) -> DateTime<Tz> {
    tz.timestamp_millis_opt(ms).single().expect("a time in chrono's range")
}

/// The zone's offset from UTC at `ms`, in milliseconds.
pub fn offset_ms(tz: Tz, ms: Millis) -> Millis {
    i64::from(at(tz, ms).offset().fix().local_minus_utc()) * 1000
}

/// The local date holding `ms`.
pub fn date_of(tz: Tz, ms: Millis) -> NaiveDate {
    at(tz, ms).date_naive()
}

/// The first instant of a local date: its midnight, or where the day begins when a DST change skips midnight.
pub fn midnight(tz: Tz, date: NaiveDate) -> Millis {
    let start = date.and_hms_opt(0, 0, 0).expect("midnight");
    (0..=16)
        .find_map(|quarter| tz.from_local_datetime(&(start + Duration::minutes(15 * quarter))).earliest())
        .map_or_else(|| start.and_utc().timestamp_millis(), |t| t.timestamp_millis())
}

/// The start of the local day holding `ms`.
pub fn day_start(tz: Tz, ms: Millis) -> Millis {
    midnight(tz, date_of(tz, ms))
}

/// The start of the local hour holding `ms` (a UTC half hour in India, a quarter in Nepal).
pub fn hour_start(tz: Tz, ms: Millis) -> Millis {
    let offset = offset_ms(tz, ms);
    (ms + offset).div_euclid(HOUR_MS) * HOUR_MS - offset
}

/// An instant as local ISO time with the zone's offset, to the second: `2026-11-15T13:00:00+05:30`.
pub fn local_iso(tz: Tz, ms: Millis) -> String {
    at(tz, ms).format("%Y-%m-%dT%H:%M:%S%:z").to_string()
}

/// The local hour and day holding an instant, remembered so the writer's next hits of the same hour cost a
/// comparison: (hour start, hour end, day start).
#[derive(Debug, Clone, Copy)]
pub struct LocalHour {
    pub hour: Millis,
    pub hour_end: Millis,
    pub day: Millis,
}

impl LocalHour {
    /// The local hour and day of `ms`.
    pub fn of(tz: Tz, ms: Millis) -> LocalHour {
        let hour = hour_start(tz, ms);
        LocalHour { hour, hour_end: hour + HOUR_MS, day: day_start(tz, ms) }
    }

    /// Whether `ms` falls in this hour.
    pub fn holds(&self, ms: Millis) -> bool {
        self.hour <= ms && ms < self.hour_end
    }
}

/// The spans of constant offset covering [from, to): (span start, offset in ms), the first from `from`.
fn offsets(tz: Tz, from: Millis, to: Millis) -> Vec<(Millis, Millis)> {
    let mut spans = vec![(from, offset_ms(tz, from))];
    // Offsets change at most a few times a year, never twice within six hours: probe each six hours, then find
    // the change's hour by halving.
    let mut probe = from;
    while probe < to {
        let next = (probe + 6 * HOUR_MS).min(to);
        let (before, after) = (offset_ms(tz, probe), offset_ms(tz, next.max(probe + 1) - 1));
        if before != after {
            let (mut low, mut high) = (probe, next - 1);
            while high - low > 1 {
                let mid = low + (high - low) / 2;
                if offset_ms(tz, mid) == before { low = mid } else { high = mid }
            }
            spans.push((high, after));
        }
        probe = next;
    }
    spans
}

/// SQL of a column's instants moved to local wall-clock milliseconds over [from, to) (outside it, the nearest
/// end's offset): `(column + offset)`, the offset a CASE over the span's changes. Only integers computed here go
/// into the text. UTC gives the column itself.
pub fn local_ms_sql(tz: Tz, column: &str, from: Millis, to: Millis) -> String {
    let spans = offsets(tz, from.max(-DAY_MS * 365 * 200), to.min(DAY_MS * 365 * 300));
    if spans.iter().all(|&(_, offset)| offset == 0) {
        return column.to_string();
    }
    if spans.len() == 1 {
        return format!("({column} + {})", spans[0].1);
    }
    let mut case = String::from("CASE");
    for pair in spans.windows(2) {
        case.push_str(&format!(" WHEN {column} < {} THEN {}", pair[1].0, pair[0].1));
    }
    case.push_str(&format!(" ELSE {} END", spans.last().expect("one span at least").1));
    format!("({column} + {case})")
}

/// SQL of the local-hour bucket (the hour's start in UTC seconds) of a column of instants over [from, to).
pub fn hour_bucket_sql(tz: Tz, column: &str, from: Millis, to: Millis) -> String {
    if tz == Tz::UTC {
        return format!("({column} / {HOUR_MS}) * 3600");
    }
    let local = local_ms_sql(tz, column, from, to);
    // The local hour's start, moved back by the same offset: (local - local % hour - offset) / 1000.
    format!("(({local} / {HOUR_MS}) * {HOUR_MS} - ({local} - {column})) / 1000")
}

/// SQL of the local day number (days since 1970-01-01 in local dates) of a column of instants over [from, to).
pub fn day_number_sql(tz: Tz, column: &str, from: Millis, to: Millis) -> String {
    format!("({} / {DAY_MS})", local_ms_sql(tz, column, from, to))
}

/// The start (seconds) of a chart bucket an engine's SQL gave for `range`: an hour's start as it is, a day's number
/// times 86,400 as that local day's start (a DST day's start is not its local midnight less the offset of its
/// later hours).
pub fn bucket_start(range: crate::analytics::TimeRange, raw: i64) -> i64 {
    match range.grain {
        crate::analytics::Grain::Hour => raw,
        crate::analytics::Grain::Day => {
            let date = chrono::DateTime::from_timestamp(raw, 0).unwrap_or_default().date_naive();
            midnight(range.tz, date) / 1000
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn utc(raw: &str) -> Millis {
        DateTime::parse_from_rfc3339(raw).unwrap().timestamp_millis()
    }

    #[test]
    fn hours_and_days_follow_the_zone() {
        let india = zone("Asia/Kolkata");
        // 2026-03-14T18:29Z is 23:59 in India; a minute later it is the next day, whose hour began at 18:30Z.
        assert_eq!(date_of(india, utc("2026-03-14T18:29:00Z")).to_string(), "2026-03-14");
        assert_eq!(day_start(india, utc("2026-03-14T18:30:00Z")), utc("2026-03-14T18:30:00Z"));
        assert_eq!(hour_start(india, utc("2026-03-14T19:10:00Z")), utc("2026-03-14T18:30:00Z"));
        let nepal = zone("Asia/Kathmandu");
        // 19:10Z is 00:55 in Nepal (+5:45): its hour began at 00:00 local, 18:15Z.
        assert_eq!(hour_start(nepal, utc("2026-03-14T19:10:00Z")), utc("2026-03-14T18:15:00Z"));
        // New York springs forward on 2026-03-08: that day is 23 hours long, its 02:00 never happens.
        let york = zone("America/New_York");
        let day = midnight(york, NaiveDate::from_ymd_opt(2026, 3, 8).unwrap());
        let next = midnight(york, NaiveDate::from_ymd_opt(2026, 3, 9).unwrap());
        assert_eq!((day, next - day), (utc("2026-03-08T05:00:00Z"), 23 * HOUR_MS));
        assert_eq!(hour_start(york, utc("2026-03-08T07:30:00Z")), utc("2026-03-08T07:00:00Z"));
        assert_eq!(zone("Mars/Olympus"), Tz::UTC);
    }

    #[test]
    fn the_sql_offsets_change_where_the_zone_does() {
        let york = zone("America/New_York");
        let (from, to) = (utc("2026-03-01T00:00:00Z"), utc("2026-04-01T00:00:00Z"));
        let spans = offsets(york, from, to);
        assert_eq!(spans, vec![(from, -5 * HOUR_MS), (utc("2026-03-08T07:00:00Z"), -4 * HOUR_MS)]);
        assert_eq!(local_ms_sql(Tz::UTC, "ts", from, to), "ts");
        assert_eq!(local_ms_sql(zone("Asia/Kolkata"), "ts", from, to), "(ts + 19800000)");
        assert!(local_ms_sql(york, "ts", from, to).contains("WHEN ts < 1772953200000 THEN -18000000"));
    }
}
