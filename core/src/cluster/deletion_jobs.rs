//! Deleting a site's or an account's events on the cluster without making the request wait (issue 39): the
//! request removes the metadata (the site is gone on every daemon, its tracking key refuses hits) and leaves a
//! job in PostgreSQL (`deletion_jobs`, migration 0220); every daemon's `Worker` claims due jobs under a lease
//! (`FOR UPDATE SKIP LOCKED`: one daemon per job), deletes the sites' rows on every shard, awaited, checks that
//! none is left and only then drops the job. A failure (a shard down, a restart) leaves the job for a retry
//! with backoff, here or on another daemon; a daemon that dies mid-job lets it go when its lease lapses. The
//! same runner does privacy deletions and visitor erasures (`privacy_jobs`), whose jobs say what they delete.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use super::Cluster;
use super::events::SITE_TABLES;
use super::privacy_jobs::{WORK_COLUMNS, Work};
use crate::error::{Error, Result};
use crate::model::{Millis, WebsiteId, now_ms};
use crate::privacy::DeletionJob;

/// How long after the request a job may start: hits a daemon admitted just before the site went are in its
/// sink's queue for a few milliseconds, and must be on the shards before the deletion reads them. Any that
/// land later are found by the check after the deletion and deleted by a retry.
const GRACE: Duration = Duration::from_secs(3);

/// How long a claim holds a job without renewal; the worker renews it every third of that while it works.
const LEASE: Duration = Duration::from_secs(30);

/// The wait after a failed attempt: doubled each time from 2 s, at most a minute (a shard back from an outage
/// is not left waiting long).
fn backoff(attempts: i32) -> Duration {
    Duration::from_secs(1 << attempts.clamp(1, 6)).min(Duration::from_secs(60))
}

/// How often each daemon looks for due jobs.
const POLL: Duration = Duration::from_secs(1);

impl Cluster {
    /// Leaves the deletion of `sites`' events to a job, run after a short grace by whichever daemon claims it.
    pub fn enqueue_site_deletion(&self, sites: &[WebsiteId]) -> Result<()> {
        if sites.is_empty() {
            return Ok(());
        }
        self.pg.with(|c| {
            c.execute(
                "INSERT INTO deletion_jobs (website_ids, run_after) VALUES ($1, now() + make_interval(secs => $2))",
                &[&sites, &GRACE.as_secs_f64()],
            )?;
            Ok(())
        })
    }

    /// Runs the jobs due by `at` (ms; `now_ms()` but in tests), one after another, until none is left that this
    /// daemon may claim; answers how many finished. A failed job is left for its retry (by a later run) and the
    /// next is taken.
    pub fn run_deletions_due_by(&self, at: Millis) -> Result<usize> {
        let (mut finished, mut tried) = (0, Vec::new());
        while let Some((id, work)) = self.claim(Some(at), None, &tried)? {
            tried.push(id);
            finished += usize::from(self.run_claimed(id, &work)?);
        }
        Ok(finished)
    }

    /// Runs job `id` now if no daemon holds it (a privacy deletion's first attempt, by the daemon that answered
    /// it); answers whether it finished.
    pub(super) fn run_deletion_job(&self, id: i64) -> Result<bool> {
        match self.claim(None, Some(id), &[])? {
            Some((id, work)) => self.run_claimed(id, &work),
            None => Ok(false),
        }
    }

    /// Does a claimed job's work under its lease; drops the job when done, records the failure otherwise.
    fn run_claimed(&self, id: i64, work: &Work) -> Result<bool> {
        let result = self.with_lease(id, || match work {
            Work::Sites(sites) => self.delete_everywhere(sites),
            _ => self.run_privacy_work(work),
        });
        match result {
            Ok(()) => {
                self.pg.with(|c| Ok(c.execute("DELETE FROM deletion_jobs WHERE id = $1", &[&id]).map(drop)?))?;
                tracing::info!(job = id, sites = ?work.sites(), what = %work.describe(), "a deletion job is done on every shard");
                Ok(true)
            }
            Err(e) => {
                let attempts = self.fail(id, &e)?;
                tracing::warn!(job = id, attempts, error = %e, retry_in = ?backoff(attempts), "a deletion job failed");
                Ok(false)
            }
        }
    }

