//! Prompt commands: Markdown files whose text, with the arguments put in, is submitted as a
//! prompt when `/NAME ARGS` runs (the commands guide, "Prompt commands"). They come from the
//! trusted project's `.smith/commands/NAME.md`, then the user's `commands/NAME.md` beside the
//! user configuration (`$SMITH_HOME/commands/`, else `~/.config/smith/commands/`), then the
//! ones Smith bundles (`/init`, `/review`); a name already held keeps its holder and the
//! later claim is reported, naming both.
//!
//! A file may open with front matter between two `---` lines, `key: value` each (the shape
//! Claude Code's command files use): `description` (the palette's line), `argument-hint`
//! (what the usage line shows after the name), `model` (the turn runs on that model, the
//! session's own model staying for the turns after). Other keys (`allowed-tools`…) are
//! ignored. In the body, `$ARGUMENTS` stands for the whole argument text and `$1`…`$9` for
//! its words (quoted as a shell would); a body naming neither gets the arguments appended
//! after a blank line.

use std::path::{Path, PathBuf};
use std::sync::Arc;

/// The largest command file read, in bytes; a larger one is skipped with a notice.
pub const MAX_FILE_BYTES: u64 = 64 * 1024;

/// A prompt command as read from its file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct PromptCommand {
    /// Its name: the file's name without `.md`.
    pub name: String,
    /// The front matter's `description`, else the body's first non-empty line (cut to 80
    /// characters).
    pub description: String,
    /// The front matter's `argument-hint` (`[file] [focus]`), if any.
    pub argument_hint: Option<String>,
    /// The front matter's `model` (PROVIDER/MODEL, alias or group), if any.
    pub model: Option<String>,
    /// The body: the text after the front matter.
    pub body: String,
    /// Where it came from.
    pub origin: PromptOrigin,
}

/// Where a prompt command came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PromptOrigin {
    /// A trusted project's `.smith/commands/` file.
    Project(PathBuf),
    /// The user's `commands/` file.
    User(PathBuf),
    /// Bundled with Smith.
    Bundled,
}

impl std::fmt::Display for PromptOrigin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Project(p) => write!(f, "project command file {}", p.display()),
            Self::User(p) => write!(f, "user command file {}", p.display()),
            Self::Bundled => f.write_str("Smith's bundled prompt commands"),
        }
    }
}

/// Why a command file cannot be read as a prompt command: its line (1-based; 0 for the whole
/// file) and what is wrong.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseError {
    /// The line at fault, 1-based (0: the file as a whole).
    pub line: usize,
    /// What is wrong and what to write instead.
    pub why: String,
}

/// The prompt commands Smith bundles: `/init` and `/review`.
pub fn bundled() -> Vec<PromptCommand> {
    [
        ("init", include_str!("prompts/init.md")),
        ("review", include_str!("prompts/review.md")),
    ]
    .into_iter()
    .map(|(name, text)| {
        parse(name, text, PromptOrigin::Bundled)
            .unwrap_or_else(|e| panic!("bundled prompt command {name}: line {}: {}", e.line, e.why))
    })
    .collect()
}

