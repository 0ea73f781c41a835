//! Periods on every engine: `all` starts on the site's first data, tracked days ago, and a custom range of past
//! days counts what happened on them.

use super::{engines, hits_of, plain_visit};
use crate::analytics::{Period, TimeRange};
use crate::ingest::EventKind::Pageview;
use crate::model::{Millis, now_ms};

const DAY: Millis = 86_400_000;

#[test]
fn all_time_starts_on_the_first_tracked_day_and_custom_days_count_theirs() {
    let now = now_ms();
    for engine in engines() {
        let events = &*engine.events;
        assert_eq!(events.first_data(engine.site).unwrap(), None, "{}", engine.name);
        let empty = events.range_of(engine.site, Period::All, now).unwrap();
        assert_eq!((empty.end - empty.start, empty.end > now), (DAY, true), "{}: no data, today alone", engine.name);

        let long_ago = (now - 10 * DAY) / DAY * DAY + 3_600_000;
        let visits = [
            plain_visit(long_ago, 1, &[(0, Pageview, "", "/old")]),
            plain_visit(now - 30 * 60_000, 2, &[(0, Pageview, "", "/new")]),
        ];
        engine.store(hits_of(engine.site, &visits));
        engine.events.rebuild_rollups(engine.site, long_ago - DAY, now + DAY).unwrap();
        let first = events.first_data(engine.site).unwrap().expect("data");
        assert_eq!(first / DAY, (long_ago + 5 * 60_000) / DAY, "{}: the first day", engine.name);
        let all = events.range_of(engine.site, Period::All, now).unwrap();
        assert_eq!(all.start, long_ago / DAY * DAY, "{}", engine.name);
        assert_eq!(events.totals(engine.site, all).unwrap().pageviews, 2, "{}", engine.name);
        assert_eq!(events.timeseries(engine.site, all).unwrap().points.len(), 11, "{}", engine.name);

        let day = chrono::DateTime::from_timestamp_millis(long_ago).unwrap().format("%Y-%m-%d").to_string();
        let that_day = TimeRange::custom(&day, &day).unwrap();
        assert_eq!(events.totals(engine.site, that_day).unwrap().pageviews, 1, "{}: {day}", engine.name);
        assert_eq!(events.timeseries(engine.site, that_day).unwrap().points.len(), 24, "{}", engine.name);
    }
}
