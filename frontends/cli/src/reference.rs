//! The command-line reference, generated from the clap declarations.

use std::fmt::Write as _;

use smith_docs::reference::{ReferenceDoc, Region, cell};

/// Every generated reference document this binary knows. Configuration schemas, the WIT
/// package and the RPC/event schemas join this list as they land.
pub fn reference_docs() -> Vec<ReferenceDoc> {
    vec![
        cli_reference(),
        settings_reference(),
        ui_intents_reference(),
        rpc_reference(),
        mcp_reference(),
        acp_reference(),
        keys_reference(),
        commands_reference(),
        themes_reference(),
        wit_reference(),
        crate::tools_reference::tools_reference(),
    ]
}

/// Every generated region of a hand-written guide.
pub fn generated_regions() -> Vec<Region> {
    vec![Region {
        file: "configuration.md".into(),
        name: "environment".into(),
        body: smith_config::environment_markdown(),
    }]
}

fn wit_reference() -> ReferenceDoc {
    ReferenceDoc {
        file: "wit.md".into(),
        id: "reference/wit".into(),
        title: "The smith:plugin WIT reference".into(),
        tags: vec![
            "plugins".into(),
            "wit".into(),
            "wasm".into(),
            "sdk".into(),
            "effects".into(),
        ],
        body: smith_host::reference::wit_reference_markdown(),
    }
}

fn settings_reference() -> ReferenceDoc {
    ReferenceDoc {
        file: "settings.md".into(),
        id: "reference/settings".into(),
        title: "Settings reference".into(),
        tags: vec![
            "config".into(),
            "settings".into(),
            "kdl".into(),
            "precedence".into(),
            "trust".into(),
        ],
        body: smith_config::reference_markdown(),
    }
}

fn keys_reference() -> ReferenceDoc {
    ReferenceDoc {
        file: "keys.md".into(),
        id: "reference/keys".into(),
        title: "Key reference".into(),
        tags: vec![
            "tui".into(),
            "keys".into(),
            "bindings".into(),
            "terminal".into(),
            "shortcuts".into(),
        ],
        body: smith_tui::key_reference()
            .unwrap_or_else(|e| format!("the bundled product plugin did not load: {e}\n")),
    }
}

/// The bundled product layer, for the command and theme references.
fn bundled_product() -> Result<smith_app::product::ProductLayer, smith_app::product::BundledError> {
    smith_app::product::bundled(&smith_tui::keys::built_in_specs())
}

fn commands_reference() -> ReferenceDoc {
    ReferenceDoc {
        file: "commands.md".into(),
        id: "reference/commands".into(),
        title: "Command reference".into(),
        tags: vec![
            "commands".into(),
            "palette".into(),
            "slash".into(),
            "product".into(),
        ],
        body: bundled_product().map_or_else(
            |e| format!("the bundled product plugin did not load: {e}\n"),
            |l| smith_app::product::commands_reference(&l),
        ),
    }
}

fn themes_reference() -> ReferenceDoc {
    ReferenceDoc {
        file: "themes.md".into(),
        id: "reference/themes".into(),
        title: "Theme reference".into(),
        tags: vec![
            "themes".into(),
            "colours".into(),
            "colors".into(),
            "tui".into(),
        ],
        body: bundled_product().map_or_else(
            |e| format!("the bundled product plugin did not load: {e}\n"),
            |l| smith_app::product::themes_reference(&l),
        ),
    }
}

fn rpc_reference() -> ReferenceDoc {
    ReferenceDoc {
        file: "rpc.md".into(),
        id: "reference/rpc".into(),
        title: "The smith rpc methods, notifications and error codes".into(),
        tags: vec![
            "rpc".into(),
            "openrpc".into(),
            "protocol".into(),
            "stdio".into(),
            "methods".into(),
        ],
        body: smith_rpc::decl::reference_markdown(),
    }
}

fn acp_reference() -> ReferenceDoc {
    ReferenceDoc {
        file: "acp.md".into(),
        id: "reference/acp".into(),
        title: "The smith acp methods".into(),
        tags: vec![
            "acp".into(),
            "agent client protocol".into(),
            "editor".into(),
            "zed".into(),
            "stdio".into(),
            "methods".into(),
        ],
        body: smith_acp::decl::reference_markdown(),
    }
}

fn mcp_reference() -> ReferenceDoc {
    ReferenceDoc {
        file: "mcp.md".into(),
        id: "reference/mcp".into(),
        title: "The smith mcp methods, resources and tools".into(),
        tags: vec![
            "mcp".into(),
            "model context protocol".into(),
            "resources".into(),
            "tools".into(),
            "stdio".into(),
        ],
        body: smith_mcp::decl::reference_markdown(),
    }
}