/// Read a command file's text: its front matter and body.
///
/// # Errors
/// [`ParseError`]: front matter that is not closed, a line of it that is not `key: value`, a
/// key given twice, or an empty body.
pub fn parse(name: &str, text: &str, origin: PromptOrigin) -> Result<PromptCommand, ParseError> {
    let text = text.strip_prefix('\u{feff}').unwrap_or(text);
    // description, argument-hint, model
    const KEYS: [&str; 3] = ["description", "argument-hint", "model"];
    let mut values: [Option<String>; 3] = [None, None, None];
    let mut lines_of = [0usize; 3];
    let mut body = text;
    let mut lines = text.split_inclusive('\n');
    if lines.next().is_some_and(|l| l.trim_end() == "---") {
        let mut offset = text.find('\n').map_or(text.len(), |i| i + 1);
        let mut closed = false;
        // The key the last `key:` line set: one of KEYS, another (ignored), or none yet.
        let mut last: Option<Option<usize>> = None;
        for (i, raw) in lines.enumerate() {
            let line_no = i + 2;
            offset += raw.len();
            let line = raw.trim_end_matches(['\n', '\r']);
            if line.trim_end() == "---" {
                closed = true;
                break;
            }
            if line.trim().is_empty() || line.trim_start().starts_with('#') {
                continue;
            }
            // An indented line continues the value above (YAML's folded `>` and `|`), as does
            // a list item (`- Read`) under its key; one under an ignored key is ignored with it.
            if line.starts_with([' ', '\t', '-']) {
                match last {
                    Some(Some(k)) => {
                        let value = values[k].get_or_insert_with(String::new);
                        if !value.is_empty() {
                            value.push(' ');
                        }
                        value.push_str(line.trim());
                    }
                    Some(None) => {}
                    None => {
                        return Err(ParseError {
                            line: line_no,
                            why: "an indented line with no `key:` above it".into(),
                        });
                    }
                }
                continue;
            }
            let Some((key, value)) = line.split_once(':') else {
                return Err(ParseError {
                    line: line_no,
                    why: format!(
                        "`{}` is not `key: value` (the front matter ends with a line `---`)",
                        line.chars().take(60).collect::<String>()
                    ),
                });
            };
            let value = unquote(value.trim());
            let value = if matches!(value.as_str(), ">" | "|" | ">-" | "|-") {
                String::new()
            } else {
                value
            };
            let Some(k) = KEYS.iter().position(|k| *k == key.trim()) else {
                last = Some(None);
                continue;
            };
            if values[k].is_some() {
                return Err(ParseError {
                    line: line_no,
                    why: format!("`{}` is given twice", KEYS[k]),
                });
            }
            values[k] = Some(value);
            lines_of[k] = line_no;
            last = Some(Some(k));
        }
        if !closed {
            return Err(ParseError {
                line: 1,
                why: "the front matter opened with `---` is never closed by a line `---`".into(),
            });
        }
        body = &text[offset.min(text.len())..];
    }
    let [description, argument_hint, model] = values;
    // Line ends as typed input has them: `\n` (a file saved with CRLF sends no `\r`).
    let body = body.replace("\r\n", "\n");
    let body = body.trim_matches(['\n', '\r']).to_owned();
    if body.trim().is_empty() {
        return Err(ParseError {
            line: 0,
            why: "it has no text to submit (write the prompt after the front matter)".into(),
        });
    }
    if let Some(model) = model.as_deref().filter(|m| !m.trim().is_empty())
        && let Err(e) = model.trim().parse::<smith::Selection>()
    {
        return Err(ParseError {
            line: lines_of[2],
            why: format!(
                "`model: {model}` cannot be used: {e} (PROVIDER/MODEL, an alias or a group of models.kdl)"
            ),
        });
    }
    let nonempty = |v: Option<String>| v.filter(|v| !v.trim().is_empty());
    let description = nonempty(description)
        .map(|d| cut(&d, 200))
        .unwrap_or_else(|| {
            let first = body
                .lines()
                .map(|l| l.trim().trim_start_matches('#').trim())
                .find(|l| !l.is_empty())
                .unwrap_or_default();
            cut(first, 80)
        });
    Ok(PromptCommand {
        name: name.to_owned(),
        description,
        argument_hint: nonempty(argument_hint),
        model: nonempty(model),
        body,
        origin,
    })
}

/// `text` cut to `chars` characters, `…` marking a cut.
fn cut(text: &str, chars: usize) -> String {
    let mut out: String = text.chars().take(chars).collect();
    if out.len() < text.len() {
        out.push('…');
    }
    out
}

fn unquote(value: &str) -> String {
    for q in ['"', '\''] {
        if value.len() >= 2 && value.starts_with(q) && value.ends_with(q) {
            return value[1..value.len() - 1].to_owned();
        }
    }
    value.to_owned()
}

