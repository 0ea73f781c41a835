//! The ingest writer's sink in cluster mode: each batch's hits find their visits in PostgreSQL (shared by every
//! daemon) and go to ClickHouse, one synchronous insert per shard. Every hit of the batch is acknowledged only
//! when every shard answered Ok; otherwise every one of them gets 503, never a 2xx.

use std::collections::{HashMap, HashSet};
use std::time::{Duration, Instant};

use super::events::{Events, HitRow, month_of};
use super::ingest_state::{IngestState, Segment};
use super::notices;
use crate::error::{Error, Result};
use crate::ingest::live::LiveHub;
use crate::ingest::writer::{EventSink, Job, JobError, Queued, SESSION_TIMEOUT_MS};
use crate::ingest::{EventKind, Hit};
use crate::metrics::Metrics;
use crate::model::{WebsiteId, now_ms};

/// The ClickHouse sink of one daemon's writer thread.
pub struct ClickHouseSink {
    events: Events,
    state: IngestState,
    live: LiveHub,
    metrics: Metrics,
}

impl ClickHouseSink {
    /// A sink writing to `events` with the visits and salts of `state`.
    pub fn new(events: Events, state: IngestState, live: LiveHub, metrics: Metrics) -> ClickHouseSink {
        ClickHouseSink { events, state, live, metrics }
    }

    /// The rows of the batch's storable hits (`None` where a job is answered on its own), or why the batch
    /// cannot be stored.
    fn rows(&mut self, batch: &[Queued]) -> Result<(Vec<HitRow>, Vec<Option<JobError>>)> {
        let mut refusals = Vec::with_capacity(batch.len());
        let mut hits: Vec<&Hit> = Vec::with_capacity(batch.len());
        // The batch position of each of `hits`.
        let mut positions = Vec::with_capacity(batch.len());
        for (position, queued) in batch.iter().enumerate() {
            match &queued.job {
                Job::Hit(hit) if hit.consent_required => {
                    refusals.push(Some(not_yet("sites that require consent are not stored in cluster mode yet")))
                }
                Job::Hit(hit) if hit.kind() == EventKind::Consent => {
                    refusals.push(Some(not_yet("consent choices are not stored in cluster mode yet")))
                }
                Job::Hit(hit) => {
                    refusals.push(None);
                    hits.push(hit);
                    positions.push(position);
                }
                Job::Consent(_) => refusals.push(Some(not_yet("consent choices are not stored in cluster mode yet"))),
                Job::Interactions(_) | Job::Replay(_) => {
                    refusals.push(Some(not_yet("heatmaps and recordings are not stored in cluster mode yet")))
                }
            }
        }
        let visit_of_hit = self.visits(&hits)?;
        let mut rows = Vec::with_capacity(hits.len());
        for ((hit, visit), position) in hits.iter().zip(visit_of_hit).zip(positions) {
            match visit {
                Some((visit_id, visitor)) => rows.push(row(hit, visit_id, visitor)),
                // Answered as SQLite's writer answers a hit of a site deleted while it was queued.
                None => refusals[position] = Some(JobError::SiteGone),
            }
        }
        Ok((rows, refusals))
    }

