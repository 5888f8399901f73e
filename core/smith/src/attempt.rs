//! Provider attempts: the user's selection kept apart from each physical dispatch
//! (spec: Providers, models, and authentication → Dispatch identity, Failover).

use serde::{Deserialize, Serialize};

use crate::{EntryId, ModelInfo, ModelRef, ProviderErrorKind, ThinkingLevel};

/// How the selection reached the physical model. Wire names are lowercase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum RouteSource {
    /// The selection named the model itself (`provider/model`).
    Direct,
    /// The selection went through at least one alias and no group.
    Alias,
    /// The selection went through a group (a failover order).
    Group,
}

/// The routing provenance of one candidate: how the selection resolved to it, offline.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Routing {
    /// Direct, alias or group.
    pub source: RouteSource,
    /// The names followed, from the selection to the physical model, e.g.
    /// `["main", "fast", "anthropic/claude-haiku-4-5"]`.
    pub path: Vec<String>,
    /// This candidate's place in the resolved order (1-based) and the order's length.
    pub position: u32,
    /// How many candidates the selection resolved to (models × accounts).
    pub of: u32,
    /// Candidates before this one that were passed over without dispatch, each with why
    /// (for example a capability the request needs and that model lacks).
    #[serde(default, skip_serializing_if = "Vec::is_empty")]
    pub skipped: Vec<String>,
}

/// Why an attempt follows an earlier one of the same round. Wire names are lowercase.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum Next {
    /// The same candidate again, after a transient failure.
    Retry,
    /// The next candidate of the order.
    Failover,
    /// No further attempt: the failure is final for the round.
    Stop,
}

/// One provider attempt, recorded before its request is sent.
///
/// `selection` is what the user chose and never changes because of routing; `model`,
/// `account`, `thinking` and `capabilities` describe the physical dispatch.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct Attempt {
    /// The provider round (1-based within the run).
    pub round: u32,
    /// The attempt within the round (1-based).
    pub number: u32,
    /// The selection as the user wrote it: `provider/model`, an alias or a group.
    pub selection: String,
    /// The physical model dispatched to.
    pub model: ModelRef,
    /// The credential account used (its label, never its value), when the provider takes one.
    pub account: Option<String>,
    /// The effective thinking level sent; `None` leaves it to the model's default.
    pub thinking: Option<ThinkingLevel>,
    /// How the selection reached this model.
    pub routing: Routing,
    /// Why this attempt follows another of the round; `None` for the round's first.
    pub after: Option<Next>,
    /// The catalog record the request was checked against and is priced with; `None` when the
    /// provider was given directly through the library API, unchecked.
    pub capabilities: Option<ModelInfo>,
    /// The provider plugin generation that encoded and decoded it (`id@version#digest`).
    pub generation: String,
    /// The output limit sent and where it came from; `None` in attempts recorded before
    /// Smith recorded it.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub output_limit: Option<OutputLimit>,
}

/// Where an attempt's output limit came from. Wire names are kebab-case.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "kebab-case")]
pub enum OutputLimitSource {
    /// The dispatched model's catalog record (`output`).
    Catalog,
    /// The `max-output` setting, lower than the catalog's limit or with none known.
    Setting,
    /// Neither is known: the provider plugin sends its vendor's documented default (or none,
    /// where the vendor has one of its own).
    ProviderDefault,
}

/// The output-token limit one attempt asks for (spec: Providers, models, and authentication →
/// Model capabilities — "Provider requests use only advertised capabilities").
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct OutputLimit {
    /// The most output tokens asked for (thinking included where the vendor counts it there);
    /// `None` when left to the provider plugin's default.
    pub tokens: Option<u64>,
    /// Where the figure came from.
    pub source: OutputLimitSource,
}

impl OutputLimit {
    /// The limit for a model whose catalog says `catalog` when the `max-output` setting says
    /// `setting`: the lower of the two known figures, the catalog's on a tie.
    pub fn choose(catalog: Option<u64>, setting: Option<u64>) -> Self {
        let (tokens, source) = match (catalog, setting) {
            (Some(c), Some(s)) if s < c => (Some(s), OutputLimitSource::Setting),
            (Some(c), _) => (Some(c), OutputLimitSource::Catalog),
            (None, Some(s)) => (Some(s), OutputLimitSource::Setting),
            (None, None) => (None, OutputLimitSource::ProviderDefault),
        };
        Self { tokens, source }
    }
}

/// An attempt that ended without a response, and what the round does next.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct AttemptFailure {
    /// The entry id of the failed [`Attempt`].
    pub attempt: EntryId,
    /// The failure class.
    pub kind: ProviderErrorKind,
    /// What the provider or transport said (never a credential).
    pub message: String,
    /// What the round does next.
    pub next: Next,
}
