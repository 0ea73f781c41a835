//! Test fixtures of cluster mode: a fresh PostgreSQL schema and ClickHouse database per test on the harness's
//! servers (tests/cluster/cluster.sh up DIR; source DIR/env), or `None` when the harness is not running.

use std::sync::{RwLock, RwLockReadGuard};

use rand::Rng;

use tokio::sync::oneshot;

use super::clickhouse::Node;
use super::events::Events;
use super::ingest_state::IngestState;
use super::pg::Pg;
use super::sink::ClickHouseSink;
use crate::ingest::live::LiveHub;
use crate::ingest::writer::{Job, Queued, spawn_sink};
use crate::ingest::{Hit, Interactions, Submitted};
use crate::metrics::Metrics;
use crate::model::WebsiteId;
use crate::testing::OneSite;

/// Held for reading by every test that uses the ClickHouse shards and for writing by a test that restarts one,
/// so no test meets a shard that is down (tests of this binary run in parallel threads).
pub(crate) static SHARDS: RwLock<()> = RwLock::new(());

/// The visitor-salt key of every test's sinks (the daemons of one cluster share theirs, as these do).
pub(crate) const SALT_KEY: &[u8] = b"test visitor salt key, 32 bytes or more";

/// A private corner of the harness for one test.
pub(crate) struct TestCluster {
    pub pg_url: String,
    pub ch_urls: Vec<String>,
    pub database: String,
    shards: Option<RwLockReadGuard<'static, ()>>,
}

/// A variable of the harness's env file (tests/cluster/cluster.sh), or `None` when the harness is not running:
/// the test then returns early, saying so on stderr. With `TRACKER_TEST_REQUIRE_CLUSTER=1` (tests/run.sh sets it)
/// a missing harness fails the test instead, so a run that should cover the cluster never passes without it.
pub(crate) fn harness_var(name: &str) -> Option<String> {
    let value = std::env::var(name).ok().filter(|v| !v.is_empty());
    if value.is_none() {
        assert!(
            std::env::var("TRACKER_TEST_REQUIRE_CLUSTER").as_deref() != Ok("1"),
            "TRACKER_TEST_REQUIRE_CLUSTER=1 but {name} is not set: start the harness (tests/cluster/cluster.sh up DIR) \
             and source DIR/env"
        );
        eprintln!("skipped: the cluster harness is not running ({name} is not set)");
    }
    value
}

/// The harness's ClickHouse shard URLs, or `None` to skip.
pub(crate) fn clickhouse_urls() -> Option<Vec<String>> {
    let urls = harness_var("TRACKER_TEST_CLICKHOUSE_URLS")?;
    Some(urls.split(',').map(str::to_string).collect())
}

/// A shared hold on the shards (see `SHARDS`).
pub(crate) fn shards_up() -> RwLockReadGuard<'static, ()> {
    SHARDS.read().unwrap_or_else(|e| e.into_inner())
}

/// Statements `events` has sent to its shards so far: tests bound the queries of one read with it.
pub(crate) fn statements(events: &Events) -> u64 {
    events.nodes().iter().map(Node::statements_sent).sum()
}

/// A fresh schema and database on the harness, or `None` when it is not running.
pub(crate) fn fresh() -> Option<TestCluster> {
    let pg = harness_var("TRACKER_TEST_POSTGRES_URL")?;
    let ch_urls = clickhouse_urls()?;
    let name = format!("t_{:016x}", rand::rng().random::<u64>());
    let mut client = postgres::Client::connect(&pg, postgres::NoTls).unwrap();
    client.batch_execute(&format!("CREATE SCHEMA {name}")).unwrap();
    let separator = if pg.contains('?') { '&' } else { '?' };
    let pg_url = format!("{pg}{separator}options=-csearch_path%3D{name}");
    Some(TestCluster { pg_url, ch_urls, database: name, shards: Some(shards_up()) })
}

