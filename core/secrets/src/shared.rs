//! The registry every holder reads ([`Shared`]), the secrets plugins hand over while Smith
//! runs ([`Added`]), and redaction of text that arrives in pieces ([`StreamRedactor`]).

use crate::{Redactor, SecretError, reference};

/// A secret registered while Smith runs (a plugin handed it over): what its registration
/// record holds.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Added {
    /// Its name.
    pub name: String,
    /// What it is, in the registering plugin's words.
    pub label: Option<String>,
    /// Where it came from (`plugin:ID@VERSION`).
    pub source: String,
}

#[derive(Default)]
struct SharedState {
    redactor: std::sync::Arc<Redactor>,
    added: Vec<Added>,
}

/// The registered secrets, shared by everything that redacts — the session writer, the
/// provider requests, the frontends' output, the effect boundary — so a secret a plugin hands
/// over mid-run is redacted everywhere from then on (spec: "one-time handoff from creating
/// plugins"). Cloning shares; [`Shared::current`] is the redactor as of now.
#[derive(Clone, Default)]
pub struct Shared {
    state: std::sync::Arc<std::sync::RwLock<SharedState>>,
}

impl std::fmt::Debug for Shared {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_tuple("Shared").field(&self.current()).finish()
    }
}

/// Two handles are equal when they hold the same secrets now.
impl PartialEq for Shared {
    fn eq(&self, other: &Self) -> bool {
        *self.current() == *other.current()
    }
}

impl Eq for Shared {}

impl Shared {
    /// Share `redactor`.
    pub fn new(redactor: Redactor) -> Self {
        Self {
            state: std::sync::Arc::new(std::sync::RwLock::new(SharedState {
                redactor: std::sync::Arc::new(redactor),
                added: Vec::new(),
            })),
        }
    }

    /// The redactor as of now.
    pub fn current(&self) -> std::sync::Arc<Redactor> {
        self.state
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .redactor
            .clone()
    }

    /// Register secret `name` now (a plugin's one-time handoff): every holder redacts it from
    /// here on. Returns its reference.
    ///
    /// # Errors
    /// [`SecretError`] when `name` or `value` is refused (nothing changes).
    pub fn register(
        &self,
        name: &str,
        value: &str,
        label: Option<&str>,
        source: &str,
    ) -> Result<String, SecretError> {
        let mut state = self
            .state
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        state.redactor = std::sync::Arc::new(state.redactor.with(name, value)?);
        state.added.push(Added {
            name: name.to_owned(),
            label: label.map(str::to_owned),
            source: source.to_owned(),
        });
        Ok(reference(name))
    }

    /// The secrets registered through [`Shared::register`] after the first `seen`, and how
    /// many there are in all (the next `seen`).
    pub fn added_since(&self, seen: usize) -> (Vec<Added>, usize) {
        let state = self
            .state
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        (
            state.added.get(seen..).unwrap_or_default().to_vec(),
            state.added.len(),
        )
    }
}

/// Redacts text that arrives in pieces: what it returns, concatenated, equals
/// [`Redactor::redact`] of the whole text. It holds back only a tail that could still be the
/// start of a secret (shorter than the longest form).
#[derive(Debug)]
pub struct StreamRedactor<'r> {
    pub(crate) redactor: &'r Redactor,
    pub(crate) held: String,
}

impl StreamRedactor<'_> {
    /// Take `piece`; the redacted text that is now certain.
    pub fn push(&mut self, piece: &str) -> String {
        self.redactor.push_piece(&mut self.held, piece)
    }

    /// The end of the text: everything still held, redacted.
    pub fn finish(&mut self) -> String {
        let held = std::mem::take(&mut self.held);
        self.redactor.redact(&held).into_owned()
    }
}