fn ui_intents_reference() -> ReferenceDoc {
    ReferenceDoc {
        file: "ui-intents.md".into(),
        id: "reference/ui-intents".into(),
        title: "UI intents".into(),
        tags: vec![
            "intents".into(),
            "renderers".into(),
            "degradation".into(),
            "json".into(),
        ],
        body: smith_ui_intents::reference_markdown(),
    }
}

fn cli_reference() -> ReferenceDoc {
    let mut root = crate::command();
    root.build();
    let mut body = String::from(
        "# Command-line reference\n\nEvery `smith` command, argument and option, generated from the same declarations that\n`--help` prints. Every command also takes `-h` (summary help) and `--help` (full help);\n`smith` takes `-V`/`--version`. See [exit statuses](../exit-status.md).\n",
    );
    write_command(&mut body, &root);
    ReferenceDoc {
        file: "cli.md".into(),
        id: "reference/cli".into(),
        title: "Command-line reference".into(),
        tags: vec![
            "cli".into(),
            "commands".into(),
            "options".into(),
            "flags".into(),
        ],
        body,
    }
}

fn write_command(out: &mut String, cmd: &clap::Command) {
    let name = cmd.get_bin_name().unwrap_or(cmd.get_name());
    let _ = write!(out, "\n## `{name}`\n\n");
    if let Some(about) = cmd.get_long_about().or(cmd.get_about()) {
        // Indented lines of the help text are commands: show them as code.
        for line in about.to_string().lines() {
            match line.strip_prefix("  ") {
                Some(code) => {
                    let _ = writeln!(out, "\n```sh\n{code}\n```");
                }
                None => {
                    let _ = writeln!(out, "{line}");
                }
            }
        }
        out.push('\n');
    }
    let usage = cmd.clone().render_usage().to_string();
    let usage = usage.trim_start_matches("Usage:").trim();
    let _ = writeln!(out, "```text\n{usage}\n```\n");

    let args: Vec<&clap::Arg> = cmd
        .get_arguments()
        .filter(|a| !a.is_hide_set() && !matches!(a.get_id().as_str(), "help" | "version"))
        .collect();
    let positionals: Vec<_> = args.iter().filter(|a| a.is_positional()).collect();
    if !positionals.is_empty() {
        out.push_str("| argument | required | description |\n| --- | --- | --- |\n");
        for arg in positionals {
            let value = arg
                .get_value_names()
                .and_then(|v| v.first())
                .map_or_else(|| arg.get_id().to_string(), ToString::to_string);
            let _ = writeln!(
                out,
                "| `{value}` | {} | {} |",
                if arg.is_required_set() { "yes" } else { "no" },
                cell(&help(arg))
            );
        }
        out.push('\n');
    }
    let options: Vec<_> = args.iter().filter(|a| !a.is_positional()).collect();
    if !options.is_empty() {
        out.push_str("| option | value | default | description |\n| --- | --- | --- | --- |\n");
        for arg in options {
            let mut flag = String::new();
            if let Some(short) = arg.get_short() {
                let _ = write!(flag, "-{short}, ");
            }
            if let Some(long) = arg.get_long() {
                let _ = write!(flag, "--{long}");
            }
            let value = if arg.get_action().takes_values() {
                arg.get_value_names()
                    .map(|v| {
                        v.iter()
                            .map(|n| format!("`{n}`"))
                            .collect::<Vec<_>>()
                            .join(" ")
                    })
                    .unwrap_or_default()
            } else {
                String::new()
            };
            let takes_values = arg.get_action().takes_values();
            let default = arg
                .get_default_values()
                .iter()
                .filter(|_| takes_values)
                .map(|v| format!("`{}`", v.to_string_lossy()))
                .collect::<Vec<_>>()
                .join(", ");
            let _ = writeln!(
                out,
                "| `{flag}` | {value} | {default} | {} |",
                cell(&help(arg))
            );
        }
        out.push('\n');
    }
    let subs: Vec<_> = cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
        .collect();
    if !subs.is_empty() {
        out.push_str("| command | description |\n| --- | --- |\n");
        for sub in &subs {
            let about = sub.get_about().map(ToString::to_string).unwrap_or_default();
            let _ = writeln!(out, "| `{} {}` | {} |", name, sub.get_name(), cell(&about));
        }
        out.push('\n');
    }
    if let Some(after) = cmd.get_after_long_help().or(cmd.get_after_help()) {
        let _ = writeln!(out, "```text\n{}\n```\n", after.to_string().trim_end());
    }
    for sub in cmd
        .get_subcommands()
        .filter(|s| !s.is_hide_set() && s.get_name() != "help")
    {
        write_command(out, sub);
    }
}

fn help(arg: &clap::Arg) -> String {
    arg.get_long_help()
        .or(arg.get_help())
        .map(|h| {
            h.to_string()
                .split_whitespace()
                .collect::<Vec<_>>()
                .join(" ")
        })
        .unwrap_or_default()
}
