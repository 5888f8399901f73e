//! Docs errors.

/// A docs failure. Messages name the offending value and what to do.
#[derive(Debug, thiserror::Error)]
pub enum DocsError {
    /// No document has this id.
    #[error("no document has the id `{id}`{}; list the ids with `smith docs list`", closest_hint(.closest))]
    UnknownId {
        /// The id asked for.
        id: String,
        /// The closest existing ids, best first (at most 3).
        closest: Vec<String>,
    },
    /// A line range outside the document or malformed.
    #[error("line range `{range}` is not valid for `{id}`: {reason}")]
    BadRange {
        /// The document.
        id: String,
        /// The range as given.
        range: String,
        /// What is wrong and what is valid.
        reason: String,
    },
    /// A continuation token that does not belong to this query, or is malformed.
    #[error(
        "cursor `{cursor}` {reason}; pass the `next_cursor` printed by the previous page of the same query"
    )]
    BadCursor {
        /// The token as given.
        cursor: String,
        /// What is wrong.
        reason: &'static str,
    },
    /// A query that cannot be searched.
    #[error("the query cannot be searched: {reason}")]
    BadQuery {
        /// What is wrong and what to do.
        reason: String,
    },
    /// The embedded corpus could not be read (a build defect).
    #[error("the embedded documentation is damaged ({0}); reinstall Smith")]
    Damaged(String),
    /// The search engine failed.
    #[error("documentation search failed: {0}")]
    Search(String),
}

fn closest_hint(closest: &[String]) -> String {
    if closest.is_empty() {
        String::new()
    } else {
        format!(" (closest: {})", closest.join(", "))
    }
}
