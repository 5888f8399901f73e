//! Smith's agent runtime: the one policy loop behind every frontend.
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

mod effects;
mod run;
mod session;
mod tools;

pub use effects::{EffectJournal, SharedWriter, ToolContext};
pub use run::{Agent, RunError, RunLimits, RunOutcome};
pub use session::{OpenedSession, Session};
pub use tools::{NoTools, ToolDispatch, ToolOutput};
