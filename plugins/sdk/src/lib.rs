//! The guest SDK for Smith plugins (`wasm32-wasip2` components).
//!
//! Most plugins implement the typed [`plugin::Plugin`] trait — each [`plugin::Tool`] declared
//! once, commands, key bindings and themes as data — and export it with
//! [`register_plugin!`]; the tutorial (`smith docs get plugin-tutorial`) walks through a whole
//! project. The raw world bindings below stay available.
//!
//! A tool plugin implements [`Guest`] — its tool definitions and a `call` — and exports it
//! with [`export_tool_plugin!`]. File and search effects go through [`fs`], external
//! programs through [`process`] (with the `process.exec` grant); the host records every such
//! call durably before and after it runs; [`cancelled`] says whether the call should stop. A
//! plugin that creates a secret hands it to the secret proxy through [`secrets`] (with the
//! `secrets.register` grant) before any output of its carries it. Smith's own documentation is
//! readable through [`docs`] (with the `docs.read` grant), and the project's working-tree
//! history — snapshots, diffs, restores, each an effect — through [`vcs`] (with the
//! `vcs.snapshot` and `vcs.restore` grants; a `history` handler uses it too).
//! The contract is the `smith:plugin` WIT package (`plugins/wit/smith-plugin.wit`).
//!
//! ```ignore
//! use smith_plugin_sdk::{Guest, Invocation, ToolDefinition, ToolOutput, export_tool_plugin};
//!
//! struct Hello;
//!
//! impl Guest for Hello {
//!     fn definitions() -> Vec<ToolDefinition> {
//!         vec![smith_plugin_sdk::tool("hello", "Say hello.", r#"{"type":"object"}"#)]
//!     }
//!     fn call(_name: String, _arguments: String, _invocation: Invocation) -> ToolOutput {
//!         ToolOutput::ok("hello")
//!     }
//! }
//!
//! export_tool_plugin!(Hello);
//! ```

/// The generated bindings of the `tool-plugin` world (re-exported below under shorter names).
#[allow(missing_docs)]
pub mod bindings {
    wit_bindgen::generate!({
        path: "../wit",
        world: "tool-plugin",
        pub_export_macro: true,
        export_macro_name: "export_tool_plugin",
        default_bindings_module: "smith_plugin_sdk::bindings",
    });
}

/// The generated bindings of the `handler-plugin` world: lifecycle handlers such as the queue
/// delivery policy. Implement [`handler::Guest`] and export it with
/// [`export_handler_plugin!`].
///
/// ```ignore
/// use smith_plugin_sdk::handler::{Action, Guest, LifecycleEvent};
///
/// struct Quiet;
///
/// impl Guest for Quiet {
///     fn handle(_event: LifecycleEvent) -> Result<Vec<Action>, String> {
///         Ok(Vec::new())
///     }
/// }
///
/// smith_plugin_sdk::export_handler_plugin!(Quiet);
/// ```
#[allow(missing_docs)]
pub mod handler {
    #[doc(hidden)]
    pub mod generated {
        wit_bindgen::generate!({
            path: "../wit",
            world: "handler-plugin",
            pub_export_macro: true,
            export_macro_name: "export_handler_plugin",
            default_bindings_module: "smith_plugin_sdk::handler::generated",
            with: {
                "smith:plugin/host@1.9.0": crate::bindings::smith::plugin::host,
                "smith:plugin/vcs@1.9.0": crate::bindings::smith::plugin::vcs,
            },
        });
    }

    pub use generated::Guest;
    pub use generated::smith::plugin::context_files;
    pub use generated::smith::plugin::lifecycle::{
        Action, CompactEvent, ContextEvent, ContextPiece, Delivery, LifecycleEvent, PromptEvent,
        QueuedInput, RestoreEvent, RoundEvent, SnapshotEvent, SnapshotPhase, ToolEndEvent,
    };
}

