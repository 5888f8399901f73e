//! The corpus: documents, retrieval by id, line windows and local links.

use std::collections::BTreeMap;

use pulldown_cmark::{Event, Parser, Tag};

use crate::DocsError;
use crate::frontmatter::{self, FrontMatter};

/// One document: its front matter, where it lives in the corpus and its markdown body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Document {
    /// Front matter.
    pub front: FrontMatter,
    /// Path relative to `docs-corpus/docs/`, `/`-separated (e.g. `reference/cli.md`).
    pub path: String,
    /// The markdown body after the front matter.
    pub body: String,
}

impl Document {
    /// The stable id.
    pub fn id(&self) -> &str {
        &self.front.id
    }

    /// Number of body lines.
    pub fn line_count(&self) -> usize {
        self.body.lines().count()
    }

    /// The body lines `range` (1-based, inclusive), joined with `\n` and ending in `\n`.
    ///
    /// # Errors
    /// [`DocsError::BadRange`] when the range starts after the last line or is reversed.
    pub fn lines(&self, range: LineRange) -> Result<String, DocsError> {
        let total = self.line_count();
        let end = range.end.unwrap_or(total).min(total);
        if range.start == 0 || range.start > total || range.start > end {
            return Err(DocsError::BadRange {
                id: self.front.id.clone(),
                range: range.to_string(),
                reason: format!(
                    "the document has lines 1..{total}; give A..B with 1 ≤ A ≤ B (B may exceed {total}, or be left out for the end)"
                ),
            });
        }
        let mut out = String::new();
        for line in self
            .body
            .lines()
            .skip(range.start - 1)
            .take(end + 1 - range.start)
        {
            out.push_str(line);
            out.push('\n');
        }
        Ok(out)
    }
}

/// A 1-based inclusive line range `A..B`; `A..` runs to the end.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct LineRange {
    /// First line, 1-based.
    pub start: usize,
    /// Last line, inclusive; `None` for the end of the document.
    pub end: Option<usize>,
}

impl std::fmt::Display for LineRange {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self.end {
            Some(end) => write!(f, "{}..{end}", self.start),
            None => write!(f, "{}..", self.start),
        }
    }
}

impl std::str::FromStr for LineRange {
    type Err = String;

    /// Parse `A..B`, `A..` or `A` (one line).
    fn from_str(s: &str) -> Result<Self, String> {
        let num = |t: &str| {
            t.trim().parse::<usize>().map_err(|_| {
                format!("`{s}` is not a line range; write A..B (1-based, inclusive), e.g. 1..40")
            })
        };
        match s.split_once("..") {
            Some((a, "")) => Ok(Self {
                start: num(a)?,
                end: None,
            }),
            Some((a, b)) => Ok(Self {
                start: num(a)?,
                end: Some(num(b)?),
            }),
            None => {
                let n = num(s)?;
                Ok(Self {
                    start: n,
                    end: Some(n),
                })
            }
        }
    }
}

/// A link found in a document body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Link {
    /// The link target as written.
    pub target: String,
    /// The id of the corpus document it leads to; `None` for an external link or a broken
    /// local one (see [`Link::external`]).
    pub resolved: Option<String>,
    /// Whether the target is outside the corpus (`http:`, `https:`, `mailto:`).
    pub external: bool,
}

/// The documentation corpus, documents sorted by id.
#[derive(Clone, Debug)]
pub struct Corpus {
    docs: Vec<Document>,
}

const EMBEDDED: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/corpus.zst"));
const EMBEDDED_LEN: &str = include_str!(concat!(env!("OUT_DIR"), "/corpus.len"));

