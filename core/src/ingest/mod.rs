//! Ingest: validates and enriches tracking hits, then hands them to the one batching writer.

pub mod compat;
pub mod enrich;
pub(crate) mod hit;
pub mod interactions;
pub mod live;
pub mod replay;
pub mod sources;
pub(crate) mod writer;

use std::collections::HashMap;
use std::net::IpAddr;
use std::sync::mpsc::{SyncSender, TrySendError};
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use sha2::{Digest, Sha256};
use tokio::sync::oneshot;

use crate::db::Db;
use crate::error::{Error, Result};
use crate::metrics::Metrics;
use crate::model::{Millis, TrackingLevel, Website, now_ms};
use crate::privacy::{ConsentRecord, Privacy};
use crate::store::websites::{Websites, url_on_domain};

pub use enrich::Enricher;
pub use hit::{EventKind, Hit, TrackRequest, Utm, anonymize_ip};
pub use interactions::{Interactions, InteractionsRequest};
pub use live::LiveHub;
pub use replay::{ReplayChunk, ReplayUpload};
pub(crate) use writer::{Job, JobError, WriterHandle};

/// Who sent a hit, as the transport saw it. The IP is used for enrichment and hashing, never stored raw.
#[derive(Debug, Clone)]
pub struct Client {
    pub ip: IpAddr,
    pub user_agent: String,
    /// Do-Not-Track or Global Privacy Control was sent.
    pub do_not_track: bool,
}

/// What became of a submitted hit.
pub enum Submitted {
    /// Queued; resolves once the batch holding it is committed.
    Queued(Commit),
    /// Accepted but deliberately not stored (a bot, or data the site does not allow).
    Ignored,
}

/// Resolves when the writer has committed (or failed to commit) the batch holding a job.
/// A job can also be refused on its own (e.g. `TooLarge` past a recording's cap).
pub struct Commit(oneshot::Receiver<std::result::Result<(), JobError>>);

impl Commit {
    /// Waits for the commit from async code.
    pub async fn wait(self) -> Result<()> {
        outcome(self.0.await)
    }

    /// Waits for the commit from blocking code (the CLI).
    pub fn wait_blocking(self) -> Result<()> {
        outcome(self.0.blocking_recv())
    }
}

/// A job's answer from the writer as the caller's result.
#[cfg(test)]
pub(crate) fn outcome_of(answer: std::result::Result<(), JobError>) -> Result<()> {
    outcome(Ok(answer))
}

fn outcome(received: std::result::Result<std::result::Result<(), JobError>, oneshot::error::RecvError>) -> Result<()> {
    match received {
        Ok(Ok(())) => Ok(()),
        Ok(Err(JobError::SiteGone)) => Err(Error::NotFound("website")),
        Ok(Err(JobError::Refused(e))) => Err(e),
        Ok(Err(JobError::Busy)) => Err(Error::Busy),
        Ok(Err(JobError::Unavailable(message))) => Err(Error::Unavailable(message)),
        Ok(Err(JobError::Failed(message))) => Err(Error::Internal(message)),
        Err(_) => Err(Error::Internal("ingest writer stopped".into())),
    }
}

/// Websites by tracking key with when they were read (`None`: no such key), valid for one generation of
/// website changes in this process.
#[derive(Default)]
struct SiteCache {
    generation: u64,
    sites: HashMap<String, (Instant, Option<Website>)>,
}

impl SiteCache {
    /// The cached lookup of a tracking key if still trusted (`Some(None)`: known not to exist). A change to
    /// the websites (a new `generation`) empties the cache first.
    fn fresh(&mut self, generation: u64, tracking_key: &str) -> Option<&Option<Website>> {
        if self.generation != generation {
            self.sites.clear();
            self.generation = generation;
        }
        self.sites.get(tracking_key).filter(|(at, _)| at.elapsed() < SITE_CACHE_TTL).map(|(_, site)| site)
    }
}

/// How long a website looked up by tracking key is trusted before it is read again.
const SITE_CACHE_TTL: Duration = Duration::from_secs(5);

