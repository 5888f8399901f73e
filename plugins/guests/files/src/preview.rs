//! What an edit changed, as a unified diff with line numbers and three lines of context: the
//! person sees where in the file the change landed, and the model can check it without
//! reading the file again. Computed from the file as read before the edit (the edit is then
//! made against that content's hash) and the replacements, each of which occurs exactly once.

/// Lines of unchanged context around each change.
const CONTEXT: usize = 3;
/// The most diff lines a preview holds; the rest is counted.
const MOST_LINES: usize = 60;

/// The diff of applying `edits` (old text, new text) to `before`, or `None` when an old
/// text is not found exactly once (the edit would be refused; nothing to show).
pub(crate) fn diff(before: &str, edits: &[(String, String)]) -> Option<String> {
    let lines: Vec<&str> = before.split_inclusive('\n').collect();
    // Each line's starting byte offset.
    let mut starts = Vec::with_capacity(lines.len() + 1);
    let mut at = 0;
    for l in &lines {
        starts.push(at);
        at += l.len();
    }
    starts.push(at);
    let line_of = |offset: usize| starts.partition_point(|&s| s <= offset).saturating_sub(1);
    // The changed line ranges (0-based, end exclusive) with their new lines, in file order.
    let mut changes = Vec::new();
    for (old, new) in edits {
        let pos = before.find(old.as_str())?;
        let next = pos + old.chars().next().map_or(1, char::len_utf8);
        if old.is_empty() || before[next..].contains(old.as_str()) {
            return None;
        }
        let first = line_of(pos);
        let end = pos + old.len();
        // The last line the old text touches (a text ending in a line break ends its line).
        let last = line_of(end.saturating_sub(1)).max(first);
        let prefix = &before[starts[first]..pos];
        let suffix = &before[end..starts[last + 1]];
        let replaced = format!("{prefix}{new}{suffix}");
        let new_lines: Vec<String> = replaced.split_inclusive('\n').map(str::to_owned).collect();
        changes.push((first, last + 1, new_lines));
    }
    changes.sort_by_key(|c| c.0);
    if changes.windows(2).any(|w| w[1].0 < w[0].1) {
        return None;
    }
    let mut out = Vec::new();
    let mut shift: isize = 0;
    let mut previous_end = 0;
    for (i, (first, end, new_lines)) in changes.iter().enumerate() {
        let before_from = first.saturating_sub(CONTEXT).max(previous_end);
        let next_first = changes.get(i + 1).map_or(lines.len(), |c| c.0);
        let after_to = (end + CONTEXT).min(next_first).min(lines.len());
        let old_count = after_to - before_from;
        let new_count = old_count - (end - first) + new_lines.len();
        let new_start = before_from as isize + shift + 1;
        out.push(format!(
            "@@ -{},{} +{},{} @@",
            before_from + 1,
            old_count,
            new_start,
            new_count
        ));
        let line =
            |sign: char, text: &str| format!("{sign}{}", text.trim_end_matches(['\n', '\r']));
        out.extend(lines[before_from..*first].iter().map(|l| line(' ', l)));
        out.extend(lines[*first..*end].iter().map(|l| line('-', l)));
        out.extend(new_lines.iter().map(|l| line('+', l)));
        out.extend(lines[*end..after_to].iter().map(|l| line(' ', l)));
        shift += new_lines.len() as isize - (end - first) as isize;
        previous_end = after_to;
    }
    if out.len() > MOST_LINES {
        let cut = out.len() - MOST_LINES;
        out.truncate(MOST_LINES);
        out.push(format!("[… {cut} more diff lines]"));
    }
    Some(out.join("\n"))
}
