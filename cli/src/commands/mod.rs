//! The subcommands, one file each, and the options every command shares.

pub mod annotate;
pub mod backup;
pub mod completions;
pub mod config;
pub mod daemon_url;
pub mod demo;
pub mod email;
pub mod export;
pub mod import;
pub mod live;
pub mod migrate;
pub mod openapi;
pub mod orgs;
pub mod privacy;
pub mod retention;
pub mod serve;
pub mod sites;
pub mod stats;
pub mod users;

use std::path::PathBuf;

use anyhow::Context;
use clap::{Args, Parser, Subcommand};
use tracker_core::model::{Millis, Website};
use tracker_core::{Config, Tracker};

/// Self-hosted website analytics in one binary.
#[derive(Parser)]
#[command(name = "tracker", version, about, propagate_version = true)]
#[command(after_help = "Examples:\n  tracker serve\n  tracker users add alice@example.com --password-stdin\n  \
tracker sites add --name Blog --domain blog.example.com --owner alice@example.com\n  tracker sites snippet blog.example.com\n  \
tracker demo --site blog.example.com --events 100000 --days 30\n  tracker stats --site blog.example.com --range 7d\n  \
tracker annotate blog.example.com --text 'Release 2.0'\n  \
tracker live --site blog.example.com\n  tracker export --site 1 --type pageviews --since 2026-01-01 --output views.csv\n  \
tracker privacy delete --site 1 --data events --before 2026-01-01 --yes\n  tracker orgs import --site 1 companies.csv\n  tracker import --site 1 --from plausible export.zip\n  tracker retention run\n  \
tracker email test --to me@example.com\n  \
tracker migrate --to-cluster --data-dir /var/lib/tracker\n  tracker backup --output tracker-backup.db\n  tracker restore tracker-backup.db --data-dir /var/lib/tracker\n  \
tracker config example > tracker.toml\n  tracker completions bash > /etc/bash_completion.d/tracker")]
pub struct Cli {
    #[command(flatten)]
    pub global: GlobalArgs,
    #[command(subcommand)]
    pub command: Command,
}

/// Options every command takes.
#[derive(Args, Clone)]
pub struct GlobalArgs {
    /// Data folder holding the database [default: ./tracker-data; env TRACKER_DATA_DIR]
    #[arg(long, global = true, value_name = "DIR")]
    pub data_dir: Option<PathBuf>,
    /// Configuration file (TOML) [env: TRACKER_CONFIG]
    #[arg(long, global = true, value_name = "FILE")]
    pub config: Option<PathBuf>,
    /// Print machine-readable JSON instead of tables
    #[arg(long, global = true)]
    pub json: bool,
}

#[derive(Subcommand)]
pub enum Command {
    /// Run the daemon: dashboard, API, live stream and tracking scripts
    Serve(serve::ServeArgs),
    /// Manage user accounts
    Users(users::UsersArgs),
    /// Manage websites
    Sites(sites::SitesArgs),
    /// Watch a site's live visitors, redrawn every 2 seconds
    Live(live::LiveArgs),
    /// Print a site's traffic summary and top pages, referrers, countries and devices
    Stats(stats::StatsArgs),
    /// Mark a day on a site's chart (a release, a campaign), e.g. from a deploy script
    Annotate(annotate::AnnotateArgs),
    /// Export a site's page views and events as CSV or JSON
    Export(export::ExportArgs),
    /// Import a site's history from Plausible, Umami or GoatCounter
    Import(import::ImportArgs),
    /// Import what you know of the organizations visiting a site (domain, industry, size)
    Orgs(orgs::OrgsArgs),
    /// Delete or export a site's data (privacy requests)
    Privacy(privacy::PrivacyArgs),
    /// Apply every site's data retention
    Retention(retention::RetentionArgs),
    /// Send a test email, a site's weekly report, or the reports and alerts that are due
    Email(email::EmailArgs),
    /// Copy the data folder into a PostgreSQL + ClickHouse cluster (README "Scaling out")
    Migrate(migrate::MigrateArgs),
    /// Write a consistent copy of the database while the daemon runs
    Backup(backup::BackupArgs),
    /// Replace a data folder's database with a checked backup
    Restore(backup::RestoreArgs),
    /// Generate realistic demo traffic through the real ingest path
    Demo(demo::DemoArgs),
    /// Print an example configuration, or check and show the effective one
    Config(config::ConfigArgs),
    /// Print a shell completion script
    Completions(completions::CompletionsArgs),
    /// Print the API's OpenAPI 3.1 document (the same as GET /api/openapi.json)
    Openapi(openapi::OpenapiArgs),
}

impl Command {
    /// Runs the chosen subcommand.
    pub fn run(&self, global: &GlobalArgs) -> anyhow::Result<()> {
        match self {
            Command::Serve(args) => serve::run(global, args),
            Command::Users(args) => users::run(global, args),
            Command::Sites(args) => sites::run(global, args),
            Command::Live(args) => live::run(global, args),
            Command::Stats(args) => stats::run(global, args),
            Command::Annotate(args) => annotate::run(global, args),
            Command::Export(args) => export::run(global, args),
            Command::Import(args) => import::run(global, args),
            Command::Orgs(args) => orgs::run(global, args),
            Command::Privacy(args) => privacy::run(global, args),
            Command::Retention(args) => retention::run(global, args),
            Command::Email(args) => email::run(global, args),
            Command::Migrate(args) => migrate::run(global, args),
            Command::Backup(args) => backup::run_backup(global, args),
            Command::Restore(args) => backup::run_restore(global, args),
            Command::Demo(args) => demo::run(global, args),
            Command::Config(args) => config::run(global, args),
            Command::Completions(args) => completions::run(args),
            Command::Openapi(args) => openapi::run(args),
        }
    }
}

