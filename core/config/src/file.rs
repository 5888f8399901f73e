//! Reading a KDL configuration file into dotted keys with their lines.

use ::kdl::{KdlDocument, KdlNode};

use crate::ConfigError;
use crate::kdl::{Bounds, Lines, SyntaxError, line_col};
use crate::value::Raw;

/// Largest configuration file read, in bytes.
pub const MAX_FILE_BYTES: usize = 1024 * 1024;
/// Deepest nesting of blocks accepted.
pub const MAX_DEPTH: usize = 32;

/// One setting read from a file: dotted key, value, and the 1-based line it is on.
#[derive(Clone, Debug, PartialEq)]
pub struct FileEntry {
    /// Dotted key (`run.max-rounds`).
    pub key: String,
    /// The value as written.
    pub(crate) raw: Raw,
    /// 1-based line of the node.
    pub line: usize,
    /// Byte range of the value token in the file text.
    pub(crate) value_span: (usize, usize),
}

impl FileEntry {
    /// The value as written, as text.
    pub fn text(&self) -> String {
        self.raw.to_string()
    }
}

/// Parse configuration `text` from `file` (used in messages). Nested nodes make dotted keys
/// (`run { max-rounds 32 }` is `run.max-rounds`), and a node name may itself be dotted
/// (`run.max-rounds 32`); a block with one name (`server "github" { … }`) is that name's
/// table (`server.github.…`). A setting is a node with one argument, or several words
/// (`args "-y" "pkg"`, for a [`crate::Type::Words`] option), and no children.
/// Files over [`MAX_FILE_BYTES`] or nested deeper than [`MAX_DEPTH`] are refused.
///
/// # Errors
/// [`ConfigError::Syntax`] for invalid KDL or out-of-bound files; [`ConfigError::Invalid`] for
/// a node that is not a setting (several arguments, properties, a type annotation, a value and
/// a block at once).
pub fn parse_file(text: &str, file: &str) -> Result<Vec<FileEntry>, ConfigError> {
    let syntax = |line, column, message: String| ConfigError::Syntax {
        file: file.to_owned(),
        line,
        column,
        message,
    };
    let bounds = Bounds {
        max_bytes: MAX_FILE_BYTES,
        max_nesting: MAX_DEPTH,
    };
    let doc = crate::kdl::parse(text, bounds).map_err(|e| match e {
        SyntaxError::TooLong { len, max } => syntax(
            1,
            1,
            format!("the file is {len} bytes, more than the {max}-byte bound for configuration"),
        ),
        SyntaxError::TooDeep { max } => {
            syntax(1, 1, format!("blocks are nested deeper than {max} levels"))
        }
        SyntaxError::Invalid {
            offset, message, ..
        } => {
            let (line, column) = line_col(text, offset);
            let message = message.unwrap_or_else(|| "cannot parse".into());
            syntax(
                line,
                column,
                format!(
                    "{message} (configuration files are KDL v2: strings are quoted, booleans are #true and #false)"
                ),
            )
        }
    })?;
    let mut out = Vec::new();
    walk(&doc, "", &Lines::new(text), file, &mut out)?;
    Ok(out)
}

