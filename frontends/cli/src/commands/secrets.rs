//! `smith secrets add|remove|list`: the user's secret store (`secrets.kdl`, mode 0600, beside the
//! auth file) and every secret a run redacts. Values are read from stdin (or typed with echo off
//! on a terminal) and never printed.

use clap::{Args, Subcommand};
use smith_app::secrets;

use crate::cli::Global;
use crate::command_error::{self, CliError};
use crate::output::write_stdout;

pub(crate) const SECRETS_AFTER_HELP: &str = "\
Registered secrets never reach a provider, a session file, a log or an export: each one — and
its JSON-escaped, URL-encoded and base64 forms — is replaced by its reference ⟦secret:NAME⟧ in
tool output, records, requests and everything Smith prints. A tool call that passes the
reference to a local process or a file write in the working directory gets the plaintext there,
and the record keeps the reference. Besides the ones you add, every credential of the auth file
and the value of every provider key variable that is set are registered.

  echo \"$TOKEN\" | smith secrets add DEPLOY_TOKEN --label \"staging deploy token\"
  smith secrets list
  smith secrets remove DEPLOY_TOKEN

A secret has 8 to 16,384 bytes (a shorter one would redact ordinary text). Removing one keeps
the records already written redacted: they hold its reference, never its plaintext.

Exit status:
  0    success
  2    bad arguments (a refused name or length, an unknown name) or an unusable store";

/// Arguments of `smith secrets`.
#[derive(Debug, Args)]
pub(crate) struct SecretsArgs {
    #[command(subcommand)]
    pub(crate) command: SecretsCommand,
}

/// `smith secrets` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum SecretsCommand {
    /// Store secret NAME: typed with echo off on a terminal, else read from stdin (one line,
    /// its line ending dropped).
    Add {
        /// Its name: 1 to 64 of A-Z, a-z, 0-9, `_`, `.`, `-`; its reference is ⟦secret:NAME⟧.
        name: String,
        /// What it is, shown by `list` and recorded with its registration.
        #[arg(long, value_name = "TEXT")]
        label: Option<String>,
    },
    /// Remove secret NAME from the store (records already written stay redacted).
    Remove {
        /// Its name.
        name: String,
    },
    /// Every secret a run redacts: name, source and label (never a value).
    List {
        /// One JSON record per secret: `name`, `reference`, `source`, `label`.
        #[arg(long)]
        json: bool,
    },
}

/// `smith secrets …`.
pub(crate) fn run(args: SecretsArgs, global: &Global) -> Result<u8, CliError> {
    let app = global.app(&[])?;
    let path = app.paths.secrets_file().ok_or_else(|| {
        CliError::usage(
            "no home for the secret store: set SMITH_HOME (or XDG_DATA_HOME, or HOME)".to_owned(),
        )
    })?;
    match args.command {
        SecretsCommand::Add { name, label } => {
            let value = read_value(&name)?;
            let replaced = secrets::add(&path, &name, &value, label.as_deref())
                .map_err(|e| command_error::secrets(&e))?;
            write_stdout(&format!(
                "{} secret {name} in {}; it is shown as {}\n",
                if replaced { "replaced" } else { "stored" },
                path.display(),
                smith_secrets::reference(&name)
            ))?;
        }
        SecretsCommand::Remove { name } => {
            if !secrets::remove(&path, &name).map_err(|e| command_error::secrets(&e))? {
                return Err(CliError::usage(format!(
                    "no secret `{name}` is stored in {} (`smith secrets list` shows them)",
                    path.display()
                )));
            }
            write_stdout(&format!("removed secret {name} from {}\n", path.display()))?;
        }
        SecretsCommand::List { json } => {
            let all = app.secrets().map_err(|e| command_error::secrets(&e))?;
            let mut out = String::new();
            for r in &all.registrations {
                if json {
                    let record = serde_json::json!({
                        "name": r.name,
                        "reference": smith_secrets::reference(&r.name),
                        "source": r.source,
                        "label": r.label,
                    });
                    out.push_str(&format!("{record}\n"));
                } else {
                    out.push_str(&format!(
                        "{:<32} {:<28} {}\n",
                        r.name,
                        r.source,
                        r.label.as_deref().unwrap_or("")
                    ));
                }
            }
            if !json && all.registrations.is_empty() {
                out.push_str("no secrets are registered\n");
            }
            write_stdout(&out)?;
        }
    }
    Ok(crate::exit::SUCCESS)
}

/// The value: typed at a prompt with echo off when stdin is a terminal, else one line of stdin.
fn read_value(name: &str) -> Result<String, CliError> {
    use std::io::IsTerminal;
    if std::io::stdin().is_terminal() {
        return rpassword::prompt_password(format!("value of secret {name} (input hidden): "))
            .map_err(|e| CliError::usage(format!("cannot read the value from the terminal: {e}; pipe it in instead: echo \"$VALUE\" | smith secrets add {name}")));
    }
    use std::io::Read;
    let mut text = String::new();
    std::io::stdin()
        .take(u64::try_from(smith_secrets::MAX_SECRET_BYTES).unwrap_or(u64::MAX) + 3)
        .read_to_string(&mut text)
        .map_err(|e| CliError::usage(format!("cannot read the value from stdin: {e}")))?;
    let line = text.strip_suffix('\n').unwrap_or(&text);
    let line = line.strip_suffix('\r').unwrap_or(line);
    if line.is_empty() {
        return Err(CliError::usage(format!(
            "nothing came on stdin for secret {name}; pipe the value in: echo \"$VALUE\" | smith secrets add {name}"
        )));
    }
    if line.contains('\n') {
        return Err(CliError::usage(format!(
            "stdin holds {} lines; a secret is one line (a multi-line key such as a PEM file cannot be registered whole — register the line that matters)",
            line.lines().count()
        )));
    }
    Ok(line.to_owned())
}
