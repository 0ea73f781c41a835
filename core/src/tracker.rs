//! `Tracker`: the one door into the domain, opened from a `Config` by the daemon and the CLI alike.

use std::ops::Deref;
use std::sync::Arc;

use crate::account::Account;
use crate::analytics::Analytics;
use crate::auth::{self, Auth};
use crate::config::Config;
use crate::db::{self, Db};
use crate::email::Email;
use crate::error::{Error, Result};
use crate::export::Export;
use crate::import::Imports;
use crate::ingest::{Ingest, LiveHub};
use crate::metrics::Metrics;
use crate::privacy::Privacy;
use crate::settings::Settings;
use crate::store::event_definitions::EventDefinitions;
use crate::store::funnels::Funnels;
use crate::store::organizations::Organizations;
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
    pub analytics: Analytics,
    pub privacy: Privacy,
    pub export: Export,
    pub events: EventDefinitions,
    pub organizations: Organizations,
    pub funnels: Funnels,
    pub imports: Imports,
    pub live: LiveHub,
    pub email: Email,
    pub metrics: Metrics,
    db: Db,
}

impl Tracker {
    /// Creates the data folder if needed (owner-only, as its files), opens and migrates the database, loads the
    /// signing secret and starts the ingest writer.
    pub fn open(config: &Config) -> Result<Tracker> {
        if crate::cluster::ClusterConfig::of(config)?.is_some() {
            // Refused rather than ignored: a daemon that took these settings would write to SQLite while the
            // operator believes the cluster holds the data.
            return Err(Error::invalid(
                "cluster mode (postgres_url, clickhouse_url) is not available in this build yet",
            ));
        }
        db::secure_folder(&config.data_dir)?;
        let db = Db::open(&config.database_path())?;
        let secret = auth::load_or_create_secret(config.jwt_secret.as_deref(), &config.data_dir)?;
        // Created 0600; one made by hand or copied in may not be.
        db::secure_file(&config.data_dir.join("secret.key"))?;
        let settings = Settings::new(config.clone());
        let meta = crate::store::meta::sqlite(db.clone());
        let websites = Websites::new(meta.clone());
        let live = LiveHub::default();
        let privacy = Privacy::new(db.clone());
        let metrics = Metrics::new(db.path(), config.ingest_queue.max(1));
        let ingest = Ingest::start(&db, websites.clone(), privacy.clone(), live.clone(), metrics.clone(), config)?;
        let analytics = Analytics::new(db.clone());
        let services = Services {
            auth: Auth::new(meta.clone(), &secret, settings.clone()),
            account: Account::new(meta.clone(), db.clone(), settings.clone()),
            email: Email::new(db.clone(), settings.clone(), analytics.clone()),
            analytics,
            privacy,
            export: Export::new(db.clone()),
            events: EventDefinitions::new(meta.clone()),
            organizations: Organizations::new(db.clone()),
            funnels: Funnels::new(db.clone()),
            imports: Imports::new(db.clone()),
            settings,
            websites,
            ingest,
            live,
            metrics,
            db,
        };
        services.auth.seal_plain_secrets()?;
        Ok(Tracker { services: Arc::new(services) })
    }

    /// Whether this instance can take hits: the ingest writer runs, its queue is below its limit and the
    /// database's write lock can be taken within 2 seconds. `Unavailable` says which is not so.
    pub fn ready(&self) -> Result<()> {
        if !self.ingest.writer_alive() {
            return Err(Error::Unavailable("the ingest writer has stopped".into()));
        }
        if self.metrics.queue_depth() >= self.metrics.queue_capacity() {
            return Err(Error::Unavailable("the ingest queue is full".into()));
        }
        // A connection of its own: the shared one may be held by a long deletion, which is not unreadiness.
        let unwritable = |e: Error| Error::Unavailable(format!("the database is not writable: {e}"));
        let conn = db::connect(self.db().path()).map_err(unwritable)?;
        conn.busy_timeout(std::time::Duration::from_secs(2)).map_err(|e| unwritable(e.into()))?;
        conn.execute_batch("BEGIN IMMEDIATE; ROLLBACK;").map_err(|e| unwritable(e.into()))?;
        Ok(())
    }

    /// Writes a consistent copy of the database to `dest` while ingest goes on (see [`db::backup::backup`]).
    pub fn backup(&self, dest: &std::path::Path) -> Result<db::backup::BackupInfo> {
        db::backup::backup(self.db(), dest)
    }

    /// The database handle, for services added beside this one.
    pub fn db(&self) -> &Db {
        &self.services.db
    }
}

impl Deref for Tracker {
    type Target = Services;

    fn deref(&self) -> &Services {
        &self.services
    }
}
