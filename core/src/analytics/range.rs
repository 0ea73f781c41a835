//! Time ranges of the dashboard (presets such as `7d`, `today`, `month`, `all`, or custom days `from`..`to`) and
//! which rollup grain answers them. Days are UTC days.

use chrono::{Datelike, NaiveDate};

use crate::error::{Error, Result};
use crate::model::Millis;

/// A UTC day in milliseconds.
const DAY_MS: Millis = 86_400_000;

/// Most days one range covers: 25 years, so imported history of any age fits and no chart grows past 9,132
/// points.
pub const MAX_DAYS: i64 = 9_132;

/// The UTC date of a day's first millisecond.
fn day_of(ms: Millis) -> NaiveDate {
    chrono::DateTime::from_timestamp_millis(ms).expect("a time in chrono's range").date_naive()
}

/// The first millisecond of a UTC date.
fn millis_of(date: NaiveDate) -> Millis {
    date.and_hms_opt(0, 0, 0).expect("midnight").and_utc().timestamp_millis()
}

/// A range as a request names it: a preset or custom days, resolved now; or `all`, resolved against the site's
/// first data by [`crate::events::EventStore`]'s `range_of`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Period {
    Range(TimeRange),
    All,
}

/// What a read compares its range with (`compare=`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Compare {
    /// The same length just before.
    PreviousPeriod,
    /// The same days a year earlier.
    YearOverYear,
}

impl Compare {
    /// Reads `compare`: absent is none; `previous_period` or `year_over_year`.
    pub fn parse(raw: Option<&str>) -> Result<Option<Compare>> {
        match raw.map(str::trim) {
            None | Some("") => Ok(None),
            Some("previous_period") => Ok(Some(Compare::PreviousPeriod)),
            Some("year_over_year") => Ok(Some(Compare::YearOverYear)),
            Some(_) => Err(Error::invalid("compare must be previous_period or year_over_year")),
        }
    }

    /// The range `range` is compared with, of the same grain.
    pub fn range(self, range: TimeRange) -> TimeRange {
        match self {
            Compare::PreviousPeriod => range.previous(),
            Compare::YearOverYear => {
                // The same clock time a year before: 29 February becomes 28 February.
                let year_before = |ms: Millis| {
                    let at = chrono::DateTime::from_timestamp_millis(ms).expect("a time in chrono's range").naive_utc();
                    let day = at.date();
                    let earlier = NaiveDate::from_ymd_opt(day.year() - 1, day.month(), day.day())
                        .or_else(|| NaiveDate::from_ymd_opt(day.year() - 1, day.month(), day.day() - 1))
                        .expect("a day a year before");
                    earlier.and_time(at.time()).and_utc().timestamp_millis()
                };
                TimeRange { start: year_before(range.start), end: year_before(range.end), grain: range.grain }
            }
        }
    }
}

impl Period {
    /// Reads `range`, or `from` and `to` (which take its place), with `default` when none is given.
    pub fn parse(
        range: Option<&str>,
        from: Option<&str>,
        to: Option<&str>,
        default: &str,
        now: Millis,
    ) -> Result<Period> {
        match (from, to) {
            (Some(from), Some(to)) => Ok(Period::Range(TimeRange::custom(from, to)?)),
            (None, None) => match range.unwrap_or(default) {
                "all" => Ok(Period::All),
                name => Ok(Period::Range(TimeRange::parse(name, now)?)),
            },
            _ => Err(Error::invalid("from and to go together: give both or neither")),
        }
    }
}

/// Which rollup table a range reads.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Grain {
    Hour,
    Day,
}

impl Grain {
    /// The rollup table of this grain (a fixed name, safe to put into SQL text).
    pub fn table(self) -> &'static str {
        match self {
            Grain::Hour => "rollup_hours",
            Grain::Day => "rollup_days",
        }
    }

    /// Bucket width in seconds.
    pub fn seconds(self) -> i64 {
        match self {
            Grain::Hour => 3_600,
            Grain::Day => 86_400,
        }
    }
}

/// A half-open time window [start, end) aligned to its grain's buckets.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeRange {
    pub start: Millis,
    pub end: Millis,
    pub grain: Grain,
}

