//! The model catalog: the reviewed offline snapshot bundled in the binary
//! (`core/ai/catalog/models.kdl`), entries contributed by provider plugins, and the user's own
//! `models.kdl` (spec: Providers, models, and authentication → Catalogs).
//!
//! Precedence, highest first: the user's file, the bundled snapshot, provider plugins. A
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

use kdl::{KdlDocument, KdlNode, KdlValue};
use smith::{CacheInfo, Conflict, ModelInfo, ModelRef, Price, Source, ThinkingLevel};

/// The bundled snapshot's text.
pub const BUNDLED: &str = include_str!("../catalog/models.kdl");

/// A catalog text that breaks the schema: where, and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error("{origin}:{line}: {message}")]
pub struct CatalogError {
    /// The file (or plugin) the text came from.
    pub origin: String,
    /// The 1-based line of the offending node.
    pub line: usize,
    /// What is wrong and what to write instead.
    pub message: String,
}

/// A parsed catalog text: its records (and, for a plugin, its default for models it serves
/// without a record of their own).
#[derive(Clone, Debug, Default)]
pub struct Layer {
    /// The records, in file order.
    pub models: Vec<ModelInfo>,
    /// Per provider: evidence about any model it serves that has no record.
    pub defaults: BTreeMap<String, ModelInfo>,
}

/// Where a layer sits in the precedence order.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub enum Rank {
    /// A provider plugin's contribution (lowest).
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
        let mut catalog = Self::default();
        catalog.add(Rank::Bundled, parse(BUNDLED, "bundled catalog", None)?);
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

/// Parse a catalog text. `origin` names it in errors and is the default source of records
/// that name none; `provider` (for a plugin's contribution) is the provider every record
/// belongs to, so records name only the model (`model "m1" { … }`) and `default-model { … }`
/// is allowed. Alias and group nodes are skipped here (see [`crate::routing`]).
///
/// # Errors
/// A [`CatalogError`] naming the line: bad KDL, an unknown node or figure, a value of the
/// wrong type, an unknown thinking level or source, a repeated model.
pub fn parse(text: &str, origin: &str, provider: Option<&str>) -> Result<Layer, CatalogError> {
    let doc = KdlDocument::parse(text).map_err(|e| {
        let offset = e.diagnostics.first().map_or(0, |d| d.span.offset());
        CatalogError {
            origin: origin.to_owned(),
            line: line_of(text, offset),
            message: "not valid KDL v2 (strings are quoted, booleans are #true and #false)"
                .to_owned(),
        }
    })?;
    let mut parser = Parser {
        text,
        origin,
        sources: BTreeMap::new(),
    };
    let mut layer = Layer::default();
    for node in doc.nodes() {
        match node.name().value() {
            "source" => parser.source(node)?,
            "model" => {
                let name = parser.string_arg(node, "model \"PROVIDER/MODEL\" { … }")?;
                let full = match provider {
                    Some(p) => format!("{p}/{name}"),
                    None => name,
                };
                let model: ModelRef = full
                    .parse()
                    .map_err(|e: smith::ModelRefError| parser.error(node, e.to_string()))?;
                if layer.models.iter().any(|m| m.model == model) {
                    return Err(parser.error(node, format!("model `{model}` is listed twice")));
                }
                layer.models.push(parser.record(node, model)?);
            }
            "default-model" if provider.is_some() => {
                let p = provider.unwrap_or_default();
                let model = ModelRef {
                    provider: p.to_owned(),
                    model: "*".to_owned(),
                };
                layer
                    .defaults
                    .insert(p.to_owned(), parser.record(node, model)?);
            }
            "alias" | "group" if provider.is_none() => {}
            other => {
                return Err(parser.error(
                    node,
                    format!(
                        "unknown node `{other}`; a catalog holds `source`, `model`{} nodes",
                        if provider.is_some() {
                            " and `default-model`"
                        } else {
                            ", `alias` and `group`"
                        }
                    ),
                ));
            }
        }
    }
    Ok(layer)
}

struct Parser<'t> {
    text: &'t str,
    origin: &'t str,
    sources: BTreeMap<String, Source>,
}

