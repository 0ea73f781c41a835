//! The conformance suite of the events boundary: each `EventStore` method's behaviour tested by one body on
//! every engine, through the trait object `Tracker::open` would hand out. SQLite always; the cluster's engine
//! (ClickHouse for events, PostgreSQL for the metadata beside them) when the harness is up
//! (tests/cluster/cluster.sh). Each body seeds hits whose answers are known by construction and asserts those
//! answers, so an engine that drifts fails on its own, and the engines agreeing is checked besides where a
//! value is not easy to state.
//!
//! One file per area of the boundary. Without the harness the cluster engine is skipped, saying so on stderr;
//! with `TRACKER_TEST_REQUIRE_CLUSTER=1` a missing harness fails instead (`cluster::testing::harness_var`).

mod erasure;
mod exports;
mod filters;
mod imports;
mod intent;
mod intent_filters;
mod intent_fit;
mod journeys;
mod page_time;
mod pages;
mod paths;
mod periods;
mod property_keys;
mod replays;
mod retention;
mod revenue;
mod scroll;
mod sources;
mod timezones;
mod traffic;
mod upkeep;
mod visit_filters;
mod visits;

use crate::cluster::testing::{TestCluster, fresh, in_time_order, store_jobs_in_cluster, submit_to_sqlite};
use crate::events::Events;
use crate::ingest::writer::Job;
use crate::ingest::{EventKind, Hit, Interactions, Utm};
use crate::model::{Millis, UserId, WebsiteId};
use crate::store::meta::Meta;
use crate::testing::{OneSite, one_site};

/// One engine under test: its events store, the metadata beside it, and a site of its own to seed.
pub(super) struct Engine {
    pub name: &'static str,
    pub events: Events,
    pub meta: Meta,
    pub site: WebsiteId,
    /// The account owning `site` in the engine's metadata.
    pub owner: UserId,
    /// SQLite's tracker (the engine itself, or only the privacy service's cache beside the cluster's).
    pub fixture: OneSite,
    /// The test's corner of the harness, dropped (its database with it) after the engine.
    cluster: Option<TestCluster>,
}

impl Engine {
    /// Stores hits in time order as a daemon's ingest would, each waited for.
    pub fn store(&self, hits: Vec<Hit>) {
        self.store_all(hits, Vec::new());
    }

    /// Stores hits and heatmap data in time order (hits first at the same millisecond), each waited for.
    pub fn store_all(&self, hits: Vec<Hit>, interactions: Vec<Interactions>) {
        self.store_jobs(in_time_order(hits, interactions));
    }

    /// Stores ingest jobs in their order: SQLite's through the tracker's ingest queue and writer, the
    /// cluster's through the ClickHouse sink.
    pub fn store_jobs(&self, jobs: Vec<Job>) {
        match &self.cluster {
            Some(cluster) => store_jobs_in_cluster(cluster, jobs),
            None => submit_to_sqlite(&self.fixture, jobs.into_iter()),
        }
    }

    /// The account owning `site` in the engine's metadata (the harness gives each site an owner of its own).
    pub fn owner_of(&self, site: WebsiteId) -> UserId {
        match &self.cluster {
            Some(cluster) => cluster
                .pg()
                .with(|c| Ok(c.query_one("SELECT user_id FROM websites WHERE id = $1", &[&site])?.get(0)))
                .unwrap(),
            None => self.fixture.user.id,
        }
    }

    /// The engine's site and `more` sites of the same account, each known to the engine's metadata.
    pub fn with_more_sites(&self, more: usize) -> Vec<WebsiteId> {
        let sites = self.fixture.with_more_sites(more);
        if let Some(cluster) = &self.cluster {
            sites[1..].iter().for_each(|&site| cluster.add_site(site));
        }
        sites
    }
}

