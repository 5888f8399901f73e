//! Folding the seven layers into resolved values with their sources.

use std::collections::BTreeMap;
use std::fmt;

use crate::schema::{SCHEMA, UnknownPolicy, find_spec, unknown_policy};
use crate::value::{Raw, check, shown};
use crate::{ConfigError, FileEntry, Value};

/// The precedence levels, lowest first (spec: Configuration).
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord, Hash, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum Level {
    /// 1. Product defaults.
    ProductDefault,
    /// 2. Built-in plugin defaults.
    PluginDefault,
    /// 3. Plugin contributions.
    PluginContribution,
    /// 4. User configuration.
    User,
    /// 5. Trusted project configuration.
    Project,
    /// 6. Environment variables.
    Environment,
    /// 7. Explicit command-line overrides.
    CommandLine,
}

/// Where within its level a value came from.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
#[serde(tag = "kind", rename_all = "snake_case")]
pub enum Origin {
    /// The product default.
    Default,
    /// A plugin.
    Plugin {
        /// Its id.
        id: String,
    },
    /// A configuration file.
    File {
        /// Its path.
        path: String,
        /// 1-based line.
        line: usize,
    },
    /// An environment variable.
    Env {
        /// Its name.
        var: String,
    },
    /// A command-line flag.
    Flag {
        /// The flag as given, e.g. `-c model=scripted/demo` or `--model`.
        flag: String,
    },
}

/// The source of a value: its level and origin.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct Source {
    /// The precedence level.
    pub level: Level,
    /// Where exactly.
    pub origin: Origin,
}

impl fmt::Display for Source {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.origin {
            Origin::Default => f.write_str("default"),
            Origin::Plugin { id } if self.level == Level::PluginDefault => {
                write!(f, "plugin {id} (default)")
            }
            Origin::Plugin { id } => write!(f, "plugin {id}"),
            Origin::File { path, line } => write!(f, "{path}:{line}"),
            Origin::Env { var } => write!(f, "environment {var}"),
            Origin::Flag { flag } => write!(f, "flag {flag}"),
        }
    }
}

/// One resolved value, where it came from, and the lower-precedence sources it overrode.
#[derive(Clone, Debug, PartialEq, Eq, serde::Serialize)]
pub struct ResolvedValue {
    /// The value.
    pub value: Value,
    /// Its source.
    pub source: Source,
    /// Overridden sources, highest first.
    pub overridden: Vec<Source>,
}

/// Every resolved value by key.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Resolved {
    values: BTreeMap<String, ResolvedValue>,
}

impl Resolved {
    /// The value of `key`, if any layer set it.
    pub fn get(&self, key: &str) -> Option<&ResolvedValue> {
        self.values.get(key)
    }

    /// Every resolved value, ordered by key.
    pub fn iter(&self) -> impl Iterator<Item = (&String, &ResolvedValue)> {
        self.values.iter()
    }
}

/// An option a plugin declares under its own namespace `plugin.<id>.`, the same way the
/// product declares its options (type, default, documentation, example).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PluginOption {
    /// The declaring plugin's id.
    pub plugin: String,
    /// The key below `plugin.<id>.`, e.g. `level` for `plugin.lint.level`.
    pub name: String,
    /// Type and constraints.
    pub ty: crate::Type,
    /// The plugin's default (level 2, built-in plugin defaults), as text.
    pub default: Option<String>,
    /// What the option does.
    pub doc: String,
    /// A valid example value.
    pub example: String,
}

impl PluginOption {
    /// The full dotted key, `plugin.<id>.<name>`.
    pub fn key(&self) -> String {
        format!("plugin.{}.{}", self.plugin, self.name)
    }
}

