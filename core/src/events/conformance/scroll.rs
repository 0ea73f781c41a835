//! `filtered_scroll` on every engine: each visit's deepest scroll per page, summed per group of pages (or of the
//! visits' fields) among what a filter admits, from scroll reports whose depths are known.

use super::{Engine, Visit, engines, hits_of, plain_visit};
use crate::analytics::TimeRange;
use crate::events::filtered::{CountOf, GroupBy, Rank};
use crate::events::filters::{Field, Filters, VisitField};
use crate::ingest::EventKind::Pageview;
use crate::ingest::Hit;
use crate::ingest::interactions::Interactions;
use crate::model::{Millis, now_ms};

const MINUTE: Millis = 60_000;

/// 1. DE: /a, then /b a minute later; /a scrolled to 30 then 70 percent, /b to 40;  2. FR: /a scrolled to 20;
/// 3. DE: /c, never scrolled.
fn seeded(engine: &Engine, now: Millis) {
    let base = (now - 30 * MINUTE) / 1000 * 1000;
    let visit = |visitor: u8, country, hits| Visit { country, ..plain_visit(base, visitor, hits) };
    let visits = [
        visit(1, "DE", &[(0, Pageview, "", "/a"), (60, Pageview, "", "/b")]),
        visit(2, "FR", &[(0, Pageview, "", "/a")]),
        visit(3, "DE", &[(0, Pageview, "", "/c")]),
    ];
    let hits = hits_of(engine.site, &visits);
    let report = |view: &Hit, after: Millis, depth: i64| Interactions {
        visit: Hit { ts: view.ts + after, kind: None, ..view.clone() },
        viewport: (1280, 800),
        page: (1280, 3000),
        points: Vec::new(),
        fields: Vec::new(),
        scroll_depth: Some(depth),
    };
    let view = |visitor: &str, path: &str| {
        hits.iter().find(|h| h.session_key.ends_with(visitor) && h.path == path).expect("a seeded view").clone()
    };
    let (a1, b1, a2) = (view("001", "/a"), view("001", "/b"), view("002", "/a"));
    let reports = vec![report(&a1, 2_000, 30), report(&a1, 10_000, 70), report(&b1, 2_000, 40), report(&a2, 5_000, 20)];
    engine.store_all(hits, reports);
}

#[test]
fn every_engine_sums_each_visits_deepest_scroll_per_page() {
    let now = now_ms();
    let range = TimeRange::parse("7d", now).unwrap();
    let filters = |raw: &str| Filters::parse(Some(raw)).unwrap();
    let by_page = GroupBy::new(vec![Field::Page], false, Rank::Count(CountOf::AllEvents)).unwrap();
    let whole = GroupBy::new(Vec::new(), false, Rank::Count(CountOf::AllEvents)).unwrap();
    for engine in engines() {
        seeded(&engine, now);
        let (events, site, name) = (&*engine.events, engine.site, engine.name);
        let scroll = |raw: &str, group: &GroupBy| {
            let mut rows = events.filtered_scroll(site, range, &filters(raw), group).unwrap();
            rows.sort();
            rows
        };
        let row = |keys: &[&str], sum, pairs| (keys.iter().map(|k| k.to_string()).collect::<Vec<_>>(), sum, pairs);
        assert_eq!(scroll("[]", &whole), vec![row(&[], 130, 3)], "{name}: every visit's pages");
        assert_eq!(scroll("[]", &by_page), vec![row(&["/a"], 90, 2), row(&["/b"], 40, 1)], "{name}: by page");
        assert_eq!(scroll(r#"[["is","event:page",["/a"]]]"#, &whole), vec![row(&[], 90, 2)], "{name}: on /a");
        assert_eq!(scroll(r#"[["is","visit:country",["FR"]]]"#, &by_page), vec![row(&["/a"], 20, 1)], "{name}");
        assert_eq!(scroll(r#"[["is","event:goal",["buy"]]]"#, &whole), vec![row(&[], 0, 0)], "{name}: no goal");
        let by_country = GroupBy::new(vec![Field::Visit(VisitField::Country)], false, Rank::Keys).unwrap();
        assert_eq!(scroll("[]", &by_country), vec![row(&["DE"], 110, 2), row(&["FR"], 20, 1)], "{name}: by country");
        let on_a = r#"[["is","event:page",["/a"]]]"#;
        assert_eq!(scroll(on_a, &by_country), vec![row(&["DE"], 70, 1), row(&["FR"], 20, 1)], "{name}: /a by country");
    }
}
