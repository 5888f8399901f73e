//! Permission rules (`permissions.allow`, `.ask`, `.deny`): `TOOL` matches every call of the
//! tool; `TOOL(PATTERN)` matches a call whose subject matches the glob `PATTERN` — a shell
//! command (`bash(git status*)`: `*` is any text), or a path (`edit(src/**)`: `*` is any text
//! but `/`, `**` any number of directories, `?` one character). A shell command is matched
//! part by part: it is split on `;`, `&&`, `||`, `|`, `&`, newlines, parentheses, `$(…)` and
//! backquotes, and every part must match.

use smith_plugin_sdk::serde_json;

/// One parsed rule.
#[derive(Debug, PartialEq, Eq)]
pub struct Rule {
    /// The rule as written.
    pub text: String,
    /// The tool it is about.
    pub tool: String,
    /// The glob, when it has one.
    pub pattern: Option<String>,
}

impl Rule {
    /// Parse `TOOL` or `TOOL(PATTERN)`.
    ///
    /// # Errors
    /// A sentence naming the rule and what is wrong with it.
    pub fn parse(text: &str) -> Result<Self, String> {
        let (tool, pattern) = match text.split_once('(') {
            Some((tool, rest)) => {
                let pattern = rest
                    .strip_suffix(')')
                    .ok_or_else(|| format!("rule `{text}` opens `(` but does not end with `)`"))?;
                if pattern.is_empty() {
                    return Err(format!(
                        "rule `{text}` has an empty pattern; write `{tool}` to match every call"
                    ));
                }
                (tool, Some(pattern.to_owned()))
            }
            None => (text, None),
        };
        if tool.is_empty()
            || !tool
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            return Err(format!(
                "rule `{text}` does not start with a tool name (letters, digits, `_`, `-`)"
            ));
        }
        Ok(Self {
            text: text.to_owned(),
            tool: tool.to_owned(),
            pattern,
        })
    }

    /// Whether this rule matches `subject` of a call of `tool`.
    pub fn matches(&self, tool: &str, subject: &Subject) -> bool {
        if self.tool != tool {
            return false;
        }
        let Some(pattern) = &self.pattern else {
            return true;
        };
        match subject {
            Subject::Command(parts) => {
                !parts.is_empty() && parts.iter().all(|p| glob(pattern, p, false))
            }
            Subject::Path(path) => glob(pattern, path, true),
            Subject::Unparsed(_) | Subject::None => false,
        }
    }

    /// Whether this rule matches any part of `subject` of a call of `tool` (a deny or ask
    /// rule: one matching part is enough).
    pub fn matches_any(&self, tool: &str, subject: &Subject) -> bool {
        if self.tool != tool {
            return false;
        }
        let Some(pattern) = &self.pattern else {
            return true;
        };
        match subject {
            Subject::Command(parts) => parts.iter().any(|p| glob(pattern, p, false)),
            Subject::Path(path) => glob(pattern, path, true),
            Subject::Unparsed(text) => glob(pattern, text, false),
            Subject::None => false,
        }
    }
}

/// What a call's rules are matched against.
#[derive(Debug, PartialEq, Eq)]
pub enum Subject {
    /// A shell command (the `command` argument), split into its parts.
    Command(Vec<String>),
    /// A shell command that could not be split (an unclosed quote or substitution).
    Unparsed(String),
    /// A path (the `path` argument), relative to the working directory when inside it.
    Path(String),
    /// Neither.
    None,
}

impl Subject {
    /// The subject of a call with `arguments` (JSON) run in `cwd`.
    pub fn of(arguments: &str, cwd: &str) -> Self {
        let Ok(value) = serde_json::from_str::<serde_json::Value>(arguments) else {
            return Self::None;
        };
        if let Some(command) = value.get("command").and_then(|c| c.as_str()) {
            return match split(command) {
                Some(parts) => Self::Command(parts),
                None => Self::Unparsed(command.to_owned()),
            };
        }
        if let Some(path) = value.get("path").and_then(|c| c.as_str()) {
            let prefix = format!("{}/", cwd.trim_end_matches('/'));
            let path = path.strip_prefix(&prefix).unwrap_or(path);
            let path = path.strip_prefix("./").unwrap_or(path);
            return Self::Path(path.to_owned());
        }
        Self::None
    }
}

/// Whether `text` matches glob `pattern`: `*` any text (but `/` when `paths`), `**` any text
/// at all (with a following `/`, any number of whole directories, none included), `?` one
/// character, anything else itself.
pub fn glob(pattern: &str, text: &str, paths: bool) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    glob_at(&p, &t, paths)
}

