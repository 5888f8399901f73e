//! `smith acp`: serve the Agent Client Protocol over stdin and stdout for an editor that
//! spawns Smith (`smith-acp`). Diagnostics go to stderr; stdout carries protocol lines only.

use clap::Args;

use crate::cli::Global;
use crate::command_error::CliError;
use crate::exit;
use crate::output::report_notices;

pub(crate) const ACP_AFTER_HELP: &str = "\
Protocol:
  The Agent Client Protocol, version 1: JSON-RPC 2.0, one JSON value per LF-terminated line on
  stdin and stdout (UTF-8, at most 16 MiB a line). Stdout carries protocol lines only:
  diagnostics go to stderr. The editor guide is `smith docs get editors`, the method
  reference `smith docs get reference/acp`.

Editors:
  Zed: \"agent_servers\": {\"Smith\": {\"command\": \"smith\", \"args\": [\"acp\"]}}
  JetBrains, Neovim (CodeCompanion), Emacs (agent-shell): the program `smith` with `acp`.

Ending:
  End of input: prompts in flight are cancelled (their effects recorded as they ended), every
  session is closed, every queued line is written, then smith exits 0. SIGTERM or Ctrl-C:
  the same.

Exit status:
  0    the input ended (or a signal stopped the server) and every session was closed
  2    bad configuration: nothing was served";

/// Arguments of `smith acp`.
#[derive(Debug, Args)]
pub(crate) struct AcpArgs {
    /// The model sessions use unless the editor picks one (as the `model` setting); `smith -m
    /// MODEL acp` gives it too.
    #[arg(short, long, value_name = "PROVIDER/MODEL")]
    pub(crate) model: Option<String>,
    /// Play this provider script in every prompt's turn (scripted provider only); the model
    /// name picks nothing then.
    #[arg(long, value_name = "FILE")]
    pub(crate) script: Option<std::path::PathBuf>,
}

/// Serve until stdin ends.
pub(crate) fn run(args: &AcpArgs, global: &Global) -> Result<u8, CliError> {
    let app = global.app_with_model(args.model.as_deref())?;
    report_notices(&app.settings.notices);
    let acp = smith_acp::Acp::new(app)
        .with_script(args.script.clone())
        .with_diagnostics(Box::new(std::io::stderr()));
    let stop = acp.stopper();
    crate::interrupt::on_interrupt(move || {
        stop.stop();
        crate::memory_report::write_at_exit();
        std::process::exit(i32::from(exit::SUCCESS));
    });
    acp.serve(std::io::stdin().lock(), std::io::stdout());
    Ok(exit::SUCCESS)
}