/// SQLite's engine, then the cluster's when the harness is up.
pub(super) fn engines() -> Vec<Engine> {
    let fixture = one_site();
    let (events, meta, site) = (fixture.tracker.events.clone(), fixture.tracker.privacy.meta.clone(), fixture.site);
    let owner = fixture.user.id;
    let mut engines = vec![Engine { name: "sqlite", events, meta, site, owner, fixture, cluster: None }];
    if let Some(cluster) = fresh() {
        let fixture = one_site();
        cluster.add_site(fixture.site);
        let events = crate::events::clickhouse_engine(&cluster, fixture.tracker.db());
        let (meta, site) = (cluster.meta(), fixture.site);
        let owner = cluster
            .pg()
            .with(|c| Ok(c.query_one("SELECT user_id FROM websites WHERE id = $1", &[&site])?.get(0)))
            .unwrap();
        engines.push(Engine { name: "clickhouse", events, meta, site, owner, fixture, cluster: Some(cluster) });
    }
    engines
}

/// One visit to seed: who, where from, and its hits as (seconds after `start`, kind, name, path).
pub(super) struct Visit<'a> {
    pub visitor: u8,
    pub start: Millis,
    pub referrer_host: &'a str,
    pub utm_source: &'a str,
    pub country: &'a str,
    pub device: &'a str,
    pub hits: &'a [(i64, EventKind, &'a str, &'a str)],
}

impl Visit<'_> {
    /// The visit's hits on `site`: its first carries where it came from, a conversion 10 EUR, and each time
    /// ends in the visitor's own millisecond so no two visits' hits tie.
    pub fn hits(&self, site: WebsiteId) -> Vec<Hit> {
        self.hits
            .iter()
            .enumerate()
            .map(|(n, &(after, kind, name, path))| {
                let first = n == 0;
                let host = if first { self.referrer_host } else { "" };
                let conversion = kind == EventKind::Conversion;
                Hit {
                    website_id: site,
                    session_key: format!("visitor-{:03}", self.visitor),
                    ts: self.start + after * 1000 + self.visitor as Millis,
                    kind: Some(kind),
                    name: name.into(),
                    url: format!("https://s.example.com{path}"),
                    path: path.into(),
                    referrer: if host.is_empty() { String::new() } else { format!("https://{host}/") },
                    referrer_host: host.into(),
                    utm: Utm { source: if first { self.utm_source.into() } else { String::new() }, ..Utm::default() },
                    value: conversion.then_some(10.0),
                    currency: conversion.then(|| "EUR".to_string()),
                    country: self.country.into(),
                    device: self.device.into(),
                    browser: "Firefox".into(),
                    os: "Linux".into(),
                    visitor_seed: [self.visitor; 32],
                    ..Hit::default()
                }
            })
            .collect()
    }
}

/// The hits of `visits` on `site`, in time order.
pub(super) fn hits_of(site: WebsiteId, visits: &[Visit]) -> Vec<Hit> {
    let mut hits: Vec<Hit> = visits.iter().flat_map(|v| v.hits(site)).collect();
    hits.sort_by_key(|h| h.ts);
    hits
}

/// A visit of `visitor`, `visitor` × 5 minutes after `base`, from Germany on a desktop with no referrer.
pub(super) fn plain_visit<'a>(base: Millis, visitor: u8, hits: &'a [(i64, EventKind, &'a str, &'a str)]) -> Visit<'a> {
    Visit {
        visitor,
        start: base + visitor as Millis * 5 * 60_000,
        referrer_host: "",
        utm_source: "",
        country: "DE",
        device: "desktop",
        hits,
    }
}

/// Stores on `site`, from 40 minutes before `now` and five minutes apart: 1. /a, /b and a purchase;  2. /a and a signup;
/// 3. /c. Answers the hits stored.
pub(super) fn three_plain_visits(engine: &Engine, site: WebsiteId, now: Millis) -> Vec<Hit> {
    use EventKind::{Conversion as Purchase, Custom, Pageview};
    let base = (now - 40 * 60_000) / 1000 * 1000;
    let visits = [
        plain_visit(base, 1, &[(0, Pageview, "", "/a"), (20, Pageview, "", "/b"), (30, Purchase, "purchase", "/b")]),
        plain_visit(base, 2, &[(0, Pageview, "", "/a"), (10, Custom, "signup", "/a")]),
        plain_visit(base, 3, &[(0, Pageview, "", "/c")]),
    ];
    let hits = hits_of(site, &visits);
    engine.store(hits.clone());
    hits
}
