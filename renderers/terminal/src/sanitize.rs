//! Text from models, tools and plugins made safe to draw: no control sequence reaches the
//! terminal (spec: Terminal interface — "structured render descriptions cannot emit arbitrary
//! terminal control sequences").
//!
//! Escape sequences (CSI `ESC [ … final`, OSC `ESC ] … BEL|ESC \`, and two-byte `ESC x`) are
//! removed whole; every other C0 or C1 control character but the line feed becomes its visible
//! Unicode control picture (U+2400 block: `␛`, `␇`…), so nothing is hidden either; a tab becomes
//! spaces to the next multiple of [`TAB_WIDTH`] columns.

use std::borrow::Cow;

/// Columns a tab advances to.
pub const TAB_WIDTH: usize = 4;

/// `text` with every escape sequence removed and every other control character but `\n`
/// shown as a control picture; tabs expanded. Borrowed when nothing needed changing.
pub fn sanitize(text: &str) -> Cow<'_, str> {
    if !text.chars().any(|c| c.is_control() && c != '\n') {
        return Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len());
    let mut column = 0usize;
    let mut chars = text.chars().peekable();
    while let Some(c) = chars.next() {
        match c {
            '\n' => {
                out.push('\n');
                column = 0;
                continue;
            }
            '\t' => {
                let to = (column / TAB_WIDTH + 1) * TAB_WIDTH;
                out.extend(std::iter::repeat_n(' ', to - column));
                column = to;
                continue;
            }
            '\u{1b}' => {
                skip_escape(&mut chars);
                continue;
            }
            // CSI as one C1 character: its parameters and final byte go with it.
            '\u{9b}' => {
                skip_csi(&mut chars);
                continue;
            }
            c if c.is_control() => out.push(picture(c)),
            c => out.push(c),
        }
        column += 1;
    }
    Cow::Owned(out)
}

/// The control picture of control character `c` (`␀`–`␟`, `␡`; `�` for C1 controls).
fn picture(c: char) -> char {
    match c as u32 {
        n @ 0..=0x1f => char::from_u32(0x2400 + n).unwrap_or('\u{fffd}'),
        0x7f => '\u{2421}',
        _ => '\u{fffd}',
    }
}

/// Skip what follows an ESC: a CSI or OSC sequence whole, or one more character.
fn skip_escape(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    match chars.next() {
        Some('[') => skip_csi(chars),
        // OSC, DCS, SOS, PM, APC: up to BEL or ST (`ESC \`).
        Some(']' | 'P' | 'X' | '^' | '_') => {
            while let Some(c) = chars.next() {
                if c == '\u{7}' {
                    break;
                }
                if c == '\u{1b}' {
                    if chars.peek() == Some(&'\\') {
                        chars.next();
                    }
                    break;
                }
            }
        }
        _ => {}
    }
}

/// Skip a CSI sequence's parameter and intermediate bytes and its final byte (`@`–`~`).
fn skip_csi(chars: &mut std::iter::Peekable<std::str::Chars<'_>>) {
    for c in chars.by_ref() {
        if ('@'..='~').contains(&c) {
            break;
        }
        if !(' '..='?').contains(&c) {
            // Not a CSI byte: the sequence was malformed; stop without eating more.
            break;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn escapes_are_removed_and_controls_shown() {
        assert!(matches!(sanitize("plain\ntext"), Cow::Borrowed(_)));
        assert_eq!(sanitize("a\u{1b}[31mred\u{1b}[0m"), "ared");
        assert_eq!(sanitize("\u{1b}]0;title\u{7}x"), "x");
        assert_eq!(sanitize("\u{1b}]8;;http://e\u{1b}\\link"), "link");
        assert_eq!(sanitize("bell\u{7} cr\r"), "bell\u{2407} cr\u{240d}");
        assert_eq!(sanitize("\u{9b}2Jgone"), "gone");
        assert_eq!(sanitize("a\tb"), "a   b");
        assert_eq!(sanitize("\u{1b}"), "");
        assert_eq!(sanitize("del\u{7f}"), "del\u{2421}");
    }
}
