//! `Upkeep` on every engine: the store says it can be written, and neither the warming pass nor rebuilding a
//! site's aggregates changes what the reads answer on visits whose figures are known.

use super::{engines, hits_of, plain_visit};
use crate::analytics::TimeRange;
use crate::ingest::EventKind::{Conversion as Purchase, Pageview};
use crate::model::{Millis, now_ms};

const MINUTE: Millis = 60_000;
const HOUR: Millis = 60 * MINUTE;

#[test]
fn warming_and_rebuilding_keep_the_figures_and_the_store_is_ready_on_each_engine() {
    let now = now_ms();
    for engine in engines() {
        let (events, site, name) = (&engine.events, engine.site, engine.name);
        events.ready().unwrap();
        let base = (now - 40 * MINUTE) / 1000 * 1000;
        let visits = [
            plain_visit(
                base,
                1,
                &[(0, Pageview, "", "/a"), (20, Pageview, "", "/b"), (30, Purchase, "purchase", "/b")],
            ),
            plain_visit(base, 2, &[(0, Pageview, "", "/a")]),
        ];
        engine.store(hits_of(site, &visits));
        let figures = || {
            let range = TimeRange::parse("24h", now).unwrap();
            let totals = events.totals(site, range).unwrap();
            let pages = events.top_pages(site, now - HOUR, now + 1, 10).unwrap();
            (totals.pageviews, totals.visits, totals.conversions, totals.bounces, pages)
        };
        let expected = (3, 2, 1, 1, vec![("/a".to_string(), 2), ("/b".to_string(), 1)]);
        assert_eq!(figures(), expected, "{name}");
        events.warm().unwrap();
        assert_eq!(figures(), expected, "{name} after warming");
        events.rebuild_rollups(site, now - 24 * HOUR, now + HOUR).unwrap();
        assert_eq!(figures(), expected, "{name} after rebuilding");
        events.ready().unwrap();
    }
}
