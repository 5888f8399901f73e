//! The scripted provider: replays a script of provider rounds, offline.
//!
//! A script is a KDL document of `round` nodes; each provider request plays the next round as
//! a stream of normalized events. Steps can wait at a *gate* until a test releases it, so tests
//! act at precise points without sleeping. The format is documented in
//! `docs-corpus/docs/scripted-provider.md`; `examples/scripts/` holds examples, and the built-in
//! scripts (`scripted/demo`, `scripted/tool-call`, `scripted/edit`) are those example files.

mod provider;
mod script;

pub use provider::ScriptedProvider;
pub use script::{MAX_SCRIPT_BYTES, Round, Script, ScriptError, Step};

/// The provider id of the scripted provider.
pub const PROVIDER_ID: &str = "scripted";

/// Names of the built-in scripts, selected as `scripted/<name>` without `--script`.
pub const BUILTIN_NAMES: &[&str] = &["demo", "tool-call", "edit"];

/// The built-in script `name`, parsed; `None` when there is no such built-in.
pub fn builtin(name: &str) -> Option<Result<Script, ScriptError>> {
    let source = match name {
        "demo" => include_str!("../../../../examples/scripts/demo.kdl"),
        "tool-call" => include_str!("../../../../examples/scripts/tool-call.kdl"),
        "edit" => include_str!("../../../../examples/scripts/edit.kdl"),
        _ => return None,
    };
    Some(Script::parse(
        source,
        &format!("built-in script `{name}`"),
        name,
        None,
    ))
}
