//! The bundled tools reference, generated from the bundled plugins' own definitions (what
//! `smith tools list --json` prints) and the host's bound constants, so it cannot drift.

use std::fmt::Write as _;

use smith_docs::reference::{ReferenceDoc, cell};
use smith_host::fsops::{MAX_LIST_ENTRIES, MAX_READ_BYTES, MAX_READ_LINES, MAX_WRITE_BYTES};
use smith_host::search::{DEFAULT_RESULTS, MAX_LINE_BYTES, MAX_PATTERN_BYTES, MAX_RESULTS};
use smith_host::{Limits, Manifest, ProcessLimits};

/// The reference document; a plugin that fails to load is written into the document (and so
/// fails the drift check) rather than hidden.
pub(crate) fn tools_reference() -> ReferenceDoc {
    ReferenceDoc {
        file: "tools.md".into(),
        id: "reference/tools".into(),
        title: "Bundled tools reference".into(),
        tags: vec![
            "tools".into(),
            "schemas".into(),
            "bounds".into(),
            "find".into(),
            "grep".into(),
            "bash".into(),
        ],
        body: body(),
    }
}

fn body() -> String {
    let limits = Limits::default();
    let process = ProcessLimits::default();
    let mut out = String::from(
        "# Bundled tools reference\n\nThe tools Smith ships with, generated from the bundled plugins' own definitions (what\n`smith tools list --json` prints). They are ordinary plugins: disable one with\n`--disable-plugin ID` or the setting `plugins.ID.enabled`, and see [plugins](../plugins.md)\nfor grants and the durable effect boundary. Every call's arguments are validated against the\ntool's input schema before anything runs; a call that fails validation gets an error result\nand performs no effect.\n",
    );
    let _ = write!(
        out,
        "\n## Output bounds\n\n\
| what | bound |\n| --- | --- |\n\
| any tool result | {} bytes; longer output is cut and the cut is marked |\n\
| `read` | {MAX_READ_LINES} lines and {} KiB per call; binary files are refused |\n\
| `write`, `edit` | files up to {} MiB |\n\
| `ls` | the first {MAX_LIST_ENTRIES} entries by name |\n\
| `find`, `grep` | {DEFAULT_RESULTS} results unless asked (`find`'s tool default is 200), at most {MAX_RESULTS}; a cut is marked; `grep` lines cut at {MAX_LINE_BYTES} bytes; patterns up to {} KiB |\n\
| `bash` | each of stdout and stderr keeps its first and last 16 KiB (the host's `process.output-limit`, default {} MiB, caps it); timeout 120 s by default, at most `process.max-timeout` (default {} s) |\n",
        limits.output_bytes,
        MAX_READ_BYTES / 1024,
        MAX_WRITE_BYTES >> 20,
        MAX_PATTERN_BYTES / 1024,
        process.output_bytes >> 20,
        process.max_timeout.as_secs(),
    );
    let sources: Vec<smith_host::PluginSource<'_>> = smith_plugins::BUNDLED
        .iter()
        .map(|p| smith_host::PluginSource::new(p.origin, p.manifest, p.component))
        .collect();
    let cache = smith_host::CompileCache::new(
        smith_app::Paths::from_env()
            .compile_cache()
            .map(std::path::Path::to_path_buf),
    );
    let host = match smith_host::Host::load(&sources, &cache, limits) {
        Ok(host) => host,
        Err(e) => {
            let _ = write!(out, "\n**The bundled plugins failed to load: {e}**\n");
            return out;
        }
    };
    let tools = host.loadout().tools();
    for p in smith_plugins::BUNDLED {
        let Ok(m) = Manifest::parse(p.manifest, p.origin) else {
            continue;
        };
        let grants: Vec<String> = m
            .grants_described()
            .iter()
            .map(|g| match g.split_once(' ') {
                Some((name, rest)) => format!("`{name}` {rest}"),
                None => format!("`{g}`"),
            })
            .collect();
        let grants = if grants.is_empty() {
            "no grants".to_owned()
        } else {
            format!("grants {}", grants.join(", "))
        };
        let _ = write!(
            out,
            "\n## Plugin `{}` {}\n\nWorld `{}`; {grants}.\n",
            m.id,
            m.version,
            m.built_world(),
        );
        if let Some(p) = &m.provider {
            let key = match &p.api_key {
                Some(k) if k.required => format!("its API key comes from `{}` (required)", k.env),
                Some(k) => format!(
                    "an API key, if the server needs one, comes from `{}`",
                    k.env
                ),
                None => "it takes no API key".to_owned(),
            };
            let transport = if p.base_url == "script:" {
                "its transport plays a script (the built-in one the model names, or `--script FILE`), offline".to_owned()
            } else {
                format!(
                    "base URL `{}` (override with `provider.{}.base-url`)",
                    p.base_url, p.id
                )
            };
            let _ = write!(
                out,
                "\nA provider codec: models `{}/NAME`; {transport}; {key}. It contributes no tools. See [providers](../providers.md).\n",
                p.id
            );
        }
        if m.is_product() {
            out.push_str(
                "\nThe product layer: commands, key bindings, themes and a layout (see the [command reference](commands.md), the [key reference](keys.md) and the [theme reference](themes.md)).\n",
            );
        }
        if m.is_handler() {
            let _ = write!(
                out,
                "\nA lifecycle handler with the role{} {}: it contributes no tools.",
                if m.handlers.len() == 1 { "" } else { "s" },
                m.handlers
                    .iter()
                    .map(|h| format!("`{h}`"))
                    .collect::<Vec<_>>()
                    .join(", ")
            );
            for role in &m.handlers {
                out.push(' ');
                out.push_str(role_summary(role));
            }
            out.push('\n');
        }
        for (_, d) in tools.iter().filter(|(plugin, _)| *plugin == m.id) {
            let _ = write!(out, "\n### `{}`\n\n{}\n\n", d.name, d.description);
            write_properties(&mut out, &d.input_schema);
            let schema = serde_json::to_string_pretty(&d.input_schema).unwrap_or_default();
            let _ = write!(out, "\n```json\n{schema}\n```\n");
        }
    }
    out
}

