//! The deletions still under way in the background (cluster mode's deletion jobs: sites and accounts,
//! `cluster::deletion_jobs`; privacy deletions and visitor erasure, `cluster::privacy_jobs`), as
//! `/metrics` and `tracker privacy jobs` show them. SQLite's deletions finish in their request and leave none.

use serde::Serialize;

use crate::model::{Millis, WebsiteId};

/// A deletion of events not finished yet: waiting, being worked on, or failed and waiting to retry.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct DeletionJob {
    pub id: i64,
    /// The sites whose events go (for a site's or an account's deletion, their metadata is gone already).
    pub website_ids: Vec<WebsiteId>,
    /// What goes, in words: every event of the sites, a data type (before a time), or a visitor's visits.
    pub deletes: String,
    pub created_at: Millis,
    /// Attempts started so far (one being worked on counts).
    pub attempts: i32,
    /// Why the last attempt failed, while the job waits to retry.
    pub last_error: Option<String>,
    /// A daemon holds its lease and is working on it now.
    pub running: bool,
    /// When it may be claimed next.
    pub run_after: Millis,
}

/// What `/metrics` reports of the jobs.
#[derive(Debug, Default, Clone, Copy, PartialEq, Eq)]
pub struct DeletionJobsSummary {
    pub pending: usize,
    pub running: usize,
    /// Jobs whose last attempt failed (retried with backoff).
    pub failing: usize,
    /// Age of the oldest job in seconds, 0 when there is none.
    pub oldest_seconds: i64,
}

impl DeletionJobsSummary {
    /// The summary of `jobs` at `now`.
    pub fn of(jobs: &[DeletionJob], now: Millis) -> DeletionJobsSummary {
        DeletionJobsSummary {
            pending: jobs.len(),
            running: jobs.iter().filter(|j| j.running).count(),
            failing: jobs.iter().filter(|j| j.last_error.is_some()).count(),
            oldest_seconds: jobs.iter().map(|j| (now - j.created_at).max(0) / 1000).max().unwrap_or(0),
        }
    }
}
