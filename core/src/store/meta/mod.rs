//! The metadata side of core's storage boundary (issue 18): accounts, sign-ins, websites, event definitions,
//! funnels, organizations, privacy settings, retention days, the consent log, the privacy audit log, session
//! recordings, the emails sent, API keys, annotations, saved segments, site members and share links, kept in
//! SQLite (the data folder's database) or, in cluster mode, in PostgreSQL. `Auth`, `Account` and `Websites`
//! hold a [`Meta`] and never a connection of either engine for what has moved here (`Privacy` still holds one
//! for what has not).
//!
//! One small trait per aggregate ([`UserStore`], [`AccountSettingsStore`], [`TwoFactorStore`], [`SessionStore`],
//! [`WebsiteStore`], [`MemberStore`], [`EventDefinitionStore`], [`FunnelStore`], [`OrganizationStore`],
//! [`PrivacySettingsStore`], [`RetentionStore`], [`ConsentStore`], [`AuditStore`], [`ReplayStore`], [`EmailStore`],
//! [`EmailVerificationStore`], [`AccountExportStore`], [`ApiKeyStore`], [`AnnotationStore`], [`SegmentStore`],
//! [`SharedLinkStore`]), each method one unit of work (one statement or one transaction) so that no transaction
//! spans a call; both engines
//! implement each trait in the aggregate's file,
//! their SQL side by side, values always bound. [`Metadata`] gathers the traits behind one object: a service
//! takes the one handle and calls what it needs. Rules that are not storage (validation, token generation, the
//! refresh-reuse decision) stay in the services or in engine-free functions here, so the two engines cannot
//! drift apart on them.

mod account_export;
mod account_settings;
mod annotations;
mod api_keys;
mod audit;
mod consent;
mod email_verification;
mod emails;
mod event_definitions;
mod funnels;
mod members;
mod organizations;
mod privacy;
mod replays;
mod retention;
mod segments;
mod sessions;
mod shared_links;
mod two_factor;
mod users;
mod websites;

use std::sync::Arc;

pub use account_export::AccountExportStore;
#[cfg(test)]
pub(crate) use account_export::rows_as_json;
pub(crate) use account_export::text_json;
pub use account_settings::{AccountSettingsStore, SettingsRow};
pub use annotations::AnnotationStore;
pub use api_keys::{ApiKeyStore, NewApiKey};
pub use audit::{AccountAuditEntry, AuditStore};
pub use consent::ConsentStore;
pub(crate) use consent::{insert_consent, latest_analytics_choice};
pub use email_verification::{Confirmation, EmailVerificationStore};
pub use emails::{EmailClaim, EmailKind, EmailRecipient, EmailStore};
pub use event_definitions::{EventDefinitionStore, NewDefinition};
pub use funnels::{FunnelChanges, FunnelRow, FunnelStepDef, FunnelStore, NewFunnel};
pub use members::{InvitationRow, MemberRow, MemberStore, NewInvitation};
pub use organizations::{ImportRow, KnownOrganization, OrganizationStore, OwnerChanges, SeenOrganization};
pub use privacy::PrivacySettingsStore;
pub(crate) use replays::append_chunk;
pub use replays::{ReplayOrder, ReplayQuery, ReplayRow, ReplayStore, ReplayTotals};
pub use retention::RetentionStore;
pub use segments::SegmentStore;
pub use sessions::{RefreshRow, Rotation, SessionState, SessionStore};
pub use shared_links::{NewSharedLink, SharedLinkStore};
pub use two_factor::{TwoFactorRow, TwoFactorStore};
pub use users::UserStore;
pub use websites::WebsiteStore;

use crate::cluster::pg::Pg;
use crate::db::Db;

/// Every metadata aggregate moved behind the boundary so far.
pub trait Metadata:
    UserStore
    + AccountSettingsStore
    + TwoFactorStore
    + AccountExportStore
    + ApiKeyStore
    + SharedLinkStore
    + SessionStore
    + WebsiteStore
    + MemberStore
    + EventDefinitionStore
    + FunnelStore
    + OrganizationStore
    + PrivacySettingsStore
    + RetentionStore
    + ConsentStore
    + AuditStore
    + ReplayStore
    + EmailStore
    + EmailVerificationStore
    + AnnotationStore
    + SegmentStore
    + Send
    + Sync
{
}

impl<T> Metadata for T where
    T: UserStore
        + AccountSettingsStore
        + TwoFactorStore
        + AccountExportStore
        + ApiKeyStore
        + SharedLinkStore
        + SessionStore
        + WebsiteStore
        + MemberStore
        + EventDefinitionStore
        + FunnelStore
        + OrganizationStore
        + PrivacySettingsStore
        + RetentionStore
        + ConsentStore
        + AuditStore
        + ReplayStore
        + EmailStore
        + EmailVerificationStore
        + AnnotationStore
        + SegmentStore
        + Send
        + Sync
{
}

