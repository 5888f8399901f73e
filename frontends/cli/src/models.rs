//! The model catalog this command sees — the bundled snapshot, the enabled provider plugins'
//! contributions and the user's `models.kdl` beside `config.kdl` — and `smith models`.

use std::path::PathBuf;

use smith_ai::catalog::{Catalog, Rank};
use smith_ai::routing::RouteTable;

use crate::cli::ModelsArgs;
use crate::exit::{self, CliError};
use crate::registry::Known;

/// The catalog and the aliases and groups of `models.kdl`.
pub(crate) struct Models {
    /// The merged catalog.
    pub(crate) catalog: Catalog,
    /// Aliases and groups.
    pub(crate) routes: RouteTable,
}

/// The user's `models.kdl`: beside the user configuration file.
pub(crate) fn user_file() -> Option<PathBuf> {
    crate::paths::user_config().map(|c| c.with_file_name("models.kdl"))
}

/// Build the catalog: plugin contributions, then the bundled snapshot, then `models.kdl`.
///
/// # Errors
/// A `models.kdl` that cannot be read or breaks the schema (exit 2, naming file and line); a
/// bundled catalog or manifest that does not parse (a defect of the build).
pub(crate) fn load(plugins: &[Known]) -> Result<Models, CliError> {
    let defect = |e: smith_ai::catalog::CatalogError| {
        CliError::new(
            exit::RUN_FAILED,
            format!("{e}; this is a defect of this Smith build — please report it"),
        )
    };
    let mut catalog = Catalog::bundled().map_err(defect)?;
    for manifest in crate::registry::enabled(plugins) {
        if let (Some(text), Some(decl)) = (&manifest.catalog, &manifest.provider) {
            let layer = smith_ai::catalog::parse(
                text,
                &format!("plugin:{}", manifest.label()),
                Some(&decl.id),
            )
            .map_err(defect)?;
            catalog.add(Rank::Plugin, layer);
        }
    }
    let mut routes = RouteTable::default();
    if let Some(path) = user_file() {
        match crate::auth_file::read_bounded(&path, smith_ai::catalog::MAX_BYTES) {
            Ok(text) => {
                let origin = path.display().to_string();
                let layer = smith_ai::catalog::parse(&text, &origin, None).map_err(|e| {
                    CliError::usage(format!(
                        "{e} (models.kdl holds `model`, `source`, `alias` and `group` nodes; `smith docs get models` has the schema)"
                    ))
                })?;
                // A user record cannot pass for reviewed data: its source ids are its own.
                let bundled: std::collections::BTreeSet<&str> = catalog
                    .models()
                    .flat_map(|m| {
                        std::iter::once(m.provenance.source.id.as_str())
                            .chain(m.provenance.figures.values().map(|s| s.id.as_str()))
                    })
                    .collect();
                if let Some(taken) = layer
                    .models
                    .iter()
                    .flat_map(|m| {
                        std::iter::once(&m.provenance.source.id)
                            .chain(m.provenance.figures.values().map(|s| &s.id))
                    })
                    .find(|id| bundled.contains(id.as_str()))
                {
                    return Err(CliError::usage(format!(
                        "{origin}: source id `{taken}` is a source of the bundled catalog; give your own source its own id"
                    )));
                }
                catalog.add(Rank::User, layer);
                routes = RouteTable::parse(&text, &origin);
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
            Err(e) => {
                return Err(CliError::usage(format!(
                    "cannot read {}: {e}; fix its permissions or remove it",
                    path.display()
                )));
            }
        }
    }
    Ok(Models { catalog, routes })
}

/// `smith models [--json]`: one record per model, with capabilities and provenance.
pub(crate) fn run(args: ModelsArgs, global: &crate::cli::Global) -> Result<u8, CliError> {
    let mut loaded = crate::settings::load(global, &[])?;
    let plugins = crate::registry::known(&mut loaded)?;
    let models = load(&plugins)?;
    let providers = crate::registry::provider_ids(&plugins);
    let mut out = String::new();
    let records = models
        .catalog
        .models()
        .map(|m| (m, false))
        .chain(models.catalog.defaults().map(|m| (m, true)))
        .filter(|(m, _)| providers.contains(&m.model.provider));
    for (info, default) in records {
        if args.json {
            let mut value = serde_json::to_value(info).unwrap_or_default();
            if let Some(map) = value.as_object_mut() {
                map.remove("model");
                let mut head = serde_json::Map::new();
                head.insert("provider".into(), info.model.provider.clone().into());
                head.insert("id".into(), info.model.model.clone().into());
                head.insert("uncatalogued_default".into(), default.into());
                head.extend(std::mem::take(map));
                value = serde_json::Value::Object(head);
            }
            out.push_str(&value.to_string());
            out.push('\n');
        } else {
            out.push_str(&human(info, default));
        }
    }
    crate::settings::write_stdout(&out)
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
