//! `Tracker`: the one door into the domain, opened from a `Config` by the daemon and the CLI alike.

use std::net::IpAddr;
use std::ops::Deref;
use std::sync::Arc;

use crate::account::Account;
use crate::analytics::journeys::{CustomerJourneys, JourneyFilter, JourneyPaths};
use crate::analytics::{Analytics, OrganizationSummary, TimeRange};
use crate::auth::{self, Auth};
use crate::cluster::deletion_jobs;
use crate::cluster::ingest_state::IngestState;
use crate::cluster::notices::Listener;
use crate::cluster::pg::Pg;
use crate::cluster::sink::ClickHouseSink;
use crate::cluster::{Cluster, ClusterKeys};
use crate::config::Config;
use crate::db::{self, Db};
use crate::email::Email;
use crate::error::{Error, Result};
use crate::events::{ClickHouseEvents, Events, Filters, SqliteEvents};
use crate::import::Imports;
use crate::ingest::{Ingest, LiveHub};
use crate::metrics::Metrics;
use crate::model::{Caller, Millis, Role, UserId, WebsiteId};
use crate::privacy::{DeletionJobsSummary, Privacy};
use crate::settings::Settings;
use crate::store::annotations::Annotations;
use crate::store::event_definitions::EventDefinitions;
use crate::store::funnels::Funnels;
use crate::store::members::Members;
use crate::store::organizations::{OrganizationUpdate, Organizations};
use crate::store::segments::Segments;
use crate::store::shared_links::SharedLinks;
use crate::store::websites::Websites;

/// An open tracker instance: storage plus one service per aggregate, behind one reference count.
///
/// Cloning is one atomic increment: warp clones its filters, and the Tracker each filter holds, on every
/// request (an `or` keeps a copy of its second branch), so a clone of every service would cost a dozen
/// contended atomics per route per request.
#[derive(Clone)]
pub struct Tracker {
    services: Arc<Services>,
}

/// The services of a tracker, reached through `Tracker` (`tracker.ingest`, `tracker.analytics`, ...).
pub struct Services {
    pub settings: Settings,
    pub auth: Auth,
    pub account: Account,
    pub websites: Websites,
    pub ingest: Ingest,
    /// Every read, export, erasure and upkeep step over tracked events, on the engine `Tracker::open` chose:
    /// SQLite in the data folder, or the cluster's ClickHouse. Nothing else names an engine.
    pub events: Events,
    /// Privacy settings, consent and audit logs (a visitor's data and erasure go through `events`).
    pub privacy: Privacy,
    pub definitions: EventDefinitions,
    /// Dated notes on a site's chart (issue 37).
    pub annotations: Annotations,
    /// A site's saved filter sets (issue 36).
    pub segments: Segments,
    pub organizations: Organizations,
    pub funnels: Funnels,
    /// A site's members and invitations (issue 37).
    pub members: Members,
    /// Share links of sites and their sessions (issue 37).
    pub shared_links: SharedLinks,
    pub imports: Imports,
    pub live: LiveHub,
    pub email: Email,
    pub metrics: Metrics,
    /// SQLite's read services over the data folder, kept for the core tests that compare the two engines.
    #[cfg_attr(not(test), allow(dead_code))]
    analytics: Analytics,
    db: Db,
    /// In cluster mode, this daemon's listener of the other daemons' notices.
    _notices: Option<Listener>,
    /// In cluster mode, this daemon's runner of the deletion jobs any daemon left.
    _deletions: Option<deletion_jobs::Worker>,
}