/// A corrective example in the syntax of the surface the value came from.
fn example_for(origin: &Origin, key: &str, example: &str) -> String {
    match origin {
        Origin::File { .. } => format!("{key} {}", crate::edit::quote_if_text(example)),
        Origin::Env { var } => format!("{var}={example}"),
        Origin::Flag { flag } if flag.starts_with("-c") => format!("-c {key}={example}"),
        Origin::Flag { flag } => format!("{flag} {example}"),
        Origin::Default | Origin::Plugin { .. } => format!("{key} = {example}"),
    }
}

/// Refuse keys that cannot name a setting: empty segments or a `*` (which only declarations
/// use).
pub(crate) fn check_key(key: &str, source_text: &str) -> Result<(), ConfigError> {
    let ok = !key.is_empty()
        && key
            .split('.')
            .all(|seg| !seg.is_empty() && !seg.contains('*') && !seg.contains(char::is_whitespace));
    if ok {
        Ok(())
    } else {
        Err(ConfigError::Invalid {
            source_text: source_text.to_owned(),
            key: key.to_owned(),
            value: String::new(),
            reason: "a setting key is dotted words with no empty part, `*` or white space".into(),
            example: "provider.openai-compatible.base-url".into(),
        })
    }
}

/// Collects validated values layer by layer, then resolves them.
#[derive(Debug, Default)]
pub struct Resolver {
    entries: Vec<(String, Value, Source)>,
    plugin_options: Vec<PluginOption>,
}

impl Resolver {
    /// A resolver holding the product defaults (level 1).
    pub fn with_defaults() -> Self {
        let mut r = Self::default();
        for spec in SCHEMA {
            if let (Some(default), false) = (spec.default, spec.key.contains('*'))
                && let Ok(value) = check(spec.ty, &Raw::Text(default.to_owned()))
            {
                r.entries.push((
                    spec.key.to_owned(),
                    value,
                    Source {
                        level: Level::ProductDefault,
                        origin: Origin::Default,
                    },
                ));
            }
        }
        r
    }

    /// Declare a plugin's option: from now on values of its key are validated against it, and
    /// its default enters at level 2 (built-in plugin defaults).
    ///
    /// # Errors
    /// An invalid default or a name that is not a plain dotted key, naming the plugin.
    pub fn declare_plugin_option(&mut self, option: PluginOption) -> Result<(), ConfigError> {
        let key = option.key();
        let well_formed = !option.plugin.is_empty()
            && option.name.split('.').all(|seg| {
                !seg.is_empty()
                    && seg
                        .chars()
                        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
            });
        if !well_formed {
            return Err(ConfigError::Invalid {
                source_text: format!("plugin {}", option.plugin),
                key,
                value: String::new(),
                reason: "a plugin option name is dotted lowercase words".into(),
                example: "plugin.lint.max-warnings".into(),
            });
        }
        let default = option.default.clone();
        let plugin = option.plugin.clone();
        self.plugin_options.push(option);
        if let Some(default) = default {
            self.add_text(
                Level::PluginDefault,
                Origin::Plugin { id: plugin },
                &key,
                &default,
            )?;
        }
        Ok(())
    }

    fn add(&mut self, key: &str, raw: &Raw, source: Source) -> Result<(), ConfigError> {
        let source_text = source.to_string();
        check_key(key, &source_text)?;
        let declared = self
            .plugin_options
            .iter()
            .find(|o| o.key() == key)
            .map(|o| (o.ty, o.example.clone()))
            .or_else(|| find_spec(key).map(|s| (s.ty, s.example.to_owned())));
        let value = match declared {
            Some((ty, example)) => check(ty, raw).map_err(|reason| ConfigError::Invalid {
                source_text: match &source.origin {
                    Origin::Flag { flag } if flag.starts_with("-c") => {
                        format!("flag -c {key}={}", shown(ty, raw))
                    }
                    _ => source_text,
                },
                key: key.to_owned(),
                value: shown(ty, raw),
                reason,
                example: example_for(&source.origin, key, &example),
            })?,
            None => match unknown_policy(key) {
                UnknownPolicy::Preserve => {
                    check(crate::Type::String, raw).map_err(|reason| ConfigError::Invalid {
                        source_text: source_text.clone(),
                        key: key.to_owned(),
                        value: raw.to_string(),
                        reason,
                        example: example_for(&source.origin, key, "text"),
                    })?
                }
                UnknownPolicy::Reject => {
                    // The value of a key nobody declared is never repeated: it may be a secret
                    // pasted into the wrong place (`-c provider.x.api-key=sk-…`).
                    let source_text = match &source.origin {
                        Origin::Flag { flag } if flag.starts_with("-c") => {
                            format!("flag -c {key}=…")
                        }
                        _ => source_text,
                    };
                    return Err(ConfigError::unknown_key(source_text, key));
                }
            },
        };
        self.entries.push((key.to_owned(), value, source));
        Ok(())
    }

