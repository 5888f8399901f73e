//! Styled text broken into lines of at most a width in terminal columns: at spaces, inside a
//! word only when one word is wider than the line (so brackets, punctuation, paths and URLs
//! stay with the text they touch). Widths are Unicode display
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

/// One unbreakable run of a paragraph: the non-space text between two spaces, which may cross
/// pieces (`**bold**,` is one word in two styles), or a space.
enum Token {
    Word(Vec<(String, Style)>),
    Space(Style),
}

/// `pieces` as words and spaces.
fn tokens(pieces: &[Piece]) -> Vec<Token> {
    let mut out = Vec::new();
    let mut word: Vec<(String, Style)> = Vec::new();
    for piece in pieces {
        let mut rest = piece.text.as_str();
        while !rest.is_empty() {
            let space = rest.starts_with(char::is_whitespace);
            let end = rest
                .find(|c: char| c.is_whitespace() != space)
                .unwrap_or(rest.len());
            let (run, after) = rest.split_at(end);
            if space {
                if !word.is_empty() {
                    out.push(Token::Word(std::mem::take(&mut word)));
                }
                out.push(Token::Space(piece.style));
            } else {
                word.push((run.to_owned(), piece.style));
            }
            rest = after;
        }
    }
    if !word.is_empty() {
        out.push(Token::Word(word));
    }
    out
}

/// `pieces` (one paragraph, no line breaks) broken into lines of at most `width` columns,
/// each starting with `first` (the first line) or `rest` (the others) — a list bullet and its
/// hanging indent, a quote bar. Lines break at spaces only: a bracket, a comma, a path or a
/// URL stays with the text it touches; a word wider than a whole line is broken between
/// grapheme clusters. A width of 0 is taken as 1.
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
    // What a line after a break holds at most.
    let full = f
        .width
        .saturating_sub(rest.iter().map(Span::width).sum())
        .max(1);
    let mut space: Option<Style> = None;
    for token in tokens(pieces) {
        let word = match token {
            Token::Space(style) => {
                space = Some(style);
                continue;
            }
            Token::Word(word) => word,
        };
        let w: usize = word.iter().map(|(t, _)| t.width()).sum();
        let gap = usize::from(space.is_some() && !f.empty);
        // A URL too long for any line still starts one, so it is cut as little as it can be.
        let url = w > full && word.iter().any(|(t, _)| t.contains("://"));
        if !f.empty && gap + w > f.room() && (w <= full || url) {
            // It fits on a line of its own: it starts the next one.
            f.break_line();
        } else if let (Some(style), 1) = (space, gap) {
            // It fits here, or fits on no line at all and is broken from here on.
            f.push(" ", style, 1);
        }
        space = None;
        if w <= f.room() {
            for (text, style) in &word {
                f.push(text, *style, text.width());
            }
            continue;
        }
        // A word wider than the room left: broken between grapheme clusters.
        for (text, style) in &word {
            let mut chunk = String::new();
            let mut chunk_w = 0;
            for g in text.graphemes(true) {
                let gw = g.width();
                if chunk_w + gw > f.room() {
                    if !chunk.is_empty() {
                        f.push(&chunk, *style, chunk_w);
                        chunk.clear();
                        chunk_w = 0;
                    }
                    if !f.empty {
                        f.break_line();
                    }
                }
                chunk.push_str(g);
                chunk_w += gw;
            }
            if !chunk.is_empty() {
                f.push(&chunk, *style, chunk_w);
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

    #[test]
    fn brackets_punctuation_paths_and_urls_stay_with_their_text() {
        let p = [Piece::new(
            "see the notes (in docs/notes.md) at https://example.com/a/b now",
            Style::new(),
        )];
        let lines = texts(&wrap(&p, 16, &[], &[]));
        for line in &lines {
            assert!(
                !line.starts_with(')') && !line.ends_with('(') && !line.starts_with('/'),
                "{lines:?}"
            );
        }
        assert!(
            lines.iter().any(|l| l.contains("docs/notes.md)")),
            "{lines:?}"
        );
        // A URL longer than a line is broken only because it must be.
        let url = [Piece::new(
            "go https://example.com/a/very/long/path",
            Style::new(),
        )];
        let lines = texts(&wrap(&url, 12, &[], &[]));
        assert_eq!(lines.concat(), "gohttps://example.com/a/very/long/path");
        assert_eq!(lines[0], "go", "it starts a line of its own: {lines:?}");
        // Across styles: `code`, stays whole with its comma.
        let bold = Style::new().add_modifier(ratatui_core::style::Modifier::BOLD);
        let mixed = [
            Piece::new("aaaa bbbb ", Style::new()),
            Piece::new("code", bold),
            Piece::new(", next", Style::new()),
        ];
        assert_eq!(
            texts(&wrap(&mixed, 12, &[], &[])),
            ["aaaa bbbb", "code, next"]
        );
    }
}
