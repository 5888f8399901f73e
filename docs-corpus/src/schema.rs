//! The search schema and indexing rules. Shared with `build.rs` (included by path, with
//! `sections.rs`), which builds the embedded index with exactly these rules; uses only
//! `tantivy` and `std`.
//!
//! The index holds one entry per document *section* ([`super::sections`]), so a search
//! answers with the section that matches, not a document's start. Text is split into words,
//! lowercased, stripped of [`STOP_WORDS`] (so a question's "how do I …" matches nothing by
//! itself) and reduced to English stems.

use tantivy::schema::{
    Field, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::tokenizer::{
    Language, LowerCaser, RemoveLongFilter, SimpleTokenizer, Stemmer, StopWordFilter, TextAnalyzer,
};
use tantivy::{Index, IndexWriter, TantivyDocument, doc};

/// The name of the analyzer every text field uses ([`register_tokenizer`]).
pub(crate) const TOKENIZER: &str = "smith_en";

/// Words that carry no meaning in a search: Lucene's English stop words, and the function
/// words of a question ("how do I …", "what does … mean", "where are …").
pub(crate) const STOP_WORDS: &[&str] = &[
    "a", "an", "and", "are", "as", "at", "be", "but", "by", "for", "if", "in", "into", "is", "it",
    "no", "not", "of", "on", "or", "such", "that", "the", "their", "then", "there", "these",
    "they", "this", "to", "was", "will", "with", "how", "do", "does", "did", "i", "me", "my",
    "you", "your", "we", "our", "us", "what", "where", "when", "which", "who", "why", "can",
    "could", "should", "would", "am", "been", "has", "have", "had", "its", "so", "from",
];

/// Register the analyzer [`TOKENIZER`] names on `index` (a fresh or an opened one).
pub(crate) fn register_tokenizer(index: &Index) {
    let analyzer = TextAnalyzer::builder(SimpleTokenizer::default())
        .filter(RemoveLongFilter::limit(40))
        .filter(LowerCaser)
        .filter(StopWordFilter::remove(
            STOP_WORDS.iter().map(|w| (*w).to_owned()),
        ))
        .filter(Stemmer::new(Language::English))
        .build();
    index.tokenizers().register(TOKENIZER, analyzer);
}

/// The fields of the search index.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fields {
    /// Document id (exact, stored).
    pub(crate) id: Field,
    /// The document's title (stemmed, stored).
    pub(crate) title: Field,
    /// Kind (exact, stored).
    pub(crate) kind: Field,
    /// Tags (stemmed).
    pub(crate) tags: Field,
    /// The section's heading (stemmed).
    pub(crate) heading: Field,
    /// The heading of a document's first section (stemmed): its title again, usually, so it
    /// is weighted as a title rather than as a section heading.
    pub(crate) lead: Field,
    /// The section's heading as written, for display (stored).
    pub(crate) section: Field,
    /// The section's body lines, `A..B` (stored).
    pub(crate) lines: Field,
    /// The section's text (stemmed, stored for snippets).
    pub(crate) body: Field,
}

/// The schema and its fields.
pub(crate) fn schema() -> (Schema, Fields) {
    let stemmed = |stored: bool| {
        let opts = TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer(TOKENIZER)
                .set_index_option(IndexRecordOption::WithFreqsAndPositions),
        );
        if stored { opts.set_stored() } else { opts }
    };
    let mut builder = Schema::builder();
    let fields = Fields {
        id: builder.add_text_field("id", STRING | STORED),
        title: builder.add_text_field("title", stemmed(true)),
        kind: builder.add_text_field("kind", STRING | STORED),
        tags: builder.add_text_field("tags", stemmed(false)),
        heading: builder.add_text_field("heading", stemmed(false)),
        lead: builder.add_text_field("lead", stemmed(false)),
        section: builder.add_text_field("section", STORED),
        lines: builder.add_text_field("lines", STORED),
        body: builder.add_text_field("body", stemmed(true)),
    };
    (builder.build(), fields)
}

/// One document to index: id, title, kind, tags, body.
pub(crate) type Row<'a> = (&'a str, &'a str, &'a str, &'a [String], &'a str);

/// Add the sections of `rows` in order and commit. One indexing thread keeps document order —
/// and so the order of equal-score hits — stable.
///
/// # Errors
/// The engine's error.
pub(crate) fn index_rows<'a>(
    writer: &mut IndexWriter<TantivyDocument>,
    fields: Fields,
    rows: impl IntoIterator<Item = Row<'a>>,
) -> tantivy::Result<()> {
    for (id, title, kind, tags, body) in rows {
        for (index, section) in super::sections::sections(body, title)
            .into_iter()
            .enumerate()
        {
            // A heading that is one code span (`context_use`, `smith sessions`) names an item
            // rather than describing a topic: its words are searched as text, unboosted, so
            // a generic word of an identifier ("use", "change") does not outrank prose.
            let code = section.heading.len() > 2
                && section.heading.starts_with('`')
                && section.heading.ends_with('`')
                && section.heading.matches('`').count() == 2;
            let lead = if index == 0 { section.heading } else { "" };
            let (heading, text) = if index == 0 {
                ("", section.text.clone())
            } else if code {
                ("", format!("{}\n{}", section.heading, section.text))
            } else {
                (section.heading, section.text.clone())
            };
            writer.add_document(doc!(
                fields.id => id,
                fields.title => title,
                fields.kind => kind,
                fields.tags => tags.join(" "),
                fields.heading => heading,
                fields.lead => lead,
                fields.section => section.heading,
                fields.lines => format!("{}..{}", section.first_line, section.last_line),
                fields.body => text,
            ))?;
        }
    }
    writer.commit()?;
    Ok(())
}

/// Memory budget of the indexing thread, in bytes (tantivy's minimum).
pub(crate) const WRITER_BUDGET: usize = 15_000_000;