/// Decode a bundle written by `build.rs`: zstd over repeated
/// `name_len u16 LE | name | data_len u32 LE | data` entries.
pub(crate) fn decode_bundle(
    compressed: &[u8],
    len: &str,
) -> Result<Vec<(String, Vec<u8>)>, DocsError> {
    let damaged = |what: &str| DocsError::Damaged(what.to_owned());
    let len: usize = len
        .trim()
        .parse()
        .map_err(|_| damaged("bad bundle length"))?;
    let bundle = zstd::bulk::decompress(compressed, len).map_err(|e| damaged(&e.to_string()))?;
    fn take<'b>(rest: &mut &'b [u8], n: usize) -> Result<&'b [u8], DocsError> {
        if rest.len() < n {
            return Err(DocsError::Damaged("truncated bundle".into()));
        }
        let (head, tail) = rest.split_at(n);
        *rest = tail;
        Ok(head)
    }
    let mut entries = Vec::new();
    let mut rest: &[u8] = &bundle;
    while !rest.is_empty() {
        let n = take(&mut rest, 2)?;
        let name_len = usize::from(u16::from_le_bytes([n[0], n[1]]));
        let name = String::from_utf8(take(&mut rest, name_len)?.to_vec())
            .map_err(|e| damaged(&e.to_string()))?;
        let n = take(&mut rest, 4)?;
        let data_len = u32::from_le_bytes([n[0], n[1], n[2], n[3]]) as usize;
        entries.push((name, take(&mut rest, data_len)?.to_vec()));
    }
    Ok(entries)
}

impl Corpus {
    /// The corpus embedded in this binary at build time.
    ///
    /// # Errors
    /// [`DocsError::Damaged`] if the embedded bundle cannot be decoded (a build defect).
    pub fn embedded() -> Result<Self, DocsError> {
        let mut files = Vec::new();
        for (path, data) in decode_bundle(EMBEDDED, EMBEDDED_LEN)? {
            let text = String::from_utf8(data).map_err(|e| DocsError::Damaged(e.to_string()))?;
            files.push((path, text));
        }
        Self::from_files(files).map_err(DocsError::Damaged)
    }

    /// A corpus from `(path, text)` pairs, paths relative to the docs directory.
    ///
    /// # Errors
    /// A message naming the path of a document with invalid front matter or a duplicate id.
    pub fn from_files(files: impl IntoIterator<Item = (String, String)>) -> Result<Self, String> {
        let mut by_id: BTreeMap<String, Document> = BTreeMap::new();
        for (path, text) in files {
            let (front, body) = frontmatter::parse(&text).map_err(|e| format!("{path}: {e}"))?;
            // Line 1 of the body is its first non-blank line.
            let doc = Document {
                front,
                path: path.clone(),
                body: body.trim_start_matches('\n').to_owned(),
            };
            if let Some(other) = by_id.insert(doc.front.id.clone(), doc) {
                return Err(format!(
                    "{path}: id `{}` is also used by {}",
                    other.front.id, other.path
                ));
            }
        }
        Ok(Self {
            docs: by_id.into_values().collect(),
        })
    }

    /// All documents, sorted by id.
    pub fn documents(&self) -> &[Document] {
        &self.docs
    }

    /// The document with `id`.
    ///
    /// # Errors
    /// [`DocsError::UnknownId`] with the closest ids.
    pub fn get(&self, id: &str) -> Result<&Document, DocsError> {
        match self.docs.binary_search_by(|d| d.front.id.as_str().cmp(id)) {
            Ok(i) => Ok(&self.docs[i]),
            Err(_) => Err(DocsError::UnknownId {
                id: id.to_owned(),
                closest: self.closest(id),
            }),
        }
    }

    /// Up to three ids closest to `id` (Jaro–Winkler similarity, ties by id).
    pub fn closest(&self, id: &str) -> Vec<String> {
        let id = id.to_lowercase();
        let id = id.as_str();
        let mut scored: Vec<(f64, &str)> = self
            .docs
            .iter()
            .map(|d| {
                let own = d.front.id.as_str();
                let last = own.rsplit('/').next().unwrap_or(own);
                let score = strsim::jaro_winkler(id, own).max(strsim::jaro_winkler(id, last));
                (score, own)
            })
            .filter(|(score, _)| *score > 0.6)
            .collect();
        scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
        scored
            .into_iter()
            .take(3)
            .map(|(_, id)| id.to_owned())
            .collect()
    }

    /// The document at corpus path `path`, if any.
    pub fn by_path(&self, path: &str) -> Option<&Document> {
        self.docs.iter().find(|d| d.path == path)
    }