impl TimeRange {
    /// Parses a range name relative to `now`: `1d`/`24h` are the last 24 whole hours including the current
    /// one; `today` and `yesterday` those days' 24 hours; `Nd` the last N whole UTC days including today (7, 28,
    /// 30, 90, 365; `12mo` is 365); `month` and `year` the current month or year up to today; `last_month` the
    /// whole previous month. `all` needs the site's first day: see [`Period`].
    pub fn parse(name: &str, now: Millis) -> Result<TimeRange> {
        let today = now.div_euclid(DAY_MS) * DAY_MS;
        let tomorrow = today + DAY_MS;
        let hours = |start: Millis| TimeRange { start, end: start + DAY_MS, grain: Grain::Hour };
        let days = match name {
            "1d" | "24h" => {
                let end = (now.div_euclid(3_600_000) + 1) * 3_600_000;
                return Ok(TimeRange { start: end - 24 * 3_600_000, end, grain: Grain::Hour });
            }
            "today" | "day" => return Ok(hours(today)),
            "yesterday" => return Ok(hours(today - DAY_MS)),
            "7d" => 7,
            "28d" => 28,
            "30d" => 30,
            "90d" | "3m" => 90,
            "365d" | "12m" | "12mo" | "1y" => 365,
            "month" | "year" | "last_month" => {
                let date = day_of(today);
                let first = |y: i32, m: u32| millis_of(NaiveDate::from_ymd_opt(y, m, 1).expect("a month's first day"));
                let (start, end) = match name {
                    "month" => (first(date.year(), date.month()), tomorrow),
                    "year" => (first(date.year(), 1), tomorrow),
                    _ => {
                        let (y, m) =
                            if date.month() == 1 { (date.year() - 1, 12) } else { (date.year(), date.month() - 1) };
                        (first(y, m), first(date.year(), date.month()))
                    }
                };
                return Ok(TimeRange { start, end, grain: Grain::Day });
            }
            _ => {
                return Err(Error::invalid(
                    "range must be one of today, yesterday, 1d, 24h, 7d, 28d, 30d, 90d, 365d, 12mo, month, \
                     last_month, year, all, or give from and to",
                ));
            }
        };
        Ok(TimeRange { start: tomorrow - days * DAY_MS, end: tomorrow, grain: Grain::Day })
    }

    /// The days from `from` to `to` (YYYY-MM-DD, both included): hourly for a single day, daily otherwise.
    pub fn custom(from: &str, to: &str) -> Result<TimeRange> {
        let date = |name: &str, raw: &str| {
            NaiveDate::parse_from_str(raw.trim(), "%Y-%m-%d")
                .ok()
                .filter(|d| (1970..=9999).contains(&d.year()))
                .ok_or_else(|| Error::invalid(format!("{name} must be a date as YYYY-MM-DD")))
        };
        let (first, last) = (date("from", from)?, date("to", to)?);
        if first > last {
            return Err(Error::invalid("from must not be after to"));
        }
        let (start, end) = (millis_of(first), millis_of(last) + DAY_MS);
        if end - start > MAX_DAYS * DAY_MS {
            return Err(Error::invalid(format!("a range may cover at most {MAX_DAYS} days")));
        }
        let grain = if end - start == DAY_MS { Grain::Hour } else { Grain::Day };
        Ok(TimeRange { start, end, grain })
    }

    /// Every day from the one holding `first` (the site's first data) to today, at most `MAX_DAYS` of them.
    pub fn since(first: Option<Millis>, now: Millis) -> TimeRange {
        let tomorrow = (now.div_euclid(DAY_MS) + 1) * DAY_MS;
        let start = first
            .map_or(tomorrow - DAY_MS, |f| f.div_euclid(DAY_MS) * DAY_MS)
            .clamp(tomorrow - MAX_DAYS * DAY_MS, tomorrow - DAY_MS);
        TimeRange { start, end: tomorrow, grain: Grain::Day }
    }

    /// The same-length range just before this one.
    pub fn previous(self) -> TimeRange {
        let len = self.end - self.start;
        TimeRange { start: self.start - len, end: self.start, grain: self.grain }
    }

    /// Bucket bounds in rollup units (seconds), half-open.
    pub fn buckets(self) -> (i64, i64) {
        (self.start.div_euclid(1000), self.end.div_euclid(1000))
    }