/// The ingest service: validation, enrichment, the site cache and the queue into the writer.
#[derive(Clone)]
pub struct Ingest {
    websites: Websites,
    privacy: Privacy,
    enricher: Arc<Enricher>,
    queue: SyncSender<writer::Queued>,
    sites: Arc<Mutex<SiteCache>>,
    metrics: Metrics,
    writer: Arc<WriterHandle>,
    /// The other tools' protocols: how their visits are named, their sites by domain (`compat`).
    compat: Arc<compat::CompatState>,
}

impl Ingest {
    pub(crate) fn start(
        db: &Db,
        websites: Websites,
        privacy: Privacy,
        live: LiveHub,
        metrics: Metrics,
        config: &crate::Config,
    ) -> Result<Ingest> {
        let enricher = Arc::new(Enricher::with_city_db(config.geo_city_db.as_deref())?);
        let (queue, batch) = (config.ingest_queue.max(1), config.ingest_batch.max(1));
        let (queue, handle) = writer::spawn(db.connect()?, live, metrics.clone(), queue, batch)?;
        Ok(Ingest::around(queue, handle, enricher, websites, privacy, metrics))
    }

    /// The ingest service over another store's sink (cluster mode: ClickHouse): the same queue, batching and
    /// 503-on-failure promise as SQLite's writer, with `sink` committing each batch.
    pub(crate) fn start_with_sink(
        sink: impl writer::EventSink,
        websites: Websites,
        privacy: Privacy,
        metrics: Metrics,
        config: &crate::Config,
    ) -> Result<Ingest> {
        let enricher = Arc::new(Enricher::with_city_db(config.geo_city_db.as_deref())?);
        let (queue, batch) = (config.ingest_queue.max(1), config.ingest_batch.max(1));
        let (queue, handle) = writer::spawn_sink(sink, metrics.clone(), queue, batch)?;
        Ok(Ingest::around(queue, handle, enricher, websites, privacy, metrics))
    }

    /// The service around a started writer, whichever store it commits to.
    fn around(
        queue: SyncSender<writer::Queued>,
        handle: writer::WriterHandle,
        enricher: Arc<Enricher>,
        websites: Websites,
        privacy: Privacy,
        metrics: Metrics,
    ) -> Ingest {
        Ingest {
            websites,
            privacy,
            enricher,
            queue,
            sites: Default::default(),
            metrics,
            writer: Arc::new(handle),
            compat: Arc::new(compat::CompatState::random()),
        }
    }

    /// Names the other tools' visits with a secret every daemon holding `key` (the cluster's visitor-salt key)
    /// derives alike, so a visitor's hits to any daemon make one visit.
    pub(crate) fn naming_visits_with(self, key: &[u8]) -> Ingest {
        Ingest { compat: Arc::new(compat::CompatState::shared(key)), ..self }
    }

    /// Whether the writer thread is still running (it stops only when every handle is gone, or on a panic).
    pub fn writer_alive(&self) -> bool {
        self.writer.is_alive()
    }

    /// The enrichment tables (UA, geo, organizations), for callers that need lookups outside ingest.
    pub fn enricher(&self) -> &Enricher {
        &self.enricher
    }

    /// Validates, enriches and queues a hit from `POST /api/track`. Bots, Do-Not-Track browsers (where the
    /// site respects it) and data the site's level does not allow are accepted and dropped (`Ignored`).
    pub fn track(&self, request: TrackRequest, client: &Client) -> Result<Submitted> {
        let rules = self.rules(&request.tracking_key)?;
        self.track_under(&rules, request, client)
    }

