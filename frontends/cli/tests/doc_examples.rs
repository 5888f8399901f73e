//! Every `smith …` command in a fenced shell block of the documentation (the guides, the
//! READMEs) parses with the clap declarations: an example that names a flag or command that
//! does not exist, or misses a required argument, fails here with its file and line.

use std::path::{Path, PathBuf};

fn root() -> PathBuf {
    PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("../..")
}

/// Every markdown file of the project, outside build output.
fn markdown_files(dir: &Path, out: &mut Vec<PathBuf>) {
    for entry in std::fs::read_dir(dir).unwrap() {
        let path = entry.unwrap().path();
        let name = path.file_name().unwrap().to_string_lossy().into_owned();
        if path.is_dir() {
            if !["target", ".git", "node_modules", "corpus"].contains(&name.as_str()) {
                markdown_files(&path, out);
            }
        } else if name.ends_with(".md") {
            out.push(path);
        }
    }
}

/// The command lines of the shell blocks of `text` (continuations joined), with their line
/// numbers.
fn shell_lines(text: &str) -> Vec<(usize, String)> {
    let mut out = Vec::new();
    let mut in_shell = false;
    let mut in_fence = false;
    let mut pending: Option<(usize, String)> = None;
    for (i, line) in text.lines().enumerate() {
        let trimmed = line.trim_start();
        if let Some(info) = trimmed.strip_prefix("```") {
            if in_fence {
                in_fence = false;
                in_shell = false;
            } else {
                in_fence = true;
                in_shell = ["sh", "bash", "shell", "console"].contains(&info.trim());
            }
            continue;
        }
        if !in_shell {
            continue;
        }
        let line = trimmed.strip_prefix("$ ").unwrap_or(trimmed);
        let (start, mut joined) = pending.take().unwrap_or((i + 1, String::new()));
        joined.push_str(line);
        if let Some(head) = joined.strip_suffix('\\') {
            pending = Some((start, format!("{} ", head.trim_end())));
        } else {
            out.push((start, joined));
        }
    }
    out
}

/// The `smith` invocations of one shell line: each pipeline or list segment that runs
/// `smith` (after variable assignments), or `cargo run … -- ARGS`, as its arguments.
fn invocations(line: &str) -> Vec<Vec<String>> {
    let Some(words) = shlex::split(line) else {
        return Vec::new();
    };
    let mut out = Vec::new();
    for segment in words.split(|w| ["|", "||", "&&", ";", "&"].contains(&w.as_str())) {
        let mut words = segment
            .iter()
            .skip_while(|w| {
                w.split_once('=').is_some_and(|(name, _)| {
                    !name.is_empty() && name.chars().all(|c| c.is_ascii_uppercase() || c == '_')
                })
            })
            .cloned()
            .collect::<Vec<_>>();
        // Redirections are the shell's, not smith's.
        let mut kept = Vec::new();
        let mut skip_next = false;
        for w in words.drain(..) {
            if skip_next {
                skip_next = false;
            } else if [">", ">>", "<", "2>"].contains(&w.as_str()) {
                skip_next = true;
            } else if !(w.starts_with('>') || w.starts_with("2>") || w.starts_with('<')) {
                kept.push(w);
            }
        }
        match kept.first().map(String::as_str) {
            Some("smith") => out.push(kept),
            Some("cargo") if kept.get(1).is_some_and(|w| w == "run") => {
                if let Some(at) = kept.iter().position(|w| w == "--") {
                    let mut args = vec!["smith".to_owned()];
                    args.extend(kept[at + 1..].iter().cloned());
                    out.push(args);
                }
            }
            _ => {}
        }
    }
    out
}

#[test]
fn every_documented_smith_command_parses() {
    let mut files = Vec::new();
    markdown_files(&root(), &mut files);
    files.sort();
    let mut checked = 0;
    let mut wrong = Vec::new();
    for file in &files {
        let text = std::fs::read_to_string(file).unwrap();
        for (line, command) in shell_lines(&text) {
            for args in invocations(&command) {
                checked += 1;
                if let Err(e) = smith_cli::command().try_get_matches_from(&args) {
                    use clap::error::ErrorKind;
                    if !matches!(e.kind(), ErrorKind::DisplayHelp | ErrorKind::DisplayVersion) {
                        let first = e.render().to_string();
                        wrong.push(format!(
                            "{}:{line}: `{command}`: {}",
                            file.strip_prefix(root()).unwrap_or(file).display(),
                            first.lines().next().unwrap_or_default()
                        ));
                    }
                }
            }
        }
    }
    assert!(
        checked > 40,
        "only {checked} examples found: is the scan broken?"
    );
    assert!(
        wrong.is_empty(),
        "{} examples do not parse:\n  {}",
        wrong.len(),
        wrong.join("\n  ")
    );
}

#[test]
fn the_scan_finds_commands_in_pipelines_assignments_and_cargo_run() {
    let found = invocations(
        r#"git diff | SMITH_MODEL=x smith eval --stdin "review" > out.txt && cargo run --release -p smith-cli -- eval -m scripted/demo "Hello" # note"#,
    );
    assert_eq!(
        found,
        [
            vec!["smith", "eval", "--stdin", "review"],
            vec!["smith", "eval", "-m", "scripted/demo", "Hello"]
        ]
    );
    let lines = shell_lines("```sh\nsmith eval \\\n  -m x \"hi\"\n```\n```kdl\nsmith x\n```\n");
    assert_eq!(lines, [(2, "smith eval -m x \"hi\"".to_owned())]);
}

/// The README's claims about the binary and the tree: the commands it says take `--help` are
/// the binary's commands, in its order; every path its Layout names exists.
#[test]
fn the_readme_lists_every_command_and_only_paths_that_exist() {
    let readme = std::fs::read_to_string(root().join("README.md")).unwrap();
    let start = readme
        .find("`--help` on every command (")
        .expect("the README's list of commands");
    let list = &readme[start..];
    let list = &list[list.find('(').unwrap() + 1..list.find(')').unwrap()];
    let listed: Vec<String> = list
        .split(',')
        .map(|c| c.trim().trim_matches('`').to_owned())
        .collect();
    let commands: Vec<String> = smith_cli::command()
        .get_subcommands()
        .map(|c| c.get_name().to_owned())
        .filter(|name| name != "help")
        .collect();
    assert_eq!(listed, commands, "README.md: the commands that take --help");
    let layout = readme
        .split("## Layout")
        .nth(1)
        .and_then(|rest| rest.split("```").nth(1))
        .expect("the README's Layout block");
    for line in layout.lines().filter(|l| !l.starts_with(' ')) {
        for word in line.split_whitespace() {
            let path = word.trim_end_matches('/');
            if word.contains('/') && !word.contains('(') && !path.is_empty() && word != "|" {
                assert!(
                    root().join(path).exists()
                        || !path
                            .chars()
                            .all(|c| c.is_ascii_lowercase() || "/-_".contains(c)),
                    "README.md's Layout names {word}, which does not exist"
                );
            }
        }
    }
    assert!(
        !layout.contains("coming"),
        "the Layout says something is still coming"
    );
}
