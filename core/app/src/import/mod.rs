//! Importing another tool's session file (`smith sessions import`): a Codex CLI rollout, a
//! Claude Code project session or a pi session becomes a new Smith session that continues like
//! any other (spec: Sessions — "Externally managed entries can initialize a session view").
//!
//! Each format module reads its file into a [`Transcript`] — user prompts, model responses
//! (text, thinking, tool calls, the model, usage, stop reason) and tool results, as a tree when
//! the format has one — and [`write()`] turns it into Smith's records: each prompt a
//! `submission` with its user `message`, each response an assistant `message`, each result a
//! `tool_result`, and a `run_end` where a turn ends, all dated by the source. The
//! `session_start` records where it came from ([`smith_store::Imported`]): format, version,
//! file hash, and what could not be carried over.
//!
//! Reading goes a line at a time and is bounded ([`MAX_FILE_BYTES`], [`MAX_LINE_BYTES`]); the
//! file is held whole (as JSON values, then the transcript) before anything is written;
//! a file that is not one of the formats, names a version this build does not read, or is
//! malformed gets an [`ImportError`] naming the line, and nothing is written. A torn last line
//! (no newline, incomplete JSON: the tool was writing) is left out and listed.

mod claude;
mod codex;
mod lines;
mod own;
mod pi;
mod write;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use smith::{ContentBlock, ModelRef, StopReason, ToolResult, Usage};

pub use own::{Export, Exported};
pub use write::{WriteError, Written, write};

/// The largest file imported, in bytes.
pub const MAX_FILE_BYTES: u64 = 1 << 30;
/// The longest line read, in bytes.
pub const MAX_LINE_BYTES: usize = 64 << 20;

/// What a file held.
#[derive(Clone, Debug, PartialEq)]
pub enum Source {
    /// Another tool's session, in Smith's terms.
    Foreign(Transcript),
    /// Smith's own export, restored as the session it is of.
    Smith(Export),
}

impl Source {
    /// The format: `smith`, or the foreign one's.
    #[must_use]
    pub fn format(&self) -> &'static str {
        match self {
            Self::Foreign(t) => t.format,
            Self::Smith(_) => "smith",
        }
    }

    /// The version the file names.
    #[must_use]
    pub fn version(&self) -> Option<&str> {
        match self {
            Self::Foreign(t) => t.version.as_deref(),
            Self::Smith(e) => e.version.as_deref(),
        }
    }

    /// What could not be carried over (none for Smith's own export).
    #[must_use]
    pub fn dropped(&self) -> Vec<String> {
        match self {
            Self::Foreign(t) => t.dropped_phrases(),
            Self::Smith(_) => Vec::new(),
        }
    }
}

/// A session read from another tool's file, in Smith's terms.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Transcript {
    /// The format: `codex`, `claude-code` or `pi`.
    pub format: &'static str,
    /// The version the file names (format version, else the tool's), when it names one.
    pub version: Option<String>,
    /// The working directory the session ran in, when the file names it.
    pub cwd: Option<String>,
    /// The conversation in file order; a node's parent comes before it.
    pub nodes: Vec<Node>,
    /// The node the source's current branch ends at (`None`: the last node).
    pub leaf: Option<usize>,
    /// What could not be carried over: a phrase and how many times it was met.
    pub dropped: BTreeMap<String, u64>,
}

/// One message of a [`Transcript`].
#[derive(Clone, Debug, PartialEq)]
pub struct Node {
    /// The node this one follows (`None`: the conversation's start).
    pub parent: Option<usize>,
    /// When it was written: milliseconds since the Unix epoch, UTC, when the file says.
    pub timestamp_ms: Option<i64>,
    /// What it holds.
    pub item: Item,
}

