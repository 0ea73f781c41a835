//! `ExportRows` on every engine: the exports of visits whose rows are known (every kind, a range, the newest
//! rows up to a limit, the rows filters admit) and a site's visits, then every export answering as SQLite's,
//! byte for byte, on a day of random visits.

use super::{Engine, engines, three_plain_visits};
use crate::cluster::seeded::seeded_hits;
use crate::cluster::testing::scroll_reports;
use crate::events::Filters;
use crate::export::{ExportFormat, ExportKind, ExportQuery};
use crate::model::{Millis, now_ms};

const MINUTE: Millis = 60_000;
const HOUR: Millis = 60 * MINUTE;

/// The rows `query` writes as JSON Lines, after checking the count ahead (where the engine counts) and the
/// count written agree with them.
fn exported(engine: &Engine, query: &ExportQuery) -> Vec<serde_json::Value> {
    let mut out = Vec::new();
    let written = engine.events.write_export(query, ExportFormat::JsonLines, &mut out, &mut |_| {}).unwrap();
    let rows: Vec<serde_json::Value> =
        String::from_utf8(out).unwrap().lines().map(|line| serde_json::from_str(line).unwrap()).collect();
    assert_eq!(written, rows.len() as u64, "{}: {query:?}", engine.name);
    let ahead = engine.events.export_row_count(query).unwrap();
    assert!(ahead.is_none_or(|n| n == written), "{}: {ahead:?} ahead, {written} written", engine.name);
    rows
}

#[test]
fn exports_write_the_seeded_rows_of_each_kind_on_each_engine() {
    let now = now_ms();
    for engine in engines() {
        let (site, name) = (engine.site, engine.name);
        let hits = three_plain_visits(&engine, engine.site, now);
        let all = exported(&engine, &ExportQuery::new(site, ExportKind::All));
        assert_eq!(all.len(), 6, "{name}: {all:?}");
        assert_eq!(exported(&engine, &ExportQuery::new(site, ExportKind::Pageviews)).len(), 4, "{name}");
        let others = exported(&engine, &ExportQuery::new(site, ExportKind::Events));
        assert_eq!(others.len(), 2, "{name}: {others:?}");
        let text = serde_json::Value::Array(others).to_string();
        assert!(text.contains("purchase") && text.contains("signup") && !text.contains("/c"), "{name}: {text}");
        // Visit 2's hits alone: from its start to before visit 3's.
        let (second, third) = (hits[3].ts, hits[5].ts);
        let range =
            ExportQuery { since: Some(second), until: Some(third - 1), ..ExportQuery::new(site, ExportKind::All) };
        let text = serde_json::Value::Array(exported(&engine, &range)).to_string();
        assert!(text.contains("signup") && !text.contains("purchase") && !text.contains("/c"), "{name}: {text}");
        // The newest two: visit 3's view of /c and visit 2's signup.
        let newest = ExportQuery { limit: Some(2), newest_first: true, ..ExportQuery::new(site, ExportKind::All) };
        let text = serde_json::Value::Array(exported(&engine, &newest)).to_string();
        assert!(text.contains("/c") && text.contains("signup") && !text.contains("purchase"), "{name}: {text}");
        assert!(exported(&engine, &ExportQuery::new(site + 1, ExportKind::All)).is_empty(), "{name}");

        let mut out = Vec::new();
        assert_eq!(engine.events.export_sessions(site, &mut out).unwrap(), 3, "{name}");
        let visits: Vec<serde_json::Value> = serde_json::from_slice(&out).unwrap();
        assert_eq!(visits.len(), 3, "{name}");
    }
}

/// The (type, name, path) of each row `query` writes with `filters`.
fn exported_where(engine: &Engine, query: &ExportQuery, filters: &str) -> Vec<(String, String, String)> {
    let query = ExportQuery { filters: Filters::parse(Some(filters)).unwrap(), ..query.clone() };
    let field = |row: &serde_json::Value, name: &str| row[name].as_str().unwrap_or_default().to_string();
    exported(engine, &query).iter().map(|r| (field(r, "type"), field(r, "name"), field(r, "path"))).collect()
}

