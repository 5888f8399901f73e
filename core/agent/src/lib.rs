//! Smith's agent runtime: the one policy loop behind every frontend.
//!
//! Input enters by admission ([`Agent::submit`], or [`Agent::run`] without a key): a
//! `submission` record and the user message, committed and acknowledged durably as one change
//! before any work — the receipt ([`submission`](crate::Receipt)). Deduplication keys make a
//! submission safe to repeat, also across restarts; receipts are rebuilt from the session file
//! alone ([`receipts`]). Reopening a session whose work was cut off by a crash settles that
//! work first: its unanswered tool calls get "interrupted" results and its end is recorded as
//! aborted, paired with its submission ([`Session::open`]).
//!
//! [`Agent::run`] records the user's input in the [`Session`], then plays provider rounds until
//! an explicit stop condition: the model ends its turn, hits its output limit, the provider
//! fails, the run is cancelled, or the round limit is reached. Each round streams normalized
//! [`smith::StreamEvent`]s from the [`smith::Provider`] as UI intents, records the complete
//! assistant message, and answers every tool call with a recorded [`smith::ToolResult`] — also
//! the calls it could not run — so the next request pairs every call with its result (spec:
//! Agent behavior).
//!
//! The runtime never prints; it emits [`smith_ui_intents::Intent`]s into the sink it is given.
//! There is no provider- or tool-specific path: providers sit behind [`smith::Provider`] and
//! tools behind [`ToolDispatch`].

mod abort;
mod effects;
mod inbox;
mod lifecycle;
mod observer;
mod record;
mod replay;
mod run;
mod session;
mod submission;
mod tools;
mod work;

pub use effects::{EffectJournal, SharedWriter, ToolContext};
pub use inbox::{Enqueue, Inbox, WithdrawError};
pub use lifecycle::{Action, HandlerReply, Lifecycle, LifecycleEvent, NoHandlers};
pub use observer::{Access, ObserveError, Observer, Position};
pub use run::{Agent, RunError, RunLimits, RunOutcome, Submit};
pub use session::{OpenedSession, Session};
pub use smith_store::Delivery;
pub use submission::{
    AdmissionError, MAX_DEDUP_KEY_BYTES, Receipt, ReceiptState, check_key, content_sha256, receipts,
};
pub use tools::{NoTools, ToolDispatch, ToolOutput};
pub use work::{QueuedInput, WorkLimits};