/// What a [`Node`] holds.
#[derive(Clone, Debug, PartialEq)]
pub enum Item {
    /// A prompt the person wrote: it starts a turn.
    User {
        /// The prompt's text.
        text: String,
    },
    /// One model response.
    Assistant {
        /// Its text, thinking and tool calls, in order.
        content: Vec<ContentBlock>,
        /// The model that wrote it, when known.
        model: Option<ModelRef>,
        /// Why it ended, when known.
        stop_reason: Option<StopReason>,
        /// Its usage, when reported.
        usage: Option<Usage>,
    },
    /// The result of a tool call.
    ToolResult(ToolResult),
}

impl Transcript {
    fn new(format: &'static str) -> Self {
        Self {
            format,
            ..Self::default()
        }
    }

    /// Note that one `what` could not be carried over.
    pub(crate) fn drop_one(&mut self, what: impl Into<String>) {
        *self.dropped.entry(what.into()).or_default() += 1;
    }

    /// Note that `n` of `what` could not be carried over (nothing when `n` is 0).
    pub(crate) fn drop_many(&mut self, what: &str, n: usize) {
        if n > 0 {
            *self.dropped.entry(what.to_owned()).or_default() += n as u64;
        }
    }

    /// Add `item` after `parent`; its index.
    pub(crate) fn push(
        &mut self,
        parent: Option<usize>,
        timestamp_ms: Option<i64>,
        item: Item,
    ) -> usize {
        self.nodes.push(Node {
            parent,
            timestamp_ms,
            item,
        });
        self.nodes.len() - 1
    }

    /// Drop each tool result whose call is not on its branch (a file that lost or reordered
    /// lines): a provider refuses a result that answers no call. What followed it follows
    /// its parent instead.
    pub(crate) fn check_calls(&mut self) {
        let keep: Vec<bool> = (0..self.nodes.len())
            .map(|i| self.answers_a_call(i))
            .collect();
        let dropped = keep.iter().filter(|k| !**k).count();
        if dropped == 0 {
            return;
        }
        self.drop_many("tool results whose call is not on their branch", dropped);
        // Old index → new index (a dropped node: its parent's).
        let mut index: Vec<Option<usize>> = vec![None; self.nodes.len()];
        let mut nodes = Vec::with_capacity(self.nodes.len() - dropped);
        for (i, node) in std::mem::take(&mut self.nodes).into_iter().enumerate() {
            let parent = node.parent.and_then(|p| index[p]);
            if keep[i] {
                index[i] = Some(nodes.len());
                nodes.push(Node { parent, ..node });
            } else {
                index[i] = parent;
            }
        }
        self.leaf = self.leaf.and_then(|l| index[l]);
        self.nodes = nodes;
    }

    /// Whether node `i` is no tool result, or one whose call a response before it in its turn
    /// made (the walk stops at the turn's prompt, so it costs a turn, not a history).
    fn answers_a_call(&self, i: usize) -> bool {
        let Item::ToolResult(result) = &self.nodes[i].item else {
            return true;
        };
        let mut at = self.nodes[i].parent;
        while let Some(p) = at {
            if matches!(self.nodes[p].item, Item::User { .. }) {
                return false;
            }
            if let Item::Assistant { content, .. } = &self.nodes[p].item
                && content
                    .iter()
                    .any(|b| matches!(b, ContentBlock::ToolCall(c) if c.id == result.call_id))
            {
                return true;
            }
            at = self.nodes[p].parent;
        }
        false
    }

    /// The phrases of [`Transcript::dropped`], each with its count.
    #[must_use]
    pub fn dropped_phrases(&self) -> Vec<String> {
        self.dropped
            .iter()
            .map(|(what, n)| format!("{n} × {what}"))
            .collect()
    }
}