fn walk(
    doc: &KdlDocument,
    prefix: &str,
    lines: &Lines,
    file: &str,
    out: &mut Vec<FileEntry>,
) -> Result<(), ConfigError> {
    for node in doc.nodes() {
        let key = if prefix.is_empty() {
            node.name().value().to_owned()
        } else {
            format!("{prefix}.{}", node.name().value())
        };
        let line = lines.line(node.span().offset());
        let bad = |reason: &str| ConfigError::Invalid {
            source_text: format!("{file}:{line}"),
            key: key.clone(),
            value: node_text(node),
            reason: reason.to_owned(),
            // A block is named with one word; a setting takes one value.
            example: if node.children().is_some() {
                format!("{} \"NAME\" {{ … }}", node.name().value())
            } else {
                format!("{key} \"value\"")
            },
        };
        let entries = node.entries();
        match (entries, node.children()) {
            _ if node.ty().is_some() => {
                return Err(bad("type annotations are not part of configuration"));
            }
            ([], Some(children)) => walk(children, &key, lines, file, out)?,
            // `server "github" { … }` is `server.github { … }`: a named entry of a table.
            ([entry], Some(children)) if entry.name().is_none() && entry.ty().is_none() => {
                let Some(name) = entry.value().as_string() else {
                    return Err(bad(
                        "a block's name is a quoted string (`server \"github\" { … }`)",
                    ));
                };
                if name.is_empty()
                    || name.contains(['.', '*'])
                    || name.contains(char::is_whitespace)
                {
                    return Err(bad(
                        "a block's name is one word, without `.`, `*` or white space",
                    ));
                }
                walk(children, &format!("{key}.{name}"), lines, file, out)?;
            }
            ([entry], None) if entry.name().is_none() && entry.ty().is_none() => {
                let span = entry.span();
                out.push(FileEntry {
                    key,
                    raw: Raw::Kdl(entry.value().clone()),
                    line,
                    value_span: (span.offset(), span.offset() + span.len()),
                });
            }
            ([], None) => return Err(bad("a setting needs one value")),
            // Several words (`args "-y" "server"`): only a words option takes them, which the
            // resolver checks against the key's type.
            (several, None)
                if several
                    .iter()
                    .all(|e| e.name().is_none() && e.ty().is_none()) =>
            {
                let start = several[0].span().offset();
                let last = several[several.len() - 1].span();
                out.push(FileEntry {
                    key,
                    raw: Raw::List(several.iter().map(|e| e.value().clone()).collect()),
                    line,
                    value_span: (start, last.offset() + last.len()),
                });
            }
            (_, Some(_)) => {
                return Err(bad(
                    "a node has either one value or a block of settings, not both",
                ));
            }
            _ => {
                return Err(bad(
                    "a setting takes exactly one value, with no properties or type annotation",
                ));
            }
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
        let (start, end) = entries[1].value_span;
        assert_eq!(&text[start..end], "12");
    }

    #[test]
    fn malformed_files_name_file_and_line() {
        let e = parse_file("model \"x\"\nrun {\n", "c.kdl").unwrap_err();
        assert!(matches!(e, ConfigError::Syntax { .. }), "{e}");
        assert!(e.to_string().starts_with("c.kdl:"), "{e}");
        let e = parse_file("\nmodel \"a\" k=1\n", "c.kdl").unwrap_err();
        assert!(e.to_string().starts_with("c.kdl:2: `model`"), "{e}");
        let e = parse_file("server 1 { a 1 }\n", "c.kdl").unwrap_err();
        assert!(e.to_string().contains("quoted string"), "{e}");
        let e = parse_file("server \"a.b\" { a 1 }\n", "c.kdl").unwrap_err();
        assert!(e.to_string().contains("one word"), "{e}");
    }

    #[test]
    fn named_blocks_are_tables_and_several_words_one_entry() {
        let text =
            "mcp {\n  server \"gh\" {\n    command \"npx\"\n    args \"-y\" \"pkg\"\n  }\n}\n";
        let entries = parse_file(text, "c.kdl").unwrap();
        let got: Vec<_> = entries
            .iter()
            .map(|e| (e.key.as_str(), e.text(), e.line))
            .collect();
        assert_eq!(
            got,
            [
                ("mcp.server.gh.command", "npx".to_owned(), 3),
                ("mcp.server.gh.args", "\"-y\" \"pkg\"".to_owned(), 4),
            ]
        );
        let (start, end) = entries[1].value_span;
        assert_eq!(&text[start..end], "\"-y\" \"pkg\"");
    }

    #[test]
    fn pathological_nesting_is_refused_before_parsing() {
        let deep = format!("{}x 1{}", "a {".repeat(5000), "}".repeat(5000));
        let e = parse_file(&deep, "c.kdl").unwrap_err();
        assert!(e.to_string().contains("nested deeper"), "{e}");
        let unclosed = "a {".repeat(20_000);
        assert!(parse_file(&unclosed, "c.kdl").is_err());
        assert!(parse_file("(string)model \"a/b\"\n", "c.kdl").is_err());
    }
}
