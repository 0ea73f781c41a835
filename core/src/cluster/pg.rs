//! The PostgreSQL side of cluster mode: a small pool of connections and the numbered migrations of the
//! metadata schema (core/migrations/postgres), applied once however many daemons start at the same time.

use std::sync::Mutex;

use postgres::{Client, NoTls};

use crate::error::{Error, Result};

/// The PostgreSQL migrations, in order. A daemon applies those the database lacks when it opens it.
const MIGRATIONS: &[(&str, &str)] = &[
    ("0001_cluster", include_str!("../../migrations/postgres/0001_cluster.sql")),
    ("0010_ingest_state", include_str!("../../migrations/postgres/0010_ingest_state.sql")),
    ("0020_signing_secret", include_str!("../../migrations/postgres/0020_signing_secret.sql")),
    ("0030_privacy_settings", include_str!("../../migrations/postgres/0030_privacy_settings.sql")),
    ("0040_consent_and_retention", include_str!("../../migrations/postgres/0040_consent_and_retention.sql")),
    ("0050_cluster_notices", include_str!("../../migrations/postgres/0050_cluster_notices.sql")),
    ("0051_shared_auth_state", include_str!("../../migrations/postgres/0051_shared_auth_state.sql")),
    ("0060_funnels", include_str!("../../migrations/postgres/0060_funnels.sql")),
    ("0070_organizations", include_str!("../../migrations/postgres/0070_organizations.sql")),
    ("0080_replays", include_str!("../../migrations/postgres/0080_replays.sql")),
    ("0081_replay_pages", include_str!("../../migrations/postgres/0081_replay_pages.sql")),
    ("0082_emails_sent", include_str!("../../migrations/postgres/0082_emails_sent.sql")),
    ("0085_imports", include_str!("../../migrations/postgres/0085_imports.sql")),
    ("0090_rollup_stale_visits", include_str!("../../migrations/postgres/0090_rollup_stale_visits.sql")),
    ("0120_migrated_from", include_str!("../../migrations/postgres/0120_migrated_from.sql")),
    ("0130_account_audit", include_str!("../../migrations/postgres/0130_account_audit.sql")),
    ("0140_keys_from_configuration", include_str!("../../migrations/postgres/0140_keys_from_configuration.sql")),
    ("0150_email_verification", include_str!("../../migrations/postgres/0150_email_verification.sql")),
    ("0160_replay_remote_assets", include_str!("../../migrations/postgres/0160_replay_remote_assets.sql")),
    ("0170_api_keys", include_str!("../../migrations/postgres/0170_api_keys.sql")),
    ("0180_site_members", include_str!("../../migrations/postgres/0180_site_members.sql")),
    ("0190_shared_links", include_str!("../../migrations/postgres/0190_shared_links.sql")),
    ("0200_annotations_and_segments", include_str!("../../migrations/postgres/0200_annotations_and_segments.sql")),
    ("0210_umami_website_id", include_str!("../../migrations/postgres/0210_umami_website_id.sql")),
    ("0220_deletion_jobs", include_str!("../../migrations/postgres/0220_deletion_jobs.sql")),
    ("0230_import_days", include_str!("../../migrations/postgres/0230_import_days.sql")),
    ("0240_privacy_deletion_jobs", include_str!("../../migrations/postgres/0240_privacy_deletion_jobs.sql")),
    ("0250_member_emails", include_str!("../../migrations/postgres/0250_member_emails.sql")),
    ("0260_site_timezone", include_str!("../../migrations/postgres/0260_site_timezone.sql")),
    ("0270_personal_segments", include_str!("../../migrations/postgres/0270_personal_segments.sql")),
    ("0280_sealed_share_slugs", include_str!("../../migrations/postgres/0280_sealed_share_slugs.sql")),
];

/// Idle connections kept for reuse; more are opened under load and closed when handed back beyond this.
const IDLE_CONNECTIONS: usize = 8;

/// An advisory lock key (any constant) that serialises migrations across daemons.
const MIGRATION_LOCK: i64 = 0x0074_7261_636b_6572;

/// A pool of connections to the metadata database.
pub struct Pg {
    url: String,
    idle: Mutex<Vec<Client>>,
    /// What tells this schema's notice channels from another's in the same database (see `channel`).
    channel_suffix: String,
}

