//! The WIT reference document, generated from `plugins/wit/smith-plugin.wit` (the same file
//! the host's bindings and the guest SDK are generated from), so it cannot drift.

use std::fmt::Write as _;

/// The `smith:plugin` WIT package source.
pub const WIT: &str = include_str!("../../../plugins/wit/smith-plugin.wit");

/// The WIT reference as markdown: every world, interface and function with its doc comment,
/// then the package source.
pub fn wit_reference_markdown() -> String {
    let mut out = String::from(
        "# The `smith:plugin` WIT reference\n\nThe contract every Smith plugin implements, generated from `plugins/wit/smith-plugin.wit`\n(the host's bindings and the guest SDK are generated from the same file). See\n[plugins](../plugins.md) for manifests, grants, limits and the durable effect boundary.\n",
    );
    let mut doc: Vec<&str> = Vec::new();
    for line in WIT.lines() {
        let t = line.trim();
        if let Some(text) = t.strip_prefix("///") {
            doc.push(text.trim());
            continue;
        }
        let summary = doc.join(" ");
        doc.clear();
        let header = |kind: &str, rest: &str| {
            rest.split_whitespace().next().map(|name| {
                format!(
                    "\n## {kind} `{}`\n\n{summary}\n",
                    name.trim_end_matches([';', '{'])
                )
            })
        };
        if let Some(rest) = t.strip_prefix("package ") {
            let _ = write!(
                out,
                "\nPackage `{}` — {summary}\n",
                rest.trim_end_matches(';')
            );
        } else if let Some(rest) = t.strip_prefix("interface ") {
            out.push_str(&header("Interface", rest).unwrap_or_default());
        } else if let Some(rest) = t.strip_prefix("world ") {
            out.push_str(&header("World", rest).unwrap_or_default());
        } else if let Some((name, sig)) = t.split_once(": func") {
            let name = name
                .trim_start_matches("export ")
                .trim_start_matches("import ");
            let _ = write!(
                out,
                "\n- `{name}: func{}` — {summary}\n",
                sig.trim_end_matches(';')
            );
        } else if let Some(rest) = t
            .strip_prefix("record ")
            .or_else(|| t.strip_prefix("variant "))
            .or_else(|| t.strip_prefix("enum "))
            .or_else(|| t.strip_prefix("resource "))
        {
            let kind = t.split_whitespace().next().unwrap_or("type");
            let name = rest
                .split_whitespace()
                .next()
                .unwrap_or("")
                .trim_end_matches('{');
            let _ = write!(out, "\n- {kind} `{name}` — {summary}\n");
        }
    }
    let _ = write!(out, "\n## Source\n\n```wit\n{}```\n", WIT);
    out
}
