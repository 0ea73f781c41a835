//! Makes committed batches durable before they are answered: fsyncs the write-ahead log on its own thread,
//! so the writer goes on with the next batch while the disk flushes the last one.
//!
//! The writer commits with `synchronous = NORMAL`: SQLite appends the batch's pages to the log without
//! waiting for the disk (and still syncs the log before each checkpoint, so the database stays consistent).
//! What `FULL` added was an fsync of the log inside every commit, during which the writer sat idle. Here
//! the same fsync runs beside the writer and covers every batch committed before it started; a hit is
//! answered only after one of those has returned, so a 2xx still means the hit is on disk.

use std::collections::HashSet;
use std::fs::File;
use std::io;
use std::path::PathBuf;
use std::sync::mpsc::{Receiver, Sender, channel};
use std::thread::JoinHandle;

use tokio::sync::oneshot;

use super::live::LiveHub;
use super::writer::JobError;
use crate::model::WebsiteId;

pub(crate) type Answer = oneshot::Sender<std::result::Result<(), JobError>>;

/// A committed (or failed) batch: who to answer with what, and which websites changed.
pub(crate) struct Batch {
    pub answers: Vec<(Answer, std::result::Result<(), JobError>)>,
    pub sites: HashSet<WebsiteId>,
}

/// The writer's side: hands batches over after their commit.
pub(crate) struct Durable {
    sender: Option<Sender<Batch>>,
    thread: Option<JoinHandle<()>>,
}

impl Durable {
    /// Starts the thread that syncs `log` (the database's `-wal` file) and answers.
    pub fn start(log: PathBuf, live: LiveHub) -> io::Result<Durable> {
        let (sender, receiver) = channel();
        let thread = std::thread::Builder::new()
            .name("ingest-fsync".into())
            .spawn(move || run(Log::new(log), live, receiver))?;
        Ok(Durable { sender: Some(sender), thread: Some(thread) })
    }

    /// Answers `batch` once the log holding it is on disk. Call it after the batch's commit returned.
    pub fn answer(&self, batch: Batch) {
        if let Some(sender) = &self.sender {
            // The thread only stops when this sender is dropped.
            let _ = sender.send(batch);
        }
    }
}

impl Drop for Durable {
    /// Answers every batch handed over before returning, so a shutdown loses no answer.
    fn drop(&mut self) {
        self.sender.take();
        if let Some(thread) = self.thread.take() {
            let _ = thread.join();
        }
    }
}

fn run(mut log: Log, live: LiveHub, receiver: Receiver<Batch>) {
    while let Ok(first) = receiver.recv() {
        // Everything committed so far goes to disk with one fsync: batches that waited share it.
        let mut batches = vec![first];
        batches.extend(receiver.try_iter());
        let synced = log.sync();
        if let Err(e) = &synced {
            tracing::error!(error = %e, "could not flush the write-ahead log to disk");
        }
        for batch in batches {
            for (answer, result) in batch.answers {
                let result = match (&synced, result) {
                    (Ok(()), result) => result,
                    (Err(e), Ok(())) => Err(JobError::Failed(format!("could not flush the hit to disk: {e}"))),
                    (Err(_), failed) => failed,
                };
                let _ = answer.send(result);
            }
            if synced.is_ok() {
                for site in batch.sites {
                    live.publish(site);
                }
            }
        }
    }
}

/// The write-ahead log file, opened on first use.
struct Log {
    path: PathBuf,
    file: Option<File>,
}

impl Log {
    fn new(path: PathBuf) -> Log {
        Log { path, file: None }
    }

    fn sync(&mut self) -> io::Result<()> {
        // The log exists from the first commit in WAL mode until the last connection closes, and the writer's
        // connection is open while batches arrive; checking that the path still names the open file is cheap.
        let current = std::fs::metadata(&self.path)?;
        let file = match self.file.take() {
            Some(file) if same_file(&file.metadata()?, &current) => file,
            _ => File::open(&self.path)?,
        };
        let synced = file.sync_data();
        self.file = Some(file);
        synced
    }
}

#[cfg(unix)]
fn same_file(a: &std::fs::Metadata, b: &std::fs::Metadata) -> bool {
    use std::os::unix::fs::MetadataExt;
    (a.dev(), a.ino()) == (b.dev(), b.ino())
}

#[cfg(not(unix))]
fn same_file(_: &std::fs::Metadata, _: &std::fs::Metadata) -> bool {
    false
}

#[cfg(test)]
mod tests {
    use super::*;

    fn batch(
        results: Vec<std::result::Result<(), JobError>>,
    ) -> (Batch, Vec<oneshot::Receiver<std::result::Result<(), JobError>>>) {
        let (answers, receivers) = results
            .into_iter()
            .map(|result| {
                let (answer, receiver) = oneshot::channel();
                ((answer, result), receiver)
            })
            .unzip();
        (Batch { answers, sites: HashSet::from([1]) }, receivers)
    }

    #[test]
    fn answers_each_job_with_its_own_result_once_the_log_is_synced() {
        let dir = tempfile::tempdir().unwrap();
        let log = dir.path().join("tracker.db-wal");
        std::fs::write(&log, b"frames").unwrap();
        let live = LiveHub::default();
        let mut changes = live.subscribe();
        let durable = Durable::start(log, live).unwrap();
        let (committed, receivers) = batch(vec![Ok(()), Err(JobError::SiteGone)]);
        durable.answer(committed);
        drop(durable); // answers everything handed over before returning
        let answers: Vec<_> = receivers.into_iter().map(|r| r.blocking_recv().unwrap()).collect();
        assert!(matches!(answers[..], [Ok(()), Err(JobError::SiteGone)]), "{answers:?}");
        assert_eq!(changes.try_recv().unwrap(), 1);
    }

    #[test]
    fn a_log_that_cannot_be_synced_fails_the_batch_instead_of_acknowledging_it() {
        let dir = tempfile::tempdir().unwrap();
        let live = LiveHub::default();
        let mut changes = live.subscribe();
        let durable = Durable::start(dir.path().join("missing.db-wal"), live).unwrap();
        let (committed, receivers) = batch(vec![Ok(())]);
        durable.answer(committed);
        drop(durable);
        let answer = receivers.into_iter().next().unwrap().blocking_recv().unwrap();
        assert!(matches!(&answer, Err(JobError::Failed(message)) if message.contains("flush")), "{answer:?}");
        assert!(changes.try_recv().is_err(), "no live update for data that may not be on disk");
    }

    #[test]
    fn a_replaced_log_file_is_reopened() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tracker.db-wal");
        std::fs::write(&path, b"old").unwrap();
        let mut log = Log::new(path.clone());
        log.sync().unwrap();
        std::fs::remove_file(&path).unwrap();
        std::fs::write(&path, b"new").unwrap();
        log.sync().unwrap();
        let open = log.file.as_ref().unwrap().metadata().unwrap();
        assert!(same_file(&open, &std::fs::metadata(&path).unwrap()), "still syncing the deleted file");
    }
}