/// The metadata store a tracker instance runs on.
pub type Meta = Arc<dyn Metadata>;

/// Metadata in the data folder's SQLite database: today's SQL, on the shared `Db`.
pub struct SqliteMeta {
    db: Db,
}

/// Metadata in PostgreSQL (cluster mode).
pub struct PgMeta {
    pg: Arc<Pg>,
}

/// The metadata store on `db`.
pub fn sqlite(db: Db) -> Meta {
    Arc::new(SqliteMeta { db })
}

/// The metadata store on a PostgreSQL pool.
pub fn postgres(pg: Arc<Pg>) -> Meta {
    Arc::new(PgMeta { pg })
}

/// Whether a PostgreSQL error is a unique-constraint violation (a taken email, a tracking key drawn twice).
fn unique_violation(e: &postgres::Error) -> bool {
    e.code() == Some(&postgres::error::SqlState::UNIQUE_VIOLATION)
}

#[cfg(test)]
pub(crate) mod testing {
    //! Each engine a metadata test runs on: SQLite always, PostgreSQL when the harness's env is set
    //! (tests/cluster/cluster.sh), each test in a fresh schema so that tests running in parallel threads
    //! against one server never see each other's rows.

    use super::*;

    /// A metadata store of one engine and what must outlive it (the SQLite folder).
    pub(crate) struct Engine {
        pub name: &'static str,
        pub meta: Meta,
        /// A SQLite database for what has not moved yet (kept for services that still take one).
        pub db: Db,
        _dir: tempfile::TempDir,
        /// The server and schema of a PostgreSQL engine, dropped with it.
        schema: Option<(String, String)>,
    }

    impl Drop for Engine {
        fn drop(&mut self) {
            if let Some((url, schema)) = &self.schema
                && let Ok(mut client) = postgres::Client::connect(url, postgres::NoTls)
            {
                // Best effort: the harness's server goes at the end of the run anyway.
                let _ = client.batch_execute(&format!("DROP SCHEMA {schema} CASCADE"));
            }
        }
    }

    impl Engine {
        /// Runs `sql` on the engine's own database: a test's way to store rows as an older version did.
        pub fn execute(&self, sql: &str) {
            match &self.schema {
                None => self.db.write(|conn| Ok(conn.execute_batch(sql)?)).unwrap(),
                Some((url, schema)) => {
                    let mut client = postgres::Client::connect(url, postgres::NoTls).unwrap();
                    client.batch_execute(&format!("SET search_path TO {schema}; {sql}")).unwrap();
                }
            }
        }
    }

    /// SQLite, then PostgreSQL if the harness is up.
    pub(crate) fn engines() -> Vec<Engine> {
        let dir = tempfile::tempdir().unwrap();
        let db = Db::open(&dir.path().join("tracker.db")).unwrap();
        let mut engines = vec![Engine { name: "sqlite", meta: sqlite(db.clone()), db, _dir: dir, schema: None }];
        if let Some(url) = crate::cluster::testing::harness_var("TRACKER_TEST_POSTGRES_URL") {
            let dir = tempfile::tempdir().unwrap();
            let db = Db::open(&dir.path().join("tracker.db")).unwrap();
            let schema = fresh_schema(&url);
            let separator = if url.contains('?') { '&' } else { '?' };
            let pg = Pg::open(&format!("{url}{separator}options=-c%20search_path%3D{schema}")).unwrap();
            let schema = Some((url, schema));
            engines.push(Engine { name: "postgres", meta: postgres(Arc::new(pg)), db, _dir: dir, schema });
        }
        engines
    }

    /// Creates a schema of a random name and answers the name.
    fn fresh_schema(url: &str) -> String {
        let schema = format!("t_{}", crate::auth::tokens_random(12).to_ascii_lowercase().replace(['-', '_'], "x"));
        let mut client = postgres::Client::connect(url, postgres::NoTls).unwrap();
        // The name is made here of [a-z0-9x] only; DDL takes no bound identifiers.
        client.batch_execute(&format!("CREATE SCHEMA {schema}")).unwrap();
        schema
    }
}

#[cfg(test)]
mod annotations_tests;
#[cfg(test)]
mod api_keys_tests;
#[cfg(test)]
mod members_tests;
#[cfg(test)]
mod replays_tests;
#[cfg(test)]
mod shared_links_tests;
#[cfg(test)]
mod tests;
