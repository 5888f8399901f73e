//! Reading KDL documents by a schema: what every KDL reader of Smith shares — configuration
//! files, the model catalog and `models.kdl`, provider scripts, plugin manifests and the auth
//! file. Each reader keeps its own schema and words its own errors; this module gives them one
//! way to bound a text before the recursive parser sees it, to parse it with the position of
//! the first problem, to turn byte offsets into lines and columns, and to read a node's
//! arguments and properties (and refuse properties a schema does not know).
//!
//! KDL is version 2 (the `kdl` crate, 6.x): strings are quoted, booleans are `#true` and
//! `#false`.

use ::kdl::{KdlDocument, KdlEntry, KdlNode, KdlValue};

/// Byte offsets of line starts, for line numbers in O(log n).
#[derive(Clone, Debug)]
pub struct Lines(Vec<usize>);

impl Lines {
    /// The line starts of `text`.
    pub fn new(text: &str) -> Self {
        Self(
            std::iter::once(0)
                .chain(text.match_indices('\n').map(|(i, _)| i + 1))
                .collect(),
        )
    }

    /// The 1-based line of byte `offset`.
    pub fn line(&self, offset: usize) -> usize {
        self.0.partition_point(|&start| start <= offset)
    }
}

/// The 1-based line of byte `offset` in `text` (an offset past the end counts as the end).
pub fn line_of(text: &str, offset: usize) -> usize {
    text.as_bytes()[..offset.min(text.len())]
        .iter()
        .filter(|&&b| b == b'\n')
        .count()
        + 1
}

/// The 1-based line and column (in characters) of byte `offset` in `text`; an offset inside a
/// character counts as that character's start.
pub fn line_col(text: &str, offset: usize) -> (usize, usize) {
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

/// How deeply `text` nests `{ … }` blocks outside quoted strings: an upper bound checked
/// before parsing, so a pathological text cannot exhaust the recursive parser's stack.
pub fn nesting(text: &str) -> usize {
    let (mut depth, mut deepest) = (0usize, 0usize);
    let (mut quoted, mut escaped) = (false, false);
    for c in text.chars() {
        match c {
            _ if escaped => escaped = false,
            '\\' if quoted => escaped = true,
            '"' => quoted = !quoted,
            '{' if !quoted => {
                depth += 1;
                deepest = deepest.max(depth);
            }
            '}' if !quoted => depth = depth.saturating_sub(1),
            _ => {}
        }
    }
    deepest
}

/// The bounds a text is held to before it is parsed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The longest text, in bytes.
    pub max_bytes: usize,
    /// The deepest `{ … }` nesting ([`nesting`]).
    pub max_nesting: usize,
}

/// Why a text could not be parsed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SyntaxError {
    /// The text is longer than its bound.
    TooLong {
        /// Its length in bytes.
        len: usize,
        /// The bound.
        max: usize,
    },
    /// The text nests blocks deeper than its bound.
    TooDeep {
        /// The bound.
        max: usize,
    },
    /// The text is not valid KDL v2.
    Invalid {
        /// The byte offset of the first problem.
        offset: usize,
        /// What the parser said, when it said anything.
        message: Option<String>,
        /// Its advice, when it gave any.
        help: Option<String>,
    },
}

impl SyntaxError {
    /// The byte offset of the problem (0 for a bound).
    pub fn offset(&self) -> usize {
        match self {
            Self::Invalid { offset, .. } => *offset,
            Self::TooLong { .. } | Self::TooDeep { .. } => 0,
        }
    }
}

/// Parse `text` as a KDL document within `bounds`.
///
/// # Errors
/// [`SyntaxError`]: over a bound (checked first), or not valid KDL (with the first
/// diagnostic's offset, message and help).
pub fn parse(text: &str, bounds: Bounds) -> Result<KdlDocument, SyntaxError> {
    if text.len() > bounds.max_bytes {
        return Err(SyntaxError::TooLong {
            len: text.len(),
            max: bounds.max_bytes,
        });
    }
    if nesting(text) > bounds.max_nesting {
        return Err(SyntaxError::TooDeep {
            max: bounds.max_nesting,
        });
    }
    KdlDocument::parse(text).map_err(|e| {
        let first = e.diagnostics.first();
        SyntaxError::Invalid {
            offset: first.map_or(0, |d| d.span.offset()),
            message: first.and_then(|d| d.message.clone()),
            help: first.and_then(|d| d.help.clone()),
        }
    })
}

