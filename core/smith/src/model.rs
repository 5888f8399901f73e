//! Model references: `provider/model`.

use std::fmt;
use std::str::FromStr;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A model as the user selects it: a provider id and a model id, written `provider/model`
/// (for example `scripted/demo`). The model part may itself contain `/`; only the first `/`
/// separates the provider. Serialized as that one string.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub struct ModelRef {
    /// The provider id, e.g. `scripted`.
    pub provider: String,
    /// The provider's model id, e.g. `demo`.
    pub model: String,
}

impl fmt::Display for ModelRef {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.provider, self.model)
    }
}

/// A text that is not of the form `provider/model`.
#[derive(Debug, thiserror::Error)]
#[error(
    "`{value}` is not a model reference: {reason}; write PROVIDER/MODEL, for example `scripted/demo`, or the name of an alias or group"
)]
pub struct ModelRefError {
    /// The offending text.
    pub value: String,
    /// What is wrong with it.
    pub reason: &'static str,
}

impl Serialize for ModelRef {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for ModelRef {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

impl FromStr for ModelRef {
    type Err = ModelRefError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        let fail = |reason| ModelRefError {
            value: s.to_owned(),
            reason,
        };
        let (provider, model) = s.split_once('/').ok_or(fail("it has no `/`"))?;
        if provider.is_empty() {
            return Err(fail("the provider part before `/` is empty"));
        }
        if model.is_empty() {
            return Err(fail("the model part after `/` is empty"));
        }
        if s.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(fail("it contains white space or control characters"));
        }
        Ok(Self {
            provider: provider.to_owned(),
            model: model.to_owned(),
        })
    }
}

/// What the user selected: a model (`provider/model`) or the name of an alias or group that
/// routing resolves to physical models (spec: Dispatch identity — the selection is recorded
/// apart from every physical dispatch and never changes because of routing). Serialized as
/// one string; text with a `/` is a model reference, text without one is a name.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Selection {
    /// A model named directly.
    Model(ModelRef),
    /// An alias or group name (no `/`, no white space or control characters).
    Name(String),
}

impl Selection {
    /// The model, when the selection names one directly.
    pub fn as_model(&self) -> Option<&ModelRef> {
        match self {
            Selection::Model(m) => Some(m),
            Selection::Name(_) => None,
        }
    }
}

impl From<ModelRef> for Selection {
    fn from(model: ModelRef) -> Self {
        Selection::Model(model)
    }
}

impl fmt::Display for Selection {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Selection::Model(m) => m.fmt(f),
            Selection::Name(n) => f.write_str(n),
        }
    }
}

impl FromStr for Selection {
    type Err = ModelRefError;

    fn from_str(s: &str) -> Result<Self, Self::Err> {
        if s.contains('/') {
            return s.parse().map(Selection::Model);
        }
        let fail = |reason| ModelRefError {
            value: s.to_owned(),
            reason,
        };
        if s.is_empty() {
            return Err(fail("it is empty"));
        }
        if s.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return Err(fail("it contains white space or control characters"));
        }
        Ok(Selection::Name(s.to_owned()))
    }
}

impl Serialize for Selection {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.collect_str(self)
    }
}

impl<'de> Deserialize<'de> for Selection {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        let text = String::deserialize(deserializer)?;
        text.parse().map_err(serde::de::Error::custom)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_provider_and_model() {
        let m: ModelRef = "scripted/demo".parse().unwrap();
        assert_eq!(m.provider, "scripted");
        assert_eq!(m.model, "demo");
        let m: ModelRef = "openai-compatible/org/model-7b".parse().unwrap();
        assert_eq!(m.model, "org/model-7b");
        assert_eq!(m.to_string(), "openai-compatible/org/model-7b");
    }

    #[test]
    fn serializes_as_one_string() {
        let m: ModelRef = "scripted/demo".parse().unwrap();
        assert_eq!(serde_json::to_string(&m).unwrap(), "\"scripted/demo\"");
        let back: ModelRef = serde_json::from_str("\"a/b/c\"").unwrap();
        assert_eq!(back.model, "b/c");
        assert!(serde_json::from_str::<ModelRef>("\"nomodel\"").is_err());
    }

    #[test]
    fn selections_are_models_or_names() {
        let s: Selection = "scripted/demo".parse().unwrap();
        assert!(s.as_model().is_some());
        let s: Selection = "fast".parse().unwrap();
        assert_eq!(s, Selection::Name("fast".into()));
        assert_eq!(serde_json::to_string(&s).unwrap(), "\"fast\"");
        for bad in ["", "a b", "/x", "x/"] {
            assert!(bad.parse::<Selection>().is_err(), "{bad:?}");
        }
    }

    #[test]
    fn rejects_incomplete_references() {
        for bad in [
            "demo",
            "/demo",
            "scripted/",
            "",
            "a b/c",
            "scripted/de mo",
            "a/\u{1b}x",
        ] {
            assert!(bad.parse::<ModelRef>().is_err(), "{bad:?} accepted");
        }
    }
}