    /// The (visit id, visitor hash) of each hit, in order (`None` where its site is gone): the hits of one key are cut into runs at gaps over
    /// the idle timeout (as the SQLite writer does hit by hit), and each round of the upsert takes one run per
    /// key. A batch almost always needs one round.
    fn visits(&mut self, hits: &[&Hit]) -> Result<Vec<Option<(i64, u64)>>> {
        let mut runs: Vec<(Segment, Vec<usize>)> = Vec::new();
        let mut open: HashMap<(WebsiteId, &str), usize> = HashMap::new();
        let mut round_of_run: Vec<usize> = Vec::new();
        let mut rounds_of_key: HashMap<(WebsiteId, &str), usize> = HashMap::new();
        for (i, hit) in hits.iter().enumerate() {
            let key = (hit.website_id, hit.session_key.as_str());
            match open.get(&key).copied() {
                Some(r) if hit.ts - runs[r].0.last <= SESSION_TIMEOUT_MS => {
                    let run = &mut runs[r];
                    run.0.first = run.0.first.min(hit.ts);
                    run.0.last = run.0.last.max(hit.ts);
                    run.1.push(i);
                }
                _ => {
                    let round = rounds_of_key.entry(key).or_insert(0);
                    round_of_run.push(*round);
                    *round += 1;
                    open.insert(key, runs.len());
                    let segment = Segment {
                        website_id: hit.website_id,
                        session_key: hit.session_key.clone(),
                        first: hit.ts,
                        last: hit.ts,
                        seed: hit.visitor_seed,
                    };
                    runs.push((segment, vec![i]));
                }
            }
        }
        let mut out = vec![None; hits.len()];
        let rounds = round_of_run.iter().max().map_or(0, |r| r + 1);
        for round in 0..rounds {
            let in_round: Vec<usize> = (0..runs.len()).filter(|r| round_of_run[*r] == round).collect();
            let segments: Vec<Segment> = in_round.iter().map(|r| runs[*r].0.clone()).collect();
            let visits = self.state.visits(&segments)?;
            for (r, visit) in in_round.into_iter().zip(visits) {
                for i in &runs[r].1 {
                    out[*i] = visit.map(|visit| (visit.visit_id, visit.visitor as u64));
                }
            }
        }
        Ok(out)
    }
}

fn not_yet(what: &str) -> JobError {
    JobError::Refused(Error::Unavailable(what.into()))
}

/// A hit as a row of `hits_local`.
fn row(hit: &Hit, visit_id: i64, visitor: u64) -> HitRow {
    HitRow {
        month: month_of(hit.ts),
        website_id: hit.website_id,
        ts: hit.ts,
        visit_id,
        visitor,
        session_key: hit.session_key.clone(),
        kind: hit.kind().as_str(),
        name: hit.name.clone(),
        url: hit.url.clone(),
        path: hit.path.clone(),
        referrer: hit.referrer.clone(),
        referrer_host: hit.referrer_host.clone(),
        utm_source: hit.utm.source.clone(),
        utm_medium: hit.utm.medium.clone(),
        utm_campaign: hit.utm.campaign.clone(),
        utm_term: hit.utm.term.clone(),
        utm_content: hit.utm.content.clone(),
        properties: hit.properties.clone().unwrap_or_default(),
        value: hit.value,
        currency: hit.currency.clone().unwrap_or_default(),
        screen: hit.screen.clone(),
        country: hit.country.clone(),
        region: hit.region.clone(),
        city: hit.city.clone(),
        device: hit.device.clone(),
        browser: hit.browser.clone(),
        os: hit.os.clone(),
        ip_address: hit.ip_address.clone().unwrap_or_default(),
        organization_asn: hit.organization.as_ref().map_or(0, |o| o.asn),
        organization: hit.organization.as_ref().map(|o| o.name.clone()).unwrap_or_default(),
    }
}

