//! `smith tools list`: the active tools — name, plugin, description, input schema — of the
//! enabled plugins.

use clap::{Args, Subcommand};
use serde_json::json;

use crate::cli::Global;
use crate::command_error::CliError;
use crate::output::{report_notices, write_stdout};

pub(crate) const TOOLS_AFTER_HELP: &str = "\
Every tool comes from a plugin (the bundled ones are ordinary plugins); a disabled plugin's
tools are not listed, not offered to the model and cannot be called. Disable one with
--disable-plugin ID or `smith config set plugins.ID.enabled false`. Schemas and output bounds
of the bundled tools: `smith docs get reference/tools`.

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
    /// One line per active tool (name, plugin, description); --json adds the input schema.
    List {
        /// One JSON record per tool: `name`, `plugin`, `description`, `input_schema`.
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
    let loadout = host.loadout();
    let mut out = String::new();
    for (plugin, definition) in loadout.tools() {
        if json {
            let record = json!({
                "name": definition.name,
                "plugin": plugin,
                "description": definition.description,
                "input_schema": definition.input_schema,
            });
            out.push_str(&record.to_string());
            out.push('\n');
        } else {
            out.push_str(&format!(
                "{}  ({plugin})  {}\n",
                definition.name,
                first_sentence(&definition.description)
            ));
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
