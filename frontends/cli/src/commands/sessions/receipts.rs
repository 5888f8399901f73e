//! `smith sessions receipts ID`: every submission of a session with its receipt, rebuilt from
//! the file alone (spec: Sessions → Submission and receipts — "inspect a receipt"). Read-only.

use clap::Args;
use smith_app::SessionStore;
use smith_app::inspect::{ReceiptView, Record};

use super::find;
use crate::command_error::{self, CliError};
use crate::exit;
use crate::output::Out;

/// Arguments of `smith sessions receipts`.
#[derive(Debug, Args)]
pub(crate) struct ReceiptsArgs {
    /// The session id or a unique prefix (`last`: the session most recently written among
    /// those started in this directory, else in the nearest directory above it in its project).
    #[arg(value_name = "ID")]
    pub(crate) id: String,
    /// One JSON record per submission: `submission`, `admitted_in`, `dedup_key`, `model`,
    /// `state` (`admitted` or `terminal`), `stop_reason`, `end`, `error`, `answer`.
    #[arg(long)]
    pub(crate) json: bool,
}

/// List the receipts of the session, in admission order.
pub(super) fn run(
    store: &SessionStore,
    args: &ReceiptsArgs,
    out: &mut Out,
) -> Result<u8, CliError> {
    let (path, id) = find(store, &args.id)?;
    let all = smith_app::inspect::receipts(&path, id).map_err(|e| command_error::store(&e))?;
    for view in all {
        let written = if args.json {
            out.json(&Record::Receipt(view))?
        } else {
            out.line(&line(&view))?
        };
        if !written {
            break;
        }
    }
    Ok(exit::SUCCESS)
}

/// One readable line of a receipt.
fn line(r: &ReceiptView) -> String {
    let key = r
        .dedup_key
        .as_ref()
        .map(|k| format!(" key {k}"))
        .unwrap_or_default();
    let outcome = match (r.stop_reason, r.end) {
        (Some(stop), Some(end)) => format!("{stop} at #{end}"),
        (None, Some(at)) => format!("{} at #{at}", r.state),
        _ if r.state == "queued" => "queued, not delivered".to_owned(),
        _ => "admitted, no end recorded".to_owned(),
    };
    let outcome = match (r.owner, r.delivery) {
        (Some(owner), _) => format!("{outcome}, owned by #{owner}"),
        (None, Some(d)) => format!("{outcome} ({d})"),
        (None, None) => outcome,
    };
    let from = if r.admitted_in == r.session {
        String::new()
    } else {
        format!(" (inherited from {})", r.admitted_in)
    };
    format!(
        "submission #{:<5} {}{key}: {outcome}{from}",
        r.submission, r.model
    )
}
