//! Operational metrics of a running instance: counters, gauges and histograms kept up by ingest, the writer,
//! the live streams and retention, rendered in the Prometheus text format for `GET /metrics`.
//!
//! Every handle a hit touches is resolved once here, so the hot path is a few atomic adds (no label lookup,
//! no lock); the database and log sizes are read from the file system only when scraped.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::time::Duration;

use prometheus::{Encoder, Histogram, HistogramOpts, IntCounter, IntCounterVec, IntGauge, Opts, Registry, TextEncoder};

use crate::error::Error;

/// The metrics of one tracker instance; cloning shares them.
#[derive(Clone)]
pub struct Metrics(Arc<Inner>);

struct Inner {
    registry: Registry,
    database: PathBuf,
    accepted: IntCounter,
    ignored: IntCounter,
    rejected: Rejected,
    queue_depth: IntGauge,
    queue_capacity: IntGauge,
    batch_size: Histogram,
    batch_seconds: Histogram,
    fsync_seconds: Histogram,
    live_clients: IntGauge,
    database_bytes: IntGauge,
    wal_bytes: IntGauge,
    retention_deleted: IntCounterVec,
    deletion_jobs: IntGauge,
    deletion_jobs_running: IntGauge,
    deletion_jobs_failing: IntGauge,
    deletion_job_oldest_seconds: IntGauge,
}

/// `tracker_hits_rejected_total` by reason, resolved up front.
struct Rejected {
    invalid: IntCounter,
    unknown_site: IntCounter,
    forbidden: IntCounter,
    too_large: IntCounter,
    busy: IntCounter,
    error: IntCounter,
}

impl Metrics {
    /// Registers every metric; `database` is the SQLite file whose size (and its log's) is reported.
    pub fn new(database: &Path, queue_capacity: usize) -> Metrics {
        let registry = Registry::new();
        let counter = |name: &str, help: &str| {
            let c = IntCounter::new(name, help).expect("valid metric");
            registry.register(Box::new(c.clone())).expect("unique metric");
            c
        };
        let gauge = |name: &str, help: &str| {
            let g = IntGauge::new(name, help).expect("valid metric");
            registry.register(Box::new(g.clone())).expect("unique metric");
            g
        };
        let histogram = |name: &str, help: &str, buckets: Vec<f64>| {
            let h = Histogram::with_opts(HistogramOpts::new(name, help).buckets(buckets)).expect("valid metric");
            registry.register(Box::new(h.clone())).expect("unique metric");
            h
        };
        let counter_vec = |name: &str, help: &str, label: &str| {
            let c = IntCounterVec::new(Opts::new(name, help), &[label]).expect("valid metric");
            registry.register(Box::new(c.clone())).expect("unique metric");
            c
        };
        let rejected = counter_vec(
            "tracker_hits_rejected_total",
            "Visitor hits, interactions and recording chunks refused, by reason",
            "reason",
        );
        let reason = |r: &str| rejected.with_label_values(&[r]);
        let rejected = Rejected {
            invalid: reason("invalid"),
            unknown_site: reason("unknown_site"),
            forbidden: reason("forbidden"),
            too_large: reason("too_large"),
            busy: reason("busy"),
            error: reason("error"),
        };
        // Seconds: group commits take from well under a millisecond (small batch, fast disk) to seconds.
        let seconds = vec![0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5, 5.0];
        let metrics = Inner {
            database: database.to_path_buf(),
            accepted: counter(
                "tracker_hits_accepted_total",
                "Visitor hits, interactions and recording chunks committed to the database",
            ),
            ignored: counter(
                "tracker_hits_ignored_total",
                "Visitor data accepted but deliberately not stored (bots, Do-Not-Track, data the site's level does not allow)",
            ),
            rejected,
            queue_depth: gauge("tracker_ingest_queue_depth", "Jobs waiting for the ingest writer"),
            queue_capacity: gauge(
                "tracker_ingest_queue_capacity",
                "Jobs the ingest queue holds before visitors get 503 (ingest_queue)",
            ),
            batch_size: histogram(
                "tracker_ingest_batch_size",
                "Jobs committed per ingest transaction (group commit)",
                prometheus::exponential_buckets(1.0, 4.0, 8).expect("valid buckets"),
            ),
            batch_seconds: histogram(
                "tracker_ingest_commit_seconds",
                "Time to write and commit one ingest batch, from BEGIN to the end of COMMIT",
                seconds.clone(),
            ),
            fsync_seconds: histogram(
                "tracker_ingest_fsync_seconds",
                "Time in an ingest batch's COMMIT: appending its pages to the write-ahead log and the fsync",
                seconds,
            ),
            live_clients: gauge("tracker_live_clients", "Open live (server-sent events) streams"),
            database_bytes: gauge("tracker_database_bytes", "Size of the database file"),
            wal_bytes: gauge("tracker_wal_bytes", "Size of the database's write-ahead log"),
            retention_deleted: counter_vec(
                "tracker_retention_deleted_total",
                "Rows deleted by the daemon's retention runs, by kind of data",
                "data",
            ),
            deletion_jobs: gauge(
                "tracker_deletion_jobs",
                "Deletions of sites' events still under way on the cluster's shards (0 on SQLite, whose finish at once)",
            ),
            deletion_jobs_running: gauge("tracker_deletion_jobs_running", "Deletion jobs a daemon is working on now"),
            deletion_jobs_failing: gauge(
                "tracker_deletion_jobs_failing",
                "Deletion jobs whose last attempt failed (a shard unreachable): retried with backoff",
            ),
            deletion_job_oldest_seconds: gauge(
                "tracker_deletion_job_oldest_seconds",
                "Age of the oldest deletion job not finished, 0 when none is",
            ),
            registry,
        };
        metrics.queue_capacity.set(queue_capacity as i64);
        Metrics(Arc::new(metrics))
    }

