//! Smith's terminal renderer: the widgets and layout of the fullscreen terminal UI, drawn into
//! a ratatui [`Buffer`](ratatui_core::buffer::Buffer) — no I/O, no terminal, so every widget
//! is tested by drawing it (spec: Terminal interface; DESIGN §10). The event loop, input and
//! terminal modes are `frontends/tui`'s.
//!
//! - [`transcript`]: UI intents folded into blocks (messages, thinking, tool activity,
//!   notices, run ends) and drawn as lines for a width;
//! - [`markdown`]: assistant text as styled lines;
//! - [`window`]: the transcript's working set — resident history chunks and the live
//!   blocks — and its visible window, held at a block or following the bottom;
//! - [`search`]: finding text in blocks and highlighting it where it is drawn;
//! - [`input`]: the input editor (draft, motions, history, paste chips) and its widget;
//! - [`status`]: the status line;
//! - [`sanitize`]: no control sequence from a model, tool or plugin reaches the terminal;
//! - [`theme`]: every style, as data ([`Theme::plain`] for `NO_COLOR`).

pub mod input;
pub mod links;
pub mod markdown;
pub mod sanitize;
pub mod search;
pub mod status;
mod table;
pub mod theme;
mod tool;
pub mod transcript;
pub mod window;
pub mod wrap;

pub use theme::Theme;

use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

/// `text` cut to at most `width` columns, ending in `…` when it was cut (between grapheme
/// clusters, so a wide character is never split).
pub fn cut_to_width(text: &str, width: usize) -> String {
    if text.width() <= width {
        return text.to_owned();
    }
    let mut out = String::new();
    let mut used = 0;
    for g in text.graphemes(true) {
        let w = g.width();
        if used + w + 1 > width {
            break;
        }
        out.push_str(g);
        used += w;
    }
    if width > 0 {
        out.push('…');
    }
    out
}
