//! Time ranges of the dashboard (presets such as `7d`, `today`, `month`, `all`, or custom days `from`..`to`) and
//! which rollup grain answers them. Days are the site's local days (`local_time`); a range resolved without a
//! site's timezone is in UTC.

use chrono::{Datelike, NaiveDate};
use chrono_tz::Tz;

use super::local_time::{self, date_of, midnight};

use crate::error::{Error, Result};
use crate::model::Millis;

/// Most days one range covers: 25 years, so imported history of any age fits and no chart grows past 9,132
/// points.
pub const MAX_DAYS: i64 = 9_132;

/// A range as a request names it, resolved in the site's timezone by [`crate::events::EventStore`]'s `range_of`:
/// a preset (checked when parsed), custom local days, or `all` (from the site's first data).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Period {
    Preset(&'static str),
    Days(NaiveDate, NaiveDate),
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
                let tz = range.tz;
                let year_before = |ms: Millis| {
                    let day = date_of(tz, ms);
                    let earlier = NaiveDate::from_ymd_opt(day.year() - 1, day.month(), day.day())
                        .or_else(|| NaiveDate::from_ymd_opt(day.year() - 1, day.month(), day.day() - 1))
                        .expect("a day a year before");
                    // The same local clock time (ranges start and end on local hours).
                    midnight(tz, earlier) + (ms - midnight(tz, day))
                };
                TimeRange { start: year_before(range.start), end: year_before(range.end), ..range }
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
            (Some(from), Some(to)) => {
                let (first, last) = local_days(from, to)?;
                Ok(Period::Days(first, last))
            }
            (None, None) => match range.unwrap_or(default) {
                "all" => Ok(Period::All),
                name => {
                    // Checked now, so a bad name is refused before the site is looked up.
                    TimeRange::parse(name, now)?;
                    let known = PRESETS.iter().find(|p| **p == name).expect("a parsed preset is listed");
                    Ok(Period::Preset(known))
                }
            },
            _ => Err(Error::invalid("from and to go together: give both or neither")),
        }
    }

    /// The range in the timezone `tz` at `now`; `all` from `first` (the site's first data).
    pub fn resolve(self, tz: Tz, now: Millis, first: impl FnOnce() -> Result<Option<Millis>>) -> Result<TimeRange> {
        match self {
            Period::Preset(name) => TimeRange::parse_in(name, now, tz),
            Period::Days(first_day, last_day) => Ok(TimeRange::of_days(first_day, last_day, tz)),
            Period::All => Ok(TimeRange::since_in(first()?, now, tz)),
        }
    }
}

/// Every preset name `TimeRange::parse` takes.
const PRESETS: [&str; 18] = [
    "1d",
    "24h",
    "today",
    "day",
    "yesterday",
    "7d",
    "28d",
    "30d",
    "90d",
    "3m",
    "365d",
    "12m",
    "12mo",
    "1y",
    "month",
    "year",
    "last_month",
    "all",
];

/// `from` and `to` as dates (YYYY-MM-DD, both included), checked.
fn local_days(from: &str, to: &str) -> Result<(NaiveDate, NaiveDate)> {
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
    if (last - first).num_days() + 1 > MAX_DAYS {
        return Err(Error::invalid(format!("a range may cover at most {MAX_DAYS} days")));
    }
    Ok((first, last))
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

/// A half-open time window [start, end) aligned to its grain's buckets: local hours and days of `tz`.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct TimeRange {
    pub start: Millis,
    pub end: Millis,
    pub grain: Grain,
    /// The timezone whose days and hours the buckets are (UTC unless resolved for a site).
    pub tz: Tz,
}

impl TimeRange {
    /// Parses a range name relative to `now`: `1d`/`24h` are the last 24 whole hours including the current
    /// one; `today` and `yesterday` those days' 24 hours; `Nd` the last N whole UTC days including today (7, 28,
    /// 30, 90, 365; `12mo` is 365); `month` and `year` the current month or year up to today; `last_month` the
    /// whole previous month. `all` needs the site's first day: see [`Period`].
    pub fn parse(name: &str, now: Millis) -> Result<TimeRange> {
        TimeRange::parse_in(name, now, Tz::UTC)
    }

