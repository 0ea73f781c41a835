//! `tracker migrate --to-cluster`: copies the data folder's SQLite database into the configured cluster
//! (PostgreSQL and ClickHouse, README "Scaling out") through core's `cluster::migrate`, with progress; run again,
//! it carries on an interrupted copy.

use anyhow::Context;
use clap::Args;
use tracker_core::cluster::migrate::{Progress, migrate_to_cluster, two_factor_broken_by_copy};
use tracker_core::cluster::{Cluster, ClusterConfig};
use tracker_core::db::Db;

use super::{GlobalArgs, progress_bar};
use crate::output::{print_json, table};

#[derive(Args)]
#[command(after_help = "The data folder (--data-dir) is the source; the cluster is the one postgres_url and\n\
clickhouse_url name (config file or TRACKER_POSTGRES_URL, TRACKER_CLICKHOUSE_URL). The cluster must be empty:\n\
ids are kept, so dashboard links, tracking snippets and API scripts go on working.\n\
Accounts, websites, settings, event definitions, funnels, organizations, imports and the consent and audit\n\
logs are copied in one transaction; then each site's events, 20,000 at a time, its heatmap data, recordings\n\
and imported daily aggregates (Plausible's). Interrupted, the same command carries on where it stopped and\n\
stores no row twice. Everyone signs in once more on the cluster. Page views SQLite counted without analytics\n\
consent become the cluster's anonymous page views, at the start of their hour.\n\
Stop the SQLite daemon first (or point the tracking snippets at the cluster): hits it takes after a site\n\
was copied stay in the data folder.\n\n\
Examples:\n  TRACKER_POSTGRES_URL=postgres://tracker@db/tracker TRACKER_CLICKHOUSE_URL=http://ch1:8123,http://ch2:8123 \\\n    \
tracker migrate --to-cluster --data-dir /var/lib/tracker\n  tracker migrate --to-cluster --config /etc/tracker/cluster.toml --json")]
pub struct MigrateArgs {
    /// Copy the data folder into the configured cluster (the one direction there is)
    #[arg(long, required = true)]
    pub to_cluster: bool,
}

pub fn run(global: &GlobalArgs, _args: &MigrateArgs) -> anyhow::Result<()> {
    let config = global.config()?;
    let path = config.database_path();
    // Opening a missing database would create an empty one and copy nothing.
    anyhow::ensure!(path.is_file(), "no database at {} (set --data-dir to the SQLite data folder)", path.display());
    let cluster_config = ClusterConfig::of(&config)?.context(
        "no cluster configured: set postgres_url and clickhouse_url (or TRACKER_POSTGRES_URL and \
         TRACKER_CLICKHOUSE_URL); see README \"Scaling out\"",
    )?;
    let db = Db::open(&path).with_context(|| format!("cannot open {}", path.display()))?;
    let broken = two_factor_broken_by_copy(&db, &config.data_dir, config.signing_secret()?.as_deref())?;
    if broken > 0 {
        // Said before the copy, so that the operator can stop and set the secret first.
        eprintln!(
            "warning: {broken} account(s) have two-factor sign-in on, and the cluster's jwt_secret is not {}: \
             their authenticator codes will fail on the cluster (the seal key of their secrets derives from the \
             signing secret). They can sign in with a recovery code and enrol again; to keep them working, set the \
             cluster's jwt_secret_file to a copy of that file (README \"Scaling out\").",
            config.data_dir.join("secret.key").display()
        );
    }
    let cluster = Cluster::open(&cluster_config).context("cannot open the cluster (postgres_url, clickhouse_url)")?;
    let source = std::fs::canonicalize(&path).unwrap_or(path).display().to_string();
    let bar = progress_bar(0, "{elapsed_precise} [{bar:40}] {pos}/{len} events ({eta} left)");
    let report = migrate_to_cluster(&db, &cluster, &source, &mut |progress| match progress {
        Progress::Metadata { table, rows } => bar.println(format!("copied {rows} {table}")),
        Progress::Events { copied, total } => {
            bar.set_length(total);
            bar.set_position(copied);
        }
    });
    bar.finish_and_clear();
    let report = report.with_context(|| format!("{source} not copied"))?;
    if global.json {
        return print_json(&report);
    }
    if report.resumed {
        println!("Carried on the copy of {source}.");
    }
    let mut t = table(&["Copied", "Rows"]);
    for (table, rows) in &report.metadata {
        t.add_row(vec![table.replace('_', " "), rows.to_string()]);
    }
    t.add_row(vec!["events".to_string(), report.events.to_string()]);
    t.add_row(vec!["anonymous page views".to_string(), report.anonymous_pageviews.to_string()]);
    t.add_row(vec!["heatmap rows".to_string(), report.heatmap_rows.to_string()]);
    t.add_row(vec!["recordings".to_string(), report.recordings.to_string()]);
    t.add_row(vec!["imported day rows".to_string(), report.imported_days.to_string()]);
    println!("{t}");
    if report.skipped_events > 0 {
        eprintln!("left out {} events of a kind the cluster does not store", report.skipped_events);
    }
    println!("{source} is in the cluster: start `tracker serve` with the same postgres_url and clickhouse_url.");
    Ok(())
}
