//! The durable effect boundary's vocabulary (spec: Tools → Durable effect boundary): what an
//! effect is about to do ([`EffectIntent`]), how it ended ([`EffectCompletion`] with its
//! [`EffectOutcome`]), and the port that records both ([`EffectJournal`]).
//!
//! The session store encodes the two records as kinds 6 and 7 (`docs-corpus/docs/
//! session-format.md`); their serde shapes are that encoding, so a change here is a format
//! change that the store's golden files catch.

use serde::{Deserialize, Serialize};

use crate::EntryId;

/// Body of record kind 6, `effect_intent`: an external effect about to be dispatched, recorded
/// durably before it runs (spec: Durable effect boundary). Its completion pairs with it.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EffectIntent {
    /// The effect's identity, unique within the session; the completion names it.
    pub effect_id: String,
    /// The tool call this effect serves.
    pub call_id: String,
    /// The plugin and generation that asked for it (`files@0.1.0#1`).
    pub plugin: String,
    /// The tool that performs it.
    pub tool: String,
    /// What kind of effect (e.g. `file.write`, `process.spawn`).
    pub effect: String,
    /// What it acts on (a path, a command line), when there is one.
    pub target: Option<String>,
    /// The effect's input, a structured value stored as canonical CBOR.
    pub input: serde_json::Value,
}

/// How an effect ended, as recorded by its completion: its mutation state (spec: Durable
/// effect boundary — `applied`, `not-applied` or `unknown`).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum EffectOutcome {
    /// The effect happened.
    Applied,
    /// The effect did not change anything (refused, failed before acting, cancelled).
    NotApplied,
    /// Whether the effect happened is not known (e.g. the process died while it ran).
    Unknown,
}

impl EffectOutcome {
    /// The outcome's recorded name: `applied`, `not-applied` or `unknown`.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Applied => "applied",
            Self::NotApplied => "not-applied",
            Self::Unknown => "unknown",
        }
    }
}

/// Body of record kind 7, `effect_completion`: how an effect ended, with its output and the
/// evidence of what it changed. Pairs with its [`EffectIntent`].
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct EffectCompletion {
    /// The intent's `effect_id`.
    pub effect_id: String,
    /// How it ended.
    pub outcome: EffectOutcome,
    /// Output bytes (tool output), stored as a CBOR byte string.
    #[serde(with = "bytes")]
    pub output: Vec<u8>,
    /// Evidence of the mutation (e.g. content hashes before and after), a structured value.
    pub evidence: serde_json::Value,
}

impl EffectCompletion {
    /// Whether this completion leaves it unknown whether effect `effect` (its kind, e.g.
    /// `fs.write`) happened: outcome `unknown` — but for a program's run (`process.*`),
    /// recorded `unknown` whatever the program changed, whose evidence holds its exit status:
    /// that run is known to have happened and ended (spec: Durable effect boundary).
    pub fn uncertain(&self, effect: &str) -> bool {
        self.outcome == EffectOutcome::Unknown
            && !(effect.starts_with("process.") && self.evidence.get("exit_code").is_some())
    }
}

/// Serde adapter: `Vec<u8>` as a byte string (in CBOR a major-type-2 string, not an array of
/// integers).
mod bytes {
    use serde::{Deserializer, Serializer};

    pub(super) fn serialize<S: Serializer>(v: &[u8], s: S) -> Result<S::Ok, S::Error> {
        s.serialize_bytes(v)
    }

    pub(super) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<u8>, D::Error> {
        struct Visit;
        impl serde::de::Visitor<'_> for Visit {
            type Value = Vec<u8>;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a byte string")
            }
            fn visit_bytes<E: serde::de::Error>(self, v: &[u8]) -> Result<Vec<u8>, E> {
                Ok(v.to_vec())
            }
            fn visit_byte_buf<E: serde::de::Error>(self, v: Vec<u8>) -> Result<Vec<u8>, E> {
                Ok(v)
            }
        }
        d.deserialize_byte_buf(Visit)
    }
}

/// Why an [`EffectJournal`] could not record an effect record.
#[derive(Debug, thiserror::Error)]
pub enum JournalError {
    /// The session refused or failed the write (storage error, closed or read-only session,
    /// an uncertain earlier write). The source says which; nothing was acknowledged.
    #[error("the session could not record it: {0}")]
    Storage(#[source] Box<dyn std::error::Error + Send + Sync>),
    /// The write returned without an entry for the record (a journal defect).
    #[error("the session returned no entry for it")]
    NotRecorded,
}

/// Where a tool's effects are recorded. Implementations make each record durable (fsync
/// returned) before they return `Ok`.
pub trait EffectJournal: Send + Sync {
    /// Record `intent` durably, caused by entry `parent` (the message holding the tool call),
    /// and return the intent's entry.
    ///
    /// # Errors
    /// [`JournalError`]: the intent is not recorded, and the effect must not run.
    fn intent(
        &self,
        intent: EffectIntent,
        parent: Option<EntryId>,
    ) -> Result<EntryId, JournalError>;

    /// Record how the effect of intent entry `intent` ended, and return the completion's
    /// entry.
    ///
    /// # Errors
    /// [`JournalError`]: terminal for the effect; its outcome stays as recorded elsewhere
    /// (e.g. in the tool result).
    fn complete(
        &self,
        intent: EntryId,
        completion: EffectCompletion,
    ) -> Result<EntryId, JournalError>;
}