/// The value of `node`'s only entry, when it has exactly one and it is a positional string.
pub fn single_string(node: &KdlNode) -> Option<&str> {
    match node.entries() {
        [entry] if entry.name().is_none() => entry.value().as_string(),
        _ => None,
    }
}

/// The first positional argument of `node`, when it is a string.
pub fn first_string(node: &KdlNode) -> Option<&str> {
    node.entries()
        .iter()
        .find(|e| e.name().is_none())
        .and_then(|e| e.value().as_string())
}

/// The positional arguments of `node`, in order.
pub fn arguments(node: &KdlNode) -> Vec<&KdlValue> {
    node.entries()
        .iter()
        .filter(|e| e.name().is_none())
        .map(KdlEntry::value)
        .collect()
}

/// The value of property `name` of `node` (the first, when repeated).
pub fn property<'n>(node: &'n KdlNode, name: &str) -> Option<&'n KdlValue> {
    node.entries()
        .iter()
        .find(|e| e.name().map(|n| n.value()) == Some(name))
        .map(KdlEntry::value)
}

/// The first property of `node` whose name is not in `allowed`, with its name: a typo that
/// would otherwise be lost.
pub fn unknown_property<'n>(
    node: &'n KdlNode,
    allowed: &[&str],
) -> Option<(&'n KdlEntry, &'n str)> {
    node.entries().iter().find_map(|e| {
        e.name()
            .map(|n| n.value())
            .filter(|name| !allowed.contains(name))
            .map(|name| (e, name))
    })
}

/// The child nodes of `node` (none without a block).
pub fn children(node: &KdlNode) -> &[KdlNode] {
    node.children().map(KdlDocument::nodes).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn offsets_become_lines_and_character_columns() {
        let text = "a 1\nbé \"x\"\n";
        assert_eq!(line_col(text, 0), (1, 1));
        assert_eq!(line_col(text, 4), (2, 1));
        // `"` comes after a two-byte character: column 4 in characters.
        assert_eq!(line_col(text, 8), (2, 4));
        assert_eq!(line_col(text, 6), (2, 2), "inside `é` counts as its start");
        assert_eq!(line_of(text, 4), 2);
        assert_eq!(line_of(text, 999), 3);
        let lines = Lines::new(text);
        assert_eq!((lines.line(0), lines.line(4), lines.line(9)), (1, 2, 2));
    }

    #[test]
    fn bounds_are_checked_before_parsing() {
        let bounds = Bounds {
            max_bytes: 64,
            max_nesting: 2,
        };
        assert!(matches!(
            parse(&"a 1\n".repeat(20), bounds),
            Err(SyntaxError::TooLong { len: 80, max: 64 })
        ));
        assert!(matches!(
            parse("a { b { c { d 1 } } }", bounds),
            Err(SyntaxError::TooDeep { max: 2 })
        ));
        // Braces inside strings are not nesting.
        assert_eq!(nesting("a \"{{{\\\"{\" { b 1 }"), 1);
        let e = parse("a {\n", bounds).unwrap_err();
        assert!(
            matches!(e, SyntaxError::Invalid { .. }) && e.offset() <= 4,
            "{e:?}"
        );
    }

    #[test]
    fn arguments_and_properties_are_read_by_name_and_position() {
        let doc = parse(
            "m \"x\" 2 key=#true other=\"o\"\nn \"only\"\nk { c 1; }",
            Bounds {
                max_bytes: 1024,
                max_nesting: 4,
            },
        )
        .unwrap();
        let m = &doc.nodes()[0];
        assert_eq!(first_string(m), Some("x"));
        assert_eq!(single_string(m), None);
        assert_eq!(arguments(m).len(), 2);
        assert_eq!(property(m, "key").and_then(KdlValue::as_bool), Some(true));
        assert_eq!(unknown_property(m, &["key"]).map(|(_, n)| n), Some("other"));
        assert!(unknown_property(m, &["key", "other"]).is_none());
        assert_eq!(single_string(&doc.nodes()[1]), Some("only"));
        assert_eq!(children(&doc.nodes()[2]).len(), 1);
        assert!(children(m).is_empty());
    }
}