impl EventSink for ClickHouseSink {
    fn commit_batch(&mut self, batch: Vec<Queued>) {
        let started = Instant::now();
        let mut insert_time = Duration::ZERO;
        let outcome = self.rows(&batch).and_then(|(rows, refusals)| {
            let insert = Instant::now();
            self.events.insert(&rows)?;
            insert_time = insert.elapsed();
            Ok(refusals)
        });
        self.metrics.batch_committed(batch.len(), started.elapsed(), insert_time);
        if let Err(e) = self.state.prune(now_ms()) {
            tracing::warn!(error = %e, "could not prune the shared ingest state");
        }
        match outcome {
            Ok(refusals) => {
                let mut sites = HashSet::new();
                for (queued, refusal) in batch.into_iter().zip(refusals) {
                    if let (None, Job::Hit(hit)) = (&refusal, &queued.job) {
                        sites.insert(hit.website_id);
                    }
                    let _ = queued.done.send(refusal.map_or(Ok(()), Err));
                }
                for site in &sites {
                    self.live.publish(*site);
                }
                // After the answers: the other daemons' live streams learn of the batch one round trip later.
                let sites: Vec<WebsiteId> = sites.into_iter().collect();
                if let Err(e) = notices::announce_hits(self.state.pg(), self.live.origin(), &sites) {
                    tracing::warn!(error = %e, "could not tell the other daemons of a stored batch");
                }
            }
            Err(e) => {
                tracing::error!(error = %e, "ingest batch not stored in ClickHouse");
                for queued in batch {
                    let _ = queued.done.send(Err(JobError::Unavailable(e.to_string())));
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use tokio::sync::oneshot;

    use super::*;
    use crate::cluster::testing::{TestCluster, fresh};
    use std::sync::mpsc::SyncSender;

    use crate::ingest::writer::{WriterHandle, spawn_sink};

    /// Two hours ago, on a whole second: live hits (visits idle for a day are pruned).
    fn t0() -> i64 {
        (now_ms() - 2 * 3_600_000) / 1000 * 1000
    }

    fn hit(site: WebsiteId, visitor: u8, ts: i64, path: &str) -> Hit {
        Hit {
            website_id: site,
            session_key: format!("session-{visitor:04}"),
            ts,
            kind: Some(EventKind::Pageview),
            url: format!("https://example.com{path}"),
            path: path.into(),
            visitor_seed: [visitor; 32],
            ..Hit::default()
        }
    }

    /// A daemon's writer thread with the ClickHouse sink; the queue closes before the thread is joined.
    struct Daemon {
        queue: SyncSender<Queued>,
        _writer: WriterHandle,
    }

    /// A daemon's sink over `events`, and the metrics it reports to.
    fn sink(cluster: &TestCluster, events: Events) -> (ClickHouseSink, Metrics) {
        let dir = tempfile::tempdir().unwrap();
        let metrics = Metrics::new(&dir.path().join("none.sqlite"), 10_000);
        let sink = ClickHouseSink::new(events, IngestState::new(cluster.pg()), LiveHub::default(), metrics.clone());
        (sink, metrics)
    }

    fn writer(cluster: &TestCluster, events: Events) -> Daemon {
        let (sink, metrics) = sink(cluster, events);
        let (queue, handle) = spawn_sink(sink, metrics, 10_000, 500).unwrap();
        Daemon { queue, _writer: handle }
    }

    /// Queues every hit, then waits for each answer.
    fn send(queue: &SyncSender<Queued>, hits: Vec<Hit>) -> Vec<std::result::Result<(), JobError>> {
        let answers: Vec<_> = hits
            .into_iter()
            .map(|hit| {
                let (done, answer) = oneshot::channel();
                queue.send(Queued { job: Job::Hit(Box::new(hit)), done }).unwrap();
                answer
            })
            .collect();
        answers.into_iter().map(|a| a.blocking_recv().unwrap()).collect()
    }

    #[test]
    fn acknowledged_hits_are_on_their_visitors_shard_and_a_visit_stays_on_one() {
        let Some(cluster) = fresh() else { return };
        cluster.add_site(1);
        let t0 = t0();
        let daemon = writer(&cluster, cluster.events());
        let hits: Vec<Hit> =
            (0..200u32).map(|i| hit(1, (i % 50) as u8, t0 + i64::from(i) * 1000, &format!("/p{}", i % 7))).collect();
        let answers = send(&daemon.queue, hits);
        assert!(answers.iter().all(Result::is_ok), "{answers:?}");

        let events = cluster.events();
        let on = [cluster.local_rows(0, "1"), cluster.local_rows(1, "1")];
        assert_eq!(on[0] + on[1], 200, "every acknowledged hit is stored once: {on:?}");
        assert!(on[0] > 0 && on[1] > 0, "both shards hold rows: {on:?}");
        for (i, node) in events.nodes().iter().enumerate() {
            let misplaced: u64 = node
                .query_value(&format!("SELECT count() FROM {}.hits_local WHERE visitor % 2 != {i}", cluster.database))
                .unwrap();
            assert_eq!(misplaced, 0, "shard {i} holds only its visitors' rows");
        }
        // 50 visitors, each one visit (all within 30 minutes), read through the Distributed table.
        let visits: Vec<Vec<String>> = events.nodes()[0]
            .query(&format!(
                "SELECT uniqExact(visit_id), uniqExact(visitor), uniqExact(session_key) FROM {}.hits",
                cluster.database
            ))
            .unwrap();
        assert_eq!(visits, [["50", "50", "50"]]);
    }

    #[test]
    fn a_failing_shard_fails_every_hit_of_the_batch_with_503() {
        let Some(cluster) = fresh() else { return };
        cluster.add_site(1);
        let t0 = t0();
        // Shard 2 is unreachable: nothing listens on port 1.
        let urls = [cluster.ch_urls[0].clone(), "http://127.0.0.1:1".to_string()];
        let (mut sink, _) = sink(&cluster, cluster.events().with_nodes(&urls));
        // One batch of visitors on both shards, handed to the sink as the writer hands it: through the writer
        // thread, a busy machine let it take the first hit alone, whose shard may be the reachable one.
        let (batch, answers): (Vec<Queued>, Vec<_>) = (0..40)
            .map(|i| {
                let (done, answer) = oneshot::channel();
                (Queued { job: Job::Hit(Box::new(hit(1, i, t0 + i64::from(i), "/"))), done }, answer)
            })
            .unzip();
        sink.commit_batch(batch);
        let answers: Vec<_> = answers.into_iter().map(|a| a.blocking_recv().unwrap()).collect();
        assert!(answers.iter().all(|a| matches!(a, Err(JobError::Unavailable(_)))), "{answers:?}");
        let error = crate::ingest::outcome_of(answers.into_iter().next().unwrap());
        assert!(matches!(error, Err(Error::Unavailable(_))), "{error:?}");
    }

    #[test]
    fn what_cluster_mode_cannot_store_yet_is_refused_not_acknowledged() {
        let Some(cluster) = fresh() else { return };
        cluster.add_site(1);
        let t0 = t0();
        let daemon = writer(&cluster, cluster.events());
        let mut consent_site = hit(1, 1, t0, "/");
        consent_site.consent_required = true;
        let mut consent_choice = hit(1, 2, t0, "/");
        consent_choice.kind = Some(EventKind::Consent);
        // Site 2 does not exist (or was deleted on another daemon after this one cached it).
        let gone = hit(2, 4, t0, "/gone");
        let answers = send(&daemon.queue, vec![consent_site, consent_choice, hit(1, 3, t0, "/stored"), gone]);
        assert!(matches!(answers[0], Err(JobError::Refused(Error::Unavailable(_)))), "{answers:?}");
        assert!(matches!(answers[1], Err(JobError::Refused(Error::Unavailable(_)))), "{answers:?}");
        assert!(answers[2].is_ok(), "the rest of the batch is stored: {answers:?}");
        assert!(matches!(answers[3], Err(JobError::SiteGone)), "{answers:?}");
        assert_eq!(cluster.local_rows(0, "1") + cluster.local_rows(1, "1"), 1);
    }

    #[test]
    fn two_daemons_agree_on_a_visitors_visit_and_the_idle_rule_starts_a_new_one() {
        let Some(cluster) = fresh() else { return };
        cluster.add_site(1);
        let t0 = t0();
        let (first, second) = (writer(&cluster, cluster.events()), writer(&cluster, cluster.events()));
        // The same visitors' hits sent to both daemons at once, round after round.
        std::thread::scope(|s| {
            for (queue, offset) in [(&first.queue, 0), (&second.queue, 500)] {
                s.spawn(move || {
                    for round in 0..10 {
                        let hits = (0..20).map(|v| hit(1, v, t0 + round * 60_000 + offset, "/")).collect();
                        assert!(send(queue, hits).iter().all(Result::is_ok));
                    }
                });
            }
        });
        // Then 31 minutes of silence, and each visitor comes back: a second visit.
        let later = t0 + 9 * 60_000 + 31 * 60_000 + 1_000;
        assert!(send(&first.queue, (0..20).map(|v| hit(1, v, later, "/back")).collect()).iter().all(Result::is_ok));

        let per_visitor = cluster.events().nodes()[0]
            .query(&format!(
                "SELECT session_key, uniqExact(visit_id), uniqExactIf(visit_id, path = '/back'), count()
                 FROM {}.hits GROUP BY session_key ORDER BY session_key",
                cluster.database
            ))
            .unwrap();
        assert_eq!(per_visitor.len(), 20);
        for row in per_visitor {
            assert_eq!(row[1..], ["2", "1", "21"], "{row:?}: one shared visit, then a new one after the idle gap");
        }
    }
}