/// The generated bindings of the `product-plugin` world: commands, key bindings, themes and a
/// layout for the product layer, and tools as a tool plugin has them. Implement
/// [`product::Guest`] (its `definitions` and `call` as a tool plugin's, empty when the
/// plugin has no tools) and export it with [`export_product_plugin!`].
///
/// ```ignore
/// use smith_plugin_sdk::product::{Contributions, Guest, Intent, ArgumentValue};
/// use smith_plugin_sdk::{Invocation, ToolDefinition, ToolOutput};
///
/// struct Quiet;
///
/// impl Guest for Quiet {
///     fn definitions() -> Vec<ToolDefinition> { Vec::new() }
///     fn call(_: String, _: String, _: Invocation) -> ToolOutput { ToolOutput::error("no tools") }
///     fn contributions() -> Contributions {
///         Contributions { commands: Vec::new(), bindings: Vec::new(), themes: Vec::new(), layout: None }
///     }
///     fn run(_: String, _: Vec<(String, ArgumentValue)>) -> Result<Vec<Intent>, String> {
///         Ok(Vec::new())
///     }
/// }
///
/// smith_plugin_sdk::export_product_plugin!(Quiet);
/// ```
#[allow(missing_docs)]
pub mod product {
    #[doc(hidden)]
    pub mod generated {
        wit_bindgen::generate!({
            path: "../wit",
            world: "product-plugin",
            pub_export_macro: true,
            export_macro_name: "export_product_plugin",
            default_bindings_module: "smith_plugin_sdk::product::generated",
            with: {
                "smith:plugin/types@1.9.0": crate::bindings::smith::plugin::types,
                "smith:plugin/fs@1.9.0": crate::bindings::smith::plugin::fs,
                "smith:plugin/process@1.9.0": crate::bindings::smith::plugin::process,
                "smith:plugin/net@1.9.0": crate::bindings::smith::plugin::net,
                "smith:plugin/secrets@1.9.0": crate::bindings::smith::plugin::secrets,
                "smith:plugin/docs@1.9.0": crate::bindings::smith::plugin::docs,
                "smith:plugin/vcs@1.9.0": crate::bindings::smith::plugin::vcs,
                "smith:plugin/host@1.9.0": crate::bindings::smith::plugin::host,
                "smith:plugin/plan@1.9.0": crate::bindings::smith::plugin::plan,
            },
        });
    }

    pub use generated::Guest;
    pub use generated::smith::plugin::product::{
        Argument, ArgumentKind, ArgumentValue, Binding, BindingTarget, Command, CommandAction,
        Contributions, Intent, KeyAction, Layout, Level, Picker, Style, Theme, Verb, VerbKind,
    };
    /// What a `handler` command may ask of the session the person is in (package 1.7.0):
    /// `runtime::usage()` and `runtime::status()`.
    pub use generated::smith::plugin::runtime;
}

/// The generated bindings of the `dynamic-tool-plugin` world (package 1.4.0): a tool plugin
/// whose tools are found at run time — an MCP client offering its servers' tools. Its manifest
/// declares `dynamic-tools prefix="P" [cache="SLOT"]`; implement [`dynamic::Guest`] (the tool
/// world's `definitions` and `call`, and `discover`) and export it with
/// [`export_dynamic_tool_plugin!`]. `call` receives the found tools' names too.
///
/// ```ignore
/// use smith_plugin_sdk::dynamic::{Discovery, Guest};
/// use smith_plugin_sdk::{Invocation, ToolDefinition, ToolOutput};
///
/// struct Found;
///
/// impl Guest for Found {
///     fn definitions() -> Vec<ToolDefinition> { Vec::new() }
///     fn call(name: String, _: String, _: Invocation) -> ToolOutput { ToolOutput::ok(name) }
///     fn discover() -> Result<Discovery, String> {
///         let echo = smith_plugin_sdk::tool("x__echo", "Echo.", r#"{"type":"object"}"#);
///         Ok(Discovery { tools: vec![echo], notices: Vec::new() })
///     }
/// }
///
/// smith_plugin_sdk::export_dynamic_tool_plugin!(Found);
/// ```
#[allow(missing_docs)]
pub mod dynamic {
    #[doc(hidden)]
    pub mod generated {
        wit_bindgen::generate!({
            path: "../wit",
            world: "dynamic-tool-plugin",
            pub_export_macro: true,
            export_macro_name: "export_dynamic_tool_plugin",
            default_bindings_module: "smith_plugin_sdk::dynamic::generated",
            with: {
                "smith:plugin/types@1.9.0": crate::bindings::smith::plugin::types,
                "smith:plugin/fs@1.9.0": crate::bindings::smith::plugin::fs,
                "smith:plugin/process@1.9.0": crate::bindings::smith::plugin::process,
                "smith:plugin/net@1.9.0": crate::bindings::smith::plugin::net,
                "smith:plugin/secrets@1.9.0": crate::bindings::smith::plugin::secrets,
                "smith:plugin/docs@1.9.0": crate::bindings::smith::plugin::docs,
                "smith:plugin/vcs@1.9.0": crate::bindings::smith::plugin::vcs,
                "smith:plugin/host@1.9.0": crate::bindings::smith::plugin::host,
                "smith:plugin/state@1.9.0": crate::bindings::smith::plugin::state,
                "smith:plugin/plan@1.9.0": crate::bindings::smith::plugin::plan,
            },
        });
    }

