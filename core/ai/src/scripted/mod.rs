//! The scripted provider: replays a script of provider rounds, offline.
//!
//! A script is a KDL document of `round` nodes; each provider request plays the next round as
//! a stream of normalized events. Steps can wait at a *gate* until a test releases it, so tests
//! act at precise points without sleeping. The format is documented in
//! `docs-corpus/docs/scripted-provider.md`; `examples/scripts/` holds examples, and the built-in
//! scripts (`scripted/demo`, `scripted/tool-call`, `scripted/edit`) are those example files.

mod provider;
mod script;
mod transport;

pub use provider::ScriptedProvider;
pub use script::{MAX_SCRIPT_BYTES, Round, Script, ScriptError, Step};
pub use transport::ScriptTransport;

/// The provider id of the scripted provider.
pub const PROVIDER_ID: &str = "scripted";

/// Names of the built-in scripts, selected as `scripted/<name>` without `--script`.
pub const BUILTIN_NAMES: &[&str] = &["demo", "tool-call", "edit"];

/// The scripted provider for `model` (a `scripted/NAME` selection): the built-in script
/// `NAME`, or the file `script` (then `NAME` is only its label).
///
/// # Errors
/// [`crate::ResolveError`] for an unknown built-in or a defective script.
pub fn load(
    model: &smith::ModelRef,
    script: Option<&std::path::Path>,
) -> Result<ScriptedProvider, crate::ResolveError> {
    let script = match script {
        Some(path) => Script::load(path, &model.model)?,
        None => builtin(&model.model).ok_or_else(|| crate::ResolveError::UnknownModel {
            model: model.clone(),
            known: BUILTIN_NAMES
                .iter()
                .map(|n| format!("{PROVIDER_ID}/{n}"))
                .collect::<Vec<_>>()
                .join(", "),
        })??,
    };
    Ok(ScriptedProvider::new(script))
}

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
