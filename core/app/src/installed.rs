//! Installed plugins: components a user built (a plugin project's `plugin.kdl` and its
//! `wasm32-wasip2` component), copied under the plugins directory (`plugins/ID/plugin.kdl`,
//! `plugins/ID/plugin.wasm`) and recorded — with the component's SHA-256, where it came from
//! and when — in `plugins/installed.kdl`. Installing is the user's act of trust; the record
//! is what is trusted: a component whose bytes no longer have the recorded digest is not
//! loaded (a notice says so), and an installed plugin runs sandboxed under its manifest's
//! grants exactly as a bundled one does.
//!
//! Installed plugins load after the bundled ones. Their ids cannot be a bundled plugin's.
//! Only the tool and product worlds are installable: a provider or lifecycle handler changes
//! what every run sends and records, and stays a bundled plugin's role.

use std::path::{Path, PathBuf};

use sha2::Digest;
use smith_host::Manifest;

use crate::paths::{NoHome, Paths};

/// The records file in the plugins directory.
pub const RECORDS: &str = "installed.kdl";

/// The largest component installed, in bytes.
pub const MAX_COMPONENT_BYTES: u64 = 64 << 20;

/// One installed plugin, read back and verified.
#[derive(Clone, Debug)]
pub struct Installed {
    /// Its manifest text.
    pub manifest: String,
    /// Its component bytes (their SHA-256 is the recorded one).
    pub component: Vec<u8>,
    /// For messages: `installed:ID` and the directory.
    pub origin: String,
    /// Where it was installed from.
    pub from: String,
}

/// An installed plugin that is not loaded, and why.
#[derive(Clone, Debug)]
pub struct Refused {
    /// Its id.
    pub id: String,
    /// Where it is installed.
    pub dir: PathBuf,
    /// Why it is not loaded and what to do, one sentence.
    pub why: String,
}

/// What installing did.
#[derive(Clone, Debug)]
pub struct Report {
    /// The plugin's parsed manifest.
    pub manifest: Manifest,
    /// The SHA-256 of its component, hex.
    pub sha256: String,
    /// Where it is installed.
    pub dir: PathBuf,
    /// Whether it replaced an installed plugin of the same id.
    pub replaced: bool,
}

/// Why a plugin cannot be installed, uninstalled or read back.
#[derive(Debug, thiserror::Error)]
pub enum InstallError {
    /// No place for installed plugins.
    #[error(transparent)]
    NoHome(#[from] NoHome),
    /// The project has no `plugin.kdl`, no built component, or several.
    #[error("{0}")]
    Project(String),
    /// The manifest or component is not an installable plugin.
    #[error("{0}")]
    Invalid(String),
    /// A file could not be read or written.
    #[error("{action} {path}: {message}")]
    Io {
        /// What was being done.
        action: &'static str,
        /// The path.
        path: String,
        /// The operating system's words.
        message: String,
    },
}

fn io(action: &'static str, path: &Path) -> impl FnOnce(std::io::Error) -> InstallError {
    let path = path.display().to_string();
    move |e| InstallError::Io {
        action,
        path,
        message: e.to_string(),
    }
}

/// The component of the project at `project`: `component` when given, else the one `.wasm`
/// file under `target/wasm32-wasip2/release/` (cargo's output for
/// `cargo build --target wasm32-wasip2 --release`).
fn find_component(project: &Path, component: Option<&Path>) -> Result<PathBuf, InstallError> {
    if let Some(c) = component {
        return Ok(c.to_owned());
    }
    let built = project.join("target/wasm32-wasip2/release");
    let found: Vec<PathBuf> = std::fs::read_dir(&built)
        .map(|dir| {
            dir.filter_map(Result::ok)
                .map(|e| e.path())
                .filter(|p| p.extension().is_some_and(|x| x == "wasm"))
                .collect()
        })
        .unwrap_or_default();
    match found.as_slice() {
        [one] => Ok(one.clone()),
        [] => Err(InstallError::Project(format!(
            "no built component in {}: build the plugin first (cargo build --target wasm32-wasip2 --release), or name its .wasm file",
            built.display()
        ))),
        several => Err(InstallError::Project(format!(
            "{} holds several components ({}); name the one to install",
            built.display(),
            several
                .iter()
                .filter_map(|p| p.file_name().map(|n| n.to_string_lossy().into_owned()))
                .collect::<Vec<_>>()
                .join(", ")
        ))),
    }
}

fn sha256_hex(bytes: &[u8]) -> String {
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

/// Write `bytes` to `path` atomically (a temporary file beside it, synced, renamed).
fn write_atomic(path: &Path, bytes: &[u8]) -> Result<(), InstallError> {
    use std::io::Write;
    let dir = path.parent().unwrap_or(Path::new("."));
    let mut tmp = tempfile::NamedTempFile::new_in(dir).map_err(io("creating a file in", dir))?;
    tmp.write_all(bytes).map_err(io("writing", path))?;
    tmp.as_file().sync_all().map_err(io("syncing", path))?;
    tmp.persist(path)
        .map_err(|e| io("replacing", path)(e.error))?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
}

/// One record of `installed.kdl`.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Record {
    id: String,
    /// The component's SHA-256.
    sha256: String,
    /// The manifest's SHA-256: its grants are part of what was trusted.
    manifest_sha256: String,
    from: String,
}

fn read_records(dir: &Path) -> Result<Vec<Record>, InstallError> {
    let path = dir.join(RECORDS);
    let text = match std::fs::read_to_string(&path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io("reading", &path)(e)),
    };
    let bounds = smith_config::kdl::Bounds {
        max_bytes: 1 << 20,
        max_nesting: 4,
    };
    let doc = smith_config::kdl::parse(&text, bounds).map_err(|e| {
        let at = match &e {
            smith_config::kdl::SyntaxError::Invalid { offset, .. } => {
                let (line, column) = smith_config::kdl::line_col(&text, *offset);
                format!(":{line}:{column}")
            }
            _ => String::new(),
        };
        InstallError::Invalid(format!(
            "{}{at}: the installed plugins' records are not valid KDL; they are written when plugins are installed: remove the file and install the plugins again",
            path.display()
        ))
    })?;
    let mut out = Vec::new();
    for node in doc.nodes() {
        let text_of = |name: &str| {
            node.get(name)
                .and_then(|v| v.as_string())
                .map(str::to_owned)
        };
        let id = node.get(0).and_then(|v| v.as_string()).map(str::to_owned);
        match (
            node.name().value(),
            id,
            text_of("sha256"),
            text_of("manifest-sha256"),
        ) {
            ("plugin", Some(id), Some(sha256), Some(manifest_sha256)) => out.push(Record {
                id,
                sha256,
                manifest_sha256,
                from: text_of("from").unwrap_or_default(),
            }),
            _ => {
                return Err(InstallError::Invalid(format!(
                    "{}: `{}` is not a plugin record (`plugin \"ID\" sha256=\"…\" manifest-sha256=\"…\" from=\"…\"`); remove the file and install the plugins again",
                    path.display(),
                    node.name().value()
                )));
            }
        }
    }
    Ok(out)
}

