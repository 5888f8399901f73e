//! `smith sessions export ID`: the whole session as JSONL — one record per entry, the same
//! record views as `sessions get --json`, read a bounded page at a time — for inspection and
//! interchange. Never an authoritative format: the `.smith` file is the session (spec:
//! Working sets).

use clap::Args;
use smith_app::SessionStore;
use smith_app::inspect::{MAX_LIMIT, PageRequest, read_page};

use super::get::{page_error, report_withheld};
use super::render::emit;
use super::{find, report_skipped};
use crate::command_error::CliError;
use crate::exit;
use crate::output::Out;

/// Arguments of `smith sessions export`.
#[derive(Debug, Args)]
pub(crate) struct ExportArgs {
    /// The session id or a unique prefix (`last`: the session most recently written among
    /// those started in this directory, else in the nearest directory above it in its project).
    #[arg(value_name = "ID")]
    pub(crate) id: String,
    /// Only the selected branch, from its leaf toward the root (newest first, as `get
    /// --branch` pages it).
    #[arg(long)]
    pub(crate) branch: bool,
}

pub(super) fn run(store: &SessionStore, args: &ExportArgs, out: &mut Out) -> Result<u8, CliError> {
    let (path, id) = find(store, &args.id)?;
    let mut cursor = None;
    let mut status = exit::SUCCESS;
    loop {
        let request = PageRequest {
            limit: MAX_LIMIT,
            cursor,
            branch: args.branch,
        };
        let page = read_page(&path, id, request).map_err(page_error)?;
        // Damage is said once, on the first page (every page sees the same snapshot state).
        if cursor.is_none() && report_skipped(&id, &page.skipped, true) {
            status = exit::DAMAGED;
        }
        if report_withheld(&id, page.withheld) {
            status = exit::DAMAGED;
        }
        for entry in &page.entries {
            if !emit(out, &id, entry, true)? {
                return Ok(exit::SUCCESS);
            }
        }
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => return Ok(status),
        }
    }
}
