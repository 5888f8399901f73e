//! `smith sessions import FILE`: another tool's session file — a Codex CLI rollout, a Claude
//! Code session, a pi session — as a new Smith session (`smith_app::import`), printed as its
//! id, with what could not be carried over listed on stderr.

use std::path::PathBuf;

use clap::Args;
use smith_app::SessionStore;
use smith_app::import::{self, ImportError, WriteError};

use crate::command_error::{self, CliError};
use crate::exit;
use crate::output::Out;

pub(crate) const IMPORT_AFTER_HELP: &str = "\
Formats: Smith's own export (smith sessions export ID), restored as that session — same id,
entries and times, so exporting it again gives the same bytes; it selects its last entry.
Codex CLI rollouts (~/.codex/sessions/YYYY/MM/DD/rollout-*.jsonl), Claude Code
sessions (~/.claude/projects/PROJECT/*.jsonl) and pi sessions (~/.pi/agent/sessions/DIR/*.jsonl),
found from the file's first records, become a new session. Prompts, responses (text, thinking, tool calls, the model
and usage) and tool results are carried over, with their times and, where the format has them,
branches; the source's current branch is selected. What could not be (the harness's injected
context, sub-agent entries, images…) is listed. The new session records the format, version,
file and its SHA-256, and continues like any other: smith eval --session ID -m MODEL \"…\".
Nothing is written when the file cannot be read whole (exit 2 for a file of another format or
version, or malformed; 1 when it cannot be read).";

/// Arguments of `smith sessions import`.
#[derive(Debug, Args)]
pub(crate) struct ImportArgs {
    /// The session file to import (`-`: standard input).
    #[arg(value_name = "FILE")]
    pub(crate) file: PathBuf,
}

pub(super) fn run(store: &SessionStore, args: &ImportArgs, out: &mut Out) -> Result<u8, CliError> {
    let cwd = command_error::current_dir()?;
    let source = if args.file.as_os_str() == "-" {
        args.file.clone()
    } else {
        let joined = cwd.join(&args.file);
        joined.canonicalize().unwrap_or(joined)
    };
    let (parsed, sha256) = import::read(&source).map_err(|e| {
        let status = match e {
            ImportError::Io { .. } => exit::RUN_FAILED,
            _ => exit::USAGE,
        };
        CliError::new(status, format!("cannot import: {e}; nothing was written"))
    })?;
    let secrets = smith_app::secrets::for_inspection(&smith_app::Paths::from_env())
        .map_err(|e| command_error::secrets(&e))?;
    let written = import::write(store, &parsed, &source, &sha256, Some(secrets.redactor))
        .map_err(|e| match e {
            WriteError::Exists { id, .. } => CliError::usage(format!(
                "cannot import: {e}; nothing was written. To replace it with this copy, delete it first (smith sessions delete {id}; its working-tree snapshots go too unless another session references them)"
            )),
            WriteError::Imported { id } => CliError::usage(format!(
                "cannot import: {e}; nothing was written. Continue that one (smith eval --session {id} …), or delete it first to import the file again (smith sessions delete {id})"
            )),
            WriteError::Store(smith_store::Error::Encode { reason }) => CliError::usage(format!(
                "cannot import: the file holds an entry Smith cannot record ({reason}); nothing was written"
            )),
            WriteError::Store(e) => CliError::new(
                command_error::store_status(&e),
                format!(
                    "cannot write the imported session in {}: {}; nothing was written",
                    store.dir().display(),
                    command_error::store_message(&e)
                ),
            ),
        })?;
    let version = parsed
        .version()
        .map_or_else(String::new, |v| format!(" {v}"));
    exit::report(&format!(
        "imported {} ({}{version}): {} turn{}, {} entries",
        source.display(),
        parsed.format(),
        written.turns,
        if written.turns == 1 { "" } else { "s" },
        written.entries
    ));
    for phrase in parsed.dropped() {
        exit::report(&format!("not carried over: {phrase}"));
    }
    out.line(&written.id.to_string())?;
    Ok(exit::SUCCESS)
}
