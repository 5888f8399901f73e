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
mod interrupt;
pub mod memory_report;
mod output;
mod reference;
mod tools_reference;

use std::process::ExitCode;

use clap::CommandFactory;

pub use commands::completions::script as completion_script;
pub use reference::{generated_regions, reference_docs};

/// The complete clap command tree of `smith`.
pub fn command() -> clap::Command {
    cli::Cli::command()
}

/// Whether the process arguments ask for `smith eval --json` (before any `--`): a command
/// line clap refuses then still gets its one `error` record on stdout (eval-json).
fn eval_json_requested() -> bool {
    let args: Vec<std::ffi::OsString> = std::env::args_os()
        .skip(1)
        .take_while(|a| a != "--")
        .collect();
    args.iter().any(|a| a == "eval")
        && args
            .iter()
            .any(|a| a == "--json" || a.to_str().is_some_and(|a| a.starts_with("--json=")))
}

/// Run `smith` with the process arguments and return its exit status.
pub fn main() -> ExitCode {
    // The sandbox launcher first, while the process is still single-threaded: `smith
    // __sandbox SPEC -- PROGRAM ARGS…` confines itself and becomes the program.
    let mut args = std::env::args_os();
    if args
        .nth(1)
        .is_some_and(|a| a == smith_host::sandbox::LAUNCH_ARG)
    {
        return sandbox_launch(&args.collect::<Vec<_>>());
    }
    if let Ok(me) = std::env::current_exe() {
        smith_host::sandbox::set_launcher(smith_host::sandbox::launcher_for(&me));
    }
    let mut cli = match cli::Cli::parse_all_globals() {
        Ok(cli) => cli,
        Err(e) => {
            // Help and version go to stdout with status 0; usage errors to stderr with 2.
            let status = if e.use_stderr() {
                exit::USAGE
            } else {
                exit::SUCCESS
            };
            let _ = e.print(); // best effort: a closed stream must not panic
            if status == exit::USAGE && eval_json_requested() {
                // The diagnostic without its usage lines, on one line.
                let rendered = e.render().to_string();
                let head = rendered.split("\n\nUsage:").next().unwrap_or_default();
                let words: Vec<&str> = head
                    .lines()
                    .map(str::trim)
                    .filter(|l| !l.is_empty())
                    .collect();
                let text = words.join(" ");
                let message = format!(
                    "{}; see `smith eval --help`",
                    text.strip_prefix("error: ").unwrap_or(&text)
                );
                commands::eval::write_error_record(&command_error::CliError::usage(message));
            }
            return ExitCode::from(status);
        }
    };
    if let Err(e) = smith_app::settings::check_overrides(&cli.global.overrides) {
        let e = command_error::config(&e);
        exit::report(&e.message);
        if matches!(&cli.command, Some(cli::Command::Eval(args)) if args.json) {
            commands::eval::write_error_record(&e);
        }
        return ExitCode::from(e.status);
    }
    carry_model_down(&mut cli);
    if let Some(command) = &cli.command
        && let Some(flag) = cli.tui.given()
    {
        exit::report(&format!(
            "{flag} before `{}` is an option of the terminal UI (`smith` with no command), so that command would ignore it; write it after the command (e.g. `smith eval --model scripted/demo \"Hello\"`), or leave the command out to open the UI",
            command.name()
        ));
        return ExitCode::from(exit::USAGE);
    }
    if let Some((given, resolved)) = smith_app::Paths::from_env().relative_home() {
        exit::report(&format!(
            "note: SMITH_HOME is the relative path {}, so it leads somewhere else from every directory; here it is {} (set an absolute path to keep one home)",
            given.display(),
            resolved.display()
        ));
    }
    use commands::{
        auth, completions, config, docs, eval, models, plugins, sessions, tools, trust,
    };
    let result = match cli.command {
        Some(cli::Command::Eval(args)) => {
            smith_store::holder::set_frontend("eval");
            interrupt::install();
            eval::run(args, &cli.global)
        }
        Some(cli::Command::Compact(args)) => {
            smith_store::holder::set_frontend("compact");
            interrupt::install();
            eval::compact::run(&args, &cli.global)
        }
        Some(cli::Command::Replay(args)) => {
            interrupt::install();
            eval::replay::run(&args, &cli.global)
        }
        Some(cli::Command::Undo(args)) => {
            smith_store::holder::set_frontend("undo");
            commands::history::undo(commands::history::Verb::Undo, &args, &cli.global)
        }
        Some(cli::Command::Redo(args)) => {
            smith_store::holder::set_frontend("redo");
            commands::history::undo(commands::history::Verb::Redo, &args, &cli.global)
        }
        Some(cli::Command::Restore(args)) => {
            smith_store::holder::set_frontend("restore");
            commands::history::restore(&args, &cli.global)
        }
        Some(cli::Command::Diff(args)) => commands::history::diff(&args, &cli.global),
        Some(cli::Command::Rpc(args)) => {
            smith_store::holder::set_frontend("rpc");
            interrupt::install();
            commands::rpc::run(&args, &cli.global)
        }
        Some(cli::Command::Mcp(args)) => {
            smith_store::holder::set_frontend("mcp");
            interrupt::install();
            commands::mcp::run(args, &cli.global)
        }
        Some(cli::Command::Acp(args)) => {
            smith_store::holder::set_frontend("acp");
            interrupt::install();
            commands::acp::run(&args, &cli.global)
        }
        Some(cli::Command::Docs(args)) => docs::run(args),
        Some(cli::Command::Config(args)) => config::run(args, &cli.global),
        Some(cli::Command::Tools(args)) => tools::run(args, &cli.global),
        Some(cli::Command::Plugins(args)) => plugins::run(args, &cli.global),
        Some(cli::Command::Trust(args)) => trust::run(args),
        Some(cli::Command::Doctor(args)) => commands::doctor::run(&args, &cli.global),
        Some(cli::Command::Auth(args)) => auth::run(args, &cli.global),
        Some(cli::Command::Secrets(args)) => commands::secrets::run(args, &cli.global),
        Some(cli::Command::Models(args)) => models::run(args, &cli.global),
        Some(cli::Command::Sessions(args)) => sessions::run(args),
        Some(cli::Command::Effects(args)) => commands::effects::run(args),
        Some(cli::Command::Completions(args)) => completions::run(&args),
        None => commands::tui::run(&cli.tui, &cli.global),
    };
    match result {
        Ok(status) => ExitCode::from(status),
        Err(e) => {
            exit::report(&e.message);
            ExitCode::from(e.status)
        }
    }
}

