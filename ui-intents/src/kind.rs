//! Intent kinds and their static rules.

use serde::Serialize;

/// What a frontend that cannot show an intent does with it (spec: User interface abstraction).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Degradation {
    /// Ignore it: presentation that loses nothing durable.
    Drop,
    /// Answer with a refusal event: a request for interaction the frontend cannot serve.
    Refuse,
    /// Keep it: a durable transcript record every frontend must preserve (shown in a generic
    /// form when the frontend has no dedicated presentation).
    Persist,
}

/// Whether an intent mirrors a durable session record or is presentation only.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Durability {
    /// The intent mirrors a committed session record; it is never dropped or coalesced.
    Transcript,
    /// Presentation only.
    Transient,
}

/// What a bounded intent stream ([`crate::IntentQueue`]) does with this kind when its
/// consumer falls behind.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Backpressure {
    /// Wait for room: never dropped, never merged.
    Block,
    /// Merge into a queued intent of the same kind and key (a delta extends the delta queued
    /// right before it; a newer report replaces a queued one with the same key); without one,
    /// wait for room. Nothing is lost: the newest report always arrives.
    Coalesce,
}

macro_rules! intent_kinds {
    ($( $(#[$doc:meta])* $variant:ident => $name:literal, $durability:ident, $degradation:ident, $pressure:ident, $summary:literal; )*) => {
        /// The kind of an [`crate::Intent`], with its static rules.
        #[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize)]
        #[serde(rename_all = "snake_case")]
        pub enum IntentKind {
            $( $(#[$doc])* $variant, )*
        }

        impl IntentKind {
            /// Every kind, in declaration order.
            pub const ALL: &'static [IntentKind] = &[$(IntentKind::$variant),*];

            /// The snake_case name (the `type` field of the intent's JSON form).
            pub fn name(self) -> &'static str {
                match self { $(IntentKind::$variant => $name,)* }
            }

            /// Whether the kind mirrors a durable session record.
            pub fn durability(self) -> Durability {
                match self { $(IntentKind::$variant => Durability::$durability,)* }
            }

            /// What a frontend that cannot show the kind does with it.
            pub fn degradation(self) -> Degradation {
                match self { $(IntentKind::$variant => Degradation::$degradation,)* }
            }

            /// What a bounded stream does with the kind under backpressure.
            pub fn backpressure(self) -> Backpressure {
                match self { $(IntentKind::$variant => Backpressure::$pressure,)* }
            }

            /// One sentence on what the kind means.
            pub fn summary(self) -> &'static str {
                match self { $(IntentKind::$variant => $summary,)* }
            }
        }
    };
}

intent_kinds! {
    /// A run began.
    RunStart => "run_start", Transient, Drop, Block,
        "A run began in a session with the selected model.";
    /// A submission's durable receipt.
    Receipt => "receipt", Transcript, Persist, Block,
        "A submission's durable receipt: its input was admitted (or repeats an earlier submission, whose receipt this is).";
    /// A provider attempt was recorded.
    Attempt => "attempt", Transient, Drop, Block,
        "A provider attempt was recorded before its request: selection, physical model and account, thinking level, routing, capabilities and plugin generation.";
    /// An attempt ended without a response.
    AttemptFailed => "attempt_failed", Transient, Drop, Block,
        "A provider attempt ended without a response; the round retries it, fails over to the next candidate, or stops.";
    /// A provider round began.
    RoundStart => "round_start", Transient, Drop, Block,
        "A round (one provider request and its tool batch) began.";
    /// A message began.
    MessageStart => "message_start", Transient, Drop, Block,
        "A message began; its deltas and its end follow with the same message id.";
    /// A piece of a streaming message.
    MessageDelta => "message_delta", Transient, Drop, Coalesce,
        "A piece of a streaming message's text or thinking; consecutive pieces of one message and kind may merge.";
    /// A message ended.
    MessageEnd => "message_end", Transcript, Persist, Block,
        "A message is complete and committed; authoritative over its deltas.";
    /// A plugin or command appended to the transcript.
    TranscriptAppend => "transcript_append", Transcript, Persist, Block,
        "A committed transcript entry that is not a model message (for example a command's output).";
    /// A tool call started.
    ToolStart => "tool_start", Transient, Drop, Block,
        "A tool call starts running, or is about to be answered without running.";
    /// A tool call reports progress.
    ToolUpdate => "tool_update", Transient, Drop, Coalesce,
        "A running tool call reports partial output or progress; newer updates supersede older ones.";
    /// A tool call's result was committed.
    ToolEnd => "tool_end", Transcript, Persist, Block,
        "A tool call's result is committed.";
    /// A compaction began.
    CompactionStart => "compaction_start", Transient, Drop, Block,
        "A compaction began: the model is asked to summarize the context before the boundary, keeping the most recent items verbatim.";
    /// A compaction ended.
    CompactionEnd => "compaction_end", Transcript, Persist, Block,
        "A compaction ended: its summary is committed and stands for the summarized context in later requests, or it failed and the context is unchanged.";
    /// Progress of long work.
    Progress => "progress", Transient, Drop, Coalesce,
        "Progress of long-running work, keyed by id; newer reports supersede older ones.";
    /// A status item changed.
    Status => "status", Transient, Drop, Coalesce,
        "A named status item (model, cost, mode…) has a new value.";
    /// A notice for the person running Smith.
    Notice => "notice", Transient, Drop, Block,
        "A notice, warning or error for the person running Smith.";
    /// A yes/no question.
    ConfirmRequest => "confirm_request", Transient, Refuse, Block,
        "A yes/no question that needs an answer; non-interactive frontends refuse it.";
    /// A choice among options.
    SelectRequest => "select_request", Transient, Refuse, Block,
        "A choice among options that needs an answer; non-interactive frontends refuse it.";
    /// A request for text input.
    InputRequest => "input_request", Transient, Refuse, Block,
        "A request for a line of text; non-interactive frontends refuse it.";
    /// A request was refused.
    RequestRefused => "request_refused", Transient, Drop, Block,
        "A frontend refused a request it cannot serve; the requester receives the same refusal.";
    /// Usage and cost of a response.
    Usage => "usage", Transient, Drop, Block,
        "Token usage (and cost, when priced) of one response; unknown figures stay unknown.";
    /// Context window use.
    ContextUse => "context_use", Transient, Drop, Coalesce,
        "How much of the model's context window the next request uses.";
    /// The session changed.
    SessionChange => "session_change", Transient, Drop, Block,
        "The frontend is now attached to a session, as writer or observer.";
    /// The selected branch changed.
    BranchChange => "branch_change", Transient, Drop, Block,
        "The session's selected leaf (branch) changed.";
    /// A provider round ended.
    RoundEnd => "round_end", Transient, Drop, Block,
        "A round ended with the stop reason of its response.";
    /// The run ended.
    RunEnd => "run_end", Transcript, Persist, Block,
        "The run ended; its outcome is committed to the session.";
    /// The session's plan was replaced.
    Plan => "plan", Transcript, Persist, Block,
        "The session's plan (the checklist the model keeps) was replaced: every step with its status, pending, in_progress or completed; an empty list clears it. A frontend with no panel for it prints each change.";
    /// A subscriber fell behind its bounded stream.
    FellBehind => "fell_behind", Transient, Persist, Block,
        "A subscriber too slow for its bounded stream fell behind: what was queued for it was dropped, and it resumes from the committed position `next` by reading the session's records.";
    /// A frontend-specific escape hatch.
    Extension => "extension", Transient, Drop, Block,
        "A payload for frontends that declare the named capability (a manifest-declared escape hatch); others drop it.";
}
