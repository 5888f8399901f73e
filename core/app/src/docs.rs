//! Smith's embedded documentation as the plugin host's [`DocsSource`]: what the bundled `docs`
//! tool searches and reads (spec: Documentation and help → Retrieval). The corpus and its
//! search index load on the first call, not at start.

use std::sync::{Arc, OnceLock};

use smith_docs::{Corpus, LineRange, SearchIndex};
use smith_host::{DocHit, DocPage, Docs, DocsSource};

/// The embedded corpus, loaded on first use.
#[derive(Default)]
struct Embedded {
    loaded: OnceLock<Result<(Corpus, SearchIndex), String>>,
}

impl Embedded {
    fn load(&self) -> Result<&(Corpus, SearchIndex), String> {
        self.loaded
            .get_or_init(|| {
                let corpus = Corpus::embedded().map_err(|e| e.to_string())?;
                let index = SearchIndex::embedded().map_err(|e| e.to_string())?;
                Ok((corpus, index))
            })
            .as_ref()
            .map_err(|e| format!("Smith's documentation cannot be read: {e}"))
    }
}

impl DocsSource for Embedded {
    fn search(&self, query: &str, limit: u32) -> Result<Vec<DocHit>, String> {
        let (_, index) = self.load()?;
        let page = index
            .search(query, limit as usize, None)
            .map_err(|e| e.to_string())?;
        Ok(page
            .hits
            .into_iter()
            .map(|h| DocHit {
                line: h
                    .lines
                    .split("..")
                    .next()
                    .and_then(|n| n.parse().ok())
                    .unwrap_or(1),
                id: h.id,
                title: h.title,
                section: h.section,
                snippet: h.snippet,
            })
            .collect())
    }

    fn get(&self, id: &str, offset: u32, limit: u32) -> Result<DocPage, String> {
        let (corpus, _) = self.load()?;
        // Worded for a tool's caller (the model), who names documents by id and lines by
        // offset — not by the command line's `smith docs` and `--lines`.
        let doc = corpus.get(id).map_err(|_| {
            let closest = corpus.closest(id);
            if closest.is_empty() {
                format!("there is no document `{id}`; find one with {{\"search\": \"a few words\"}}")
            } else {
                format!(
                    "there is no document `{id}`; the closest ids are {}, or find one with {{\"search\": \"a few words\"}}",
                    closest
                        .iter()
                        .map(|c| format!("`{c}`"))
                        .collect::<Vec<_>>()
                        .join(", ")
                )
            }
        })?;
        let total = doc.line_count();
        if offset as usize > total.max(1) {
            return Err(format!(
                "offset {offset} is past the end of `{id}`, which has {total} lines; give an offset from 1 to {total}"
            ));
        }
        let start = offset.max(1) as usize;
        let range = LineRange {
            start,
            end: Some(start + limit.max(1) as usize - 1),
        };
        let text = doc.lines(range).map_err(|e| e.to_string())?;
        Ok(DocPage {
            id: doc.id().to_owned(),
            title: doc.front.title.clone(),
            text: text.trim_end_matches('\n').to_owned(),
            offset: u32::try_from(start).unwrap_or(u32::MAX),
            total: u32::try_from(doc.line_count()).unwrap_or(u32::MAX),
        })
    }
}

/// Smith's embedded documentation, shared by every run of the process.
pub fn embedded() -> Docs {
    static SHARED: OnceLock<Arc<Embedded>> = OnceLock::new();
    let source: Arc<dyn DocsSource> = SHARED.get_or_init(Arc::default).clone();
    Docs(Some(source))
}
