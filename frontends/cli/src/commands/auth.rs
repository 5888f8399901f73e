//! `smith auth status` and `smith auth set`: credentials checked without a model request, and
//! a key — typed at a prompt with echo off on a terminal, else one line of stdin — stored in
//! the auth file (`smith_app::auth`). Values are never printed.

use clap::{Args, Subcommand};
use smith_app::auth::{self, Secret};

use crate::cli::Global;
use crate::command_error::{CliError, auth_message};
use crate::output::write_stdout;

pub(crate) const AUTH_AFTER_HELP: &str = "\
A provider's keys form an account bucket, tried in order after a rate limit: the environment
variable its plugin declares (e.g. ANTHROPIC_API_KEY; `provider.ID.api-key-env` names another),
then the auth file (auth.kdl beside the trust records, mode 0600): its key, then its named
accounts. An account may hold a renewable credential (access-token, expires-at, refresh-token),
renewed before use at `provider.ID.token-url`. Secrets are never printed: `status` says only
which accounts exist and where a key comes from (`smith docs get models`).

  smith auth set anthropic                    (on a terminal: asks, with echo off)
  echo \"$KEY\" | smith auth set anthropic
  echo \"$KEY\" | smith auth set anthropic --account work

A key the vendor refuses (HTTP 401/403) fails with the source of the key that was sent: the
variable, or which account of the auth file.

Exit status:
  0    success
  2    bad arguments (an unknown provider, an empty key) or an unreadable auth file";

/// Arguments of `smith auth`.
#[derive(Debug, Args)]
pub(crate) struct AuthArgs {
    #[command(subcommand)]
    pub(crate) command: AuthCommand,
}

/// `smith auth` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum AuthCommand {
    /// For each provider: whether its key is set and where it comes from (never the key).
    Status {
        /// One JSON record per provider: `provider`, `env`, `required`, `source`
        /// (`environment`, `auth-file` or null).
        #[arg(long)]
        json: bool,
    },
    /// Store PROVIDER's API key in the auth file: asked for with echo off on a terminal, else
    /// read from stdin (one line); the entries of other providers are kept.
    Set {
        /// The provider id (e.g. `anthropic`).
        provider: String,
        /// Store it as this named account of the provider's bucket (used after the
        /// environment variable and the unnamed key, in file order) instead of as its key.
        #[arg(long, value_name = "NAME")]
        account: Option<String>,
    },
}

/// `smith auth …`.
pub(crate) fn run(args: AuthArgs, global: &Global) -> Result<u8, CliError> {
    let app = global.app(&[])?;
    let declared = app.registry.api_keys();
    let path = app
        .paths
        .auth_file()
        .map_err(|e| crate::command_error::no_home(&e))?;
    match args.command {
        AuthCommand::Status { json } => {
            let mut out = String::new();
            for (id, key) in &declared {
                let variable = smith_app::route::key_variable(&app.settings, id, &key.env);
                // A refused or unreadable auth file is reported per provider, not fatal here.
                let (source, problem) = match auth::key_source(&path, id, &variable) {
                    Ok(source) => (source.map(auth::KeySource::name), None),
                    Err(e) => (None, Some(auth_message(&e))),
                };
                // Every account of the bucket: its label and kind, never its secret.
                let accounts: Vec<serde_json::Value> = auth::accounts(&path, id)
                    .unwrap_or_default()
                    .iter()
                    .map(|(label, secret)| match secret {
                        Secret::Key(_) => serde_json::json!({"account": label, "kind": "key"}),
                        Secret::Renewable(r) => serde_json::json!({
                            "account": label,
                            "kind": "renewable",
                            "expires_at": r.expires_at,
                            "expired": r.needs_renewal(auth::now()),
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
            write_stdout(&out)
        }
        AuthCommand::Set { provider, account } => {
            if !declared.iter().any(|(id, _)| *id == provider) {
                let with_keys: Vec<&str> = declared.iter().map(|(id, _)| id.as_str()).collect();
                let known = app.registry.provider_ids();
                return Err(CliError::usage(if known.contains(&provider) {
                    format!(
                        "provider `{provider}` takes no API key; providers with keys: {}",
                        with_keys.join(", ")
                    )
                } else {
                    let close: Vec<String> =
                        smith_config::closest(&provider, with_keys.iter().copied())
                            .into_iter()
                            .map(str::to_owned)
                            .collect();
                    format!(
                        "unknown provider `{provider}`; {}providers with keys: {} (`smith auth status` lists them)",
                        smith_app::route::did_you_mean(&close).replace("If not, ", ""),
                        with_keys.join(", ")
                    )
                }));
            }
            if let Some(name) = &account
                && (name.is_empty()
                    || name == auth::DEFAULT_ACCOUNT
                    || name.starts_with("env:")
                    || name.chars().any(|c| c.is_whitespace() || c.is_control()))
            {
                return Err(CliError::usage(format!(
                    "account name `{name}` is reserved or has spaces; pick a plain name, e.g. --account work"
                )));
            }
            let key = read_key(&provider)?;
            let key = key.trim();
            if key.is_empty() || key.chars().any(char::is_control) {
                return Err(CliError::usage(
                    "no key given (or it holds control characters); type it at the prompt, or pipe it in: echo \"$KEY\" | smith auth set PROVIDER",
                ));
            }
            let label = account
                .clone()
                .unwrap_or_else(|| auth::DEFAULT_ACCOUNT.to_owned());
            auth::update(&path, &provider, |accounts| {
                let secret = Secret::Key(key.to_owned());
                match accounts.iter_mut().find(|(l, _)| *l == label) {
                    Some(entry) => entry.1 = secret,
                    // The unnamed key comes first in the bucket, named accounts after.
                    None if account.is_none() => accounts.insert(0, (label.clone(), secret)),
                    None => accounts.push((label.clone(), secret)),
                }
                Ok(())
            })?;
            write_stdout(&format!(
                "stored the key of {provider}{} in {}\n",
                account
                    .map(|a| format!(" (account {a})"))
                    .unwrap_or_default(),
                path.display()
            ))
        }
    }
}

/// The key: typed at a prompt with echo off when stdin is a terminal, else one line of stdin.
fn read_key(provider: &str) -> Result<String, CliError> {
    use std::io::IsTerminal;
    if std::io::stdin().is_terminal() {
        return rpassword::prompt_password(format!("API key for {provider} (input hidden): "))
            .map_err(|e| CliError::usage(format!("cannot read the key from the terminal: {e}; pipe it in instead: echo \"$KEY\" | smith auth set {provider}")));
    }
    let mut line = String::new();
    std::io::stdin()
        .read_line(&mut line)
        .map_err(|e| CliError::usage(format!("cannot read the key from stdin: {e}")))?;
    Ok(line)
}
