//! Smith's wasm component plugin host.
//!
//! Plugins are wasm components (`wasm32-wasip2`) implementing the `smith:plugin` WIT package
//! (`plugins/wit/smith-plugin.wit`), each with a KDL [`manifest`]. The [`Host`] loads them
//! through a shared [`CompileCache`], checks every manifest against what its component
//! defines, and runs each tool call in a fresh instance with its own store: memory limits,
//! an epoch deadline, cooperative cancellation with a grace period, and WASI linked deny by
//! default (no files, environment, network or host stdio). A trapped or overdue instance is
//! destroyed and its plugin marked failed; the host goes on.
//!
//! Every SDK facility a plugin calls is an effect recorded through the run's
//! [`smith_agent::EffectJournal`]: the intent is durable before the effect runs (and an
//! intent that cannot be recorded stops it), and the completion records the full bounded
//! output and whether it was `applied`, `not-applied` or `unknown`. File effects are
//! confined to the granted roots with `cap-std` ([`fsops`]); [`grants`] decides what each
//! plugin may do, denying by default.
//!
//! This crate's one `unsafe` block deserializes a compiled component whose digest was
//! verified ([`CompileCache`]).

pub mod cache;
mod effects;
mod fs_imports;
pub mod fsops;
pub mod grants;
mod handlers;
pub mod manifest;
pub mod process;
mod process_imports;
mod providers;
pub mod reference;
mod runtime;
pub mod search;

pub use cache::CompileCache;
pub use grants::{Policy, ProcessLimits, ProcessPolicy};
pub use handlers::HANDLER_DEADLINE;
pub use manifest::Manifest;
pub use providers::{PluginProvider, ProviderSetup, ProviderSetupError};
pub use runtime::{Host, Limits, Loadout, PluginSource};

/// A host failure, naming the plugin and what to do.
#[derive(Debug, thiserror::Error)]
pub enum Error {
    /// A manifest is malformed or asks for something this host does not offer.
    #[error("plugin manifest {origin}: {reason}")]
    Manifest {
        /// Where the manifest came from.
        origin: String,
        /// What is wrong.
        reason: String,
    },
    /// A component cannot be compiled, does not fit its world, or disagrees with its manifest.
    #[error("plugin {origin}: {reason}")]
    Component {
        /// Where the plugin came from.
        origin: String,
        /// What is wrong.
        reason: String,
    },
    /// The wasm engine could not be set up.
    #[error("the plugin engine could not start: {0}")]
    Engine(String),
}
