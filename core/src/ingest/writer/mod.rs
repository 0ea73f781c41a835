//! The one ingest writer: drains the bounded queue in batches, commits each batch in one transaction
//! (group commit), updates the rollups in the same transaction, then answers every waiting hit.
//!
//! By concern: `apply` stores each kind of job, `session` finds or starts its visit, `rollups` counts and
//! upserts the rollup deltas, `memory` holds what the writer remembers between batches (salts, `visits`,
//! `day_visitors`).

mod apply;
mod day_visitors;
mod memory;
pub(crate) mod rollups;
mod session;
mod stored_sources;
mod visits;

use std::collections::HashSet;
use std::sync::mpsc::{Receiver, SyncSender, sync_channel};
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use rusqlite::{Connection, ErrorCode, TransactionBehavior};
use tokio::sync::oneshot;

use self::apply::apply;
use self::memory::Memory;
pub(crate) use self::memory::visitor_hash;
use self::rollups::Rollups;
pub(crate) use self::session::SESSION_TIMEOUT_MS;
use super::hit::Hit;
use super::interactions::Interactions;
use super::live::LiveHub;
use super::replay::ReplayChunk;
use crate::error::{Error, Result};
use crate::metrics::Metrics;
use crate::model::WebsiteId;
use crate::privacy::ConsentRecord;

/// One unit of work for the writer.
pub(crate) enum Job {
    /// A page view, event, conversion or identify from `POST /api/track`.
    Hit(Box<Hit>),
    /// A visitor's consent choice.
    Consent(Box<ConsentRecord>),
    /// Clicks, moves and scroll depth from `POST /api/interactions`.
    Interactions(Box<Interactions>),
    /// A chunk of a session recording from `POST /api/replay`.
    Replay(Box<ReplayChunk>),
}

impl Job {
    pub(crate) fn website_id(&self) -> WebsiteId {
        match self {
            Job::Hit(hit) => hit.website_id,
            Job::Consent(record) => record.website_id,
            Job::Interactions(interactions) => interactions.visit.website_id,
            Job::Replay(chunk) => chunk.visit.website_id,
        }
    }
}

pub(crate) struct Queued {
    pub job: Job,
    pub done: oneshot::Sender<std::result::Result<(), JobError>>,
}

/// Why a job was not stored.
#[derive(Debug)]
pub(crate) enum JobError {
    /// The website was deleted after the hit was accepted.
    SiteGone,
    /// The job itself is not acceptable (e.g. a recording past its cap); told to the client as is.
    Refused(Error),
    /// Another process held the database for longer than the busy timeout; worth a retry.
    Busy,
    /// The event store cannot be reached or refused the batch (cluster mode); worth a retry.
    Unavailable(String),
    Failed(String),
}

impl JobError {
    fn of(e: &rusqlite::Error) -> JobError {
        match e.sqlite_error() {
            Some(err) if err.extended_code == rusqlite::ffi::SQLITE_CONSTRAINT_FOREIGNKEY => JobError::SiteGone,
            Some(err) if matches!(err.code, ErrorCode::DatabaseBusy | ErrorCode::DatabaseLocked) => JobError::Busy,
            _ => JobError::Failed(format!("could not store the hit: {e}")),
        }
    }

    fn from_error(e: Error) -> JobError {
        match e {
            Error::Db(e) => JobError::of(&e),
            refused => JobError::Refused(refused),
        }
    }
}

/// Joins the writer thread when the last `Ingest` handle goes away, so queued hits are committed first.
pub(crate) struct WriterHandle {
    thread: Option<JoinHandle<()>>,
}

impl WriterHandle {
    pub(crate) fn is_alive(&self) -> bool {
        self.thread.as_ref().is_some_and(|t| !t.is_finished())
    }
}

impl Drop for WriterHandle {
    fn drop(&mut self) {
        // The queue's senders are gone by now (dropped before this handle), so the thread drains and exits.
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

/// Log pages between the writer's checkpoints (SQLite's default is 1,000): about 32 MiB of log.
const WAL_CHECKPOINT_PAGES: i64 = 8_000;

pub(crate) fn spawn(
    conn: Connection,
    live: LiveHub,
    metrics: Metrics,
    capacity: usize,
    batch_max: usize,
) -> Result<(SyncSender<Queued>, WriterHandle)> {
    // A 2xx promises the hit is on disk: fsync every commit. Group commit makes that one fsync per batch.
    // (Answering from a second thread after an fsync beside the writer was measured twice; it was no faster.)
    conn.pragma_update(None, "synchronous", "FULL")?;
    // Checkpoints run inside the commit that crosses the threshold; a longer log between them copies each
    // hot page (rollups, the ends of the event and session trees) once for many more batches.
    conn.pragma_update(None, "wal_autocheckpoint", WAL_CHECKPOINT_PAGES)?;
    let writer =
        Writer { conn, live, metrics: metrics.clone(), memory: Memory::default(), commit_time: Duration::ZERO };
    spawn_sink(writer, metrics, capacity, batch_max)
}

/// Where the writer's batches go: SQLite's transaction (`Writer`, the default) or, in cluster mode, ClickHouse
/// (`cluster::sink`). The queue, the batching and the answers' promise are the same for both.
pub(crate) trait EventSink: Send + 'static {
    /// Brings what the store holds up to what the sink writes, before the first batch: names the sources of
    /// visits stored before sources were named (once).
    fn prepare(&mut self) -> Result<()>;

    /// Stores a batch and answers every job of it (a 2xx only for what is stored).
    fn commit_batch(&mut self, batch: Vec<Queued>);
}

/// Starts the writer thread that drains the bounded queue into `sink` in batches of up to `batch_max`.
pub(crate) fn spawn_sink(
    mut sink: impl EventSink,
    metrics: Metrics,
    capacity: usize,
    batch_max: usize,
) -> Result<(SyncSender<Queued>, WriterHandle)> {
    crate::ingest::sources::load();
    sink.prepare()?;
    let (sender, receiver) = sync_channel(capacity);
    let thread = std::thread::Builder::new()
        .name("ingest-writer".into())
        .spawn(move || drain(&mut sink, &receiver, &metrics, batch_max))?;
    Ok((sender, WriterHandle { thread: Some(thread) }))
}

/// Takes what the queue holds (up to `batch_max`, waiting only for the first) as one batch, until every sender
/// is gone.
fn drain(sink: &mut impl EventSink, receiver: &Receiver<Queued>, metrics: &Metrics, batch_max: usize) {
    while let Ok(first) = receiver.recv() {
        let mut batch = vec![first];
        while batch.len() < batch_max {
            match receiver.try_recv() {
                Ok(next) => batch.push(next),
                Err(_) => break,
            }
        }
        metrics.queue_moved(-(batch.len() as i64));
        sink.commit_batch(batch);
    }
}

struct Writer {
    conn: Connection,
    live: LiveHub,
    metrics: Metrics,
    memory: Memory,
    /// Time spent in COMMIT by the batch being written (its fsync), for the metrics.
    commit_time: Duration,
}

impl EventSink for Writer {
    fn prepare(&mut self) -> Result<()> {
        stored_sources::name_stored_sources(&mut self.conn)
    }