/// A pool on a fresh schema of the harness's PostgreSQL and the URL it connects with (the schema in its
/// options), or `None` when the harness is not running.
pub(crate) fn fresh_pg() -> Option<(String, Pg)> {
    let pg = harness_var("TRACKER_TEST_POSTGRES_URL")?;
    let name = format!("t_{:016x}", rand::rng().random::<u64>());
    let mut client = postgres::Client::connect(&pg, postgres::NoTls).unwrap();
    client.batch_execute(&format!("CREATE SCHEMA {name}")).unwrap();
    let separator = if pg.contains('?') { '&' } else { '?' };
    let url = format!("{pg}{separator}options=-csearch_path%3D{name}");
    let pool = Pg::open(&url).unwrap();
    Some((url, pool))
}

impl TestCluster {
    /// Lets go of the shared hold on the shards, for a test that restarts them.
    pub fn release_shards(&mut self) {
        self.shards = None;
    }

    /// The events store in this test's database.
    pub fn events(&self) -> Events {
        Events::open(&self.ch_urls, "tracker", &self.database).unwrap()
    }

    /// A pool on this test's schema, migrated.
    pub fn pg(&self) -> Pg {
        Pg::open(&self.pg_url).unwrap()
    }

    /// The metadata store on this test's schema.
    pub fn meta(&self) -> crate::store::meta::Meta {
        crate::store::meta::postgres(std::sync::Arc::new(self.pg()))
    }

    /// Adds a website with this id (and an account owning it) to the test's schema: the sink stores hits only
    /// of sites that exist.
    pub fn add_site(&self, site: WebsiteId) {
        self.pg()
            .with(|c| {
                let email = format!("owner-{site}@example.com");
                let user: i64 = c
                    .query_one(
                        "INSERT INTO users (email, password_hash, created_at) VALUES ($1, '', 0) RETURNING id",
                        &[&email],
                    )?
                    .get(0);
                c.execute(
                    "INSERT INTO websites (id, user_id, name, domain, tracking_key, created_at) OVERRIDING SYSTEM VALUE
                     VALUES ($1, $2, 'Site', 'https://s.example.com', $3, 0)",
                    &[&site, &user, &format!("key-{site}")],
                )?;
                Ok(())
            })
            .unwrap();
    }

    /// Rows of `hits_local` on shard `i` matching `condition`, counted on that shard alone.
    pub fn local_rows(&self, i: usize, condition: &str) -> u64 {
        Node::new(&self.ch_urls[i])
            .query_value(&format!("SELECT count() FROM {}.hits_local WHERE {condition}", self.database))
            .unwrap()
    }
}

/// Stores the same hits (in time order) in the fixture's SQLite, through its real ingest queue and writer, and
/// in the cluster, through the ClickHouse sink on a writer thread, each waited for.
pub(crate) fn store_in_both(fixture: &OneSite, cluster: &TestCluster, hits: Vec<Hit>) {
    store_all_in_both(fixture, cluster, hits, Vec::new());
}

/// As [`store_in_both`], with the heatmap data `interactions` (of visits among the hits) sent among the hits in
/// time order, as browsers send them (hits first at the same millisecond).
pub(crate) fn store_all_in_both(
    fixture: &OneSite,
    cluster: &TestCluster,
    hits: Vec<Hit>,
    interactions: Vec<Interactions>,
) {
    store_jobs_in_both(fixture, cluster, in_time_order(hits, interactions));
}

/// Stores the same ingest jobs (hits, heatmap data, recording chunks), in their order, in the fixture's SQLite
/// through its real ingest queue and writer, then in the cluster through the ClickHouse sink on a writer thread,
/// each waited for.
pub(crate) fn store_jobs_in_both(fixture: &OneSite, cluster: &TestCluster, jobs: Vec<Job>) {
    submit_to_sqlite(fixture, jobs.iter().map(copy_job));
    store_jobs_in_cluster(cluster, jobs);
}

