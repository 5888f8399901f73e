//! Reading a KDL configuration file into dotted keys with their lines.

use kdl::{KdlDocument, KdlNode};

use crate::ConfigError;
use crate::value::Raw;

/// One setting read from a file: dotted key, value, and the 1-based line it is on.
#[derive(Clone, Debug, PartialEq)]
pub struct FileEntry {
    /// Dotted key (`run.max-rounds`).
    pub key: String,
    /// The value as written.
    pub(crate) raw: Raw,
    /// 1-based line of the node.
    pub line: usize,
}

impl FileEntry {
    /// The value as written, as text.
    pub fn text(&self) -> String {
        self.raw.to_string()
    }
}

/// 1-based line and column of byte `offset` in `text`.
pub(crate) fn line_col(text: &str, offset: usize) -> (usize, usize) {
    let mut offset = offset.min(text.len());
    while !text.is_char_boundary(offset) {
        offset -= 1;
    }
    let before = &text[..offset];
    (
        before.matches('\n').count() + 1,
        before.rsplit('\n').next().map_or(0, |l| l.chars().count()) + 1,
    )
}

/// Parse configuration `text` from `file` (used in messages). Nested nodes make dotted keys
/// (`run { max-rounds 32 }` is `run.max-rounds`), and a node name may itself be dotted
/// (`run.max-rounds 32`). A setting is a node with exactly one argument and no children.
///
/// # Errors
/// [`ConfigError::Syntax`] for invalid KDL; [`ConfigError::Invalid`] for a node that is not a
/// setting (several arguments, properties, a value and a block at once).
pub fn parse_file(text: &str, file: &str) -> Result<Vec<FileEntry>, ConfigError> {
    let doc = KdlDocument::parse(text).map_err(|e| {
        let d = e.diagnostics.first();
        let (line, column) = line_col(text, d.map_or(0, |d| d.span.offset()));
        ConfigError::Syntax {
            file: file.to_owned(),
            line,
            column,
            message: d
                .and_then(|d| d.message.clone())
                .unwrap_or_else(|| "cannot parse".into()),
        }
    })?;
    let mut out = Vec::new();
    walk(&doc, "", text, file, &mut out)?;
    Ok(out)
}

fn walk(
    doc: &KdlDocument,
    prefix: &str,
    text: &str,
    file: &str,
    out: &mut Vec<FileEntry>,
) -> Result<(), ConfigError> {
    for node in doc.nodes() {
        let key = if prefix.is_empty() {
            node.name().value().to_owned()
        } else {
            format!("{prefix}.{}", node.name().value())
        };
        let line = line_col(text, node.span().offset()).0;
        let bad = |reason: &str| ConfigError::Invalid {
            source_text: format!("{file}:{line}"),
            key: key.clone(),
            value: node_text(node),
            reason: reason.to_owned(),
            example: format!("{key} \"value\"  or  {} {{ … }}", key),
        };
        let entries = node.entries();
        match (entries, node.children()) {
            ([], Some(children)) => walk(children, &key, text, file, out)?,
            ([entry], None) if entry.name().is_none() => out.push(FileEntry {
                key,
                raw: Raw::Kdl(entry.value().clone()),
                line,
            }),
            ([], None) => return Err(bad("a setting needs one value")),
            (_, Some(_)) => {
                return Err(bad(
                    "a node has either one value or a block of settings, not both",
                ));
            }
            _ => return Err(bad("a setting takes exactly one value and no properties")),
        }
    }
    Ok(())
}

fn node_text(node: &KdlNode) -> String {
    node.entries()
        .iter()
        .map(|e| e.value().to_string())
        .collect::<Vec<_>>()
        .join(" ")
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn nested_and_dotted_nodes_make_dotted_keys_with_lines() {
        let text = "// comment\nmodel \"scripted/demo\"\nrun {\n    max-rounds 12\n}\nprovider.local.base-url \"http://x\"\n";
        let entries = parse_file(text, "c.kdl").unwrap();
        let got: Vec<_> = entries
            .iter()
            .map(|e| (e.key.as_str(), e.text(), e.line))
            .collect();
        assert_eq!(
            got,
            [
                ("model", "scripted/demo".to_owned(), 2),
                ("run.max-rounds", "12".to_owned(), 4),
                ("provider.local.base-url", "http://x".to_owned(), 6)
            ]
        );
    }

    #[test]
    fn malformed_files_name_file_and_line() {
        let e = parse_file("model \"x\"\nrun {\n", "c.kdl").unwrap_err();
        assert!(matches!(e, ConfigError::Syntax { .. }), "{e}");
        assert!(e.to_string().starts_with("c.kdl:"), "{e}");
        let e = parse_file("\nmodel \"a\" \"b\"\n", "c.kdl").unwrap_err();
        assert!(e.to_string().starts_with("c.kdl:2: `model`"), "{e}");
    }
}
