//! The cluster the benchmarks run against in cluster mode: named by the operator's own `TRACKER_POSTGRES_URL`,
//! `TRACKER_CLICKHOUSE_URL` (and `_CLUSTER`, `_DATABASE`) variables, as `tracker serve` reads them, and its
//! shards read directly to count what was stored.

use std::path::Path;

use anyhow::{Context, bail};
use tracker_core::Config;
use tracker_core::cluster::{ClusterConfig, open_events};
use tracker_core::store::websites::NewWebsite;

/// The environment variables that put a daemon in cluster mode (README "Scaling out").
const SETTINGS: [&str; 4] =
    ["TRACKER_POSTGRES_URL", "TRACKER_CLICKHOUSE_URL", "TRACKER_CLICKHOUSE_CLUSTER", "TRACKER_CLICKHOUSE_DATABASE"];

/// The visitor-salt key of the benchmarks' cluster daemons when the environment sets none (cluster mode
/// requires one, the same on every daemon; the signing secret is `daemon::JWT_SECRET`).
const VISITOR_SALT_KEY: &str = "loadgen-salt-key-loadgen-salt-key-loadgen";

/// This process's cluster settings, as (variable, value): what a cluster daemon is given and a SQLite one
/// is started without; with them the visitor-salt key (the environment's, or the benchmarks' own).
pub fn settings() -> Vec<(&'static str, String)> {
    let mut settings: Vec<(&'static str, String)> =
        SETTINGS.iter().filter_map(|&name| std::env::var(name).ok().map(|value| (name, value))).collect();
    if !settings.is_empty() {
        let key = std::env::var("TRACKER_VISITOR_SALT_KEY").unwrap_or_else(|_| VISITOR_SALT_KEY.into());
        settings.push(("TRACKER_VISITOR_SALT_KEY", key));
    }
    settings
}

/// The core's configuration for a data folder on this process's cluster; an error when none is set.
pub fn config(data_dir: &Path) -> anyhow::Result<Config> {
    let env = settings().into_iter().map(|(name, value)| (name.to_string(), value));
    let mut config = Config { data_dir: data_dir.to_path_buf(), ..Config::load(None, env)? };
    // The secret the benchmarks' daemons are started with (`Daemon::spawn`).
    config.jwt_secret.get_or_insert_with(|| crate::daemon::JWT_SECRET.into());
    if ClusterConfig::of(&config)?.is_none() {
        bail!(
            "--cluster needs TRACKER_POSTGRES_URL and TRACKER_CLICKHOUSE_URL in the environment (README \"Scaling out\")"
        );
    }
    Ok(config)
}

/// A fresh user and site made through the core on the cluster (sign-ups through a daemon stop after the
/// first account in the default registration mode): the site's id and tracking key.
pub fn new_site(config: &Config) -> anyhow::Result<(i64, String)> {
    let tracker = tracker_core::Tracker::open(config).context("cannot open the cluster")?;
    let email = format!("bench-{:08x}@example.com", rand::random::<u32>());
    let user = tracker.auth.create_user(&email, "benchmark-password")?;
    let new = NewWebsite { name: "Bench".into(), domain: "example.com".into(), tracking_level: None };
    let site = tracker.websites.create(user.id, new)?;
    Ok((site.id, site.tracking_key))
}

/// Rows a site has on the cluster's shards (page views, events and conversions), summed over each shard's
/// local table.
pub fn stored_events(config: &Config, website_id: i64) -> anyhow::Result<u64> {
    let cluster = ClusterConfig::of(config)?.context("no cluster configured")?;
    let events = open_events(&cluster)?;
    let sql = format!("SELECT count() FROM {}.hits_local WHERE website_id = {website_id}", events.database());
    let mut rows = 0;
    for node in events.nodes() {
        rows += node.query_value::<u64>(&sql)?;
    }
    Ok(rows)
}

/// Anonymous page views (rows without a visit) a site has on the cluster's shards.
pub fn stored_anonymous(config: &Config, website_id: i64) -> anyhow::Result<u64> {
    let cluster = ClusterConfig::of(config)?.context("no cluster configured")?;
    let events = open_events(&cluster)?;
    let sql = format!(
        "SELECT count() FROM {}.hits_local WHERE website_id = {website_id} AND visit_id = 0",
        events.database()
    );
    let mut rows = 0;
    for node in events.nodes() {
        rows += node.query_value::<u64>(&sql)?;
    }
    Ok(rows)
}

/// Bytes the events take on the shards' disks (active parts), summed over the shards.
pub fn bytes_on_disk(config: &Config) -> anyhow::Result<u64> {
    let cluster = ClusterConfig::of(config)?.context("no cluster configured")?;
    let events = open_events(&cluster)?;
    let sql = format!(
        "SELECT sum(bytes_on_disk) FROM system.parts WHERE active AND database = {}",
        tracker_core::cluster::clickhouse::quote(events.database())
    );
    let mut bytes = 0;
    for node in events.nodes() {
        bytes += node.query_value::<u64>(&sql)?;
    }
    Ok(bytes)
}
