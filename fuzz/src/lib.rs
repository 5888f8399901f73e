//! The properties Smith's coverage-guided fuzz targets check, one function per target. Each
//! takes arbitrary bytes; a panic (an assertion included) is a finding.
//!
//! - [`session`]: a session file read every way readers read it — the full scan, the commit
//!   reader, the indexed snapshot reader with ranges and branches, and an entry payload
//!   decoded in memory — never panics, whatever the bytes.
//! - [`sse`]: each SSE provider codec's decoder, fed the bytes in chunks of a size the input
//!   chooses, ends the stream with exactly one terminal event, last, emits nothing after it,
//!   and decodes the same events however the bytes are split (the decoder's contract: any
//!   split, mid-line or mid-character).
//! - [`kdl`]: every KDL loader — configuration files (and their resolution), catalog texts as
//!   a user's `models.kdl` and as a plugin's block, provider scripts, aliases and groups with
//!   their resolution — never panics, whatever the text.

use std::path::PathBuf;

use smith::{EntryId, StreamEvent};
use smith_plugin_sdk::decoder::Stream;

/// A per-process scratch file for session bytes.
fn scratch() -> PathBuf {
    std::env::temp_dir().join(format!("smith-fuzz-{}.smith", std::process::id()))
}

/// Read session-file bytes every way the store reads them.
pub fn session(data: &[u8]) {
    let _ = smith_store::decode_entry_payload(data);
    let path = scratch();
    if std::fs::write(&path, data).is_err() {
        return;
    }
    let _ = smith_store::read_session(&path);
    if let Ok(mut reader) = smith_store::CommitReader::open(&path) {
        while let Ok(Some(_)) = reader.next_change() {}
        let _ = reader.state();
    }
    for verified in [false, true] {
        let opened = if verified {
            smith_store::SessionReader::open_verified(&path)
        } else {
            smith_store::SessionReader::open(&path)
        };
        if let Ok(mut reader) = opened {
            let state = reader.state();
            let _ = reader.range(EntryId(1), 64);
            let _ = reader.range(EntryId(state.last_id.saturating_sub(8)), 64);
            if let Some(leaf) = state.leaf_id() {
                let _ = reader.branch(leaf, 64);
                let _ = reader.parent_of(leaf);
                let _ = reader.entry(leaf);
            }
        }
    }
}

/// Every event `S` decodes from `body` fed in chunks of `chunk` bytes, then its end.
fn decode<S: Stream>(body: &[u8], chunk: usize) -> (Vec<StreamEvent>, S) {
    let mut stream = S::default();
    let mut out = Vec::new();
    for piece in body.chunks(chunk.max(1)) {
        out.extend(stream.push(piece));
    }
    out.extend(stream.finish());
    (out, stream)
}

/// The SSE decoder properties for codec `S`.
fn check<S: Stream>(name: &str, body: &[u8], chunk: usize) {
    let (split, mut stream) = decode::<S>(body, chunk);
    let terminals: Vec<usize> = split
        .iter()
        .enumerate()
        .filter(|(_, e)| e.is_terminal())
        .map(|(i, _)| i)
        .collect();
    assert_eq!(
        terminals,
        [split.len() - 1],
        "{name}: the stream must end with exactly one terminal event, last: {split:?}"
    );
    assert!(
        stream.push(b"data: {}\n\n").is_empty() && stream.finish().is_empty(),
        "{name}: nothing after the terminal event"
    );
    let (whole, _) = decode::<S>(body, body.len());
    assert_eq!(
        split, whole,
        "{name}: chunks of {chunk} bytes decode otherwise than the whole body"
    );
}

/// Feed an SSE codec: the first byte chooses the codec and the chunk size, the rest is the
/// response body.
pub fn sse(data: &[u8]) {
    let Some((&choice, body)) = data.split_first() else {
        return;
    };
    let chunk = 1 + usize::from(choice >> 2) % 32;
    match choice % 4 {
        0 => check::<smith_anthropic::ResponseStream>("anthropic", body, chunk),
        1 => check::<smith_openai::ResponseStream>("openai", body, chunk),
        2 => check::<smith_openai_compatible::ResponseStream>("openai-compatible", body, chunk),
        _ => check::<smith_google::ResponseStream>("google", body, chunk),
    }
}

/// Load a KDL text: the first byte chooses the loader, the rest is the text (UTF-8 only: every
/// loader reads text, and its caller refuses other bytes first).
pub fn kdl(data: &[u8]) {
    let Some((&choice, rest)) = data.split_first() else {
        return;
    };
    let Ok(text) = std::str::from_utf8(rest) else {
        return;
    };
    let _ = smith_config::kdl::nesting(text);
    match choice % 5 {
        0 => {
            if let Ok(entries) = smith_config::parse_file(text, "fuzz.kdl") {
                let mut resolver = smith_config::Resolver::with_defaults();
                let _ = resolver.add_file(smith_config::Level::User, "fuzz.kdl", &entries);
                let _ = resolver.resolve();
            }
        }
        1 => {
            let _ = smith_ai::catalog::parse(text, "models.kdl", None);
        }
        2 => {
            let _ = smith_ai::catalog::parse(text, "plugin:p@1", Some("p"));
        }
        3 => {
            let _ = smith_ai::scripted::Script::parse(text, "fuzz.kdl", "t", None);
        }
        _ => {
            let table = smith_ai::routing::RouteTable::parse(text, "models.kdl");
            for name in ["a", "g", "fast", "p/m"] {
                let _ = table.resolve(name);
            }
        }
    }
}