#[test]
fn exports_hold_only_the_rows_the_filters_admit_on_each_engine() {
    let now = now_ms();
    let row = |kind: &str, name: &str, path: &str| (kind.to_string(), name.to_string(), path.to_string());
    for engine in engines() {
        let name = engine.name;
        super::filters::seeded(&engine, now);
        let all = ExportQuery::new(engine.site, ExportKind::All);
        // Visit 2 and 3 are the French ones: every row of theirs, oldest first.
        assert_eq!(
            exported_where(&engine, &all, r#"[["is","visit:country",["FR"]]]"#),
            [row("pageview", "", "/blog/y"), row("custom", "signup", "/blog/y"), row("pageview", "", "/")],
            "{name}"
        );
        // An event condition keeps each row passing it, of any visit.
        assert_eq!(
            exported_where(&engine, &all, r#"[["contains","event:page",["/blog"]]]"#),
            [
                row("pageview", "", "/blog/x"),
                row("conversion", "purchase", "/blog/x"),
                row("pageview", "", "/blog/y"),
                row("custom", "signup", "/blog/y")
            ],
            "{name}"
        );
        let pageviews = ExportQuery::new(engine.site, ExportKind::Pageviews);
        assert_eq!(
            exported_where(&engine, &pageviews, r#"[["contains","event:page",["/BLOG"],{"case_sensitive":false}]]"#),
            [row("pageview", "", "/blog/x"), row("pageview", "", "/blog/y")],
            "{name}"
        );
        // Both kinds of condition: the signup of a French visit; a property's value.
        let signups = [row("custom", "signup", "/blog/y")];
        let french_signups = r#"[["is","visit:country",["FR"]],["is","event:name",["signup"]]]"#;
        assert_eq!(exported_where(&engine, &all, french_signups), signups, "{name}");
        assert_eq!(exported_where(&engine, &all, r#"[["is","event:props:plan",["pro"]]]"#), signups, "{name}");
        let events = ExportQuery::new(engine.site, ExportKind::Events);
        assert_eq!(
            exported_where(&engine, &events, r#"[["is_not","visit:device",["mobile"]]]"#),
            [row("conversion", "purchase", "/blog/x"), row("custom", "signup", "/c")],
            "{name}"
        );
        // A range and the newest rows first, with a visit condition read from the entry page.
        let since = ExportQuery { since: Some(now - 30 * MINUTE), until: Some(now), ..all.clone() };
        assert_eq!(
            exported_where(&engine, &since, r#"[["is","visit:entry_page",["/a"]]]"#),
            [row("pageview", "", "/a"), row("pageview", "", "/c"), row("custom", "signup", "/c")],
            "{name}: visit 1, the other entering on /a, is before the range"
        );
        let newest = ExportQuery { limit: Some(2), newest_first: true, ..all.clone() };
        assert_eq!(
            exported_where(&engine, &newest, r#"[["is","visit:entry_page",["/a"]]]"#),
            [row("custom", "signup", "/c"), row("pageview", "", "/c")],
            "{name}"
        );
        assert!(exported_where(&engine, &all, r#"[["is","visit:city",["Nowhere"]]]"#).is_empty(), "{name}");
    }
}

/// An export's text with the id in the `key~id` session id of a replaced visit set aside (each engine's own).
fn without_visit_ids(bytes: Vec<u8>) -> String {
    let text = String::from_utf8(bytes).unwrap();
    let mut out = String::with_capacity(text.len());
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        out.push(c);
        if c == '~' {
            while chars.peek().is_some_and(char::is_ascii_digit) {
                chars.next();
            }
        }
    }
    out
}

/// Every export of `engine`'s site in every format, and its visits, as (what, text).
fn export_answers(engine: &Engine, now: Millis) -> Vec<(String, String)> {
    let site = engine.site;
    let hits = seeded_hits(site, now);
    // The scroll reports among the hits are touches on the cluster, which the exports leave out.
    let reports = scroll_reports(&hits);
    engine.store_all(hits, reports);
    let all = ExportQuery::new(site, ExportKind::All);
    let filters = |raw: &str| Filters::parse(Some(raw)).unwrap();
    let queries = [
        all.clone(),
        ExportQuery::new(site, ExportKind::Pageviews),
        ExportQuery::new(site, ExportKind::Events),
        ExportQuery { since: Some(now - 6 * HOUR), until: Some(now - HOUR), ..all.clone() },
        ExportQuery { limit: Some(25), newest_first: true, ..all.clone() },
        ExportQuery { limit: Some(7), newest_first: true, ..ExportQuery::new(site, ExportKind::Events) },
        ExportQuery { filters: filters(r#"[["is_not","visit:device",["mobile"]]]"#), ..all.clone() },
        ExportQuery {
            since: Some(now - 6 * HOUR),
            filters: filters(r#"[["contains","event:page",["/"]],["not",["is","visit:source",["Direct / None"]]]]"#),
            ..all.clone()
        },
    ];
    let mut answers = Vec::new();
    for query in queries {
        for format in [ExportFormat::Csv, ExportFormat::Json, ExportFormat::JsonLines] {
            let mut out = Vec::new();
            let rows = engine.events.write_export(&query, format, &mut out, &mut |_| {}).unwrap();
            assert!(rows > 5, "{query:?}: {rows} rows");
            if let Some(limit) = query.limit {
                assert_eq!(rows, limit, "{query:?}");
            }
            let query = ExportQuery { site: 0, ..query.clone() };
            answers.push((format!("{query:?} {format:?}"), format!("{rows} rows: {}", without_visit_ids(out))));
        }
    }
    let mut out = Vec::new();
    let visits = engine.events.export_sessions(site, &mut out).unwrap();
    assert!(visits > 90, "{visits} visits");
    answers.push(("visits".into(), format!("{visits} visits: {}", without_visit_ids(out))));
    answers
}

/// Where the rows are not easy to state: every export of a day of random visits answers as SQLite's.
#[test]
fn every_export_answers_as_sqlites_on_a_day_of_random_visits() {
    let now = now_ms();
    let answers: Vec<(&str, Vec<(String, String)>)> =
        engines().iter().map(|engine| (engine.name, export_answers(engine, now))).collect();
    let (first, expected) = &answers[0];
    for (name, got) in &answers[1..] {
        assert_eq!(got.len(), expected.len());
        for (got, expected) in got.iter().zip(expected) {
            assert_eq!(got, expected, "{name} against {first}");
        }
    }
}
