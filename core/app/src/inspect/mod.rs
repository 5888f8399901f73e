//! Session inspection without a provider or credentials (spec: Interface modes → Session
//! inspection): what `list`, `grep`, `get`, `verify`, `receipts` and `watch` read, as typed,
//! serializable records every frontend renders its own way. Everything here is read-only: it
//! never repairs, truncates, locks or runs anything, and reads only complete committed
//! changes.
//!
//! The records are [`Record`]s, serialized with a `type` tag first (`session`, `match`,
//! `entry`, `usage`, `page`, `receipt`, `fork`, `request`, `wire`); their JSON shapes are the `sessions … --json`
//! format documented in `docs-corpus/docs/sessions.md`.

mod asks;
mod branches;
mod follow;
mod grep;
mod html;
mod line;
mod page;
mod receipts;
mod request;
mod verify;
mod view;

pub use asks::{OpenQuestion, open_questions};
pub use branches::{BranchNode, Branches, branches};
pub use follow::{Follow, FollowError, Polled};
pub use grep::{GrepOutcome, Pattern, PatternError, grep_session, searchable_texts};
pub use html::render_html;
pub use line::entry_line;
pub use page::{MAX_LIMIT, Page, PageError, PageRequest, read_page, usage_of};
pub use receipts::{QueuedView, WaitError, cost_usd, queued, receipts, wait_settled};
pub use request::{
    AttemptSelector, BadSelector, ContextView, PieceView, RequestError, RequestView, ShownRequest,
    WireView, read_request,
};
pub use verify::{Verification, verify};
pub use view::{
    CheckpointView, EntryView, ForkView, KnownRecord, MatchView, PageView, ReceiptView, Record,
    RecordView, SessionSummary, TITLE_CHARS, UsageView, format_utc, kind_label, recorded_selection,
    summarize, title_of,
};

/// The plan the selected branch of the session file at `path` holds (Smith's `plan` branch
/// state), read without a writer; empty when there is none or it cannot be read (an
/// observer's view shows no plan rather than failing).
pub fn plan_of(path: &std::path::Path) -> Vec<smith::PlanItem> {
    smith_store::read_branch_value(path, &smith::plan_key())
        .ok()
        .flatten()
        .filter(|v| v.version == smith::PLAN_VERSION)
        .and_then(|v| smith::plan_from_value(&v.value))
        .unwrap_or_default()
}