/// Why a file could not be imported. Nothing was written.
#[derive(Debug, thiserror::Error)]
pub enum ImportError {
    /// The file could not be opened or read.
    #[error("cannot read `{}`: {source}", path.display())]
    Io {
        /// The file.
        path: PathBuf,
        /// The operating system's answer.
        source: std::io::Error,
    },
    /// The file is larger than [`MAX_FILE_BYTES`], or a line longer than [`MAX_LINE_BYTES`].
    #[error("`{}` is too large to import: {what}", path.display())]
    TooLarge {
        /// The file.
        path: PathBuf,
        /// Which bound it passed.
        what: String,
    },
    /// The file is none of the formats read.
    #[error("`{}` is not a session file this Smith imports ({found}); it reads Smith's own export (`smith sessions export ID`), Codex CLI rollouts (`~/.codex/sessions/…/rollout-*.jsonl`), Claude Code sessions (`~/.claude/projects/…/*.jsonl`) and pi sessions (`~/.pi/agent/sessions/…/*.jsonl`)", path.display())]
    UnknownFormat {
        /// The file.
        path: PathBuf,
        /// What its first record looks like.
        found: String,
    },
    /// The file names a format version this build does not read.
    #[error("`{}` is a {format} session of format version {version}, which this Smith does not read (it reads {supported})", path.display())]
    UnsupportedVersion {
        /// The file.
        path: PathBuf,
        /// The format.
        format: &'static str,
        /// The version it names.
        version: String,
        /// The versions read.
        supported: &'static str,
    },
    /// A line is not what the format allows.
    #[error("`{}` line {line}: {reason}", path.display())]
    Malformed {
        /// The file.
        path: PathBuf,
        /// The 1-based line number.
        line: u64,
        /// What is wrong.
        reason: String,
    },
    /// The file holds no prompt or response to import.
    #[error("`{}` holds no conversation to import (no prompt, response or tool result)", path.display())]
    Empty {
        /// The file.
        path: PathBuf,
    },
}

/// One JSON line of a source file, with its 1-based number.
pub(crate) struct Line {
    pub(crate) number: u64,
    pub(crate) value: serde_json::Value,
}

/// Read `path` whole (the format found from its first records), with the SHA-256 of its
/// bytes. `-` reads standard input.
///
/// # Errors
/// [`ImportError`]; nothing is written in any case.
pub fn read(path: &Path) -> Result<(Source, String), ImportError> {
    let io = |source| ImportError::Io {
        path: path.to_owned(),
        source,
    };
    let file = if path.as_os_str() == "-" {
        std::fs::File::open("/dev/stdin").map_err(io)?
    } else {
        std::fs::File::open(path).map_err(io)?
    };
    let len = file.metadata().map_err(io)?.len();
    if len > MAX_FILE_BYTES {
        return Err(ImportError::TooLarge {
            path: path.to_owned(),
            what: format!("{len} bytes, over the bound of {MAX_FILE_BYTES}"),
        });
    }
    let mut lines = lines::Lines::new(path, file);
    // The first records decide the format; the rest are read one at a time.
    let mut head = Vec::new();
    while head.len() < DETECT_LINES {
        match lines.next() {
            Some(line) => head.push(line?),
            None => break,
        }
    }
    let Some(first) = head.first() else {
        return Err(ImportError::Empty {
            path: path.to_owned(),
        });
    };
    if own::is_export(&first.value) {
        let export = {
            let mut all = head.into_iter().map(Ok).chain(&mut lines);
            own::read(path, &mut all)?
        };
        if let Some(bytes) = lines.torn() {
            return Err(ImportError::Malformed {
                path: path.to_owned(),
                line: lines.number(),
                reason: format!(
                    "a torn last line ({bytes} bytes): the export was cut, so the session would not be whole"
                ),
            });
        }
        return Ok((Source::Smith(export), lines.sha256()));
    }
    let format = detect(&head);
    let found = describe(&first.value);
    let mut transcript = {
        let mut all = head.into_iter().map(Ok).chain(&mut lines);
        match format {
            Some(Format::Codex) => codex::read(path, &mut all)?,
            Some(Format::ClaudeCode) => claude::read(path, &mut all)?,
            Some(Format::Pi) => pi::read(path, &mut all)?,
            None => {
                return Err(ImportError::UnknownFormat {
                    path: path.to_owned(),
                    found,
                });
            }
        }
    };
    if let Some(bytes) = lines.torn() {
        transcript.drop_one(format!(
            "torn last line ({bytes} bytes, the tool was writing it)"
        ));
    }
    transcript.check_calls();
    if transcript.nodes.is_empty() {
        return Err(ImportError::Empty {
            path: path.to_owned(),
        });
    }
    Ok((Source::Foreign(transcript), lines.sha256()))
}

