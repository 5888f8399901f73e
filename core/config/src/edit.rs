//! Persisting a setting into a hand-written KDL file without disturbing it.

use std::io::Write;
use std::path::Path;

use crate::schema::find_spec;
use crate::value::{Raw, check};
use crate::{ConfigError, Value};

/// Write `text` to `path` atomically: a temporary file in the same directory, `fsync`, rename,
/// then the directory `fsync`. A symbolic link is followed (its target is replaced, the link
/// kept), and an existing file's permissions are kept. Creates missing parent directories.
pub(crate) fn write_atomic(path: &Path, text: &str) -> Result<(), ConfigError> {
    let target = std::fs::canonicalize(path).unwrap_or_else(|_| path.to_owned());
    let err = |action: &'static str, at: &Path| {
        let at = at.display().to_string();
        move |e: std::io::Error| ConfigError::Io {
            action,
            path: at,
            message: e.to_string(),
        }
    };
    let dir = target
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."))
        .to_owned();
    std::fs::create_dir_all(&dir).map_err(err("creating the directory", &dir))?;
    let permissions = std::fs::metadata(&target).ok().map(|m| m.permissions());
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        target
            .file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("config"),
        std::process::id()
    ));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        if let Some(p) = permissions {
            f.set_permissions(p)?;
        }
        f.sync_all()?;
        std::fs::rename(&tmp, &target)?;
        #[cfg(unix)]
        std::fs::File::open(&dir)?.sync_all()?;
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(err("writing into the directory", &dir))
}

/// `value` as a KDL v2 literal: strings quoted with `\"`, `\\` and every control character
/// escaped, so any value round-trips through the file.
pub(crate) fn kdl_literal(value: &Value) -> String {
    match value {
        Value::Bool(b) => format!("#{b}"),
        Value::Integer(n) => n.to_string(),
        Value::String(s) => quote(s),
    }
}

/// `example` as it is written in a file: integers bare, booleans as KDL v2's `#true` and
/// `#false` (a quoted `"true"` is text, which a boolean setting refuses), text quoted.
pub(crate) fn quote_if_text(example: &str) -> String {
    match example {
        "true" | "false" => format!("#{example}"),
        _ if example.parse::<i64>().is_ok() || example == "#true" || example == "#false" => {
            example.to_owned()
        }
        _ => quote(example),
    }
}