    /// Add a value from text (a plugin, the environment, a flag) at `level`.
    ///
    /// # Errors
    /// An invalid value or a rejected unknown key, naming `origin`.
    pub fn add_text(
        &mut self,
        level: Level,
        origin: Origin,
        key: &str,
        text: &str,
    ) -> Result<(), ConfigError> {
        self.add(key, &Raw::Text(text.to_owned()), Source { level, origin })
    }

    /// Add every setting of a parsed file at `level` (user or project).
    ///
    /// # Errors
    /// The first invalid value or rejected key, with the file and line.
    pub fn add_file(
        &mut self,
        level: Level,
        path: &str,
        entries: &[FileEntry],
    ) -> Result<(), ConfigError> {
        for entry in entries {
            let origin = Origin::File {
                path: path.to_owned(),
                line: entry.line,
            };
            self.add(&entry.key, &entry.raw, Source { level, origin })?;
        }
        Ok(())
    }

    /// Add the declared environment variables found by `lookup` (level 6).
    ///
    /// # Errors
    /// An invalid value, naming the variable.
    pub fn add_env(&mut self, lookup: impl Fn(&str) -> Option<String>) -> Result<(), ConfigError> {
        for spec in SCHEMA {
            if let Some(var) = spec.env
                && let Some(text) = lookup(var).filter(|t| !t.is_empty())
            {
                let origin = Origin::Env {
                    var: var.to_owned(),
                };
                self.add_text(Level::Environment, origin, spec.key, &text)?;
            }
        }
        Ok(())
    }

    /// Add one `-c KEY=VALUE` override (level 7).
    ///
    /// # Errors
    /// A malformed override, an unknown key (with the closest ones) or an invalid value.
    pub fn add_override(&mut self, text: &str) -> Result<(), ConfigError> {
        let flag = format!("-c {text}");
        let Some((key, value)) = text.split_once('=') else {
            return Err(ConfigError::Invalid {
                source_text: format!("flag {flag}"),
                key: text.to_owned(),
                value: String::new(),
                reason: "an override is KEY=VALUE".into(),
                example: "-c model=scripted/demo".into(),
            });
        };
        let origin = Origin::Flag { flag };
        self.add_text(Level::CommandLine, origin, key.trim(), value)
    }

    /// Resolve: for each key the value of the highest level wins; within a level, the later
    /// entry wins (the file's later line, the later flag).
    pub fn resolve(self) -> Resolved {
        let mut entries = self.entries;
        entries.sort_by_key(|(_, _, source)| source.level); // stable: keeps order within a level
        let mut values: BTreeMap<String, ResolvedValue> = BTreeMap::new();
        for (key, value, source) in entries {
            match values.get_mut(&key) {
                Some(existing) => {
                    let old = std::mem::replace(&mut existing.source, source);
                    existing.overridden.insert(0, old);
                    existing.value = value;
                }
                None => {
                    values.insert(
                        key,
                        ResolvedValue {
                            value,
                            source,
                            overridden: Vec::new(),
                        },
                    );
                }
            }
        }
        Resolved { values }
    }
}
