//! Model metadata: what a model supports, what it costs, and where each figure comes from
//! (spec: Providers, models, and authentication → Model capabilities, Catalogs).
//!
//! Every capability is explicit evidence or unknown (`None`). Unknown is never advertised:
//! a request that needs an unknown capability fails before dispatch ([`ModelInfo::check`]).

use std::collections::BTreeMap;
use std::fmt;

use serde::{Deserialize, Serialize};

use crate::{ModelRef, ProviderRequest, Usage};

/// A thinking (reasoning effort) level, ordered from none to most. Wire names are lowercase
/// (`off`, `minimal`, `low`, `medium`, `high`, `xhigh`, `max`); provider plugins map them to
/// their vendor's parameter.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize, Deserialize)]
#[serde(rename_all = "lowercase")]
pub enum ThinkingLevel {
    /// No thinking.
    Off,
    /// The least thinking a model that cannot turn it off does.
    Minimal,
    /// Low effort.
    Low,
    /// Medium effort.
    Medium,
    /// High effort.
    High,
    /// Extra-high effort.
    Xhigh,
    /// The most effort the model offers.
    Max,
}

impl ThinkingLevel {
    /// Every level, from none to most.
    pub const ALL: [ThinkingLevel; 7] = [
        ThinkingLevel::Off,
        ThinkingLevel::Minimal,
        ThinkingLevel::Low,
        ThinkingLevel::Medium,
        ThinkingLevel::High,
        ThinkingLevel::Xhigh,
        ThinkingLevel::Max,
    ];

    /// The lowercase wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            ThinkingLevel::Off => "off",
            ThinkingLevel::Minimal => "minimal",
            ThinkingLevel::Low => "low",
            ThinkingLevel::Medium => "medium",
            ThinkingLevel::High => "high",
            ThinkingLevel::Xhigh => "xhigh",
            ThinkingLevel::Max => "max",
        }
    }

    /// The level named `name` (a wire name), if any.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|l| l.as_str() == name)
    }
}

impl fmt::Display for ThinkingLevel {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// Prompt-cache behaviour.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct CacheInfo {
    /// Cached input can be read (and is billed at the cache-read price).
    pub read: bool,
    /// Input can be written to the cache (billed at the cache-write price).
    pub write: bool,
}

/// Prices in US dollars per million tokens, one per token bucket of [`Usage`]. A bucket whose
/// price is unknown is `None`.
#[derive(Clone, Copy, Debug, PartialEq, Serialize, Deserialize)]
pub struct Price {
    /// Input tokens (cache reads and writes excluded).
    pub input: Option<f64>,
    /// Output tokens, thinking included.
    pub output: Option<f64>,
    /// Input tokens read from the prompt cache.
    pub cache_read: Option<f64>,
    /// Input tokens written to the prompt cache.
    pub cache_write: Option<f64>,
}

impl Price {
    /// The cost in US dollars of `usage` at these prices: each bucket priced once. `None`
    /// (unknown) when a bucket's tokens are unknown and its price is not a known zero, or when
    /// a bucket has tokens and no known price; a bucket with zero tokens, or with a price of
    /// zero, costs nothing.
    pub fn cost(&self, usage: &Usage) -> Option<f64> {
        fn bucket(tokens: Option<u64>, price: Option<f64>) -> Option<f64> {
            if price == Some(0.0) {
                return Some(0.0);
            }
            match (tokens?, price) {
                (0, _) => Some(0.0),
                #[allow(clippy::cast_precision_loss)] // token counts are far below 2^52
                (n, Some(p)) => Some(n as f64 * p / 1_000_000.0),
                (_, None) => None,
            }
        }
        Some(
            bucket(usage.input, self.input)?
                + bucket(usage.output, self.output)?
                + bucket(usage.cache_read, self.cache_read)?
                + bucket(usage.cache_write, self.cache_write)?,
        )
    }
}

/// Where a figure comes from: a source of the catalog (its id, what it is, its date), a
/// provider plugin, or the user's own file.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Source {
    /// A short id, e.g. `litellm-1.110.2`, `plugin:openai-compatible@0.1.0`, `models.kdl`.
    pub id: String,
    /// What the source is, for a reader.
    pub title: String,
    /// When the source was published or written (`YYYY-MM-DD`), when known.
    pub date: Option<String>,
}

/// Provenance of one catalog record: the source of its figures, per-figure exceptions, and
/// what it shadowed.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Provenance {
    /// The source of every figure not named in `figures`.
    pub source: Source,
    /// Figures with their own source, by figure name (`thinking`, `price`, …).
    pub figures: BTreeMap<String, Source>,
    /// Lower-precedence records of the same model that this one replaced, with the figures
    /// where they disagree (`field: their value`); empty when nothing was shadowed.
    pub conflicts: Vec<Conflict>,
}