impl Tracker {
    /// Creates the data folder if needed (owner-only, as its files), opens and migrates the database, loads the
    /// signing secret and starts the ingest writer. With `postgres_url` and `clickhouse_url` set (cluster mode),
    /// metadata lives in PostgreSQL and hits go to ClickHouse; the signing secret and the visitor-salt key then
    /// come from configuration only (the same on every daemon), never from a database.
    pub fn open(config: &Config) -> Result<Tracker> {
        let cluster_config = crate::cluster::ClusterConfig::of(config)?;
        // Before anything is made or connected: a cluster daemon without its keys says which to set.
        let cluster_keys = cluster_config.as_ref().map(|_| ClusterKeys::of(config)).transpose()?;
        db::secure_folder(&config.data_dir)?;
        // In cluster mode this is a transitional database of this daemon's own that no shared data reaches:
        // events go through the ClickHouse engine and metadata to PostgreSQL (imports stage their files here).
        let db = Db::open(&config.database_path())?;
        let settings = Settings::new(config.clone());
        let live = LiveHub::default();
        let metrics = Metrics::new(db.path(), config.ingest_queue.max(1));
        let (meta, secret, cluster) = match (&cluster_config, &cluster_keys) {
            (Some(cluster_config), Some(keys)) => {
                let cluster = Cluster::open(cluster_config)?;
                let meta = crate::store::meta::postgres(cluster.pg.clone());
                (meta, keys.signing_secret.clone(), Some(cluster))
            }
            _ => {
                let secret = auth::load_or_create_secret(config.signing_secret()?, &config.data_dir)?;
                // Created 0600; one made by hand or copied in may not be.
                db::secure_file(&config.data_dir.join("secret.key"))?;
                (crate::store::meta::sqlite(db.clone()), secret, None)
            }
        };
        let privacy = Privacy::new(db.clone(), meta.clone());
        let websites = Websites::new(meta.clone()).limited_by(settings.clone());
        let ingest = match (&cluster_config, &cluster_keys) {
            (Some(cluster_config), Some(keys)) => {
                // The writer's own pool and shard clients: a batch's upsert and inserts never wait for a read.
                let sink = ClickHouseSink::new(
                    crate::cluster::open_events(cluster_config)?,
                    IngestState::new(Pg::open(&cluster_config.postgres_url)?, &keys.visitor_salt_key),
                    meta.clone(),
                    live.clone(),
                    metrics.clone(),
                );
                Ingest::start_with_sink(sink, websites.clone(), privacy.clone(), metrics.clone(), config)?
                    .naming_visits_with(&keys.visitor_salt_key)
            }
            _ => Ingest::start(&db, websites.clone(), privacy.clone(), live.clone(), metrics.clone(), config)?,
        };
        let notices = match &cluster {
            Some(cluster) => Some(listen_to_other_daemons(cluster, &live, &websites, &privacy)?),
            None => None,
        };
        let deletions = cluster.as_ref().map(|cluster| deletion_jobs::start(cluster.clone())).transpose()?;
        let analytics = Analytics::new(db.clone());
        // The one choice of engine: every event read, export and erasure below goes through `events`.
        let events: Events = match &cluster {
            Some(cluster) => Arc::new(ClickHouseEvents::new(cluster.clone(), meta.clone(), privacy.clone())),
            None => Arc::new(SqliteEvents::new(db.clone(), meta.clone(), analytics.clone(), privacy.clone())),
        };
        let auth = Auth::new(meta.clone(), &secret, settings.clone(), cluster.as_ref().map(|c| c.pg.clone()));
        let services = Services {
            shared_links: SharedLinks::new(meta.clone(), auth.clone(), &secret),
            auth,
            account: Account::new(meta.clone(), settings.clone()),
            email: Email::new(meta.clone(), settings.clone(), events.clone()),
            funnels: Funnels::new(meta.clone(), events.clone(), websites.clone()),
            members: Members::new(meta.clone(), websites.clone(), settings.clone()),
            imports: Imports::new(events.clone(), websites.clone()),
            events,
            analytics,
            privacy,
            definitions: EventDefinitions::new(meta.clone()),
            annotations: Annotations::new(meta.clone()),
            segments: Segments::new(meta.clone()),
            organizations: Organizations::new(meta.clone()),
            settings,
            websites,
            ingest,
            live,
            metrics,
            db,
            _notices: notices,
            _deletions: deletions,
        };
        services.auth.seal_plain_secrets()?;
        services.shared_links.seal_plain_slugs()?;
        Ok(Tracker { services: Arc::new(services) })
    }

    /// The sites the user may read (its own and those it is a member of), or the one named (a site it has no
    /// role on is not found).
    fn sites_of(&self, user: UserId, site: Option<WebsiteId>) -> Result<Vec<WebsiteId>> {
        Ok(match site {
            Some(site) => vec![self.websites.get(user, site)?.id],
            None => self.websites.visible(user)?.into_iter().map(|(w, _)| w.id).collect(),
        })
    }

    /// The most common paths through the user's sites, or through one of them (another user's is not
    /// found), over a range, of the visits `filters` admit.
    pub fn journey_paths(
        &self,
        user: UserId,
        site: Option<WebsiteId>,
        range: TimeRange,
        filters: &Filters,
    ) -> Result<JourneyPaths> {
        self.events.journey_paths(&self.sites_of(user, site)?, range, filters)
    }

    /// The customer journeys of the user's sites, or of one of them (another user's is not found), of the
    /// visits `filters` admit.
    pub fn customer_journeys(
        &self,
        user: UserId,
        site: Option<WebsiteId>,
        range: TimeRange,
        filters: &Filters,
        filter: JourneyFilter,
        now: Millis,
    ) -> Result<CustomerJourneys> {
        self.events.customer_journeys(&self.sites_of(user, site)?, range, filters, filter, now)
    }

    /// The site of one of `user`'s visits; `NotFound` for a missing visit and for another user's alike.
    pub fn session_site(&self, user: UserId, session: i64) -> Result<WebsiteId> {
        self.events.session_site(&self.sites_of(user, None)?, session)
    }

    /// Sets what the owner knows of one organization of a site (`NotFound` for another site's) and answers it
    /// as the list shows it.
    pub fn update_organization(
        &self,
        site: WebsiteId,
        id: i64,
        changes: OrganizationUpdate,
    ) -> Result<OrganizationSummary> {
        let known = self.organizations.update(site, id, changes)?;
        self.events.organization(site, known)
    }

