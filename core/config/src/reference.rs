//! The settings reference, generated from the schema.

use std::fmt::Write as _;

use crate::SCHEMA;

/// The markdown body of the settings reference: precedence, file format, then every option
/// with its type, default, environment variable, flag and meaning. Generated, never edited.
pub fn reference_markdown() -> String {
    let mut out = String::from(
        "# Settings reference\n\n\
Every setting, generated from the option declarations. A setting's value comes from the \
highest of seven levels that sets it:\n\n\
1. product defaults (below)\n\
2. built-in plugin defaults\n\
3. plugin contributions\n\
4. user configuration: `$SMITH_HOME/config.kdl`, else `$XDG_CONFIG_HOME/smith/config.kdl`, \
else `~/.config/smith/config.kdl`\n\
5. project configuration: `.smith/config.kdl` in the project (the nearest directory upward \
that has one) — only once the project is trusted with `smith trust`\n\
6. environment variables (below)\n\
7. command-line flags: `-c KEY=VALUE` (any setting, repeatable) and the flags below\n\n\
`smith config show` prints every resolved value with its source; `smith config check` \
validates every layer; `smith config set KEY VALUE [--project]` writes one setting, keeping \
the file's comments. Settings requested by plugins at run time are never written.\n\n\
Files are KDL: `run { max-rounds 32 }` and `run.max-rounds 32` both set `run.max-rounds`. \
Unknown keys are refused (with the closest known keys), except under `plugin.`, where they \
are kept for the plugin that declares them. A `*` in a key stands for any one name.\n\n\
| setting | type | default | environment | flag | meaning |\n| --- | --- | --- | --- | --- | --- |\n",
    );
    for spec in SCHEMA {
        let code = |v: Option<&str>| v.map_or_else(|| "—".to_owned(), |v| format!("`{v}`"));
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {} | {} Example: `{}`. |",
            spec.key,
            spec.ty.describe(),
            code(spec.default),
            code(spec.env),
            code(spec.flag),
            spec.doc,
            spec.example
        );
    }
    out
}

/// The environment variables that set options, as a markdown table (`variable`, `setting`,
/// `value`): the configuration guide's list, generated so it never lags the declarations.
pub fn environment_markdown() -> String {
    let mut out = String::from("| variable | sets | value |\n| --- | --- | --- |\n");
    for spec in SCHEMA {
        if let Some(var) = spec.env {
            let _ = writeln!(out, "| `{var}` | `{}` | {} |", spec.key, spec.ty.describe());
        }
    }
    out
}
