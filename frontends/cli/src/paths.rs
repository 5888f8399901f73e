//! Where Smith keeps its files (DESIGN §7).

use std::path::PathBuf;

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
