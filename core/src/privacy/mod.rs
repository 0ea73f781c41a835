//! Privacy: per-site settings (consent, Do-Not-Track, IP handling), retention days per data type and the
//! visitors' consent log, the privacy audit log, exports and a single visitor's access and erasure.

mod audit;
mod consent;
pub mod deletion;
mod jobs;
pub(crate) mod portability;
pub mod retention;
mod settings;
mod visitor;

pub use audit::{AUDIT_PAGE_LIMIT, Actor, AuditAction, AuditEntry, AuditPage};

pub use consent::{CONSENT_LOG_LIMIT, ConsentData, ConsentLog, ConsentRecord, ConsentType};
pub use deletion::{DataType, DeletionReport};
pub use jobs::{DeletionJob, DeletionJobsSummary};
pub use retention::{RetentionReport, SiteRetention};
pub use settings::{PrivacySettings, PrivacyUpdate, Retention, RetentionUpdate};
pub(crate) use visitor::{Right, chunk_events};
pub use visitor::{VisitorDeletion, visitor_id};

use std::collections::HashMap;
use std::sync::{Arc, Mutex};
use std::time::{Duration, Instant};

use crate::db::Db;
use crate::error::Result;
use crate::model::WebsiteId;
use crate::store::meta::Meta;

/// How long ingest trusts a site's settings before reading them again (changes through this service apply
/// at once, and in cluster mode another daemon's changes as soon as their notice arrives; the TTL only bounds
/// staleness from other writers: the CLI in another process, or a daemon whose notices connection is down).
const SETTINGS_CACHE_TTL: Duration = Duration::from_secs(5);

/// Privacy settings, retention, deletion and consent of websites.
#[derive(Clone)]
pub struct Privacy {
    pub(crate) db: Db,
    /// Where the settings, retention days, consent log and audit log are kept (PostgreSQL in cluster mode);
    /// the rest is still on `db`.
    pub(crate) meta: Meta,
    cache: Arc<Mutex<HashMap<WebsiteId, (Instant, PrivacySettings)>>>,
}

impl Privacy {
    pub(crate) fn new(db: Db, meta: Meta) -> Privacy {
        Privacy { db, meta, cache: Default::default() }
    }

    /// A site's settings from a short-lived cache (the ingest hot path).
    pub fn cached_settings(&self, site: WebsiteId) -> Result<PrivacySettings> {
        if let Some(settings) = fresh(&self.lock_cache(), site) {
            return Ok(settings.clone());
        }
        let settings = self.settings(site)?;
        let mut cache = self.lock_cache();
        if cache.len() > 10_000 {
            cache.clear();
        }
        cache.insert(site, (Instant::now(), settings.clone()));
        Ok(settings)
    }

    /// A site's settings if the cache still holds them; never reads the database.
    pub(crate) fn cached_only(&self, site: WebsiteId) -> Option<PrivacySettings> {
        fresh(&self.lock_cache(), site).cloned()
    }

    pub(crate) fn forget_cached(&self, site: WebsiteId) {
        self.lock_cache().remove(&site);
    }

    /// Drops every cached site's settings (cluster mode, when notices of changes may have been missed).
    pub(crate) fn forget_all_cached(&self) {
        self.lock_cache().clear();
    }

    fn lock_cache(&self) -> std::sync::MutexGuard<'_, HashMap<WebsiteId, (Instant, PrivacySettings)>> {
        self.cache.lock().unwrap_or_else(|e| e.into_inner())
    }
}

/// A site's cached settings while still trusted.
fn fresh(cache: &HashMap<WebsiteId, (Instant, PrivacySettings)>, site: WebsiteId) -> Option<&PrivacySettings> {
    cache.get(&site).filter(|(at, _)| at.elapsed() < SETTINGS_CACHE_TTL).map(|(_, settings)| settings)
}
