//! The transcript as blocks folded from UI intents — the same intents a live run emits and a
//! session's replay emits, so history and live work look alike — and drawn as lines for a
//! width. User and assistant messages (assistant text as Markdown), thinking (collapsed to
//! one line unless shown), tool activity (its arguments, its live progress, a bounded preview
//! of its output, diffs coloured), notices, errors and how each run ended.

use std::collections::HashMap;

use ratatui_core::style::Style;
use ratatui_core::text::{Line, Span};
use smith::{ContentBlock, Role, StopReason};
use smith_ui_intents::{DeltaKind, Intent, NoticeLevel};

use crate::Theme;
use crate::markdown::markdown;
use crate::sanitize::sanitize;
use crate::tool::tool_lines;
use crate::wrap::{Piece, wrap};

/// Lines of a tool's output shown in its preview (the first ones; the rest are counted).
pub const PREVIEW_LINES: usize = 8;

/// Drawn lines of a user message shown in the transcript (the first ones; the rest are
/// counted, and the entry's detail view shows them).
pub const USER_LINES: usize = 10;

/// One thing the transcript shows.
#[derive(Clone, Debug, PartialEq)]
pub enum Block {
    /// A message the user sent.
    User {
        /// Its text.
        text: String,
    },
    /// An assistant message, streaming until its end.
    Assistant {
        /// Its visible text (Markdown).
        text: String,
        /// Its thinking.
        thinking: String,
        /// Still streaming (no end yet).
        streaming: bool,
    },
    /// A tool call.
    Tool {
        /// The call's id (what its result names).
        call_id: String,
        /// The tool's name.
        name: String,
        /// Its arguments.
        arguments: serde_json::Value,
        /// The last progress message, while it runs (for a program, its newest output).
        progress: Option<String>,
        /// How long it has run, while it runs and once [`Transcript::tick`] saw it.
        clock: Option<Clock>,
        /// Its output, once it ended.
        output: Option<String>,
        /// Whether it failed.
        is_error: bool,
    },
    /// A notice.
    Notice {
        /// How severe.
        level: NoticeLevel,
        /// What it says.
        text: String,
    },
    /// A committed transcript entry that is not a model message (`TranscriptAppend`): a
    /// compaction's summary (source `compaction`, drawn as a one-line marker, read in full in
    /// the entry detail), or a plugin's text.
    Appended {
        /// Who appended it (`compaction`, a plugin id, `smith`).
        source: String,
        /// Its text, Markdown.
        text: String,
    },
    /// A run ended other than by finishing its turn, or with an error.
    RunEnd {
        /// Why it stopped.
        stop_reason: StopReason,
        /// The error, if any.
        error: Option<String>,
    },
}

/// A running tool call's clock: when it was first seen running, the spinner frame and the
/// whole seconds shown. Moved only by [`Transcript::tick`], so a drawing depends on the
/// ticks given, never on the wall clock.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Clock {
    /// When the first tick saw the call running.
    pub started: std::time::Instant,
    /// The spinner frame shown (one per [`SPIN_EVERY`]).
    pub frame: u8,
    /// Whole seconds run, as shown.
    pub seconds: u64,
}

/// How often a running tool's spinner moves: ticks closer than this change nothing.
pub const SPIN_EVERY: std::time::Duration = std::time::Duration::from_millis(100);

/// The blocks, in order, and where live intents land. Each block has a revision (bumped by
/// every change to it), so a line cache redraws only the blocks that moved.
#[derive(Clone, Debug, Default)]
pub struct Transcript {
    blocks: Vec<Block>,
    revs: Vec<u64>,
    messages: HashMap<u64, usize>,
    calls: HashMap<String, usize>,
    /// Show thinking in full (collapsed to one line otherwise).
    pub show_thinking: bool,
    /// Bumped by every change: a renderer redraws only when it moved.
    revision: u64,
}

impl Transcript {
    /// An empty transcript.
    pub fn new() -> Self {
        Self::default()
    }

    /// The blocks, in order.
    pub fn blocks(&self) -> &[Block] {
        &self.blocks
    }

