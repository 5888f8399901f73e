//! Smith's documentation corpus (grown by the docs issue).
//!
//! The hand-written documents live in `docs-corpus/docs/` as markdown with front matter
//! (`id`, `title`, `kind`, `tags`). The docs issue adds the generated reference, the embedded
//! compressed corpus, tantivy search and `smith docs`. Nothing is compiled from them yet.
