//! `tracker`: the one binary. Parses the command line and runs a subcommand from `commands/`.
// warp nests one generic type per filter; the full route table is deeper than the default limit of 128.
#![recursion_limit = "256"]

mod commands;
mod output;

use std::process::ExitCode;

use clap::Parser;

use commands::Cli;

// glibc's malloc unless built with the `mimalloc` feature (for the same-run comparison of BENCHMARKS.md).
#[cfg(feature = "mimalloc")]
#[global_allocator]
static ALLOCATOR: mimalloc::MiMalloc = mimalloc::MiMalloc;

fn main() -> ExitCode {
    exit_quietly_on_closed_stdout();
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

/// `println!` panics when stdout is a pipe whose reader has gone (`tracker sites list | head -1`), because
/// Rust ignores SIGPIPE. That is the reader's choice, not an error: end quietly with success instead of a
/// panic message. Every other panic keeps the default report.
fn exit_quietly_on_closed_stdout() {
    let default = std::panic::take_hook();
    std::panic::set_hook(Box::new(move |info| {
        let message = info
            .payload()
            .downcast_ref::<String>()
            .map(String::as_str)
            .or_else(|| info.payload().downcast_ref::<&str>().copied())
            .unwrap_or("");
        if message.starts_with("failed printing to stdout") && message.contains("Broken pipe") {
            std::process::exit(0);
        }
        default(info);
    }));
}
