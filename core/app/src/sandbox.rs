//! The run's OS sandbox from the user's settings (`sandbox.*`; the settings reference and the
//! `sandbox` guide): the mode, the network, the extra writable roots, and the read deny list —
//! Smith's own homes, the usual credential places and `sandbox.deny-read`.
//!
//! Project configuration never reaches here: [`crate::settings`] drops a project's `sandbox.*`
//! keys with a notice.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use smith_config::Value;
use smith_host::sandbox::{CREDENTIAL_PLACES, Mode, Network, Sandbox, Widening};

use crate::paths::Paths;
use crate::registry::RegistryError;
use crate::settings::Settings;

/// The sandbox of a run in `cwd`.
///
/// # Errors
/// [`RegistryError::SandboxPath`] for a writable root that is not absolute or not an existing
/// directory, or a deny-list path that is not absolute or would hide the working directory.
pub fn from_settings(
    paths: &Paths,
    settings: &Settings,
    cwd: &Path,
) -> Result<Sandbox, RegistryError> {
    let mode = settings
        .string("sandbox.mode")
        .and_then(Mode::parse)
        .unwrap_or(Mode::WorkspaceWrite);
    let network = match settings.string("sandbox.network") {
        Some("allow") => Network::Allow,
        _ => Network::Deny,
    };
    let mut sandbox = Sandbox::new(mode, network);
    let cwd = cwd.canonicalize().unwrap_or_else(|_| cwd.to_owned());
    for (path, source) in listed(settings, "sandbox.writable-roots") {
        sandbox
            .writable_roots
            .push(writable_root(&path, &source, "sandbox.writable-roots")?);
    }
    for (path, source) in listed(settings, "sandbox.deny-read") {
        let bad = |reason: String| RegistryError::SandboxPath {
            source_text: source.clone(),
            key: "sandbox.deny-read".to_owned(),
            path: path.display().to_string(),
            reason,
        };
        if !path.is_absolute() {
            return Err(bad(
                "is not an absolute path; give each path from `/`, separated by commas".to_owned(),
            ));
        }
        let real = path.canonicalize().unwrap_or_else(|_| path.clone());
        if cwd.starts_with(&real) {
            return Err(bad(format!(
                "would hide the working directory {} itself; deny something inside it, or run from elsewhere",
                cwd.display()
            )));
        }
        sandbox.deny_read.push(real);
    }
    sandbox.deny_read.extend(built_in_denials(paths));
    Ok(sandbox)
}

/// A writable root `path` given by setting `key` (from `source`), checked: absolute, an
/// existing directory; canonical.
pub(crate) fn writable_root(
    path: &Path,
    source: &str,
    key: &str,
) -> Result<PathBuf, RegistryError> {
    let bad = |reason: &str| RegistryError::SandboxPath {
        source_text: source.to_owned(),
        key: key.to_owned(),
        path: path.display().to_string(),
        reason: reason.to_owned(),
    };
    if !path.is_absolute() {
        return Err(bad(
            "is not an absolute path; give each root from `/`, separated by commas",
        ));
    }
    match path.canonicalize() {
        Ok(real) if real.is_dir() => Ok(real),
        Ok(_) => Err(bad(
            "is not a directory; name the directory to write beneath",
        )),
        Err(_) => Err(bad(
            "does not exist; create the directory first, or remove it from the list",
        )),
    }
}

/// How the user widened the sandbox of the programs plugins keep across calls
/// (`plugins.ID.programs.NAME.network "allow"` and `.writable-roots "/a,/b"`), by plugin id
/// and kept program name. A project's never reach here ([`crate::settings`] drops them).
///
/// # Errors
/// [`RegistryError::SandboxPath`] for a writable root that is not absolute or not an existing
/// directory; [`RegistryError::NetPattern`] for a network that is neither `allow` nor `deny`.
pub fn program_widenings(
    settings: &Settings,
) -> Result<BTreeMap<String, BTreeMap<String, Widening>>, RegistryError> {
    let mut out: BTreeMap<String, BTreeMap<String, Widening>> = BTreeMap::new();
    for (key, value) in settings.resolved.iter() {
        let Some((plugin, rest)) = key
            .strip_prefix("plugins.")
            .and_then(|k| k.split_once(".programs."))
        else {
            continue;
        };
        let Some((program, field)) = rest.split_once('.') else {
            continue;
        };
        let Value::String(text) = &value.value else {
            continue;
        };
        let widening = out
            .entry(plugin.to_owned())
            .or_default()
            .entry(program.to_owned())
            .or_default();
        match field {
            "network" => {
                widening.network = match text.trim() {
                    "allow" => true,
                    "deny" | "" => false,
                    other => {
                        return Err(RegistryError::NetPattern {
                            source_text: value.source.to_string(),
                            key: key.clone(),
                            why: format!(
                                "`{other}` is neither `allow` nor `deny`; write `allow` to let this program reach the network"
                            ),
                        });
                    }
                };
            }
            "writable-roots" => {
                for path in text.split(',').map(str::trim).filter(|p| !p.is_empty()) {
                    widening.writable_roots.push(writable_root(
                        Path::new(path),
                        &value.source.to_string(),
                        key,
                    )?);
                }
            }
            _ => {}
        }
    }
    Ok(out)
}

/// Smith's own homes (configuration, data with the auth file, trust records, secrets,
/// sessions and snapshots) and the credential places under the home directory.
pub fn built_in_denials(paths: &Paths) -> Vec<PathBuf> {
    let mut out: Vec<PathBuf> = Vec::new();
    out.extend(paths.smith_home().map(Path::to_owned));
    out.extend(paths.user_config_dir().map(Path::to_owned));
    if let Ok(trust) = paths.trust_file()
        && let Some(data) = trust.parent()
    {
        out.push(data.to_owned());
    }
    if let Ok(sessions) = paths.sessions() {
        out.push(sessions.to_owned());
    }
    if let Some(home) = paths.home() {
        out.extend(CREDENTIAL_PLACES.iter().map(|p| home.join(p)));
    }
    out.sort();
    out.dedup();
    // A path inside another is covered with it.
    let mut kept: Vec<PathBuf> = Vec::new();
    for path in out {
        if !kept.iter().any(|k| path.starts_with(k)) {
            kept.push(path);
        }
    }
    kept
}

/// The comma-separated paths of the string setting `key`, each with the setting's source.
fn listed(settings: &Settings, key: &str) -> Vec<(PathBuf, String)> {
    match settings.resolved.get(key) {
        Some(setting) => match &setting.value {
            Value::String(text) => text
                .split(',')
                .map(str::trim)
                .filter(|p| !p.is_empty())
                .map(|p| (PathBuf::from(p), setting.source.to_string()))
                .collect(),
            _ => Vec::new(),
        },
        None => Vec::new(),
    }
}