fn glob_at(p: &[char], t: &[char], paths: bool) -> bool {
    match p.first() {
        None => t.is_empty(),
        Some('*') if p.get(1) == Some(&'*') => {
            let rest = &p[2..];
            // `**/` may also match no directory at all.
            if rest.first() == Some(&'/') && glob_at(&rest[1..], t, paths) {
                return true;
            }
            (0..=t.len()).any(|i| glob_at(rest, &t[i..], paths))
        }
        Some('*') => {
            let rest = &p[1..];
            for i in 0..=t.len() {
                if glob_at(rest, &t[i..], paths) {
                    return true;
                }
                if paths && t.get(i) == Some(&'/') {
                    return false;
                }
            }
            false
        }
        Some('?') => !t.is_empty() && (!paths || t[0] != '/') && glob_at(&p[1..], &t[1..], paths),
        Some(c) => t.first() == Some(c) && glob_at(&p[1..], &t[1..], paths),
    }
}

/// The parts of shell command `command`, each trimmed, empty ones left out; `None` when it
/// cannot be split (an unclosed quote, substitution or parenthesis).
pub fn split(command: &str) -> Option<Vec<String>> {
    let mut parts = Vec::new();
    let chars: Vec<char> = command.chars().collect();
    split_into(&chars, &mut parts)?;
    Some(parts)
}

/// Split `chars` into `parts`; the substitutions inside become parts of their own.
fn split_into(chars: &[char], parts: &mut Vec<String>) -> Option<()> {
    let mut current = String::new();
    let mut i = 0;
    let mut depth = 0usize;
    let end_part = |current: &mut String, parts: &mut Vec<String>| {
        let part = current.trim();
        if !part.is_empty() {
            parts.push(part.to_owned());
        }
        current.clear();
    };
    while i < chars.len() {
        let c = chars[i];
        match c {
            '\\' => {
                current.push(c);
                current.push(*chars.get(i + 1)?);
                i += 2;
                continue;
            }
            '\'' => {
                let close = chars[i + 1..].iter().position(|&d| d == '\'')? + i + 1;
                current.extend(&chars[i..=close]);
                i = close + 1;
                continue;
            }
            '"' => {
                let mut j = i + 1;
                current.push('"');
                loop {
                    match chars.get(j)? {
                        '\\' => {
                            current.push('\\');
                            current.push(*chars.get(j + 1)?);
                            j += 2;
                        }
                        '"' => break,
                        '$' if chars.get(j + 1) == Some(&'(') => {
                            let close = closing_paren(chars, j + 1)?;
                            split_into(&chars[j + 2..close], parts)?;
                            current.push_str("$(…)");
                            j = close + 1;
                        }
                        '`' => {
                            let close = chars[j + 1..].iter().position(|&d| d == '`')? + j + 1;
                            split_into(&chars[j + 1..close], parts)?;
                            current.push_str("`…`");
                            j = close + 1;
                        }
                        &d => {
                            current.push(d);
                            j += 1;
                        }
                    }
                }
                current.push('"');
                i = j + 1;
                continue;
            }
            '$' if chars.get(i + 1) == Some(&'(') => {
                let close = closing_paren(chars, i + 1)?;
                split_into(&chars[i + 2..close], parts)?;
                current.push_str("$(…)");
                i = close + 1;
                continue;
            }
            '`' => {
                let close = chars[i + 1..].iter().position(|&d| d == '`')? + i + 1;
                split_into(&chars[i + 1..close], parts)?;
                current.push_str("`…`");
                i = close + 1;
                continue;
            }
            '(' => {
                depth += 1;
                end_part(&mut current, parts);
            }
            ')' => {
                depth = depth.checked_sub(1)?;
                end_part(&mut current, parts);
            }
            ';' | '\n' | '&' | '|' => end_part(&mut current, parts),
            _ => current.push(c),
        }
        i += 1;
    }
    if depth != 0 {
        return None;
    }
    end_part(&mut current, parts);
    Some(())
}

/// The index of the `)` closing the `(` at `open`, quotes respected.
fn closing_paren(chars: &[char], open: usize) -> Option<usize> {
    let mut depth = 0usize;
    let mut i = open;
    while i < chars.len() {
        match chars[i] {
            '\\' => i += 1,
            '\'' => i += chars[i + 1..].iter().position(|&d| d == '\'')? + 1,
            '(' => depth += 1,
            ')' => {
                depth -= 1;
                if depth == 0 {
                    return Some(i);
                }
            }
            _ => {}
        }
        i += 1;
    }
    None
}