/// A KDL v2 quoted string holding `s` exactly.
pub(crate) fn quote(s: &str) -> String {
    let mut out = String::from("\"");
    for c in s.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\n' => out.push_str("\\n"),
            '\t' => out.push_str("\\t"),
            c if c.is_control()
                || matches!(c, '\u{200e}' | '\u{200f}' | '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}' | '\u{feff}') =>
            {
                out.push_str(&format!("\\u{{{:x}}}", c as u32));
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

/// Set `key` to `text` in the KDL file at `path` (created if missing), validated against the
/// key's option. The node that decides the value today (the last one for the key) has only
/// its value token replaced, so comments, spacing and everything else stay byte for byte; a
/// key not yet in the file is appended as `key value`. The result is parsed again and must
/// resolve `key` to the new value, or nothing is written. The write is atomic.
///
/// # Errors
/// An unknown key or invalid value (naming `text`), an unparseable existing file (left
/// untouched), I/O failure.
pub fn set_in_file(path: &Path, key: &str, text: &str) -> Result<Value, ConfigError> {
    let label = path.display().to_string();
    let source_text = format!("smith config set {key}");
    crate::resolve::check_key(key, &source_text)?;
    let ty = find_spec(key).map_or(crate::Type::String, |spec| spec.ty);
    let value = match find_spec(key) {
        Some(spec) => {
            check(spec.ty, &Raw::Text(text.to_owned())).map_err(|reason| ConfigError::Invalid {
                source_text: source_text.clone(),
                key: key.to_owned(),
                value: text.to_owned(),
                reason,
                example: format!("smith config set {key} {}", spec.example),
            })?
        }
        None if crate::unknown_policy(key) == crate::UnknownPolicy::Preserve => {
            check(crate::Type::String, &Raw::Text(text.to_owned())).map_err(|reason| {
                ConfigError::Invalid {
                    source_text: source_text.clone(),
                    key: key.to_owned(),
                    value: text.to_owned(),
                    reason,
                    example: format!("smith config set {key} value"),
                }
            })?
        }
        None => {
            return Err(ConfigError::unknown_key(source_text, key));
        }
    };
    let existing = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes).map_err(|_| ConfigError::Syntax {
            file: label.clone(),
            line: 1,
            column: 1,
            message: "the file is not UTF-8 text; fix or remove it".into(),
        })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => {
            return Err(ConfigError::Io {
                action: "reading",
                path: label,
                message: e.to_string(),
            });
        }
    };
    // Refuse to edit a file that does not parse; it is left as it is.
    let entries = crate::parse_file(&existing, &label)?;
    let literal = kdl_literal(&value);
    let updated = match entries.iter().rev().find(|e| e.key == key) {
        Some(entry) => {
            let (start, end) = entry.value_span;
            format!("{}{literal}{}", &existing[..start], &existing[end..])
        }
        None => {
            let mut t = existing.clone();
            if !t.is_empty() && !t.ends_with('\n') {
                t.push('\n');
            }
            t.push_str(&format!("{key} {literal}\n"));
            t
        }
    };
    let check_back = crate::parse_file(&updated, &label)?;
    // Read back in the option's type: `#true` in the file is the boolean `true`.
    let now = check_back
        .iter()
        .rev()
        .find(|e| e.key == key)
        .and_then(|e| check(ty, &e.raw).ok());
    if now.as_ref() != Some(&value) {
        return Err(ConfigError::Invalid {
            source_text,
            key: key.to_owned(),
            value: text.to_owned(),
            reason: format!(
                "the edited file would not resolve `{key}` to the new value, so it was not written"
            ),
            example: format!("edit {label} by hand"),
        });
    }
    write_atomic(path, &updated)?;
    Ok(value)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn set_keeps_comments_and_formatting_of_a_hand_written_file() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.kdl");
        let original = "// My settings — hand written.\nmodel \"scripted/demo\" // the default model\n\nrun {\n    // keep runs short\n    max-rounds   12\n}\n";
        std::fs::write(&path, original).unwrap();
        set_in_file(&path, "run.max-rounds", "20").unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, original.replace("12", "20"), "{text}");
        set_in_file(&path, "model", "scripted/tool-call").unwrap();
        set_in_file(&path, "provider.local.base-url", "http://127.0.0.1:8080").unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert!(text.starts_with("// My settings — hand written.\nmodel \"scripted/tool-call\" // the default model\n"), "{text}");
        assert!(text.contains("// keep runs short"));
        assert!(
            text.ends_with("provider.local.base-url \"http://127.0.0.1:8080\"\n"),
            "{text}"
        );
        let entries = crate::parse_file(&text, "x").unwrap();
        assert_eq!(entries.len(), 3);
    }

    /// The corrective example a file's boolean gets is itself valid in a file (issue 59, 6).
    #[test]
    fn a_boolean_example_for_a_file_is_a_kdl_keyword() {
        assert_eq!(quote_if_text("true"), "#true");
        assert_eq!(quote_if_text("false"), "#false");
        assert_eq!(quote_if_text("12"), "12");
        assert_eq!(quote_if_text("scripted/demo"), "\"scripted/demo\"");
        let entries =
            crate::parse_file(&format!("process.allow {}\n", quote_if_text("true")), "x").unwrap();
        assert_eq!(entries.len(), 1);
    }

    #[test]
    fn set_writes_booleans_as_kdl_keywords_and_reads_them_back() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.kdl");
        assert_eq!(
            set_in_file(&path, "process.allow", "true").unwrap(),
            Value::Bool(true)
        );
        set_in_file(&path, "plugins.shell.enabled", "false").unwrap();
        set_in_file(&path, "process.allow", "false").unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, "process.allow #false\nplugins.shell.enabled #false\n");
    }

    #[test]
    fn set_refuses_unknown_keys_and_invalid_values_without_writing() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.kdl");
        let e = set_in_file(&path, "modle", "x/y").unwrap_err();
        assert!(e.to_string().contains("did you mean model"), "{e}");
        let e = set_in_file(&path, "run.max-rounds", "0").unwrap_err();
        assert!(e.to_string().contains("outside 1..=1000"), "{e}");
        assert!(!path.exists());
    }

    #[test]
    fn text_after_a_closing_brace_and_every_comment_survive() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.kdl");
        let original = "model \"a/b\" /* inline */\nrun {\n  max-rounds 3\n} // after\n/- model \"x/y\"\nprovider.x.base-url \"http://ab\"\r\n";
        std::fs::write(&path, original).unwrap();
        set_in_file(&path, "model", "c/d").unwrap();
        set_in_file(&path, "run.max-rounds", "9").unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(
            text,
            original
                .replace("a/b", "c/d")
                .replace("max-rounds 3", "max-rounds 9")
        );
    }

    #[test]
    fn the_winning_node_is_edited_when_forms_mix() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.kdl");
        std::fs::write(&path, "run.max-rounds 2\nrun {\n  max-rounds 3\n}\n").unwrap();
        set_in_file(&path, "run.max-rounds", "7").unwrap();
        let text = std::fs::read_to_string(&path).unwrap();
        assert_eq!(text, "run.max-rounds 2\nrun {\n  max-rounds 7\n}\n");
    }

    #[test]
    fn values_with_special_characters_round_trip_or_are_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("config.kdl");
        assert!(
            set_in_file(&path, "model", "a/\u{1b}[31mb").is_err(),
            "control characters refused"
        );
        set_in_file(&path, "plugin.x.note", "say \"hi\" \\ there").unwrap();
        let entries = crate::parse_file(&std::fs::read_to_string(&path).unwrap(), "x").unwrap();
        assert_eq!(entries[0].text(), "say \"hi\" \\ there");
        assert!(set_in_file(&path, "provider.*.base-url", "http://a").is_err());
    }

    #[cfg(unix)]
    #[test]
    fn a_symlink_is_followed_and_permissions_are_kept() {
        use std::os::unix::fs::PermissionsExt;
        let dir = tempfile::tempdir().unwrap();
        let real = dir.path().join("dotfiles.kdl");
        std::fs::write(&real, "model \"a/b\"\n").unwrap();
        std::fs::set_permissions(&real, std::fs::Permissions::from_mode(0o600)).unwrap();
        let link = dir.path().join("config.kdl");
        std::os::unix::fs::symlink(&real, &link).unwrap();
        set_in_file(&link, "model", "c/d").unwrap();
        assert!(
            std::fs::symlink_metadata(&link)
                .unwrap()
                .file_type()
                .is_symlink()
        );
        assert_eq!(std::fs::read_to_string(&real).unwrap(), "model \"c/d\"\n");
        let mode = std::fs::metadata(&real).unwrap().permissions().mode() & 0o777;
        assert_eq!(mode, 0o600);
    }
}
