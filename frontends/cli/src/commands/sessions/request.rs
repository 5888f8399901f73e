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
        RequestError::Store(e) => command_error::store(&e),
        e @ RequestError::Damaged(_) => CliError::new(exit::DAMAGED, e.to_string()),
        other => CliError::usage(format!(
            "{other}; `smith sessions get ID` lists the attempts"
        )),
    }
}

pub(super) fn run(
    path: &Path,
    id: SessionId,
    selector: AttemptSelector,
    args: &super::get::GetArgs,
    out: &mut Out,
) -> Result<u8, CliError> {
    let json = args.json;
    let shown = read_request(path, id, selector).map_err(request_error)?;
    if args.wire {
        return wire(&shown, json, out);
    }
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

/// Print the request as the recorded provider plugin generation encodes it.
fn wire(
    shown: &smith_app::inspect::ShownRequest,
    json: bool,
    out: &mut Out,
) -> Result<u8, CliError> {
    let r = &shown.request;
    let invocation = smith_app::Invocation {
        cwd: std::env::current_dir().ok(),
        ..smith_app::Invocation::default()
    };
    let app = smith_app::App::load(smith_app::Paths::from_env(), &invocation)?;
    // The records are redacted already; nothing is left to replace.
    let encoded = app
        .encode_recorded(
            &r.attempt.generation,
            &r.request,
            &r.record.options,
            &smith_secrets::Redactor::default(),
        )
        .map_err(|e| {
            CliError::new(
                exit::RUN_FAILED,
                format!(
                    "cannot encode the request of attempt {} again: {e}; `smith sessions get {} --request {}` shows it",
                    r.attempt_entry, shown.session, r.attempt_entry
                ),
            )
        })?;
    let body = String::from_utf8_lossy(&encoded.body);
    if json {
        out.json(&Record::Wire(smith_app::inspect::WireView {
            session: shown.session,
            attempt: r.attempt_entry,
            generation: &r.attempt.generation,
            method: &encoded.method,
            path: &encoded.path,
            headers: &encoded.headers,
            body,
        }))?;
    } else {
        out.line(&format!("{} {}", encoded.method, encoded.path))?;
        for (name, value) in &encoded.headers {
            out.line(&format!("{name}: {value}"))?;
        }
        out.line("")?;
        out.line(&body)?;
    }
    Ok(if r.verified {
        exit::SUCCESS
    } else {
        exit::DAMAGED
    })
}

fn human(view: &smith_app::inspect::RequestView<'_>, out: &mut Out) -> Result<(), CliError> {
    out.line(&format!(
        "request of attempt #{} ({}.{}.{}: turn {}, round {}, attempt {}): {} → {} · {}",
        view.attempt,
        view.turn,
        view.round,
        view.number,
        view.turn,
        view.round,
        view.number,
        view.selection,
        view.model,
        view.generation
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
    for (p, text) in view.pieces.iter().zip(view.piece_texts()) {
        out.line(&format!(
            "   #{} {} from {}{}, {} bytes",
            p.entry,
            match p.role {
                smith::PieceRole::Instructions => "instructions",
                smith::PieceRole::Context => "context",
                smith::PieceRole::Compaction => "compaction ask",
            },
            p.handler,
            p.source
                .as_ref()
                .map(|s| format!(" ({s})"))
                .unwrap_or_default(),
            p.bytes
        ))?;
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