/// A record of the same model from a lower-precedence source that the winning record replaced.
#[derive(Clone, Debug, PartialEq, Eq, Serialize, Deserialize)]
pub struct Conflict {
    /// The shadowed record's source id.
    pub source: String,
    /// Figures that differ, as `name: shadowed value`.
    pub differs: Vec<String>,
}

/// Everything Smith knows about one model: limits, capabilities and prices, each explicit or
/// unknown (`None`), with provenance. One record of the catalog; a snapshot of it is recorded
/// with every provider attempt.
#[derive(Clone, Debug, PartialEq, Serialize, Deserialize)]
pub struct ModelInfo {
    /// The physical model, `provider/model`.
    pub model: ModelRef,
    /// Context window in tokens (input plus output).
    pub context: Option<u64>,
    /// Most output tokens one response may have.
    pub output: Option<u64>,
    /// Accepts image input.
    pub image_input: Option<bool>,
    /// Accepts tool definitions and makes tool calls.
    pub tools: Option<bool>,
    /// Supports strict (grammar-constrained) tool input.
    pub strict_tools: Option<bool>,
    /// The thinking levels it accepts; a model without thinking lists only `off`.
    pub thinking: Option<Vec<ThinkingLevel>>,
    /// Prompt-cache behaviour.
    pub cache: Option<CacheInfo>,
    /// Prices per token bucket.
    pub price: Option<Price>,
    /// Where the figures come from.
    pub provenance: Provenance,
}

/// Why a request cannot be dispatched to a model: it needs a capability the model's catalog
/// record does not advertise.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{model} cannot take this request: {what} (catalog source: {evidence}); {fix}")]
pub struct CapabilityError {
    /// The dispatched model.
    pub model: ModelRef,
    /// What the request needs that the model lacks.
    pub what: String,
    /// The source id of the deciding figure.
    pub evidence: String,
    /// The corrective action.
    pub fix: String,
}

impl ModelInfo {
    /// A record with every capability unknown, from `source`.
    pub fn unknown(model: ModelRef, source: Source) -> Self {
        Self {
            model,
            context: None,
            output: None,
            image_input: None,
            tools: None,
            strict_tools: None,
            thinking: None,
            cache: None,
            price: None,
            provenance: Provenance {
                source,
                figures: BTreeMap::new(),
                conflicts: Vec::new(),
            },
        }
    }

    /// The source id of figure `name`.
    pub fn source_of(&self, name: &str) -> &str {
        self.provenance
            .figures
            .get(name)
            .unwrap_or(&self.provenance.source)
            .id
            .as_str()
    }

    /// Check `request` against this model's advertised capabilities, before any byte is sent:
    /// tool definitions need `tools`, a thinking level must be listed, and an output limit must not exceed `output`. Unknown evidence is not
    /// advertisement.
    ///
    /// # Errors
    /// The first [`CapabilityError`] found, naming the capability, the deciding source and
    /// the fix.
    pub fn check(&self, request: &ProviderRequest) -> Result<(), CapabilityError> {
        let fail = |what: String, figure: &str, fix: &str| CapabilityError {
            model: self.model.clone(),
            what,
            evidence: self.source_of(figure).to_owned(),
            fix: fix.to_owned(),
        };
        if !request.tools.is_empty() && self.tools != Some(true) {
            return Err(fail(
                format!(
                    "it has {} tool definitions, but the model's tool use is {}",
                    request.tools.len(),
                    advertised(self.tools)
                ),
                "tools",
                "choose a model whose catalog record has `tools #true`, declare the model's tool use in your models.kdl if it has it, or run without the tool plugins (the setting plugins.ID.enabled false for each tool plugin)",
            ));
        }
        let images: usize = request
            .context
            .iter()
            .map(|item| match item {
                crate::ContextItem::Message(m) => m.images().count(),
                crate::ContextItem::ToolResult(_) => 0,
            })
            .sum();
        if images > 0 && self.image_input != Some(true) {
            return Err(fail(
                format!(
                    "its context has {}, but the model's image input is {}",
                    if images == 1 {
                        "an image".to_owned()
                    } else {
                        format!("{images} images")
                    },
                    advertised(self.image_input)
                ),
                "image-input",
                "choose a model whose catalog record has `image-input #true` or declare it in your models.kdl if the model takes images; images already in the session's history stay in it, so continue without them in a new session or a fork from before them",
            ));
        }
        if let Some(level) = request.thinking {
            self.check_thinking(level)?;
        }
        if let Some(window) = self.context {
            let estimate = request.estimated_input_tokens();
            if estimate > window {
                return Err(fail(
                    format!(
                        "its context is about {estimate} tokens (estimated at {} bytes per token), more than the model's {window}-token context window",
                        crate::provider::BYTES_PER_TOKEN
                    ),
                    "context",
                    "start a new session (or fork one from an earlier entry), or choose a model with a larger context window",
                ));
            }
        }
        if let (Some(asked), Some(limit)) = (request.max_output, self.output)
            && asked > limit
        {
            return Err(fail(
                format!(
                    "it asks for up to {asked} output tokens, but the model's limit is {limit}"
                ),
                "output",
                "lower the output limit",
            ));
        }
        Ok(())
    }
}

