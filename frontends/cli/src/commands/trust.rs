//! `smith trust [PATH] [--revoke]`: trust a project so its `.smith/config.kdl` applies and its
//! tools may run programs, or revoke that trust.

use std::path::PathBuf;

use clap::Args;
use smith_app::Paths;
use smith_app::paths::project_of;

use crate::command_error::{self, CliError};
use crate::commands::config::trust_store;
use crate::output::write_stdout;

pub(crate) const TRUST_AFTER_HELP: &str = "\
Until a project is trusted, Smith skips its .smith/config.kdl (and says so on stderr) and runs
none of its local executable behaviour unasked: each program a tool would run there is put to
you first (`smith eval`, which asks nothing, refuses it) unless --allow-process or
process.allow=true says otherwise. Trust records
live in $SMITH_HOME/trust.kdl (else $XDG_DATA_HOME/smith/trust.kdl). PATH defaults to the project of the current directory: the
nearest directory upward holding .smith/, else the current directory.";

/// Arguments of `smith trust`.
#[derive(Debug, Args)]
pub(crate) struct TrustArgs {
    /// The project directory (default: the current directory's project).
    #[arg(value_name = "PATH")]
    pub(crate) path: Option<PathBuf>,
    /// Stop trusting the project instead.
    #[arg(long)]
    pub(crate) revoke: bool,
}

/// `smith trust [PATH] [--revoke]`.
pub(crate) fn run(args: TrustArgs) -> Result<u8, CliError> {
    let cwd = std::env::current_dir()
        .map_err(|e| CliError::usage(format!("cannot tell the current directory: {e}")))?;
    let verb = if args.revoke {
        "revoke trust in"
    } else {
        "trust"
    };
    let dir = match args.path {
        // A record for a deleted project can still be revoked, by the path as given.
        Some(p) if args.revoke && !p.exists() => cwd.join(p),
        Some(p) => {
            let canonical = p.canonicalize().map_err(|e| {
                CliError::usage(format!(
                    "cannot {verb} `{}`: {e}; give an existing project directory",
                    p.display()
                ))
            })?;
            // A directory inside a project names that project, as the default does.
            if canonical.is_dir() {
                project_of(&canonical).unwrap_or(canonical)
            } else {
                canonical
            }
        }
        None => project_of(&cwd).unwrap_or(cwd.canonicalize().unwrap_or(cwd)),
    };
    if !args.revoke && !dir.is_dir() {
        return Err(CliError::usage(format!(
            "cannot trust `{}`: it is not a directory; give the project directory",
            dir.display()
        )));
    }
    let mut store = trust_store(&Paths::from_env())?;
    let io_err = |e: smith_config::ConfigError| command_error::config(&e);
    let text = if args.revoke {
        if store.revoke(&dir).map_err(io_err)? {
            format!(
                "{} is no longer trusted; its .smith/config.kdl is skipped\n",
                dir.display()
            )
        } else {
            format!("{} was not trusted; nothing changed\n", dir.display())
        }
    } else if store.trust(&dir).map_err(io_err)? {
        format!(
            "trusted {}; its .smith/config.kdl now applies and its tools may run programs\n",
            dir.display()
        )
    } else {
        format!("{} is already trusted\n", dir.display())
    };
    write_stdout(&smith_render_plain::printable(&text))
}
