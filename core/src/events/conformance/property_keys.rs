//! `filtered_property_keys` on every engine: the property keys the admitted events of a range carry, counted per
//! event, read from stored JSON whose string values hold text shaped like keys.

use super::{Engine, Visit, engines, hits_of, plain_visit};
use crate::analytics::{Grain, TimeRange};
use crate::events::filters::Filters;
use crate::ingest::EventKind::{Custom, Pageview};
use crate::model::{Millis, now_ms};

const MINUTE: Millis = 60_000;

/// Stores, from 40 minutes before `now`, five minutes apart (the properties as serde_json writes them):
/// 1. DE: /a with section=docs, a signup with plan=pro, n=3, trial=true;
/// 2. FR: /b, a signup with plan=free, a note whose value reads like a key (`","x":"`) and gone=null;
/// 3. FR: /c, a download with `,k` ending in a comma before `:c`, plan=team, and two keys no filter can name (a
///    quote, a backslash).
fn seeded(engine: &Engine, now: Millis) -> Millis {
    let base = (now - 40 * MINUTE) / 1000 * 1000;
    let visit = |visitor: u8, country, hits| Visit { country, ..plain_visit(base, visitor, hits) };
    let visits = [
        visit(1, "DE", &[(0, Pageview, "", "/a"), (10, Custom, "signup", "/a")]),
        visit(2, "FR", &[(0, Pageview, "", "/b"), (10, Custom, "signup", "/b")]),
        visit(3, "FR", &[(0, Pageview, "", "/c"), (5, Custom, "download", "/c")]),
    ];
    let mut hits = hits_of(engine.site, &visits);
    for hit in &mut hits {
        hit.properties = match (hit.path.as_str(), hit.name.as_str()) {
            ("/a", "") => Some(r#"{"section":"docs"}"#.into()),
            ("/a", _) => Some(r#"{"n":3,"plan":"pro","trial":true}"#.into()),
            ("/b", "signup") => Some(r#"{"gone":null,"note":"a\",\"x\":\"y","plan":"free"}"#.into()),
            ("/c", "download") => Some(r#"{",k":"x,",":c":1,"b\\k":3,"plan":"team","q\"k":2}"#.into()),
            _ => None,
        };
    }
    engine.store(hits);
    base
}

fn keys(rows: &[(&str, i64)]) -> Vec<(String, i64)> {
    rows.iter().map(|(k, n)| (k.to_string(), *n)).collect()
}

#[test]
fn every_engine_lists_the_property_keys_of_the_admitted_events() {
    let now = now_ms();
    let week = TimeRange::parse("7d", now).unwrap();
    let filters = |raw: &str| Filters::parse(Some(raw)).unwrap();
    for engine in engines() {
        let base = seeded(&engine, now);
        let read = |range, raw: &str, limit| {
            engine.events.filtered_property_keys(engine.site, range, &filters(raw), limit).unwrap()
        };
        let all = [(",k", 1), (":c", 1), ("gone", 1), ("n", 1), ("note", 1), ("section", 1), ("trial", 1)];
        let mut expected = vec![("plan", 3)];
        expected.extend(all);
        assert_eq!(read(week, "[]", 100), keys(&expected), "{}: every event", engine.name);
        assert_eq!(read(week, "[]", 2), keys(&[("plan", 3), (",k", 1)]), "{}: limit", engine.name);
        assert_eq!(
            read(week, r#"[["is","event:name",["signup"]]]"#, 100),
            keys(&[("plan", 2), ("gone", 1), ("n", 1), ("note", 1), ("trial", 1)]),
            "{}: one event's keys",
            engine.name
        );
        assert_eq!(
            read(week, r#"[["is","visit:country",["FR"]]]"#, 100),
            keys(&[("plan", 2), (",k", 1), (":c", 1), ("gone", 1), ("note", 1)]),
            "{}: a visit condition",
            engine.name
        );
        // From visit 3's start on: its events only.
        let late = TimeRange { start: base + 15 * MINUTE, end: now, grain: Grain::Hour, tz: chrono_tz::Tz::UTC };
        assert_eq!(read(late, "[]", 100), keys(&[(",k", 1), (":c", 1), ("plan", 1)]), "{}: the range", engine.name);
        assert_eq!(read(week, r#"[["is","event:name",["nothing"]]]"#, 100), keys(&[]), "{}: none", engine.name);
    }
}