    /// Deletes a site with all its data: its events first (in cluster mode a job that any daemon runs on every
    /// shard shortly after, retried until done), then its metadata, so a failure on the way leaves the site
    /// listed and the deletion can be retried. `NotFound` for a site the caller has no role on, `Forbidden`
    /// below its owner, before anything is deleted.
    pub fn delete_website(&self, caller: UserId, id: WebsiteId) -> Result<()> {
        let site = self.websites.get(Caller::new(caller, Role::Owner), id)?;
        self.events.delete_sites(&[id])?;
        self.websites.delete(site.user_id, id)
    }

    /// Applies changes to a website the caller may change (`Websites::update`); a new timezone has the events
    /// store key the site's aggregates by it at once (`Upkeep::timezone_changed`: on SQLite every rollup of the
    /// site counted again in its local days and hours).
    pub fn update_website(
        &self,
        caller: impl Into<Caller>,
        id: WebsiteId,
        changes: crate::store::websites::WebsiteChanges,
    ) -> Result<crate::model::Website> {
        let caller = caller.into();
        let before = self.websites.get(caller, id)?.timezone;
        let site = self.websites.update(caller, id, changes)?;
        if site.timezone != before {
            self.events.timezone_changed(id)?;
        }
        Ok(site)
    }

    /// Deletes an account with its websites and all their data after checking its password (the sites'
    /// events go first, as in [`Tracker::delete_website`]).
    pub fn delete_account(&self, user: UserId, password: &str, client: IpAddr) -> Result<()> {
        self.auth.check_password(user, password, client)?;
        self.remove_user(user)
    }

    /// Deletes an account with its websites and all their data, without a password (the operator's
    /// `tracker users rm`).
    pub fn remove_user(&self, user: UserId) -> Result<()> {
        // Its own sites only: those it is a member of stay with their owners (the membership goes by cascade).
        let own: Vec<WebsiteId> = self.websites.list(user)?.into_iter().map(|w| w.id).collect();
        self.events.delete_sites(&own)?;
        self.auth.remove_user(user)
    }

    /// Whether this instance can take hits: the ingest writer runs, its queue is below its limit and the events
    /// store can be written (SQLite's write lock within 2 seconds; in cluster mode PostgreSQL and every
    /// ClickHouse shard answer). `Unavailable` says which is not so.
    pub fn ready(&self) -> Result<()> {
        if !self.ingest.writer_alive() {
            return Err(Error::Unavailable("the ingest writer has stopped".into()));
        }
        if self.metrics.queue_depth() >= self.metrics.queue_capacity() {
            return Err(Error::Unavailable("the ingest queue is full".into()));
        }
        self.events.ready()
    }

    /// The metrics in Prometheus' text format, with the deletion jobs under way read at the time (left as
    /// last read when the store does not answer: the scrape still answers).
    pub fn render_metrics(&self) -> String {
        match self.events.deletion_jobs() {
            Ok(jobs) => self.metrics.deletion_jobs(DeletionJobsSummary::of(&jobs, crate::model::now_ms())),
            Err(e) => tracing::warn!(error = %e, "could not read the deletion jobs for the metrics"),
        }
        self.metrics.render()
    }

    /// Writes a consistent copy of the database to `dest` while ingest goes on (see [`db::backup::backup`]).
    pub fn backup(&self, dest: &std::path::Path) -> Result<db::backup::BackupInfo> {
        db::backup::backup(&self.services.db, dest)
    }

    /// The data folder's database (the metadata and events of single-machine mode), for the operator's
    /// `migrate --to-cluster` and the core tests.
    pub fn db(&self) -> &Db {
        &self.services.db
    }

    /// SQLite's read services, for the core tests that compare an engine's answers with them.
    #[cfg(test)]
    pub(crate) fn analytics(&self) -> &Analytics {
        &self.services.analytics
    }
}

/// Acts on the other daemons' notices: their stored hits wake this daemon's live streams, and a site changed
/// anywhere leaves this daemon's caches of it. After a lost connection every cached site is read again.
fn listen_to_other_daemons(
    cluster: &Cluster,
    live: &LiveHub,
    websites: &Websites,
    privacy: &Privacy,
) -> Result<Listener> {
    use crate::cluster::notices::{Notice, listen};
    let (live, websites, privacy) = (live.clone(), websites.clone(), privacy.clone());
    listen(&cluster.pg, live.origin(), move |notice| match notice {
        Notice::Hits(sites) => sites.into_iter().for_each(|site| live.publish(site)),
        Notice::SiteChanged(site) => {
            websites.forget_cached();
            privacy.forget_cached(site);
        }
        Notice::Reconnected => {
            websites.forget_cached();
            privacy.forget_all_cached();
        }
    })
}

impl Deref for Tracker {
    type Target = Services;

    fn deref(&self) -> &Services {
        &self.services
    }
}
