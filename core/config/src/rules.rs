//! The syntax of permission rules (`permissions.allow`, `.ask`, `.deny`; the permissions
//! guide): a setting holds comma-separated rules, each `TOOL` or `TOOL(PATTERN)`. What a
//! pattern matches is the bundled `permissions` plugin's; this is only the shape every reader
//! and writer of the settings agrees on.

/// `text` split on the commas outside parentheses, each piece trimmed, empty ones left out.
pub fn split(text: &str) -> Vec<String> {
    pieces(text).into_iter().filter(|r| !r.is_empty()).collect()
}

/// `text` split on the commas outside parentheses, each piece trimmed, empty ones kept (a
/// setting's check refuses them).
pub fn pieces(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut depth = 0usize;
    let mut current = String::new();
    for c in text.chars() {
        match c {
            '(' => depth += 1,
            ')' => depth = depth.saturating_sub(1),
            ',' if depth == 0 => {
                out.push(std::mem::take(&mut current));
                continue;
            }
            _ => {}
        }
        current.push(c);
    }
    out.push(current);
    out.into_iter().map(|r| r.trim().to_owned()).collect()
}

/// Whether `rule` is `TOOL` or `TOOL(PATTERN)` (the syntax the `permissions` plugin takes).
///
/// # Errors
/// What is wrong with it.
pub fn check(rule: &str) -> Result<(), String> {
    let (tool, pattern) = match rule.split_once('(') {
        Some((tool, rest)) => match rest.strip_suffix(')') {
            Some(pattern) => (tool, Some(pattern)),
            None => return Err("opens `(` but does not end with `)`".to_owned()),
        },
        None => (rule, None),
    };
    if tool.is_empty()
        || !tool
            .chars()
            .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
    {
        return Err("does not start with a tool name (letters, digits, `_`, `-`)".to_owned());
    }
    if pattern.is_some_and(str::is_empty) {
        return Err(format!(
            "has an empty pattern (write `{tool}` to match every call)"
        ));
    }
    Ok(())
}
