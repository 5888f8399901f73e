//! Terminal capabilities, detected conservatively and bounded in time, then overridden by the
//! `tui.*` settings (spec: Terminal interface — "Terminal capabilities are detected
//! conservatively and can be overridden explicitly … Capability probing cannot indefinitely
//! delay startup").
//!
//! Colour depth comes from the environment (`NO_COLOR`, `COLORTERM`, `TERM`). Keyboard
//! enhancement and synchronized output are asked of the terminal in raw mode: the kitty
//! keyboard query `CSI ? u`, the DEC private mode report `CSI ? 2026 $ p`, then primary device
//! attributes `CSI c`, which every terminal answers — so the answers before it are complete
//! as soon as it arrives, and a terminal that answers nothing costs at most [`PROBE_BUDGET`].
//! Hyperlinks cannot be asked for: they are off unless a setting turns them on.

use std::io::Write;
use std::time::{Duration, Instant};

/// The longest start-up waits for the terminal's answers.
pub const PROBE_BUDGET: Duration = Duration::from_millis(100);

/// How many colours frames use.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ColorDepth {
    /// None: bold, italic, underline and reverse only (`NO_COLOR`, `TERM=dumb`).
    None,
    /// The 16 ANSI colours.
    Ansi16,
    /// The 256-colour palette.
    Ansi256,
    /// 24-bit colour.
    TrueColor,
}

/// What the terminal supports, as frames and modes use it.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Capabilities {
    /// Colours.
    pub color: ColorDepth,
    /// The kitty keyboard protocol (disambiguated keys) is pushed on start.
    pub keyboard_enhancement: bool,
    /// Frames are wrapped in synchronized output (mode 2026).
    pub synchronized_output: bool,
    /// OSC 8 hyperlinks may be written.
    pub hyperlinks: bool,
}

/// What the terminal answered to the probe.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Answers {
    /// It reported its keyboard enhancement flags.
    pub keyboard_enhancement: bool,
    /// It reported mode 2026 as set or reset (known to it).
    pub synchronized_output: bool,
    /// Its device attributes came, so the answers are complete.
    pub complete: bool,
}

/// Read what the terminal says in `bytes` (the replies to the probe, in any order, possibly
/// cut short).
pub fn parse_answers(bytes: &[u8]) -> Answers {
    let text = String::from_utf8_lossy(bytes);
    let mut answers = Answers::default();
    for reply in text.split('\x1b').filter_map(|r| r.strip_prefix("[?")) {
        let end = reply
            .find(|c: char| c.is_ascii_alphabetic())
            .unwrap_or(reply.len());
        let (body, last) = reply.split_at(end);
        match last.chars().next() {
            Some('u') if body.chars().all(|c| c.is_ascii_digit()) => {
                answers.keyboard_enhancement = true;
            }
            Some('y') => {
                // `2026;N$y`: N = 1 set, 2 reset (both supported), 0 unknown, 4 permanently reset.
                if let Some(state) = body.strip_prefix("2026;").and_then(|b| b.strip_suffix('$')) {
                    answers.synchronized_output = matches!(state, "1" | "2" | "3");
                }
            }
            Some('c') => answers.complete = true,
            _ => {}
        }
    }
    answers
}

/// Ask the terminal on stdin/stdout (already in raw mode) and read its answers for at most
/// `budget`.
pub fn probe(budget: Duration) -> Answers {
    let mut out = std::io::stdout();
    if out
        .write_all(b"\x1b[?u\x1b[?2026$p\x1b[c")
        .and_then(|()| out.flush())
        .is_err()
    {
        return Answers::default();
    }
    let deadline = Instant::now() + budget;
    let stdin = rustix::stdio::stdin();
    let mut got = Vec::new();
    let mut buf = [0u8; 256];
    loop {
        let left = deadline.saturating_duration_since(Instant::now());
        if left.is_zero() {
            break;
        }
        let mut fds = [rustix::event::PollFd::new(
            &stdin,
            rustix::event::PollFlags::IN,
        )];
        let timeout = rustix::event::Timespec {
            tv_sec: 0,
            tv_nsec: i64::try_from(left.as_nanos()).unwrap_or(i64::MAX),
        };
        match rustix::event::poll(&mut fds, Some(&timeout)) {
            Ok(0) | Err(_) => break,
            Ok(_) => {}
        }
        match rustix::io::read(stdin, &mut buf) {
            Ok(0) | Err(_) => break,
            Ok(n) => got.extend_from_slice(&buf[..n]),
        }
        if parse_answers(&got).complete {
            break;
        }
    }
    parse_answers(&got)
}

