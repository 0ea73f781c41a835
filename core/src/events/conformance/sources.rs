//! Traffic sources named as people know them, on every engine: visits from a source's hosts and from its
//! utm_source tags are one row per source (`ingest::sources`), while referrers stay per host and utm_source as
//! tagged.

use super::{Engine, Visit, engines, hits_of};
use crate::analytics::{Dimension, DimensionCount, TimeRange, TrafficSource};
use crate::ingest::EventKind::Pageview;
use crate::model::{Millis, now_ms};
use crate::privacy::{Privacy, PrivacyUpdate};

const MINUTE: Millis = 60_000;

/// Where each seeded visit comes from (referring host, utm_source), one page view each, a minute apart from 40
/// minutes ago: Google 4 times (two of its hosts, two spellings of its tag), Twitter 3 (t.co and two tags),
/// LinkedIn 2, an unknown host once and Direct once.
const ORIGINS: [(&str, &str); 11] = [
    ("google.com", ""),
    ("www.google.co.uk", ""),
    ("", "google"),
    ("", "GOOGLE"),
    ("t.co", ""),
    ("", "twitter"),
    ("", "x"),
    ("linkedin.com", ""),
    ("", "linkedin"),
    ("blog.example.org", ""),
    ("", ""),
];

fn seeded(engine: &Engine, now: Millis) {
    let base = (now - 40 * MINUTE) / 1000 * 1000;
    let visits: Vec<Visit> = ORIGINS
        .iter()
        .enumerate()
        .map(|(n, &(referrer_host, utm_source))| Visit {
            visitor: n as u8 + 1,
            start: base + n as Millis * MINUTE,
            referrer_host,
            utm_source,
            country: "DE",
            device: "desktop",
            hits: &[(0, Pageview, "", "/")],
        })
        .collect();
    engine.store(hits_of(engine.site, &visits));
}

/// Rows sorted by value, so ties of equal counts compare whatever order an engine gives them.
fn sorted(rows: Vec<(String, i64)>) -> Vec<(String, i64)> {
    let mut rows = rows;
    rows.sort();
    rows
}

fn pairs(rows: &[(&str, i64)]) -> Vec<(String, i64)> {
    sorted(rows.iter().map(|&(v, n)| (v.to_string(), n)).collect())
}

#[test]
fn one_source_is_one_row_whether_it_came_as_a_referrer_or_a_tag_on_each_engine() {
    let now = now_ms();
    for engine in engines() {
        let (events, site, name) = (&engine.events, engine.site, engine.name);
        seeded(&engine, now);
        let range = TimeRange::parse("24h", now).unwrap();

        let sources = events.traffic_sources(site, range).unwrap();
        let expected = [("Google", 4), ("Twitter", 3), ("LinkedIn", 2), ("blog.example.org", 1), ("Direct", 1)];
        let got: Vec<(String, i64)> = sources.iter().map(|s| (s.source.clone(), s.visits)).collect();
        assert_eq!(sorted(got), pairs(&expected), "{name}: {sources:?}");
        assert_eq!(
            sources[..3].iter().map(|s| s.source.as_str()).collect::<Vec<_>>(),
            ["Google", "Twitter", "LinkedIn"]
        );
        let google: &TrafficSource = &sources[0];
        assert_eq!(google.percentage, 36.4, "{name}: 4 of 11 visits");

        // The breakdown by source (the CLI's `tracker stats`, exports of the panel) holds the same names.
        let breakdown = events.breakdown(site, range, Dimension::Source, 100).unwrap();
        let got: Vec<(String, i64)> =
            breakdown.into_iter().map(|DimensionCount { value, count }| (value, count)).collect();
        let stored = [("Google", 4), ("Twitter", 3), ("LinkedIn", 2), ("blog.example.org", 1), ("", 1)];
        assert_eq!(sorted(got), pairs(&stored), "{name}");

        // Referrers stay per host, and utm_source as tagged.
        let referrers = events.referrers(site, range).unwrap();
        let got: Vec<(String, i64)> = referrers.into_iter().map(|r| (r.referrer, r.count)).collect();
        let hosts = [
            ("", 6),
            ("google.com", 1),
            ("www.google.co.uk", 1),
            ("t.co", 1),
            ("linkedin.com", 1),
            ("blog.example.org", 1),
        ];
        assert_eq!(sorted(got), pairs(&hosts), "{name}");
        let tags = events.breakdown(site, range, Dimension::UtmSource, 100).unwrap();
        let got: Vec<(String, i64)> = tags.into_iter().map(|d| (d.value, d.count)).collect();
        let tagged = [("", 6), ("google", 1), ("GOOGLE", 1), ("twitter", 1), ("x", 1), ("linkedin", 1)];
        assert_eq!(sorted(got), pairs(&tagged), "{name}");

        // A deletion rebuilds the rollups from the stored names, not from the list: the names stay.
        let rights = PrivacyUpdate { data_subject_rights: Some(true), data_deletion: Some(true), ..Default::default() };
        Privacy::new(engine.fixture.tracker.db().clone(), engine.meta.clone()).update_settings(site, rights).unwrap();
        events.delete_visitor(site, "visitor-004").unwrap();
        let sources = events.traffic_sources(site, range).unwrap();
        let got: Vec<(String, i64)> = sources.iter().map(|s| (s.source.clone(), s.visits)).collect();
        let expected = [("Google", 3), ("Twitter", 3), ("LinkedIn", 2), ("blog.example.org", 1), ("Direct", 1)];
        assert_eq!(sorted(got), pairs(&expected), "{name} after erasing a visitor: {sources:?}");
    }
}
