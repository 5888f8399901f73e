//! The model catalog: the reviewed offline snapshot bundled in the binary
//! (`core/ai/catalog/models.kdl`), entries contributed by provider plugins, and the user's own
//! `models.kdl` (spec: Providers, models, and authentication → Catalogs).
//!
//! Precedence, highest first: the user's file, the bundled snapshot, provider plugins, what a
//! provider's server listed at the last refresh. A
//! record replaces a lower one whole, and the replaced record is kept in the winner's
//! [`smith::Conflict`] list with the figures that differ, so nothing is silently overwritten.
//! Building a catalog never touches the network.
//!
//! The KDL schema of a record (prices in US dollars per million tokens; an absent figure is
//! unknown, and unknown is never advertised):
//!
//! ```kdl
//! source "litellm-1.110.2" date="2026-11-20" {
//!     title "model_prices_and_context_window_backup.json in the litellm 1.110.2 wheel on PyPI"
//! }
//! model "anthropic/claude-haiku-4-5" source="litellm-1.110.2" {
//!     context 200000          // most input tokens
//!     output 64000            // most output tokens
//!     image-input #true
//!     tools #true
//!     strict-tools #false
//!     thinking "off" "low" "medium" "high"
//!     cache read=#true write=#true
//!     price input=1.0 output=5.0 cache-read=0.1 cache-write=1.25
//! }
//! ```
//!
//! Any figure may name its own source (`tools #true source="vendor-docs"`).

use std::collections::BTreeMap;

use smith::{Conflict, ModelInfo, ModelRef};

pub mod litellm;
mod parse;

pub use parse::{CatalogError, Layer, MAX_BYTES, MAX_NESTING, parse};

/// The bundled snapshot's text (reviewed; its source of truth).
pub const BUNDLED: &str = include_str!("../catalog/models.kdl");

/// The bundled snapshot's records, parsed from [`BUNDLED`] by `build.rs` with [`parse`] and
/// embedded as JSON (reading JSON takes a fraction of the time KDL parsing does).
const BUNDLED_JSON: &str = include_str!(concat!(env!("OUT_DIR"), "/catalog.json"));

/// Where a layer sits in the precedence order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rank {
    /// What a provider's server listed at the last catalog refresh (lowest: every declared
    /// record wins over it).
    Refreshed,
    /// A provider plugin's contribution.
    Plugin,
    /// The reviewed snapshot checked into the repository.
    Bundled,
    /// The user's own `models.kdl` (highest).
    User,
}

/// The merged catalog: one record per model.
#[derive(Clone, Debug, Default)]
pub struct Catalog {
    models: BTreeMap<String, (Rank, ModelInfo)>,
    defaults: BTreeMap<String, ModelInfo>,
}

impl Catalog {
    /// A catalog holding only the bundled snapshot.
    ///
    /// # Errors
    /// Never for a released binary (the snapshot is checked by tests); a [`CatalogError`] if
    /// the bundled text breaks the schema.
    pub fn bundled() -> Result<Self, CatalogError> {
        let models: Vec<ModelInfo> =
            serde_json::from_str(BUNDLED_JSON).map_err(|e| CatalogError {
                origin: "bundled catalog".to_owned(),
                line: 0,
                message: format!("the embedded records do not read back: {e}"),
            })?;
        let mut catalog = Self::default();
        catalog.add(
            Rank::Bundled,
            Layer {
                models,
                defaults: BTreeMap::new(),
            },
        );
        Ok(catalog)
    }

    /// Merge `layer` at `rank`: a record of equal or higher rank replaces the one there,
    /// which is kept as a conflict of the winner; a lower one is kept as a conflict of the
    /// record it lost to.
    pub fn add(&mut self, rank: Rank, layer: Layer) {
        for info in layer.models {
            let key = info.model.to_string();
            match self.models.remove(&key) {
                None => {
                    self.models.insert(key, (rank, info));
                }
                Some((old_rank, mut old)) if old_rank > rank => {
                    let conflict = conflict(&info, &old);
                    old.provenance.conflicts.push(conflict);
                    self.models.insert(key, (old_rank, old));
                }
                Some((_, old)) => {
                    let mut info = info;
                    let mut inherited = old.provenance.conflicts.clone();
                    inherited.insert(0, conflict(&old, &info));
                    info.provenance.conflicts.extend(inherited);
                    self.models.insert(key, (rank, info));
                }
            }
        }
        for (provider, info) in layer.defaults {
            self.defaults.entry(provider).or_insert(info);
        }
    }

