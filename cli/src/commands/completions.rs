//! `tracker completions`: shell completion scripts generated from the command definitions.

use std::io::Write;

use clap::{Args, CommandFactory};
use clap_complete::Shell;

use super::Cli;

#[derive(Args)]
#[command(after_help = "Examples:\n  tracker completions bash > /etc/bash_completion.d/tracker\n  \
tracker completions zsh > \"${fpath[1]}/_tracker\"\n  tracker completions fish > ~/.config/fish/completions/tracker.fish")]
pub struct CompletionsArgs {
    /// bash, zsh, fish, elvish or powershell
    pub shell: Shell,
}

pub fn run(args: &CompletionsArgs) -> anyhow::Result<()> {
    let mut command = Cli::command();
    // Generated into memory first: clap_complete panics when its writer fails, and a reader that closes the
    // pipe early (`tracker completions zsh | head`) is no failure; main ends quietly on a broken pipe error.
    let mut script = Vec::new();
    clap_complete::generate(args.shell, &mut command, "tracker", &mut script);
    let mut out = std::io::stdout().lock();
    out.write_all(&script)?;
    out.flush()?;
    Ok(())
}
