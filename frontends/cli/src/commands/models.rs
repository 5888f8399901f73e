//! `smith models`: the model catalog this command sees — the bundled snapshot, the enabled
//! provider plugins' contributions and the user's `models.kdl` — one record per model with
//! capabilities and provenance.

use clap::Args;

use crate::cli::Global;
use crate::command_error::CliError;
use crate::output::write_stdout;

pub(crate) const MODELS_AFTER_HELP: &str = "\
The catalog is the reviewed snapshot built into Smith (prices from the litellm package's
table, with its version and date), entries of the enabled provider plugins, and your own
models.kdl beside config.kdl, which wins over both. A figure no source states is unknown (`?`)
and is never used: a request that needs it fails before anything is sent. models.kdl also
holds aliases and groups (`smith docs get models`).

Exit status:
  0    success (also when stdout is closed early)
  2    usage or configuration error (a models.kdl that breaks the schema names file and line)
";

/// Arguments of `smith models`.
#[derive(Debug, Args)]
pub(crate) struct ModelsArgs {
    /// One JSON record per model: `provider`, `id`, `uncatalogued_default`, `context`,
    /// `output`, `image_input`, `tools`, `strict_tools`, `thinking`, `cache`, `price` (USD per
    /// million tokens), `provenance` (`source`, `figures`, `conflicts`).
    #[arg(long)]
    pub(crate) json: bool,
}

/// `smith models [--json]`: one record per model, with capabilities and provenance.
pub(crate) fn run(args: ModelsArgs, global: &Global) -> Result<u8, CliError> {
    let app = global.app(&[])?;
    let models = app.models()?;
    let mut out = String::new();
    for record in smith_app::catalog::model_records(&models, &app) {
        if args.json {
            out.push_str(&record.to_json().to_string());
            out.push('\n');
        } else {
            out.push_str(&human(record.info, record.default));
        }
    }
    write_stdout(&out)
}

fn human(m: &smith::ModelInfo, default: bool) -> String {
    let num = |n: Option<u64>| n.map_or("?".to_owned(), |n| n.to_string());
    let flag = |b: Option<bool>| match b {
        Some(true) => "yes",
        Some(false) => "no",
        None => "?",
    };
    let price = m.price.map_or("?".to_owned(), |p| {
        let f = |x: Option<f64>| x.map_or("?".to_owned(), |x| format!("{x}"));
        format!(
            "in {} out {} cache-read {} cache-write {}",
            f(p.input),
            f(p.output),
            f(p.cache_read),
            f(p.cache_write)
        )
    });
    let thinking = m.thinking.as_ref().map_or("?".to_owned(), |l| {
        l.iter().map(|l| l.as_str()).collect::<Vec<_>>().join(",")
    });
    let name = if default {
        format!("{}/* (any other model)", m.model.provider)
    } else {
        m.model.to_string()
    };
    let source = &m.provenance.source;
    let mut line = format!(
        "{name}\n  context {} · output {} · tools {} · images {} · strict tools {} · thinking {thinking}\n  price $/Mtok {price}\n  source {}{}\n",
        num(m.context),
        num(m.output),
        flag(m.tools),
        flag(m.image_input),
        flag(m.strict_tools),
        source.id,
        source
            .date
            .as_ref()
            .map(|d| format!(" ({d})"))
            .unwrap_or_default()
    );
    for c in &m.provenance.conflicts {
        line.push_str(&format!(
            "  replaces {}{}\n",
            c.source,
            if c.differs.is_empty() {
                " (same figures)".to_owned()
            } else {
                format!(": {}", c.differs.join(", "))
            }
        ));
    }
    line
}