    /// The record of `model`: its own, else its provider plugin's default for uncatalogued
    /// models (renamed to `model`), else `None` (nothing is known, nothing is advertised).
    pub fn get(&self, model: &ModelRef) -> Option<ModelInfo> {
        if let Some((_, info)) = self.models.get(&model.to_string()) {
            return Some(info.clone());
        }
        self.defaults.get(&model.provider).map(|d| ModelInfo {
            model: model.clone(),
            ..d.clone()
        })
    }

    /// Every record, ordered by `provider/model`.
    pub fn models(&self) -> impl Iterator<Item = &ModelInfo> {
        self.models.values().map(|(_, info)| info)
    }

    /// The per-provider defaults for uncatalogued models.
    pub fn defaults(&self) -> impl Iterator<Item = &ModelInfo> {
        self.defaults.values()
    }
}

/// The figures where `loser` differs from `winner`, as a conflict of `loser`'s source.
fn conflict(loser: &ModelInfo, winner: &ModelInfo) -> Conflict {
    let strip = |m: &ModelInfo| {
        let mut v = serde_json::to_value(m).unwrap_or_default();
        if let Some(map) = v.as_object_mut() {
            map.remove("provenance");
        }
        v
    };
    let (l, w) = (strip(loser), strip(winner));
    let mut differs = Vec::new();
    if let (Some(l), Some(w)) = (l.as_object(), w.as_object()) {
        for (k, lv) in l {
            if w.get(k) != Some(lv) {
                differs.push(format!("{k}: {lv}"));
            }
        }
    }
    Conflict {
        source: loser.provenance.source.id.clone(),
        differs,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_embedded_records_are_the_reviewed_text_parsed() {
        let parsed = parse(BUNDLED, "bundled catalog", None).unwrap();
        let embedded = Catalog::bundled().unwrap();
        let embedded: Vec<&ModelInfo> = embedded.models().collect();
        assert_eq!(embedded.len(), parsed.models.len());
        for m in &parsed.models {
            assert!(embedded.contains(&m), "{} differs", m.model);
        }
    }

    #[test]
    fn the_bundled_snapshot_parses_and_every_record_has_a_dated_source() {
        let catalog = Catalog::bundled().unwrap();
        assert!(catalog.models().count() > 20);
        for m in catalog.models() {
            assert!(
                m.provenance.source.date.is_some(),
                "{} has an undated source",
                m.model
            );
            assert!(m.price.is_some() && m.context.is_some(), "{}", m.model);
        }
        let haiku = catalog
            .get(&"anthropic/claude-haiku-4-5".parse().unwrap())
            .unwrap();
        assert_eq!(haiku.tools, Some(true));
        assert_eq!(haiku.strict_tools, None);
    }

    #[test]
    fn user_records_win_and_keep_what_they_replaced() {
        let mut catalog = Catalog::bundled().unwrap();
        let user = parse(
            "model \"anthropic/claude-haiku-4-5\" {\n  context 100\n  tools #false\n}\n",
            "models.kdl",
            None,
        )
        .unwrap();
        catalog.add(Rank::User, user);
        let plugin = parse(
            "model \"claude-haiku-4-5\" { tools #true }",
            "plugin:x",
            Some("anthropic"),
        )
        .unwrap();
        catalog.add(Rank::Plugin, plugin);
        let m = catalog
            .get(&"anthropic/claude-haiku-4-5".parse().unwrap())
            .unwrap();
        assert_eq!(m.context, Some(100));
        assert_eq!(m.provenance.source.id, "models.kdl");
        let sources: Vec<&str> = m
            .provenance
            .conflicts
            .iter()
            .map(|c| c.source.as_str())
            .collect();
        assert_eq!(sources, ["litellm-1.110.2", "plugin:x"]);
        assert!(
            m.provenance.conflicts[0]
                .differs
                .iter()
                .any(|d| d.starts_with("context: 200000")),
            "{:?}",
            m.provenance.conflicts
        );
    }

    #[test]
    fn a_plugin_default_covers_uncatalogued_models_only() {
        let mut catalog = Catalog::default();
        let layer = parse(
            "default-model { tools #true }\nmodel \"known\" { tools #false }",
            "plugin:oc",
            Some("oc"),
        )
        .unwrap();
        catalog.add(Rank::Plugin, layer);
        assert_eq!(
            catalog.get(&"oc/any".parse().unwrap()).unwrap().tools,
            Some(true)
        );
        assert_eq!(
            catalog.get(&"oc/known".parse().unwrap()).unwrap().tools,
            Some(false)
        );
        assert!(catalog.get(&"other/any".parse().unwrap()).is_none());
        assert!(parse("default-model {}", "models.kdl", None).is_err());
    }
}
