//! `@` completion: the `@path` before the cursor completed from the working directory, as the
//! prompt's attachments are resolved (a path relative to it; `@@` is a literal `@`).

use std::path::Path;

/// Choices listed at most.
pub const MAX_CHOICES: usize = 64;

/// The `@` mention that ends at the end of `before` (the draft before the cursor): the
/// partial path after the `@`, or `None` when the cursor is not in one.
pub fn mention(before: &str) -> Option<&str> {
    let word_start = before.rfind(|c: char| c.is_whitespace()).map_or(0, |i| {
        i + before[i..].chars().next().map_or(1, char::len_utf8)
    });
    let word = &before[word_start..];
    let path = word.strip_prefix('@')?;
    if path.starts_with('@') {
        return None;
    }
    Some(path)
}

/// What completes a partial path.
#[derive(Debug, Default, PartialEq, Eq)]
pub struct Choices {
    /// The paths, sorted, directories ending in `/`; at most [`MAX_CHOICES`].
    pub paths: Vec<String>,
    /// Entries that matched but cannot be an `@` mention: their names hold white space (a
    /// mention runs to the next white space) or are not UTF-8.
    pub unmentionable: usize,
}

/// The entries of `cwd` that complete `partial` (`src/ma` → `src/main.rs`); hidden entries
/// only when the partial name starts with `.`. A partial path that leaves the working
/// directory (`..`, absolute) has none.
pub fn choices(cwd: &Path, partial: &str) -> Choices {
    let (dir, prefix) = match partial.rfind('/') {
        Some(i) => (&partial[..=i], &partial[i + 1..]),
        None => ("", partial),
    };
    let mut out = Choices::default();
    if dir.starts_with('/') || dir.split('/').any(|c| c == "..") {
        return out;
    }
    let Ok(entries) = std::fs::read_dir(cwd.join(dir)) else {
        return out;
    };
    for entry in entries.filter_map(Result::ok) {
        let name = entry.file_name();
        let Some(name) = name.to_str() else {
            out.unmentionable +=
                usize::from(name.as_encoded_bytes().starts_with(prefix.as_bytes()));
            continue;
        };
        if !name.starts_with(prefix) || (name.starts_with('.') && !prefix.starts_with('.')) {
            continue;
        }
        if name.contains(char::is_whitespace) {
            out.unmentionable += 1;
            continue;
        }
        let is_dir = entry.file_type().is_ok_and(|t| t.is_dir());
        out.paths
            .push(format!("{dir}{name}{}", if is_dir { "/" } else { "" }));
    }
    out.paths.sort();
    out.paths.truncate(MAX_CHOICES);
    out
}

/// The longest common prefix of `choices` (on character boundaries).
pub fn common_prefix(choices: &[String]) -> String {
    let Some(first) = choices.first() else {
        return String::new();
    };
    let mut end = first.len();
    for c in &choices[1..] {
        end = end.min(
            first
                .char_indices()
                .zip(c.chars())
                .find(|((_, a), b)| a != b)
                .map_or(first.len().min(c.len()), |((i, _), _)| i),
        );
    }
    first[..end].to_owned()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_mention_before_the_cursor() {
        assert_eq!(mention("look at @src/ma"), Some("src/ma"));
        assert_eq!(mention("@"), Some(""));
        assert_eq!(mention("mail me@example"), None);
        assert_eq!(mention("literal @@at"), None);
        assert_eq!(mention("no mention "), None);
        assert_eq!(mention("é @a"), Some("a"));
    }

    #[test]
    fn choices_come_from_the_working_directory() {
        let dir = tempfile::tempdir().unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/main.rs"), "").unwrap();
        std::fs::write(dir.path().join("src/map.rs"), "").unwrap();
        std::fs::write(dir.path().join(".hidden"), "").unwrap();
        std::fs::write(dir.path().join("setup.py"), "").unwrap();
        std::fs::write(dir.path().join("spaced name.txt"), "").unwrap();
        let paths = |p: &str| choices(dir.path(), p).paths;
        assert_eq!(paths("s"), ["setup.py", "src/"]);
        assert_eq!(
            choices(dir.path(), "s").unmentionable,
            1,
            "`spaced name.txt`"
        );
        assert_eq!(paths("src/ma"), ["src/main.rs", "src/map.rs"]);
        assert_eq!(paths(""), ["setup.py", "src/"]);
        assert_eq!(paths(".h"), [".hidden"]);
        assert!(paths("../").is_empty());
        assert!(paths("/etc/pa").is_empty());
        assert!(paths("nope/x").is_empty());
        let c = paths("src/ma");
        assert_eq!(common_prefix(&c), "src/ma");
        assert_eq!(common_prefix(&["abc".into()]), "abc");
        assert_eq!(common_prefix(&[]), "");
    }
}