/// How many first records the format is found from.
const DETECT_LINES: usize = 64;

/// The lines a format reader is given, in order: each a JSON object, or why the file stopped.
pub(crate) type LineSource<'a> = dyn Iterator<Item = Result<Line, ImportError>> + 'a;

enum Format {
    Codex,
    ClaudeCode,
    Pi,
}

/// The format of a file from its first records.
fn detect(lines: &[Line]) -> Option<Format> {
    let first = &lines.first()?.value;
    let kind = first.get("type").and_then(|t| t.as_str());
    if kind == Some("session") && first.get("version").is_some() && first.get("id").is_some() {
        return Some(Format::Pi);
    }
    if first.get("payload").is_some() && kind.is_some() && first.get("timestamp").is_some() {
        return Some(Format::Codex);
    }
    let claude = lines.iter().take(64).any(|l| {
        let v = &l.value;
        v.get("sessionId").is_some()
            && (v.get("uuid").is_some()
                || matches!(
                    v.get("type").and_then(|t| t.as_str()),
                    Some("summary" | "queue-operation" | "file-history-snapshot")
                ))
    });
    claude.then_some(Format::ClaudeCode)
}

/// A short description of a record for an error: its `type` and first keys.
fn describe(value: &serde_json::Value) -> String {
    let keys: Vec<&str> = value
        .as_object()
        .map(|o| o.keys().take(6).map(String::as_str).collect())
        .unwrap_or_default();
    match value.get("type").and_then(|t| t.as_str()) {
        Some(kind) => format!("its first record has type `{kind}` and keys {keys:?}"),
        None => format!("its first record has keys {keys:?}"),
    }
}

/// Milliseconds since the Unix epoch of an RFC 3339 timestamp.
pub(crate) fn millis(text: Option<&str>) -> Option<i64> {
    text?
        .parse::<jiff::Timestamp>()
        .ok()
        .map(jiff::Timestamp::as_millisecond)
}

/// The text of a content value: a string, or the `text` of each text part of an array.
pub(crate) fn text_of(value: Option<&serde_json::Value>) -> String {
    match value {
        Some(serde_json::Value::String(s)) => s.clone(),
        Some(serde_json::Value::Array(parts)) => parts
            .iter()
            .filter_map(|p| p.get("text").and_then(|t| t.as_str()))
            .collect::<Vec<_>>()
            .join("\n"),
        _ => String::new(),
    }
}

/// A model reference from a provider and a model id as another tool names them (characters
/// Smith's references do not allow become `-`).
pub(crate) fn model_ref(provider: &str, model: &str) -> Option<ModelRef> {
    let clean = |s: &str| {
        s.trim()
            .chars()
            .map(|c| {
                if c.is_whitespace() || c.is_control() {
                    '-'
                } else {
                    c
                }
            })
            .collect::<String>()
    };
    format!("{}/{}", clean(provider).replace('/', "-"), clean(model))
        .parse()
        .ok()
}

/// A usage figure from a JSON number.
pub(crate) fn count(value: Option<&serde_json::Value>) -> Option<u64> {
    value?.as_u64()
}

/// Lowercase hexadecimal of `bytes`.
pub(crate) fn hex(bytes: &[u8]) -> String {
    use std::fmt::Write as _;
    bytes.iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}