    /// A number that changes whenever the transcript does.
    pub fn revision(&self) -> u64 {
        self.revision
    }

    /// The revision block `index` was last changed at (0 for no such block).
    pub fn block_revision(&self, index: usize) -> u64 {
        self.revs.get(index).copied().unwrap_or(0)
    }

    /// The blocks `intents` fold into, in order (a chunk of recorded history).
    pub fn fold_all<'a>(intents: impl IntoIterator<Item = &'a Intent>) -> Vec<Block> {
        let mut t = Self::new();
        for intent in intents {
            t.apply(intent);
        }
        t.blocks
    }

    fn push(&mut self, block: Block) -> usize {
        self.blocks.push(block);
        self.revs.push(self.revision + 1);
        self.blocks.len() - 1
    }

    /// Take back the message `message_id` started (a stream shown before it was committed,
    /// now superseded): its block goes and later blocks move up. Whether there was one.
    pub fn withdraw(&mut self, message_id: u64) -> bool {
        let Some(at) = self.messages.remove(&message_id) else {
            return false;
        };
        if at >= self.blocks.len() {
            return false;
        }
        self.blocks.remove(at);
        self.revs.remove(at);
        for i in self.messages.values_mut().chain(self.calls.values_mut()) {
            if *i > at {
                *i -= 1;
            }
        }
        // Every later block moved: they draw again.
        for r in &mut self.revs[at..] {
            *r = self.revision + 1;
        }
        self.revision += 1;
        true
    }

    /// Whether a tool call is running (a drawer ticks the transcript while one is).
    pub fn running(&self) -> bool {
        !self.calls.is_empty()
    }

    /// Move the clocks of running tool calls to `now`: a call seen for the first time starts
    /// its clock; a spinner frame or a second that changed redraws the block. Returns whether
    /// anything changed.
    pub fn tick(&mut self, now: std::time::Instant) -> bool {
        let mut moved = Vec::new();
        for &at in self.calls.values() {
            let Some(Block::Tool {
                clock,
                output: None,
                ..
            }) = self.blocks.get_mut(at)
            else {
                continue;
            };
            let next = match clock {
                None => Clock {
                    started: now,
                    frame: 0,
                    seconds: 0,
                },
                Some(c) => {
                    let ran = now.saturating_duration_since(c.started);
                    let frames = ran.as_millis() / SPIN_EVERY.as_millis().max(1);
                    Clock {
                        started: c.started,
                        frame: u8::try_from(frames % u128::from(crate::tool::SPINNER_FRAMES))
                            .unwrap_or(0),
                        seconds: ran.as_secs(),
                    }
                }
            };
            if *clock != Some(next) {
                *clock = Some(next);
                moved.push(at);
            }
        }
        for &at in &moved {
            self.touch(at);
        }
        if !moved.is_empty() {
            self.revision += 1;
        }
        !moved.is_empty()
    }

    /// Let the first `n` blocks go (they are in recorded history now): later blocks keep
    /// their content and revisions and move up by `n`; a message or tool call still open in
    /// a dropped block is forgotten (later deltas for it change nothing).
    pub fn drop_front(&mut self, n: usize) {
        let n = n.min(self.blocks.len());
        if n == 0 {
            return;
        }
        self.blocks.drain(..n);
        self.revs.drain(..n);
        self.messages.retain(|_, at| {
            let kept = *at >= n;
            *at = at.saturating_sub(n);
            kept
        });
        self.calls.retain(|_, at| {
            let kept = *at >= n;
            *at = at.saturating_sub(n);
            kept
        });
        self.revision += 1;
    }

    /// Mark block `index` changed by the intent being folded.
    fn touch(&mut self, index: usize) {
        if let Some(r) = self.revs.get_mut(index) {
            *r = self.revision + 1;
        }
    }

    /// Fold `intent` in; whether the transcript changed.
    pub fn apply(&mut self, intent: &Intent) -> bool {
        let changed = self.fold(intent);
        if changed {
            self.revision += 1;
        }
        changed
    }

    fn fold(&mut self, intent: &Intent) -> bool {
        match intent {
            Intent::MessageStart {
                message_id,
                role: Role::Assistant,
            } => {
                let at = self.push(Block::Assistant {
                    text: String::new(),
                    thinking: String::new(),
                    streaming: true,
                });
                self.messages.insert(*message_id, at);
            }
            Intent::MessageDelta {
                message_id,
                kind,
                text,
            } => {
                let Some(&at) = self.messages.get(message_id) else {
                    return false;
                };
                let Some(Block::Assistant {
                    text: shown,
                    thinking,
                    ..
                }) = self.blocks.get_mut(at)
                else {
                    return false;
                };
                match kind {
                    DeltaKind::Text => shown.push_str(text),
                    DeltaKind::Thinking => thinking.push_str(text),
                }
                self.touch(at);
            }
            Intent::MessageEnd {
                message_id,
                message,
                ..
            } => match message.role {
                Role::User => {
                    self.push(Block::User {
                        text: message.text(),
                    });
                }
                Role::Assistant => {
                    let thinking: String = message
                        .content
                        .iter()
                        .filter_map(|b| match b {
                            ContentBlock::Thinking { text, .. } => Some(text.as_str()),
                            _ => None,
                        })
                        .collect();
                    // The end is authoritative: it replaces what the deltas built.
                    let block = Block::Assistant {
                        text: message.text(),
                        thinking,
                        streaming: false,
                    };
                    match self.messages.remove(message_id) {
                        Some(i) if i < self.blocks.len() => {
                            self.blocks[i] = block;
                            self.touch(i);
                        }
                        _ => {
                            self.push(block);
                        }
                    }
                }
            },
            Intent::ToolStart {
                call_id,
                name,
                arguments,
            } => {
                let at = self.push(Block::Tool {
                    call_id: call_id.clone(),
                    name: name.clone(),
                    arguments: arguments.clone(),
                    progress: None,
                    clock: None,
                    output: None,
                    is_error: false,
                });
                self.calls.insert(call_id.clone(), at);
            }
            Intent::ToolUpdate { call_id, text } => {
                let Some(&at) = self.calls.get(call_id) else {
                    return false;
                };
                let Some(Block::Tool { progress, .. }) = self.blocks.get_mut(at) else {
                    return false;
                };
                *progress = Some(text.clone());
                self.touch(at);
            }
            Intent::ToolEnd {
                call_id,
                name,
                output,
                is_error,
                ..
            } => {
                let ended = (Some(output.clone()), *is_error);
                let at = self.calls.remove(call_id);
                match at.and_then(|i| self.blocks.get_mut(i).map(|b| (i, b))) {
                    Some((
                        i,
                        Block::Tool {
                            progress,
                            clock,
                            output,
                            is_error,
                            ..
                        },
                    )) => {
                        *progress = None;
                        *clock = None;
                        (*output, *is_error) = ended;
                        self.touch(i);
                    }
                    _ => {
                        self.push(Block::Tool {
                            call_id: call_id.clone(),
                            name: name.clone(),
                            arguments: serde_json::Value::Null,
                            progress: None,
                            clock: None,
                            output: ended.0,
                            is_error: ended.1,
                        });
                    }
                }
            }
            Intent::Notice { level, text } => {
                self.push(Block::Notice {
                    level: *level,
                    text: text.clone(),
                });
            }
            Intent::TranscriptAppend { source, text, .. } => {
                self.push(Block::Appended {
                    source: source.clone(),
                    text: text.clone(),
                });
            }
            // Live, the same marker a recorded compaction reads as from history.
            Intent::CompactionEnd {
                summary: Some(summary),
                entry_id: Some(_),
                ..
            } => {
                self.push(Block::Appended {
                    source: COMPACTION_SOURCE.to_owned(),
                    text: summary.clone(),
                });
            }
            Intent::CompactionEnd {
                error: Some(error), ..
            } => {
                self.push(Block::Notice {
                    level: smith_ui_intents::NoticeLevel::Warning,
                    text: format!("compaction failed: {error}"),
                });
            }
            Intent::RunEnd {
                stop_reason, error, ..
            } => {
                if error.is_none()
                    && matches!(stop_reason, StopReason::EndTurn | StopReason::ToolUse)
                {
                    return false;
                }
                self.push(Block::RunEnd {
                    stop_reason: *stop_reason,
                    error: error.clone(),
                });
            }
            _ => return false,
        }
        true
    }

    /// Every block drawn for `width` columns, a blank line between blocks.
    pub fn lines(&self, theme: &Theme, width: u16) -> Vec<Line<'static>> {
        let mut out = Vec::new();
        for block in &self.blocks {
            if !out.is_empty() {
                out.push(Line::default());
            }
            out.extend(block_lines(block, self.show_thinking, theme, width));
        }
        out
    }
}

