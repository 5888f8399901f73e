//! `smith rpc`: serve JSON-RPC 2.0 over stdin and stdout (`smith-rpc`). Diagnostics before
//! the server starts go to stderr; once it serves, stdout carries protocol lines only.

use clap::Args;

use crate::cli::Global;
use crate::command_error::CliError;
use crate::exit;
use crate::output::report_notices;

pub(crate) const RPC_AFTER_HELP: &str = "\
Protocol:
  JSON-RPC 2.0, one JSON value per LF-terminated line on stdin and stdout (UTF-8, at most
  16 MiB a line; U+2028/U+2029 escaped); parameters by name; batches refused. Stdout carries
  protocol lines only: diagnostics go to stderr. `rpc.discover` returns the OpenRPC document;
  the guide is `smith docs get rpc`, the reference `smith docs get reference/rpc`.

Ending:
  End of input: running work finishes its turn (its run_end is committed), every session is
  closed, every queued line is written, then smith exits 0. SIGTERM or Ctrl-C: running work
  is aborted (recorded), then the same.

Exit status:
  0    the input ended (or a signal stopped the server) and every session was closed
  2    bad configuration: nothing was served";

/// Arguments of `smith rpc`.
#[derive(Debug, Args)]
pub(crate) struct RpcArgs {
    /// The model sessions use unless a submission names one (as the `model` setting); `smith
    /// -m MODEL rpc` gives it too.
    #[arg(short, long, value_name = "PROVIDER/MODEL")]
    pub(crate) model: Option<String>,
}

/// Serve until stdin ends.
pub(crate) fn run(args: &RpcArgs, global: &Global) -> Result<u8, CliError> {
    let app = global.app_with_model(args.model.as_deref())?;
    report_notices(&app.settings.notices);
    let cwd = crate::command_error::current_dir()?;
    let rpc = smith_rpc::Rpc::new(app, cwd);
    let stop = rpc.stopper();
    crate::interrupt::on_interrupt(move || {
        stop.stop();
        crate::memory_report::write_at_exit();
        std::process::exit(i32::from(exit::SUCCESS));
    });
    rpc.serve(std::io::stdin().lock(), std::io::stdout());
    Ok(exit::SUCCESS)
}
