//! Persisting a setting into a hand-written KDL file without disturbing it.

use std::io::Write;
use std::path::Path;

use kdl::{KdlDocument, KdlEntry, KdlNode, KdlValue};

use crate::schema::find_spec;
use crate::value::{Raw, check};
use crate::{ConfigError, Value};

/// Write `text` to `path` atomically: a temporary file in the same directory, `fsync`, rename,
/// then the directory `fsync`. Creates missing parent directories.
pub(crate) fn write_atomic(path: &Path, text: &str) -> Result<(), ConfigError> {
    let err = |action: &'static str| {
        move |e: std::io::Error| ConfigError::Io {
            action,
            path: path.display().to_string(),
            message: e.to_string(),
        }
    };
    let dir = path
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(err("creating the directory of"))?;
    let tmp = dir.join(format!(
        ".{}.tmp-{}",
        path.file_name()
            .and_then(|n| n.to_str())
            .unwrap_or("config"),
        std::process::id()
    ));
    let result = (|| {
        let mut f = std::fs::File::create(&tmp)?;
        f.write_all(text.as_bytes())?;
        f.sync_all()?;
        std::fs::rename(&tmp, path)?;
        #[cfg(unix)]
        std::fs::File::open(dir)?.sync_all()?;
        Ok(())
    })();
    if result.is_err() {
        let _ = std::fs::remove_file(&tmp);
    }
    result.map_err(err("writing"))
}

fn kdl_value(value: &Value) -> KdlValue {
    match value {
        Value::String(s) => KdlValue::String(s.clone()),
        Value::Bool(b) => KdlValue::Bool(*b),
        Value::Integer(n) => KdlValue::Integer(i128::from(*n)),
    }
}

/// Find the node holding `segments` (nested blocks, dotted names, or a mix).
fn find<'a>(doc: &'a mut KdlDocument, segments: &[&str]) -> Option<&'a mut KdlNode> {
    let mut target = None;
    for split in (1..=segments.len()).rev() {
        let name = segments[..split].join(".");
        if let Some(position) = doc.nodes().iter().rposition(|n| n.name().value() == name) {
            let leaf = split == segments.len();
            if leaf || doc.nodes()[position].children().is_some() {
                target = Some((position, split));
                break;
            }
        }
    }
    let (position, split) = target?;
    let node = &mut doc.nodes_mut()[position];
    if split == segments.len() {
        return Some(node);
    }
    find(node.children_mut().as_mut()?, &segments[split..])
}

/// Set `key` to `text` in the KDL file at `path` (created if missing), validated against the
/// key's option. An existing setting keeps its place, comments and formatting; a new one is
/// appended as `key value`. The write is atomic.
///
/// # Errors
/// An unknown key or invalid value (naming `text`), unparseable existing file, I/O failure.
pub fn set_in_file(path: &Path, key: &str, text: &str) -> Result<Value, ConfigError> {
    let label = path.display().to_string();
    let spec = find_spec(key).ok_or_else(|| {
        let close = crate::closest_keys(key);
        ConfigError::Unknown {
            source_text: format!("smith config set {key}"),
            key: key.to_owned(),
            hint: if close.is_empty() {
                String::new()
            } else {
                format!(" (did you mean {}?)", close.join(", "))
            },
        }
    })?;
    let value =
        check(spec.ty, &Raw::Text(text.to_owned())).map_err(|reason| ConfigError::Invalid {
            source_text: format!("smith config set {key}"),
            key: key.to_owned(),
            value: text.to_owned(),
            reason,
            example: format!("smith config set {key} {}", spec.example),
        })?;
    let existing = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => {
            return Err(ConfigError::Io {
                action: "reading",
                path: label,
                message: e.to_string(),
            });
        }
    };
    crate::parse_file(&existing, &label)?; // refuse to edit a file that does not parse
    let mut doc: KdlDocument = existing.parse().map_err(|_| ConfigError::Syntax {
        file: label.clone(),
        line: 1,
        column: 1,
        message: "cannot parse".into(),
    })?;
    let segments: Vec<&str> = key.split('.').collect();
    match find(&mut doc, &segments) {
        Some(node) if node.children().is_none() && node.entries().len() == 1 => {
            let entry = &mut node.entries_mut()[0];
            let new = kdl_value(&value);
            let repr = new.to_string();
            entry.set_value(new);
            // Keep the spacing and comments around the value; only its text changes.
            if let Some(format) = entry.format_mut() {
                format.value_repr = repr;
            }
        }
        _ => {
            let mut node = KdlNode::new(key);
            node.push(KdlEntry::new(kdl_value(&value)));
            node.autoformat();
            let mut text = doc.to_string();
            if !text.is_empty() && !text.ends_with('\n') {
                text.push('\n');
            }
            text.push_str(node.to_string().trim());
            text.push('\n');
            write_atomic(path, &text)?;
            return Ok(value);
        }
    }
    write_atomic(path, &doc.to_string())?;
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
}