impl Block {
    /// What copying this block gives: a message's text (an assistant's as its Markdown
    /// source), a tool's full output (its arguments as JSON while it has none), a notice's
    /// text, an appended entry's text (a compaction's summary), a run end's reason.
    pub fn text(&self) -> String {
        match self {
            Self::User { text } | Self::Notice { text, .. } | Self::Appended { text, .. } => {
                text.clone()
            }
            Self::Assistant { text, .. } => text.clone(),
            Self::Tool {
                output: Some(output),
                ..
            } => output.clone(),
            Self::Tool { arguments, .. } => {
                serde_json::to_string_pretty(arguments).unwrap_or_default()
            }
            Self::RunEnd { stop_reason, error } => match error {
                Some(e) => format!("stopped ({stop_reason}): {e}"),
                None => format!("stopped ({stop_reason})"),
            },
        }
    }

    /// Whether the block's text holds `needle`, ignoring case (`needle` already lowercase):
    /// messages (thinking too), a tool's name, arguments and full output, notices.
    pub fn matches(&self, needle: &str) -> bool {
        let has = |s: &str| crate::search::contains(s, needle);
        match self {
            Self::Assistant { text, thinking, .. } => has(text) || has(thinking),
            Self::Tool {
                name,
                arguments,
                output,
                progress,
                ..
            } => {
                has(name)
                    || has(&arguments.to_string())
                    || output.as_deref().is_some_and(has)
                    || progress.as_deref().is_some_and(has)
            }
            other => has(&other.text()),
        }
    }
}