    /// The jobs not finished, oldest first.
    pub fn deletion_jobs(&self) -> Result<Vec<DeletionJob>> {
        self.pg.with(|c| {
            let rows = c.query(
                &format!(
                    "SELECT id, (extract(epoch FROM created_at) * 1000)::bigint, attempts, last_error,
                            coalesce(leased_until > now(), false), (extract(epoch FROM run_after) * 1000)::bigint,
                            {WORK_COLUMNS}
                     FROM deletion_jobs ORDER BY id"
                ),
                &[],
            )?;
            rows.iter()
                .map(|r| {
                    let work = Work::from_row(r, 6)?;
                    Ok(DeletionJob {
                        id: r.get(0),
                        website_ids: work.sites(),
                        deletes: work.describe(),
                        created_at: r.get(1),
                        attempts: r.get(2),
                        last_error: r.get(3),
                        running: r.get(4),
                        run_after: r.get(5),
                    })
                })
                .collect()
        })
    }

    /// Takes the oldest job due by `at` (or job `only`, due or not) that no live lease holds, and not one of
    /// `tried`, under a lease of this daemon's.
    fn claim(&self, at: Option<Millis>, only: Option<i64>, tried: &[i64]) -> Result<Option<(i64, Work)>> {
        self.pg.with(|c| {
            let row = c.query_opt(
                &format!(
                    "UPDATE deletion_jobs SET leased_until = now() + make_interval(secs => $1), attempts = attempts + 1
                     WHERE id = (SELECT id FROM deletion_jobs
                                 WHERE (run_after <= to_timestamp($2::bigint / 1000.0) OR id = $4)
                                   AND ($4::bigint IS NULL OR id = $4)
                                   AND (leased_until IS NULL OR leased_until < now()) AND NOT (id = ANY($3))
                                 ORDER BY id LIMIT 1 FOR UPDATE SKIP LOCKED)
                     RETURNING id, {WORK_COLUMNS}"
                ),
                &[&LEASE.as_secs_f64(), &at, &tried, &only],
            )?;
            row.map(|r| Ok((r.get(0), Work::from_row(&r, 1)?))).transpose()
        })
    }

    /// Runs `work` while a thread renews job `id`'s lease, so a long wait on the shards keeps the job this
    /// daemon's and a dead daemon's lapses within `LEASE`.
    fn with_lease<T>(&self, id: i64, work: impl FnOnce() -> Result<T>) -> Result<T> {
        let done = AtomicBool::new(false);
        std::thread::scope(|scope| {
            scope.spawn(|| {
                let step = Duration::from_millis(100);
                let mut waited = Duration::ZERO;
                while !done.load(Ordering::Acquire) {
                    std::thread::sleep(step);
                    waited += step;
                    if waited >= LEASE / 3 {
                        waited = Duration::ZERO;
                        let renewed = self.pg.with(|c| {
                            let sql = "UPDATE deletion_jobs SET leased_until = now() + make_interval(secs => $2) WHERE id = $1";
                            Ok(c.execute(sql, &[&id, &LEASE.as_secs_f64()]).map(drop)?)
                        });
                        if let Err(e) = renewed {
                            tracing::warn!(job = id, error = %e, "could not renew a deletion job's lease");
                        }
                    }
                }
            });
            let result = work();
            done.store(true, Ordering::Release);
            result
        })
    }

    /// Records a failed attempt: the lease goes, the job waits its backoff. Answers the attempts so far.
    fn fail(&self, id: i64, error: &Error) -> Result<i32> {
        self.pg.with(|c| {
            let attempts: i32 = c.query_one("SELECT attempts FROM deletion_jobs WHERE id = $1", &[&id])?.get(0);
            c.execute(
                "UPDATE deletion_jobs SET leased_until = NULL, last_error = $2,
                        run_after = now() + make_interval(secs => $3)
                 WHERE id = $1",
                &[&id, &error.to_string(), &backoff(attempts).as_secs_f64()],
            )?;
            Ok(attempts)
        })
    }

    /// Deletes every row of `sites` from every site table of every shard, awaited, then checks each shard has
    /// none left (a hit stored after the mutation began survives it): `Unavailable` while any is.
    fn delete_everywhere(&self, sites: &[WebsiteId]) -> Result<()> {
        self.events.delete_sites(sites)?;
        let ids: Vec<String> = sites.iter().map(i64::to_string).collect();
        let db = self.events.database();
        for (i, node) in self.events.nodes().iter().enumerate() {
            for table in SITE_TABLES {
                let left: u64 = node.query_value(&format!(
                    "SELECT count() FROM {db}.{table} WHERE website_id IN ({})",
                    ids.join(", ")
                ))?;
                if left > 0 {
                    return Err(Error::Unavailable(format!(
                        "{left} rows of deleted sites arrived in {table} on shard {} during the deletion",
                        i + 1
                    )));
                }
            }
        }
        Ok(())
    }
}

/// Each cluster daemon's runner of deletion jobs, on a thread of its own; stops when dropped (after the job
/// at hand, whose lease then lapses if it is cut short by the process ending).
pub struct Worker {
    stop: Arc<AtomicBool>,
}

