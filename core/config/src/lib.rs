//! Smith configuration.
//!
//! Options are declared once ([`OptionSpec`], [`SCHEMA`]): key, type, default, constraints,
//! documentation, and their environment and command-line surfaces; the settings reference is
//! generated from that table ([`reference_markdown`]). Values come from seven layers, lowest
//! precedence first (spec: Plugin system and configuration → Configuration):
//!
//! 1. product defaults, 2. built-in plugin defaults, 3. plugin contributions,
//! 4. user configuration (KDL), 5. trusted project configuration (KDL),
//! 6. environment variables, 7. explicit command-line overrides.
//!
//! [`Resolver`] folds them and keeps, for every resolved value, its [`Source`] (file and line,
//! variable, flag, plugin or default) and what it overrode. Invalid values fail with their
//! source and field path; unknown keys follow [`UnknownPolicy`]. Project configuration applies
//! only to trusted projects ([`TrustStore`]). [`set_in_file`] persists a value while keeping the
//! file's comments and formatting.
//!
//! This crate never prints; every failure is a [`ConfigError`] naming the value, its source
//! and a corrective example.

mod edit;
mod error;
mod file;
pub mod kdl;
mod reference;
mod resolve;
pub mod rules;
mod schema;
mod trust;
mod value;

pub use edit::set_in_file;
pub use error::ConfigError;
pub use file::{FileEntry, MAX_DEPTH, MAX_FILE_BYTES, parse_file};
pub use reference::{environment_markdown, reference_markdown};
pub use resolve::{Level, Origin, PluginOption, Resolved, ResolvedValue, Resolver, Source};
pub use schema::{
    OptionSpec, SCHEMA, Type, UnknownPolicy, closest, closest_keys, find_spec, unknown_policy,
};
pub use trust::TrustStore;
pub use value::{Value, words_of};
