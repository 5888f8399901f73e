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

--refresh asks each enabled provider whose plugin lists models (openai-compatible: GET
{base-url}/models, as llama.cpp's server, Ollama and vLLM answer it) what it serves now, and
keeps the answer for every later command: listed models are usable by name and show their
source `refresh:PROVIDER` with the time. Everything declared wins over them; a failed refresh
keeps the previous answer and says why. Nothing else ever reaches the network for the catalog.

Exit status:
  0    success (also when stdout is closed early)
  1    --refresh: a provider's listing could not be refreshed (the list is still printed)
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
    /// First ask each provider that lists its models what it serves now (the answer is kept;
    /// a failure keeps the previous one and says why on stderr).
    #[arg(long)]
    pub(crate) refresh: bool,
}

/// `smith models [--json]`: one record per model, with capabilities and provenance.
pub(crate) fn run(args: ModelsArgs, global: &Global) -> Result<u8, CliError> {
    let app = global.app(&[])?;
    let failed = args.refresh && !refresh(&app);
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
    let status = write_stdout(&out)?;
    Ok(if failed {
        crate::exit::RUN_FAILED
    } else {
        status
    })
}

/// Refresh every enabled provider that lists its models, saying on stderr what each gave;
/// whether all succeeded.
fn refresh(app: &smith_app::App) -> bool {
    let listings = match smith_app::refresh::listings(app) {
        Ok(listings) => listings,
        Err(e) => {
            crate::exit::report(&e.to_string());
            return false;
        }
    };
    if listings.is_empty() {
        crate::exit::report("no enabled provider plugin lists its models; nothing was refreshed");
    }
    let cancel = smith::Cancel::new();
    let mut ok = true;
    for listing in listings {
        match listing.fetch_from_server(&cancel) {
            Ok(snapshot) => crate::exit::report(&format!(
                "{}: {} model{} listed at {} ({}){}",
                snapshot.provider,
                snapshot.models.len(),
                if snapshot.models.len() == 1 { "" } else { "s" },
                snapshot.url,
                snapshot.fetched_at,
                match snapshot.skipped.as_slice() {
                    [] => String::new(),
                    skipped => format!(
                        "; {} entr{} skipped: {}",
                        skipped.len(),
                        if skipped.len() == 1 { "y" } else { "ies" },
                        skipped.join("; ")
                    ),
                }
            )),
            Err(e) => {
                ok = false;
                crate::exit::report(&format!(
                    "{e}; the models it listed before are kept (provider.ID.base-url sets where it listens)"
                ));
            }
        }
    }
    ok
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
