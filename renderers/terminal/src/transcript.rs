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
        /// The tool's name.
        name: String,
        /// Its arguments.
        arguments: serde_json::Value,
        /// The last progress message, while it runs.
        progress: Option<String>,
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
    /// A run ended other than by finishing its turn, or with an error.
    RunEnd {
        /// Why it stopped.
        stop_reason: StopReason,
        /// The error, if any.
        error: Option<String>,
    },
}

/// The blocks, in order, and where live intents land.
#[derive(Clone, Debug, Default)]
pub struct Transcript {
    blocks: Vec<Block>,
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

    fn push(&mut self, block: Block) -> usize {
        self.blocks.push(block);
        self.blocks.len() - 1
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
                let Some(Block::Assistant {
                    text: shown,
                    thinking,
                    ..
                }) = self
                    .messages
                    .get(message_id)
                    .and_then(|&i| self.blocks.get_mut(i))
                else {
                    return false;
                };
                match kind {
                    DeltaKind::Text => shown.push_str(text),
                    DeltaKind::Thinking => thinking.push_str(text),
                }
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
                        Some(i) if i < self.blocks.len() => self.blocks[i] = block,
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
                    name: name.clone(),
                    arguments: arguments.clone(),
                    progress: None,
                    output: None,
                    is_error: false,
                });
                self.calls.insert(call_id.clone(), at);
            }
            Intent::ToolUpdate { call_id, text } => {
                let Some(Block::Tool { progress, .. }) = self
                    .calls
                    .get(call_id)
                    .and_then(|&i| self.blocks.get_mut(i))
                else {
                    return false;
                };
                *progress = Some(text.clone());
            }
            Intent::ToolEnd {
                call_id,
                name,
                output,
                is_error,
                ..
            } => {
                let ended = (Some(output.clone()), *is_error);
                match self
                    .calls
                    .remove(call_id)
                    .and_then(|i| self.blocks.get_mut(i))
                {
                    Some(Block::Tool {
                        progress,
                        output,
                        is_error,
                        ..
                    }) => {
                        *progress = None;
                        (*output, *is_error) = ended;
                    }
                    _ => {
                        self.push(Block::Tool {
                            name: name.clone(),
                            arguments: serde_json::Value::Null,
                            progress: None,
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
            out.extend(self.block_lines(block, theme, width));
        }
        out
    }

    /// One block drawn for `width` columns.
    pub fn block_lines(&self, block: &Block, theme: &Theme, width: u16) -> Vec<Line<'static>> {
        match block {
            Block::User { text } => {
                let first = [Span::styled("› ", theme.user_label)];
                let rest = [Span::raw("  ")];
                paragraphs(text, theme.user, width, &first, &rest)
            }
            Block::Assistant {
                text,
                thinking,
                streaming,
            } => {
                let mut out = Vec::new();
                if !thinking.is_empty() {
                    if self.show_thinking {
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
                output,
                is_error,
            } => tool_lines(
                name,
                arguments,
                progress.as_deref(),
                output.as_deref(),
                *is_error,
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
