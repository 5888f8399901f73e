//! Plain-line output for people and pipes.

use std::io::{self, Write};

use smith::{Role, StopReason};
use smith_ui_intents::{DeltaKind, Intent, NoticeLevel, Renderer};

/// Whether diagnostics on stderr may use ANSI colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorChoice {
    /// Plain text only.
    Never,
    /// Dim and colour diagnostics (only ever decided for a terminal stderr).
    Always,
}

impl ColorChoice {
    /// The conventional decision: colour only when stderr is a terminal, `NO_COLOR` is unset
    /// or empty (<https://no-color.org>), and `TERM` is not `dumb`.
    pub fn detect(stderr_is_terminal: bool, no_color: Option<&str>, term: Option<&str>) -> Self {
        let disabled = no_color.is_some_and(|v| !v.is_empty()) || term == Some("dumb");
        if stderr_is_terminal && !disabled {
            ColorChoice::Always
        } else {
            ColorChoice::Never
        }
    }
}

/// Assistant text streams to `out` as it arrives; thinking, tool activity and diagnostics go
/// to `err`. `out` never receives an escape sequence; `err` does only with
/// [`ColorChoice::Always`].
#[derive(Debug)]
pub struct PlainRenderer<O: Write, E: Write> {
    out: O,
    err: E,
    color: ColorChoice,
    out_line_open: bool,
    thinking_open: bool,
}

const DIM: &str = "\x1b[2m";
const RED: &str = "\x1b[31m";
const YELLOW: &str = "\x1b[33m";
const RESET: &str = "\x1b[0m";

/// Longest tool output excerpt shown on stderr, in characters.
const TOOL_EXCERPT: usize = 200;

impl<O: Write, E: Write> PlainRenderer<O, E> {
    /// A renderer writing answers to `out` and everything else to `err`.
    pub fn new(out: O, err: E, color: ColorChoice) -> Self {
        Self {
            out,
            err,
            color,
            out_line_open: false,
            thinking_open: false,
        }
    }

    /// The writers, stdout first.
    pub fn into_inner(self) -> (O, E) {
        (self.out, self.err)
    }

