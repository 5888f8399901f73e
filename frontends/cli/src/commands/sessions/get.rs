//! `smith sessions get ID`: one session read through bounded traversal, a page of entries at a
//! time (by id, or `--branch`), then — with `--usage` — the usage over the whole session, and
//! the page trailer. A page reads what it shows; the usage reads every attempt of the session.
//! `--request` shows one attempt's effective request instead (`request.rs`).

use clap::Args;
use smith_app::SessionStore;
use smith_app::inspect::{
    MAX_LIMIT, PageError, PageRequest, PageView, Record, UsageView, read_page,
};

use super::render::emit;
use super::{find, report_skipped};
use crate::command_error::{self, CliError};
use crate::exit;
use crate::output::Out;

/// Arguments of `smith sessions get`.
#[derive(Debug, Args)]
pub(crate) struct GetArgs {
    /// The session id or a unique prefix (`last`: the session most recently written among
    /// those started in this directory, else in the nearest directory above it in its project).
    #[arg(value_name = "ID")]
    pub(crate) id: String,
    /// One JSON record per entry, then a `page` record.
    #[arg(long)]
    pub(crate) json: bool,
    /// Entries per page (1 to 1000).
    #[arg(long, value_name = "N", default_value_t = 100)]
    pub(crate) limit: usize,
    /// Continue after this entry id (the cursor the previous page printed).
    #[arg(long, value_name = "C")]
    pub(crate) cursor: Option<u64>,
    /// Only the selected branch, from its leaf toward the root (newest first); the cursor
    /// then names the entry whose parent the next page starts at.
    #[arg(long)]
    pub(crate) branch: bool,
    /// Also account for the whole session, whatever the page: usage and cost per attempt and
    /// in total, and the memory each turn allocated (reads every attempt, so it costs more as
    /// the session grows).
    #[arg(long)]
    pub(crate) usage: bool,
    /// Instead of entries, the effective request of one attempt — its entry id as the page
    /// lists it, or TURN.ROUND.ATTEMPT (e.g. 1.2.1): the instructions, tool definitions and
    /// context exactly as the provider plugin received them, rebuilt from the session file
    /// alone and checked against the SHA-256 recorded at dispatch. Edited items show the
    /// edit; the entries themselves keep their original content.
    #[arg(
        long,
        value_name = "ATTEMPT",
        conflicts_with_all = ["limit", "cursor", "branch", "usage"]
    )]
    pub(crate) request: Option<smith_app::inspect::AttemptSelector>,
    /// With --request: the HTTP request instead (method, path, headers, body), encoded again
    /// by the provider plugin generation that sent it — byte for byte what went out, without
    /// the credential header. Nothing is sent and no credential is read.
    #[arg(long, requires = "request")]
    pub(crate) wire: bool,
}

/// A page that cannot be read, with the flag to change.
pub(super) fn page_error(e: PageError) -> CliError {
    match e {
        PageError::Limit { limit } => CliError::usage(format!(
            "--limit {limit} is out of range; give 1 to {MAX_LIMIT}"
        )),
        PageError::Cursor {
            cursor,
            session,
            last,
        } => CliError::usage(format!(
            "--cursor {cursor} is not an entry of session {session} (its entries are 1..={last})"
        )),
        PageError::OffBranch { cursor, session } => CliError::usage(format!(
            "--cursor {cursor} is not on the selected branch of session {session}; use a cursor a --branch page printed"
        )),
        PageError::Store(e) => command_error::store(&e),
    }
}

/// Report a page's withheld entry (damage the selected branch runs into): whether it was.
pub(super) fn report_withheld(id: &smith::SessionId, withheld: Option<u64>) -> bool {
    if let Some(entry) = withheld {
        exit::report(&format!(
            "damaged session {id}: the selected branch continues into entry {entry}, which lies in a damaged change; `smith sessions verify {id}` has the details"
        ));
    }
    withheld.is_some()
}

