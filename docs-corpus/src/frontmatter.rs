//! Front matter of a corpus document. Shared with `build.rs` (included by path), so it uses
//! only `std`.

/// The kinds a document may have.
pub const KINDS: &[&str] = &["guide", "tutorial", "reference"];

/// The parsed front matter and the body that follows it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FrontMatter {
    /// Stable id: lowercase ASCII letters, digits, `-` and `/`.
    pub id: String,
    /// Human title.
    pub title: String,
    /// `guide`, `tutorial` or `reference`.
    pub kind: String,
    /// Search tags.
    pub tags: Vec<String>,
}

/// Split a document's text into front matter and body (the text after the closing `---`).
///
/// The front matter is the block between a first line `---` and the next line `---`, holding
/// `key: value` lines; `tags` takes a bracketed, comma-separated list. Unknown keys are errors.
///
/// # Errors
/// A message naming the 1-based line and what is wrong.
pub fn parse(text: &str) -> Result<(FrontMatter, &str), String> {
    let rest = text
        .strip_prefix("---\n")
        .ok_or("line 1: a document must start with a `---` line opening its front matter")?;
    let end = rest
        .find("\n---\n")
        .ok_or("the front matter is not closed by a `---` line")?;
    let head = &rest[..end];
    let body = &rest[end + "\n---\n".len()..];
    let (mut id, mut title, mut kind, mut tags) = (None, None, None, Vec::new());
    for (n, line) in head.lines().enumerate() {
        let line_no = n + 2;
        if line.trim().is_empty() {
            continue;
        }
        let (key, value) = line
            .split_once(':')
            .ok_or_else(|| format!("line {line_no}: expected `key: value`, found `{line}`"))?;
        let value = value.trim();
        match key.trim() {
            "id" => id = Some(value.to_owned()),
            "title" => title = Some(value.to_owned()),
            "kind" => kind = Some(value.to_owned()),
            "tags" => {
                let list = value
                    .strip_prefix('[')
                    .and_then(|v| v.strip_suffix(']'))
                    .ok_or_else(|| {
                        format!("line {line_no}: tags must be a list like [eval, json]")
                    })?;
                tags = list
                    .split(',')
                    .map(|t| t.trim().to_owned())
                    .filter(|t| !t.is_empty())
                    .collect();
            }
            other => {
                return Err(format!(
                    "line {line_no}: unknown front-matter key `{other}`; known keys are id, title, kind, tags"
                ));
            }
        }
    }
    let id = id
        .filter(|v| !v.is_empty())
        .ok_or("the front matter lacks `id`")?;
    if !id
        .chars()
        .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-' || c == '/')
        || id.starts_with('/')
        || id.ends_with('/')
    {
        return Err(format!(
            "id `{id}` must be lowercase ASCII letters, digits, `-` and inner `/`"
        ));
    }
    let title = title
        .filter(|v| !v.is_empty())
        .ok_or("the front matter lacks `title`")?;
    let kind = kind.ok_or("the front matter lacks `kind`")?;
    if !KINDS.contains(&kind.as_str()) {
        return Err(format!("kind `{kind}` is not one of {}", KINDS.join(", ")));
    }
    Ok((
        FrontMatter {
            id,
            title,
            kind,
            tags,
        },
        body,
    ))
}
