//! The daemon under test as a child process: `tracker serve --addr 127.0.0.1:0`, its address from the
//! `Dashboard:` line, memory and CPU time from /proc, a user and a site created through the API, SIGTERM to stop.

use std::io::{BufRead, BufReader};
use std::net::SocketAddr;
use std::path::{Path, PathBuf};
use std::process::{Child, Command, Stdio};
use std::time::Duration;

use anyhow::{Context, bail};
use rand::Rng;
use serde_json::{Value, json};

/// The signing secret the daemons under test get, so the chaos benchmark can forge tokens with it.
pub const JWT_SECRET: &str = "loadgen-secret-loadgen-secret-loadgen";

/// A running `tracker serve`.
pub struct Daemon {
    child: Child,
    pub addr: SocketAddr,
    pub base: String,
}

/// Resident memory of a process, from /proc/{pid}/status, in KiB.
#[derive(Debug, Clone, Copy, Default)]
pub struct Memory {
    /// Resident set now (VmRSS).
    pub rss_kib: u64,
    /// Peak resident set so far (VmHWM).
    pub hwm_kib: u64,
}

impl Daemon {
    /// Starts the daemon on a free loopback port with `data_dir`, quiet logs, and waits for its URL.
    pub fn start(binary: &Path, data_dir: &Path) -> anyhow::Result<Daemon> {
        Daemon::start_logged(binary, data_dir, Stdio::inherit())
    }

    /// Starts the daemon as `start` does, its log (stderr) going to `log`. It runs on SQLite even when this
    /// process has cluster settings in its environment.
    pub fn start_logged(binary: &Path, data_dir: &Path, log: impl Into<Stdio>) -> anyhow::Result<Daemon> {
        let mut command = Command::new(binary);
        command.args(["serve", "--addr", "127.0.0.1:0", "--data-dir"]).arg(data_dir).stderr(log);
        for (name, _) in crate::cluster::settings() {
            command.env_remove(name);
        }
        Daemon::spawn(command)
    }

    /// Starts a daemon of the cluster this process's environment names (`cluster::settings`), with its own
    /// `data_dir` for its lock.
    pub fn start_in_cluster(binary: &Path, data_dir: &Path) -> anyhow::Result<Daemon> {
        Daemon::start_in_cluster_logged(binary, data_dir, Stdio::inherit())
    }

    /// Starts a daemon of the cluster as `start_in_cluster` does, its log (stderr) going to `log`.
    pub fn start_in_cluster_logged(binary: &Path, data_dir: &Path, log: impl Into<Stdio>) -> anyhow::Result<Daemon> {
        let mut command = Command::new(binary);
        command.args(["serve", "--addr", "127.0.0.1:0", "--data-dir"]).arg(data_dir).stderr(log);
        command.envs(crate::cluster::settings());
        Daemon::spawn(command)
    }

    /// Starts any server that prints `Dashboard: URL` on stdout (the daemon, or the bare-warp ceiling); its
    /// stderr is the command's (inherited unless set).
    pub fn spawn(mut command: Command) -> anyhow::Result<Daemon> {
        let binary = command.get_program().to_owned();
        let mut child = command
            .env("TRACKER_LOG_LEVEL", "warn")
            .env("TRACKER_JWT_SECRET", JWT_SECRET)
            .stdout(Stdio::piped())
            .spawn()
            .with_context(|| format!("cannot start {}", binary.to_string_lossy()))?;
        let stdout = child.stdout.take().context("no stdout")?;
        let mut lines = BufReader::new(stdout).lines();
        let url = loop {
            match lines.next() {
                Some(line) => {
                    if let Some(url) = line?.strip_prefix("Dashboard: ") {
                        break url.trim().trim_end_matches('/').to_string();
                    }
                }
                None => bail!("the daemon exited before printing its URL"),
            }
        };
        // Keep draining stdout so the daemon never blocks on a full pipe.
        std::thread::spawn(move || for _ in lines {});
        let addr = url.trim_start_matches("http://").parse().with_context(|| format!("unexpected URL {url}"))?;
        Ok(Daemon { child, addr, base: url })
    }

    pub fn pid(&self) -> u32 {
        self.child.id()
    }

    /// VmRSS and VmHWM of the daemon now.
    pub fn memory(&self) -> anyhow::Result<Memory> {
        memory_of(self.pid())
    }

    /// SIGTERM, then waits for the graceful exit (the writer commits what is queued).
    pub fn stop(mut self) -> anyhow::Result<()> {
        let status = Command::new("kill").args(["-TERM", &self.pid().to_string()]).status()?;
        if !status.success() {
            bail!("kill -TERM failed");
        }
        for _ in 0..300 {
            if self.child.try_wait()?.is_some() {
                return Ok(());
            }
            std::thread::sleep(Duration::from_millis(100));
        }
        self.child.kill()?;
        bail!("the daemon did not stop within 30 s")
    }