impl Parser<'_> {
    fn error(&self, node: &KdlNode, message: String) -> CatalogError {
        CatalogError {
            origin: self.origin.to_owned(),
            line: line_of(self.text, node.span().offset()),
            message,
        }
    }

    fn string_arg(&self, node: &KdlNode, example: &str) -> Result<String, CatalogError> {
        node.entries()
            .iter()
            .find(|e| e.name().is_none())
            .and_then(|e| e.value().as_string())
            .map(str::to_owned)
            .ok_or_else(|| {
                self.error(
                    node,
                    format!("`{}` needs a quoted name: {example}", node.name().value()),
                )
            })
    }

    fn prop<'n>(node: &'n KdlNode, name: &str) -> Option<&'n KdlValue> {
        node.entries()
            .iter()
            .find(|e| e.name().map(|n| n.value()) == Some(name))
            .map(kdl::KdlEntry::value)
    }

    fn source(&mut self, node: &KdlNode) -> Result<(), CatalogError> {
        let id = self.string_arg(node, "source \"ID\" date=\"YYYY-MM-DD\" { title \"…\" }")?;
        let date = Self::prop(node, "date")
            .and_then(KdlValue::as_string)
            .map(str::to_owned);
        let title = node
            .children()
            .and_then(|c| c.get_arg("title"))
            .and_then(KdlValue::as_string)
            .map(str::to_owned)
            .ok_or_else(|| self.error(node, format!("source `{id}` needs a `title \"…\"`")))?;
        self.sources.insert(id.clone(), Source { id, title, date });
        Ok(())
    }

    fn source_ref(&self, node: &KdlNode) -> Result<Option<Source>, CatalogError> {
        let Some(v) = Self::prop(node, "source") else {
            return Ok(None);
        };
        let id = v
            .as_string()
            .ok_or_else(|| self.error(node, "`source=` takes a quoted source id".to_owned()))?;
        self.sources.get(id).cloned().map(Some).ok_or_else(|| {
            let known: Vec<&str> = self.sources.keys().map(String::as_str).collect();
            self.error(
                node,
                format!(
                    "source `{id}` is not declared above it (declared: {}); add `source \"{id}\" date=\"YYYY-MM-DD\" {{ title \"…\" }}`",
                    if known.is_empty() { "none".to_owned() } else { known.join(", ") }
                ),
            )
        })
    }

    fn record(&self, node: &KdlNode, model: ModelRef) -> Result<ModelInfo, CatalogError> {
        let source = self.source_ref(node)?.unwrap_or_else(|| Source {
            id: self.origin.to_owned(),
            title: format!("written in {}", self.origin),
            date: None,
        });
        let mut info = ModelInfo::unknown(model, source);
        let Some(children) = node.children() else {
            return Ok(info);
        };
        for child in children.nodes() {
            let name = child.name().value();
            let args: Vec<&KdlValue> = child
                .entries()
                .iter()
                .filter(|e| e.name().is_none())
                .map(kdl::KdlEntry::value)
                .collect();
            let count = |n: u64| -> Result<u64, CatalogError> {
                match args.as_slice() {
                    [v] => v
                        .as_integer()
                        .and_then(|i| u64::try_from(i).ok())
                        .filter(|&i| i > 0 || n == 0)
                        .ok_or_else(|| {
                            self.error(child, format!("`{name}` takes one positive integer"))
                        }),
                    _ => Err(self.error(child, format!("`{name}` takes one positive integer"))),
                }
            };
            let flag = || -> Result<bool, CatalogError> {
                match args.as_slice() {
                    [v] => v.as_bool().ok_or_else(|| {
                        self.error(child, format!("`{name}` takes #true or #false"))
                    }),
                    _ => Err(self.error(child, format!("`{name}` takes #true or #false"))),
                }
            };
            let figure = match name {
                "context" => {
                    info.context = Some(count(1)?);
                    "context"
                }
                "output" => {
                    info.output = Some(count(1)?);
                    "output"
                }
                "image-input" => {
                    info.image_input = Some(flag()?);
                    "image-input"
                }
                "tools" => {
                    info.tools = Some(flag()?);
                    "tools"
                }
                "strict-tools" => {
                    info.strict_tools = Some(flag()?);
                    "strict-tools"
                }
                "thinking" => {
                    let mut levels = Vec::new();
                    for v in &args {
                        let level =
                            v.as_string()
                                .and_then(ThinkingLevel::parse)
                                .ok_or_else(|| {
                                    self.error(
                                        child,
                                        format!(
                                            "thinking level {v} is not one of {}",
                                            ThinkingLevel::ALL
                                                .map(ThinkingLevel::as_str)
                                                .join(", ")
                                        ),
                                    )
                                })?;
                        levels.push(level);
                    }
                    levels.sort();
                    levels.dedup();
                    if levels.is_empty() {
                        return Err(self.error(
                            child,
                            "`thinking` lists the accepted levels; a model without thinking lists \"off\""
                                .to_owned(),
                        ));
                    }
                    info.thinking = Some(levels);
                    "thinking"
                }
                "cache" => {
                    let get = |k: &str| Self::prop(child, k).and_then(KdlValue::as_bool);
                    match (get("read"), get("write")) {
                        (Some(read), Some(write)) => info.cache = Some(CacheInfo { read, write }),
                        _ => {
                            return Err(self.error(
                                child,
                                "`cache` takes read=#true|#false write=#true|#false".to_owned(),
                            ));
                        }
                    }
                    "cache"
                }
                "price" => {
                    let mut price = Price {
                        input: None,
                        output: None,
                        cache_read: None,
                        cache_write: None,
                    };
                    for entry in child.entries() {
                        let Some(key) = entry.name().map(|n| n.value()) else {
                            return Err(self.error(
                                child,
                                "`price` takes named prices: input= output= cache-read= cache-write= (USD per million tokens)".to_owned(),
                            ));
                        };
                        if key == "source" {
                            continue;
                        }
                        let value = entry
                            .value()
                            .as_float()
                            .or_else(|| entry.value().as_integer().map(|i| i as f64))
                            .filter(|p| p.is_finite() && *p >= 0.0)
                            .ok_or_else(|| {
                                self.error(child, format!("price `{key}` must be a number ≥ 0"))
                            })?;
                        let slot = match key {
                            "input" => &mut price.input,
                            "output" => &mut price.output,
                            "cache-read" => &mut price.cache_read,
                            "cache-write" => &mut price.cache_write,
                            other => {
                                return Err(self.error(
                                    child,
                                    format!("unknown price `{other}`; known: input, output, cache-read, cache-write"),
                                ));
                            }
                        };
                        *slot = Some(value);
                    }
                    info.price = Some(price);
                    "price"
                }
                other => {
                    return Err(self.error(
                        child,
                        format!(
                            "unknown figure `{other}`; known: context, output, image-input, tools, strict-tools, thinking, cache, price"
                        ),
                    ));
                }
            };
            if let Some(source) = self.source_ref(child)? {
                info.provenance.figures.insert(figure.to_owned(), source);
            }
        }
        Ok(info)
    }
}

/// The 1-based line of byte `offset` in `text`.
pub(crate) fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

#[cfg(test)]
mod tests {
    use super::*;

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
    fn schema_errors_name_the_line_and_the_fix() {
        for (text, needle) in [
            (
                "model \"a/b\" {\n  tools \"yes\"\n}",
                ":2: `tools` takes #true",
            ),
            ("model \"a/b\" {\n  colour 1\n}", "unknown figure `colour`"),
            ("model \"a/b\" {\n  thinking \"huge\"\n}", "not one of off"),
            (
                "model \"a/b\" source=\"x\" {}",
                "source `x` is not declared",
            ),
            ("model \"ab\" {}", "not a model reference"),
            ("model \"a/b\"\nmodel \"a/b\"", "listed twice"),
            ("model \"a/b\" {\n  price input=-1\n}", "must be a number"),
            ("mode \"a/b\"", "unknown node `mode`"),
            ("model \"a/b\" {", "not valid KDL"),
        ] {
            let err = parse(text, "models.kdl", None).unwrap_err().to_string();
            assert!(err.contains(needle), "{text:?}: {err}");
        }
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
