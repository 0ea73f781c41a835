//! Time ranges of the dashboard (`1d`, `7d`, `30d`, `90d`, `365d`) and which rollup grain answers them.

use crate::error::{Error, Result};
use crate::model::Millis;

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
    /// one; `Nd` are the last N whole UTC days including today.
    pub fn parse(name: &str, now: Millis) -> Result<TimeRange> {
        let days = match name {
            "1d" | "24h" => {
                let end = (now.div_euclid(3_600_000) + 1) * 3_600_000;
                return Ok(TimeRange { start: end - 24 * 3_600_000, end, grain: Grain::Hour });
            }
            "7d" => 7,
            "30d" => 30,
            "90d" | "3m" => 90,
            "365d" | "12m" | "1y" => 365,
            _ => {
                return Err(Error::invalid("range must be one of 1d, 24h, 7d, 30d, 90d, 365d"));
            }
        };
        let end = (now.div_euclid(86_400_000) + 1) * 86_400_000;
        Ok(TimeRange { start: end - days * 86_400_000, end, grain: Grain::Day })
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
}
