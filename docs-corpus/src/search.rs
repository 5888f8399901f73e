//! Full-text search over the corpus with tantivy, built in RAM when first needed. The index
//! holds one entry per document section (`schema`); a search ranks sections and answers with
//! each matching document once, at its best section.

use tantivy::collector::TopDocs;
use tantivy::directory::{Directory, RamDirectory};
use tantivy::query::QueryParser;
use tantivy::schema::{Field, Value};
use tantivy::snippet::SnippetGenerator;
use tantivy::tokenizer::TokenStream as _;
use tantivy::{Index, IndexReader, TantivyDocument};

use crate::schema::{self, Fields};
use crate::{Corpus, DocsError};

const EMBEDDED_INDEX: &[u8] = include_bytes!(concat!(env!("OUT_DIR"), "/index.zst"));
const EMBEDDED_INDEX_LEN: &str = include_str!(concat!(env!("OUT_DIR"), "/index.len"));

/// One search result.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct Hit {
    /// Document id.
    pub id: String,
    /// Document title.
    pub title: String,
    /// Document kind.
    pub kind: String,
    /// Relevance of its best section (BM25 over the section's heading, counted twice, its
    /// document's title and tags, and its text); higher is better.
    pub score: f32,
    /// The heading of the best-matching section, as written (the document title for text
    /// before its first heading).
    pub section: String,
    /// That section's body lines, `A..B` (1-based, inclusive: what `Document::lines` takes).
    pub lines: String,
    /// A plain-text excerpt of that section around the matched terms (at most 160
    /// characters).
    pub snippet: String,
}

/// One page of results.
#[derive(Clone, Debug, PartialEq, serde::Serialize)]
pub struct SearchPage {
    /// The hits of this page, best first; ties ordered by id.
    pub hits: Vec<Hit>,
    /// How many documents match in all (0: the query matches nothing).
    pub total: usize,
    /// The continuation token for the next page, `None` on the last page.
    pub next_cursor: Option<String>,
}

/// A continuation token: the offset of the next page, bound to the query text so it cannot be
/// replayed against another query. Printed as `OFFSET-QUERYHASH` (decimal, 8 hex digits).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Cursor {
    /// Results to skip.
    pub offset: usize,
    query_hash: u32,
}

/// FNV-1a, 32 bits: stable across runs and platforms.
fn fnv1a(text: &str) -> u32 {
    let mut h: u32 = 0x811c_9dc5;
    for b in text.as_bytes() {
        h ^= u32::from(*b);
        h = h.wrapping_mul(0x0100_0193);
    }
    h
}

impl Cursor {
    /// The cursor for `offset` into the results of `query`.
    pub fn new(query: &str, offset: usize) -> Self {
        Self {
            offset,
            query_hash: fnv1a(query),
        }
    }

    /// The printed token.
    pub fn token(&self) -> String {
        format!("{}-{:08x}", self.offset, self.query_hash)
    }

    /// Parse `token` and check it belongs to `query`.
    ///
    /// # Errors
    /// [`DocsError::BadCursor`] when malformed or issued for another query.
    pub fn parse(token: &str, query: &str) -> Result<Self, DocsError> {
        let bad = |reason| DocsError::BadCursor {
            cursor: token.to_owned(),
            reason,
        };
        let (offset, hash) = token.split_once('-').ok_or(bad("is malformed"))?;
        let offset = offset.parse().map_err(|_| bad("is malformed"))?;
        let hash = u32::from_str_radix(hash, 16).map_err(|_| bad("is malformed"))?;
        if hash != fnv1a(query) {
            return Err(bad("was issued for a different query"));
        }
        Ok(Self {
            offset,
            query_hash: hash,
        })
    }
}

/// Longest query accepted, in characters.
pub const MAX_QUERY_CHARS: usize = 1000;