/// One block drawn for `width` columns (thinking in full when `show_thinking`).
pub fn block_lines(
    block: &Block,
    show_thinking: bool,
    theme: &Theme,
    width: u16,
) -> Vec<Line<'static>> {
    match block {
        Block::User { text } => {
            let first = [Span::styled("› ", theme.user_label)];
            let rest = [Span::raw("  ")];
            let text = text.trim_end_matches(['\n', '\r']);
            let mut lines = paragraphs(text, theme.user, width, &first, &rest);
            // A long message (a large paste) stays short here; its detail view has it whole.
            if lines.len() > USER_LINES + 1 {
                let hidden = lines.len() - USER_LINES;
                lines.truncate(USER_LINES);
                lines.push(Line::from(vec![
                    Span::raw("  "),
                    Span::styled(
                        format!("⋯ {hidden} more lines (the entry's detail view shows them)"),
                        theme.dim,
                    ),
                ]));
            }
            lines
        }
        Block::Assistant {
            text,
            thinking,
            streaming,
        } => {
            let mut out = Vec::new();
            if !thinking.is_empty() {
                if show_thinking {
                    out.extend(paragraphs(thinking, theme.thinking, width, &[], &[]));
                } else {
                    let words = thinking.split_whitespace().count();
                    out.push(Line::from(Span::styled(
                        format!("∴ thinking ({words} words)"),
                        theme.thinking,
                    )));
                }
            }
            out.extend(markdown(text, theme, width));
            if *streaming {
                out.push(Line::from(Span::styled("…", theme.dim)));
            }
            out
        }
        Block::Tool {
            name,
            arguments,
            progress,
            clock,
            output,
            is_error,
            ..
        } => tool_lines(
            &crate::tool::Call {
                name,
                arguments,
                progress: progress.as_deref(),
                clock: clock.as_ref(),
                output: output.as_deref(),
                is_error: *is_error,
            },
            theme,
            width,
        ),
        Block::Notice { level, text } => {
            let (mark, style) = match level {
                NoticeLevel::Info => ("· ", theme.notice),
                NoticeLevel::Warning => ("! ", theme.warning),
                NoticeLevel::Error => ("✗ ", theme.error),
            };
            paragraphs(
                text,
                style,
                width,
                &[Span::styled(mark, style)],
                &[Span::raw("  ")],
            )
        }
        Block::Appended { source, .. } if source == COMPACTION_SOURCE => paragraphs(
            "context compacted: earlier turns reach the model as a summary (select it and press Enter to read it)",
            theme.dim,
            width,
            &[Span::styled("≡ ", theme.dim)],
            &[Span::raw("  ")],
        ),
        Block::Appended { source, text } => {
            let mut out = vec![Line::from(Span::styled(format!("[{source}]"), theme.dim))];
            out.extend(markdown(text, theme, width));
            out
        }
        Block::RunEnd { stop_reason, error } => {
            let text = match error {
                Some(e) => format!("stopped ({stop_reason}): {e}"),
                None => format!("stopped ({stop_reason})"),
            };
            let style = if error.is_some() {
                theme.error
            } else {
                theme.warning
            };
            paragraphs(
                &text,
                style,
                width,
                &[Span::styled("■ ", style)],
                &[Span::raw("  ")],
            )
        }
    }
}

