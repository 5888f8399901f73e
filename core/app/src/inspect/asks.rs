//! The questions a session's tool calls asked that have no recorded answer yet, read from the
//! committed file alone: what a frontend observing another process's work offers its client
//! (the process running the call is the one that can take the answer).

use std::path::Path;

use serde::Serialize;
use smith::EntryId;
use smith_store::{CommitReader, Record};

/// A question recorded (an `ask.confirm`, `ask.select` or `ask.input` effect intent) whose
/// answer is not (yet) committed.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct OpenQuestion {
    /// The request's id (the decimal number of the entry holding the question), as the
    /// request intent carried it.
    pub request_id: String,
    /// The entry holding the question.
    pub entry: EntryId,
    /// `confirm_request`, `select_request` or `input_request`.
    pub kind: &'static str,
    /// The recorded question: `prompt` and `default`, `options` or `secret`.
    pub question: serde_json::Value,
    /// What it is about (the tool, for the permission policy's questions).
    pub target: Option<String>,
}

/// The questions of the session at `path` with no committed answer, in the order asked.
///
/// # Errors
/// The store's error when the file cannot be read.
pub fn open_questions(path: &Path) -> Result<Vec<OpenQuestion>, smith_store::Error> {
    let mut open: Vec<OpenQuestion> = Vec::new();
    let mut reader = CommitReader::open(path)?;
    while let Some(change) = reader.next_change()? {
        for entry in change.entries {
            match &entry.record {
                Record::EffectIntent(i) => {
                    let kind = match i.effect.as_str() {
                        "ask.confirm" => "confirm_request",
                        "ask.select" => "select_request",
                        "ask.input" => "input_request",
                        _ => continue,
                    };
                    open.push(OpenQuestion {
                        request_id: entry.id.0.to_string(),
                        entry: entry.id,
                        kind,
                        question: i.input.clone(),
                        target: i.target.clone(),
                    });
                }
                Record::EffectCompletion(_) => {
                    if let Some(pair) = entry.pair {
                        open.retain(|q| q.entry != pair);
                    }
                }
                _ => {}
            }
        }
    }
    Ok(open)
}
