//! Reading API keys from the auth file (`auth.kdl`, mode 0600; DESIGN §7):
//!
//! ```kdl
//! provider "anthropic" {
//!     api-key "sk-ant-…"
//!     account "work" { api-key "sk-ant-…" }
//! }
//! ```
//!
//! A provider's keys form its account bucket, used in this order: the environment variable
//! its plugin declares, then this file's `api-key` (account `auth-file`), then its named
//! `account`s in file order. A file that others may read is refused (its keys are not used)
//! with the fix named. Key values are never printed.

use std::path::Path;

use crate::exit::CliError;

/// The first API key for provider `id` in the auth file at `path`, if the file has one.
///
/// # Errors
/// As [`accounts_from`].
pub(crate) fn key_from(path: &Path, id: &str) -> Result<Option<String>, CliError> {
    Ok(accounts_from(path, id)?.into_iter().next().map(|(_, key)| key))
}

/// The accounts of provider `id` in the auth file at `path`, in order: `api-key` (labelled
/// `auth-file`), then each `account "NAME" { api-key "…" }` (labelled `NAME`). Empty when
/// the file does not exist or names none.
///
/// # Errors
/// A usage error when the file cannot be read, is not valid KDL, is readable by others, or
/// names an account twice or without a key.
pub(crate) fn accounts_from(path: &Path, id: &str) -> Result<Vec<(String, String)>, CliError> {
    let text = match std::fs::read_to_string(path) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => {
            return Err(CliError::usage(format!(
                "cannot read the auth file {}: {e}; fix or remove it, then store keys again with `smith auth set PROVIDER`",
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
        let mut out = Vec::new();
        let Some(children) = node.children() else {
            return Ok(out);
        };
        for child in children.nodes() {
            let (label, key) = match child.name().value() {
                "api-key" => (
                    "auth-file".to_owned(),
                    child.entries().first().and_then(|e| e.value().as_string()),
                ),
                "account" => {
                    let name = child.entries().first().and_then(|e| e.value().as_string());
                    let key = child
                        .children()
                        .and_then(|c| c.get_arg("api-key"))
                        .and_then(|v| v.as_string());
                    let Some(name) = name.filter(|n| !n.is_empty()) else {
                        return Err(CliError::usage(format!(
                            "the auth file {} has an `account` of provider `{id}` without a name; write account \"NAME\" {{ api-key \"…\" }}",
                            path.display()
                        )));
                    };
                    (name.to_owned(), key)
                }
                _ => continue,
            };
            let Some(key) = key.filter(|k| !k.is_empty()) else {
                return Err(CliError::usage(format!(
                    "the auth file {} names account `{label}` of provider `{id}` without an api-key; add it or remove the account",
                    path.display()
                )));
            };
            if out.iter().any(|(l, _)| *l == label) {
                return Err(CliError::usage(format!(
                    "the auth file {} names account `{label}` of provider `{id}` twice; account names are unique per provider",
                    path.display()
                )));
            }
            out.push((label, key.to_owned()));
        }
        return Ok(out);
    }
    Ok(Vec::new())
}

/// `smith auth …`.
pub(crate) fn run(args: crate::cli::AuthArgs, global: &crate::cli::Global) -> Result<u8, CliError> {
    let mut loaded = crate::settings::load(global, &[])?;
    let plugins = crate::registry::known(&mut loaded)?;
    let declared = crate::registry::api_keys(&plugins);
    let path = crate::paths::auth_file().ok_or_else(|| {
        CliError::usage("cannot tell where the auth file lives: none of SMITH_HOME, XDG_DATA_HOME or HOME is set; set SMITH_HOME")
    })?;
    match args.command {
        crate::cli::AuthCommand::Status { json } => {
            let mut out = String::new();
            for (id, key) in &declared {
                // A refused or unreadable auth file is reported per provider, not fatal here.
                let (source, problem) = if std::env::var(&key.env).is_ok_and(|v| !v.is_empty()) {
                    (Some("environment"), None)
                } else {
                    match key_from(&path, id) {
                        Ok(Some(_)) => (Some("auth-file"), None),
                        Ok(None) => (None, None),
                        Err(e) => (None, Some(e.message)),
                    }
                };
                if json {
                    out.push_str(
                        &serde_json::json!({
                            "provider": id,
                            "env": key.env,
                            "required": key.required,
                            "source": source,
                            "problem": problem,
                        })
                        .to_string(),
                    );
                    out.push('\n');
                } else {
                    let state = match (source, &problem) {
                        (_, Some(problem)) => format!("not usable: {problem}"),
                        (Some("environment"), _) => format!("set by {}", key.env),
                        (Some(_), _) => format!("set in {}", path.display()),
                        (None, _) if key.required => {
                            format!("missing: set {} or run `smith auth set {id}`", key.env)
                        }
                        (None, _) => format!("not set (optional; {})", key.env),
                    };
                    out.push_str(&format!("{id:<18} {state}\n"));
                }
            }
            crate::settings::write_stdout(&out)
        }
        crate::cli::AuthCommand::Set { provider, account } => {
            if !declared.iter().any(|(id, _)| *id == provider) {
                let known: Vec<&str> = declared.iter().map(|(id, _)| id.as_str()).collect();
                return Err(CliError::usage(format!(
                    "provider `{provider}` takes no API key here; providers with keys: {}",
                    known.join(", ")
                )));
            }
            let mut line = String::new();
            std::io::stdin()
                .read_line(&mut line)
                .map_err(|e| CliError::usage(format!("cannot read the key from stdin: {e}")))?;
            let key = line.trim();
            if key.is_empty() || key.chars().any(char::is_control) {
                return Err(CliError::usage(
                    "no key on stdin (or it holds control characters); pipe the key in: echo \"$KEY\" | smith auth set PROVIDER",
                ));
            }
            if let Some(name) = &account
                && (name.is_empty()
                    || name == "auth-file"
                    || name.starts_with("env:")
                    || name.chars().any(|c| c.is_whitespace() || c.is_control()))
            {
                return Err(CliError::usage(format!(
                    "account name `{name}` is reserved or has spaces; pick a plain name, e.g. --account work"
                )));
            }
            store(&path, &provider, account.as_deref(), key)?;
            crate::settings::write_stdout(&format!(
                "stored the key of {provider}{} in {}\n",
                account.map(|a| format!(" (account {a})")).unwrap_or_default(),
                path.display()
            ))
        }
    }
}

/// Store `key` for `id` (its `api-key`, or named `account`) in the auth file at `path`: under
/// an exclusive lock (concurrent updates never lose another provider's or account's entry),
/// written whole to a 0600 temporary file, synced, and renamed over the old one.
fn store(path: &Path, id: &str, account: Option<&str>, key: &str) -> Result<(), CliError> {
    let fail = |what: &str, e: std::io::Error| {
        CliError::usage(format!(
            "cannot {what} the auth file {}: {e}",
            path.display()
        ))
    };
    let dir = path.parent().unwrap_or(Path::new("."));
    std::fs::create_dir_all(dir).map_err(|e| fail("create the folder of", e))?;
    let lock = std::fs::OpenOptions::new()
        .create(true)
        .truncate(false)
        .write(true)
        .open(path.with_extension("kdl.lock"))
        .map_err(|e| fail("lock", e))?;
    lock.lock().map_err(|e| fail("lock", e))?;
    let text = match std::fs::read_to_string(path) {
        Ok(t) => t,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(fail("read", e)),
    };
    let mut doc = kdl::KdlDocument::parse(&text).map_err(|_| {
        CliError::usage(format!(
            "the auth file {} is not valid KDL; fix or remove it, then retry",
            path.display()
        ))
    })?;
    // The provider's node is rewritten with its other accounts kept, in their order.
    let mut accounts = if text.is_empty() {
        Vec::new()
    } else {
        accounts_from(path, id)?
    };
    let label = account.unwrap_or("auth-file");
    match accounts.iter_mut().find(|(l, _)| l == label) {
        Some(entry) => entry.1 = key.to_owned(),
        None if account.is_none() => accounts.insert(0, (label.to_owned(), key.to_owned())),
        None => accounts.push((label.to_owned(), key.to_owned())),
    }
    let q = |s: &str| kdl::KdlValue::String(s.to_owned()).to_string();
    let mut node = format!("provider {} {{\n", q(id));
    for (label, key) in &accounts {
        if label == "auth-file" {
            node.push_str(&format!("    api-key {}\n", q(key)));
        } else {
            node.push_str(&format!(
                "    account {} {{\n        api-key {}\n    }}\n",
                q(label),
                q(key)
            ));
        }
    }
    node.push_str("}\n");
    let mut entry = kdl::KdlDocument::parse(&node)
        .map_err(|_| CliError::usage("the key cannot be written as KDL text"))?;
    let at = doc.nodes().iter().position(|n| {
        n.name().value() == "provider"
            && n.entries().first().and_then(|e| e.value().as_string()) == Some(id)
    });
    match at {
        Some(at) => {
            let new = entry.nodes_mut().remove(0);
            doc.nodes_mut()[at] = new;
        }
        None => doc.nodes_mut().append(entry.nodes_mut()),
    }
    let temp = path.with_extension(format!("kdl.tmp-{}", std::process::id()));
    {
        use std::io::Write;
        let mut options = std::fs::OpenOptions::new();
        options.write(true).create_new(true);
        #[cfg(unix)]
        std::os::unix::fs::OpenOptionsExt::mode(&mut options, 0o600);
        let mut file = options.open(&temp).map_err(|e| fail("write", e))?;
        file.write_all(doc.to_string().as_bytes())
            .and_then(|()| file.sync_all())
            .map_err(|e| fail("write", e))?;
    }
    std::fs::rename(&temp, path).map_err(|e| fail("replace", e))?;
    if let Ok(d) = std::fs::File::open(dir) {
        let _ = d.sync_all();
    }
    Ok(())
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