fn write_records(dir: &Path, records: &[Record]) -> Result<(), InstallError> {
    let mut doc = kdl::KdlDocument::new();
    for r in records {
        let mut node = kdl::KdlNode::new("plugin");
        node.push(kdl::KdlEntry::new(r.id.clone()));
        node.push(kdl::KdlEntry::new_prop("sha256", r.sha256.clone()));
        node.push(kdl::KdlEntry::new_prop(
            "manifest-sha256",
            r.manifest_sha256.clone(),
        ));
        node.push(kdl::KdlEntry::new_prop("from", r.from.clone()));
        doc.nodes_mut().push(node);
    }
    doc.autoformat();
    let text = format!(
        "// Written when plugins are installed or uninstalled: the installed plugins, each loaded\n// only while its component has the recorded SHA-256.\n{doc}"
    );
    write_atomic(&dir.join(RECORDS), text.as_bytes())
}

/// Install the plugin project at `project` (a directory with `plugin.kdl`; its component
/// `component`, else the one cargo built under `target/wasm32-wasip2/release/`). The plugin
/// is checked before anything is written: its manifest parses, names the tool or product
/// world, takes no bundled plugin's id, and `check` (which loads it as the host would, next to
/// the enabled plugins) accepts it. Replaces an installed plugin of the same id.
///
/// # Errors
/// [`InstallError`] naming the file and what to do.
pub fn install(
    paths: &Paths,
    project: &Path,
    component: Option<&Path>,
    check: impl FnOnce(&Manifest, &str, &[u8]) -> Result<(), String>,
) -> Result<Report, InstallError> {
    let manifest_path = if project.is_file() {
        project.to_owned()
    } else {
        project.join("plugin.kdl")
    };
    let project_dir = manifest_path.parent().unwrap_or(Path::new(".")).to_owned();
    let text = std::fs::read_to_string(&manifest_path).map_err(|e| {
        InstallError::Project(format!(
            "cannot read the plugin manifest {}: {e}; a plugin project has its plugin.kdl at its root",
            manifest_path.display()
        ))
    })?;
    let origin = manifest_path.display().to_string();
    let manifest =
        Manifest::parse(&text, &origin).map_err(|e| InstallError::Invalid(e.to_string()))?;
    if !(manifest.world == smith_host::manifest::TOOL_WORLD || manifest.is_product()) {
        return Err(InstallError::Invalid(format!(
            "{origin}: world `{}` cannot be installed: installed plugins are `{}` or `{}` plugins (providers and lifecycle handlers are bundled roles)",
            manifest.world,
            smith_host::manifest::TOOL_WORLD,
            smith_host::manifest::PRODUCT_WORLD
        )));
    }
    if smith_plugins::BUNDLED.iter().any(|b| {
        b.origin.starts_with(&format!("bundled:{}/", manifest.id)) || bundled_id(b) == manifest.id
    }) {
        return Err(InstallError::Invalid(format!(
            "{origin}: `{}` is a bundled plugin's id; give the plugin another id in its manifest",
            manifest.id
        )));
    }
    let component_path = find_component(&project_dir, component)?;
    let size = std::fs::metadata(&component_path)
        .map_err(io("reading", &component_path))?
        .len();
    if size > MAX_COMPONENT_BYTES {
        return Err(InstallError::Invalid(format!(
            "{}: {size} bytes, over the {MAX_COMPONENT_BYTES}-byte bound for a plugin component",
            component_path.display()
        )));
    }
    let bytes = std::fs::read(&component_path).map_err(io("reading", &component_path))?;
    check(&manifest, &text, &bytes).map_err(InstallError::Invalid)?;
    let root = paths.plugins()?;
    let dir = root.join(&manifest.id);
    std::fs::create_dir_all(&dir).map_err(io("creating", &dir))?;
    write_atomic(&dir.join("plugin.wasm"), &bytes)?;
    write_atomic(&dir.join("plugin.kdl"), text.as_bytes())?;
    let sha256 = sha256_hex(&bytes);
    let mut records = read_records(&root)?;
    let replaced = records.iter().any(|r| r.id == manifest.id);
    records.retain(|r| r.id != manifest.id);
    records.push(Record {
        id: manifest.id.clone(),
        sha256: sha256.clone(),
        manifest_sha256: sha256_hex(text.as_bytes()),
        from: std::path::absolute(&project_dir)
            .unwrap_or(project_dir)
            .display()
            .to_string(),
    });
    write_records(&root, &records)?;
    Ok(Report {
        manifest,
        sha256,
        dir,
        replaced,
    })
}

