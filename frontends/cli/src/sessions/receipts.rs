//! `smith sessions receipts`: every submission of a session with its receipt, rebuilt from the
//! file alone (spec: Sessions → Submission and receipts — "inspect a receipt"). Read-only.

use std::path::Path;

use serde_json::json;
use smith_agent::ReceiptState;

use super::{Out, find};
use crate::exit::{self, CliError};

/// List the receipts of session `wanted`, in admission order.
pub(super) fn receipts(
    dir: &Path,
    wanted: &str,
    json: bool,
    out: &mut Out,
) -> Result<u8, CliError> {
    let (path, id) = find(dir, wanted)?;
    let all = smith_agent::receipts(&path, id)
        .map_err(|e| CliError::new(exit::store_status(&e), e.to_string()))?;
    for r in &all {
        let (state, stop, end, error) = match &r.state {
            ReceiptState::Admitted => ("admitted", None, None, None),
            ReceiptState::Queued => ("queued", None, None, None),
            ReceiptState::Delivered { message, .. } => ("delivered", None, Some(message.0), None),
            ReceiptState::Withdrawn { at } => ("withdrawn", None, Some(at.0), None),
            ReceiptState::Terminal {
                stop_reason,
                end,
                error,
                ..
            } => ("terminal", Some(*stop_reason), Some(end.0), error.clone()),
        };
        let inherited = r.session != id;
        let written = if json {
            out.json(&json!({
                "type": "receipt",
                "session": id.to_string(),
                "submission": r.submission.0,
                "admitted_in": r.session.to_string(),
                "dedup_key": r.dedup_key,
                "model": r.model.to_string(),
                "state": state,
                "stop_reason": stop,
                "end": end,
                "error": error,
                "answer": r.answer.as_ref().map(|(entry, _)| entry.0),
                "owner": r.owner.map(|o| o.0),
                "delivery": r.delivery.map(smith_agent::Delivery::as_str),
                "checkpoint": r.checkpoint.as_ref().map(|(entry, c)| json!({
                    "entry": entry.0,
                    "round": c.round,
                    "phase": c.phase,
                    "requires": c.requires,
                })),
            }))?
        } else {
            let key = r
                .dedup_key
                .as_ref()
                .map(|k| format!(" key {k}"))
                .unwrap_or_default();
            let outcome = match (stop, end) {
                (Some(stop), Some(end)) => format!("{stop} at #{end}"),
                (None, Some(at)) => format!("{state} at #{at}"),
                _ if state == "queued" => "queued, not delivered".to_owned(),
                _ => "admitted, no end recorded".to_owned(),
            };
            let outcome = match (r.owner, r.delivery) {
                (Some(owner), _) => format!("{outcome}, owned by #{owner}"),
                (None, Some(d)) => format!("{outcome} ({})", d.as_str()),
                (None, None) => outcome,
            };
            let from = if inherited {
                format!(" (inherited from {})", r.session)
            } else {
                String::new()
            };
            out.line(&format!(
                "submission #{:<5} {}{key}: {outcome}{from}",
                r.submission, r.model
            ))?
        };
        if !written {
            break;
        }
    }
    Ok(exit::SUCCESS)
}
