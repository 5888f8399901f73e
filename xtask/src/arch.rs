//! The crate graph, checked: the rules table of `ARCHITECTURE.md` (what each crate may never
//! depend on) applied to the dependencies `cargo metadata` reports, and the edge list of
//! `ARCHITECTURE.md` compared with the same metadata (`cargo xtask arch --bless` rewrites it).

use std::collections::BTreeSet;

use serde_json::Value;

/// Whether a rule covers dev-dependencies too.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Scope {
    /// Normal and build dependencies.
    Normal,
    /// Every dependency, dev-dependencies included.
    Any,
}

/// One row of the rules table: `krate` may not depend on any of `forbidden` within `scope`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Rule {
    pub(crate) krate: String,
    pub(crate) scope: Scope,
    pub(crate) forbidden: Vec<String>,
}

/// A dependency of one workspace crate on another.
#[derive(Clone, Debug, PartialEq, Eq, PartialOrd, Ord)]
pub(crate) struct Edge {
    pub(crate) from: String,
    pub(crate) to: String,
    /// `None` (normal), `build` or `dev`.
    pub(crate) kind: Option<String>,
}

/// `name` matches `pattern` (a crate name, or a prefix ending in `*`).
fn matches(pattern: &str, name: &str) -> bool {
    match pattern.strip_suffix('*') {
        Some(prefix) => name.starts_with(prefix),
        None => pattern == name,
    }
}

/// The rules table between the `<!-- rules:start -->` and `<!-- rules:end -->` markers.
pub(crate) fn rules(architecture: &str) -> Result<Vec<Rule>, String> {
    let table = between(architecture, "rules")?;
    let mut rules = Vec::new();
    for (n, line) in table.lines().enumerate() {
        let cells: Vec<&str> = line
            .trim()
            .trim_matches('|')
            .split('|')
            .map(str::trim)
            .collect();
        if cells.len() != 3 || cells[0] == "crate" || cells[0].starts_with("---") {
            continue;
        }
        let scope = match cells[1] {
            "any" => Scope::Any,
            "normal" => Scope::Normal,
            other => {
                return Err(format!(
                    "ARCHITECTURE.md rules line {}: scope `{other}` is neither `any` nor `normal`",
                    n + 1
                ));
            }
        };
        rules.push(Rule {
            krate: cells[0].to_owned(),
            scope,
            forbidden: cells[2].split(',').map(|s| s.trim().to_owned()).collect(),
        });
    }
    if rules.is_empty() {
        return Err("ARCHITECTURE.md has an empty rules table".to_owned());
    }
    Ok(rules)
}

/// The text between `<!-- NAME:start -->` and `<!-- NAME:end -->`.
fn between<'a>(text: &'a str, name: &str) -> Result<&'a str, String> {
    let (a, b) = span(text, name)?;
    Ok(&text[a..b])
}

/// The byte range between `<!-- NAME:start -->` and `<!-- NAME:end -->`.
fn span(text: &str, name: &str) -> Result<(usize, usize), String> {
    let start = format!("<!-- {name}:start -->");
    let end = format!("<!-- {name}:end -->");
    let a = text
        .find(&start)
        .ok_or_else(|| format!("ARCHITECTURE.md lacks the `{start}` marker"))?;
    let b = text
        .find(&end)
        .filter(|&b| b >= a)
        .ok_or_else(|| format!("ARCHITECTURE.md lacks the `{end}` marker after `{start}`"))?;
    Ok((a + start.len(), b))
}

/// Every dependency between workspace crates in `metadata` (the JSON of `cargo metadata
/// --no-deps --format-version 1`), sorted.
pub(crate) fn edges(metadata: &Value) -> Result<Vec<Edge>, String> {
    let packages = metadata["packages"]
        .as_array()
        .ok_or("cargo metadata has no `packages` array")?;
    let ours: BTreeSet<&str> = packages.iter().filter_map(|p| p["name"].as_str()).collect();
    let mut edges = BTreeSet::new();
    for p in packages {
        let from = p["name"].as_str().ok_or("a package without a name")?;
        for d in p["dependencies"].as_array().into_iter().flatten() {
            let to = d["name"].as_str().ok_or("a dependency without a name")?;
            if ours.contains(to) && to != from {
                edges.insert(Edge {
                    from: from.to_owned(),
                    to: to.to_owned(),
                    kind: d["kind"].as_str().map(str::to_owned),
                });
            }
        }
    }
    Ok(edges.into_iter().collect())
}

