//! The KDL schema of catalog texts (see [`crate::catalog`]): the bundled snapshot (parsed at
//! build time by `build.rs`, which includes this file alone), provider plugins' `catalog`
//! blocks and the user's `models.kdl`. Self-contained: it uses no other module of the crate,
//! only the shared KDL schema helpers of `smith_config::kdl`.

use std::collections::BTreeMap;

use kdl::{KdlNode, KdlValue};
use smith::{CacheInfo, ModelInfo, ModelRef, Price, Source, ThinkingLevel};
use smith_config::kdl::{self as schema, Bounds, SyntaxError};

/// The largest catalog text read, in bytes (a `models.kdl` of a few thousand records).
pub const MAX_BYTES: usize = 1 << 20;

/// The deepest `{ … }` nesting a catalog text may have (the schema needs 2).
pub const MAX_NESTING: usize = 8;

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

/// Parse a catalog text. `origin` names it in errors and is the default source of records
/// that name none; `provider` (for a plugin's contribution) is the provider every record
/// belongs to, so records name only the model (`model "m1" { … }`) and `default-model { … }`
/// is allowed. Alias and group nodes are skipped here (see [`crate::routing`]).
///
/// # Errors
/// A [`CatalogError`] naming the line: bad KDL, an unknown node or figure, a value of the
/// wrong type, an unknown thinking level or source, a repeated model.
pub fn parse(text: &str, origin: &str, provider: Option<&str>) -> Result<Layer, CatalogError> {
    let refuse = |message: String| CatalogError {
        origin: origin.to_owned(),
        line: 1,
        message,
    };
    let bounds = Bounds {
        max_bytes: MAX_BYTES,
        max_nesting: MAX_NESTING,
    };
    let doc = schema::parse(text, bounds).map_err(|e| match e {
        SyntaxError::TooLong { len, max } => refuse(format!(
            "the text is {len} bytes, more than the {max}-byte bound of a catalog"
        )),
        SyntaxError::TooDeep { max } => refuse(format!(
            "blocks are nested deeper than {max} levels; a catalog needs two (model {{ figures }})"
        )),
        SyntaxError::Invalid { offset, .. } => CatalogError {
            origin: origin.to_owned(),
            line: schema::line_of(text, offset),
            message: "not valid KDL v2 (strings are quoted, booleans are #true and #false)"
                .to_owned(),
        },
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
                if model.model.contains('*') {
                    return Err(parser.error(
                        node,
                        format!("model `{model}`: `*` is not a model name; a provider plugin's `default-model` covers models without a record"),
                    ));
                }
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
            line: schema::line_of(self.text, node.span().offset()),
            message,
        }
    }

    fn string_arg(&self, node: &KdlNode, example: &str) -> Result<String, CatalogError> {
        schema::first_string(node)
            .map(str::to_owned)
            .ok_or_else(|| {
                self.error(
                    node,
                    format!("`{}` needs a quoted name: {example}", node.name().value()),
                )
            })
    }

    fn prop<'n>(node: &'n KdlNode, name: &str) -> Option<&'n KdlValue> {
        schema::property(node, name)
    }

    /// Refuse properties of `node` other than `allowed` (a typo would otherwise be lost).
    fn only_props(&self, node: &KdlNode, allowed: &[&str]) -> Result<(), CatalogError> {
        match schema::unknown_property(node, allowed) {
            Some((_, name)) => Err(self.error(
                node,
                format!(
                    "`{}` has no property `{name}`; it takes {}",
                    node.name().value(),
                    if allowed.is_empty() {
                        "none".to_owned()
                    } else {
                        allowed.join(", ")
                    }
                ),
            )),
            None => Ok(()),
        }
    }

    fn source(&mut self, node: &KdlNode) -> Result<(), CatalogError> {
        let id = self.string_arg(node, "source \"ID\" date=\"YYYY-MM-DD\" { title \"…\" }")?;
        self.only_props(node, &["date"])?;
        if id.is_empty() || id.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(self.error(
                node,
                format!("source id {id:?} must be non-empty, without spaces"),
            ));
        }
        if self.sources.contains_key(&id) {
            return Err(self.error(node, format!("source `{id}` is declared twice")));
        }
        let date = Self::prop(node, "date")
            .and_then(KdlValue::as_string)
            .map(str::to_owned);
        if let Some(d) = &date
            && !is_date(d)
        {
            return Err(self.error(
                node,
                format!("source `{id}` has date {d:?}; write a calendar date YYYY-MM-DD"),
            ));
        }
        for child in schema::children(node) {
            let name = child.name().value();
            if !["title", "url", "sha256"].contains(&name) {
                return Err(self.error(
                    child,
                    format!("source `{id}` has `{name}`; a source holds title, url and sha256"),
                ));
            }
        }
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
        self.only_props(node, &["source"])?;
        let source = self.source_ref(node)?.unwrap_or_else(|| Source {
            id: self.origin.to_owned(),
            title: format!("written in {}", self.origin),
            date: None,
        });
        let mut info = ModelInfo::unknown(model, source);
        let Some(children) = node.children() else {
            return Ok(info);
        };
        let mut figures_seen: Vec<&str> = Vec::new();
        for child in children.nodes() {
            let name = child.name().value();
            if figures_seen.contains(&name) {
                return Err(self.error(
                    child,
                    format!(
                        "`{name}` is given twice for model `{}`; keep one",
                        info.model
                    ),
                ));
            }
            figures_seen.push(name);
            let args: Vec<&KdlValue> = schema::arguments(child);
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

/// Whether `d` is a calendar date `YYYY-MM-DD` (Gregorian, leap years included).
fn is_date(d: &str) -> bool {
    let b = d.as_bytes();
    if b.len() != 10 || b[4] != b'-' || b[7] != b'-' {
        return false;
    }
    let num = |r: std::ops::Range<usize>| d.get(r).and_then(|s| s.parse::<u32>().ok());
    let (Some(y), Some(m), Some(day)) = (num(0..4), num(5..7), num(8..10)) else {
        return false;
    };
    let leap = (y % 4 == 0 && y % 100 != 0) || y % 400 == 0;
    let days = match m {
        1 | 3 | 5 | 7 | 8 | 10 | 12 => 31,
        4 | 6 | 9 | 11 => 30,
        2 if leap => 29,
        2 => 28,
        _ => return false,
    };
    (1..=days).contains(&day)
}

#[cfg(test)]
mod tests {
    use super::*;

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
            ("model \"a/*\" {}", "`*` is not a model name"),
            ("model \"a/b\" sorce=\"x\" {}", "no property `sorce`"),
            (
                "source \"s\" date=\"2026-02-30\" { title \"t\" }",
                "calendar date",
            ),
            ("source \"s\" { title \"t\"\n bogus 1 }", "has `bogus`"),
            (
                "source \"s\" { title \"t\" }\nsource \"s\" { title \"u\" }",
                "declared twice",
            ),
            ("source \"\" { title \"t\" }", "non-empty"),
            (
                "model \"a/b\" {\n  context 1\n  context 2\n}",
                ":3: `context` is given twice",
            ),
            (
                format!("model \"a/b\" {}", "{a ".repeat(2000)).as_str(),
                "nested deeper than 8",
            ),
            (
                format!("// {}", "x".repeat(MAX_BYTES)).as_str(),
                "byte bound",
            ),
        ] {
            let err = parse(text, "models.kdl", None).unwrap_err().to_string();
            assert!(err.contains(needle), "{text:?}: {err}");
        }
    }
}
