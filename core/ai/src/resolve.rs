//! Resolving a selected model to a provider.

use std::path::Path;

use smith::{ModelRef, Provider};

use crate::scripted::{self, ScriptError};

/// Why a model selection could not be resolved. Every message names the offending value and
/// what is known instead.
#[derive(Debug, thiserror::Error)]
pub enum ResolveError {
    /// No provider with that id is available.
    #[error(
        "unknown provider `{provider}` in model `{model}`; known providers: {known} (scripted/demo runs offline with no key)"
    )]
    UnknownProvider {
        /// The provider id.
        provider: String,
        /// The whole selection.
        model: ModelRef,
        /// Known provider ids, comma-separated.
        known: String,
    },
    /// The provider has no such model.
    #[error(
        "unknown model `{model}`; known models: {known}; any other name plays a script file given for it"
    )]
    UnknownModel {
        /// The selection.
        model: ModelRef,
        /// Known models, comma-separated.
        known: String,
    },
    /// A script file was given for a provider that does not play scripts.
    #[error(
        "a script file applies only to the scripted provider, but the model is `{model}`; select a scripted model (scripted/NAME) to play a script"
    )]
    ScriptNeedsScripted {
        /// The selection.
        model: ModelRef,
    },
    /// The script could not be loaded.
    #[error(transparent)]
    Script(#[from] ScriptError),
}

/// The provider ids this build knows.
pub const PROVIDERS: &[&str] = &[scripted::PROVIDER_ID];

/// Resolve `model` to a provider. `script` is the `--script` file, if given: with it the
/// scripted provider plays that file and the model name is only its label.
///
/// # Errors
/// A [`ResolveError`] naming the unknown provider or model, or the script's defect.
pub fn resolve(model: &ModelRef, script: Option<&Path>) -> Result<Box<dyn Provider>, ResolveError> {
    match model.provider.as_str() {
        scripted::PROVIDER_ID => Ok(Box::new(scripted::load(model, script)?)),
        _ if script.is_some() => Err(ResolveError::ScriptNeedsScripted {
            model: model.clone(),
        }),
        other => Err(ResolveError::UnknownProvider {
            provider: other.to_owned(),
            model: model.clone(),
            known: PROVIDERS.join(", "),
        }),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_provider_and_model_list_what_is_known() {
        let err = resolve(&"nope/x".parse().unwrap(), None).err().unwrap();
        let text = err.to_string();
        assert!(
            text.contains("`nope`") && text.contains("scripted"),
            "{text}"
        );
        let err = resolve(&"scripted/nope".parse().unwrap(), None)
            .err()
            .unwrap();
        let text = err.to_string();
        assert!(text.contains("scripted/demo"), "{text}");
    }

    #[test]
    fn builtins_resolve() {
        for name in scripted::BUILTIN_NAMES {
            let model: ModelRef = format!("scripted/{name}").parse().unwrap();
            assert!(resolve(&model, None).is_ok(), "{name}");
        }
    }
}