/// A root `--model` before a server command given no model of its own is that server's:
/// `smith -m X mcp` is the natural line of an MCP host's configuration (`claude mcp add smith
/// -- smith -m X mcp`), and of a JSON-RPC client's (`smith -m X rpc`). Before any other
/// command, or given on both sides, it stays where it is and is refused as an option of the
/// terminal UI (a one-shot command says its model after its name).
fn carry_model_down(cli: &mut cli::Cli) {
    let Some(model) = cli.tui.model.take() else {
        return;
    };
    let slot = match &mut cli.command {
        Some(cli::Command::Mcp(a)) => match &mut a.command {
            None => &mut a.serve.model,
            Some(crate::commands::mcp::McpCommand::Serve(s)) => &mut s.model,
            Some(_) => {
                cli.tui.model = Some(model);
                return;
            }
        },
        Some(cli::Command::Rpc(a)) => &mut a.model,
        Some(cli::Command::Acp(a)) => &mut a.model,
        _ => {
            cli.tui.model = Some(model);
            return;
        }
    };
    if slot.is_none() {
        *slot = Some(model);
    } else {
        cli.tui.model = Some(model);
    }
}

/// The launcher's side of the sandbox: returns only when the program could not be confined
/// (or started), with the failure line the host recognises on stderr.
pub fn sandbox_launch(args: &[std::ffi::OsString]) -> ExitCode {
    let line = smith_host::sandbox::launch(args);
    // The line starts stderr as it is (no `smith:` prefix): the host matches it there.
    let _ = std::io::Write::write_all(&mut std::io::stderr().lock(), line.as_bytes());
    ExitCode::from(smith_host::sandbox::LAUNCH_FAILED as u8)
}
