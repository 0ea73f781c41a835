//! Cluster mode (issue 18, README "Scaling out"): metadata in PostgreSQL, events in a sharded ClickHouse, served
//! by any number of stateless daemons. Without `postgres_url` and `clickhouse_url` nothing here is used and
//! SQLite in the data folder holds everything.

pub(crate) mod activity;
pub(crate) mod advanced;
mod breakdowns;
pub mod clickhouse;
mod deletion;
pub mod deletion_jobs;
mod email;
pub mod events;
mod export;
mod funnels;
mod heatmap;
mod identified;
pub(crate) mod imports;
pub mod ingest_state;
mod intent;
mod journeys;
mod live;
pub(crate) mod local_hours;
pub mod migrate;
pub mod notices;
mod organizations;
mod overview;
pub mod pg;
mod privacy_jobs;
pub(crate) mod replays;
mod retention;
mod rollups;
#[cfg(test)]
pub(crate) mod seeded;
mod sessions;
pub mod sink;
mod sources;
#[cfg(test)]
pub(crate) mod testing;
mod timeseries;
mod visitor;
pub(crate) mod visits;

use std::sync::Arc;

use events::Events;
use pg::Pg;

use crate::config::Config;
use crate::error::{Error, Result};

/// The cluster a tracker instance runs on, validated from its `Config`.
#[derive(Debug, Clone, PartialEq)]
pub struct ClusterConfig {
    /// `postgres://...` of the metadata database.
    pub postgres_url: String,
    /// HTTP URL of each ClickHouse shard, in shard order.
    pub clickhouse_urls: Vec<String>,
    /// Name of the cluster in ClickHouse's `remote_servers`, for the Distributed tables that read all shards.
    pub clickhouse_cluster: String,
    /// The ClickHouse database holding tracker's tables on every shard.
    pub clickhouse_database: String,
}

/// The cluster name used when `clickhouse_cluster` is not set.
pub const DEFAULT_CLICKHOUSE_CLUSTER: &str = "tracker";

impl ClusterConfig {
    /// The cluster `config` names, `None` in single-machine mode, or why the settings do not make a cluster.
    pub fn of(config: &Config) -> Result<Option<ClusterConfig>> {
        let (postgres_url, clickhouse_url) = match (&config.postgres_url, &config.clickhouse_url) {
            (None, None) if config.clickhouse_cluster.is_none() && config.clickhouse_database.is_none() => {
                return Ok(None);
            }
            (Some(pg), Some(ch)) => (pg, ch),
            _ => {
                return Err(Error::invalid(
                    "cluster mode needs both postgres_url and clickhouse_url (see README \"Scaling out\")",
                ));
            }
        };
        if !(postgres_url.starts_with("postgres://") || postgres_url.starts_with("postgresql://")) {
            return Err(Error::invalid("postgres_url: expected postgres://user:password@host:port/database"));
        }
        let clickhouse_urls: Vec<String> = clickhouse_url
            .split(',')
            .map(|u| u.trim().trim_end_matches('/').to_string())
            .filter(|u| !u.is_empty())
            .collect();
        if clickhouse_urls.is_empty()
            || clickhouse_urls.iter().any(|u| url::Url::parse(u).is_err() || !u.starts_with("http"))
        {
            return Err(Error::invalid(
                "clickhouse_url: expected the HTTP URL of each shard, comma-separated (http://host:8123,...)",
            ));
        }
        let clickhouse_cluster = config.clickhouse_cluster.clone().unwrap_or_else(|| DEFAULT_CLICKHOUSE_CLUSTER.into());
        if clickhouse_cluster.is_empty() || !clickhouse_cluster.chars().all(|c| c.is_ascii_alphanumeric() || c == '_') {
            return Err(Error::invalid("clickhouse_cluster: letters, digits and _ only"));
        }
        let clickhouse_database =
            config.clickhouse_database.clone().unwrap_or_else(|| events::DEFAULT_DATABASE.to_string());
        if clickhouse_database.is_empty() || !clickhouse_database.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        {
            return Err(Error::invalid("clickhouse_database: letters, digits and _ only"));
        }
        Ok(Some(ClusterConfig {
            postgres_url: postgres_url.clone(),
            clickhouse_urls,
            clickhouse_cluster,
            clickhouse_database,
        }))
    }
}

/// The shared stores of a daemon in cluster mode, held by its events engine (`events::ClickHouseEvents`).
#[derive(Clone)]
pub struct Cluster {
    /// The metadata database's pool (the metadata services hold it too).
    pub pg: Arc<Pg>,
    /// The ClickHouse shards.
    pub events: Arc<Events>,
}

