//! `tracker serve`: runs the daemon until SIGINT or SIGTERM, after printing the dashboard URL.

use std::net::SocketAddr;

use anyhow::Context;
use clap::Args;
use tracing_subscriber::EnvFilter;

use super::GlobalArgs;

#[derive(Args)]
#[command(after_help = "Examples:\n  tracker serve\n  tracker serve --addr 0.0.0.0:8080 --data-dir /var/lib/tracker")]
pub struct ServeArgs {
    /// Address to listen on [default: 127.0.0.1:8080; env TRACKER_ADDR]; port 0 picks a free port
    #[arg(long, value_name = "HOST:PORT")]
    pub addr: Option<SocketAddr>,
}

pub fn run(global: &GlobalArgs, args: &ServeArgs) -> anyhow::Result<()> {
    let mut config = global.config()?;
    if let Some(addr) = args.addr {
        config.addr = addr;
    }
    let filter = EnvFilter::try_new(&config.log_level).unwrap_or_else(|_| EnvFilter::new("info"));
    let ansi = std::io::IsTerminal::is_terminal(&std::io::stderr());
    tracing_subscriber::fmt().with_env_filter(filter).with_ansi(ansi).with_writer(std::io::stderr).init();

    let runtime = tokio::runtime::Builder::new_multi_thread().enable_all().build()?;
    runtime.block_on(async move {
        let tracker = tracker_core::Tracker::open(&config)
            .with_context(|| format!("cannot open data folder {}", config.data_dir.display()))?;
        let listener = tokio::net::TcpListener::bind(config.addr)
            .await
            .with_context(|| format!("cannot listen on {}", config.addr))?;
        let local = listener.local_addr()?;
        let url = match &config.public_url {
            Some(url) => format!("{}/", url.trim_end_matches('/')),
            None => format!("http://{local}/"),
        };
        println!("tracker {} listening on {local}", env!("CARGO_PKG_VERSION"));
        println!("Dashboard: {url}");
        tracing::info!(data_dir = %config.data_dir.display(), "serving");
        tracker_daemon::serve(tracker, listener, shutdown_signal()).await;
        tracing::info!("stopped");
        Ok(())
    })
}

/// Resolves on Ctrl-C or SIGTERM.
async fn shutdown_signal() {
    let ctrl_c = async {
        let _ = tokio::signal::ctrl_c().await;
    };
    #[cfg(unix)]
    let terminate = async {
        match tokio::signal::unix::signal(tokio::signal::unix::SignalKind::terminate()) {
            Ok(mut signal) => {
                signal.recv().await;
            }
            Err(_) => std::future::pending::<()>().await,
        }
    };
    #[cfg(not(unix))]
    let terminate = std::future::pending::<()>();
    tokio::select! {
        _ = ctrl_c => {},
        _ = terminate => {},
    }
}