pub(super) fn run(store: &SessionStore, args: &GetArgs, out: &mut Out) -> Result<u8, CliError> {
    let (path, id) = find(store, &args.id)?;
    if let Some(selector) = args.request {
        return super::request::run(&path, id, selector, args, out);
    }
    let request = PageRequest {
        limit: args.limit,
        cursor: args.cursor,
        branch: args.branch,
    };
    let mut page = read_page(&path, id, request).map_err(page_error)?;
    let mut status = exit::SUCCESS;
    if report_withheld(&id, page.withheld) {
        status = exit::DAMAGED;
    }
    // A valid file with a header and no entry yet: said, not an empty output.
    if page.entries.is_empty() && args.cursor.is_none() && page.state.last_id == 0 {
        exit::report(&format!(
            "note: session {id} has no entries yet (its file holds only its header): nothing was recorded in it"
        ));
    }
    for entry in &page.entries {
        if !emit(out, &id, entry, args.json)? {
            return Ok(exit::SUCCESS);
        }
    }
    // Usage and cost over the whole session (not only this page), per attempt and in total.
    if args.usage {
        usage(&mut page, &id, args.json, out)?;
    }
    if args.json {
        out.json(&Record::Page(PageView::new(
            id,
            page.entries.len(),
            page.next_cursor,
            &page.state,
        )))?;
    } else if let Some(next) = page.next_cursor {
        let flag = if args.branch { " --branch" } else { "" };
        out.line(&format!("(more with{flag} --cursor {next})"))?;
    }
    if let Some(t) = &page.torn_tail {
        let what = if page.live_writer {
            "is still being written (pending, not shown)"
        } else {
            "were never acknowledged (a torn tail, not shown)"
        };
        exit::report(&format!(
            "note: session {id}: {} bytes at byte {} after the last complete change {what}",
            t.len, t.offset
        ));
    }
    if report_skipped(&id, &page.skipped, true) {
        status = exit::DAMAGED;
    }
    Ok(status)
}

/// Print the usage and cost over the whole session `page` was read from.
fn usage(
    page: &mut smith_app::inspect::Page,
    id: &smith::SessionId,
    json: bool,
    out: &mut Out,
) -> Result<(), CliError> {
    let accounts = page.usage().map_err(|e| command_error::store(&e))?;
    if json {
        out.json(&Record::Usage(UsageView {
            session: *id,
            attempts: &accounts.attempts,
            total: &accounts.total,
            cost_usd: accounts.cost_usd,
            memory: &accounts.memory,
        }))?;
    } else {
        let t = &accounts.total;
        let n = |x: Option<u64>| x.map_or("unknown".to_owned(), |x| x.to_string());
        out.line(&format!(
            "usage: {} responses over {} attempts · input {} · output {} · cache read {} · cache write {} · cost {}",
            t.responses,
            accounts.attempts.len(),
            n(t.usage.input),
            n(t.usage.output),
            n(t.usage.cache_read),
            n(t.usage.cache_write),
            accounts
                .cost_usd
                .map_or("unknown".to_owned(), |c| format!("${c:.6}"))
        ))?;
        for turn in &accounts.memory {
            let m = &turn.memory;
            let mut ceiling = match m.ceiling_bytes {
                Some(c) if m.ceiling_crossed => {
                    format!(" · past the ceiling of {}", smith_memory::bytes(c))
                }
                _ => String::new(),
            };
            for (n, what) in [
                (m.kernel_calls_crossed, "plugin calls"),
                (m.io_requests_crossed, "io requests"),
            ] {
                if n > 0 {
                    ceiling.push_str(&format!(" · {n} {what} past their ceiling"));
                }
            }
            for (crossed, what) in [
                (m.session_ceiling_crossed, "the session"),
                (m.process_ceiling_crossed, "the process"),
            ] {
                if crossed {
                    ceiling.push_str(&format!(" · {what} past its ceiling"));
                }
            }
            out.line(&format!(
                "memory: turn {} · {} allocations · {} allocated · peak {} live · {} live at its end{ceiling}",
                turn.submission.unwrap_or(turn.run_end),
                m.allocations,
                smith_memory::bytes(m.allocated_bytes),
                smith_memory::bytes(m.peak_live_bytes),
                smith_memory::bytes(m.live_bytes),
            ))?;
        }
    }
    Ok(())
}
