//! `smith sessions grep PATTERN`: recorded content searched incrementally across every
//! session, each match named by session and entry.

use clap::Args;
use smith_app::SessionStore;
use smith_app::inspect::{Pattern, Record, grep_session};

use super::{report_skipped, sessions, unreadable, worst};
use crate::command_error::CliError;
use crate::exit;
use crate::output::Out;

pub(super) const GREP_AFTER_HELP: &str = "\
PATTERN is a regular expression in Rust `regex` syntax (https://docs.rs/regex): `(?i)` makes it
case-insensitive, `\\b` matches a word boundary. It is matched line by line against message
text, thinking, tool-call arguments and tool output. Each match names the session, the entry
id and the entry kind: `SESSION #ENTRY KIND: LINE`.";

/// Arguments of `smith sessions grep`.
#[derive(Debug, Args)]
pub(crate) struct GrepArgs {
    /// The pattern (Rust `regex` syntax).
    #[arg(value_name = "PATTERN", allow_hyphen_values = true)]
    pub(crate) pattern: String,
    /// One JSON record per matching line.
    #[arg(long)]
    pub(crate) json: bool,
}

pub(super) fn run(store: &SessionStore, args: &GrepArgs, out: &mut Out) -> Result<u8, CliError> {
    let pattern = Pattern::new(&args.pattern).map_err(|e| {
        CliError::usage(format!(
            "{e}; see `smith sessions grep --help` for the syntax"
        ))
    })?;
    let mut status = exit::SUCCESS;
    for (id, path) in sessions(store)? {
        // A write failure stops everything; a closed pipe ends quietly.
        let searched = grep_session(&path, id, &pattern, &mut |m| {
            let written = if args.json {
                out.json(&Record::Match(m))
            } else {
                out.line(&format!(
                    "{} #{} {}: {}",
                    m.session, m.entry, m.kind, m.line
                ))
            };
            out.flow(written)
        });
        out.take_failure()?;
        match searched {
            Ok(_) if out.closed() => break,
            Ok(outcome) => {
                if report_skipped(&id, &outcome.skipped, true) {
                    status = exit::DAMAGED;
                }
            }
            Err(e) => status = worst(status, unreadable(&e)),
        }
    }
    Ok(status)
}