impl ModelInfo {
    /// Check that thinking `level` is one this model's record lists — what a route checks
    /// before anything is written, so an unsupported level is refused up front.
    ///
    /// # Errors
    /// A [`CapabilityError`] naming the listed levels and the deciding source.
    pub fn check_thinking(&self, level: ThinkingLevel) -> Result<(), CapabilityError> {
        let listed = self.thinking.as_deref().unwrap_or(&[]);
        if listed.contains(&level) {
            return Ok(());
        }
        let known = if listed.is_empty() {
            "none known".to_owned()
        } else {
            listed
                .iter()
                .map(|l| l.as_str())
                .collect::<Vec<_>>()
                .join(", ")
        };
        Err(CapabilityError {
            model: self.model.clone(),
            what: format!("it asks for thinking level `{level}`, but the model accepts: {known}"),
            evidence: self.source_of("thinking").to_owned(),
            fix: "choose one of the listed levels (the `thinking` setting), or leave thinking to the model's default".to_owned(),
        })
    }
}

fn advertised(flag: Option<bool>) -> &'static str {
    match flag {
        Some(true) => "advertised",
        Some(false) => "not supported",
        None => "unknown (no source states it)",
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn info() -> ModelInfo {
        let mut m = ModelInfo::unknown(
            "p/m".parse().unwrap(),
            Source {
                id: "test".into(),
                title: "test".into(),
                date: None,
            },
        );
        m.price = Some(Price {
            input: Some(3.0),
            output: Some(15.0),
            cache_read: Some(0.3),
            cache_write: Some(3.75),
        });
        m
    }

    #[test]
    fn each_bucket_is_priced_once() {
        let usage = Usage {
            input: Some(1_000_000),
            output: Some(1_000_000),
            cache_read: Some(1_000_000),
            cache_write: Some(1_000_000),
        };
        let cost = info().price.unwrap().cost(&usage).unwrap();
        assert!((cost - (3.0 + 15.0 + 0.3 + 3.75)).abs() < 1e-9, "{cost}");
    }

    #[test]
    fn unknown_tokens_or_missing_prices_make_the_cost_unknown() {
        let price = info().price.unwrap();
        let usage = Usage {
            input: Some(10),
            output: None,
            cache_read: Some(0),
            cache_write: Some(0),
        };
        assert_eq!(price.cost(&usage), None);
        let no_cache_price = Price {
            cache_write: None,
            ..price
        };
        let zero_writes = Usage {
            output: Some(1),
            ..usage
        };
        assert!(no_cache_price.cost(&zero_writes).is_some());
        let some_writes = Usage {
            cache_write: Some(5),
            ..zero_writes
        };
        assert_eq!(no_cache_price.cost(&some_writes), None);
    }

    #[test]
    fn unknown_capabilities_are_not_advertised() {
        let request = ProviderRequest {
            model: "p/m".parse().unwrap(),
            instructions: None,
            context: vec![],
            tools: vec![crate::ToolDefinition {
                name: "read".into(),
                description: String::new(),
                input_schema: serde_json::json!({}),
            }],
            thinking: None,
            max_output: None,
            cache: None,
        };
        let err = info().check(&request).unwrap_err();
        assert!(err.to_string().contains("unknown"), "{err}");
        let mut m = info();
        m.tools = Some(true);
        assert!(m.check(&request).is_ok());
        let thinking = ProviderRequest {
            thinking: Some(ThinkingLevel::High),
            ..request
        };
        assert!(
            m.check(&thinking)
                .unwrap_err()
                .to_string()
                .contains("`high`")
        );
        m.thinking = Some(vec![ThinkingLevel::Off, ThinkingLevel::High]);
        assert!(m.check(&thinking).is_ok());
    }
}