    /// Number of days covered (1 for hourly ranges).
    pub fn days(self) -> i64 {
        ((self.end - self.start) / 86_400_000).max(1)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ranges_align_to_buckets() {
        let now = 1_700_000_123_456;
        let week = TimeRange::parse("7d", now).unwrap();
        assert_eq!(week.end - week.start, 7 * 86_400_000);
        assert!(week.start <= now && now < week.end);
        assert_eq!(week.end % 86_400_000, 0);
        let day = TimeRange::parse("24h", now).unwrap();
        assert_eq!(day.grain, Grain::Hour);
        assert!(day.start <= now && now < day.end);
        assert_eq!(week.previous().end, week.start);
        assert!(TimeRange::parse("2w", now).is_err());
    }

    fn day(raw: &str) -> Millis {
        millis_of(NaiveDate::parse_from_str(raw, "%Y-%m-%d").unwrap())
    }

    #[test]
    fn presets_cover_their_calendar_days() {
        let now = day("2026-03-15") + 13 * 3_600_000;
        let range = |name| TimeRange::parse(name, now).unwrap();
        assert_eq!(range("today"), TimeRange { start: day("2026-03-15"), end: day("2026-03-16"), grain: Grain::Hour });
        assert_eq!(range("yesterday").start, day("2026-03-14"));
        assert_eq!(range("month"), TimeRange { start: day("2026-03-01"), end: day("2026-03-16"), grain: Grain::Day });
        assert_eq!(
            range("last_month"),
            TimeRange { start: day("2026-02-01"), end: day("2026-03-01"), grain: Grain::Day }
        );
        assert_eq!(range("year").start, day("2026-01-01"));
        assert_eq!(range("28d").days(), 28);
        let january = day("2026-01-10");
        assert_eq!(TimeRange::parse("last_month", january).unwrap().start, day("2025-12-01"));
    }

    #[test]
    fn custom_days_are_inclusive_and_checked() {
        let range = TimeRange::custom("2011-02-01", "2011-02-28").unwrap();
        assert_eq!((range.start, range.end, range.grain), (day("2011-02-01"), day("2011-03-01"), Grain::Day));
        assert_eq!(TimeRange::custom("2026-01-05", "2026-01-05").unwrap().grain, Grain::Hour);
        let message = |from, to| match TimeRange::custom(from, to) {
            Err(Error::Invalid(m)) => m,
            other => panic!("{from}..{to}: {other:?}"),
        };
        assert!(message("2026-02-01", "2026-01-01").contains("after"));
        assert!(message("2026-02-30", "2026-03-01").contains("from must be a date"));
        assert!(message("2026-01-01", "soon").contains("to must be a date"));
        assert!(message("1980-01-01", "2026-01-01").contains("at most"));
        assert!(matches!(Period::parse(None, Some("2026-01-01"), None, "30d", 0), Err(Error::Invalid(_))));
        assert_eq!(Period::parse(Some("all"), None, None, "30d", 0).unwrap(), Period::All);
    }

    #[test]
    fn comparisons_are_the_period_before_or_a_year_earlier() {
        let range = TimeRange::custom("2024-02-20", "2024-03-05").unwrap();
        let yoy = Compare::YearOverYear.range(range);
        assert_eq!((yoy.start, yoy.end), (day("2023-02-20"), day("2023-03-06")));
        assert_eq!(Compare::PreviousPeriod.range(range).end, range.start);
        let leap = TimeRange::custom("2024-02-29", "2024-02-29").unwrap();
        assert_eq!(Compare::YearOverYear.range(leap).start, day("2023-02-28"));
        assert_eq!(Compare::parse(Some("year_over_year")).unwrap(), Some(Compare::YearOverYear));
        assert!(Compare::parse(Some("last_week")).is_err());
    }

    #[test]
    fn all_time_starts_on_the_first_day_with_data() {
        let now = day("2026-03-15") + 5;
        let all = TimeRange::since(Some(day("2011-06-01") + 77), now);
        assert_eq!((all.start, all.end), (day("2011-06-01"), day("2026-03-16")));
        assert_eq!(TimeRange::since(None, now).start, day("2026-03-15"));
    }
}
