//! The model catalog an invocation sees — the bundled snapshot, the enabled provider plugins'
//! contributions, what their servers listed at the last refresh ([`crate::refresh`]) and the
//! user's `models.kdl` beside `config.kdl` (which wins over all) — and the aliases and groups
//! of that `models.kdl`.

use std::collections::BTreeSet;
use std::path::PathBuf;

use smith_ai::catalog::{Catalog, CatalogError, Rank};
use smith_ai::routing::RouteTable;

use crate::paths::Paths;
use crate::registry::Registry;

/// The catalog and the aliases and groups of `models.kdl`.
#[derive(Debug)]
pub struct Models {
    /// The merged catalog.
    pub catalog: Catalog,
    /// Aliases and groups.
    pub routes: RouteTable,
    /// The user's `models.kdl` (whether or not it exists), for messages.
    pub file: Option<PathBuf>,
}

/// Why the catalog could not be built.
#[derive(Debug, thiserror::Error)]
pub enum ModelsError {
    /// The user's `models.kdl` breaks the schema (the message names file and line).
    #[error(
        "{0} (models.kdl holds `model`, `source`, `alias` and `group` nodes; the models guide has the schema)"
    )]
    Invalid(CatalogError),
    /// A user record claims a source id of the bundled catalog.
    #[error(
        "{file}: source id `{id}` is a source of the bundled catalog; give your own source its own id"
    )]
    SpoofedSource {
        /// The models file.
        file: String,
        /// The source id it reuses.
        id: String,
    },
    /// `models.kdl` exists but cannot be read.
    #[error("cannot read {}: {source}; fix its permissions or remove it", path.display())]
    Unreadable {
        /// The file.
        path: PathBuf,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The bundled catalog or a bundled plugin's catalog does not parse: a defect of the
    /// build.
    #[error("{0}; this is a defect of this Smith build — please report it")]
    Defect(CatalogError),
}

impl Models {
    /// Build the catalog: plugin contributions, then the bundled snapshot, then `models.kdl`.
    ///
    /// # Errors
    /// [`ModelsError`]: a `models.kdl` that cannot be read or breaks the schema, or a bundled
    /// catalog that does not parse.
    pub fn load(paths: &Paths, registry: &Registry) -> Result<Self, ModelsError> {
        let mut catalog = Catalog::bundled().map_err(ModelsError::Defect)?;
        for manifest in registry.enabled() {
            if let (Some(text), Some(decl)) = (&manifest.catalog, &manifest.provider) {
                let layer = smith_ai::catalog::parse(
                    text,
                    &format!("plugin:{}", manifest.label()),
                    Some(&decl.id),
                )
                .map_err(ModelsError::Defect)?;
                catalog.add(Rank::Plugin, layer);
            }
        }
        // What providers' servers listed at the last refresh, below every declared record.
        let listing: Vec<&smith_host::manifest::Manifest> = registry.enabled().collect();
        let defaults = |provider: &str| {
            catalog.get(&smith::ModelRef {
                provider: provider.to_owned(),
                model: String::new(),
            })
        };
        let refreshed = crate::refresh::layer(paths, &listing, &defaults);
        catalog.add(Rank::Refreshed, refreshed);
        let mut routes = RouteTable::default();
        let file = paths.models_file();
        if let Some(path) = &file {
            match crate::auth::read_bounded(path, smith_ai::catalog::MAX_BYTES) {
                Ok(text) => {
                    let origin = path.display().to_string();
                    let layer = smith_ai::catalog::parse(&text, &origin, None)
                        .map_err(ModelsError::Invalid)?;
                    // A user record cannot pass for reviewed data: its source ids are its own.
                    let bundled: BTreeSet<&str> = catalog
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
                        return Err(ModelsError::SpoofedSource {
                            file: origin,
                            id: taken.clone(),
                        });
                    }
                    catalog.add(Rank::User, layer);
                    routes = RouteTable::parse(&text, &origin);
                }
                Err(e) if e.kind() == std::io::ErrorKind::NotFound => {}
                Err(source) => {
                    return Err(ModelsError::Unreadable {
                        path: path.clone(),
                        source,
                    });
                }
            }
        }
        Ok(Self {
            catalog,
            routes,
            file,
        })
    }
}
