//! Plain-line output for people and pipes.

use std::borrow::Cow;
use std::io::{self, Write};

use smith::{Role, StopReason};
use smith_ui_intents::{DeltaKind, Intent, IntentKind, NoticeLevel, Renderer};

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

    /// Write to stderr, best effort: diagnostics that cannot be shown must not stop the answer
    /// from reaching stdout, so stderr failures are ignored.
    fn note(&mut self, text: &str) {
        let _ = self.err.write_all(text.as_bytes());
        let _ = self.err.flush();
    }

    fn end_thinking(&mut self) {
        if self.thinking_open {
            let reset = self.paint(RESET);
            self.note(&format!("{reset}\n"));
            self.thinking_open = false;
        }
    }

    fn diag(&mut self, level: NoticeLevel, text: &str) {
        self.end_thinking();
        let (label, code) = match level {
            NoticeLevel::Info => ("note", DIM),
            NoticeLevel::Warning => ("warning", YELLOW),
            NoticeLevel::Error => ("error", RED),
        };
        let (on, off) = (self.paint(code), self.paint(RESET));
        self.note(&format!("{on}{label}:{off} {}\n", printable(text)));
    }

    /// A plan change on stderr: `plan (1/3 done):` and one checkbox line a step, or
    /// `plan: cleared`.
    fn plan(&mut self, items: &[smith::PlanItem]) {
        self.end_thinking();
        let (on, off) = (self.paint(DIM), self.paint(RESET));
        if items.is_empty() {
            self.note(&format!("{on}plan: cleared{off}\n"));
            return;
        }
        let done = items
            .iter()
            .filter(|i| i.status == smith::PlanStatus::Completed)
            .count();
        let mut text = format!("plan ({done}/{} done):\n", items.len());
        for item in items {
            // A step is the model's text: on one line, so it cannot forge others.
            let content = item.content.replace('\n', " ");
            text.push_str(&format!("  {} {content}\n", item.status.checkbox()));
        }
        self.note(&format!("{on}{}{off}", printable(&text)));
    }

    fn close_answer_line(&mut self) -> io::Result<()> {
        if self.out_line_open {
            self.out.write_all(b"\n")?;
            self.out_line_open = false;
            self.out.flush()?;
        }
        Ok(())
    }
}

/// `text` made safe for a terminal or a log: CRLF becomes LF, and every other control
/// character except LF and TAB (C0, DEL, C1 — so no escape sequence can pass) is replaced by
/// its visible Unicode control picture (`␛` for ESC) or `�` for C1 controls.
pub fn printable(text: &str) -> Cow<'_, str> {
    let unsafe_char = |c: char| c.is_control() && c != '\n' && c != '\t';
    if !text.chars().any(unsafe_char) {
        return Cow::Borrowed(text);
    }
    let text = text.replace("\r\n", "\n");
    Cow::Owned(
        text.chars()
            .map(|c| match c {
                c if !unsafe_char(c) => c,
                '\u{7f}' => '\u{2421}',
                c if (c as u32) < 0x20 => char::from_u32(0x2400 + c as u32).unwrap_or('\u{fffd}'),
                _ => '\u{fffd}',
            })
            .collect(),
    )
}

fn excerpt(text: &str) -> String {
    let first = text.lines().next().unwrap_or("");
    let mut cut: String = first.chars().take(TOOL_EXCERPT).collect();
    if cut.len() < first.len() || text.lines().nth(1).is_some() {
        cut.push('…');
    }
    cut
}

/// The kinds plain output shows: the answer, thinking, tool activity, transcript appends,
/// compactions (one line each on stderr), notices, refusals, receipts of repeated submissions and the run outcome. Requests are refused (eval is not interactive); the
/// rest (rounds, usage, progress, status, context use, session and branch changes, extensions)
/// is dropped.
const PLAIN_KINDS: &[IntentKind] = &[
    IntentKind::RunStart,
    IntentKind::Receipt,
    IntentKind::MessageStart,
    IntentKind::MessageDelta,
    IntentKind::MessageEnd,
    IntentKind::TranscriptAppend,
    IntentKind::CompactionStart,
    IntentKind::CompactionEnd,
    IntentKind::ToolStart,
    IntentKind::ToolEnd,
    IntentKind::Notice,
    IntentKind::RequestRefused,
    IntentKind::Plan,
    IntentKind::RunEnd,
];

