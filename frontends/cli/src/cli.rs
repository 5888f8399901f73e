//! The root of the command-line declarations — the one source of `--help` and of the
//! generated command reference. Each command's arguments are declared beside it, in
//! `commands/`.

use clap::{Args, Parser, Subcommand};

use crate::commands::acp::{ACP_AFTER_HELP, AcpArgs};
use crate::commands::auth::{AUTH_AFTER_HELP, AuthArgs};
use crate::commands::completions::{COMPLETIONS_AFTER_HELP, CompletionsArgs};
use crate::commands::config::{CONFIG_AFTER_HELP, ConfigArgs};
use crate::commands::docs::{DOCS_AFTER_HELP, DocsArgs};
use crate::commands::eval::{EVAL_AFTER_HELP, EvalArgs};
use crate::commands::mcp::{MCP_AFTER_HELP, McpArgs};
use crate::commands::models::{MODELS_AFTER_HELP, ModelsArgs};
use crate::commands::plugins::{PLUGINS_AFTER_HELP, PluginsArgs};
use crate::commands::rpc::{RPC_AFTER_HELP, RpcArgs};
use crate::commands::secrets::{SECRETS_AFTER_HELP, SecretsArgs};
use crate::commands::sessions::{SESSIONS_AFTER_HELP, SessionsArgs};
use crate::commands::tools::{TOOLS_AFTER_HELP, ToolsArgs};
use crate::commands::trust::{TRUST_AFTER_HELP, TrustArgs};
use crate::exit;

/// What `smith --version` says after the name: the version, the commit built and the target
/// (`0.1.0 (0123456789ab x86_64-unknown-linux-gnu)`; set by `build.rs`: the commit is
/// `unknown` in a debug build). `-V` says the version alone.
pub(crate) const LONG_VERSION: &str = concat!(
    env!("CARGO_PKG_VERSION"),
    " (",
    env!("SMITH_COMMIT"),
    " ",
    env!("SMITH_TARGET"),
    ")"
);

/// Smith — a fast coding agent with durable sessions and sandboxed plugins.
#[derive(Debug, Parser)]
#[command(
    name = "smith",
    version,
    long_version = LONG_VERSION,
    about = "Smith — a fast coding agent with durable sessions and sandboxed plugins",
    long_about = "Smith — a fast coding agent with durable sessions and sandboxed plugins.\n\nWith no command, smith opens the fullscreen terminal UI in this directory (a new session;\n--continue or --session ID to go on; `smith docs get tui`):\n  smith --model scripted/demo\n\nRun one agent turn offline, with no key, for pipes and scripts:\n  smith eval --model scripted/demo \"Hello\"",
    after_help = exit::HELP,
    propagate_version = true
)]
pub(crate) struct Cli {
    #[command(flatten)]
    pub(crate) global: Global,

    /// The terminal UI's options (`smith` with no subcommand).
    #[command(flatten)]
    pub(crate) tui: crate::commands::tui::TuiArgs,

    #[command(subcommand)]
    pub(crate) command: Option<Command>,
}

impl Cli {
    /// Parse the process arguments as [`Parser::try_parse`] does, except that the repeatable
    /// global options keep every occurrence, before and after the subcommand, in command-line
    /// order. Clap alone keeps only the subcommand's when both are given, which would drop a
    /// `-c secrets.env=…` written before `eval` once `eval -c …` follows; so the options
    /// before the subcommand are parsed on their own as well.
    ///
    /// # Errors
    /// Clap's: help, version and usage errors.
    pub(crate) fn parse_all_globals() -> Result<Self, clap::Error> {
        let args: Vec<std::ffi::OsString> = std::env::args_os().collect();
        let mut cli = Self::try_parse_from(&args)?;
        let before = root_options(&args);
        if before < args.len() && cli.command.is_some() {
            let root = Self::try_parse_from(&args[..before])?.global;
            for (all, first) in [
                (&mut cli.global.overrides, root.overrides),
                (&mut cli.global.disable_plugin, root.disable_plugin),
            ] {
                // Without options of its own the subcommand holds the root's, copied down.
                if *all != first {
                    let mut merged = first;
                    merged.append(all);
                    *all = merged;
                }
            }
            cli.global.allow_process |= root.allow_process;
            if cli.global.sandbox.is_none() {
                cli.global.sandbox = root.sandbox;
            }
            if cli.global.permission_mode.is_none() {
                cli.global.permission_mode = root.permission_mode;
            }
        }
        Ok(cli)
    }
}

