//! Retention on every engine keeps the figures of the hours it empties: SQLite's rollups are written as hits
//! are, the cluster's only once an hour is closed (three days), so a retention shorter than that must roll up
//! what it deletes first. Hits a day or two old, kept one day, are gone after a run, and the overview and the
//! series of the week answer as before.

use super::{engines, hits_of, plain_visit};
use crate::analytics::TimeRange;
use crate::ingest::EventKind::{Conversion as Purchase, Custom, Pageview};
use crate::model::{Millis, now_ms};
use crate::privacy::{Privacy, RetentionUpdate};

const HOUR: Millis = 3_600_000;
const DAY: Millis = 24 * HOUR;

#[test]
fn retention_shorter_than_the_roll_up_keeps_the_figures_of_the_hours_it_empties_on_each_engine() {
    let now = now_ms();
    // The UTC day before yesterday, from 10:00: every hit is more than a day old (past a day's retention)
    // and less than three (not rolled up by the cluster's hourly roll-up).
    let base = now.div_euclid(DAY) * DAY - 2 * DAY + 10 * HOUR;
    let one = [(0, Pageview, "", "/a"), (20, Pageview, "", "/b"), (30, Purchase, "purchase", "/b")];
    let two = [(0, Pageview, "", "/a"), (10, Custom, "signup", "/a")];
    let three = [(0, Pageview, "", "/c")];
    for engine in engines() {
        let (events, site, name) = (&engine.events, engine.site, engine.name);
        let visits = [plain_visit(base, 1, &one), plain_visit(base + 2 * HOUR, 2, &two), plain_visit(base, 3, &three)];
        engine.store(hits_of(site, &visits));
        let week = TimeRange::parse("7d", now).unwrap();
        let figures = || (events.overview(site, week).unwrap(), events.timeseries(site, week).unwrap());
        let before = figures();
        let totals = events.totals(site, week).unwrap();
        let known = (totals.pageviews, totals.visits, totals.visitors, totals.events, totals.conversions);
        assert_eq!(known, (4, 3, 3, 1, 1), "{name}: the seeded visits");
        assert_eq!(events.recent_activity(site, 50).unwrap().len(), 6, "{name}");

        let one_day = Some(1);
        let days = RetentionUpdate {
            pageviews: one_day,
            events: one_day,
            sessions: one_day,
            heatmaps: one_day,
            recordings: one_day,
            conversions: one_day,
        };
        Privacy::new(engine.fixture.tracker.db().clone(), engine.meta.clone()).update_retention(site, days).unwrap();
        let report = events.apply_retention_at(now).unwrap();
        let deleted = ["pageviews", "events", "conversions"].map(|data| report.total.get(data).copied());
        assert_eq!(deleted, [Some(4), Some(1), Some(1)], "{name}: {report:?}");

        assert!(events.recent_activity(site, 50).unwrap().is_empty(), "{name}: the hits are gone");
        assert_eq!(figures(), before, "{name}: the overview and series of the week after retention");
        let totals = events.totals(site, week).unwrap();
        let kept = (totals.pageviews, totals.visits, totals.visitors, totals.events, totals.conversions);
        assert_eq!(kept, known, "{name}");
    }
}