impl PromptCommand {
    /// The prompt for `arguments` (the text typed after the name): `$ARGUMENTS` replaced by
    /// it, `$1`…`$9` by its words ([`words`]), a missing word by nothing, `$$` by `$`. A
    /// body naming neither gets the arguments appended after a blank line.
    pub fn expand(&self, arguments: &str) -> String {
        let arguments = arguments.trim();
        let words = words(arguments);
        let mut out = String::with_capacity(self.body.len() + arguments.len());
        let mut used = false;
        let mut rest = self.body.as_str();
        while let Some(at) = rest.find('$') {
            out.push_str(&rest[..at]);
            let after = &rest[at + 1..];
            if let Some(tail) = after.strip_prefix('$') {
                out.push('$');
                rest = tail;
            } else if let Some(tail) = after.strip_prefix("ARGUMENTS") {
                out.push_str(arguments);
                used = true;
                rest = tail;
            } else if let Some(d) = after.chars().next().filter(|c| ('1'..='9').contains(c)) {
                let n = d as usize - '0' as usize;
                out.push_str(words.get(n - 1).map_or("", String::as_str));
                used = true;
                rest = &after[1..];
            } else {
                out.push('$');
                rest = after;
            }
        }
        out.push_str(rest);
        if !used && !arguments.is_empty() {
            out.push_str("\n\n");
            out.push_str(arguments);
        }
        out.truncate(out.trim_end().len());
        out
    }

    /// The usage line: `/NAME ARGUMENT-HINT`, or `/NAME [ARGUMENTS]`.
    pub fn usage(&self) -> String {
        match &self.argument_hint {
            Some(hint) => format!("/{} {hint}", self.name),
            None => format!("/{} [ARGUMENTS]", self.name),
        }
    }
}

/// The prompt commands for `cwd`, in the order they claim names: the trusted project's
/// (`.smith/commands/` of [`crate::paths::project_of`]), the user's (`commands/` beside the
/// user configuration), then Smith's bundled ones that no file replaces (a file named
/// `init.md` is the user's `/init`, with no notice); with a notice for each file skipped, and
/// one when an untrusted project's commands are not read.
pub fn discover(paths: &crate::Paths, cwd: &Path) -> (Vec<PromptCommand>, Vec<String>) {
    let mut dirs: Vec<(PathBuf, OriginOf)> = Vec::new();
    let mut notices = Vec::new();
    if let Some(project) = crate::paths::project_of(cwd) {
        let dir = project.join(".smith").join("commands");
        if dir.is_dir() {
            match crate::registry::trusted_project(paths, cwd) {
                Ok(Some(_)) => dirs.push((dir, PromptOrigin::Project)),
                Ok(None) => notices.push(format!(
                    "the project's prompt commands in {} were not read: the project {} is not trusted (trusting it reads them, as it applies its settings)",
                    dir.display(),
                    project.display()
                )),
                Err(e) => notices.push(format!(
                    "the project's prompt commands in {} were not read: {e}",
                    dir.display()
                )),
            }
        }
    }
    if let Some(config) = paths.user_config() {
        dirs.push((config.with_file_name("commands"), PromptOrigin::User));
    }
    let (mut commands, skipped) = read_dirs(&dirs);
    notices.extend(skipped);
    let replaced: Vec<String> = commands.iter().map(|c| c.name.clone()).collect();
    commands.extend(
        bundled()
            .into_iter()
            .filter(|b| !replaced.contains(&b.name)),
    );
    (commands, notices)
}

/// The words of `text` for `$1`…`$9`: split at whitespace, a part in double or single quotes
/// kept as one word without its quotes (an unclosed quote runs to the end). Nothing else is
/// special: `#142`, `--flag` and `src\\lib.rs` are words as typed.
pub fn words(text: &str) -> Vec<String> {
    let mut out = Vec::new();
    let mut word = String::new();
    let mut in_word = false;
    let mut quote: Option<char> = None;
    for c in text.chars() {
        match quote {
            Some(q) if c == q => quote = None,
            Some(_) => word.push(c),
            None if c == '"' || c == '\'' => {
                quote = Some(c);
                in_word = true;
            }
            None if c.is_whitespace() => {
                if in_word {
                    out.push(std::mem::take(&mut word));
                    in_word = false;
                }
            }
            None => {
                word.push(c);
                in_word = true;
            }
        }
    }
    if in_word {
        out.push(word);
    }
    out
}

