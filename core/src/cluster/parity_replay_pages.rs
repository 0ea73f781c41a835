//! The replay reads that page through a site's recordings (list, cards, the page under a heatmap) against
//! SQLite's, at the core, on a site with more recordings than one page (three in core tests): every filter, a
//! list shorter and longer than a page, enterprise visits spread over the pages, and a page viewed only by the
//! oldest recordings' visits.

use std::io::Write;
use std::sync::Arc;

use flate2::Compression;
use flate2::write::GzEncoder;
use serde_json::json;

use super::Cluster;
use super::testing::{fresh, store_jobs_in_both};
use crate::analytics::{ReplayFilter, ReplaySummary, TimeRange};
use crate::ingest::enrich::Organization;
use crate::ingest::replay::{ChunkStats, ReplayChunk};
use crate::ingest::writer::Job;
use crate::ingest::{EventKind, Hit};
use crate::model::now_ms;
use crate::store::organizations::{OrganizationUpdate, Organizations};
use crate::testing::one_site;

/// Recorded visitors: more than two pages of recordings.
const VISITORS: u8 = 8;

/// A list with each engine's own numbering set aside.
fn without_ids(mut list: Vec<ReplaySummary>) -> Vec<ReplaySummary> {
    list.iter_mut().for_each(|r| r.id = 0);
    list
}

fn gzip(text: &str) -> Vec<u8> {
    let mut encoder = GzEncoder::new(Vec::new(), Compression::fast());
    encoder.write_all(text.as_bytes()).unwrap();
    encoder.finish().unwrap()
}

#[test]
fn replay_reads_paging_through_many_recordings_equal_sqlites() {
    let Some(cluster) = fresh() else { return };
    let fixture = one_site();
    cluster.add_site(fixture.site);
    let (site, now) = (fixture.site, now_ms());
    // Visitors 0, 3 and 6 come from Acme (made an enterprise below), 1, 4 and 7 from another network, 2 and 5
    // from none; 0 and 1 view /p, the others /. Each records its visit; even visitors' recordings are final.
    let mut jobs = Vec::new();
    let mut chunks = Vec::new();
    for visitor in 0..VISITORS {
        let organization = match visitor % 3 {
            0 => Some((64512, "Acme GmbH")),
            1 => Some((8075, "Microsoft Corporation")),
            _ => None,
        };
        let path = if visitor < 2 { "/p" } else { "/" };
        let hit = Hit {
            website_id: site,
            session_key: format!("visitor-{visitor:03}"),
            ts: now - 20 * 60_000 + visitor as i64 * 60_000,
            kind: Some(EventKind::Pageview),
            url: format!("https://s.example.com{path}"),
            path: path.into(),
            visitor_seed: [visitor; 32],
            organization: organization.map(|(asn, name)| Organization {
                asn,
                name: name.into(),
                confidence: 90,
                is_isp: false,
            }),
            ..Hit::default()
        };
        let start = hit.ts + 1_000;
        let events = json!([
            {"type": 4, "data": {"href": hit.url, "width": 1280, "height": 720}, "timestamp": start},
            {"type": 2, "data": {"node": {"type": 0, "id": 1, "visitor": visitor}}, "timestamp": start + 1},
        ]);
        let stats = ChunkStats {
            events: 2,
            clicks: visitor as i64,
            first_ts: Some(start),
            last_ts: Some(start + 1_500 * visitor as i64),
            screen: Some("1280x720".into()),
            inflated: 200,
        };
        let visit = Hit { ts: start, kind: None, organization: None, ..hit.clone() };
        let data = gzip(&events.to_string());
        chunks.push(Job::Replay(Box::new(ReplayChunk { visit, seq: 0, data, is_final: visitor % 2 == 0, stats })));
        jobs.push(Job::Hit(Box::new(hit)));
    }
    jobs.extend(chunks);
    store_jobs_in_both(&fixture, &cluster, jobs);
    let meta = cluster.meta();
    let engine = Cluster { pg: Arc::new(cluster.pg()), events: Arc::new(cluster.events()) };
    let range = TimeRange::parse("24h", now_ms()).unwrap();
    let filters = [ReplayFilter::All, ReplayFilter::Complete, ReplayFilter::Incomplete, ReplayFilter::Enterprise];

    let compare = |enterprise: bool| {
        let known = Organizations::new(meta.clone()).known(site).unwrap();
        for filter in filters {
            let expected = fixture.tracker.analytics().replay_stats(site, range, filter).unwrap();
            let got = engine.replay_stats(meta.as_ref(), &known, site, range, filter).unwrap();
            assert_eq!(got, expected, "{filter:?}");
            for limit in [2, 5, 100] {
                let expected = fixture.tracker.analytics().replays(site, range, filter, limit).unwrap();
                let got = engine.replays(meta.as_ref(), &known, site, range, filter, limit).unwrap();
                assert_eq!(without_ids(got), without_ids(expected), "{filter:?}, {limit}");
            }
        }
        let stats = fixture.tracker.analytics().replay_stats(site, range, ReplayFilter::All).unwrap();
        assert_eq!((stats.total, stats.complete, stats.enterprise), (8, 4, if enterprise { 3 } else { 0 }));
    };
    // No enterprise yet: PostgreSQL's counts alone.
    compare(false);
    // Acme an enterprise on both engines: its visits (newest 6, then 3 and 0) are found page by page.
    let acme = |list: Vec<crate::store::meta::KnownOrganization>| list.into_iter().find(|o| o.asn == 64512).unwrap();
    let edit = || OrganizationUpdate { domain: None, industry: None, size: Some("Enterprise".into()) };
    let sqlite_acme = acme(fixture.tracker.organizations.known(site).unwrap());
    fixture.tracker.organizations.update(site, sqlite_acme.id, edit()).unwrap();
    let cluster_orgs = Organizations::new(meta.clone());
    cluster_orgs.update(site, acme(cluster_orgs.known(site).unwrap()).id, edit()).unwrap();
    compare(true);

    // The page under a heatmap: /p only from the two oldest recordings, past two pages of others.
    for path in ["/p", "/", "/none"] {
        let mut expected = fixture.tracker.analytics().page_snapshot(site, path).unwrap();
        let mut got = engine.page_snapshot(meta.as_ref(), site, path).unwrap();
        let visitor = |rendering: &crate::analytics::page_snapshot::PageRendering| {
            rendering.snapshot.as_ref().map(|s| s.node["visitor"].clone())
        };
        let want = match path {
            "/p" => Some(json!(1)),
            "/" => Some(json!(VISITORS - 1)),
            _ => None,
        };
        assert_eq!(visitor(&expected), want, "{path}");
        for rendering in [&mut expected, &mut got] {
            rendering.snapshot.iter_mut().for_each(|s| s.replay_id = 0);
        }
        assert_eq!(got, expected, "{path}");
    }
}