fn bundled_id(b: &smith_plugins::BundledPlugin) -> String {
    Manifest::parse(b.manifest, b.origin)
        .map(|m| m.id)
        .unwrap_or_default()
}

/// Remove installed plugin `id`; `false` when none is installed by that id.
///
/// # Errors
/// [`InstallError`]: the records cannot be read or written.
pub fn uninstall(paths: &Paths, id: &str) -> Result<bool, InstallError> {
    let root = paths.plugins()?;
    let mut records = read_records(&root)?;
    let before = records.len();
    records.retain(|r| r.id != id);
    if records.len() == before {
        return Ok(false);
    }
    write_records(&root, &records)?;
    let dir = root.join(id);
    if dir.starts_with(&root) && dir != root {
        let _ = std::fs::remove_dir_all(&dir);
    }
    Ok(true)
}

/// The installed plugins, in the order they were installed, each verified against its
/// record; and those that are not loaded (missing files, a component or manifest changed since
/// it was installed), each with why.
///
/// # Errors
/// [`InstallError`]: the records file cannot be read.
pub fn read(paths: &Paths) -> Result<(Vec<Installed>, Vec<Refused>), InstallError> {
    let Ok(root) = paths.plugins() else {
        return Ok((Vec::new(), Vec::new()));
    };
    let mut out = Vec::new();
    let mut refused = Vec::new();
    for r in read_records(&root)? {
        let dir = root.join(&r.id);
        let manifest = std::fs::read_to_string(dir.join("plugin.kdl"));
        let component = std::fs::read(dir.join("plugin.wasm"));
        let (Ok(manifest), Ok(component)) = (manifest, component) else {
            refused.push(Refused {
                why: format!(
                    "installed plugin `{}` is not loaded: its files in {} are missing; install it again from {}, or uninstall it",
                    r.id,
                    dir.display(),
                    r.from
                ),
                id: r.id,
                dir,
            });
            continue;
        };
        let (found, found_manifest) = (sha256_hex(&component), sha256_hex(manifest.as_bytes()));
        let changed = if found != r.sha256 {
            Some(format!(
                "its component changed since it was installed (SHA-256 {found}, recorded {})",
                r.sha256
            ))
        } else if found_manifest != r.manifest_sha256 {
            Some(
                "its manifest (what it is granted and contributes) changed since it was installed"
                    .to_owned(),
            )
        } else {
            None
        };
        if let Some(changed) = changed {
            refused.push(Refused {
                why: format!(
                    "installed plugin `{}` is not loaded: {changed}; install it again from {} to trust it as it is now",
                    r.id, r.from
                ),
                id: r.id,
                dir,
            });
            continue;
        }
        out.push(Installed {
            manifest,
            component,
            origin: format!("installed:{}", dir.join("plugin.kdl").display()),
            from: r.from,
        });
    }
    Ok((out, refused))
}