/// The colour depth the environment says (`NO_COLOR`, `TERM`, `COLORTERM`).
pub fn color_from_env(
    no_color: Option<&str>,
    term: Option<&str>,
    colorterm: Option<&str>,
) -> ColorDepth {
    if no_color.is_some_and(|v| !v.is_empty()) || term == Some("dumb") {
        return ColorDepth::None;
    }
    if colorterm.is_some_and(|c| c == "truecolor" || c == "24bit") {
        return ColorDepth::TrueColor;
    }
    if term.is_some_and(|t| t.contains("256color")) {
        return ColorDepth::Ansi256;
    }
    ColorDepth::Ansi16
}

/// The `tui.*` settings that override detection (`auto` leaves it).
#[derive(Clone, Debug, Default)]
pub struct Overrides {
    /// `tui.color`.
    pub color: Option<String>,
    /// `tui.keyboard-enhancement`.
    pub keyboard_enhancement: Option<String>,
    /// `tui.synchronized-output`.
    pub synchronized_output: Option<String>,
    /// `tui.hyperlinks`.
    pub hyperlinks: Option<String>,
}

impl Overrides {
    /// Whether the probe is needed at all (some capability is left to detection).
    pub fn needs_probe(&self) -> bool {
        [&self.keyboard_enhancement, &self.synchronized_output]
            .iter()
            .any(|v| !matches!(v.as_deref(), Some("on" | "off")))
    }
}

fn switch(setting: Option<&str>, detected: bool) -> bool {
    match setting {
        Some("on") => true,
        Some("off") => false,
        _ => detected,
    }
}

/// The capabilities: `answers` and `env_color` as detected, `overrides` over them.
pub fn decide(answers: Answers, env_color: ColorDepth, overrides: &Overrides) -> Capabilities {
    let color = match overrides.color.as_deref() {
        Some("none") => ColorDepth::None,
        Some("16") => ColorDepth::Ansi16,
        Some("256") => ColorDepth::Ansi256,
        Some("truecolor") => ColorDepth::TrueColor,
        _ => env_color,
    };
    Capabilities {
        color,
        keyboard_enhancement: switch(
            overrides.keyboard_enhancement.as_deref(),
            answers.keyboard_enhancement,
        ),
        synchronized_output: switch(
            overrides.synchronized_output.as_deref(),
            answers.synchronized_output,
        ),
        hyperlinks: switch(overrides.hyperlinks.as_deref(), false),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_read_in_any_order_and_cut_short() {
        let a = parse_answers(b"\x1b[?2026;2$y\x1b[?0u\x1b[?62;22c");
        assert_eq!(
            a,
            Answers {
                keyboard_enhancement: true,
                synchronized_output: true,
                complete: true
            }
        );
        // Only device attributes: neither feature.
        let a = parse_answers(b"\x1b[?1;2c");
        assert!(a.complete && !a.keyboard_enhancement && !a.synchronized_output);
        // Mode 2026 unknown (0) or permanently reset (4): not used.
        assert!(!parse_answers(b"\x1b[?2026;0$y").synchronized_output);
        assert!(!parse_answers(b"\x1b[?2026;4$y").synchronized_output);
        // Cut short: nothing is complete, and garbage is ignored.
        let a = parse_answers(b"\x1b[?1");
        assert_eq!(a, Answers::default());
        assert_eq!(parse_answers(b"\x1b\x1b[?\xff"), Answers::default());
    }

    #[test]
    fn colour_comes_from_the_environment_and_settings_win() {
        assert_eq!(
            color_from_env(Some("1"), Some("xterm-256color"), None),
            ColorDepth::None
        );
        assert_eq!(
            color_from_env(Some(""), Some("xterm-256color"), None),
            ColorDepth::Ansi256
        );
        assert_eq!(
            color_from_env(None, Some("dumb"), Some("truecolor")),
            ColorDepth::None
        );
        assert_eq!(
            color_from_env(None, Some("xterm"), Some("24bit")),
            ColorDepth::TrueColor
        );
        assert_eq!(
            color_from_env(None, Some("screen"), None),
            ColorDepth::Ansi16
        );
        let overrides = Overrides {
            color: Some("none".into()),
            keyboard_enhancement: Some("off".into()),
            synchronized_output: Some("on".into()),
            hyperlinks: Some("on".into()),
        };
        let all = Answers {
            keyboard_enhancement: true,
            synchronized_output: false,
            complete: true,
        };
        let caps = decide(all, ColorDepth::TrueColor, &overrides);
        assert_eq!(
            caps,
            Capabilities {
                color: ColorDepth::None,
                keyboard_enhancement: false,
                synchronized_output: true,
                hyperlinks: true
            }
        );
        assert!(!overrides.needs_probe());
        assert!(Overrides::default().needs_probe());
        let auto = decide(all, ColorDepth::Ansi16, &Overrides::default());
        assert!(auto.keyboard_enhancement && !auto.synchronized_output && !auto.hyperlinks);
    }
}
