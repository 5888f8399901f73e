//! Whether a page is built to defeat the tokenizer: `html5gum` reads a tag's attributes by
//! direct calls from one state to the next, so its stack grows with the attributes of one tag
//! (start or end), and a guest's stack is small — a tag of 5,000 double-quoted attributes
//! exhausted it. Such a page is shown as text instead.
//!
//! The scan follows the tokenizer's states (WHATWG HTML §13.2.5) where they decide what is a
//! tag: tag open (`<` and a letter, `</` and a letter), comments (`<!--` to `-->` or `--!>`,
//! `<!-->` and `<!--->` ending at once), declarations and bogus comments (to `>`), attribute
//! values (a quote is a quote only right after `=`), and the raw-text elements the converter
//! switches the tokenizer into (their text ends only at their own end tag). It never skips
//! what the tokenizer reads as tags; where it is unsure it counts more, not fewer.

/// More attributes than this in one tag and the page is not converted as HTML.
pub(crate) const MAX_ATTRIBUTES: usize = 500;

/// The elements whose content the tokenizer reads as text (`html5gum::naive_next_state`),
/// and `plaintext`, whose content runs to the end.
const RAW_TEXT: &[&[u8]] = &[
    b"textarea",
    b"title",
    b"script",
    b"style",
    b"iframe",
    b"xmp",
    b"noembed",
    b"noframe",
    b"noscript",
];

/// Why `html` is not converted as HTML, if it has a tag of more than [`MAX_ATTRIBUTES`]
/// attributes.
pub(crate) fn pathological(html: &str) -> Option<String> {
    let b = html.as_bytes();
    let mut i = 0;
    while let Some(found) = find(b, i, b"<") {
        i = found + 1;
        let end_tag = match (b.get(i), b.get(i + 1)) {
            (Some(c), _) if c.is_ascii_alphabetic() => false,
            (Some(b'/'), Some(c)) if c.is_ascii_alphabetic() => {
                i += 1;
                true
            }
            (Some(b'!'), _) if b[i..].starts_with(b"!--") => {
                i = comment_end(b, i + 3);
                continue;
            }
            // A declaration, a processing instruction, `</` and no letter: a bogus comment.
            (Some(b'!' | b'?' | b'/'), _) => {
                i = find(b, i, b">").map_or(b.len(), |e| e + 1);
                continue;
            }
            _ => continue,
        };
        let name_start = i;
        while i < b.len() && !matches!(b[i], b'\t' | b'\n' | b'\x0c' | b' ' | b'/' | b'>') {
            i += 1;
        }
        let name = b[name_start..i].to_ascii_lowercase();
        let (attributes, after) = attributes(b, i);
        if attributes > MAX_ATTRIBUTES {
            return Some(format!(
                "one of its tags has more than {MAX_ATTRIBUTES} attributes"
            ));
        }
        i = after;
        if end_tag {
            continue;
        }
        if name == b"plaintext" {
            return None;
        }
        // `<style/>` inside SVG is empty and the converter does not switch the tokenizer for
        // it; taking every `/>` tag as empty reads more as markup, never less.
        let self_closing = after >= 2 && b[after - 1] == b'>' && b[after - 2] == b'/';
        if RAW_TEXT.contains(&name.as_slice()) && !self_closing {
            i = raw_text_end(b, i, &name);
        }
    }
    None
}

/// Where `needle` next is in `b` from `from`.
fn find(b: &[u8], from: usize, needle: &[u8]) -> Option<usize> {
    b.get(from..)?
        .windows(needle.len())
        .position(|w| w == needle)
        .map(|at| from + at)
}

/// Past the end of a comment whose text starts at `at` (after `<!--`).
fn comment_end(b: &[u8], at: usize) -> usize {
    let rest = &b[at.min(b.len())..];
    if rest.starts_with(b">") {
        return at + 1;
    }
    if rest.starts_with(b"->") {
        return at + 2;
    }
    let closed = find(b, at, b"-->").map(|e| e + 3);
    let banged = find(b, at, b"--!>").map(|e| e + 4);
    match (closed, banged) {
        (Some(x), Some(y)) => x.min(y),
        (Some(x), None) | (None, Some(x)) => x,
        (None, None) => b.len(),
    }
}

