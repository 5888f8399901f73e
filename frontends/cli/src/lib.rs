//! The `smith` command line.
//!
//! [`main`] parses the command line, runs the selected mode, and turns its outcome into an exit
//! status (`exit.rs`). Diagnostics go to stderr; stdout carries only the mode's output.
//! [`command`] is the clap declaration — the one source of `--help` and of the generated
//! command reference ([`reference_docs`]).

mod cli;
mod command_error;
mod commands;
mod exit;
mod output;
mod reference;
mod tools_reference;

use std::process::ExitCode;

use clap::{CommandFactory, Parser};

pub use reference::reference_docs;

/// The complete clap command tree of `smith`.
pub fn command() -> clap::Command {
    cli::Cli::command()
}

/// Run `smith` with the process arguments and return its exit status.
pub fn main() -> ExitCode {
    let cli = match cli::Cli::try_parse() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with status 0; usage errors to stderr with 2.
            let status = if e.use_stderr() {
                exit::USAGE
            } else {
                exit::SUCCESS
            };
            let _ = e.print(); // best effort: a closed stream must not panic
            return ExitCode::from(status);
        }
    };
    if let Err(e) = smith_app::settings::check_overrides(&cli.global.overrides) {
        let e = command_error::config(&e);
        exit::report(&e.message);
        return ExitCode::from(e.status);
    }
    use commands::{auth, config, docs, eval, models, plugins, sessions, tools, trust};
    let result = match cli.command {
        Some(cli::Command::Eval(args)) => eval::run(args, &cli.global),
        Some(cli::Command::Docs(args)) => docs::run(args),
        Some(cli::Command::Config(args)) => config::run(args, &cli.global),
        Some(cli::Command::Tools(args)) => tools::run(args, &cli.global),
        Some(cli::Command::Plugins(args)) => plugins::run(args, &cli.global),
        Some(cli::Command::Trust(args)) => trust::run(args),
        Some(cli::Command::Auth(args)) => auth::run(args, &cli.global),
        Some(cli::Command::Models(args)) => models::run(args, &cli.global),
        Some(cli::Command::Sessions(args)) => sessions::run(args),
        None => Err(command_error::CliError::usage(
            "the fullscreen terminal UI is not built yet; run one turn with `smith eval --model scripted/demo \"Hello\"`, or see `smith --help`",
        )),
    };
    match result {
        Ok(status) => ExitCode::from(status),
        Err(e) => {
            exit::report(&e.message);
            ExitCode::from(e.status)
        }
    }
}
