//! `tracker completions`: shell completion scripts generated from the command definitions.

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
    clap_complete::generate(args.shell, &mut command, "tracker", &mut std::io::stdout());
    Ok(())
}
