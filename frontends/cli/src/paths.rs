//! Where Smith keeps its files (DESIGN §7).

use std::path::PathBuf;

use std::path::Path;

use smith::SessionId;

use crate::exit::CliError;

/// The sessions directory: `$SMITH_HOME/sessions` when `SMITH_HOME` is set, otherwise
/// `$XDG_DATA_HOME/smith/sessions` (only an absolute `XDG_DATA_HOME` counts, as the XDG Base
/// Directory specification says), otherwise `$HOME/.local/share/smith/sessions`.
pub(crate) fn sessions_dir() -> Result<PathBuf, CliError> {
    let non_empty = |name: &str| std::env::var_os(name).filter(|v| !v.is_empty());
    if let Some(home) = non_empty("SMITH_HOME") {
        return Ok(PathBuf::from(home).join("sessions"));
    }
    if let Some(data) = non_empty("XDG_DATA_HOME").filter(|d| PathBuf::from(d).is_absolute()) {
        return Ok(PathBuf::from(data).join("smith").join("sessions"));
    }
    if let Some(home) = non_empty("HOME") {
        return Ok(PathBuf::from(home)
            .join(".local")
            .join("share")
            .join("smith")
            .join("sessions"));
    }
    Err(CliError::usage(
        "cannot tell where to keep sessions: none of SMITH_HOME, XDG_DATA_HOME or HOME is set; set SMITH_HOME to a writable directory, or pass --no-session",
    ))
}

fn non_empty(name: &str) -> Option<std::ffi::OsString> {
    std::env::var_os(name).filter(|v| !v.is_empty())
}

fn absolute(name: &str) -> Option<PathBuf> {
    non_empty(name)
        .map(PathBuf::from)
        .filter(|p| p.is_absolute())
}

/// The user configuration file: `$SMITH_HOME/config.kdl`, else
/// `$XDG_CONFIG_HOME/smith/config.kdl`, else `$HOME/.config/smith/config.kdl`; `None` when
/// none of these variables is set.
pub(crate) fn user_config() -> Option<PathBuf> {
    if let Some(home) = non_empty("SMITH_HOME") {
        return Some(PathBuf::from(home).join("config.kdl"));
    }
    if let Some(config) = absolute("XDG_CONFIG_HOME") {
        return Some(config.join("smith").join("config.kdl"));
    }
    non_empty("HOME").map(|h| {
        PathBuf::from(h)
            .join(".config")
            .join("smith")
            .join("config.kdl")
    })
}

/// The compile cache of plugin components: `$SMITH_CACHE_HOME/components`, else
/// `$SMITH_HOME/cache/components`, else `$XDG_CACHE_HOME/smith/components`, else
/// `$HOME/.cache/smith/components`; `None` (compile every time) when none of these variables
/// is set.
pub(crate) fn compile_cache() -> Option<PathBuf> {
    if let Some(cache) = non_empty("SMITH_CACHE_HOME") {
        return Some(PathBuf::from(cache).join("components"));
    }
    if let Some(home) = non_empty("SMITH_HOME") {
        return Some(PathBuf::from(home).join("cache").join("components"));
    }
    if let Some(cache) = absolute("XDG_CACHE_HOME") {
        return Some(cache.join("smith").join("components"));
    }
    non_empty("HOME").map(|h| {
        PathBuf::from(h)
            .join(".cache")
            .join("smith")
            .join("components")
    })
}

/// The trust records: `$SMITH_HOME/trust.kdl`, else `$XDG_DATA_HOME/smith/trust.kdl`, else
/// `$HOME/.local/share/smith/trust.kdl`.
pub(crate) fn trust_file() -> Result<PathBuf, CliError> {
    if let Some(home) = non_empty("SMITH_HOME") {
        return Ok(PathBuf::from(home).join("trust.kdl"));
    }
    if let Some(data) = absolute("XDG_DATA_HOME") {
        return Ok(data.join("smith").join("trust.kdl"));
    }
    if let Some(home) = non_empty("HOME") {
        return Ok(PathBuf::from(home).join(".local/share/smith/trust.kdl"));
    }
    Err(CliError::usage(
        "cannot tell where trust records live: none of SMITH_HOME, XDG_DATA_HOME or HOME is set; set SMITH_HOME",
    ))
}

/// The auth file (mode 0600): `$SMITH_HOME/auth.kdl`, else `$XDG_DATA_HOME/smith/auth.kdl`,
/// else `$HOME/.local/share/smith/auth.kdl` (DESIGN §7). `None` when no home is known.
pub(crate) fn auth_file() -> Option<PathBuf> {
    trust_file()
        .ok()
        .map(|trust| trust.with_file_name("auth.kdl"))
}

/// The project of `dir`: the nearest directory at or above it holding `.smith/`, canonical.
pub(crate) fn project_of(dir: &std::path::Path) -> Option<PathBuf> {
    let dir = dir.canonicalize().ok()?;
    dir.ancestors()
        .find(|d| d.join(".smith").is_dir())
        .map(std::path::Path::to_path_buf)
}

/// Find the session whose id is `wanted` or starts with it.
///
/// `label` names where the id came from in diagnostics (`--session` for eval, `session id`
/// for inspection commands); `create_hint` is the advice when nothing matches.
pub(crate) fn find_session(
    dir: &Path,
    wanted: &str,
    label: &str,
    create_hint: &str,
) -> Result<(PathBuf, SessionId), CliError> {
    let suffix = format!(".{}", smith_store::format::FILE_EXTENSION);
    let prefix = wanted.to_ascii_lowercase();
    // A pasted file name (`<id>.smith`) names its session too.
    let prefix = prefix.strip_suffix(&suffix).unwrap_or(&prefix).to_owned();
    if prefix.is_empty() || !prefix.chars().all(|c| c.is_ascii_hexdigit() || c == '-') {
        return Err(CliError::usage(format!(
            "{label} `{wanted}` is not a session id or id prefix (hexadecimal digits and `-`); session ids are the names of the `.smith` files in the sessions directory (`smith sessions list` shows them)"
        )));
    }
    let entries = std::fs::read_dir(dir).map_err(|e| {
        CliError::usage(format!(
            "{label} `{wanted}`: cannot list the sessions directory {}: {e}; {create_hint}",
            dir.display()
        ))
    })?;
    let mut matches: Vec<(PathBuf, SessionId)> = entries
        .filter_map(Result::ok)
        .filter_map(|entry| {
            let name = entry.file_name().into_string().ok()?;
            let stem = name.strip_suffix(&suffix)?;
            let id = stem.parse::<SessionId>().ok()?;
            stem.starts_with(&prefix).then(|| (entry.path(), id))
        })
        .collect();
    matches.sort_by_key(|(_, id)| *id);
    match matches.len() {
        1 => Ok(matches.remove(0)),
        0 => Err(CliError::usage(format!(
            "{label} `{wanted}` matches no session in {}; session ids are the names of the `.smith` files there (`smith sessions list` shows them) — {create_hint}",
            dir.display()
        ))),
        n => Err(CliError::usage(format!(
            "{label} `{wanted}` matches {n} sessions ({}{}); give more of the id",
            matches
                .iter()
                .take(5)
                .map(|(_, id)| id.to_string())
                .collect::<Vec<_>>()
                .join(", "),
            if n > 5 { ", …" } else { "" }
        ))),
    }
}
