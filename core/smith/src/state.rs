//! Durable plugin state (spec: Sessions → Scoped state): bounded values a plugin keeps across
//! calls, each in one of four scopes, and the port that stores them ([`ScopedState`]).
//!
//! Branch and session state live in the session file as `state` records (kind 21 of
//! `docs-corpus/docs/session-format.md`), so replay and forks see them; project and user state
//! are files under Smith's data home. The plugin host checks each plugin's declarations
//! (scope, version, size bound) before anything reaches the port.

use serde::{Deserialize, Serialize};

use crate::EntryId;

/// Where a value lives and who shares it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "snake_case")]
pub enum StateScope {
    /// The selected branch of the session: a value set on one branch is not seen on another;
    /// selecting an earlier entry shows the value as it was there; a fork copies the value at
    /// its fork point.
    Branch,
    /// The whole session, every branch: the latest value written in it; a fork copies the
    /// value as it was when its fork point was written.
    Session,
    /// Every session of one project (the git work tree's root, else the working directory).
    Project,
    /// Every session of the user.
    User,
}

impl StateScope {
    /// Every scope, in the order manifests and docs list them.
    pub const ALL: [Self; 4] = [Self::Branch, Self::Session, Self::Project, Self::User];

    /// The scope's name as manifests write it: `branch`, `session`, `project`, `user`.
    pub fn name(self) -> &'static str {
        match self {
            Self::Branch => "branch",
            Self::Session => "session",
            Self::Project => "project",
            Self::User => "user",
        }
    }

    /// Whether values of this scope are session records (branch and session).
    pub fn in_session(self) -> bool {
        matches!(self, Self::Branch | Self::Session)
    }
}

/// One slot of one plugin: `owner` is the plugin's id, `name` the slot its manifest declares.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct StateKey {
    /// The owning plugin's id (`permissions`).
    pub owner: String,
    /// The slot's name (`session-allow`).
    pub name: String,
    /// Where it lives.
    pub scope: StateScope,
}

/// A stored value: structured data (spec: Shared structured data — plugin-defined payloads
/// follow the shared structured-data and session encoding laws; the session stores it as
/// canonical CBOR, the state files as JSON) and the slot version it was written under.
#[derive(Clone, Debug, PartialEq)]
pub struct StateValue {
    /// The version the owner's manifest declared for the slot when the value was written.
    pub version: u32,
    /// The value, as the plugin gave it.
    pub value: serde_json::Value,
}

/// Why a value could not be read or written. Nothing was written when a write fails.
#[derive(Debug, thiserror::Error)]
pub enum StateError {
    /// This port does not keep the scope (e.g. a run with no session, or no data home).
    #[error("{0} state is not available here")]
    Unavailable(&'static str),
    /// Reading or writing the store failed; the source says why.
    #[error("the {scope} state store failed: {source}")]
    Storage {
        /// The scope's name.
        scope: &'static str,
        /// The underlying failure.
        #[source]
        source: Box<dyn std::error::Error + Send + Sync>,
    },
}

/// Where plugin state is kept. Implementations make a write durable (fsync returned) before
/// they return `Ok`; a failed write leaves the previous value in place.
pub trait ScopedState: Send + Sync {
    /// The value of `key`, `None` when it was never set or was removed.
    ///
    /// # Errors
    /// [`StateError`] when the scope is not kept here or the store cannot be read.
    fn get(&self, key: &StateKey) -> Result<Option<StateValue>, StateError>;

    /// Set `key` to `value`, or remove it (`None`). `cause` is the entry the write belongs to
    /// (the tool call's message), when there is one.
    ///
    /// # Errors
    /// [`StateError`]; nothing was written.
    fn set(
        &self,
        key: &StateKey,
        value: Option<StateValue>,
        cause: Option<EntryId>,
    ) -> Result<(), StateError>;
}