/// The prompt commands of the directories in order (each a directory and the origin its
/// files get), the files of each in name order, with a notice for each file skipped (its
/// name, line and why) or directory that cannot be read. A missing directory has none, a
/// directory met twice (the same one by two ways) is read once; only `*.md` files directly
/// in it count.
pub fn read_dirs(dirs: &[(PathBuf, OriginOf)]) -> (Vec<PromptCommand>, Vec<String>) {
    let mut commands = Vec::new();
    let mut notices = Vec::new();
    let mut seen = Vec::new();
    for (dir, origin) in dirs {
        let entries = match std::fs::read_dir(dir) {
            Ok(entries) => entries,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => {
                notices.push(format!(
                    "the prompt commands in {} were not read: {e}",
                    dir.display()
                ));
                continue;
            }
        };
        let canonical = dir.canonicalize().unwrap_or_else(|_| dir.clone());
        if seen.contains(&canonical) {
            continue;
        }
        seen.push(canonical);
        let mut files: Vec<PathBuf> = entries
            .filter_map(Result::ok)
            .map(|e| e.path())
            .filter(|p| p.extension().is_some_and(|e| e == "md"))
            .collect();
        files.sort();
        for path in files {
            match read_file(&path, origin(path.clone())) {
                Ok(Some(c)) => commands.push(c),
                Ok(None) => {}
                Err(why) => notices.push(why),
            }
        }
    }
    (commands, notices)
}

/// One command file, or why it is skipped (a notice naming the file and line).
fn read_file(path: &Path, origin: PromptOrigin) -> Result<Option<PromptCommand>, String> {
    let skipped = |line: usize, why: &str| {
        let at = if line == 0 {
            path.display().to_string()
        } else {
            format!("{}:{line}", path.display())
        };
        format!("prompt command file {at} is skipped: {why}")
    };
    match std::fs::metadata(path) {
        Ok(m) if m.is_file() => {}
        // A directory named `x.md` is not a command file.
        Ok(_) => return Ok(None),
        Err(e) => return Err(skipped(0, &format!("it cannot be read: {e}"))),
    }
    let Some(stem) = path.file_stem().and_then(|s| s.to_str()) else {
        return Err(skipped(0, "its name is not UTF-8; rename it NAME.md"));
    };
    if !super::valid_name(stem) {
        return Err(skipped(
            0,
            &format!(
                "`{}` cannot be a command name (lowercase letters, digits and `-`, starting with a letter, at most 32 bytes); rename the file",
                stem.escape_debug()
            ),
        ));
    }
    let meta =
        std::fs::metadata(path).map_err(|e| skipped(0, &format!("it cannot be read: {e}")))?;
    if meta.len() > MAX_FILE_BYTES {
        return Err(skipped(
            0,
            &format!(
                "it is {} bytes, over the {MAX_FILE_BYTES}-byte bound of a command file; shorten it",
                meta.len()
            ),
        ));
    }
    let bytes = std::fs::read(path).map_err(|e| skipped(0, &format!("it cannot be read: {e}")))?;
    let text = String::from_utf8(bytes).map_err(|e| {
        let line = e.as_bytes()[..e.utf8_error().valid_up_to()]
            .iter()
            .filter(|b| **b == b'\n')
            .count()
            + 1;
        skipped(line, "it is not UTF-8 text; save it as UTF-8")
    })?;
    parse(stem, &text, origin)
        .map(Some)
        .map_err(|e| skipped(e.line, &e.why))
}

/// How a directory's files get their origin: [`PromptOrigin::Project`] or
/// [`PromptOrigin::User`] of the file's path.
pub type OriginOf = fn(PathBuf) -> PromptOrigin;

