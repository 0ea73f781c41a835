//! `Tracker`: the one door into the domain, opened from a `Config` by the daemon and the CLI alike.

use crate::analytics::Analytics;
use crate::auth::{self, Auth};
use crate::config::Config;
use crate::db::Db;
use crate::error::Result;
use crate::export::Export;
use crate::ingest::{Ingest, LiveHub};
use crate::privacy::Privacy;
use crate::settings::Settings;
use crate::store::event_definitions::EventDefinitions;
use crate::store::websites::Websites;

/// An open tracker instance: storage plus one service per aggregate.
#[derive(Clone)]
pub struct Tracker {
    pub settings: Settings,
    pub auth: Auth,
    pub websites: Websites,
    pub ingest: Ingest,
    pub analytics: Analytics,
    pub privacy: Privacy,
    pub export: Export,
    pub events: EventDefinitions,
    pub live: LiveHub,
    db: Db,
}

impl Tracker {
    /// Creates the data folder if needed, opens and migrates the database, loads the signing secret and
    /// starts the ingest writer.
    pub fn open(config: &Config) -> Result<Tracker> {
        std::fs::create_dir_all(&config.data_dir)?;
        let db = Db::open(&config.database_path())?;
        let secret = auth::load_or_create_secret(config.jwt_secret.as_deref(), &config.data_dir)?;
        let settings = Settings::new(config.clone());
        let websites = Websites::new(db.clone());
        let live = LiveHub::default();
        let privacy = Privacy::new(db.clone());
        let ingest = Ingest::start(
            &db,
            websites.clone(),
            privacy.clone(),
            live.clone(),
            config.ingest_queue,
            config.ingest_batch,
        )?;
        Ok(Tracker {
            auth: Auth::new(db.clone(), &secret, settings.clone()),
            analytics: Analytics::new(db.clone()),
            privacy,
            export: Export::new(db.clone()),
            events: EventDefinitions::new(db.clone()),
            settings,
            websites,
            ingest,
            live,
            db,
        })
    }

    /// The database handle, for services added beside this one.
    pub fn db(&self) -> &Db {
        &self.db
    }
}
