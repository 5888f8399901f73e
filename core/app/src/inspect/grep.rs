//! `grep`: recorded content searched incrementally, one committed change at a time, each
//! match identified by session and entry (spec: Session inspection).

use std::ops::ControlFlow;
use std::path::Path;

use smith::{ContentBlock, SessionId};
use smith_store::{CommitReader, Record, Skipped};

use super::view::{MatchView, kind_label};

/// Largest compiled pattern, in bytes of the regex automaton.
const PATTERN_SIZE_LIMIT: usize = 1 << 20;

/// A compiled search pattern (Rust `regex` syntax), matched per line.
#[derive(Clone, Debug)]
pub struct Pattern(regex::Regex);

/// A pattern that does not compile.
#[derive(Debug, thiserror::Error)]
#[error("`{shown}` is not a valid pattern: {reason}")]
pub struct PatternError {
    /// The pattern, cut at 80 characters (`…` when cut).
    pub shown: String,
    /// What the regex compiler said.
    pub reason: regex::Error,
}

impl Pattern {
    /// Compile `pattern`, refusing one whose automaton would exceed 1 MiB.
    ///
    /// # Errors
    /// [`PatternError`] naming the pattern and why.
    pub fn new(pattern: &str) -> Result<Self, PatternError> {
        regex::RegexBuilder::new(pattern)
            .size_limit(PATTERN_SIZE_LIMIT)
            .build()
            .map(Self)
            .map_err(|reason| {
                let mut shown: String = pattern.chars().take(80).collect();
                if shown.len() < pattern.len() {
                    shown.push('…');
                }
                PatternError { shown, reason }
            })
    }

    /// Whether `line` matches.
    pub fn is_match(&self, line: &str) -> bool {
        self.0.is_match(line)
    }
}

/// The searchable text of a record, part by part: message text, thinking and tool calls
/// (name and arguments), tool output, failures, effect targets and output, queued input,
/// keys, abort and withdrawal reasons, checkpoint requirements, attempt models, context-edit
/// replacements, recorded instructions and their sources, compaction summaries, snapshot ids
/// and project roots of working-tree changes.
pub fn searchable_texts(record: &Record) -> Vec<String> {
    match record {
        Record::Message(m) => m
            .message
            .content
            .iter()
            .map(|b| match b {
                ContentBlock::Text { text } | ContentBlock::Thinking { text, .. } => text.clone(),
                ContentBlock::ToolCall(c) => format!("{} {}", c.name, c.arguments),
                // Its media type, never its bytes.
                ContentBlock::Image(i) => i.media_type.clone(),
            })
            .collect(),
        Record::ToolResult(r) => vec![r.result.output.clone()],
        Record::RunEnd(r) => r.error.iter().cloned().collect(),
        Record::EffectIntent(r) => vec![format!(
            "{} {}",
            r.effect,
            r.target.as_deref().unwrap_or("")
        )],
        Record::EffectCompletion(r) => vec![String::from_utf8_lossy(&r.output).into_owned()],
        // Its input is the user message's text, matched there (queued input has no message
        // until it is delivered, so its own text counts); the key is its own.
        Record::Submission(r) => r
            .dedup_key
            .iter()
            .cloned()
            .chain(r.delivery.map(|_| r.input.clone()))
            .collect(),
        Record::Abort(r) => vec![r.reason.clone()],
        Record::Withdrawal(r) => vec![r.reason.clone()],
        Record::ClientCall(r) => vec![r.tool.clone(), r.arguments.to_string()],
        Record::Checkpoint(r) => r.requires.clone(),
        Record::Attempt(a) => vec![format!("{} {}", a.selection, a.model)],
        Record::AttemptFailed(f) => vec![f.message.clone()],
        Record::SecretRegistration(r) => vec![format!(
            "{} {} {}",
            r.name,
            r.label.as_deref().unwrap_or_default(),
            r.source
        )],
        Record::ContextEdit(e) => e
            .edits
            .iter()
            .filter_map(|op| match &op.change {
                smith_store::EditChange::Replace(text) => Some(text.clone()),
                smith_store::EditChange::Omit => None,
            })
            .collect(),
        Record::Compaction(c) => vec![c.summary.clone()],
        Record::EffectVerdict(v) => vec![v.note.clone()],
        Record::State(s) => vec![format!(
            "{} {} {}",
            s.owner,
            s.name,
            s.value
                .as_ref()
                .map(ToString::to_string)
                .unwrap_or_default()
        )],
        Record::Vcs(v) => vec![format!("{} {} {}", v.before, v.after, v.root)]
            .into_iter()
            .chain(v.target.clone())
            .collect(),
        Record::RequestInput(smith_store::RequestInput::Piece { text, source, .. }) => {
            source.iter().cloned().chain([text.clone()]).collect()
        }
        Record::SessionStart(_)
        | Record::ModelChange(_)
        | Record::RequestInput(smith_store::RequestInput::Tools(_))
        | Record::Request(_)
        | Record::Unknown { .. } => Vec::new(),
    }
}

/// How searching one session ended.
#[derive(Debug, Default)]
pub struct GrepOutcome {
    /// Damaged changes the read skipped (everything else was searched).
    pub skipped: Vec<Skipped>,
    /// The consumer asked to stop.
    pub stopped: bool,
}

/// Search session `id` at `path` for lines matching `pattern`, giving each match to
/// `on_match` in entry order; it may stop the search.
///
/// # Errors
/// The store's error when the file cannot be read (damage that hides frame boundaries
/// among them); matches before it were given.
pub fn grep_session(
    path: &Path,
    id: SessionId,
    pattern: &Pattern,
    on_match: &mut dyn FnMut(MatchView<'_>) -> ControlFlow<()>,
) -> Result<GrepOutcome, smith_store::Error> {
    let mut reader = CommitReader::open(path)?;
    while let Some(change) = reader.next_change()? {
        for entry in change.entries {
            let kind = kind_label(&entry.record);
            for text in searchable_texts(&entry.record) {
                for line in text.lines().filter(|l| pattern.is_match(l)) {
                    let view = MatchView {
                        session: id,
                        entry: entry.id,
                        kind,
                        line,
                    };
                    if on_match(view).is_break() {
                        return Ok(GrepOutcome {
                            skipped: Vec::new(),
                            stopped: true,
                        });
                    }
                }
            }
        }
    }
    Ok(GrepOutcome {
        skipped: reader.skipped().to_vec(),
        stopped: false,
    })
}