/// The attributes of the tag whose name ends at `at`, and where the tag ends.
fn attributes(b: &[u8], mut i: usize) -> (usize, usize) {
    let white = |c: u8| matches!(c, b'\t' | b'\n' | b'\x0c' | b' ');
    let mut count = 0;
    loop {
        // Before an attribute's name: white space and `/` (a self-closing `/` not before `>`
        // is read as nothing).
        while i < b.len() && (white(b[i]) || b[i] == b'/') {
            i += 1;
        }
        match b.get(i) {
            None => return (count, b.len()),
            Some(b'>') => return (count, i + 1),
            Some(_) => {}
        }
        count += 1;
        // The name: its first character may be `=`.
        i += 1;
        while i < b.len() && !(white(b[i]) || matches!(b[i], b'/' | b'>' | b'=')) {
            i += 1;
        }
        while i < b.len() && white(b[i]) {
            i += 1;
        }
        if b.get(i) != Some(&b'=') {
            continue;
        }
        i += 1;
        while i < b.len() && white(b[i]) {
            i += 1;
        }
        match b.get(i) {
            Some(&quote @ (b'"' | b'\'')) => {
                i = find(b, i + 1, &[quote]).map_or(b.len(), |e| e + 1);
            }
            Some(b'>') | None => {}
            Some(_) => {
                while i < b.len() && !(white(b[i]) || b[i] == b'>') {
                    i += 1;
                }
            }
        }
    }
}

/// Where the raw text of element `name` that starts at `at` ends: at the `<` of its end tag
/// (`</NAME` followed by white space, `/` or `>`, any case), or the end of the page.
fn raw_text_end(b: &[u8], mut at: usize, name: &[u8]) -> usize {
    while let Some(open) = find(b, at, b"</") {
        let after = open + 2 + name.len();
        let named = b
            .get(open + 2..after)
            .is_some_and(|n| n.eq_ignore_ascii_case(name));
        if named
            && b.get(after)
                .is_none_or(|c| matches!(c, b'\t' | b'\n' | b'\x0c' | b' ' | b'/' | b'>'))
        {
            return open;
        }
        at = open + 2;
    }
    b.len()
}

#[cfg(test)]
mod tests {
    use super::{MAX_ATTRIBUTES, pathological};

    fn attributes(n: usize) -> String {
        (0..n).map(|i| format!(" a{i}=\"x\"")).collect()
    }

    #[test]
    fn a_tag_of_too_many_attributes_is_found_wherever_the_tokenizer_reads_one() {
        let many = attributes(MAX_ATTRIBUTES + 1);
        for page in [
            format!("<p{many}>text</p>"),
            // An end tag's attributes are read as a start tag's.
            format!("<p>text</p{many}>"),
            // A quote is a quote only after `=`: `x'` is a name.
            format!("<p x'{many}>"),
            // A comment ends at `-->`, `--!>`, or at once for `<!-->`.
            format!("<!-- <b ' --><p{many}>"),
            format!("<!-- a --!><p{many}>"),
            format!("<!--><p{many}>"),
            // `stylex` is no raw-text element; a script's text ends at its end tag, which is
            // read with its attributes.
            format!("<stylex><p{many}>"),
            format!("<script>var a = '<p>';</script{many}>"),
            format!("<SCRIPT>x</Script><p{many}>"),
            // An SVG's empty `<style/>` is not a style sheet: what follows is markup.
            format!("<svg><style/></svg><p{many}>"),
        ] {
            assert!(
                pathological(&page).is_some(),
                "{}",
                page.get(..60).unwrap_or(&page)
            );
        }
    }

    #[test]
    fn ordinary_pages_and_text_that_only_looks_like_tags_pass() {
        let many = attributes(MAX_ATTRIBUTES + 1);
        for page in [
            format!("<p{}>text</p>", attributes(MAX_ATTRIBUTES)),
            // Inside a comment, a script or a quoted value, tags are text.
            format!("<!-- <p{many}> -->"),
            format!("<script>let s = \"<p{many}>\";</script>"),
            format!("<style>/* <p{many}> */</style>"),
            format!("<a title='<p{many}>'>x</a>"),
            format!("a < b and{many} b > c"),
            format!("<plaintext><p{many}>"),
            "<p>It's a \"quoted\" apostrophe's page</p>".to_owned(),
        ] {
            assert!(
                pathological(&page).is_none(),
                "{}",
                page.get(..60).unwrap_or(&page)
            );
        }
    }
}