    pub use crate::bindings::smith::plugin::types::Discovery;
    pub use generated::Guest;
}

/// The generated bindings of the `policy-plugin` world (package 1.1.0): a handler of the
/// `permissions` or `hooks` role deciding about tool calls and effects. Implement
/// [`policy::Guest`] and export it with [`export_policy_plugin!`].
///
/// ```ignore
/// use smith_plugin_sdk::policy::{Guest, PolicyEvent, Verdict};
///
/// struct NoPrograms;
///
/// impl Guest for NoPrograms {
///     fn decide(event: PolicyEvent) -> Result<Verdict, String> {
///         Ok(match event {
///             PolicyEvent::BeforeEffect(e) if e.effect == "process.run" => {
///                 Verdict::Deny(format!("programs are off here (`{}`)", e.command))
///             }
///             _ => Verdict::Pass,
///         })
///     }
/// }
///
/// smith_plugin_sdk::export_policy_plugin!(NoPrograms);
/// ```
#[allow(missing_docs)]
pub mod policy {
    #[doc(hidden)]
    pub mod generated {
        wit_bindgen::generate!({
            path: "../wit",
            world: "policy-plugin",
            pub_export_macro: true,
            export_macro_name: "export_policy_plugin",
            default_bindings_module: "smith_plugin_sdk::policy::generated",
            with: {
                "smith:plugin/host@1.9.0": crate::bindings::smith::plugin::host,
                "smith:plugin/state@1.9.0": crate::bindings::smith::plugin::state,
                "smith:plugin/process@1.9.0": crate::bindings::smith::plugin::process,
            },
        });
    }

    pub use generated::Guest;
    pub use generated::smith::plugin::policy::{
        AnsweredEvent, Choice, EffectEvent, Hook, PolicyEvent, Question, Settings, ToolCallEvent,
        ToolResultEvent, TurnEndEvent, TurnEndNote, Verdict, matching_hooks, remember_allow,
    };
}

/// The generated bindings of the `hooks-plugin` world (package 1.6.0): a policy plugin that
/// also answers the end of each turn. Its manifest names `event "turn-end"`; implement
/// [`hooks::Guest`] (the policy world's `decide`, and `turn_end`) and export it with
/// [`export_hooks_plugin!`]. The policy types are [`policy`]'s.
///
/// ```ignore
/// use smith_plugin_sdk::hooks::{Guest, TurnEndEvent, TurnEndNote};
/// use smith_plugin_sdk::policy::{PolicyEvent, Verdict};
///
/// struct Chime;
///
/// impl Guest for Chime {
///     fn decide(_: PolicyEvent) -> Result<Verdict, String> { Ok(Verdict::Pass) }
///     fn turn_end(event: TurnEndEvent) -> Result<Vec<TurnEndNote>, String> {
///         let text = format!("the turn ended: {}", event.stop_reason);
///         Ok(vec![TurnEndNote { failed: false, text }])
///     }
/// }
///
/// smith_plugin_sdk::export_hooks_plugin!(Chime);
/// ```
#[allow(missing_docs)]
pub mod hooks {
    #[doc(hidden)]
    pub mod generated {
        wit_bindgen::generate!({
            path: "../wit",
            world: "hooks-plugin",
            pub_export_macro: true,
            export_macro_name: "export_hooks_plugin",
            default_bindings_module: "smith_plugin_sdk::hooks::generated",
            with: {
                "smith:plugin/host@1.9.0": crate::bindings::smith::plugin::host,
                "smith:plugin/state@1.9.0": crate::bindings::smith::plugin::state,
                "smith:plugin/process@1.9.0": crate::bindings::smith::plugin::process,
                "smith:plugin/policy@1.9.0": crate::policy::generated::smith::plugin::policy,
            },
        });
    }

    pub use crate::policy::generated::smith::plugin::policy::{TurnEndEvent, TurnEndNote};
    pub use generated::Guest;
}

pub mod decoder;
pub mod plugin;
pub mod provider;
pub mod sse;

pub use bindings::smith::plugin::{docs, fs, net, plan, process, secrets, state, vcs};
pub use bindings::{Guest, Invocation, ToolDefinition, ToolOutput, export_tool_plugin};
pub use dynamic::generated::export_dynamic_tool_plugin;
pub use handler::generated::export_handler_plugin;
pub use hooks::generated::export_hooks_plugin;
pub use policy::generated::export_policy_plugin;
pub use product::generated::export_product_plugin;
pub use provider::generated::export_provider_plugin;
pub use serde_json;

