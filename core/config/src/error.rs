//! Configuration errors.

impl ConfigError {
    /// The error for a key no option declares, naming up to three closest declared keys.
    pub fn unknown_key(source_text: impl Into<String>, key: &str) -> Self {
        let close = crate::closest_keys(key);
        ConfigError::Unknown {
            source_text: source_text.into(),
            key: key.to_owned(),
            hint: if let Some(replacement) = crate::schema::retired(key) {
                format!(" (removed: {replacement})")
            } else if close.is_empty() {
                String::new()
            } else {
                format!(" (did you mean {}?)", close.join(", "))
            },
        }
    }
}

/// A configuration failure. Messages name the offending value, where it came from (file and
/// line, variable or flag) and the field path, and give a corrective example.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum ConfigError {
    /// A KDL file could not be parsed.
    #[error("{file}:{line}:{column}: invalid KDL: {message}")]
    Syntax {
        /// The file.
        file: String,
        /// 1-based line.
        line: usize,
        /// 1-based column.
        column: usize,
        /// What the parser said.
        message: String,
    },
    /// A value does not fit its option's type or constraints.
    #[error("{source_text}: `{key}` = `{value}` is invalid: {reason}; for example: {example}")]
    Invalid {
        /// Where the value came from, e.g. `~/.config/smith/config.kdl:3` or `-c`.
        source_text: String,
        /// The field path.
        key: String,
        /// The value as given.
        value: String,
        /// What is wrong.
        reason: String,
        /// A valid example.
        example: String,
    },
    /// A key no schema declares, where the schema rejects unknown keys.
    #[error(
        "{source_text}: unknown setting `{key}`{hint}; the settings reference lists every setting"
    )]
    Unknown {
        /// Where it came from.
        source_text: String,
        /// The key.
        key: String,
        /// ` (did you mean …?)` or empty.
        hint: String,
    },
    /// A file could not be read or written.
    #[error("{action} `{path}` failed: {message}")]
    Io {
        /// What was being done.
        action: &'static str,
        /// The file.
        path: String,
        /// The OS error.
        message: String,
    },
}
