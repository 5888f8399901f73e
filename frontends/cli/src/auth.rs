//! `smith auth status` and `smith auth set`: credentials checked without a model request, and
//! a key read from stdin stored in the auth file ([`crate::auth_file`]). Values are never
//! printed.

use crate::auth_file::{self, Secret};
use crate::exit::CliError;

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
                let variable = crate::providers::key_variable(&loaded, id, &key.env);
                // A refused or unreadable auth file is reported per provider, not fatal here.
                let (source, problem) = if std::env::var(&variable).is_ok_and(|v| !v.is_empty()) {
                    (Some("environment"), None)
                } else {
                    match auth_file::accounts(&path, id) {
                        Ok(found) if !found.is_empty() => (Some("auth-file"), None),
                        Ok(_) => (None, None),
                        Err(e) => (None, Some(e.message)),
                    }
                };
                // Every account of the bucket: its label and kind, never its secret.
                let accounts: Vec<serde_json::Value> = auth_file::accounts(&path, id)
                    .unwrap_or_default()
                    .iter()
                    .map(|(label, secret)| match secret {
                        Secret::Key(_) => serde_json::json!({"account": label, "kind": "key"}),
                        Secret::Renewable(r) => serde_json::json!({
                            "account": label,
                            "kind": "renewable",
                            "expires_at": r.expires_at,
                            "expired": r.needs_renewal(auth_file::now()),
                        }),
                    })
                    .collect();
                if json {
                    out.push_str(
                        &serde_json::json!({
                            "provider": id,
                            "env": variable,
                            "required": key.required,
                            "source": source,
                            "accounts": accounts,
                            "problem": problem,
                        })
                        .to_string(),
                    );
                    out.push('\n');
                } else {
                    let state = match (source, &problem) {
                        (_, Some(problem)) => format!("not usable: {problem}"),
                        (Some("environment"), _) => format!("set by {variable}"),
                        (Some(_), _) => format!("set in {}", path.display()),
                        (None, _) if key.required => {
                            format!("missing: set {variable} or run `smith auth set {id}`")
                        }
                        (None, _) => format!("not set (optional; {variable})"),
                    };
                    let more = if accounts.len() > 1 {
                        format!(" ({} accounts in the auth file)", accounts.len())
                    } else {
                        String::new()
                    };
                    out.push_str(&format!("{id:<18} {state}{more}\n"));
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
            let label = account.clone().unwrap_or_else(|| "auth-file".to_owned());
            auth_file::update(&path, &provider, |accounts| {
                let secret = Secret::Key(key.to_owned());
                match accounts.iter_mut().find(|(l, _)| *l == label) {
                    Some(entry) => entry.1 = secret,
                    // The unnamed key comes first in the bucket, named accounts after.
                    None if account.is_none() => accounts.insert(0, (label.clone(), secret)),
                    None => accounts.push((label.clone(), secret)),
                }
                Ok(())
            })?;
            crate::settings::write_stdout(&format!(
                "stored the key of {provider}{} in {}\n",
                account
                    .map(|a| format!(" (account {a})"))
                    .unwrap_or_default(),
                path.display()
            ))
        }
    }
}
