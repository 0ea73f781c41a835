//! Privacy deletions (`delete_data`) and visitor erasure (`delete_visitor`) on the cluster without making the
//! request wait for ClickHouse's mutations (issue 39). The request counts what goes, deletes what lives in
//! PostgreSQL, and leaves the rows on the shards to a job of `deletion_jobs` (migration 0240), run at once on a
//! thread of the deleting daemon and, after a failure or a restart, by any daemon's worker as a site's deletion
//! is (`deletion_jobs`). Until the job is done every read of its site waits for it (`Cluster::settle`), so from
//! the answer on no read on any daemon shows the deleted data.
//!
//! Why reads wait rather than leave the pending rows out: every read of the cluster (some ninety statements over
//! hits, visits, heatmap data and rollups) would have to carry the exclusion, and one that did not would show
//! erased data; a check before each read of a site, in the one engine type every read passes through, cannot be
//! forgotten by a read added later. A deletion is rare and its job takes seconds; reads of other sites never wait.
//! A read of several sites at once (the Websites list, live visitors and paths over all of a user's sites) leaves
//! out the sites whose job is pending instead (`settled_of`): one site's deletion must not hold up, or answer 503
//! to, the figures of all the others, and a site left out shows none of its data, deleted or not, until its job
//! is done.

use std::time::{Duration, Instant};

use super::Cluster;
use crate::error::{Error, Result};
use crate::model::{Millis, WebsiteId, iso};
use crate::privacy::DataType;

/// How long a read waits for a deletion of its site's data before it answers 503 (try again).
const SETTLE_WAIT: Duration = Duration::from_secs(30);

/// How often a waiting read looks again.
const SETTLE_POLL: Duration = Duration::from_millis(50);

/// What a deletion job removes from the shards.
#[derive(Debug, Clone, PartialEq)]
pub(super) enum Work {
    /// Every row of the sites, rollups included (their metadata is gone already).
    Sites(Vec<WebsiteId>),
    /// A site's data of one type, rows before `before` (`None`: everything of the site), the rollups of the
    /// hours of `span` rebuilt after.
    Data { site: WebsiteId, data: DataType, before: Option<Millis>, span: Option<(Millis, Millis)> },
    /// One visitor's visits of a site with their heatmap data, the rollups of `span` rebuilt after.
    Visits { site: WebsiteId, visit_ids: Vec<i64>, span: Option<(Millis, Millis)> },
}

/// The columns of `deletion_jobs` that say what a job deletes, in the order `Work::from_row` reads them.
pub(super) const WORK_COLUMNS: &str = "website_ids, what, data_type, before_ms, visit_ids, span_from, span_to";

impl Work {
    /// The job's work from its row, read from `WORK_COLUMNS` at `at`.
    pub(super) fn from_row(row: &postgres::Row, at: usize) -> Result<Work> {
        let sites: Vec<WebsiteId> = row.get(at);
        let what: String = row.get(at + 1);
        let span = match (row.get::<_, Option<i64>>(at + 5), row.get::<_, Option<i64>>(at + 6)) {
            (Some(from), Some(to)) => Some((from, to)),
            _ => None,
        };
        let site = || sites.first().copied().ok_or_else(|| Error::Internal("a deletion job without its site".into()));
        Ok(match what.as_str() {
            "sites" => Work::Sites(sites.clone()),
            "data" => Work::Data {
                site: site()?,
                data: DataType::parse(&row.get::<_, Option<String>>(at + 2).unwrap_or_default())?,
                before: row.get(at + 3),
                span,
            },
            "visits" => Work::Visits {
                site: site()?,
                visit_ids: row.get::<_, Option<Vec<i64>>>(at + 4).unwrap_or_default(),
                span,
            },
            other => return Err(Error::Internal(format!("a deletion job of unknown kind {other:?}"))),
        })
    }

    /// What the job deletes, in words (`tracker privacy jobs`).
    pub(super) fn describe(&self) -> String {
        match self {
            Work::Sites(_) => "every event of the sites".into(),
            Work::Data { data, before: None, .. } => format!("{} (all)", data.as_str()),
            Work::Data { data, before: Some(before), .. } => format!("{} before {}", data.as_str(), iso(*before)),
            Work::Visits { visit_ids, .. } => format!("a visitor's {} visits", visit_ids.len()),
        }
    }

    /// The job's sites.
    pub(super) fn sites(&self) -> Vec<WebsiteId> {
        match self {
            Work::Sites(sites) => sites.clone(),
            Work::Data { site, .. } | Work::Visits { site, .. } => vec![*site],
        }
    }
}