impl Command {
    /// The subcommand's name as typed (`eval`, `sessions`, …).
    pub(crate) fn name(&self) -> &'static str {
        match self {
            Self::Eval(_) => "eval",
            Self::Compact(_) => "compact",
            Self::Replay(_) => "replay",
            Self::Undo(_) => "undo",
            Self::Redo(_) => "redo",
            Self::Restore(_) => "restore",
            Self::Diff(_) => "diff",
            Self::Rpc(_) => "rpc",
            Self::Mcp(_) => "mcp",
            Self::Acp(_) => "acp",
            Self::Docs(_) => "docs",
            Self::Config(_) => "config",
            Self::Sessions(_) => "sessions",
            Self::Effects(_) => "effects",
            Self::Trust(_) => "trust",
            Self::Doctor(_) => "doctor",
            Self::Tools(_) => "tools",
            Self::Plugins(_) => "plugins",
            Self::Auth(_) => "auth",
            Self::Secrets(_) => "secrets",
            Self::Models(_) => "models",
            Self::Completions(_) => "completions",
        }
    }
}

/// How many of `args` (the program name first) precede the subcommand: the global options
/// and their values (`-c KEY=VALUE`, `--config …`, `--disable-plugin ID`, each also as
/// `--name=value` or `-cVALUE`), up to the first other word.
fn root_options(args: &[std::ffi::OsString]) -> usize {
    let mut i = 1;
    while let Some(arg) = args.get(i).and_then(|a| a.to_str()) {
        match arg {
            "-c" | "--config" | "--disable-plugin" | "--sandbox" | "--permission-mode" => i += 2,
            "--allow-process" => i += 1,
            a if a.starts_with("--config=")
                || a.starts_with("--disable-plugin=")
                || a.starts_with("--sandbox=")
                || a.starts_with("--permission-mode=")
                || (a.starts_with("-c") && a.len() > 2) =>
            {
                i += 1;
            }
            _ => break,
        }
    }
    i.min(args.len())
}

/// Options every command takes (they are settings: `smith config show` lists them).
#[derive(Debug, Args)]
pub(crate) struct Global {
    /// Override one setting for this command (repeatable; highest precedence), e.g.
    /// `-c model=scripted/demo`. See `smith config show` for the settings.
    #[arg(short = 'c', long = "config", value_name = "KEY=VALUE", global = true, action = clap::ArgAction::Append)]
    pub(crate) overrides: Vec<String>,

    /// Do not load plugin ID for this command (repeatable): its tools are neither offered nor
    /// callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids.
    #[arg(long = "disable-plugin", value_name = "ID", global = true, action = clap::ArgAction::Append)]
    pub(crate) disable_plugin: Vec<String>,

    /// Let tools run external programs (e.g. the `bash` tool) for this command as the
    /// permission mode decides, even though the project is not trusted (where each program
    /// is otherwise asked first). Same as `-c process.allow=true`.
    #[arg(long = "allow-process", global = true)]
    pub(crate) allow_process: bool,

    /// The OS sandbox the programs tools run start in: `read-only`, `workspace-write` (the
    /// default) or `full-access` (no confinement). Same as `-c sandbox.mode=MODE`; `smith
    /// docs get sandbox` says what each enforces.
    #[arg(long = "sandbox", value_name = "MODE", global = true, value_parser = ["read-only", "workspace-write", "full-access"])]
    pub(crate) sandbox: Option<String>,

