//! `smith tools list`: the active tools — name, plugin, description, input schema — of the
//! enabled plugins.

use clap::{Args, Subcommand};

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
    // What a run from here would offer: the user's policy withholds some tools.
    let cwd = std::env::current_dir().ok();
    let tools = smith_app::catalog::tool_records(&app, cwd.as_deref(), &process_refusal)?;
    let mut out = String::new();
    for tool in &tools {
        if json {
            out.push_str(&serde_json::to_string(tool).unwrap_or_default());
            out.push('\n');
        } else {
            out.push_str(&format!(
                "{}  ({})  {}\n",
                tool.name,
                tool.plugin,
                first_sentence(&tool.description)
            ));
            if let Some(why) = &tool.withheld {
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
