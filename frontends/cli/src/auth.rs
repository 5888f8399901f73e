//! Reading API keys from the auth file (`auth.kdl`, mode 0600; DESIGN §7):
//!
//! ```kdl
//! provider "anthropic" {
//!     api-key "sk-ant-…"
//! }
//! ```
//!
//! A provider's key comes from the environment variable its plugin declares first, then from
//! this file. A file that others may read is refused (its keys are not used) with the fix
//! named. Key values are never printed.

use std::path::Path;

use crate::exit::CliError;

/// The API key for provider `id` in the auth file at `path`, if the file exists and has one.
///
/// # Errors
/// A usage error when the file cannot be read, is not valid KDL, or is readable by others.
pub(crate) fn key_from(path: &Path, id: &str) -> Result<Option<String>, CliError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(None),
        Err(e) => {
            return Err(CliError::usage(format!(
                "cannot read the auth file {}: {e}",
                path.display()
            )));
        }
    };
    #[cfg(unix)]
    {
        use std::os::unix::fs::PermissionsExt;
        let mode = std::fs::metadata(path)
            .map(|m| m.permissions().mode() & 0o777)
            .unwrap_or(0);
        if mode & 0o077 != 0 {
            return Err(CliError::usage(format!(
                "the auth file {} may be read by others (mode {mode:o}), so its keys are not used; run `chmod 600 {}`",
                path.display(),
                path.display()
            )));
        }
    }
    let doc = kdl::KdlDocument::parse(&text).map_err(|_| {
        CliError::usage(format!(
            "the auth file {} is not valid KDL; expected `provider \"ID\" {{ api-key \"…\" }}` nodes",
            path.display()
        ))
    })?;
    for node in doc.nodes() {
        let named = node.name().value() == "provider"
            && node.entries().first().and_then(|e| e.value().as_string()) == Some(id);
        if !named {
            continue;
        }
        let key = node
            .children()
            .and_then(|c| c.get_arg("api-key"))
            .and_then(|v| v.as_string())
            .map(str::to_owned);
        return Ok(key.filter(|k| !k.is_empty()));
    }
    Ok(None)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_are_read_per_provider_and_an_open_file_is_refused() {
        let dir = tempfile::tempdir().unwrap();
        let path = dir.path().join("auth.kdl");
        assert_eq!(key_from(&path, "anthropic").unwrap(), None);
        std::fs::write(
            &path,
            "provider \"anthropic\" {\n    api-key \"sk-secret-1\"\n}\nprovider \"google\" { api-key \"g\" }\n",
        )
        .unwrap();
        #[cfg(unix)]
        {
            use std::os::unix::fs::PermissionsExt;
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o600)).unwrap();
            assert_eq!(
                key_from(&path, "anthropic").unwrap().as_deref(),
                Some("sk-secret-1")
            );
            assert_eq!(key_from(&path, "google").unwrap().as_deref(), Some("g"));
            assert_eq!(key_from(&path, "openai").unwrap(), None);
            std::fs::set_permissions(&path, std::fs::Permissions::from_mode(0o644)).unwrap();
            let err = key_from(&path, "anthropic").unwrap_err().to_string();
            assert!(
                err.contains("chmod 600") && !err.contains("sk-secret"),
                "{err}"
            );
        }
    }
}