impl Drop for Worker {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Release);
    }
}

/// Starts looking for due jobs every `POLL` (the first look one `POLL` after start, so a short-lived CLI command
/// seldom claims a job it would leave to lapse).
pub fn start(cluster: Cluster) -> Result<Worker> {
    let stop = Arc::new(AtomicBool::new(false));
    let stopping = stop.clone();
    std::thread::Builder::new().name("deletion-jobs".into()).spawn(move || {
        while !stopping.load(Ordering::Acquire) {
            std::thread::sleep(POLL);
            if stopping.load(Ordering::Acquire) {
                break;
            }
            if let Err(e) = cluster.run_deletions_due_by(now_ms()) {
                tracing::warn!(error = %e, "could not look for deletion jobs; trying again");
            }
        }
    })?;
    Ok(Worker { stop })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::cluster::events::{HitRow, month_of};
    use crate::cluster::testing::fresh;

    #[test]
    fn backoff_doubles_from_two_seconds_to_a_minute() {
        let waits: Vec<u64> = (1..=8).map(|n| backoff(n).as_secs()).collect();
        assert_eq!(waits, [2, 4, 8, 16, 32, 60, 60, 60]);
    }

    fn hits(site: WebsiteId) -> Vec<HitRow> {
        let ts = now_ms();
        (0..20)
            .map(|visitor| HitRow {
                month: month_of(ts),
                website_id: site,
                ts,
                visit_id: visitor as i64 + 1,
                visitor,
                session_key: format!("key-{visitor}"),
                kind: "pageview",
                path: "/".into(),
                ..HitRow::default()
            })
            .collect()
    }

    /// A job waits its grace, then one runner finishes it (the other finds nothing to claim); the other site's
    /// rows stay.
    #[test]
    fn a_job_runs_once_after_its_grace_and_leaves_other_sites_alone() {
        let Some(test) = fresh() else { return };
        let events = test.events();
        events.insert(&[hits(3), hits(4)].concat()).unwrap();
        let cluster = Cluster { pg: Arc::new(test.pg()), events: Arc::new(events) };
        let rows = |site: WebsiteId| (0..2).map(|s| test.local_rows(s, &format!("website_id = {site}"))).sum::<u64>();
        assert_eq!((rows(3), rows(4)), (20, 20));

        cluster.enqueue_site_deletion(&[3]).unwrap();
        assert_eq!(cluster.run_deletions_due_by(now_ms()).unwrap(), 0, "not before its grace");
        assert_eq!(cluster.deletion_jobs().unwrap().len(), 1);
        let later = now_ms() + 60_000;
        let other = Cluster { pg: Arc::new(test.pg()), events: cluster.events.clone() };
        let (one, two) = std::thread::scope(|s| {
            let a = s.spawn(|| cluster.run_deletions_due_by(later).unwrap());
            let b = s.spawn(|| other.run_deletions_due_by(later).unwrap());
            (a.join().unwrap(), b.join().unwrap())
        });
        assert_eq!(one + two, 1, "one runner took it");
        assert_eq!((rows(3), rows(4)), (0, 20));
        assert!(cluster.deletion_jobs().unwrap().is_empty());
    }

    /// With a shard unreachable the job fails, says why and waits its backoff; it finishes once the shard answers.
    #[test]
    fn a_job_failing_on_an_unreachable_shard_is_retried_until_done() {
        let Some(test) = fresh() else { return };
        test.events().insert(&hits(5)).unwrap();
        let pg = Arc::new(test.pg());
        let down = Cluster {
            pg: pg.clone(),
            events: Arc::new(test.events().with_nodes(&[test.ch_urls[0].clone(), "http://127.0.0.1:9".into()])),
        };
        down.enqueue_site_deletion(&[5]).unwrap();
        let later = now_ms() + 60_000;
        assert_eq!(down.run_deletions_due_by(later).unwrap(), 0);
        let jobs = down.deletion_jobs().unwrap();
        assert_eq!((jobs.len(), jobs[0].attempts, jobs[0].running), (1, 1, false), "{jobs:?}");
        assert!(jobs[0].last_error.is_some(), "{jobs:?}");
        assert!(jobs[0].run_after > now_ms(), "waits its backoff: {jobs:?}");

        let up = Cluster { pg, events: Arc::new(test.events()) };
        assert_eq!(up.run_deletions_due_by(later).unwrap(), 1);
        assert_eq!((0..2).map(|s| test.local_rows(s, "website_id = 5")).sum::<u64>(), 0);
        assert!(up.deletion_jobs().unwrap().is_empty());
    }
}