    /// A visitor's data was committed.
    pub fn hit_accepted(&self) {
        self.0.accepted.inc();
    }

    /// A visitor's data was accepted and dropped on purpose.
    pub fn hit_ignored(&self) {
        self.0.ignored.inc();
    }

    /// A visitor's data was refused with `error`.
    pub fn hit_rejected(&self, error: &Error) {
        let r = &self.0.rejected;
        match error {
            Error::NotFound(_) => r.unknown_site.inc(),
            Error::Forbidden(_) => r.forbidden.inc(),
            Error::TooLarge(_) => r.too_large.inc(),
            Error::Busy | Error::RateLimited => r.busy.inc(),
            Error::Db(_) | Error::Io(_) | Error::Internal(_) => r.error.inc(),
            _ => r.invalid.inc(),
        }
    }

    /// A visitor's request was refused before it reached ingest (unreadable or oversized body).
    pub fn hit_refused(&self, too_large: bool) {
        let r = &self.0.rejected;
        if too_large { r.too_large.inc() } else { r.invalid.inc() }
    }

    /// A job entered the ingest queue (`n` = 1) or the writer took `n` jobs off it (negative).
    pub(crate) fn queue_moved(&self, n: i64) {
        self.0.queue_depth.add(n);
    }

    /// Jobs waiting for the writer now.
    pub fn queue_depth(&self) -> i64 {
        self.0.queue_depth.get()
    }

    /// Jobs the queue holds before ingest answers 503.
    pub fn queue_capacity(&self) -> i64 {
        self.0.queue_capacity.get()
    }

    /// The writer committed a batch of `size` jobs in `total`, of which `commit` in COMMIT.
    pub(crate) fn batch_committed(&self, size: usize, total: Duration, commit: Duration) {
        self.0.batch_size.observe(size as f64);
        self.0.batch_seconds.observe(total.as_secs_f64());
        self.0.fsync_seconds.observe(commit.as_secs_f64());
    }

    /// Counts an open live stream until the returned guard is dropped.
    pub fn live_client(&self) -> LiveClient {
        self.0.live_clients.inc();
        LiveClient(self.0.live_clients.clone())
    }

    /// Retention deleted `rows` of `data`.
    pub fn retention_deleted(&self, data: &str, rows: u64) {
        self.0.retention_deleted.with_label_values(&[data]).inc_by(rows);
    }

    /// The deletion jobs under way, as last read.
    pub fn deletion_jobs(&self, jobs: crate::privacy::DeletionJobsSummary) {
        self.0.deletion_jobs.set(jobs.pending as i64);
        self.0.deletion_jobs_running.set(jobs.running as i64);
        self.0.deletion_jobs_failing.set(jobs.failing as i64);
        self.0.deletion_job_oldest_seconds.set(jobs.oldest_seconds);
    }

    /// Every metric in the Prometheus text exposition format (version 0.0.4).
    pub fn render(&self) -> String {
        let size = |path: &Path| std::fs::metadata(path).map(|m| m.len() as i64).unwrap_or(0);
        self.0.database_bytes.set(size(&self.0.database));
        let mut wal = self.0.database.clone().into_os_string();
        wal.push("-wal");
        self.0.wal_bytes.set(size(Path::new(&wal)));
        let mut out = Vec::new();
        // Encoding our own well-formed metrics into memory cannot fail.
        let _ = TextEncoder::new().encode(&self.0.registry.gather(), &mut out);
        String::from_utf8(out).unwrap_or_default()
    }
}

/// An open live stream, counted while it lives.
pub struct LiveClient(IntGauge);

impl Drop for LiveClient {
    fn drop(&mut self) {
        self.0.dec();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn renders_every_metric_with_its_values() {
        let dir = tempfile::tempdir().unwrap();
        let db = dir.path().join("tracker.db");
        std::fs::write(&db, vec![0u8; 4096]).unwrap();
        let metrics = Metrics::new(&db, 100);
        metrics.hit_accepted();
        metrics.hit_rejected(&Error::Busy);
        metrics.hit_rejected(&Error::NotFound("website"));
        metrics.batch_committed(3, Duration::from_millis(4), Duration::from_millis(2));
        let live = metrics.live_client();
        metrics.retention_deleted("pageviews", 7);
        let jobs = crate::privacy::DeletionJobsSummary { pending: 2, running: 1, failing: 1, oldest_seconds: 42 };
        metrics.deletion_jobs(jobs);
        let text = metrics.render();
        for line in [
            "tracker_hits_accepted_total 1",
            "tracker_hits_rejected_total{reason=\"busy\"} 1",
            "tracker_hits_rejected_total{reason=\"unknown_site\"} 1",
            "tracker_hits_rejected_total{reason=\"invalid\"} 0",
            "tracker_ingest_queue_capacity 100",
            "tracker_ingest_batch_size_count 1",
            "tracker_ingest_fsync_seconds_sum 0.002",
            "tracker_live_clients 1",
            "tracker_database_bytes 4096",
            "tracker_wal_bytes 0",
            "tracker_retention_deleted_total{data=\"pageviews\"} 7",
            "tracker_deletion_jobs 2",
            "tracker_deletion_jobs_running 1",
            "tracker_deletion_jobs_failing 1",
            "tracker_deletion_job_oldest_seconds 42",
        ] {
            assert!(text.lines().any(|l| l == line), "no line {line:?} in\n{text}");
        }
        drop(live);
        assert!(metrics.render().lines().any(|l| l == "tracker_live_clients 0"));
    }
}