    /// The links of `doc`, in order, each resolved against the corpus.
    pub fn links(&self, doc: &Document) -> Vec<Link> {
        let mut out = Vec::new();
        for event in Parser::new(&doc.body) {
            if let Event::Start(Tag::Link { dest_url, .. }) = event {
                let target = dest_url.to_string();
                let external = ["http:", "https:", "mailto:"]
                    .iter()
                    .any(|s| target.starts_with(s));
                let resolved = if external {
                    None
                } else {
                    resolve(&doc.path, &target)
                        .and_then(|p| self.by_path(&p))
                        .map(|d| d.front.id.clone())
                };
                out.push(Link {
                    target,
                    resolved,
                    external,
                });
            }
        }
        out
    }

    /// Every local link that does not resolve, as `(document id, target)`.
    pub fn broken_links(&self) -> Vec<(String, String)> {
        self.docs
            .iter()
            .flat_map(|doc| {
                self.links(doc)
                    .into_iter()
                    .filter(|l| !l.external && l.resolved.is_none())
                    .map(|l| (doc.front.id.clone(), l.target))
            })
            .collect()
    }
}

/// Resolve a relative link `target` written in the document at `from` to a corpus path.
/// `#anchor` alone means the same document. `None` when it climbs above the corpus root.
pub(crate) fn resolve(from: &str, target: &str) -> Option<String> {
    let path = target.split('#').next().unwrap_or("");
    if path.is_empty() {
        return Some(from.to_owned());
    }
    let mut parts: Vec<&str> = from.split('/').collect();
    parts.pop(); // the file name
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." => {
                parts.pop()?;
            }
            p => parts.push(p),
        }
    }
    Some(parts.join("/"))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn corpus() -> Corpus {
        Corpus::from_files([
            ("a.md".to_owned(), "---\nid: alpha\ntitle: A\nkind: guide\n---\nsee [b](ref/b.md#x) and [web](https://x.org)\nline 2\nline 3\n".to_owned()),
            ("ref/b.md".to_owned(), "---\nid: ref/beta\ntitle: B\nkind: reference\ntags: [x, y]\n---\n[back](../a.md) [self](#top) [gone](nope.md)\n".to_owned()),
        ])
        .unwrap()
    }

    #[test]
    fn documents_are_sorted_and_retrievable() {
        let c = corpus();
        let ids: Vec<_> = c.documents().iter().map(Document::id).collect();
        assert_eq!(ids, ["alpha", "ref/beta"]);
        assert_eq!(c.get("ref/beta").unwrap().front.tags, ["x", "y"]);
        let DocsError::UnknownId { closest, .. } = c.get("beta").unwrap_err() else {
            panic!()
        };
        assert_eq!(closest, ["ref/beta"]);
    }

    #[test]
    fn line_windows_are_one_based_and_inclusive() {
        let c = corpus();
        let a = c.get("alpha").unwrap();
        assert_eq!(
            a.lines("2..3".parse().unwrap()).unwrap(),
            "line 2\nline 3\n"
        );
        assert_eq!(a.lines("3..99".parse().unwrap()).unwrap(), "line 3\n");
        assert_eq!(a.lines("2".parse().unwrap()).unwrap(), "line 2\n");
        assert_eq!(a.lines("2..".parse().unwrap()).unwrap(), "line 2\nline 3\n");
        assert!(a.lines("0..1".parse().unwrap()).is_err());
        assert!(a.lines("3..2".parse().unwrap()).is_err());
        assert!(a.lines("9..".parse().unwrap()).is_err());
        assert!("x..y".parse::<LineRange>().is_err());
    }

    #[test]
    fn links_resolve_relative_to_their_document() {
        let c = corpus();
        let links = c.links(c.get("alpha").unwrap());
        assert_eq!(links[0].resolved.as_deref(), Some("ref/beta"));
        assert!(links[1].external);
        assert_eq!(
            c.broken_links(),
            [("ref/beta".to_owned(), "nope.md".to_owned())]
        );
        assert_eq!(resolve("a.md", "../x.md"), None);
    }

    #[test]
    fn the_embedded_corpus_opens_and_its_links_resolve() {
        let c = Corpus::embedded().unwrap();
        assert!(c.documents().len() >= 5);
        assert_eq!(c.broken_links(), Vec::<(String, String)>::new());
    }
}