/// Every edge a rule forbids, as a sentence naming the rule.
pub(crate) fn violations(rules: &[Rule], edges: &[Edge]) -> Vec<String> {
    let mut found = Vec::new();
    for e in edges {
        let dev = e.kind.as_deref() == Some("dev");
        for r in rules {
            if !matches(&r.krate, &e.from) || (dev && r.scope == Scope::Normal) {
                continue;
            }
            if let Some(p) = r.forbidden.iter().find(|p| matches(p, &e.to)) {
                found.push(format!(
                    "{} depends on {}{} but ARCHITECTURE.md forbids it (rule `{} | {} | … {p} …`)",
                    e.from,
                    e.to,
                    e.kind
                        .as_deref()
                        .map(|k| format!(" ({k})"))
                        .unwrap_or_default(),
                    r.krate,
                    if r.scope == Scope::Any {
                        "any"
                    } else {
                        "normal"
                    },
                ));
            }
        }
    }
    found
}

/// The edge list as `ARCHITECTURE.md` shows it: one line per crate with what it uses.
pub(crate) fn edge_list(edges: &[Edge]) -> String {
    let mut out = String::from("\n```\n");
    let froms: BTreeSet<&str> = edges.iter().map(|e| e.from.as_str()).collect();
    for from in froms {
        let tos: Vec<String> = edges
            .iter()
            .filter(|e| e.from == from && e.kind.as_deref() != Some("build"))
            .map(|e| match e.kind.as_deref() {
                Some("dev") => format!("{} (dev)", e.to),
                _ => e.to.clone(),
            })
            .collect::<BTreeSet<_>>()
            .into_iter()
            .collect();
        let builds: Vec<&str> = edges
            .iter()
            .filter(|e| e.from == from && e.kind.as_deref() == Some("build"))
            .map(|e| e.to.as_str())
            .collect();
        let mut line = format!("{from} → {}", tos.join(", "));
        if !builds.is_empty() {
            line.push_str(&format!("; build: {}", builds.join(", ")));
        }
        out.push_str(&line);
        out.push('\n');
    }
    out.push_str("```\n");
    out
}

/// `architecture` with its edge list replaced by `list`.
pub(crate) fn with_edge_list(architecture: &str, list: &str) -> Result<String, String> {
    let (a, b) = span(architecture, "edges")?;
    Ok(format!(
        "{}{list}{}",
        &architecture[..a],
        &architecture[b..]
    ))
}

