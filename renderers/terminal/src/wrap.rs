//! Styled text broken into lines of at most a width in terminal columns: at spaces where it
//! can, inside a word only when one word is wider than the line. Widths are Unicode display
//! widths (UAX #11), counted per grapheme cluster, so a wide character is never split.

use ratatui_core::style::Style;
use ratatui_core::text::{Line, Span};
use unicode_segmentation::UnicodeSegmentation;
use unicode_width::UnicodeWidthStr;

/// One styled piece of a paragraph.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Piece {
    /// The text (no line breaks).
    pub text: String,
    /// Its style.
    pub style: Style,
}

impl Piece {
    /// `text` in `style`.
    pub fn new(text: impl Into<String>, style: Style) -> Self {
        Self {
            text: text.into(),
            style,
        }
    }
}

/// Lines being filled.
struct Filler<'p> {
    width: usize,
    rest: &'p [Span<'static>],
    lines: Vec<Line<'static>>,
    line: Vec<Span<'static>>,
    used: usize,
    /// No word on the current line yet.
    empty: bool,
}

impl Filler<'_> {
    fn break_line(&mut self) {
        let done = std::mem::replace(&mut self.line, self.rest.to_vec());
        self.lines.push(Line::from(done));
        self.used = self.rest.iter().map(Span::width).sum();
        self.empty = true;
    }

    /// Room left on the current line, at least 1 (a prefix wider than the line still leaves
    /// one column for text, so filling always advances).
    fn room(&self) -> usize {
        self.width
            .saturating_sub(self.used)
            .max(usize::from(self.empty))
    }

    fn push(&mut self, text: &str, style: Style, w: usize) {
        self.line.push(Span::styled(text.to_owned(), style));
        self.used += w;
        self.empty = false;
    }
}

/// `pieces` (one paragraph, no line breaks) broken into lines of at most `width` columns,
/// each starting with `first` (the first line) or `rest` (the others) — a list bullet and its
/// hanging indent, a quote bar. A width of 0 is taken as 1.
pub fn wrap(
    pieces: &[Piece],
    width: u16,
    first: &[Span<'static>],
    rest: &[Span<'static>],
) -> Vec<Line<'static>> {
    let mut f = Filler {
        width: usize::from(width.max(1)),
        rest,
        lines: Vec::new(),
        line: first.to_vec(),
        used: first.iter().map(Span::width).sum(),
        empty: true,
    };
    let mut space: Option<Style> = None;
    for piece in pieces {
        for word in piece.text.split_word_bounds() {
            if word.chars().all(char::is_whitespace) {
                space = Some(piece.style);
                continue;
            }
            let w = word.width();
            let gap = usize::from(space.is_some() && !f.empty);
            if !f.empty && gap + w > f.room() {
                f.break_line();
            } else if let (Some(style), 1) = (space, gap) {
                f.push(" ", style, 1);
            }
            space = None;
            if w <= f.room() {
                f.push(word, piece.style, w);
                continue;
            }
            // One word wider than the line: broken between grapheme clusters.
            let mut chunk = String::new();
            let mut chunk_w = 0;
            for g in word.graphemes(true) {
                let gw = g.width();
                if chunk_w + gw > f.room() && !chunk.is_empty() {
                    f.push(&chunk, piece.style, chunk_w);
                    f.break_line();
                    chunk.clear();
                    chunk_w = 0;
                }
                chunk.push_str(g);
                chunk_w += gw;
            }
            if !chunk.is_empty() {
                f.push(&chunk, piece.style, chunk_w);
            }
        }
    }
    let last = std::mem::take(&mut f.line);
    f.lines.push(Line::from(last));
    f.lines
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texts(lines: &[Line<'_>]) -> Vec<String> {
        lines.iter().map(ToString::to_string).collect()
    }

    #[test]
    fn words_wrap_at_spaces_and_long_words_break() {
        let p = [Piece::new("the quick brown fox jumps", Style::new())];
        assert_eq!(
            texts(&wrap(&p, 10, &[], &[])),
            ["the quick", "brown fox", "jumps"]
        );
        let bullet = [Span::raw("• ")];
        let hang = [Span::raw("  ")];
        assert_eq!(
            texts(&wrap(&p, 12, &bullet, &hang)),
            ["• the quick", "  brown fox", "  jumps"]
        );
        let long = [Piece::new("abcdefghij", Style::new())];
        assert_eq!(texts(&wrap(&long, 4, &[], &[])), ["abcd", "efgh", "ij"]);
        // Wide characters are never split and never overflow.
        let wide = [Piece::new("日本語テキスト", Style::new())];
        for line in wrap(&wide, 5, &[], &[]) {
            assert!(line.width() <= 5, "{line}");
        }
        assert_eq!(texts(&wrap(&[], 5, &[], &[])), [""]);
    }
}