    /// `track` under rules already looked up (from memory on an async thread: see `cached_rules`).
    pub fn track_under(&self, rules: &SiteRules, request: TrackRequest, client: &Client) -> Result<Submitted> {
        let site = &rules.site;
        if self.enricher.is_bot(&client.user_agent) {
            return Ok(Submitted::Ignored);
        }
        let hit = Hit::from_request(request, site, now_ms())?;
        if hit.kind() == EventKind::Identify && site.tracking_level < TrackingLevel::Professional {
            return Ok(Submitted::Ignored);
        }
        let Some(hit) = self.admit(rules, hit, client)? else {
            return Ok(Submitted::Ignored);
        };
        if let Some(data) = hit.consent {
            return self.submit_job(Job::Consent(Box::new(ConsentRecord {
                website_id: hit.website_id,
                session_key: hit.session_key,
                ts: hit.ts,
                ip_address: hit.ip_address,
                data,
            })));
        }
        self.submit(hit)
    }

    /// Validates and queues the heatmap data of `POST /api/interactions` (enhanced and professional sites).
    pub fn interactions(&self, request: InteractionsRequest, client: &Client) -> Result<Submitted> {
        let rules = self.rules(&request.tracking_key)?;
        self.interactions_under(&rules, request, client)
    }

    /// `interactions` under rules already looked up (see `cached_rules`).
    pub fn interactions_under(
        &self,
        rules: &SiteRules,
        request: InteractionsRequest,
        client: &Client,
    ) -> Result<Submitted> {
        let site = &rules.site;
        if self.enricher.is_bot(&client.user_agent) {
            return Ok(Submitted::Ignored);
        }
        let mut interactions = Interactions::from_request(request, site, now_ms())?;
        if site.tracking_level < TrackingLevel::Enhanced || interactions.is_empty() {
            return Ok(Submitted::Ignored);
        }
        let Some(visit) = self.admit(rules, interactions.visit, client)? else {
            return Ok(Submitted::Ignored);
        };
        interactions.visit = visit;
        self.submit_job(Job::Interactions(Box::new(interactions)))
    }

    /// Validates and queues a recording chunk of `POST /api/replay` (enhanced and professional sites).
    pub fn replay(&self, upload: ReplayUpload, client: &Client) -> Result<Submitted> {
        let rules = self.rules(&upload.tracking_key)?;
        let site = &rules.site;
        if self.enricher.is_bot(&client.user_agent) {
            return Ok(Submitted::Ignored);
        }
        let mut chunk = ReplayChunk::from_upload(upload, site, now_ms())?;
        if site.tracking_level < TrackingLevel::Enhanced {
            return Ok(Submitted::Ignored);
        }
        let Some(visit) = self.admit(&rules, chunk.visit, client)? else {
            return Ok(Submitted::Ignored);
        };
        chunk.visit = visit;
        self.submit_job(Job::Replay(Box::new(chunk)))
    }

    /// Applies the site's privacy settings to a validated visit: `None` when Do-Not-Track must be honoured;
    /// otherwise enriched, marked for the consent check, with its organization on professional sites.
    fn admit(&self, rules: &SiteRules, hit: Hit, client: &Client) -> Result<Option<Hit>> {
        let SiteRules { site, privacy } = rules;
        if site.domain_only && !url_on_domain(&hit.url, &site.domain) {
            return Err(Error::Forbidden("this website accepts data only from pages on its own domain".into()));
        }
        if privacy.respect_do_not_track && client.do_not_track {
            return Ok(None);
        }
        let mut hit = self.enrich(hit, client);
        // anonymizeIPs (on by default) keeps the address with its last octet / 80 bits zeroed; an owner who
        // turns it off keeps the full address of visits (and consent choices) from then on.
        if !privacy.anonymize_ips {
            hit.ip_address = Some(client.ip.to_string());
        }
        hit.consent_required = privacy.cookie_consent;
        if site.tracking_level == TrackingLevel::Professional {
            hit.organization = self.enricher.organization(client.ip).filter(|org| !org.is_isp);
        }
        Ok(Some(hit))
    }

    /// Queues an already built hit (the CLI's demo traffic goes through here with its own timestamps).
    pub fn track_hit(&self, hit: Hit, client: &Client) -> Result<Submitted> {
        if self.enricher.is_bot(&client.user_agent) {
            return Ok(Submitted::Ignored);
        }
        self.submit(self.enrich(hit, client))
    }