/// The workspace's `cargo metadata --no-deps`.
pub(crate) fn workspace_metadata() -> Result<Value, String> {
    let out = crate::cargo()
        .args([
            "metadata",
            "--no-deps",
            "--format-version",
            "1",
            "--offline",
        ])
        .current_dir(crate::root())
        .output()
        .map_err(|e| format!("cannot run cargo metadata: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "cargo metadata failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    serde_json::from_slice(&out.stdout).map_err(|e| format!("cargo metadata printed no JSON: {e}"))
}

fn architecture() -> Result<String, String> {
    std::fs::read_to_string(crate::root().join("ARCHITECTURE.md"))
        .map_err(|e| format!("cannot read ARCHITECTURE.md: {e}"))
}

/// `cargo xtask arch [--bless]`: check the graph against the rules and the edge list; with
/// `--bless`, rewrite the edge list first.
pub(crate) fn run(bless: bool) -> Result<(), String> {
    let text = architecture()?;
    let edges = edges(&workspace_metadata()?)?;
    let found = violations(&rules(&text)?, &edges);
    if !found.is_empty() {
        return Err(format!("forbidden edges:\n{}", found.join("\n")));
    }
    let expected = with_edge_list(&text, &edge_list(&edges))?;
    if expected != text {
        if bless {
            std::fs::write(crate::root().join("ARCHITECTURE.md"), &expected)
                .map_err(|e| format!("cannot write ARCHITECTURE.md: {e}"))?;
        } else {
            return Err("the edge list of ARCHITECTURE.md is stale; regenerate it with `cargo xtask arch --bless` and review the change".to_owned());
        }
    }
    println!("xtask: the crate graph keeps the rules of ARCHITECTURE.md");
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn workspace_metadata() -> Value {
        super::workspace_metadata().unwrap()
    }

    fn architecture() -> String {
        super::architecture().unwrap()
    }

    #[test]
    fn the_workspace_has_no_forbidden_edge() {
        let rules = rules(&architecture()).unwrap();
        let edges = edges(&workspace_metadata()).unwrap();
        // The rules cover the crates the graph is about.
        for krate in [
            "smith",
            "smith-store",
            "smith-agent",
            "smith-host",
            "smith-app",
        ] {
            assert!(
                rules.iter().any(|r| r.krate == krate),
                "no rule for {krate}"
            );
        }
        let found = violations(&rules, &edges);
        assert!(found.is_empty(), "forbidden edges:\n{}", found.join("\n"));
    }

    #[test]
    fn the_edge_list_is_the_workspace_graph() {
        let text = architecture();
        let list = edge_list(&edges(&workspace_metadata()).unwrap());
        let expected = with_edge_list(&text, &list).unwrap();
        assert!(
            text == expected,
            "the edge list of ARCHITECTURE.md is stale; regenerate it with `cargo xtask arch --bless` and review the change:\n{list}"
        );
    }

    /// Synthetic metadata with the edges the issue names as forbidden, each caught.
    #[test]
    fn forbidden_edges_in_synthetic_metadata_are_caught() {
        let package = |name: &str, deps: &[(&str, Option<&str>)]| {
            serde_json::json!({
                "name": name,
                "dependencies": deps
                    .iter()
                    .map(|(d, kind)| serde_json::json!({"name": d, "kind": kind}))
                    .collect::<Vec<_>>(),
            })
        };
        let rules = rules(&architecture()).unwrap();
        type Case<'a> = (&'a str, &'a [(&'a str, Option<&'a str>)], &'a str);
        let cases: [Case<'_>; 6] = [
            (
                "smith-agent",
                &[("smith-render-plain", None)],
                "core → renderer",
            ),
            ("smith-store", &[("smith-cli", None)], "core → frontend"),
            (
                "smith-host",
                &[("smith-agent", Some("dev"))],
                "host → agent",
            ),
            ("smith-agent", &[("smith-host", None)], "agent → host"),
            (
                "smith-render-plain",
                &[("smith-store", None)],
                "renderer → store",
            ),
            (
                "smith",
                &[("smith-store", Some("build"))],
                "vocabulary → ours",
            ),
        ];
        for (from, deps, what) in cases {
            let mut packages = vec![package(from, deps)];
            for (d, _) in deps {
                packages.push(package(d, &[]));
            }
            let metadata = serde_json::json!({ "packages": packages });
            let found = violations(&rules, &edges(&metadata).unwrap());
            assert_eq!(found.len(), 1, "{what}: {found:?}");
            assert!(found[0].contains(from), "{what}: {}", found[0]);
        }
        // An allowed edge passes, and a dev-only rule ignores dev edges.
        let allowed = serde_json::json!({"packages": [
            package("smith-app", &[("smith-agent", None), ("smith-host", None)]),
            package("smith-agent", &[("smith-ai", Some("dev"))]),
            package("smith-host", &[]),
            package("smith-ai", &[]),
        ]});
        assert!(violations(&rules, &edges(&allowed).unwrap()).is_empty());
        let normal = serde_json::json!({"packages": [
            package("smith-agent", &[("smith-ai", None)]),
            package("smith-ai", &[]),
        ]});
        assert_eq!(violations(&rules, &edges(&normal).unwrap()).len(), 1);
    }

    #[test]
    fn a_malformed_rules_table_is_refused() {
        assert!(rules("no markers").is_err());
        assert!(
            rules("<!-- rules:start -->\n| a | sometimes | b |\n<!-- rules:end -->")
                .unwrap_err()
                .contains("sometimes")
        );
    }
}
