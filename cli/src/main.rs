//! `tracker`: the one binary. Parses the command line and runs a subcommand from `commands/`.

mod commands;
mod output;

use std::process::ExitCode;

use clap::Parser;

use commands::{Cli, Command};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        Command::Serve(ref args) => commands::serve::run(&cli.global, args),
        Command::Users(ref args) => commands::users::run(&cli.global, args),
        Command::Sites(ref args) => commands::sites::run(&cli.global, args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            // One line: the error and its causes, never a backtrace.
            eprintln!("error: {}", format!("{e:#}").replace('\n', " "));
            ExitCode::FAILURE
        }
    }
}