    /// Queues heatmap data validated at the caller's own clock (the CLI's demo); the caller checks the site's
    /// level, as `interactions` does for a script's body.
    pub fn track_interactions(&self, mut interactions: Interactions, client: &Client) -> Result<Submitted> {
        if self.enricher.is_bot(&client.user_agent) || interactions.is_empty() {
            return Ok(Submitted::Ignored);
        }
        interactions.visit = self.enrich(interactions.visit, client);
        self.submit_job(Job::Interactions(Box::new(interactions)))
    }

    /// Queues a recording chunk validated at the caller's own clock (the CLI's demo); the caller checks the
    /// site's level, as `replay` does for a script's upload.
    pub fn track_replay(&self, mut chunk: ReplayChunk, client: &Client) -> Result<Submitted> {
        if self.enricher.is_bot(&client.user_agent) {
            return Ok(Submitted::Ignored);
        }
        chunk.visit = self.enrich(chunk.visit, client);
        self.submit_job(Job::Replay(Box::new(chunk)))
    }

    /// The rules for a tracking key from memory alone: `None` when the site or its settings must be read from
    /// the database. A caller holding them may take the hit on an async thread, as nothing after this lookup
    /// reads the database (a second look at the caches could miss: they expire, and another daemon's change
    /// empties them).
    pub fn cached_rules(&self, tracking_key: &str) -> Option<Result<SiteRules>> {
        let site = {
            let mut cache = self.sites.lock().unwrap_or_else(|e| e.into_inner());
            match cache.fresh(self.websites.generation(), tracking_key)? {
                Some(site) => site.clone(),
                None => return Some(Err(Error::NotFound("website"))),
            }
        };
        let privacy = self.privacy.cached_only(site.id)?;
        Some(Ok(SiteRules { site, privacy }))
    }

    /// The rules for a tracking key through the caches, reading the database on a miss (a blocking thread).
    pub fn rules(&self, tracking_key: &str) -> Result<SiteRules> {
        let site = self.site(tracking_key)?;
        let privacy = self.privacy.cached_settings(site.id)?;
        Ok(SiteRules { site, privacy })
    }

    /// The website behind a tracking key, from a short-lived cache.
    pub fn site(&self, tracking_key: &str) -> Result<Website> {
        // No key holds anything but these (and PostgreSQL refuses some others, U+0000, outright).
        let key_chars = tracking_key.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if tracking_key.is_empty() || tracking_key.len() > 64 || !key_chars {
            return Err(Error::NotFound("website"));
        }
        let mut cache = self.sites.lock().unwrap_or_else(|e| e.into_inner());
        if let Some(site) = cache.fresh(self.websites.generation(), tracking_key) {
            return site.clone().ok_or(Error::NotFound("website"));
        }
        let sites = &mut cache.sites;
        let site = match self.websites.by_tracking_key(tracking_key) {
            Ok(site) => Some(site),
            Err(Error::NotFound(_)) => None,
            Err(e) => return Err(e),
        };
        if sites.len() > 10_000 {
            sites.clear();
        }
        sites.insert(tracking_key.to_string(), (Instant::now(), site.clone()));
        site.ok_or(Error::NotFound("website"))
    }

    /// Adds browser, OS, device, location and the visitor seed; drops the raw IP.
    fn enrich(&self, mut hit: Hit, client: &Client) -> Hit {
        let ua = self.enricher.user_agent(&client.user_agent);
        hit.browser = ua.browser.clone();
        hit.browser_version = ua.browser_version.clone();
        hit.os = ua.os.clone();
        hit.os_version = ua.os_version.clone();
        hit.device = ua.device.clone();
        let location = self.enricher.locate(client.ip);
        // A pre-built hit may carry its location (demo traffic); a found location always wins.
        if !location.country.is_empty() || hit.country.is_empty() {
            hit.country = location.country;
            hit.region = location.region;
            hit.city = location.city;
        }
        hit.ip_address = Some(anonymize_ip(client.ip).to_string());
        hit.visitor_seed = visitor_seed(client);
        hit
    }

