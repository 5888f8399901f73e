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
use crate::command_error::{self, CliError};
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
    #[arg(long, conflicts_with = "html")]
    pub(crate) branch: bool,
    /// Write one self-contained HTML page instead — the selected branch's conversation with
    /// collapsible thinking, tool calls with their results, the diffs of the working-tree
    /// changes, usage and cost — to FILE (default: stdout). The page loads and runs nothing.
    #[arg(long, value_name = "FILE", num_args = 0..=1, default_missing_value = "-")]
    pub(crate) html: Option<std::path::PathBuf>,
}

pub(super) fn run(store: &SessionStore, args: &ExportArgs, out: &mut Out) -> Result<u8, CliError> {
    let (path, id) = find(store, &args.id)?;
    if let Some(file) = &args.html {
        return html(&path, id, file, out);
    }
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

/// `--html`: the page, to `file` (`-`: stdout), written whole: to a temporary name beside it,
/// then renamed over it.
fn html(
    path: &std::path::Path,
    id: smith::SessionId,
    file: &std::path::Path,
    out: &mut Out,
) -> Result<u8, CliError> {
    let history = smith_app::Paths::from_env().history().ok();
    let redact = |text: &str| exit::redact(text).into_owned();
    let page =
        smith_app::inspect::render_html(path, id, history.as_deref(), &redact).map_err(|e| {
            CliError::new(
                command_error::store_status(&e),
                format!(
                    "cannot render session {id}: {}",
                    command_error::store_message(&e)
                ),
            )
        })?;
    if file.as_os_str() == "-" {
        out.raw(&page)?;
        return Ok(exit::SUCCESS);
    }
    let fail = |e: std::io::Error| {
        CliError::new(
            exit::RUN_FAILED,
            format!(
                "cannot write the page to {}: {e}; name a writable file, or leave FILE out to print it",
                file.display()
            ),
        )
    };
    let name = file
        .file_name()
        .ok_or_else(|| fail(std::io::ErrorKind::InvalidInput.into()))?;
    let temp = file.with_file_name(format!(
        ".{}.{}.tmp",
        name.to_string_lossy(),
        std::process::id()
    ));
    std::fs::write(&temp, page.as_bytes()).map_err(fail)?;
    std::fs::rename(&temp, file).map_err(|e| {
        let _ = std::fs::remove_file(&temp);
        fail(e)
    })?;
    exit::report(&format!("wrote session {id} as {}", file.display()));
    Ok(exit::SUCCESS)
}
