//! `smith tools list`: the active tools — name, plugin, description, input schema — of the
//! enabled plugins.

use clap::{Args, Subcommand};
use serde_json::json;
use smith::ToolRegistry as _;

use crate::cli::Global;
use crate::command_error::CliError;
use crate::commands::plugins::process_refusal;
use crate::output::{report_notices, write_stdout};

pub(crate) const TOOLS_AFTER_HELP: &str = "\
Every tool comes from a plugin (the bundled ones are ordinary plugins); a disabled plugin's
tools are not listed, not offered to the model and cannot be called. Disable one with
--disable-plugin ID or `smith config set plugins.ID.enabled false`. A tool whose plugin needs
a grant this directory does not give (`bash` needs `process.exec`: a trusted project or
--allow-process) is listed with why, and a run from here does not offer it to the model.
Schemas and output bounds of the bundled tools: `smith docs get reference/tools`.

Exit status:
  0    success (also when stdout is closed early)
  1    a plugin could not be loaded
  2    bad arguments or configuration (e.g. --disable-plugin naming no plugin)";

/// Arguments of `smith tools`.
#[derive(Debug, Args)]
pub(crate) struct ToolsArgs {
    #[command(subcommand)]
    pub(crate) command: ToolsCommand,
}

/// `smith tools` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum ToolsCommand {
    /// One line per active tool (name, plugin, description, and why a run from here would
    /// not offer it); --json adds the input schema.
    List {
        /// One JSON record per tool: `name`, `plugin`, `description`, `input_schema`,
        /// `offered` (whether a run from here offers it) and `withheld` (why not, or null).
        #[arg(long)]
        json: bool,
    },
}

/// `smith tools …`.
pub(crate) fn run(args: ToolsArgs, global: &Global) -> Result<u8, CliError> {
    let ToolsCommand::List { json } = args.command;
    let app = global.app(&[])?;
    report_notices(&app.settings.notices);
    let host = app.load_plugins(|_| true)?;
    let mut loadout = host.loadout();
    // What a run from here would offer: the user's policy withholds some tools.
    if let Ok(cwd) = std::env::current_dir() {
        loadout = loadout.with_policy(app.policy(&cwd, &process_refusal)?);
    }
    let withheld = loadout.withheld();
    let mut out = String::new();
    for (plugin, definition) in loadout.tools() {
        let why = withheld
            .iter()
            .find(|w| w.name == definition.name)
            .map(|w| w.why.as_str());
        if json {
            let record = json!({
                "name": definition.name,
                "plugin": plugin,
                "description": definition.description,
                "input_schema": definition.input_schema,
                "offered": why.is_none(),
                "withheld": why,
            });
            out.push_str(&record.to_string());
            out.push('\n');
        } else {
            out.push_str(&format!(
                "{}  ({plugin})  {}\n",
                definition.name,
                first_sentence(&definition.description)
            ));
            if let Some(why) = why {
                out.push_str(&format!("  not offered here: {why}\n"));
            }
        }
    }
    if out.is_empty() && !json {
        out.push_str("no tools are active: every tool-contributing plugin is disabled\n");
    }
    write_stdout(&smith_render_plain::printable(&out))
}

fn first_sentence(text: &str) -> &str {
    text.find(". ").map_or(text, |end| &text[..=end])
}
