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
            // A part matches as written or as the shell would run it: `\rm`, `FOO=1 rm`,
            // `/bin/rm` and `rm<TAB>-f` are all `rm -f` to a deny rule.
            Subject::Command(parts) => parts
                .iter()
                .any(|p| glob(pattern, p, false) || glob(pattern, &plain_command(p), false)),
            Subject::Path(path) => glob(pattern, path, true),
            Subject::Unparsed(text) => glob(pattern, text, false),
            Subject::None => false,
        }
    }
}

/// Words that come before the program a part runs without being it: shell keywords, and
/// commands that run the rest of their words as a program (`time rm …`, `env rm …`).
const PREFIXES: &[&str] = &[
    "{", "!", "if", "then", "else", "elif", "while", "until", "do", "time", "exec", "command",
    "builtin", "nohup", "env", "nice", "stdbuf", "setsid", "sudo", "doas", "coproc", "timeout",
    "ionice", "chrt", "taskset",
];

/// `part` as a deny or ask rule sees it: whitespace runs as one space; leading variable
/// assignments (`FOO=1`), redirections (`>x`, `2> log`), shell keywords and prefix commands
/// (`{`, `!`, `if`, `do`, `time`, `exec`, `command`, `env`, `nice`…, with their options) left
/// out; the program named by its file name, unquoted (`\rm`, `'rm'`, `"rm"`, `r\m`,
/// `/bin/rm` → `rm`). Never used to allow: `/tmp/evil/git` is not `git`. What it cannot see
/// through — a command given to `bash -c`, `eval`, `xargs` or a function — the permissions
/// guide names.
pub fn plain_command(part: &str) -> String {
    let words: Vec<&str> = part
        .split(|c: char| c.is_whitespace())
        .filter(|w| !w.is_empty())
        .collect();
    let mut at = 0;
    let mut after_prefix = false;
    while let Some(w) = words.get(at) {
        let assignment = w.split_once('=').is_some_and(|(name, _)| {
            !name.is_empty() && name.chars().all(|c| c.is_ascii_alphanumeric() || c == '_')
        });
        let redirect = w.trim_start_matches(|c: char| c.is_ascii_digit() || c == '&');
        if redirect.starts_with(['>', '<']) {
            // `>x` holds its target; `>` alone is followed by it.
            at += if redirect.trim_start_matches(['>', '<', '&', '|']).is_empty() {
                2
            } else {
                1
            };
            continue;
        }
        let option = after_prefix && (w.starts_with('-') || w.chars().all(|c| c.is_ascii_digit()));
        if assignment || option || PREFIXES.contains(w) {
            after_prefix = PREFIXES.contains(w) || option;
            at += 1;
            continue;
        }
        break;
    }
    let Some(program) = words.get(at) else {
        return String::new();
    };
    let program: String = program
        .chars()
        .filter(|c| !matches!(c, '\\' | '\'' | '"'))
        .collect();
    let program = program.rsplit('/').next().unwrap_or(&program).to_owned();
    std::iter::once(program.as_str())
        .chain(words[at + 1..].iter().copied())
        .collect::<Vec<_>>()
        .join(" ")
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
            return Self::Path(normal(path));
        }
        Self::None
    }
}

/// `path` with its `.` and `..` components resolved by name (`sub/../notes.txt` →
/// `notes.txt`); a `..` past the start stays (it names something outside).
fn normal(path: &str) -> String {
    let absolute = path.starts_with('/');
    let mut out: Vec<&str> = Vec::new();
    for part in path.split('/') {
        match part {
            "" | "." => {}
            ".." if out.last().is_some_and(|l| *l != "..") => {
                out.pop();
            }
            other => out.push(other),
        }
    }
    let joined = out.join("/");
    if absolute {
        format!("/{joined}")
    } else {
        joined
    }
}

/// Whether `text` matches glob `pattern`: `*` any text (but `/` when `paths`), `**` any text
/// at all (with a following `/`, any number of whole directories, none included), `?` one
/// character, anything else itself.
///
/// Time and memory are bounded by pattern length × text length (each pair of positions is
/// decided once), so no pattern makes a long command slow.
pub fn glob(pattern: &str, text: &str, paths: bool) -> bool {
    let p: Vec<char> = pattern.chars().collect();
    let t: Vec<char> = text.chars().collect();
    let mut memo = vec![None; (p.len() + 1) * (t.len() + 1)];
    Glob {
        p: &p,
        t: &t,
        paths,
        memo: &mut memo,
    }
    .at(0, 0)
}

/// One glob match in progress: whether `p[pi..]` matches `t[ti..]`, each pair decided once.
struct Glob<'a> {
    p: &'a [char],
    t: &'a [char],
    paths: bool,
    memo: &'a mut [Option<bool>],
}

impl Glob<'_> {
    fn at(&mut self, pi: usize, ti: usize) -> bool {
        let slot = pi * (self.t.len() + 1) + ti;
        if let Some(known) = self.memo[slot] {
            return known;
        }
        let (p, t) = (self.p, self.t);
        let matched = match p.get(pi) {
            None => ti == t.len(),
            Some('*') if p.get(pi + 1) == Some(&'*') => {
                // `**/` may also match no directory at all.
                (p.get(pi + 2) == Some(&'/') && self.at(pi + 3, ti))
                    || (ti..=t.len()).any(|i| self.at(pi + 2, i))
            }
            Some('*') => {
                let mut found = false;
                for i in ti..=t.len() {
                    if self.at(pi + 1, i) {
                        found = true;
                        break;
                    }
                    if self.paths && t.get(i) == Some(&'/') {
                        break;
                    }
                }
                found
            }
            Some('?') => ti < t.len() && (!self.paths || t[ti] != '/') && self.at(pi + 1, ti + 1),
            Some(c) => t.get(ti) == Some(c) && self.at(pi + 1, ti + 1),
        };
        self.memo[slot] = Some(matched);
        matched
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