    /// As [`TimeRange::parse`], in the local days and hours of `tz`.
    pub fn parse_in(name: &str, now: Millis, tz: Tz) -> Result<TimeRange> {
        let date = date_of(tz, now);
        let tomorrow = midnight(tz, date + chrono::Days::new(1));
        let hours = |day: NaiveDate| TimeRange {
            start: midnight(tz, day),
            end: midnight(tz, day + chrono::Days::new(1)),
            grain: Grain::Hour,
            tz,
        };
        let days = match name {
            "1d" | "24h" => {
                let end = local_time::hour_start(tz, now) + 3_600_000;
                return Ok(TimeRange { start: end - 24 * 3_600_000, end, grain: Grain::Hour, tz });
            }
            "today" | "day" => return Ok(hours(date)),
            "yesterday" => return Ok(hours(date - chrono::Days::new(1))),
            "7d" => 7,
            "28d" => 28,
            "30d" => 30,
            "90d" | "3m" => 90,
            "365d" | "12m" | "12mo" | "1y" => 365,
            "month" | "year" | "last_month" => {
                let first =
                    |y: i32, m: u32| midnight(tz, NaiveDate::from_ymd_opt(y, m, 1).expect("a month's first day"));
                let (start, end) = match name {
                    "month" => (first(date.year(), date.month()), tomorrow),
                    "year" => (first(date.year(), 1), tomorrow),
                    _ => {
                        let (y, m) =
                            if date.month() == 1 { (date.year() - 1, 12) } else { (date.year(), date.month() - 1) };
                        (first(y, m), first(date.year(), date.month()))
                    }
                };
                return Ok(TimeRange { start, end, grain: Grain::Day, tz });
            }
            _ => {
                return Err(Error::invalid(
                    "range must be one of today, yesterday, 1d, 24h, 7d, 28d, 30d, 90d, 365d, 12mo, month, \
                     last_month, year, all, or give from and to",
                ));
            }
        };
        Ok(TimeRange {
            start: midnight(tz, date - chrono::Days::new(days as u64 - 1)),
            end: tomorrow,
            grain: Grain::Day,
            tz,
        })
    }

    /// The days from `from` to `to` (YYYY-MM-DD, both included): hourly for a single day, daily otherwise.
    pub fn custom(from: &str, to: &str) -> Result<TimeRange> {
        let (first, last) = local_days(from, to)?;
        Ok(TimeRange::of_days(first, last, Tz::UTC))
    }

    /// The local days `first` to `last` of `tz`, both included: hourly for a single day, daily otherwise.
    pub fn of_days(first: NaiveDate, last: NaiveDate, tz: Tz) -> TimeRange {
        let grain = if first == last { Grain::Hour } else { Grain::Day };
        TimeRange { start: midnight(tz, first), end: midnight(tz, last + chrono::Days::new(1)), grain, tz }
    }

    /// Every day from the one holding `first` (the site's first data) to today, at most `MAX_DAYS` of them.
    pub fn since(first: Option<Millis>, now: Millis) -> TimeRange {
        TimeRange::since_in(first, now, Tz::UTC)
    }

    /// As [`TimeRange::since`], in the local days of `tz`.
    pub fn since_in(first: Option<Millis>, now: Millis, tz: Tz) -> TimeRange {
        let today = date_of(tz, now);
        let earliest = today - chrono::Days::new(MAX_DAYS as u64 - 1);
        let first = first.map_or(today, |f| date_of(tz, f)).clamp(earliest, today);
        TimeRange { start: midnight(tz, first), end: midnight(tz, today + chrono::Days::new(1)), grain: Grain::Day, tz }
    }