    /// The permission mode: `plan` (reads only; every write and program refused), `ask`
    /// (writes and programs ask), `auto-edit` (writes run, programs ask) or `auto` (what the
    /// sandbox permits runs). Same as `-c permissions.mode=MODE`; `smith docs get
    /// permissions` says what each does.
    #[arg(long = "permission-mode", value_name = "MODE", global = true, value_parser = ["plan", "ask", "auto-edit", "auto"])]
    pub(crate) permission_mode: Option<String>,
}

/// The commands.
#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Run one agent turn without the terminal UI and print its output.
    #[command(after_help = EVAL_AFTER_HELP)]
    Eval(EvalArgs),
    /// Compact a session now: the model summarizes its older context, the recent part stays
    /// verbatim, and later requests start from the summary (history is kept).
    #[command(after_help = crate::commands::eval::compact::COMPACT_AFTER_HELP)]
    Compact(crate::commands::eval::compact::CompactArgs),
    /// Replay a recorded session from its file alone — no provider, nothing run — as its live
    /// runs showed it (plain, or the intents as JSON lines).
    #[command(after_help = crate::commands::eval::replay::REPLAY_AFTER_HELP)]
    Replay(crate::commands::eval::replay::ReplayArgs),
    /// Take back the latest change a session's tool batch made to the working tree (files
    /// written by any tool, `bash` included), restoring the snapshot before it.
    #[command(after_help = crate::commands::history::UNDO_AFTER_HELP)]
    Undo(crate::commands::history::UndoArgs),
    /// Replay what the latest undo took back.
    #[command(after_help = crate::commands::history::UNDO_AFTER_HELP)]
    Redo(crate::commands::history::UndoArgs),
    /// Restore the working tree to a snapshot, or to its state at an entry of the session
    /// (time travel); recorded, so undo takes it back.
    #[command(after_help = crate::commands::history::UNDO_AFTER_HELP)]
    Restore(crate::commands::history::RestoreArgs),
    /// Show what changed in the working tree between two snapshots or entries, as a git
    /// diff (or --stat, --json).
    #[command(after_help = crate::commands::history::DIFF_AFTER_HELP)]
    Diff(crate::commands::history::DiffArgs),
    /// Serve JSON-RPC 2.0 over stdin and stdout: sessions, submission with durable receipts,
    /// queue, abort, observation from durable positions, inspection.
    #[command(after_help = RPC_AFTER_HELP)]
    Rpc(RpcArgs),
    /// Serve the Model Context Protocol over stdin and stdout for a client that spawns Smith:
    /// its tools with durable effects, sessions as resources, an agent turn as a tool.
    #[command(after_help = MCP_AFTER_HELP)]
    Mcp(McpArgs),
    /// Serve the Agent Client Protocol over stdin and stdout for an editor that spawns Smith
    /// (Zed, JetBrains, Neovim, Emacs): sessions, prompts with streamed updates, permission
    /// requests, modes.
    #[command(after_help = ACP_AFTER_HELP)]
    Acp(AcpArgs),
    /// Read Smith's documentation, offline: list, search and get documents.
    #[command(after_help = DOCS_AFTER_HELP)]
    Docs(DocsArgs),
    /// Show, check and set configuration; every value with its source.
    #[command(after_help = CONFIG_AFTER_HELP)]
    Config(ConfigArgs),
    /// Inspect recorded sessions (list, search, read, verify, follow, the request an attempt
    /// sent), fork one, select the branch a session continues on, or edit what later requests
    /// show the model.
    #[command(after_help = SESSIONS_AFTER_HELP)]
    Sessions(SessionsArgs),
    /// List a session's effects whose outcome is unknown (a crash cut them off), with their
    /// evidence, and record your verdict on one.
    #[command(after_help = crate::commands::effects::EFFECTS_AFTER_HELP)]
    Effects(crate::commands::effects::EffectsArgs),
    /// Trust a project so its `.smith/config.kdl` applies and its tools may run programs (or
    /// revoke that trust).
    #[command(after_help = TRUST_AFTER_HELP)]
    Trust(TrustArgs),
    /// Report what this machine offers Smith: the OS sandbox the programs tools run start in
    /// (the kernel's Landlock, whether the configured mode is enforced, what each mode does).
    #[command(after_help = crate::commands::doctor::DOCTOR_AFTER_HELP)]
    Doctor(crate::commands::doctor::DoctorArgs),
    /// List the active tools: name, plugin, description, input schema.
    #[command(after_help = TOOLS_AFTER_HELP)]
    Tools(ToolsArgs),
    /// List the plugins: id, version, world, grants, state.
    #[command(after_help = PLUGINS_AFTER_HELP)]
    Plugins(PluginsArgs),
    /// Check provider credentials without a model request, and store a key (typed with echo
    /// off, or piped on stdin).
    #[command(after_help = AUTH_AFTER_HELP)]
    Auth(AuthArgs),
    /// Register secrets that never reach a provider, a session file or any output (stored with
    /// mode 0600, values never printed), and list every secret a run redacts.
    #[command(after_help = SECRETS_AFTER_HELP)]
    Secrets(SecretsArgs),
    /// List the model catalog: limits, capabilities, prices and where each figure comes from.
    #[command(after_help = MODELS_AFTER_HELP)]
    Models(ModelsArgs),
    /// Print a shell completion script (bash, zsh, fish, powershell, elvish).
    #[command(after_help = COMPLETIONS_AFTER_HELP)]
    Completions(CompletionsArgs),
}

