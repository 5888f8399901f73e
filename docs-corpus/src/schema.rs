//! The search schema and indexing rules. Shared with `build.rs` (included by path), which
//! builds the embedded index with exactly these rules; uses only `tantivy` and `std`.

use tantivy::schema::{
    Field, IndexRecordOption, STORED, STRING, Schema, TextFieldIndexing, TextOptions,
};
use tantivy::{IndexWriter, TantivyDocument, doc};

/// The fields of the search index.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Fields {
    /// Document id (exact, stored).
    pub(crate) id: Field,
    /// Title (English stems, stored).
    pub(crate) title: Field,
    /// Kind (exact, stored).
    pub(crate) kind: Field,
    /// Tags (English stems).
    pub(crate) tags: Field,
    /// Body (English stems, stored for snippets).
    pub(crate) body: Field,
}

/// The schema and its fields.
pub(crate) fn schema() -> (Schema, Fields) {
    let stemmed = |stored: bool| {
        let opts = TextOptions::default().set_indexing_options(
            TextFieldIndexing::default()
                .set_tokenizer("en_stem")
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
        body: builder.add_text_field("body", stemmed(true)),
    };
    (builder.build(), fields)
}

/// One document to index: id, title, kind, tags, body.
pub(crate) type Row<'a> = (&'a str, &'a str, &'a str, &'a [String], &'a str);

/// Add `rows` in order and commit. One indexing thread keeps document order — and so the
/// order of equal-score hits — stable.
///
/// # Errors
/// The engine's error.
pub(crate) fn index_rows<'a>(
    writer: &mut IndexWriter<TantivyDocument>,
    fields: Fields,
    rows: impl IntoIterator<Item = Row<'a>>,
) -> tantivy::Result<()> {
    for (id, title, kind, tags, body) in rows {
        writer.add_document(doc!(
            fields.id => id,
            fields.title => title,
            fields.kind => kind,
            fields.tags => tags.join(" "),
            fields.body => body,
        ))?;
    }
    writer.commit()?;
    Ok(())
}

/// Memory budget of the indexing thread, in bytes (tantivy's minimum).
pub(crate) const WRITER_BUDGET: usize = 15_000_000;
