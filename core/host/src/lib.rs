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
//! [`smith::EffectJournal`]: the intent is durable before the effect runs (and an
//! intent that cannot be recorded stops it), and the completion records the full bounded
//! output and whether it was `applied`, `not-applied` or `unknown`. File effects are
//! confined to the granted roots with `cap-std` ([`fsops`]); [`grants`] decides what each
//! plugin may do, denying by default.
//!
//! This crate's one `unsafe` block deserializes a compiled component whose digest was
//! verified ([`CompileCache`]).

pub mod cache;
mod context_imports;
mod docs_imports;
mod dynamic;
mod effects;
mod encode;
mod fs_imports;
pub mod fsops;
mod generation;
pub mod grants;
mod handlers;
pub mod hooks;
pub mod manifest;
pub mod net;
mod net_imports;
mod net_stream;
mod permission_settings;
mod plan_imports;
mod policy;
pub mod process;
mod process_imports;
pub mod product;
mod program_imports;
mod protected;
mod providers;
pub mod reference;
mod runtime;
mod runtime_query;
pub mod sandbox;
pub mod search;
mod secrets_imports;
mod state_imports;
mod tool_call;
mod turn_end;
mod vcs_imports;

pub use cache::CompileCache;
pub use cache::Tier;
pub use context_imports::MAX_CONTEXT_FILE_BYTES;
pub use docs_imports::{
    DocHit, DocPage, Docs, DocsSource, MAX_DOC_HITS, MAX_DOC_LINES, MAX_DOC_QUERY_CHARS,
};
pub use dynamic::{MAX_DYNAMIC_TOOLS, MAX_TOOL_NAME};
pub use encode::EncodedRequest;
pub use grants::{Policy, ProcessLimits, ProcessPolicy, RequestScope};
pub use handlers::{HANDLER_DEADLINE, MAX_CONTEXT_BYTES, MAX_PIECE_BYTES};
pub use manifest::{DynamicTools, Manifest, ToolHints};
pub use policy::{MAX_CHOICES, MAX_QUESTION_BYTES, MAX_REASON_BYTES, PermissionMode, Permissions};
pub use providers::{PluginProvider, ProviderSetup, ProviderSetupError};
pub use runtime::{Declared, Host, Limits, Loadout, PluginSource, PluginUsage};
pub use runtime_query::{ModelUsage, RuntimeQuery, RuntimeStatus, SharedQuery};
pub use state_imports::{MAX_INPUTS, MAX_STATE_BYTES, MAX_STATE_SLOTS, StateFiles, StateSlot};
pub use vcs_imports::{MAX_DIFF_BYTES, MAX_NOTE_BYTES, Tree};

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
    /// Two plugins of one generation contribute the same tool, provider or handler role;
    /// only one active plugin may hold each, so nothing was loaded.
    #[error(
        "plugin {origin}: {contribution} is already contributed by plugin {holder}; only one active plugin may hold it — disable one of the two (setting plugins.ID.enabled false)"
    )]
    Conflict {
        /// Where the second plugin came from.
        origin: String,
        /// What both contribute.
        contribution: Contribution,
        /// The plugin that holds it already (`id@version`).
        holder: String,
    },
    /// A plugin was built against another version of the `smith:plugin` package than the one
    /// this Smith hosts ([`manifest::PACKAGE_VERSION`]); its manifest or its component says
    /// which.
    #[error(
        "plugin {origin} was built against smith:plugin@{found}, but this Smith hosts smith:plugin@{hosted} and loads plugins built against {oldest} up to {hosted}; rebuild it against the {hosted} package, or use a Smith that hosts {found} (the plugins guide, \"Package versions\", lists what changed between versions)",
        hosted = manifest::PACKAGE_VERSION,
        oldest = manifest::OLDEST_PACKAGE_VERSION
    )]
    Package {
        /// Where the plugin came from.
        origin: String,
        /// The package version it was built against.
        found: String,
    },
    /// The wasm engine could not be set up.
    #[error("the plugin engine could not start: {0}")]
    Engine(String),
}

/// Something only one active plugin may contribute.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Contribution {
    /// A tool, by name.
    Tool(String),
    /// A provider, by id.
    Provider(String),
    /// A lifecycle-handler role (e.g. `queue-policy`).
    HandlerRole(String),
    /// The names of the tools a plugin finds at run time, by their prefix (`dynamic-tools`).
    ToolPrefix(String),
}

impl std::fmt::Display for Contribution {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Tool(name) => write!(f, "tool `{name}`"),
            Self::Provider(id) => write!(f, "provider `{id}`"),
            Self::HandlerRole(role) => write!(f, "handler role `{role}`"),
            Self::ToolPrefix(prefix) => write!(f, "the tool names starting with `{prefix}`"),
        }
    }
}

/// Run `f`, a call into a plugin's wasm, in a kernel-call memory scope of its own (spec:
/// Performance and portability → Memory accounting): the host's allocations while an instance
/// is made and called. Wasm's own linear memory is mapped by wasmtime, bounded by the store's
/// limits, and not part of the heap.
pub(crate) fn kernel_call<T>(f: impl FnOnce() -> T) -> T {
    let _kernel = smith_memory::ScopeGuard::open(smith_memory::Kind::KernelCall);
    f()
}