use bindings::smith;

/// Whether the current call was cancelled; long work should poll this and stop.
pub fn cancelled() -> bool {
    smith::plugin::host::cancelled()
}

/// Show a short, transient progress message to the user.
pub fn progress(message: &str) {
    smith::plugin::host::progress(message);
}

/// Hand the current call's structured result to the host: `json`, an object matching the
/// output schema the manifest declares for the tool (`output-schema`). The model sees only
/// the output text; clients that read structured results (MCP's `structuredContent`) get this.
pub fn structured(json: &str) {
    smith::plugin::host::structured(json);
}

/// The value of this plugin's setting `name` as the user configured it (`plugin.ID.NAME`),
/// for a setting the manifest declares (`setting "NAME" doc="…"`); `None` when it is unset.
/// Package 1.2.0.
pub fn setting(name: &str) -> Option<String> {
    smith::plugin::host::setting(name)
}

/// Slot `name`'s value of this plugin's state (declared in its manifest: `state "NAME"
/// scope="…" version=N max-bytes=N`), read as `T`; `None` when it was never set, was removed,
/// was written under another version, or does not have `T`'s shape.
///
/// # Errors
/// [`state::StateError`] when the slot is undeclared or its scope is not available here.
pub fn state_get<T: serde::de::DeserializeOwned>(
    name: &str,
) -> Result<Option<T>, state::StateError> {
    Ok(state::get(name)?.and_then(|text| serde_json::from_str(&text).ok()))
}

/// Set slot `name` of this plugin's state to `value` (as JSON), durably.
///
/// # Errors
/// [`state::StateError`]: undeclared, over the slot's `max-bytes`, unavailable, or the store
/// failed; nothing was written.
pub fn state_set<T: serde::Serialize>(name: &str, value: &T) -> Result<(), state::StateError> {
    let text =
        serde_json::to_string(value).map_err(|e| state::StateError::Invalid(e.to_string()))?;
    state::set(name, &text)
}

/// A tool definition from its name, description and JSON Schema text.
pub fn tool(name: &str, description: &str, input_schema: &str) -> ToolDefinition {
    ToolDefinition {
        name: name.to_owned(),
        description: description.to_owned(),
        input_schema: input_schema.to_owned(),
    }
}

impl ToolOutput {
    /// A successful result.
    pub fn ok(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            is_error: false,
        }
    }

    /// A failed result; the text says what happened and what to do.
    pub fn error(text: impl Into<String>) -> Self {
        Self {
            text: text.into(),
            is_error: true,
        }
    }
}

/// Parse a call's JSON arguments into `T`, or a ready error result naming the problem.
///
/// # Errors
/// A [`ToolOutput`] error when the arguments do not have `T`'s shape.
pub fn arguments<T: serde::de::DeserializeOwned>(json: &str) -> Result<T, ToolOutput> {
    serde_json::from_str(json)
        .map_err(|e| {
            ToolOutput::error(format!(
                "the arguments do not fit this tool: {e}; nothing was run — call it again with arguments that match its input schema"
            ))
        })
}

/// A file-effect error as a sentence for the model (`denied: …`, `not found: …`).
pub fn describe(e: &fs::FsError) -> String {
    match e {
        fs::FsError::Denied(m) => format!("denied: {m}"),
        fs::FsError::NotFound(m) => format!("not found: {m}"),
        fs::FsError::Invalid(m) => m.clone(),
        fs::FsError::Io(m) => format!("I/O error: {m}"),
        fs::FsError::Cancelled => "cancelled before it started".to_owned(),
    }
}

/// A network-effect error as a sentence for the model (`not allowed: …`, `unreachable: …`).
pub fn describe_net(e: &net::NetError) -> String {
    match e {
        net::NetError::Denied(m) => format!("not allowed: {m}"),
        net::NetError::Invalid(m) => format!("invalid request: {m}"),
        net::NetError::Unreachable(m) => format!("unreachable: {m}"),
        net::NetError::Cancelled => "cancelled before the server answered".to_owned(),
    }
}

/// A process-effect error as a sentence for the model.
pub fn describe_process(e: &process::ProcessError) -> String {
    match e {
        process::ProcessError::Denied(m) => format!("not allowed: {m}"),
        process::ProcessError::NotFound(m) => format!("not found: {m}"),
        process::ProcessError::Invalid(m) => m.clone(),
        // The host's message says what happened (not started, or ran but not recorded).
        process::ProcessError::Io(m) => format!("I/O error: {m}"),
        process::ProcessError::Cancelled => "cancelled before it started".to_owned(),
    }
}