    fn commit_batch(&mut self, batch: Vec<Queued>) {
        let started = Instant::now();
        self.commit_time = Duration::ZERO;
        let outcome = self.write(&batch);
        self.metrics.batch_committed(batch.len(), started.elapsed(), self.commit_time);
        let sites: HashSet<WebsiteId> = batch.iter().map(|q| q.job.website_id()).collect();
        match outcome {
            Ok(results) => {
                for (queued, result) in batch.into_iter().zip(results) {
                    let _ = queued.done.send(result);
                }
                for site in sites {
                    self.live.publish(site);
                }
            }
            Err(e) => {
                tracing::error!(error = %e, "ingest batch failed to commit");
                for queued in batch {
                    let _ = queued.done.send(Err(JobError::of(&e)));
                }
            }
        }
    }
}

impl Writer {
    /// Writes a batch in one transaction. The common case runs every job straight in it; when one fails, the
    /// transaction is rolled back and the batch rewritten with a savepoint per job, so the failing job is
    /// rolled back alone. (A savepoint per job always costs two statements and a sub-journal per hit.)
    fn write(&mut self, batch: &[Queued]) -> rusqlite::Result<Vec<std::result::Result<(), JobError>>> {
        match self.write_all(batch) {
            Ok(()) => Ok(batch.iter().map(|_| Ok(())).collect()),
            Err(e) => {
                // Visits changed and visitors counted by the rolled-back transaction were never stored.
                self.memory.clear();
                match e {
                    // Another process holding the lock would hold it for the retry too.
                    Error::Db(e) if matches!(JobError::of(&e), JobError::Busy) => Err(e),
                    _ => self.write_each(batch),
                }
            }
        }
    }

    /// IMMEDIATE takes the write lock up front, waiting on other processes (CLI jobs) with the busy timeout;
    /// a deferred transaction would fail at once when upgrading its read lock.
    fn write_all(&mut self, batch: &[Queued]) -> Result<()> {
        let tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        self.memory.sync(&tx)?;
        self.memory.load_zones(&tx, batch.iter().map(|q| q.job.website_id()))?;
        let mut rollups = Rollups::in_zones(&self.memory.zones);
        for queued in batch {
            apply(&tx, &mut self.memory, &mut rollups, &queued.job)?;
        }
        rollups.flush(&tx)?;
        self.memory.prune();
        let commit = Instant::now();
        tx.commit()?;
        self.commit_time += commit.elapsed();
        Ok(())
    }

    fn write_each(&mut self, batch: &[Queued]) -> rusqlite::Result<Vec<std::result::Result<(), JobError>>> {
        let mut rollups = Rollups::default();
        let mut results = Vec::with_capacity(batch.len());
        let mut tx = self.conn.transaction_with_behavior(TransactionBehavior::Immediate)?;
        // The lock was let go after the failed attempt: another connection may have written since.
        self.memory.sync(&tx)?;
        self.memory.load_zones(&tx, batch.iter().map(|q| q.job.website_id()))?;
        for queued in batch {
            let sp = tx.savepoint()?;
            let mut job_rollups = Rollups::in_zones(&self.memory.zones);
            match apply(&sp, &mut self.memory, &mut job_rollups, &queued.job) {
                Ok(()) => {
                    sp.commit()?;
                    rollups.merge(job_rollups);
                    results.push(Ok(()));
                }
                Err(e) => {
                    drop(sp); // rolls back this job only
                    // The memory may hold what the job changed before failing.
                    self.memory.clear();
                    results.push(Err(JobError::from_error(e)));
                }
            }
        }
        rollups.flush(&tx)?;
        self.memory.prune();
        let commit = Instant::now();
        let committed = tx.commit();
        self.commit_time += commit.elapsed();
        if committed.is_err() {
            self.memory.clear();
        }
        committed?;
        Ok(results)
    }
}
