//! The product layer's commands in an editor (ACP slash commands): the prompt commands (the
//! project's `.smith/commands/`, the user's, the bundled `/init` and `/review`) and the
//! verbs an editor thread can carry out — `/compact`, `/undo`, `/redo` — announced with
//! `available_commands_update` when a session opens, and run when a prompt's text starts with
//! `/NAME`. A line whose name is no command is an ordinary prompt.

use std::sync::Arc;

use agent_client_protocol_schema::v1::{
    AvailableCommand, AvailableCommandInput, AvailableCommandsUpdate, SessionUpdate,
    UnstructuredCommandInput,
};
use smith_app::product::wit::{CommandAction, Verb, VerbKind};
use smith_app::product::{CommandError, Outcome, ProductLayer};
use smith_render_jsonrpc::ErrorObject;
use smith_render_jsonrpc::message::INVALID_PARAMS;

use crate::server::{Server, lock, update};
use crate::sessions::Slot;

/// What a `/NAME …` prompt comes to.
pub(crate) enum Resolved {
    /// Submit this text as the person's message (on `model` for the turn, when named).
    Prompt {
        /// The prompt command's text with its arguments put in.
        text: String,
        /// Its model, if it names one.
        model: Option<String>,
    },
    /// Carry out this verb on the session.
    Verb(Verb),
    /// Continue the turn a dead process cut off.
    Continue,
}

/// The session's product layer, composed once (in its directory: the project's commands).
fn layer(server: &Server, slot: &Slot) -> Option<Arc<ProductLayer>> {
    let mut cached = lock(&slot.product);
    if cached.is_none() {
        match server.app.product(&[], &slot.cwd) {
            Ok((layer, _)) => {
                // Commands skipped (an untrusted project's, a malformed file) are said.
                for notice in &layer.notices {
                    server.diagnose(&format!("notice: {notice}"));
                }
                *cached = Some(Some(Arc::new(layer)));
            }
            Err(e) => {
                server.diagnose(&format!(
                    "warning: the commands could not be composed: {e}; prompts starting with `/` are sent as they are"
                ));
                *cached = Some(None);
            }
        }
    }
    cached.clone().flatten()
}

fn offered(c: &smith_app::product::Command) -> bool {
    // The verbs an editor thread carries out, and every prompt command.
    c.prompt.is_some()
        || matches!(
            c.action,
            CommandAction::Verb(VerbKind::Compact | VerbKind::Undo | VerbKind::Redo)
        )
}

/// Send `slot`'s commands as `available_commands_update`.
pub(crate) fn announce(server: &Server, slot: &Slot) {
    let Some(layer) = layer(server, slot) else {
        return;
    };
    let continuing = slot
        .interrupted
        .load(std::sync::atomic::Ordering::SeqCst)
        .then(|| {
            AvailableCommand::new(
                "continue",
                "Continue the interrupted turn from what it recorded (no recorded effect runs again)",
            )
        });
    let commands: Vec<AvailableCommand> = continuing
        .into_iter()
        .chain(layer.commands.iter().filter(|c| offered(c)).map(|c| {
            let command = AvailableCommand::new(c.name.clone(), c.summary.clone());
            if c.arguments.is_empty() {
                command
            } else {
                // The usage after the name: `[--turn]`, `[FOCUS]`, `ARGUMENTS`.
                let usage = c.usage();
                let hint = usage
                    .split_once(' ')
                    .map_or(usage.as_str(), |(_, rest)| rest)
                    .to_owned();
                command.input(AvailableCommandInput::Unstructured(
                    UnstructuredCommandInput::new(hint),
                ))
            }
        }))
        .collect();
    server.notify(
        "session/update",
        update(
            slot.id,
            SessionUpdate::AvailableCommandsUpdate(AvailableCommandsUpdate::new(commands)),
        ),
    );
}

/// What `text` (a prompt's) comes to when it is `/NAME …` naming an offered command; `None`
/// for an ordinary prompt.
///
/// # Errors
/// Invalid params for a command that cannot run as written (a missing or ill-typed argument),
/// or one an editor thread does not carry out.
pub(crate) fn resolve(
    server: &Server,
    slot: &Slot,
    text: &str,
) -> Option<Result<Resolved, ErrorObject>> {
    let line = text.trim_start().strip_prefix('/')?;
    let name = line.split_whitespace().next()?;
    if name == "continue" && slot.interrupted.load(std::sync::atomic::Ordering::SeqCst) {
        return Some(Ok(Resolved::Continue));
    }
    let layer = layer(server, slot)?;
    let command = layer.command(name)?;
    if !offered(command) {
        return Some(Err(ErrorObject::new(
            INVALID_PARAMS,
            format!(
                "/{name} is not carried out in an editor (only prompt commands, /compact, /undo and /redo are); run it in `smith`"
            ),
        )));
    }
    let invocation = match layer.parse_line(line) {
        Ok(i) => i,
        Err(e @ (CommandError::Missing { .. } | CommandError::Invalid { .. })) => {
            return Some(Err(ErrorObject::new(INVALID_PARAMS, e.to_string())));
        }
        Err(CommandError::Unknown { .. }) => return None,
    };
    Some(match invocation.outcome_without_plugins() {
        Ok(Outcome::Prompt { text, model }) => Ok(Resolved::Prompt { text, model }),
        Ok(Outcome::Verb(verb)) => Ok(Resolved::Verb(verb)),
        Ok(_) => Err(ErrorObject::new(
            INVALID_PARAMS,
            format!("/{name} is not carried out in an editor; run it in `smith`"),
        )),
        Err(e) => Err(ErrorObject::new(INVALID_PARAMS, e.to_string())),
    })
}