/// The `source` of a compaction's [`Block::Appended`].
pub const COMPACTION_SOURCE: &str = "compaction";

/// One block in full for the entry detail view, `width` columns: a tool call's heading, its
/// arguments as indented JSON and its whole output (not the preview); a compaction's whole
/// summary; a user message whole; anything else as the transcript draws it, thinking shown.
pub fn detail_lines(block: &Block, theme: &Theme, width: u16) -> Vec<Line<'static>> {
    if let Block::User { text } = block {
        let first = [Span::styled("› ", theme.user_label)];
        return paragraphs(text, theme.user, width, &first, &[Span::raw("  ")]);
    }
    if let Block::Appended { source, text } = block
        && source == COMPACTION_SOURCE
    {
        let mut out = vec![Line::from(Span::styled(
            "summary the model sees in place of the context before this point:",
            theme.dim,
        ))];
        out.extend(markdown(text, theme, width));
        return out;
    }
    let Block::Tool {
        name,
        arguments,
        output,
        is_error,
        progress,
        ..
    } = block
    else {
        return block_lines(block, true, theme, width);
    };
    let mut out = paragraphs(&format!("tool {name}"), theme.tool, width, &[], &[]);
    out.push(Line::from(Span::styled("arguments:", theme.dim)));
    let args = serde_json::to_string_pretty(arguments).unwrap_or_default();
    out.extend(paragraphs(
        &args,
        theme.code_block,
        width,
        &[Span::raw("  ")],
        &[Span::raw("  ")],
    ));
    match output {
        Some(text) => {
            let (label, style) = if *is_error {
                ("output (error):", theme.tool_error)
            } else {
                ("output:", theme.dim)
            };
            out.push(Line::from(Span::styled(label, style)));
            out.extend(paragraphs(
                text,
                theme.tool_output,
                width,
                &[Span::raw("  ")],
                &[Span::raw("  ")],
            ));
        }
        None => out.push(Line::from(Span::styled(
            format!(
                "running{}",
                progress
                    .as_deref()
                    .map(|p| format!(": {p}"))
                    .unwrap_or_default()
            ),
            theme.dim,
        ))),
    }
    out
}

/// `text` (sanitized) as wrapped paragraphs, one per line of it.
pub(crate) fn paragraphs(
    text: &str,
    style: Style,
    width: u16,
    first: &[Span<'static>],
    rest: &[Span<'static>],
) -> Vec<Line<'static>> {
    let text = sanitize(text);
    let mut out = Vec::new();
    for (i, line) in text.split('\n').enumerate() {
        let lead = if i == 0 { first } else { rest };
        out.extend(wrap(&[Piece::new(line, style)], width, lead, rest));
    }
    out
}