impl GlobalArgs {
    /// The configuration: defaults < file < TRACKER_* environment < flags.
    pub fn config(&self) -> anyhow::Result<Config> {
        let path = self.config_path();
        let mut config = Config::load(path.as_deref(), std::env::vars())?;
        if let Some(dir) = &self.data_dir {
            config.data_dir = dir.clone();
        }
        Ok(config)
    }

    /// The config file named by --config or TRACKER_CONFIG.
    pub fn config_path(&self) -> Option<PathBuf> {
        self.config.clone().or_else(|| std::env::var_os("TRACKER_CONFIG").map(PathBuf::from))
    }

    /// Opens the tracker on the configured data folder (the daemon may be running: SQLite WAL allows it). A folder
    /// without a database is an error: a mistyped --data-dir must not answer with a new, empty database.
    pub fn open(&self) -> anyhow::Result<Tracker> {
        self.open_folder(false)
    }

    /// Opens the tracker for the commands that may start a data folder (`users add`, `demo`): a folder without a
    /// database gets a new one. In cluster mode the cluster, as `open_shared`.
    pub fn open_or_create(&self) -> anyhow::Result<Tracker> {
        let config = self.config()?;
        if tracker_core::cluster::ClusterConfig::of(&config)?.is_some() {
            return self.open_shared();
        }
        self.open_folder(true)
    }

    fn open_folder(&self, create: bool) -> anyhow::Result<Tracker> {
        let config = self.config()?;
        // The commands read and write the data folder's database, which in cluster mode holds none of the
        // cluster's data: refused rather than answering from (or writing to) the wrong store.
        if tracker_core::cluster::ClusterConfig::of(&config)?.is_some() {
            anyhow::bail!(
                "this command is not available in cluster mode yet (postgres_url and clickhouse_url are set); \
                 see README \"Scaling out\""
            );
        }
        if !create && !config.database_path().exists() {
            anyhow::bail!(
                "no tracker database in {} (is --data-dir or TRACKER_DATA_DIR right?); `tracker serve` or \
                 `tracker users add` starts a data folder",
                config.data_dir.display()
            );
        }
        Tracker::open(&config).with_context(|| format!("cannot open data folder {}", config.data_dir.display()))
    }

    /// Opens the tracker for a command whose every read and write goes through the stores a cluster shares
    /// (accounts and websites, with a deletion's events on every shard): in cluster mode, the cluster.
    pub fn open_shared(&self) -> anyhow::Result<Tracker> {
        let config = self.config()?;
        if tracker_core::cluster::ClusterConfig::of(&config)?.is_none() {
            return self.open();
        }
        Tracker::open(&config).context("cannot open the cluster (postgres_url, clickhouse_url)")
    }
}

/// Finds a website by id or domain, with the name the user typed in the error.
pub fn find_site(tracker: &Tracker, site: &str) -> anyhow::Result<Website> {
    tracker.websites.find(site).with_context(|| format!("unknown site '{site}'"))
}

/// Whether a date names a whole day (YYYY-MM-DD) rather than an instant.
fn is_day(s: &str) -> bool {
    chrono::NaiveDate::parse_from_str(s.trim(), "%Y-%m-%d").is_ok()
}

/// Parses YYYY-MM-DD (midnight UTC) or RFC 3339 into Unix milliseconds.
pub fn parse_date(flag: &str, s: &str) -> anyhow::Result<Millis> {
    let s = s.trim();
    if let Ok(day) = chrono::NaiveDate::parse_from_str(s, "%Y-%m-%d") {
        return Ok(day.and_hms_opt(0, 0, 0).expect("midnight exists").and_utc().timestamp_millis());
    }
    chrono::DateTime::parse_from_rfc3339(s)
        .map(|t| t.timestamp_millis())
        .map_err(|_| anyhow::anyhow!("{flag}: not a date: '{s}' (use YYYY-MM-DD or RFC 3339)"))
}

/// Parses an inclusive end date: a whole day YYYY-MM-DD ends at the next midnight; RFC 3339 is exact.
pub fn parse_end_date(flag: &str, s: &str) -> anyhow::Result<Millis> {
    let ms = parse_date(flag, s)?;
    Ok(if is_day(s) { ms + 86_400_000 } else { ms })
}

/// Whether standard error is a terminal (progress bars and prompts go there).
pub fn stderr_is_terminal() -> bool {
    std::io::IsTerminal::is_terminal(&std::io::stderr())
}

/// A progress bar on standard error when it is a terminal; hidden otherwise.
pub fn progress_bar(total: u64, template: &str) -> indicatif::ProgressBar {
    if !stderr_is_terminal() {
        return indicatif::ProgressBar::hidden();
    }
    let bar = indicatif::ProgressBar::new(total);
    if let Ok(style) = indicatif::ProgressStyle::with_template(template) {
        bar.set_style(style.progress_chars("=> "));
    }
    bar
}