/// A shared prompt command, as [`super::Command`] holds it.
pub type Shared = Arc<PromptCommand>;

#[cfg(test)]
mod tests {
    use super::*;

    fn cmd(text: &str) -> Result<PromptCommand, ParseError> {
        parse("fix", text, PromptOrigin::Bundled)
    }

    #[test]
    fn front_matter_is_read_and_the_body_kept() {
        let c = cmd("---\ndescription: Fix an issue\nargument-hint: \"[issue] [area]\"\nmodel: scripted/demo\nallowed-tools: Bash(git:*)\n---\nFix issue $1 in $2.\n").unwrap();
        assert_eq!(c.description, "Fix an issue");
        assert_eq!(c.argument_hint.as_deref(), Some("[issue] [area]"));
        assert_eq!(c.model.as_deref(), Some("scripted/demo"));
        assert_eq!(c.body, "Fix issue $1 in $2.");
        assert_eq!(c.usage(), "/fix [issue] [area]");
    }

    #[test]
    fn without_front_matter_the_first_line_describes_it() {
        let c = cmd("# Review the parser\n\nLook at $ARGUMENTS closely.").unwrap();
        assert_eq!(c.description, "Review the parser");
        assert_eq!(c.usage(), "/fix [ARGUMENTS]");
    }

    #[test]
    fn folded_values_continue_on_indented_lines() {
        let c = cmd("---\ndescription: >\n  Fix the\n  thing\nallowed-tools:\n  - Bash\n---\nbody")
            .unwrap();
        assert_eq!(c.description, "Fix the thing");
        // A list at the key's own indentation, and CRLF line ends.
        let c = cmd("---\r\nallowed-tools:\r\n- Read\r\n- Grep\r\ndescription: d\r\n---\r\nline one\r\nline two\r\n").unwrap();
        assert_eq!(c.description, "d");
        assert_eq!(c.body, "line one\nline two");
    }

    #[test]
    fn arguments_are_put_in() {
        let c = cmd("Fix issue $1 (area $2, missing $3) — all: $ARGUMENTS; cost $$5.00").unwrap();
        assert_eq!(
            c.expand(r#"123 "the lexer""#),
            r#"Fix issue 123 (area the lexer, missing ) — all: 123 "the lexer"; cost $5.00"#
        );
        // Nothing but quotes is special: a `#`, a `--` and a backslash are as typed.
        assert_eq!(
            cmd("[$1][$2][$3]")
                .unwrap()
                .expand(r"#142 --prod src\lib.rs"),
            r"[#142][--prod][src\lib.rs]"
        );
        let plain = cmd("Review the staged changes.").unwrap();
        assert_eq!(plain.expand(""), "Review the staged changes.");
        assert_eq!(
            plain.expand("focus on tests"),
            "Review the staged changes.\n\nfocus on tests"
        );
        // An unclosed quote runs to the end.
        assert_eq!(cmd("[$1][$2]").unwrap().expand("it's fine"), "[its fine][]");
    }

    #[test]
    fn broken_front_matter_names_its_line() {
        assert_eq!(
            cmd("---\ndescription: x\nthis is not a key\n---\nbody")
                .unwrap_err()
                .line,
            3
        );
        let open = cmd("---\ndescription: x\n\n").unwrap_err();
        assert_eq!(open.line, 1);
        assert!(open.why.contains("never closed"), "{}", open.why);
        assert_eq!(
            cmd("---\nmodel: a\nmodel: b\n---\nbody").unwrap_err().line,
            3
        );
        assert_eq!(cmd("---\ndescription: x\n---\n\n").unwrap_err().line, 0);
        let model = cmd("---\ndescription: x\nmodel: not a model!\n---\nbody").unwrap_err();
        assert_eq!(model.line, 3, "{}", model.why);
    }

    #[test]
    fn the_bundled_commands_parse() {
        let names: Vec<String> = bundled().into_iter().map(|c| c.name).collect();
        assert_eq!(names, ["init", "review"]);
    }
}
