//! `cargo xtask check`: the gate CI runs.

use std::collections::BTreeMap;

use crate::{cargo, root, run};

pub(crate) fn run_all() -> Result<(), String> {
    let mut fmt = cargo();
    fmt.args(["fmt", "--all", "--check"]);
    run(fmt)?;

    let mut clippy = cargo();
    clippy.args([
        "clippy",
        "--workspace",
        "--all-targets",
        "--locked",
        "--",
        "-D",
        "warnings",
    ]);
    run(clippy)?;

    let mut test = cargo();
    test.args(["test", "--workspace", "--locked"]);
    run(test)?;

    let mut doc = cargo();
    doc.args(["doc", "--workspace", "--no-deps", "--locked"])
        .env("RUSTDOCFLAGS", "-D warnings");
    run(doc)?;

    docs_front_matter()?;
    eprintln!("xtask: check passed");
    Ok(())
}

/// Every document in `docs-corpus/docs/` starts with front matter naming a unique `id`, a
/// `title` and a `kind` (guide, tutorial or reference).
fn docs_front_matter() -> Result<(), String> {
    let dir = root().join("docs-corpus").join("docs");
    let mut ids: BTreeMap<String, String> = BTreeMap::new();
    let mut problems = Vec::new();
    let entries =
        std::fs::read_dir(&dir).map_err(|e| format!("cannot list {}: {e}", dir.display()))?;
    let mut paths: Vec<_> = entries.filter_map(Result::ok).map(|e| e.path()).collect();
    paths.sort();
    for path in paths
        .iter()
        .filter(|p| p.extension().is_some_and(|x| x == "md"))
    {
        let name = path.display().to_string();
        let text = std::fs::read_to_string(path).map_err(|e| format!("cannot read {name}: {e}"))?;
        let Some(rest) = text.strip_prefix("---\n") else {
            problems.push(format!("{name}: does not start with `---` front matter"));
            continue;
        };
        let Some((head, _)) = rest.split_once("\n---\n") else {
            problems.push(format!("{name}: front matter is not closed by `---`"));
            continue;
        };
        let field = |key: &str| {
            head.lines()
                .find_map(|l| l.strip_prefix(key)?.strip_prefix(':'))
                .map(|v| v.trim().to_owned())
                .filter(|v| !v.is_empty())
        };
        match field("id") {
            Some(id) => {
                if let Some(other) = ids.insert(id.clone(), name.clone()) {
                    problems.push(format!("{name}: id `{id}` is also used by {other}"));
                }
            }
            None => problems.push(format!("{name}: front matter lacks `id`")),
        }
        if field("title").is_none() {
            problems.push(format!("{name}: front matter lacks `title`"));
        }
        match field("kind").as_deref() {
            Some("guide" | "tutorial" | "reference") => {}
            other => problems.push(format!(
                "{name}: `kind` is {other:?}; expected guide, tutorial or reference"
            )),
        }
    }
    if problems.is_empty() {
        eprintln!("xtask: {} documents have valid front matter", ids.len());
        Ok(())
    } else {
        Err(format!(
            "docs drift check failed:\n  {}",
            problems.join("\n  ")
        ))
    }
}