/// A table of the schema's top-level properties.
fn write_properties(out: &mut String, schema: &serde_json::Value) {
    let Some(properties) = schema["properties"].as_object() else {
        return;
    };
    let required: Vec<&str> = schema["required"]
        .as_array()
        .map(|r| r.iter().filter_map(|v| v.as_str()).collect())
        .unwrap_or_default();
    out.push_str("| argument | type | required | constraints | description |\n| --- | --- | --- | --- | --- |\n");
    for (name, p) in properties {
        let constraints: Vec<String> = ["minimum", "maximum", "minLength", "maxLength", "minItems"]
            .iter()
            .filter_map(|k| p.get(*k).map(|v| format!("{k} {v}")))
            .collect();
        let _ = writeln!(
            out,
            "| `{name}` | {} | {} | {} | {} |",
            p["type"].as_str().unwrap_or("any"),
            if required.contains(&name.as_str()) {
                "yes"
            } else {
                "no"
            },
            cell(&constraints.join(", ")),
            cell(p["description"].as_str().unwrap_or(""))
        );
    }
}

/// What a handler role does, for the reference (the plugins guide says it at length).
fn role_summary(role: &str) -> &'static str {
    match role {
        "queue-policy" => {
            "The queue delivery policy skips the rest of a running tool batch when steering input is queued (each skipped call gets an explicit result), delivers steering input once the batch is complete, and delivers follow-up input when the work would otherwise stop. See [sessions](../sessions.md#queued-input)."
        }
        "secret-policy" => {
            "The secret policy decides at which effects a registered secret's reference becomes its plaintext: local processes and file writes and edits, nothing else. See [secrets](../secrets.md)."
        }
        "prompt" => {
            "It gives each request's base instructions: where Smith runs, how to use its tools. See [context](../context.md)."
        }
        "context" => {
            "It adds standing context, such as `AGENTS.md` files from the project root down to the working directory, to each request. See [context](../context.md)."
        }
        "compaction" => {
            "It writes what a compaction asks the model for: the summary's headings and what to keep exact. See [compaction](../compaction.md)."
        }
        "history" => {
            "It snapshots the working tree before and after every tool batch that may change files, through the `vcs` facility, so undo can take the batch back. See [undo](../undo.md)."
        }
        _ => "See [plugins](../plugins.md#lifecycle-handlers).",
    }
}
