//! `tracker config`: a documented example tracker.toml, and checks of the effective configuration.

use clap::{Args, Subcommand};

use super::GlobalArgs;
use crate::output::print_json;

/// The documented example configuration: every key of `Config` with its default and a comment.
pub const EXAMPLE: &str = include_str!("tracker.example.toml");

#[derive(Args)]
#[command(after_help = "Examples:\n  tracker config example > /etc/tracker/tracker.toml\n  \
tracker config check --config /etc/tracker/tracker.toml\n  TRACKER_LOG_LEVEL=debug tracker config show --json")]
pub struct ConfigArgs {
    #[command(subcommand)]
    command: ConfigCommand,
}

#[derive(Subcommand)]
enum ConfigCommand {
    /// Print a documented example tracker.toml (every key, with its default)
    Example,
    /// Check the configuration (file given by --config or TRACKER_CONFIG, and TRACKER_* variables)
    Check,
    /// Print the effective configuration: defaults < file < environment < flags
    Show,
}

pub fn run(global: &GlobalArgs, args: &ConfigArgs) -> anyhow::Result<()> {
    match args.command {
        ConfigCommand::Example => {
            print!("{EXAMPLE}");
            Ok(())
        }
        ConfigCommand::Check => {
            global.config()?;
            let source = global
                .config_path()
                .map(|p| p.display().to_string())
                .unwrap_or_else(|| "defaults and environment".into());
            if global.json {
                print_json(&serde_json::json!({ "ok": true, "source": source }))
            } else {
                println!("configuration ok ({source})");
                Ok(())
            }
        }
        ConfigCommand::Show => {
            let config = global.config()?.shown();
            if global.json {
                print_json(&config)
            } else {
                print!("{}", toml::to_string(&config)?);
                Ok(())
            }
        }
    }
}
