//! Exports served from the cluster against SQLite's on the same hits and scroll reports, at the core: every
//! kind in every format, a range, the newest rows first up to a limit (the typed exports without a range), and
//! a site's visits (the privacy export).

use super::seeded::seeded_site;
use crate::export::{ExportFormat, ExportKind, ExportQuery};

const HOUR: i64 = 3_600_000;

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

#[test]
fn every_export_equals_sqlites_on_the_same_hits() {
    // The scroll reports among the hits are touches on the cluster, which the exports leave out.
    let Some((cluster, fixture, now)) = seeded_site() else { return };
    let (site, events) = (fixture.site, cluster.events());
    let all = ExportQuery::new(site, ExportKind::All);
    let queries = [
        all,
        ExportQuery::new(site, ExportKind::Pageviews),
        ExportQuery::new(site, ExportKind::Events),
        ExportQuery { since: Some(now - 6 * HOUR), until: Some(now - HOUR), ..all },
        ExportQuery { limit: Some(25), newest_first: true, ..all },
        ExportQuery { limit: Some(7), newest_first: true, ..ExportQuery::new(site, ExportKind::Events) },
    ];
    for query in queries {
        for format in [ExportFormat::Csv, ExportFormat::Json, ExportFormat::JsonLines] {
            let mut expected = Vec::new();
            let rows = fixture.tracker.events.write_export(&query, format, &mut expected, &mut |_| {}).unwrap();
            assert!(rows > 5, "{query:?}: {rows} rows");
            if let Some(limit) = query.limit {
                assert_eq!(rows, limit, "{query:?}");
            }
            let mut got = Vec::new();
            assert_eq!(events.write_export(&query, format, &mut got).unwrap(), rows, "{query:?} {format:?}");
            assert_eq!(without_visit_ids(got), without_visit_ids(expected), "{query:?} {format:?}");
        }
    }

    let mut expected = Vec::new();
    let visits = fixture.tracker.privacy.export_sessions(site, &mut expected).unwrap();
    assert!(visits > 90, "{visits} visits");
    let mut got = Vec::new();
    assert_eq!(events.export_sessions(site, &mut got).unwrap(), visits);
    assert_eq!(without_visit_ids(got), without_visit_ids(expected));
}