    /// The range just before this one: as many local days for a daily range or a whole local day, as many hours
    /// for other hourly ones.
    pub fn previous(self) -> TimeRange {
        let whole_day = self.start == local_time::day_start(self.tz, self.start)
            && self.end == midnight(self.tz, date_of(self.tz, self.start) + chrono::Days::new(1));
        if self.grain == Grain::Day || whole_day {
            let first = date_of(self.tz, self.start);
            let start = midnight(self.tz, first - chrono::Days::new(self.days() as u64));
            return TimeRange { start, end: self.start, ..self };
        }
        let len = self.end - self.start;
        TimeRange { start: self.start - len, end: self.start, ..self }
    }

    /// Bucket bounds in rollup units (seconds), half-open.
    pub fn buckets(self) -> (i64, i64) {
        (self.start.div_euclid(1000), self.end.div_euclid(1000))
    }

    /// Number of local days covered (1 for hourly ranges).
    pub fn days(self) -> i64 {
        if self.grain == Grain::Hour {
            return 1;
        }
        ((date_of(self.tz, self.end - 1) - date_of(self.tz, self.start)).num_days() + 1).max(1)
    }

    /// The first and last local dates the range touches.
    pub fn dates(self) -> (NaiveDate, NaiveDate) {
        (date_of(self.tz, self.start), date_of(self.tz, self.end - 1))
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
        NaiveDate::parse_from_str(raw, "%Y-%m-%d").unwrap().and_hms_opt(0, 0, 0).unwrap().and_utc().timestamp_millis()
    }

    #[test]
    fn presets_cover_their_calendar_days() {
        let now = day("2026-03-15") + 13 * 3_600_000;
        let range = |name| TimeRange::parse(name, now).unwrap();
        assert_eq!(
            range("today"),
            TimeRange { start: day("2026-03-15"), end: day("2026-03-16"), grain: Grain::Hour, tz: Tz::UTC }
        );
        assert_eq!(range("yesterday").start, day("2026-03-14"));
        assert_eq!(
            range("month"),
            TimeRange { start: day("2026-03-01"), end: day("2026-03-16"), grain: Grain::Day, tz: Tz::UTC }
        );
        assert_eq!(
            range("last_month"),
            TimeRange { start: day("2026-02-01"), end: day("2026-03-01"), grain: Grain::Day, tz: Tz::UTC }
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

    #[test]
    fn local_ranges_are_the_sites_days() {
        let india: Tz = "Asia/Kolkata".parse().unwrap();
        // 2026-03-15T20:00Z is 01:30 on the 16th in India.
        let now = day("2026-03-15") + 20 * 3_600_000;
        let today = TimeRange::parse_in("today", now, india).unwrap();
        assert_eq!(
            (today.start, today.end),
            (day("2026-03-15") + 18 * 3_600_000 + 1_800_000, day("2026-03-16") + 18 * 3_600_000 + 1_800_000)
        );
        let week = TimeRange::parse_in("7d", now, india).unwrap();
        assert_eq!((week.days(), week.end), (7, today.end));
        // New York's week across the spring change is 7 days of 167 hours; the one before is 7 whole days too.
        let york: Tz = "America/New_York".parse().unwrap();
        let week = Period::parse(None, Some("2026-03-05"), Some("2026-03-11"), "30d", 0)
            .unwrap()
            .resolve(york, 0, || Ok(None))
            .unwrap();
        assert_eq!((week.days(), week.end - week.start), (7, 167 * 3_600_000));
        assert_eq!(week.previous().dates().0.to_string(), "2026-02-26");
        assert_eq!(week.previous().days(), 7);
        let yoy = Compare::YearOverYear.range(week);
        assert_eq!(yoy.dates().0.to_string(), "2025-03-05");
        assert_eq!(yoy.start, day("2025-03-05") + 5 * 3_600_000);
        assert!(matches!(Period::parse(Some("2w"), None, None, "30d", 0), Err(Error::Invalid(_))));
        for name in PRESETS.iter().filter(|name| **name != "all") {
            assert_eq!(Period::parse(Some(name), None, None, "30d", 0).unwrap(), Period::Preset(name));
        }
    }
}
