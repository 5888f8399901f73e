//! `smith plugins list`: every known plugin — id, version, world, grants, state — and which
//! requested grants this directory does not give. Also how this command line words a
//! refusal of process execution ([`process_refusal`]), for every command that runs tools.

use clap::{Args, Subcommand};
use smith_app::ProcessRefusal;
use smith_host::ProcessPolicy;

use crate::cli::Global;
use crate::command_error::CliError;
use crate::output::{report_notices, write_stdout};

pub(crate) const PLUGINS_AFTER_HELP: &str = "\
State is `active` (loaded; its tools are available) or `disabled` (by --disable-plugin or the
setting plugins.ID.enabled, whose source is shown). Grants are what the plugin's manifest
requests; `process.exec` is given only in a trusted project (`smith trust`) or with
--allow-process / process.allow=true.

Exit status:
  0    success (also when stdout is closed early)
  1    a plugin could not be loaded
  2    bad arguments or configuration";

/// Arguments of `smith plugins`.
#[derive(Debug, Args)]
pub(crate) struct PluginsArgs {
    #[command(subcommand)]
    pub(crate) command: PluginsCommand,
}

/// `smith plugins` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum PluginsCommand {
    /// One line per plugin, in load order.
    List {
        /// One JSON record per plugin: `id`, `version`, `world`, `grants`, `state`, `tools`,
        /// `origin`, `disabled_by` when disabled, and `refused_grants` (grant and why) for
        /// requested grants this directory does not give, such as `process.exec` in an
        /// untrusted project.
        #[arg(long)]
        json: bool,
    },
}

/// A refusal of process execution as the model and the user read it here: why, and the
/// commands and flags that change it.
pub(crate) fn process_refusal(refusal: &ProcessRefusal) -> String {
    match refusal {
        ProcessRefusal::SwitchedOff { source } => format!(
            "running programs is switched off: process.allow is false ({source}); remove that setting to allow it in trusted projects, or pass --allow-process"
        ),
        ProcessRefusal::Untrusted { project } => {
            let shown = project.display().to_string();
            format!(
                "running programs is not allowed here: the project {shown} is not trusted. Trust it with `smith trust {shown}`, or allow programs for one command with `--allow-process` (or the setting process.allow=true)"
            )
        }
    }
}

/// `smith plugins …`.
pub(crate) fn run(args: PluginsArgs, global: &Global) -> Result<u8, CliError> {
    let PluginsCommand::List { json } = args.command;
    let app = global.app(&[])?;
    report_notices(&app.settings.notices);
    // Loading proves the active ones load; a failure is reported with its plugin.
    app.load_plugins(|_| true)?;
    // Whether `process.exec` would be given to a plugin run from here.
    let cwd = std::env::current_dir().ok();
    let process = match &cwd {
        Some(cwd) => app.policy(cwd, &process_refusal)?.process,
        None => ProcessPolicy::Refused("the current directory is not accessible".to_owned()),
    };
    let mut out = String::new();
    for p in app.registry.plugins() {
        let m = &p.manifest;
        let grants: Vec<String> = m.grants.iter().map(ToString::to_string).collect();
        let state = if p.disabled_by.is_some() {
            "disabled"
        } else {
            "active"
        };
        if json {
            let record = smith_app::catalog::plugin_record(p, &process);
            out.push_str(&record.to_string());
            out.push('\n');
        } else {
            let grants = if grants.is_empty() {
                "no grants".to_owned()
            } else {
                grants.join(", ")
            };
            let state = match &p.disabled_by {
                Some(by) => format!("disabled by {by}"),
                None => state.to_owned(),
            };
            let contributes = if let Some(p) = &m.provider {
                format!("provider: {}", p.id)
            } else if m.is_handler() {
                format!("handlers: {}", m.handlers.join(", "))
            } else {
                format!("tools: {}", m.tools.join(", "))
            };
            out.push_str(&format!(
                "{} {}  {}  [{grants}]  {state}  {contributes}\n",
                m.id, m.version, m.world
            ));
            if let Some(provider) = &m.provider {
                out.push_str(&provider_line(&app, provider));
            }
            if let (true, ProcessPolicy::Refused(why)) = (
                m.grants.contains(&smith_host::grants::Grant::ProcessExec),
                &process,
            ) {
                out.push_str(&format!(
                    "  process.exec is not given here, so its tools ({}) are not offered to the model: {why}\n",
                    m.tools.join(", ")
                ));
            }
        }
    }
    write_stdout(&smith_render_plain::printable(&out))
}

/// A provider plugin's second line: the base URL it uses here (and what set it) and where its
/// key is read from.
fn provider_line(app: &smith_app::App, provider: &smith_host::manifest::ProviderDecl) -> String {
    let id = &provider.id;
    let key = format!("provider.{id}.base-url");
    let url = match app.settings.resolved.get(&key) {
        Some(v) => format!("base URL {} (from {})", v.value, v.source),
        None if !provider.base_url.starts_with("http") => {
            format!("no network: its transport is `{}`", provider.base_url)
        }
        None => format!(
            "base URL {} (the default; {key} overrides it)",
            provider.base_url
        ),
    };
    let credential = match &provider.api_key {
        Some(k) => format!(
            "key from {} or the auth file (`smith auth set {id}`), {}",
            smith_app::route::key_variable(&app.settings, id, &k.env),
            if k.required { "required" } else { "optional" }
        ),
        None => "no key".to_owned(),
    };
    format!("  {url}; {credential}\n")
}
