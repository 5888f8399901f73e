//! Static HTML site generated from the docs corpus (grown by the docs issue).
//!
//! Will render every corpus document to one page with working links and a search page that
//! works from a prebuilt JSON index with plain JavaScript. Nothing is implemented yet.