/// Stores ingest jobs, in their order, in the cluster through the ClickHouse sink on a writer thread (as a
/// daemon's ingest does), each waited for.
pub(crate) fn store_jobs_in_cluster(cluster: &TestCluster, jobs: Vec<Job>) {
    let folder = tempfile::tempdir().unwrap();
    let metrics = Metrics::new(&folder.path().join("none.sqlite"), 10_000);
    let sink = ClickHouseSink::new(
        cluster.events(),
        IngestState::new(cluster.pg(), crate::cluster::testing::SALT_KEY),
        cluster.meta(),
        LiveHub::default(),
        metrics.clone(),
    );
    let (queue, writer) = spawn_sink(sink, metrics, 10_000, 64).unwrap();
    let answers: Vec<_> = jobs
        .into_iter()
        .map(|job| {
            let (done, answer) = oneshot::channel();
            queue.send(Queued { job, done }).unwrap();
            answer
        })
        .collect();
    for answer in answers {
        answer.blocking_recv().unwrap().unwrap();
    }
    drop(queue);
    drop(writer);
}

/// Hits and heatmap data as jobs in time order, hits first at the same millisecond.
pub(crate) fn in_time_order(hits: Vec<Hit>, interactions: Vec<Interactions>) -> Vec<Job> {
    let mut timed: Vec<(i64, u8, Job)> = hits.into_iter().map(|hit| (hit.ts, 0, Job::Hit(Box::new(hit)))).collect();
    timed.extend(interactions.into_iter().map(|item| (item.visit.ts, 1, Job::Interactions(Box::new(item)))));
    timed.sort_by_key(|(ts, order, _)| (*ts, *order));
    timed.into_iter().map(|(_, _, job)| job).collect()
}

/// Stores jobs in the fixture's SQLite through its real ingest queue and writer, each waited for.
pub(crate) fn submit_to_sqlite(fixture: &OneSite, jobs: impl Iterator<Item = Job>) {
    for job in jobs {
        match fixture.tracker.ingest.submit_job(job).unwrap() {
            Submitted::Queued(commit) => commit.wait_blocking().unwrap(),
            Submitted::Ignored => panic!("a seeded hit was ignored"),
        }
    }
}

/// A copy of a seeded job (jobs are not `Clone`: the ingest path moves them).
fn copy_job(job: &Job) -> Job {
    match job {
        Job::Hit(hit) => Job::Hit(hit.clone()),
        Job::Interactions(item) => Job::Interactions(item.clone()),
        Job::Replay(chunk) => Job::Replay(chunk.clone()),
        _ => unreachable!("only hits, heatmap data and recording chunks are seeded"),
    }
}

/// Scroll depth reports for about two page views in three, two seconds after each (some pages reporting
/// twice), as the heatmap script sends them while a visitor scrolls.
pub(crate) fn scroll_reports(hits: &[Hit]) -> Vec<Interactions> {
    let mut reports = Vec::new();
    for hit in hits.iter().filter(|h| h.kind == Some(crate::ingest::EventKind::Pageview)) {
        let seconds = hit.ts / 1000;
        for repeat in 0..seconds.rem_euclid(3) {
            let mut visit = hit.clone();
            visit.ts += 2_000 + repeat * 500;
            reports.push(Interactions {
                visit,
                viewport: (1280, 800),
                page: (1280, 3000),
                points: Vec::new(),
                fields: Vec::new(),
                scroll_depth: Some(10 + (seconds + repeat * 37).rem_euclid(91)),
            });
        }
    }
    reports
}

/// Stores hits and heatmap data in time order (as [`store_all_in_both`]) in the fixture's SQLite, through its
/// real ingest queue and writer, each waited for.
pub(crate) fn store_all_in_sqlite(fixture: &OneSite, hits: Vec<Hit>, interactions: Vec<Interactions>) {
    submit_to_sqlite(fixture, in_time_order(hits, interactions).into_iter());
}

impl Drop for TestCluster {
    fn drop(&mut self) {
        for url in &self.ch_urls {
            let _ = Node::new(url).execute(&format!("DROP DATABASE IF EXISTS {}", self.database));
        }
    }
}