/// Rewrite a user query before parsing. Only the documented syntax survives: words, `"phrases"`,
/// `+required`, `-excluded` and `field:word`; every other punctuation (grouping parentheses,
/// ranges, wildcards, fuzziness) becomes a space, so no query can nest without bound or match
/// everything. An exclusion applies to a single plain word only; a leading `-` before anything
/// else (`--no-session`, `-"a phrase"`, `-a-b`) is read as text to find — users search for
/// flags, and tantivy 0.27 mis-evaluates excluded phrases.
fn normalize(query: &str) -> String {
    let kept: String = query
        .chars()
        .map(|c| {
            if c.is_alphanumeric() || matches!(c, '"' | '+' | '-' | ':' | '_' | '.' | '/') {
                c
            } else {
                ' '
            }
        })
        .collect();
    kept.split_whitespace()
        .map(|token| {
            let rest = token.trim_start_matches('-');
            let plain_word = !rest.is_empty() && rest.chars().all(char::is_alphanumeric);
            if token.starts_with('-') && !(token.len() == rest.len() + 1 && plain_word) {
                rest.to_owned()
            } else {
                token.to_owned()
            }
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// `normalized` with, for a query of plain words, each pair of neighbouring words added as a
/// sloppy phrase (`"a b"~2`): a section where the words stand together — "running commands",
/// "default model" — ranks above one that merely holds both somewhere (term proximity). The
/// slop lets removed stop words sit between them. A query using any syntax (`"…"`, `+`, `-`,
/// `field:`) is left as written.
fn with_proximity(normalized: &str) -> String {
    let words: Vec<&str> = normalized.split_whitespace().collect();
    let plain = |w: &&str| w.chars().all(char::is_alphanumeric);
    if words.len() < 2 || !words.iter().all(plain) {
        return normalized.to_owned();
    }
    let mut out = normalized.to_owned();
    for pair in words.windows(2) {
        out.push_str(&format!(" \"{} {}\"~2", pair[0], pair[1]));
    }
    out
}

/// A snippet as plain words: markdown punctuation (`#` headings, `|` table bars, backticks,
/// emphasis stars, link brackets) dropped, white space collapsed.
fn plain_snippet(fragment: &str) -> String {
    fragment
        .chars()
        .map(|c| {
            if matches!(c, '#' | '|' | '`' | '*' | '[' | ']') {
                ' '
            } else {
                c
            }
        })
        .collect::<String>()
        .split_whitespace()
        .collect::<Vec<_>>()
        .join(" ")
}

/// A tantivy index of the corpus, held in RAM.
pub struct SearchIndex {
    index: Index,
    reader: IndexReader,
    fields: Fields,
}

/// Longest snippet, in characters.
const SNIPPET_CHARS: usize = 160;

fn err(e: tantivy::TantivyError) -> DocsError {
    DocsError::Search(e.to_string())
}

impl SearchIndex {
    /// The index of the embedded corpus, built at compile time by `build.rs` with the same
    /// schema and rules as [`SearchIndex::build`]; opening it copies its files into RAM.
    ///
    /// # Errors
    /// [`DocsError::Damaged`] or [`DocsError::Search`] if the embedded index cannot be opened
    /// (a build defect).
    pub fn embedded() -> Result<Self, DocsError> {
        let dir = RamDirectory::create();
        for (name, data) in crate::corpus::decode_bundle(EMBEDDED_INDEX, EMBEDDED_INDEX_LEN)? {
            dir.atomic_write(std::path::Path::new(&name), &data)
                .map_err(|e| DocsError::Damaged(e.to_string()))?;
        }
        let index = Index::open(dir).map_err(err)?;
        schema::register_tokenizer(&index);
        let (_, fields) = schema::schema();
        let reader = index.reader().map_err(err)?;
        Ok(Self {
            index,
            reader,
            fields,
        })
    }

    /// Index every document of `corpus` (title, tags and body, English stemming) in RAM.
    ///
    /// # Errors
    /// [`DocsError::Search`] if the engine fails.
    pub fn build(corpus: &Corpus) -> Result<Self, DocsError> {
        let (schema, fields) = schema::schema();
        let index = Index::create_in_ram(schema);
        schema::register_tokenizer(&index);
        let mut writer = index
            .writer_with_num_threads::<TantivyDocument>(1, schema::WRITER_BUDGET)
            .map_err(err)?;
        let rows = corpus.documents().iter().map(|d| {
            (
                d.front.id.as_str(),
                d.front.title.as_str(),
                d.front.kind.as_str(),
                d.front.tags.as_slice(),
                d.body.as_str(),
            )
        });
        schema::index_rows(&mut writer, fields, rows).map_err(err)?;
        let reader = index.reader().map_err(err)?;
        Ok(Self {
            index,
            reader,
            fields,
        })
    }

    /// Search for `query` (words, `"phrases"`, `+required`, `-excluded`, `field:term` with
    /// fields `title`, `heading`, `tags`, `body`; malformed syntax is read leniently, never an
    /// error) and return `limit` documents starting at `cursor`, each at its best section.
    /// Order: score, best first; equal scores by id. A query of stop words only matches
    /// nothing.
    ///
    /// # Errors
    /// [`DocsError::BadCursor`] for a cursor of another query; [`DocsError::Search`].
    pub fn search(
        &self,
        query: &str,
        limit: usize,
        cursor: Option<&str>,
    ) -> Result<SearchPage, DocsError> {
        if query.chars().count() > MAX_QUERY_CHARS {
            return Err(DocsError::BadQuery {
                reason: format!("it is longer than {MAX_QUERY_CHARS} characters; shorten it"),
            });
        }
        if !query.chars().any(char::is_alphanumeric) {
            return Err(DocsError::BadQuery {
                reason: "it has no letters or digits to search for".into(),
            });
        }
        let offset = match cursor {
            Some(token) => Cursor::parse(token, query)?.offset,
            None => 0,
        };
        let normalized = normalize(query);
        if !self.has_terms(&normalized) {
            // Only stop words (or field names): nothing to look for, so nothing matches.
            return Ok(SearchPage {
                hits: Vec::new(),
                total: 0,
                next_cursor: None,
            });
        }
        let f = self.fields;
        let mut parser = QueryParser::for_index(
            &self.index,
            vec![f.heading, f.lead, f.title, f.tags, f.body],
        );
        parser.set_field_boost(f.heading, 3.0);
        parser.set_field_boost(f.lead, 4.0);
        parser.set_field_boost(f.title, 1.5);
        parser.set_field_boost(f.tags, 1.5);
        let (parsed, _lenient) = parser.parse_query_lenient(&with_proximity(&normalized));
        let searcher = self.reader.searcher();
        let all = searcher
            .search(
                &parsed,
                &TopDocs::with_limit(
                    usize::try_from(searcher.num_docs())
                        .unwrap_or(usize::MAX)
                        .max(1),
                )
                .order_by_score(),
            )
            .map_err(err)?;
        // Each document once, at its best section (ties: the earlier section).
        let mut best: Vec<(f32, String, TantivyDocument)> = Vec::new();
        for (score, address) in all {
            let doc: TantivyDocument = searcher.doc(address).map_err(err)?;
            let id = stored(&doc, f.id);
            match best.iter_mut().find(|(_, seen, _)| *seen == id) {
                Some(entry) if score > entry.0 => *entry = (score, id, doc),
                Some(_) => {}
                None => best.push((score, id, doc)),
            }
        }
        best.sort_by(|a, b| b.0.total_cmp(&a.0).then_with(|| a.1.cmp(&b.1)));
        let total = best.len();
        if offset > total {
            return Err(DocsError::BadCursor {
                cursor: cursor.unwrap_or_default().to_owned(),
                reason: "points past the last result",
            });
        }
        let mut snippets = SnippetGenerator::create(&searcher, &*parsed, f.body).map_err(err)?;
        snippets.set_max_num_chars(SNIPPET_CHARS);
        let hits = best
            .into_iter()
            .skip(offset)
            .take(limit)
            .map(|(score, id, doc)| {
                let snippet = snippets.snippet_from_doc(&doc);
                let mut excerpt = plain_snippet(snippet.fragment());
                if excerpt.is_empty() {
                    // The match was in the heading or title: show the section's start.
                    excerpt = plain_snippet(&stored(&doc, f.body))
                        .chars()
                        .take(SNIPPET_CHARS)
                        .collect();
                }
                Hit {
                    id,
                    title: stored(&doc, f.title),
                    kind: stored(&doc, f.kind),
                    score,
                    section: stored(&doc, f.section),
                    lines: stored(&doc, f.lines),
                    snippet: excerpt,
                }
            })
            .collect::<Vec<_>>();
        let next = offset + hits.len();
        Ok(SearchPage {
            next_cursor: (next < total && !hits.is_empty())
                .then(|| Cursor::new(query, next).token()),
            hits,
            total,
        })
    }
}

impl SearchIndex {
    /// Whether `normalized` holds a word the analyzer keeps (not only stop words, operators
    /// and field names).
    fn has_terms(&self, normalized: &str) -> bool {
        let Some(mut analyzer) = self.index.tokenizers().get(schema::TOKENIZER) else {
            return true;
        };
        normalized.split_whitespace().any(|word| {
            let word = word.trim_start_matches(['+', '-']);
            let word = word.split_once(':').map_or(word, |(_, w)| w);
            let mut stream = analyzer.token_stream(word);
            stream.advance()
        })
    }
}

/// The stored text of `field` in `doc` (empty when absent).
fn stored(doc: &TantivyDocument, field: Field) -> String {
    doc.get_first(field)
        .and_then(|v| v.as_str())
        .unwrap_or_default()
        .to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn index() -> (Corpus, SearchIndex) {
        let corpus = Corpus::embedded().unwrap();
        let index = SearchIndex::embedded().unwrap();
        (corpus, index)
    }

    #[test]
    fn the_embedded_index_answers_as_a_fresh_build_does() {
        let (corpus, embedded) = index();
        let built = SearchIndex::build(&corpus).unwrap();
        for query in [
            "session",
            "exit status",
            "scripted gate",
            "frame",
            "json",
            "zzzz",
        ] {
            assert_eq!(
                embedded.search(query, 100, None).unwrap(),
                built.search(query, 100, None).unwrap(),
                "{query}"
            );
        }
    }

    #[test]
    fn known_queries_find_the_right_document_first() {
        let (_, index) = index();
        // (query, the documents any of which may answer first)
        for (query, expected) in [
            ("script format gate", &["scripted-provider"][..]),
            ("frame checksum commit", &["session-format"]),
            ("exit status", &["exit-status", "eval"]),
            (
                "json records message_delta",
                &["eval-json", "reference/ui-intents"],
            ),
            ("install rustup", &["install"]),
            ("front matter", &["docs-format"]),
            ("command line flags", &["reference/cli"]),
            ("no-session temporary store", &["eval", "sessions"]),
            ("retry from an earlier point branch", &["sessions"]),
            ("canonical CBOR negative zero", &["session-format"]),
            ("bash refused untrusted allow process", &["plugins"]),
            ("grep input schema output bounds", &["reference/tools"]),
        ] {
            let page = index.search(query, 5, None).unwrap();
            let first = page.hits.first().map(|h| h.id.as_str());
            assert!(
                first.is_some_and(|f| expected.contains(&f)),
                "query {query:?} gave {:?}, wanted one of {expected:?} first",
                page.hits.iter().map(|h| &h.id).collect::<Vec<_>>()
            );
        }
    }

    #[test]
    fn paging_visits_every_result_exactly_once_in_a_stable_order() {
        let (_, index) = index();
        let query = "smith session";
        let all = index.search(query, 1000, None).unwrap();
        assert!(all.total >= 3);
        let mut seen = Vec::new();
        let mut cursor = None;
        loop {
            let page = index.search(query, 2, cursor.as_deref()).unwrap();
            assert_eq!(page.total, all.total);
            seen.extend(page.hits.iter().map(|h| h.id.clone()));
            match page.next_cursor {
                Some(next) => cursor = Some(next),
                None => break,
            }
        }
        let expected: Vec<_> = all.hits.iter().map(|h| h.id.clone()).collect();
        assert_eq!(seen, expected);
        let again = index.search(query, 1000, None).unwrap();
        assert_eq!(again, all, "ordering is deterministic");
    }

    #[test]
    fn cursors_belong_to_their_query() {
        let (_, index) = index();
        let page = index.search("session", 1, None).unwrap();
        let cursor = page.next_cursor.unwrap();
        assert!(matches!(
            index.search("other", 1, Some(&cursor)),
            Err(DocsError::BadCursor { .. })
        ));
        assert!(index.search("session", 1, Some("zz")).is_err());
        // Malformed query syntax is read leniently.
        assert!(index.search("\"unclosed AND (", 5, None).is_ok());
    }

    #[test]
    fn awkward_queries_never_fail() {
        let (_, index) = index();
        for query in [
            "--no-session",
            "-\"session file\"",
            "-no-session eval",
            "session -eval",
            "+session -\"exit status\" \"frame\"",
            "title:",
            ":::",
            "((((",
            "\"",
            "*",
            "a AND OR NOT b",
            "-",
            "--",
            "🦀 ünïcode",
            "body:\"committed change\" -json",
        ] {
            match index.search(query, 10, None) {
                Ok(_) | Err(DocsError::BadQuery { .. }) => {}
                Err(e) => panic!("{query:?}: {e}"),
            }
        }
        // Unbounded nesting is flattened, never recursed into.
        let nested = format!("{}session{}", "(".repeat(900), ")".repeat(90));
        assert!(index.search(&nested, 10, None).unwrap().total > 0);
        let long = "session ".repeat(200);
        assert!(matches!(
            index.search(&long, 10, None),
            Err(DocsError::BadQuery { .. })
        ));
        for nothing in ["*", "\"\"\"", "(((", "-"] {
            assert!(
                matches!(
                    index.search(nothing, 10, None),
                    Err(DocsError::BadQuery { .. })
                ),
                "{nothing:?} must not match everything"
            );
        }
        let past = Cursor::new("session", 999).token();
        assert!(matches!(
            index.search("session", 10, Some(&past)),
            Err(DocsError::BadCursor { .. })
        ));
        let page = index.search("session -eval", 100, None).unwrap();
        assert!(
            page.hits.iter().all(|h| h.id != "eval"),
            "exclusion of a word works"
        );
    }
}
