//! A document's sections: what the search indexes and answers with. Shared with `build.rs`
//! (included by path); uses only `std`.
//!
//! A section starts at an ATX heading (`#` to `######` and a space, outside fenced code
//! blocks) and runs to the line before the next heading of any level; text before the first
//! heading is a section headed by the document's title.

/// One section of a document body.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Section<'a> {
    /// The heading's text as written (markdown kept), or the document title for text before
    /// the first heading.
    pub(crate) heading: &'a str,
    /// Its first body line (the heading's), 1-based.
    pub(crate) first_line: usize,
    /// Its last non-blank body line, 1-based, inclusive.
    pub(crate) last_line: usize,
    /// The text under the heading, heading line excluded.
    pub(crate) text: String,
}

/// The heading text of `line` when it is an ATX heading.
fn heading(line: &str) -> Option<&str> {
    let hashes = line.len() - line.trim_start_matches('#').len();
    let rest = &line[hashes..];
    ((1..=6).contains(&hashes) && rest.starts_with(' '))
        .then(|| rest.trim().trim_end_matches('#').trim_end())
}

/// The sections of `body`, in order; `title` heads text before the first heading. Sections
/// with no text and no heading of their own are left out.
pub(crate) fn sections<'a>(body: &'a str, title: &'a str) -> Vec<Section<'a>> {
    let mut out: Vec<Section<'a>> = Vec::new();
    let mut current = Section {
        heading: title,
        first_line: 1,
        last_line: 0,
        text: String::new(),
    };
    let mut fence: Option<(char, usize)> = None;
    for (index, line) in body.lines().enumerate() {
        let number = index + 1;
        let trimmed = line.trim_start();
        let run = |c: char| trimmed.len() - trimmed.trim_start_matches(c).len();
        match fence {
            Some((c, n)) if run(c) >= n && trimmed.trim_start_matches(c).trim().is_empty() => {
                fence = None;
            }
            Some(_) => {}
            None if run('`') >= 3 => fence = Some(('`', run('`'))),
            None if run('~') >= 3 => fence = Some(('~', run('~'))),
            None => {
                if let Some(text) = heading(line) {
                    if current.last_line > 0 {
                        out.push(current);
                    }
                    current = Section {
                        heading: text,
                        first_line: number,
                        last_line: number,
                        text: String::new(),
                    };
                    continue;
                }
            }
        }
        if !line.trim().is_empty() {
            current.last_line = number;
        }
        current.text.push_str(line);
        current.text.push('\n');
    }
    if current.last_line > 0 {
        out.push(current);
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn sections_split_at_headings_outside_code() {
        let body = "intro\n\n# Title\n\ntext\n```sh\n# not a heading\n```\n## Two ##\nmore\n\n";
        let s = sections(body, "Doc");
        let heads: Vec<_> = s
            .iter()
            .map(|s| (s.heading, s.first_line, s.last_line))
            .collect();
        assert_eq!(heads, [("Doc", 1, 1), ("Title", 3, 8), ("Two", 9, 10)]);
        assert!(s[1].text.contains("# not a heading"));
        assert_eq!(s[2].text, "more\n\n");
        assert!(sections("#hashtag\n", "D")[0].heading == "D");
    }
}
