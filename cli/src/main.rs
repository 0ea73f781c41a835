//! `tracker`: the one binary. Parses the command line and runs a subcommand from `commands/`.
// warp nests one generic type per filter; the full route table is deeper than the default limit of 128.
#![recursion_limit = "256"]

mod commands;
mod output;

use std::process::ExitCode;

use clap::Parser;

use commands::Cli;

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) if !e.use_stderr() => e.exit(), // --help, --version
        Err(e) => {
            // Usage errors in one line too; `--help` has the details.
            let text = e.to_string();
            let line: Vec<&str> = text
                .lines()
                .take_while(|l| !l.starts_with("Usage:") && !l.trim_start().starts_with("tip:"))
                .map(str::trim)
                .filter(|l| !l.is_empty())
                .collect();
            eprintln!("{} (see --help)", line.join(" "));
            return ExitCode::from(2);
        }
    };
    match cli.command.run(&cli.global) {
        Ok(()) => ExitCode::SUCCESS,
        // A closed pipe (`tracker export | head`) is the reader's choice, not a failure.
        Err(e) if is_broken_pipe(&e) => ExitCode::SUCCESS,
        Err(e) => {
            // One line: the error and its causes, never a backtrace.
            eprintln!("error: {}", format!("{e:#}").replace('\n', " "));
            ExitCode::FAILURE
        }
    }
}

fn is_broken_pipe(e: &anyhow::Error) -> bool {
    e.chain().any(|cause| {
        let io = cause.downcast_ref::<std::io::Error>().or_else(|| match cause.downcast_ref::<tracker_core::Error>() {
            Some(tracker_core::Error::Io(io)) => Some(io),
            _ => None,
        });
        io.is_some_and(|io| io.kind() == std::io::ErrorKind::BrokenPipe)
    })
}