impl<O: Write, E: Write> Renderer for PlainRenderer<O, E> {
    fn name(&self) -> &'static str {
        "plain eval output"
    }

    fn supports(&self, kind: IntentKind) -> bool {
        PLAIN_KINDS.contains(&kind)
    }

    /// Render one intent. Only a failure to write stdout is returned; stderr is best effort.
    fn render(&mut self, intent: &Intent) -> io::Result<()> {
        match intent {
            Intent::RunStart {
                session,
                model,
                sandbox,
            } => {
                let (on, off) = (self.paint(DIM), self.paint(RESET));
                let model = printable(&model.to_string()).into_owned();
                // Only the unconfined mode is worth a word on every run.
                let unconfined = if sandbox.as_deref() == Some("full-access") {
                    " · no sandbox (full-access)"
                } else {
                    ""
                };
                self.note(&format!(
                    "{on}session {session} · model {model}{unconfined}{off}\n"
                ));
            }
            // A fresh admission is silent; a repeated one says that nothing ran.
            Intent::Receipt {
                submission,
                dedup_key,
                deduplicated: true,
                ..
            } => {
                let key = printable(dedup_key.as_deref().unwrap_or("")).into_owned();
                self.diag(
                    NoticeLevel::Info,
                    &format!(
                        "key {key} was already submitted (submission {submission}); nothing was run — its recorded answer follows"
                    ),
                );
            }
            Intent::Receipt { .. } | Intent::MessageStart { .. } => {}
            Intent::MessageDelta {
                kind: DeltaKind::Text,
                text,
                ..
            } => {
                self.end_thinking();
                self.out.write_all(printable(text).as_bytes())?;
                if !text.is_empty() {
                    self.out_line_open = !text.ends_with('\n');
                }
                self.out.flush()?;
            }
            Intent::MessageDelta {
                kind: DeltaKind::Thinking,
                text,
                ..
            } => {
                if !self.thinking_open {
                    let on = self.paint(DIM);
                    self.note(&format!("{on}thinking: "));
                    self.thinking_open = true;
                }
                self.note(&printable(text));
            }
            Intent::MessageEnd { message, .. } => {
                self.end_thinking();
                if message.role == Role::Assistant {
                    self.close_answer_line()?;
                }
            }
            Intent::ToolStart {
                name, arguments, ..
            } => {
                self.end_thinking();
                let (on, off) = (self.paint(DIM), self.paint(RESET));
                // A tool's name is the model's text: on one line, so it cannot forge others.
                let name = name.replace('\n', "\\n");
                let line = printable(&format!("{name} {arguments}")).into_owned();
                self.note(&format!("{on}→ {line}{off}\n"));
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
                let name = name.replace('\n', "\\n");
                let line = printable(&format!("{name} {status}: {}", excerpt(output))).into_owned();
                self.note(&format!("{on}← {line}{off}\n"));
            }
            Intent::Notice { level, text } => self.diag(*level, text),
            Intent::Plan { items } => self.plan(items),
            Intent::TranscriptAppend { source, text, .. } => {
                self.end_thinking();
                let (on, off) = (self.paint(DIM), self.paint(RESET));
                let text = printable(text).into_owned();
                self.note(&format!("{on}[{}]{off} {text}\n", printable(source)));
            }
            Intent::CompactionStart {
                reason,
                summarized,
                kept,
                estimated_tokens,
                kept_tokens,
            } => {
                self.end_thinking();
                let (on, off) = (self.paint(DIM), self.paint(RESET));
                let kept_size = kept_tokens
                    .map(|t| format!(" (about {t} tokens)"))
                    .unwrap_or_default();
                self.note(&format!(
                    "{on}compacting ({}): summarizing {summarized} items (about {estimated_tokens} tokens), keeping {kept}{kept_size}{off}\n",
                    reason.as_str()
                ));
            }
            Intent::CompactionEnd {
                entry_id: Some(entry),
                ..
            } => {
                let (on, off) = (self.paint(DIM), self.paint(RESET));
                self.note(&format!(
                    "{on}compacted: the summary is entry {entry} (`smith sessions get` shows it){off}\n"
                ));
            }
            Intent::CompactionEnd { error, .. } => {
                let text = error
                    .as_deref()
                    .unwrap_or("the compaction recorded nothing");
                self.diag(NoticeLevel::Warning, &format!("compaction failed: {text}"));
            }
            Intent::RequestRefused { reason, .. } => {
                self.diag(NoticeLevel::Warning, &format!("request refused: {reason}"));
            }
            Intent::RunEnd {
                stop_reason, error, ..
            } => {
                self.end_thinking();
                self.close_answer_line()?;
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
                    _ => {}
                }
            }
            // Not in PLAIN_KINDS: `deliver` never passes these here.
            Intent::RoundStart { .. }
            | Intent::Attempt { .. }
            | Intent::AttemptFailed { .. }
            | Intent::ToolUpdate { .. }
            | Intent::Progress { .. }
            | Intent::Status { .. }
            | Intent::ConfirmRequest { .. }
            | Intent::SelectRequest { .. }
            | Intent::InputRequest { .. }
            | Intent::Usage { .. }
            | Intent::ContextUse { .. }
            | Intent::SessionChange { .. }
            | Intent::BranchChange { .. }
            | Intent::RoundEnd { .. }
            | Intent::FellBehind { .. }
            | Intent::Extension { .. } => {}
        }
        Ok(())
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
                entry_id: Some(2),
                message,
                stop_reason: Some(StopReason::EndTurn),
                usage: None,
                recorded: true,
            },
            Intent::ToolStart {
                call_id: "c".into(),
                name: "read".into(),
                arguments: serde_json::json!({"path": "x"}),
            },
            Intent::ToolEnd {
                call_id: "c".into(),
                name: "read".into(),
                entry_id: Some(3),
                output: "nope\nmore".into(),
                is_error: true,
                recorded: true,
            },
            Intent::RunEnd {
                stop_reason: StopReason::Error,
                usage: UsageTotals::default(),
                cost_usd: None,
                error: Some("boom".into()),
                memory: None,
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
    fn control_characters_never_pass() {
        assert_eq!(printable("plain\ttext\n"), "plain\ttext\n");
        assert_eq!(
            printable("a\x1b[31mred\x07\r\nb\rc\u{9b}d\u{7f}"),
            "a␛[31mred␇\nb␍c\u{fffd}d␡"
        );
        let msg = smith::Message {
            role: Role::Assistant,
            content: vec![],
        };
        let (out, err) = render(
            ColorChoice::Never,
            &[
                Intent::MessageDelta {
                    message_id: 1,
                    kind: DeltaKind::Text,
                    text: "x\x1b]0;title\x07".into(),
                },
                Intent::MessageDelta {
                    message_id: 1,
                    kind: DeltaKind::Thinking,
                    text: "\x1b[2J".into(),
                },
                Intent::MessageEnd {
                    message_id: 1,
                    entry_id: Some(1),
                    message: msg,
                    stop_reason: None,
                    usage: None,
                    recorded: true,
                },
            ],
        );
        assert!(
            !out.contains('\x1b') && !err.contains('\x1b'),
            "{out:?} {err:?}"
        );
    }

    /// A writer that always fails, like a pipe whose reader went away.
    struct Broken;

    impl Write for Broken {
        fn write(&mut self, _: &[u8]) -> io::Result<usize> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
        fn flush(&mut self) -> io::Result<()> {
            Err(io::ErrorKind::BrokenPipe.into())
        }
    }

    #[test]
    fn a_broken_stderr_does_not_stop_the_answer() {
        let mut r = PlainRenderer::new(Vec::new(), Broken, ColorChoice::Never);
        for i in script() {
            r.render(&i).unwrap();
        }
        assert_eq!(String::from_utf8(r.into_inner().0).unwrap(), "Hi there\n");
        let mut r = PlainRenderer::new(Broken, Vec::new(), ColorChoice::Never);
        let delta = Intent::MessageDelta {
            message_id: 1,
            kind: DeltaKind::Text,
            text: "x".into(),
        };
        assert_eq!(
            r.render(&delta).unwrap_err().kind(),
            io::ErrorKind::BrokenPipe
        );
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