impl Cluster {
    /// Leaves a site's privacy deletion to a job, due at once, and starts it on a thread of this daemon (the
    /// workers retry it if that attempt fails or the daemon stops).
    pub(super) fn enqueue_privacy_deletion(&self, work: &Work) -> Result<()> {
        let (what, data_type, before, visit_ids, span) = match work {
            Work::Sites(_) => return Err(Error::Internal("a site's deletion is not a privacy deletion".into())),
            Work::Data { data, before, span, .. } => ("data", Some(data.as_str()), *before, None, *span),
            Work::Visits { visit_ids, span, .. } => ("visits", None, None, Some(visit_ids.clone()), *span),
        };
        let id: i64 = self.pg.with(|c| {
            Ok(c.query_one(
                "INSERT INTO deletion_jobs (website_ids, what, data_type, before_ms, visit_ids, span_from, span_to)
                 VALUES ($1, $2, $3, $4, $5, $6, $7) RETURNING id",
                &[&work.sites(), &what, &data_type, &before, &visit_ids, &span.map(|s| s.0), &span.map(|s| s.1)],
            )?
            .get(0))
        })?;
        let cluster = self.clone();
        std::thread::Builder::new().name("privacy-deletion".into()).spawn(move || {
            if let Err(e) = cluster.run_deletion_job(id) {
                tracing::warn!(job = id, error = %e, "could not start a privacy deletion; a worker will");
            }
        })?;
        Ok(())
    }

    /// Waits until no privacy deletion of `sites`' data is pending, so a read never shows rows whose deletion
    /// was answered. `Unavailable` (try again) when the job waits for a retry after a failure (a shard down),
    /// or is still running after `SETTLE_WAIT`.
    pub fn settle(&self, sites: &[WebsiteId]) -> Result<()> {
        let deadline = Instant::now() + SETTLE_WAIT;
        loop {
            let pending = self.pg.with(|c| {
                Ok(c.query_opt(
                    "SELECT last_error, coalesce(leased_until > now(), false) FROM deletion_jobs
                     WHERE what <> 'sites' AND website_ids && $1 ORDER BY id LIMIT 1",
                    &[&sites],
                )?
                .map(|row| (row.get::<_, Option<String>>(0), row.get::<_, bool>(1))))
            })?;
            match pending {
                None => return Ok(()),
                Some((Some(error), false)) => {
                    return Err(Error::Unavailable(format!(
                        "a deletion of this site's data waits to be retried ({error}); its data is shown once it is done"
                    )));
                }
                Some(_) if Instant::now() >= deadline => {
                    return Err(Error::Unavailable(
                        "a deletion of this site's data is still running; try again shortly".into(),
                    ));
                }
                Some(_) => std::thread::sleep(SETTLE_POLL),
            }
        }
    }

    /// `sites` without those a privacy deletion is pending for, for a read of several sites at once: it reads
    /// the others at once rather than waiting for (or failing on) one site's job, and leaves the pending sites
    /// out until their jobs are done. A read of one site waits for its job (`settle`) as every other read does.
    pub fn settled_of(&self, sites: &[WebsiteId]) -> Result<Vec<WebsiteId>> {
        if sites.len() < 2 {
            self.settle(sites)?;
            return Ok(sites.to_vec());
        }
        let pending: Vec<WebsiteId> = self.pg.with(|c| {
            Ok(c.query(
                "SELECT DISTINCT site FROM deletion_jobs, unnest(website_ids) AS site
                 WHERE what <> 'sites' AND site = ANY($1)",
                &[&sites],
            )?
            .iter()
            .map(|row| row.get(0))
            .collect())
        })?;
        Ok(sites.iter().copied().filter(|site| !pending.contains(site)).collect())
    }

    /// Does a privacy job's work on every shard (awaited); repeatable after a failure part way.
    pub(super) fn run_privacy_work(&self, work: &Work) -> Result<()> {
        let meta = crate::store::meta::postgres(self.pg.clone());
        match work {
            Work::Sites(_) => Err(Error::Internal("a site's deletion is not a privacy deletion".into())),
            Work::Data { site, data, before, span } => self.erase_data(meta.as_ref(), *site, *data, *before, *span),
            Work::Visits { site, visit_ids, span } => self.erase_visits(*site, visit_ids, *span),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_job_says_what_it_deletes() {
        let data = Work::Data { site: 1, data: DataType::Pageviews, before: Some(0), span: None };
        assert_eq!(data.describe(), "pageviews before 1970-01-01T00:00:00.000Z");
        let visits = Work::Visits { site: 1, visit_ids: vec![4, 5], span: None };
        assert_eq!((visits.describe(), visits.sites()), ("a visitor's 2 visits".to_string(), vec![1]));
    }
}