impl Global {
    /// The invocation these options describe, run in `cwd`, with the command's own settings
    /// (`(flag, key, value)`, e.g. `("--model", "model", "scripted/demo")`) after them.
    pub(crate) fn invocation(
        &self,
        cwd: Option<std::path::PathBuf>,
        flags: &[(&str, &str, &str)],
    ) -> smith_app::Invocation {
        let mut invocation = smith_app::Invocation {
            overrides: self.overrides.clone(),
            settings: Vec::new(),
            cwd,
        };
        for id in &self.disable_plugin {
            invocation.set(
                format!("--disable-plugin {id}"),
                format!("plugins.{id}.enabled"),
                "false",
            );
        }
        if self.allow_process {
            invocation.set("--allow-process", "process.allow", "true");
        }
        if let Some(mode) = &self.sandbox {
            invocation.set(format!("--sandbox {mode}"), "sandbox.mode", mode.clone());
        }
        if let Some(mode) = &self.permission_mode {
            invocation.set(
                format!("--permission-mode {mode}"),
                "permissions.mode",
                mode.clone(),
            );
        }
        for (flag, key, value) in flags {
            invocation.set(*flag, *key, *value);
        }
        invocation
    }

    /// Load the composition root for a command run in the current directory. Its notices
    /// are left for the command to report (some commands report none).
    pub(crate) fn app(
        &self,
        flags: &[(&str, &str, &str)],
    ) -> Result<smith_app::App, crate::command_error::CliError> {
        let invocation = self.invocation(std::env::current_dir().ok(), flags);
        Ok(smith_app::App::load(
            smith_app::Paths::from_env(),
            &invocation,
        )?)
    }

    /// [`Global::app`] with a command's `--model` flag, when given, as the `model` setting.
    pub(crate) fn app_with_model(
        &self,
        model: Option<&str>,
    ) -> Result<smith_app::App, crate::command_error::CliError> {
        let flags: Vec<(&str, &str, &str)> =
            model.map(|m| ("--model", "model", m)).into_iter().collect();
        self.app(&flags)
    }
}