impl Pg {
    /// Connects to `url` and applies the migrations it lacks.
    pub fn open(url: &str) -> Result<Pg> {
        let mut pg = Pg { url: url.to_string(), idle: Mutex::new(Vec::new()), channel_suffix: String::new() };
        pg.with(migrate)?;
        // The name migration 0050's triggers notify on: the schema is part of the connection's settings.
        pg.channel_suffix = pg.with(|c| Ok(c.query_one("SELECT left(md5(current_schema()), 12)", &[])?.get(0)))?;
        Ok(pg)
    }

    /// The URL this pool connects to (a listener opens its own connection with it).
    pub fn url(&self) -> &str {
        &self.url
    }

    /// The notice channel of `topic` ("sites", "live") for this schema: `tracker_{topic}_{12 hex digits}`.
    pub fn channel(&self, topic: &str) -> String {
        format!("tracker_{topic}_{}", self.channel_suffix)
    }

    /// Runs `f` on a pooled connection. A connection that failed is dropped rather than handed back, so a
    /// restarted server costs one failed call, not a pool of broken ones.
    pub fn with<T>(&self, f: impl FnOnce(&mut Client) -> Result<T>) -> Result<T> {
        let pooled = self.idle.lock().unwrap_or_else(|e| e.into_inner()).pop();
        let mut client = match pooled {
            Some(client) if !client.is_closed() => client,
            _ => Client::connect(&self.url, NoTls).map_err(unreachable)?,
        };
        let result = f(&mut client);
        if !client.is_closed() {
            let mut idle = self.idle.lock().unwrap_or_else(|e| e.into_inner());
            if idle.len() < IDLE_CONNECTIONS {
                idle.push(client);
            }
        }
        result
    }
}

impl Drop for Pg {
    /// Each synchronous client owns a small runtime, which may not be dropped on an async thread (a daemon's
    /// last handle usually goes on one at shutdown): there the idle clients are closed on a thread of their own.
    fn drop(&mut self) {
        let idle = std::mem::take(self.idle.get_mut().unwrap_or_else(|e| e.into_inner()));
        if !idle.is_empty() && tokio::runtime::Handle::try_current().is_ok() {
            std::thread::spawn(move || drop(idle));
        }
    }
}

/// A server that cannot be reached makes the instance unavailable (503), not broken (500).
fn unreachable(e: postgres::Error) -> Error {
    Error::Unavailable(format!("PostgreSQL is unreachable: {e}"))
}

fn migrate(client: &mut Client) -> Result<()> {
    let mut tx = client.transaction()?;
    // Held to the end of the transaction: a second daemon waits here, then finds the work done.
    tx.execute("SELECT pg_advisory_xact_lock($1)", &[&MIGRATION_LOCK])?;
    tx.batch_execute("CREATE TABLE IF NOT EXISTS schema_migrations (name TEXT PRIMARY KEY, applied_at TIMESTAMPTZ NOT NULL DEFAULT now())")?;
    for (name, sql) in MIGRATIONS {
        let done = tx.query_opt("SELECT 1 FROM schema_migrations WHERE name = $1", &[name])?.is_some();
        if !done {
            tx.batch_execute(sql)?;
            tx.execute("INSERT INTO schema_migrations (name) VALUES ($1)", &[name])?;
        }
    }
    tx.commit()?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The harness's PostgreSQL (tests/cluster/cluster.sh up DIR; source DIR/env), or `None` to skip.
    pub(crate) fn test_url() -> Option<String> {
        crate::cluster::testing::harness_var("TRACKER_TEST_POSTGRES_URL")
    }

    #[test]
    fn migrations_apply_once_when_daemons_open_the_database_together() {
        let Some(url) = test_url() else { return };
        let opened: Vec<_> = (0..4)
            .map(|_| {
                let url = url.clone();
                std::thread::spawn(move || Pg::open(&url).map(|_| ()))
            })
            .map(|t| t.join().unwrap())
            .collect();
        assert!(opened.iter().all(Result::is_ok), "{opened:?}");
        let pg = Pg::open(&url).unwrap();
        let applied: i64 = pg.with(|c| Ok(c.query_one("SELECT count(*) FROM schema_migrations", &[])?.get(0))).unwrap();
        assert_eq!(applied, MIGRATIONS.len() as i64);
    }

    #[test]
    fn an_unreachable_server_is_unavailable_not_an_internal_error() {
        // Port 1 on loopback: nothing listens there.
        let err = Pg::open("postgres://tracker@127.0.0.1:1/tracker").err().unwrap();
        assert!(matches!(err, Error::Unavailable(_)), "{err:?}");
    }
}
