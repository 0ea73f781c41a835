//! `filtered_page_time` on every engine: page views at known instants, each timed until its visit's next page
//! view or last activity and capped at 30 minutes, summed per visit and page among what a filter admits.

use super::{Engine, Visit, engines, hits_of, plain_visit};
use crate::analytics::TimeRange;
use crate::events::filtered::{CountOf, GroupBy, Rank};
use crate::events::filters::{Field, Filters, VisitField};
use crate::ingest::EventKind::{Custom, Pageview};
use crate::ingest::Hit;
use crate::ingest::interactions::Interactions;
use crate::model::{Millis, now_ms};

const MINUTE: Millis = 60_000;

/// 1. DE: /a, /b a minute later, /a again at 90 s, a scroll report on it at 120 s: /a 60 + 30 s, /b 30 s;
/// 2. FR: /a, /c at 45 s: /a 45 s, /c untimed (nothing after it);  3. DE: /c, an event at 20 s: /c 20 s;
/// 4. DE: /a, an event at 20 minutes, /b at 40: /a capped at 30 minutes, /b untimed.
fn seeded(engine: &Engine, now: Millis) {
    let base = (now - 180 * MINUTE) / 1000 * 1000;
    let visit = |visitor: u8, country, hits| Visit { country, ..plain_visit(base, visitor, hits) };
    let visits = [
        visit(1, "DE", &[(0, Pageview, "", "/a"), (60, Pageview, "", "/b"), (90, Pageview, "", "/a")]),
        visit(2, "FR", &[(0, Pageview, "", "/a"), (45, Pageview, "", "/c")]),
        visit(3, "DE", &[(0, Pageview, "", "/c"), (20, Custom, "signup", "/c")]),
        visit(4, "DE", &[(0, Pageview, "", "/a"), (1200, Custom, "signup", "/a"), (2400, Pageview, "", "/b")]),
    ];
    let hits = hits_of(engine.site, &visits);
    let second_a = hits.iter().rfind(|h| h.session_key.ends_with("001") && h.path == "/a").expect("seeded");
    let report = Interactions {
        visit: Hit { ts: second_a.ts + 30_000, kind: None, ..second_a.clone() },
        viewport: (1280, 800),
        page: (1280, 3000),
        points: Vec::new(),
        fields: Vec::new(),
        scroll_depth: Some(10),
    };
    engine.store_all(hits, vec![report]);
}

#[test]
fn every_engine_times_each_page_view_until_the_visits_next_one_or_last_activity() {
    let now = now_ms();
    let range = TimeRange::parse("7d", now).unwrap();
    let filters = |raw: &str| Filters::parse(Some(raw)).unwrap();
    let by = |fields: Vec<Field>| GroupBy::new(fields, false, Rank::Count(CountOf::AllEvents)).unwrap();
    let (by_page, whole) = (by(vec![Field::Page]), by(Vec::new()));
    let by_country = by(vec![Field::Visit(VisitField::Country)]);
    for engine in engines() {
        seeded(&engine, now);
        let (events, site, name) = (&*engine.events, engine.site, engine.name);
        let times = |raw: &str, group: &GroupBy| {
            let mut rows = events.filtered_page_time(site, range, &filters(raw), group).unwrap();
            rows.sort();
            rows
        };
        let row = |keys: &[&str], ms, pairs| (keys.iter().map(|k| k.to_string()).collect::<Vec<_>>(), ms, pairs);
        let all_a = 90_000 + 45_000 + 30 * MINUTE;
        assert_eq!(
            times("[]", &by_page),
            vec![row(&["/a"], all_a, 3), row(&["/b"], 30_000, 1), row(&["/c"], 20_000, 1)],
            "{name}: per visit and page, the untimed left out"
        );
        assert_eq!(times("[]", &whole), vec![row(&[], all_a + 50_000, 5)], "{name}: every timed pair");
        let on_a = r#"[["is","event:page",["/a"]]]"#;
        assert_eq!(times(on_a, &whole), vec![row(&[], all_a, 3)], "{name}: on /a, timed to other pages too");
        assert_eq!(times(r#"[["is","visit:country",["FR"]]]"#, &by_page), vec![row(&["/a"], 45_000, 1)], "{name}");
        assert_eq!(
            times(on_a, &by_country),
            vec![row(&["DE"], 90_000 + 30 * MINUTE, 2), row(&["FR"], 45_000, 1)],
            "{name}: by the visit's country"
        );
        assert_eq!(times(r#"[["is","event:goal",["buy"]]]"#, &whole), vec![row(&[], 0, 0)], "{name}: no goal");
        // By page and day (the views' days, whichever midnight the seeded hours hold): the same times per page.
        let by_page_day = GroupBy::new(vec![Field::Page], true, Rank::Keys).unwrap();
        let mut per_page: Vec<(String, i64)> = Vec::new();
        for (keys, ms, _) in times("[]", &by_page_day) {
            assert_eq!(keys[1].parse::<i64>().unwrap() % 86_400, 0, "{name}: a day's start in seconds");
            match per_page.iter_mut().find(|(page, _)| *page == keys[0]) {
                Some((_, sum)) => *sum += ms,
                None => per_page.push((keys[0].clone(), ms)),
            }
        }
        per_page.sort();
        let expected = [("/a", all_a), ("/b", 30_000), ("/c", 20_000)].map(|(p, ms)| (p.to_string(), ms));
        assert_eq!(per_page, expected, "{name}: by page and day");
    }
}