    fn paint(&self, code: &'static str) -> &'static str {
        match self.color {
            ColorChoice::Always => code,
            ColorChoice::Never => "",
        }
    }

    fn end_thinking(&mut self) -> io::Result<()> {
        if self.thinking_open {
            let reset = self.paint(RESET);
            writeln!(self.err, "{reset}")?;
            self.thinking_open = false;
        }
        Ok(())
    }

    fn diag(&mut self, level: NoticeLevel, text: &str) -> io::Result<()> {
        self.end_thinking()?;
        let (label, code) = match level {
            NoticeLevel::Info => ("note", DIM),
            NoticeLevel::Warning => ("warning", YELLOW),
            NoticeLevel::Error => ("error", RED),
        };
        let (on, off) = (self.paint(code), self.paint(RESET));
        writeln!(self.err, "{on}{label}:{off} {text}")?;
        self.err.flush()
    }
}

fn excerpt(text: &str) -> String {
    let first = text.lines().next().unwrap_or("");
    let mut cut: String = first.chars().take(TOOL_EXCERPT).collect();
    if cut.len() < first.len() || text.lines().nth(1).is_some() {
        cut.push('…');
    }
    cut
}

impl<O: Write, E: Write> Renderer for PlainRenderer<O, E> {
    fn render(&mut self, intent: &Intent) -> io::Result<()> {
        match intent {
            Intent::RunStart { session, model } => {
                let (on, off) = (self.paint(DIM), self.paint(RESET));
                writeln!(self.err, "{on}session {session} · model {model}{off}")?;
                self.err.flush()
            }
            Intent::MessageStart { .. } => Ok(()),
            Intent::MessageDelta {
                kind: DeltaKind::Text,
                text,
                ..
            } => {
                self.end_thinking()?;
                self.out.write_all(text.as_bytes())?;
                if !text.is_empty() {
                    self.out_line_open = !text.ends_with('\n');
                }
                self.out.flush()
            }
            Intent::MessageDelta {
                kind: DeltaKind::Thinking,
                text,
                ..
            } => {
                if !self.thinking_open {
                    let on = self.paint(DIM);
                    write!(self.err, "{on}thinking: ")?;
                    self.thinking_open = true;
                }
                self.err.write_all(text.as_bytes())?;
                self.err.flush()
            }
            Intent::MessageEnd { message, .. } => {
                self.end_thinking()?;
                if message.role == Role::Assistant && self.out_line_open {
                    self.out.write_all(b"\n")?;
                    self.out_line_open = false;
                    self.out.flush()?;
                }
                Ok(())
            }
            Intent::ToolStart {
                name, arguments, ..
            } => {
                self.end_thinking()?;
                let (on, off) = (self.paint(DIM), self.paint(RESET));
                writeln!(self.err, "{on}→ {name} {arguments}{off}")?;
                self.err.flush()
            }
            Intent::ToolEnd {
                name,
                output,
                is_error,
                ..
            } => {
                let (on, off) = if *is_error {
                    (self.paint(RED), self.paint(RESET))
                } else {
                    (self.paint(DIM), self.paint(RESET))
                };
                let status = if *is_error { "failed" } else { "ok" };
                writeln!(self.err, "{on}← {name} {status}: {}{off}", excerpt(output))?;
                self.err.flush()
            }
            Intent::Notice { level, text } => self.diag(*level, text),
            Intent::RunEnd {
                stop_reason, error, ..
            } => {
                self.end_thinking()?;
                if self.out_line_open {
                    self.out.write_all(b"\n")?;
                    self.out_line_open = false;
                    self.out.flush()?;
                }
                match (stop_reason, error) {
                    (_, Some(error)) => self.diag(NoticeLevel::Error, error),
                    (StopReason::Aborted, None) => self.diag(
                        NoticeLevel::Warning,
                        "the run was aborted; the session records what happened up to that point",
                    ),
                    (StopReason::MaxTokens, None) => self.diag(
                        NoticeLevel::Warning,
                        "the answer stopped at the model's output limit (stop reason max_tokens)",
                    ),
                    _ => Ok(()),
                }
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smith::{ContentBlock, Message, UsageTotals};

    fn render(color: ColorChoice, intents: &[Intent]) -> (String, String) {
        let mut r = PlainRenderer::new(Vec::new(), Vec::new(), color);
        for i in intents {
            r.render(i).unwrap();
        }
        let (o, e) = r.into_inner();
        (String::from_utf8(o).unwrap(), String::from_utf8(e).unwrap())
    }

    fn script() -> Vec<Intent> {
        let message = Message {
            role: Role::Assistant,
            content: vec![ContentBlock::Text {
                text: "Hi there".into(),
            }],
        };
        vec![
            Intent::MessageStart {
                message_id: 2,
                role: Role::Assistant,
            },
            Intent::MessageDelta {
                message_id: 2,
                kind: DeltaKind::Thinking,
                text: "hm".into(),
            },
            Intent::MessageDelta {
                message_id: 2,
                kind: DeltaKind::Text,
                text: "Hi ".into(),
            },
            Intent::MessageDelta {
                message_id: 2,
                kind: DeltaKind::Text,
                text: "there".into(),
            },
            Intent::MessageEnd {
                message_id: 2,
                message,
                stop_reason: Some(StopReason::EndTurn),
                usage: None,
            },
            Intent::ToolStart {
                call_id: "c".into(),
                name: "read".into(),
                arguments: serde_json::json!({"path": "x"}),
            },
            Intent::ToolEnd {
                call_id: "c".into(),
                name: "read".into(),
                entry_id: 3,
                output: "nope\nmore".into(),
                is_error: true,
            },
            Intent::RunEnd {
                stop_reason: StopReason::Error,
                usage: UsageTotals::default(),
                error: Some("boom".into()),
            },
        ]
    }

    #[test]
    fn answer_on_stdout_everything_else_on_stderr() {
        let (out, err) = render(ColorChoice::Never, &script());
        assert_eq!(out, "Hi there\n");
        assert!(err.contains("thinking: hm\n"), "{err}");
        assert!(err.contains("→ read {\"path\":\"x\"}"), "{err}");
        assert!(err.contains("← read failed: nope…"), "{err}");
        assert!(err.ends_with("error: boom\n"), "{err}");
        assert!(!err.contains('\x1b') && !out.contains('\x1b'));
    }

    #[test]
    fn colour_only_on_stderr() {
        let (out, err) = render(ColorChoice::Always, &script());
        assert!(!out.contains('\x1b'));
        assert!(err.contains('\x1b'));
    }

    #[test]
    fn no_color_and_dumb_terminals_disable_colour() {
        assert_eq!(
            ColorChoice::detect(true, None, Some("xterm")),
            ColorChoice::Always
        );
        assert_eq!(
            ColorChoice::detect(true, Some("1"), None),
            ColorChoice::Never
        );
        assert_eq!(
            ColorChoice::detect(true, Some(""), None),
            ColorChoice::Always
        );
        assert_eq!(
            ColorChoice::detect(true, None, Some("dumb")),
            ColorChoice::Never
        );
        assert_eq!(ColorChoice::detect(false, None, None), ColorChoice::Never);
    }
}