    /// Puts a job on the writer's queue; a full queue is `Busy` (503 + Retry-After).
    pub(crate) fn submit_job(&self, job: Job) -> Result<Submitted> {
        let (done, commit) = oneshot::channel();
        // Counted before it is sent: the writer may take it off the queue before try_send returns.
        self.metrics.queue_moved(1);
        let sent = self.queue.try_send(writer::Queued { job, done });
        if sent.is_err() {
            self.metrics.queue_moved(-1);
        }
        match sent {
            Ok(()) => Ok(Submitted::Queued(Commit(commit))),
            Err(TrySendError::Full(_)) => Err(Error::Busy),
            Err(TrySendError::Disconnected(_)) => Err(Error::Internal("ingest writer stopped".into())),
        }
    }

    fn submit(&self, hit: Hit) -> Result<Submitted> {
        self.submit_job(Job::Hit(Box::new(hit)))
    }
}

/// What ingest applies to a site's hits: the site behind a tracking key and its privacy settings, looked up
/// once per request.
#[derive(Debug, Clone)]
pub struct SiteRules {
    pub site: Website,
    privacy: crate::privacy::PrivacySettings,
}

/// A per-visitor seed from address and user agent; mixed with the daily salt by the writer.
fn visitor_seed(client: &Client) -> [u8; 32] {
    let mut hasher = Sha256::new();
    hasher.update(client.ip.to_string().as_bytes());
    hasher.update([0]);
    hasher.update(client.user_agent.as_bytes());
    hasher.finalize().into()
}

/// Clamps a client-supplied timestamp: trusted within the last day (queued offline hits), else `now`.
pub fn accept_timestamp(client_ts: Option<Millis>, now: Millis) -> Millis {
    match client_ts {
        Some(ts) if ts <= now + 60_000 && ts >= now - 86_400_000 => ts.min(now),
        _ => now,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::store::websites::NewWebsite;

    /// Shutting down with hits still queued commits every one of them and answers each with success.
    #[test]
    fn hits_queued_at_shutdown_are_stored_and_acknowledged() {
        let dir = tempfile::tempdir().unwrap();
        let config = crate::Config { data_dir: dir.path().to_path_buf(), ..crate::Config::default() };
        let tracker = crate::Tracker::open(&config).unwrap();
        let user = tracker.auth.create_user("shutdown@example.com", "a long enough password").unwrap();
        let new = NewWebsite { name: "S".into(), domain: "s.example.com".into(), tracking_level: None };
        let site = tracker.websites.create(user.id, new).unwrap();
        let client =
            Client { ip: "203.0.113.9".parse().unwrap(), user_agent: "Mozilla/5.0".into(), do_not_track: false };
        let commits: Vec<Commit> = (0..3_000)
            .map(|i| {
                let request = TrackRequest {
                    tracking_key: site.tracking_key.clone(),
                    session_id: format!("session-{:04}", i / 3),
                    url: format!("https://s.example.com/p{}", i % 7),
                    ..Default::default()
                };
                let hit = Hit::from_request(request, &site, crate::model::now_ms()).unwrap();
                match tracker.ingest.track_hit(hit, &client).unwrap() {
                    Submitted::Queued(commit) => commit,
                    Submitted::Ignored => panic!("hit {i} ignored"),
                }
            })
            .collect();
        drop(tracker);
        for (i, commit) in commits.into_iter().enumerate() {
            commit.wait_blocking().unwrap_or_else(|e| panic!("hit {i}: {e}"));
        }
        let db = crate::db::Db::open(&dir.path().join("tracker.db")).unwrap();
        let stored: i64 = db.read(|c| Ok(c.query_row("SELECT COUNT(*) FROM events", [], |r| r.get(0))?)).unwrap();
        assert_eq!(stored, 3_000);
    }
}
