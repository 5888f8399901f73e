//! `smith sessions get ID --request ATTEMPT`: one attempt's effective request, rebuilt from the
//! session file alone (no plugin, no credential, no network) — readable, or one JSON
//! `request` record.

use std::path::Path;

use smith::{ContextItem, SessionId};
use smith_app::inspect::{AttemptSelector, Record, RequestError, read_request};

use crate::command_error::{self, CliError};
use crate::exit;
use crate::output::Out;

/// A request that cannot be shown, with its status.
fn request_error(e: RequestError) -> CliError {
    match e {
        RequestError::Store(e)
        | RequestError::Reconstruct(smith_agent::ReconstructError::Store(e)) => {
            command_error::store(&e)
        }
        RequestError::Reconstruct(
            e @ (smith_agent::ReconstructError::Input { .. }
            | smith_agent::ReconstructError::Branch(_)
            | smith_agent::ReconstructError::Projection { .. }),
        ) => CliError::new(exit::DAMAGED, e.to_string()),
        other => CliError::usage(format!(
            "{other}; `smith sessions get ID` lists the attempts"
        )),
    }
}

pub(super) fn run(
    path: &Path,
    id: SessionId,
    selector: AttemptSelector,
    json: bool,
    out: &mut Out,
) -> Result<u8, CliError> {
    let shown = read_request(path, id, selector).map_err(request_error)?;
    let view = shown.view();
    let (verified, attempt, sha256) = (view.verified, view.attempt, view.sha256.to_owned());
    if json {
        out.json(&Record::Request(Box::new(view)))?;
    } else {
        human(&view, out)?;
    }
    if verified {
        Ok(exit::SUCCESS)
    } else {
        exit::report(&format!(
            "session {id}: the request rebuilt for attempt {} does not hash to the SHA-256 recorded at dispatch ({}); the records it is built from differ from what was sent — `smith sessions verify {id}` checks the file",
            attempt, sha256
        ));
        Ok(exit::DAMAGED)
    }
}

fn human(view: &smith_app::inspect::RequestView<'_>, out: &mut Out) -> Result<(), CliError> {
    out.line(&format!(
        "request of attempt #{} (round {}, attempt {}): {} → {} · {}",
        view.attempt, view.round, view.number, view.selection, view.model, view.generation
    ))?;
    out.line(&format!(
        "{} sha256 {}",
        if view.verified {
            "verified: rebuilt from the session file, it matches the"
        } else {
            "NOT verified: rebuilt from the session file, it differs from the"
        },
        view.sha256
    ))?;
    let bytes = view.instructions.map_or(0, str::len);
    out.line(&format!(
        "── instructions: {} piece(s), {bytes} bytes",
        view.pieces.len()
    ))?;
    for p in &view.pieces {
        out.line(&format!(
            "   #{} {} from {}{}, {} bytes",
            p.entry,
            match p.role {
                smith::PieceRole::Instructions => "instructions",
                smith::PieceRole::Context => "context",
            },
            p.handler,
            p.source
                .as_ref()
                .map(|s| format!(" ({s})"))
                .unwrap_or_default(),
            p.bytes
        ))?;
    }
    if let Some(text) = view.instructions {
        for line in text.lines() {
            out.line(&format!("   │ {line}"))?;
        }
    }
    let names: Vec<&str> = view.tools.iter().map(|t| t.name.as_str()).collect();
    out.line(&format!(
        "── tools: {}",
        if names.is_empty() {
            "none".to_owned()
        } else {
            names.join(", ")
        }
    ))?;
    out.line(&format!("── context: {} item(s)", view.context.len()))?;
    for c in &view.context {
        let (label, text) = match c.item {
            ContextItem::Message(m) => {
                let mut text = m.text();
                for call in m.tool_calls() {
                    text.push_str(&format!(" [tool call {} {}]", call.name, call.id));
                }
                (m.role.as_str().to_owned(), text)
            }
            ContextItem::ToolResult(r) => (format!("tool_result {}", r.call_id), r.output.clone()),
        };
        let edited = c
            .edited_by
            .map(|e| format!(" (edited by #{e})"))
            .unwrap_or_default();
        out.line(&format!(
            "#{:<5} {label}{edited}: {}",
            c.entry,
            text.lines().collect::<Vec<_>>().join(" ⏎ ")
        ))?;
    }
    Ok(())
}
