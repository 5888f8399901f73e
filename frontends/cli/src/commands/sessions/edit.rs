//! `smith sessions edit ID --omit ENTRY --replace ENTRY=FILE …`: one context-edit batch on the
//! selected branch, validated whole and appended under the writer lock (spec: Sessions →
//! Context edits). Later requests see the edited projection; the entries keep their original
//! content, which `sessions get` shows.

use clap::Args;
use smith::EntryId;
use smith_app::runner::target::edit_context;
use smith_app::{RunnerError, SessionStore};
use smith_store::{EditChange, EditOp};

use super::find;
use crate::command_error::{self, CliError};
use crate::exit;
use crate::output::Out;

/// Arguments of `smith sessions edit`.
#[derive(Debug, Args)]
pub(crate) struct EditArgs {
    /// The session id or a unique prefix (`last`: the session most recently written among
    /// those started in this directory, else in the nearest directory above it in its project).
    #[arg(value_name = "ID")]
    pub(crate) id: String,
    /// Leave this message or tool result out of what the model sees (repeatable). A tool
    /// call's message goes together with all of its results.
    #[arg(long, value_name = "ENTRY")]
    pub(crate) omit: Vec<u64>,
    /// Show the model FILE's text instead of this message's text or tool result's output
    /// (repeatable; `-` reads standard input). A message keeps its tool calls.
    #[arg(long, value_name = "ENTRY=FILE")]
    pub(crate) replace: Vec<String>,
}

/// The edits `args` asks for, reading the replacement files.
fn edits(args: &EditArgs) -> Result<Vec<EditOp>, CliError> {
    let mut ops: Vec<EditOp> = args
        .omit
        .iter()
        .map(|id| EditOp {
            target: EntryId(*id),
            change: EditChange::Omit,
        })
        .collect();
    let stdin_uses = args
        .replace
        .iter()
        .filter(|spec| spec.split_once('=').is_some_and(|(_, f)| f == "-"))
        .count();
    if stdin_uses > 1 {
        return Err(CliError::usage(format!(
            "{stdin_uses} --replace options read standard input (`=-`), which holds one text; give the others a FILE"
        )));
    }
    for spec in &args.replace {
        let Some((entry, file)) = spec.split_once('=') else {
            return Err(CliError::usage(format!(
                "--replace {spec} is not ENTRY=FILE; e.g. --replace 8=summary.txt"
            )));
        };
        if file.is_empty() {
            return Err(CliError::usage(format!(
                "--replace {spec} names no FILE after `=`; e.g. --replace {entry}=summary.txt, or {entry}=- for standard input"
            )));
        }
        let target = entry.parse::<u64>().map_err(|_| {
            CliError::usage(format!(
                "--replace {spec}: `{entry}` is not an entry id; `smith sessions get ID` lists them"
            ))
        })?;
        let text = if file == "-" {
            std::io::read_to_string(std::io::stdin())
        } else {
            std::fs::read_to_string(file)
        }
        .map_err(|e| {
            let what = if file == "-" {
                "standard input".to_owned()
            } else {
                format!("`{file}`")
            };
            CliError::usage(format!(
                "--replace {spec}: cannot read {what} as UTF-8 text: {e}"
            ))
        })?;
        ops.push(EditOp {
            target: EntryId(target),
            change: EditChange::Replace(text),
        });
    }
    Ok(ops)
}

pub(super) fn run(store: &SessionStore, args: &EditArgs, out: &mut Out) -> Result<u8, CliError> {
    let (path, id) = find(store, &args.id)?;
    let ops = edits(args)?;
    if ops.is_empty() {
        return Err(CliError::usage(
            "nothing to edit: give --omit ENTRY or --replace ENTRY=FILE",
        ));
    }
    let summary: Vec<String> = ops
        .iter()
        .map(|op| match &op.change {
            EditChange::Omit => format!("omitted #{}", op.target),
            EditChange::Replace(t) => format!("replaced #{} ({} bytes)", op.target, t.len()),
        })
        .collect();
    let (edit, notices) = edit_context(&path, id, ops).map_err(|e| {
        let status = match &e {
            RunnerError::Store(s) => command_error::store_status(s),
            RunnerError::Unprojectable(_) => exit::DAMAGED,
            RunnerError::Busy { .. } => exit::REFUSED,
            _ => exit::USAGE,
        };
        CliError::new(
            status,
            format!("cannot edit the context of session {id}: {e}; nothing was written"),
        )
    })?;
    crate::commands::eval::target::report_open_notices(&notices);
    out.line(&format!(
        "session {id}: context edit #{edit}: {}; later requests see it, and `smith sessions get {id}` still shows the originals",
        summary.join(", ")
    ))?;
    Ok(exit::SUCCESS)
}
