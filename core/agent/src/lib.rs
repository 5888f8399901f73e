//! Smith's agent runtime: the one policy loop and the durable runtime contracts behind every
//! frontend and embedder (spec: Runtime foundation, Agent behavior, Sessions).
//!
//! # The verbs
//!
//! | verb | API |
//! | --- | --- |
//! | open a session as writer, or as observer when another process writes it | [`Session::open`], [`Session::open_or_observe`] → [`Access`], [`Observer::open`] |
//! | submit input (optional dedup key and destination branch) → durable receipt before any work | [`Agent::submit`] with [`Submit`]; the receipt is [`smith_ui_intents::Intent::Receipt`] |
//! | queue input into running work (steer or follow-up), list and withdraw it | [`Agent::inbox`] → [`Inbox::enqueue`], [`Inbox::queued`], [`Inbox::withdraw`] |
//! | admit child work owned by running work | [`Inbox::submit_child`] |
//! | answer a running tool call's question (a request intent), list the waiting ones | [`Inbox::answer`], [`Inbox::refuse`], [`Inbox::asked`] |
//! | inspect receipts | [`receipts`], [`Observer::receipt`] |
//! | observe from a committed position with no gap; cancel the observation | [`Observer::changes`] with a [`Position`]; drop it, or cancel a wait |
//! | abort work (a recorded operation) | [`Inbox::abort`], or cancel the run's [`smith::Cancel`] |
//! | wait for settlement | [`Observer::wait_settled`] |
//! | fork | [`smith_store::fork`], then [`Session::open`] on the new file |
//! | close: seal admission, then release writer ownership | [`Session::close`] |
//!
//! Blocking conveniences compose these: [`Agent::submit`] admits and then runs the work to an
//! explicit stop condition in the caller's thread; [`Agent::run`] is `submit` without a key.
//! There is no second loop: every frontend goes through them.
//!
//! # Admission, work and recovery
//!
//! Input enters by admission: a `submission` record and the user message, committed and
//! acknowledged durably as one change before any work. Deduplication keys make a submission
//! safe to repeat, also across restarts; receipts are rebuilt from the session file alone.
//! Each admitted submission is work with a stable identity (its entry id), an owner when it is
//! child work, checkpoints after every tool batch (recorded data, committed with the batch's
//! last result) and a terminal receipt (its `run_end`); an owner settles only after the work
//! it owns. Queued input is delivered by the queue policy — a lifecycle handler plugin
//! ([`smith::Lifecycle`]) consulted only at safe points. [`WorkLimits`] bound live work, ownership
//! depth and the queue; excess admission fails with nothing written. Reopening a session
//! whose work was cut off by a crash settles that work first — unanswered tool calls get
//! "interrupted" results, its end is recorded as aborted, children before owners — and keeps
//! queued input queued, without running anything ([`Session::open`]).
//!
//! Each provider round streams normalized [`smith::StreamEvent`]s from the
//! [`smith::Provider`] as UI intents, records the complete assistant message, and answers every
//! tool call with a recorded [`smith::ToolResult`] — also the calls it could not run or skipped
//! — so the next request pairs every call with its result.
//!
//! **Dispatch** ([`Route`], [`Agent::routed`]): a selection (a model, alias or group) resolved
//! to physical candidates in failover order; before each request an `attempt` record holds the
//! selection, physical model, account, thinking level, routing provenance, the catalog record
//! the request was checked against (a candidate that lacks a needed capability is passed over
//! before any byte is sent) and the plugin generation. Rate limits fail over at once,
//! transient refusals are retried within [`RetryPolicy`], invalid requests are not retried;
//! a partly consumed response is never replayed. **Accounting** ([`account`]) prices each
//! response at its attempt's recorded prices, counts each once, and keeps unknown unknown.
//!
//! The runtime never prints; it emits [`smith_ui_intents::Intent`]s into the sink it is given.
//! There is no provider- or tool-specific path: providers sit behind [`smith::Provider`],
//! tools behind [`smith::ToolRegistry`] and handlers behind [`smith::Lifecycle`] — the ports
//! the plugin host implements, which this crate never depends on.
//!
//! ```no_run
//! use smith::{Delivery, NoTools};
//! use smith_agent::{Agent, Enqueue, RunLimits, Session, Submit};
//! # fn demo(provider: &dyn smith::Provider, policy: &dyn smith::Lifecycle) {
//! let model: smith::Selection = "scripted/demo".parse().unwrap();
//! let dir = std::path::Path::new("/tmp/sessions");
//! let mut session = Session::create(dir, smith::SessionId::new_now(), None).unwrap();
//! let agent = Agent::new(provider, &NoTools, RunLimits::default()).with_lifecycle(policy);
//! // Another thread may queue input while the work runs.
//! let inbox = agent.inbox(&session);
//! let m = model.clone();
//! std::thread::spawn(move || {
//!     let input = "and then summarise";
//!     let delivery = Delivery::FollowUp;
//!     inbox.enqueue(Enqueue { model: &m, input, delivery, dedup_key: None }).unwrap();
//! });
//! let submit = Submit { model: &model, input: "fix the test", dedup_key: Some("ci-7"), destination: None, attachments: &[], images: &[] };
//! let outcome = agent.submit(&mut session, submit, &mut |_intent| {}, &smith::Cancel::new()).unwrap();
//! assert!(outcome.submission.is_some() && outcome.error.is_none());
//! session.close().unwrap();
//! # }
//! ```

mod abort;
mod accounting;
mod asks;
mod budget;
mod compact;
mod compaction;
mod continuation;
mod dispatch;
mod edit;
mod history;
mod inbox;
mod lifecycle;
mod memory;
mod observer;
pub mod playback;
mod projection;
mod reconstruct;
mod record;
mod replay;
mod request;
mod resume;
mod rounds;
mod run;
mod session;
mod settle;
mod submission;
mod tool_call;
mod work;

pub use accounting::{Accounts, AttemptUsage, TurnMemoryUsage, account, work_usage};
pub use asks::{AnswerError, Asked};
pub use compact::{Compact, CompactError, CompactOutcome, Compacted, CompactionPolicy};
pub use compaction::{Boundary as CompactionBoundary, boundary as compaction_boundary};
pub use continuation::{ContinueError, InterruptedTurn, Missing};
pub use dispatch::{Candidate, RetryPolicy, Route};
pub use edit::EditError;
pub use inbox::{AbortError, Enqueue, Inbox, WithdrawError};
pub use observer::{Access, ObserveError, Observer, Position};
pub use projection::{
    Projection, ProjectionError, Projector, project, project_entries, project_with,
};
pub use reconstruct::{ReconstructError, Reconstructed, attempt_at, reconstruct, turn_of};
pub use record::MAX_RECORDED_OUTPUT_BYTES;
pub use request::request_sha256;
pub use run::{Agent, RunError, RunLimits, RunOutcome, Submit};
pub use session::{OpenedSession, Session};
pub use submission::{
    AdmissionError, MAX_DEDUP_KEY_BYTES, Receipt, ReceiptState, check_key, content_sha256, receipts,
};
pub use work::WorkLimits;
