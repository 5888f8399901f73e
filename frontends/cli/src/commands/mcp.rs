//! `smith mcp` (and `smith mcp serve`): serve the Model Context Protocol over stdin and stdout
//! (`smith-mcp`), for a client that spawns Smith. Diagnostics before the server starts go to
//! stderr; once it serves, stdout carries MCP messages only. The other subcommands change and
//! show the MCP servers Smith itself uses (`mcp_servers`).

use clap::Args;

use crate::cli::Global;
use crate::command_error::CliError;
use crate::exit;
use crate::output::report_notices;

pub(crate) const MCP_AFTER_HELP: &str = "\
Protocol:
  MCP revisions 2025-11-25 and 2025-06-18 over stdio (negotiated by `initialize`; the stateless
  2026-07-28 revision is not served yet: `server/discover` gets \"method not found\", and
  clients fall back). One JSON-RPC message per LF-terminated line; stdout carries MCP messages
  only, diagnostics go to stderr. The guide is `smith docs get mcp`.

Exposed:
  tools      every active tool plugin's tool, under your grants, process policy and trust
             (`smith tools list`), each effect recorded in the server's session; and
             `smith_run`, which runs a prompt as an agent turn with the configured model
  resources  sessions: smith://session/ID, smith://session/ID/entries/CURSOR, and
             smith://server/session (the session effects are recorded in)

Example (Claude Code):
  claude mcp add smith -- smith mcp

Exit status:
  0    the input ended (or a signal stopped the server) and the session was closed
  2    bad configuration: nothing was served";

/// Arguments of `smith mcp`: a subcommand, or none to serve (as `smith mcp serve`).
#[derive(Debug, Args)]
#[command(args_conflicts_with_subcommands = true)]
pub(crate) struct McpArgs {
    #[command(subcommand)]
    pub(crate) command: Option<McpCommand>,
    #[command(flatten)]
    pub(crate) serve: ServeArgs,
}

/// `smith mcp` subcommands.
#[derive(Debug, clap::Subcommand)]
pub(crate) enum McpCommand {
    /// Serve MCP over stdin and stdout (what plain `smith mcp` does; `smith mcp --help` says
    /// what is served).
    Serve(ServeArgs),
    /// Add an MCP server (a program, or a Streamable HTTP URL) whose tools Smith offers as
    /// mcp__NAME__TOOL.
    #[command(after_help = crate::commands::mcp_servers::ADD_AFTER_HELP)]
    Add(crate::commands::mcp_servers::AddArgs),
    /// List the MCP servers you added or declared in the configuration, each with its state.
    List {
        /// One JSON record per server.
        #[arg(long)]
        json: bool,
    },
    /// Show one MCP server: its command or URL, environment or header names, sandbox, secret,
    /// and the tools it listed.
    Get {
        /// The server's name.
        name: String,
        /// One JSON record.
        #[arg(long)]
        json: bool,
    },
    /// Remove an MCP server; its tools are no longer offered.
    Remove {
        /// The server's name.
        name: String,
    },
}

/// Arguments of `smith mcp serve` (and of plain `smith mcp`).
#[derive(Debug, Args)]
pub(crate) struct ServeArgs {
    /// The model `smith_run` uses (as the `model` setting); `smith -m MODEL mcp` gives it too.
    #[arg(short, long, value_name = "PROVIDER/MODEL")]
    pub(crate) model: Option<String>,
    /// Record tool effects in this existing session (an id or unique prefix; `last`: the
    /// session most recently written among those started in this directory, else in the
    /// nearest directory above it in its project) instead of a new one.
    #[arg(long, value_name = "ID")]
    pub(crate) session: Option<String>,
    /// Play this provider script in `smith_run` turns (scripted provider only); the model name
    /// becomes its label.
    #[arg(long, value_name = "FILE")]
    pub(crate) script: Option<std::path::PathBuf>,
}

/// `smith mcp …`: serve, or change and show the servers Smith uses.
pub(crate) fn run(args: McpArgs, global: &Global) -> Result<u8, CliError> {
    use crate::commands::mcp_servers as servers;
    match args.command {
        None => serve(&args.serve, global),
        Some(McpCommand::Serve(serve_args)) => serve(&serve_args, global),
        Some(McpCommand::Add(add)) => servers::add(add, global),
        Some(McpCommand::List { json }) => servers::list(json, global),
        Some(McpCommand::Get { name, json }) => servers::get(&name, json, global),
        Some(McpCommand::Remove { name }) => servers::remove(&name, global),
    }
}

/// Serve until stdin ends.
fn serve(args: &ServeArgs, global: &Global) -> Result<u8, CliError> {
    let app = global.app_with_model(args.model.as_deref())?;
    report_notices(&app.settings.notices);
    let cwd = crate::command_error::current_dir()?;
    // A session that cannot be found is bad configuration: nothing is served.
    if let Some(wanted) = &args.session {
        let target = smith_app::runner::target::Target::named(wanted);
        smith_app::runner::target::resolve(&app, &target, &cwd).map_err(|e| match e {
            smith_app::runner::target::OpenError::Find(e) => CliError::new(
                exit::USAGE,
                format!(
                    "smith mcp: --session {wanted}: {e}; `smith sessions list` shows the sessions, or leave --session out to record in a new one"
                ),
            ),
            other => crate::commands::eval::target::open_error(other, "--session last"),
        })?;
    }
    let mcp = smith_mcp::Mcp::new(app, cwd, args.session.clone()).with_script(args.script.clone());
    let stop = mcp.stopper();
    crate::interrupt::on_interrupt(move || {
        stop.stop();
        crate::memory_report::write_at_exit();
        std::process::exit(i32::from(exit::SUCCESS));
    });
    mcp.serve(std::io::stdin().lock(), std::io::stdout());
    Ok(exit::SUCCESS)
}
