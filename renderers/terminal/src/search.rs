//! Finding text in the transcript: a block holds the query (ignoring case), and where the query
//! shows in a drawn row, so the match is highlighted in the cells the person sees.

use ratatui_core::buffer::Buffer;
use ratatui_core::layout::Rect;
use ratatui_core::style::Style;

/// Whether `haystack` holds `needle`, ignoring case; `needle` must already be lowercase (as
/// [`str::to_lowercase`] makes it). An empty needle is in everything.
pub fn contains(haystack: &str, needle: &str) -> bool {
    if needle.is_empty() {
        return true;
    }
    if haystack.is_ascii() && needle.is_ascii() {
        let (h, n) = (haystack.as_bytes(), needle.as_bytes());
        return h.windows(n.len()).any(|w| w.eq_ignore_ascii_case(n));
    }
    haystack.to_lowercase().contains(needle)
}

/// Style every occurrence of `needle` (lowercase, not empty) in the rows of `area` of `buf`
/// with `style`, as the cells read: an occurrence is found within one row (a match a wrap
/// splits across two rows is not highlighted). Returns how many were found.
pub fn highlight(buf: &mut Buffer, area: Rect, needle: &str, style: Style) -> usize {
    if needle.is_empty() {
        return 0;
    }
    let mut found = 0;
    for y in area.top()..area.bottom() {
        // The row's text, lowercase, and the column each byte of it came from.
        let mut text = String::new();
        let mut columns = Vec::new();
        for x in area.left()..area.right() {
            let symbol = buf[(x, y)].symbol().to_lowercase();
            columns.extend(std::iter::repeat_n(x, symbol.len()));
            text.push_str(&symbol);
        }
        let mut from = 0;
        while let Some(at) = text[from..].find(needle) {
            let start = from + at;
            let end = start + needle.len();
            let (first, last) = (columns[start], columns[end - 1]);
            buf.set_style(Rect::new(first, y, last - first + 1, 1), style);
            found += 1;
            from = end;
        }
    }
    found
}

#[cfg(test)]
mod tests {
    use super::*;
    use ratatui_core::style::Modifier;

    #[test]
    fn case_is_ignored_in_ascii_and_beyond() {
        assert!(contains("The Parser failed", "parser"));
        assert!(contains("Ärger im Büro", "ärger"));
        assert!(!contains("nothing here", "parser"));
        assert!(contains("anything", ""));
    }

    #[test]
    fn every_occurrence_in_a_row_is_styled() {
        let area = Rect::new(0, 0, 20, 2);
        let mut buf = Buffer::empty(area);
        buf.set_string(0, 0, "foo Foo bar", Style::new());
        buf.set_string(0, 1, "日本foo", Style::new());
        let style = Style::new().add_modifier(Modifier::REVERSED);
        assert_eq!(highlight(&mut buf, area, "foo", style), 3);
        assert!(buf[(0, 0)].modifier.contains(Modifier::REVERSED));
        assert!(buf[(4, 0)].modifier.contains(Modifier::REVERSED));
        assert!(!buf[(3, 0)].modifier.contains(Modifier::REVERSED));
        // After two wide characters (four columns), at column 4.
        assert!(buf[(4, 1)].modifier.contains(Modifier::REVERSED));
        assert!(!buf[(3, 1)].modifier.contains(Modifier::REVERSED));
    }
}