impl Cluster {
    /// Connects to PostgreSQL and every ClickHouse shard, applying the migrations each lacks.
    pub fn open(config: &ClusterConfig) -> Result<Cluster> {
        Ok(Cluster { pg: Arc::new(Pg::open(&config.postgres_url)?), events: Arc::new(open_events(config)?) })
    }

    /// Ready when PostgreSQL and every ClickHouse shard answer; `Unavailable` names the first that does not.
    pub fn ready(&self) -> Result<()> {
        self.pg.with(|client| Ok(client.simple_query("SELECT 1").map(|_| ())?)).map_err(|e| match e {
            Error::Unavailable(_) => e,
            e => Error::Unavailable(format!("PostgreSQL does not answer: {e}")),
        })?;
        for (i, node) in self.events.nodes().iter().enumerate() {
            node.query_value::<u8>("SELECT 1")
                .map_err(|e| Error::Unavailable(format!("ClickHouse shard {} does not answer: {e}", i + 1)))?;
        }
        Ok(())
    }
}

/// The keys every daemon of a cluster is configured with, the same on each, and never stored in either
/// database: a copy of PostgreSQL and ClickHouse then forges no sign-in, opens no two-factor secret and
/// recomputes no visitor's address.
pub struct ClusterKeys {
    /// Signs and checks sign-in tokens; the two-factor seal key derives from it.
    pub signing_secret: Vec<u8>,
    /// Each UTC day's visitor-hash salt derives from it (`ingest_state::day_salt`).
    pub visitor_salt_key: Vec<u8>,
}

impl ClusterKeys {
    /// The keys `config` sets, or an error naming the setting a cluster daemon lacks.
    pub fn of(config: &Config) -> Result<ClusterKeys> {
        let missing = |key: &str, what: &str| {
            Error::invalid(format!(
                "cluster mode needs {key} (or {key}_file, or TRACKER_{}): {what}, a random string of at least {} \
                 characters, the same on every daemon (README \"Scaling out\")",
                key.to_uppercase(),
                crate::config::MIN_KEY_BYTES
            ))
        };
        Ok(ClusterKeys {
            signing_secret: config
                .signing_secret()?
                .ok_or_else(|| missing("jwt_secret", "the secret that signs sign-in tokens"))?,
            visitor_salt_key: config
                .visitor_salt_key()?
                .ok_or_else(|| missing("visitor_salt_key", "the key of the daily salt of visitor hashes"))?,
        })
    }
}

/// The events store of `config`'s shards (the ingest writer opens its own: each holds its own connections).
pub fn open_events(config: &ClusterConfig) -> Result<Events> {
    Events::open(&config.clickhouse_urls, &config.clickhouse_cluster, &config.clickhouse_database)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn config(pg: Option<&str>, ch: Option<&str>) -> Config {
        Config { postgres_url: pg.map(Into::into), clickhouse_url: ch.map(Into::into), ..Config::default() }
    }

    #[test]
    fn a_cluster_needs_both_stores_and_well_formed_urls() {
        assert_eq!(ClusterConfig::of(&Config::default()).unwrap(), None);
        assert!(ClusterConfig::of(&config(Some("postgres://u@h/db"), None)).is_err());
        assert!(ClusterConfig::of(&config(None, Some("http://h:8123"))).is_err());
        assert!(ClusterConfig::of(&config(Some("mysql://h/db"), Some("http://h:8123"))).is_err());
        assert!(ClusterConfig::of(&config(Some("postgres://u@h/db"), Some("h:8123"))).is_err());
        let cluster = ClusterConfig::of(&config(Some("postgres://u@h/db"), Some("http://a:8123/, http://b:8123")))
            .unwrap()
            .unwrap();
        assert_eq!(cluster.clickhouse_urls, ["http://a:8123", "http://b:8123"]);
        assert_eq!(cluster.clickhouse_cluster, "tracker");
    }

    #[test]
    fn a_cluster_daemon_needs_both_keys_and_says_which_is_missing() {
        let mut config = config(Some("postgres://u@h/db"), Some("http://h:8123"));
        let missing = |config: &Config| ClusterKeys::of(config).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(missing(&config).contains("needs jwt_secret"), "{}", missing(&config));
        config.jwt_secret = Some("j".repeat(32));
        assert!(missing(&config).contains("needs visitor_salt_key"), "{}", missing(&config));
        config.visitor_salt_key = Some("s".repeat(32));
        let keys = ClusterKeys::of(&config).unwrap();
        assert_eq!((keys.signing_secret.len(), keys.visitor_salt_key.len()), (32, 32));
    }
}
