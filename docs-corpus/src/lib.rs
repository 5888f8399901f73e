//! Smith's documentation corpus.
//!
//! Every document under `docs-corpus/docs/` (markdown with front matter: `id`, `title`, `kind`,
//! `tags`; format in the document `docs-format`) is bundled by `build.rs`, compressed with zstd
//! and embedded in the binary, so documentation works offline with no checkout, credentials or
//! session. [`Corpus::embedded`] opens it; [`SearchIndex`] searches it with tantivy;
//! [`render_terminal`] renders markdown for a terminal; [`mod@reference`] holds the generated
//! reference machinery and its drift check; [`man_pages`] are the embedded manual pages.
//!
//! This crate never prints and never panics on bad input: every failure is a [`DocsError`]
//! that names the offending value and the closest valid ones.

mod corpus;
mod error;
mod frontmatter;
mod man;
pub mod reference;
mod render;
mod schema;
mod search;
mod sections;

pub use corpus::{Corpus, Document, LineRange, Link};
pub use error::DocsError;
pub use frontmatter::{FrontMatter, KINDS, parse as parse_front_matter};
pub use man::man_pages;
pub use render::render_terminal;
pub use search::{Cursor, Hit, MAX_QUERY_CHARS, SearchIndex, SearchPage};
