//! `tracker openapi`: prints the API contract without a running daemon, so the dashboard's generated types
//! and the contract checks need only the binary.

use std::io::Write;

use clap::Args;

#[derive(Args)]
#[command(after_help = "Examples:\n  tracker openapi > openapi.json")]
pub struct OpenapiArgs {}

pub fn run(_args: &OpenapiArgs) -> anyhow::Result<()> {
    std::io::stdout().write_all(tracker_daemon::openapi_json().as_bytes())?;
    Ok(())
}