    /// SIGKILL (`kill -9`): no shutdown work at all, as a power cut or the OOM killer; waits for the exit.
    pub fn kill(mut self) -> anyhow::Result<()> {
        self.child.kill()?;
        self.child.wait()?;
        Ok(())
    }
}

impl Drop for Daemon {
    fn drop(&mut self) {
        if let Ok(None) = self.child.try_wait() {
            let _ = self.child.kill();
            let _ = self.child.wait();
        }
    }
}

/// Reads VmRSS and VmHWM of `pid`.
pub fn memory_of(pid: u32) -> anyhow::Result<Memory> {
    let status = std::fs::read_to_string(format!("/proc/{pid}/status"))?;
    let field = |name: &str| {
        status
            .lines()
            .find_map(|l| l.strip_prefix(name))
            .and_then(|rest| rest.split_whitespace().next())
            .and_then(|n| n.parse().ok())
            .unwrap_or(0)
    };
    Ok(Memory { rss_kib: field("VmRSS:"), hwm_kib: field("VmHWM:") })
}

/// CPU time a process has used so far (all its threads, user and system), from /proc/{pid}/stat.
pub fn cpu_time(pid: u32) -> anyhow::Result<Duration> {
    let stat = std::fs::read_to_string(format!("/proc/{pid}/stat"))?;
    // The command name in parentheses may hold spaces; the fields after it are fixed: utime and stime are the
    // 12th and 13th after the closing parenthesis, in USER_HZ ticks (100 a second in the kernel's ABI).
    let after_name = stat.rsplit_once(')').map(|(_, rest)| rest).context("malformed /proc stat")?;
    let fields: Vec<&str> = after_name.split_whitespace().collect();
    let ticks = |i: usize| -> anyhow::Result<u64> { Ok(fields.get(i).context("short /proc stat")?.parse()?) };
    Ok(Duration::from_millis((ticks(11)? + ticks(12)?) * 10))
}

/// CPU time every process on the machine has used so far (busy time of all cores, from /proc/stat): with the
/// cluster's PostgreSQL and ClickHouse on the same machine, what a hit costs in all.
pub fn machine_busy() -> anyhow::Result<Duration> {
    let stat = std::fs::read_to_string("/proc/stat")?;
    let line = stat.lines().find(|l| l.starts_with("cpu ")).context("no cpu line in /proc/stat")?;
    let ticks: Vec<u64> = line.split_whitespace().skip(1).map(|n| n.parse().unwrap_or(0)).collect();
    // user, nice, system, (idle, iowait,) irq, softirq, steal
    let busy: u64 = [0, 1, 2, 5, 6, 7].iter().filter_map(|&i| ticks.get(i)).sum();
    Ok(Duration::from_millis(busy * 10))
}

/// A signed-in API user with one site.
pub struct Account {
    pub access_token: String,
    pub website_id: i64,
    pub tracking_key: String,
}

/// Registers a fresh user and creates a site through the API.
pub async fn register(client: &reqwest::Client, base: &str) -> anyhow::Result<Account> {
    let email = format!("bench-{:08x}@example.com", rand::rng().random::<u32>());
    let session: Value = client
        .post(format!("{base}/api/register"))
        .json(&json!({"email": email, "password": "benchmark-password"}))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    let token = session["accessToken"].as_str().context("no accessToken")?.to_string();
    let site: Value = client
        .post(format!("{base}/api/websites"))
        .bearer_auth(&token)
        .json(&json!({"name": "Bench", "domain": "example.com"}))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    Ok(Account {
        access_token: token,
        website_id: site["id"].as_i64().context("no site id")?,
        tracking_key: site["trackingKey"].as_str().context("no trackingKey")?.to_string(),
    })
}

/// Signs in an existing user.
pub async fn login(client: &reqwest::Client, base: &str, email: &str, password: &str) -> anyhow::Result<String> {
    let session: Value = client
        .post(format!("{base}/api/login"))
        .json(&json!({"email": email, "password": password}))
        .send()
        .await?
        .error_for_status()?
        .json()
        .await?;
    Ok(session["accessToken"].as_str().context("no accessToken")?.to_string())
}

/// Events stored for a site, read from the database file directly (read-only).
pub fn stored_events(data_dir: &Path, website_id: i64) -> anyhow::Result<i64> {
    let conn = rusqlite::Connection::open_with_flags(
        database(data_dir),
        rusqlite::OpenFlags::SQLITE_OPEN_READ_ONLY | rusqlite::OpenFlags::SQLITE_OPEN_NO_MUTEX,
    )?;
    Ok(conn.query_row("SELECT COUNT(*) FROM events WHERE website_id = ?1", [website_id], |r| r.get(0))?)
}

/// The database file of a data folder.
pub fn database(data_dir: &Path) -> PathBuf {
    data_dir.join("tracker.db")
}
