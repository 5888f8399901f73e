//! The `smith:plugin/docs` import: Smith's built-in documentation, read-only, for tools granted
//! `docs.read` (spec: Documentation and help → Retrieval — documentation enters model context
//! on demand, bounded, with stable document ids). The corpus itself is the composition root's
//! ([`DocsSource`]); the host only checks the grant and the bounds.

use std::sync::Arc;

use crate::grants::Grant;
use crate::runtime::State;
use crate::runtime::bindings::smith::plugin::docs as wit;

/// The most hits one search returns.
pub const MAX_DOC_HITS: u32 = 20;

/// The most lines one `get` returns.
pub const MAX_DOC_LINES: u32 = 400;

/// The longest query, in characters.
pub const MAX_DOC_QUERY_CHARS: usize = 256;

/// One search hit (see the WIT `doc-hit`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocHit {
    /// The document's stable id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// The heading of the matching section.
    pub section: String,
    /// The 1-based line the section starts at.
    pub line: u32,
    /// A short excerpt.
    pub snippet: String,
}

/// A window of a document's lines (see the WIT `doc-page`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DocPage {
    /// The document's id.
    pub id: String,
    /// Its title.
    pub title: String,
    /// The lines, joined by `\n`.
    pub text: String,
    /// The first line shown (1-based).
    pub offset: u32,
    /// The document's line count.
    pub total: u32,
}

/// A documentation corpus the `docs` import reads: Smith's own, embedded in the binary.
pub trait DocsSource: Send + Sync {
    /// The best hits for `query`, at most `limit`, best first, deterministic.
    ///
    /// # Errors
    /// A sentence saying why the search failed.
    fn search(&self, query: &str, limit: u32) -> Result<Vec<DocHit>, String>;

    /// Document `id`'s lines from `offset` (1-based), at most `limit`.
    ///
    /// # Errors
    /// A sentence naming the unknown id (and the closest known ones) or the bad range.
    fn get(&self, id: &str, offset: u32, limit: u32) -> Result<DocPage, String>;
}

/// The documentation a run's tools may read: a shared [`DocsSource`], or none.
#[derive(Clone, Default)]
pub struct Docs(pub Option<Arc<dyn DocsSource>>);

impl std::fmt::Debug for Docs {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "Docs(available)"
        } else {
            "Docs(none)"
        })
    }
}

impl PartialEq for Docs {
    /// The same source, or none on both sides.
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

impl Eq for Docs {}

impl State {
    fn docs(&self) -> Result<&dyn DocsSource, String> {
        let call = &self.call;
        let plugin = call.plugin.split('#').next().unwrap_or(&call.plugin);
        if !call.granted.grants.contains(&Grant::DocsRead) {
            return Err(format!(
                "plugin {plugin} may not read Smith's documentation: its manifest does not request the `docs.read` grant"
            ));
        }
        call.policy.docs.0.as_deref().ok_or_else(|| {
            "Smith's documentation is not available to tools in this run; `smith docs` reads it"
                .to_owned()
        })
    }
}

impl wit::Host for State {
    fn search(&mut self, query: String, limit: u32) -> Result<Vec<wit::DocHit>, String> {
        if query.chars().count() > MAX_DOC_QUERY_CHARS {
            return Err(format!(
                "the query is longer than {MAX_DOC_QUERY_CHARS} characters; search with a few words"
            ));
        }
        let limit = limit.clamp(1, MAX_DOC_HITS);
        let hits = self.docs()?.search(&query, limit)?;
        Ok(hits
            .into_iter()
            .take(limit as usize)
            .map(|h| wit::DocHit {
                id: h.id,
                title: h.title,
                section: h.section,
                line: h.line,
                snippet: h.snippet,
            })
            .collect())
    }

    fn get(&mut self, id: String, offset: u32, limit: u32) -> Result<wit::DocPage, String> {
        let limit = limit.clamp(1, MAX_DOC_LINES);
        let page = self.docs()?.get(&id, offset.max(1), limit)?;
        Ok(wit::DocPage {
            id: page.id,
            title: page.title,
            text: page.text,
            offset: page.offset,
            total: page.total,
        })
    }
}
