//! Loading configuration for a command, and `smith config` / `smith trust`.

use std::io::Write;
use std::path::{Path, PathBuf};

use serde_json::json;
use smith_config::{
    ConfigError, Level, Origin, Resolved, Resolver, SCHEMA, TrustStore, parse_file,
};

use crate::cli::{ConfigArgs, ConfigCommand, Global, TrustArgs};
use crate::exit::{self, CliError};
use crate::paths;

fn config_err(e: ConfigError) -> CliError {
    CliError::usage(e.to_string())
}

/// Resolved configuration and what loading it has to tell the user.
pub(crate) struct Loaded {
    pub(crate) resolved: Resolved,
    /// Notices for stderr (e.g. skipped untrusted project settings).
    pub(crate) notices: Vec<String>,
}

/// Resolve all seven levels for this invocation: defaults, (plugin levels: none yet), the user
/// file, the trusted project file, the environment, then `-c` overrides and `flags`
/// (`(flag, key, value)` of per-command flags such as `--model`).
pub(crate) fn load(global: &Global, flags: &[(&str, &str, &str)]) -> Result<Loaded, CliError> {
    let overrides = &global.overrides;
    let mut resolver = Resolver::with_defaults();
    let mut notices = Vec::new();
    if let Some(user) = paths::user_config() {
        add_file(&mut resolver, Level::User, &user)?;
    }
    if let Ok(cwd) = std::env::current_dir()
        && let Some(project) = paths::project_of(&cwd)
    {
        let file = project.join(".smith").join("config.kdl");
        if file.is_file() {
            let trust = TrustStore::load(&paths::trust_file()?).map_err(config_err)?;
            if trust.is_trusted(&project) {
                add_file(&mut resolver, Level::Project, &file)?;
            } else {
                notices.push(format!(
                    "project settings in {} were skipped: the project is not trusted; trust it with `smith trust {}`",
                    file.display(),
                    shell_quote(&project.display().to_string())
                ));
            }
        }
    }
    resolver
        .add_env(|var| std::env::var(var).ok())
        .map_err(config_err)?;
    for text in overrides {
        resolver.add_override(text).map_err(config_err)?;
    }
    let disabled: Vec<(String, String)> = global
        .disable_plugin
        .iter()
        .map(|id| {
            (
                format!("--disable-plugin {id}"),
                format!("plugins.{id}.enabled"),
            )
        })
        .collect();
    let mut all: Vec<(&str, &str, &str)> = disabled
        .iter()
        .map(|(flag, key)| (flag.as_str(), key.as_str(), "false"))
        .collect();
    if global.allow_process {
        all.push(("--allow-process", "process.allow", "true"));
    }
    all.extend_from_slice(flags);
    for (flag, key, value) in all {
        let origin = Origin::Flag {
            flag: flag.to_owned(),
        };
        resolver
            .add_text(Level::CommandLine, origin, key, value)
            .map_err(config_err)?;
    }
    Ok(Loaded {
        resolved: resolver.resolve(),
        notices,
    })
}

/// `text` quoted for a POSIX shell when it needs to be.
fn shell_quote(text: &str) -> String {
    if text
        .chars()
        .all(|c| c.is_ascii_alphanumeric() || "/._-+:@".contains(c))
    {
        text.to_owned()
    } else {
        format!("'{}'", text.replace('\'', "'\\''"))
    }
}

/// Check every `-c` override without resolving anything else: a command that does not read
/// configuration still refuses a malformed or unknown override instead of ignoring it.
pub(crate) fn check_overrides(overrides: &[String]) -> Result<(), CliError> {
    let mut resolver = Resolver::default();
    for text in overrides {
        resolver.add_override(text).map_err(config_err)?;
    }
    Ok(())
}

fn add_file(resolver: &mut Resolver, level: Level, path: &Path) -> Result<(), CliError> {
    let text = match std::fs::read(path) {
        Ok(bytes) => String::from_utf8(bytes).map_err(|e| {
            CliError::usage(format!(
                "the configuration file {} is not UTF-8 text (invalid byte at offset {}); fix or remove it",
                path.display(),
                e.utf8_error().valid_up_to()
            ))
        })?,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => {
            return Err(CliError::usage(format!(
                "cannot read the configuration file {}: {e}; fix its permissions or remove it",
                path.display()
            )));
        }
    };
    let label = path.display().to_string();
    let entries = parse_file(&text, &label).map_err(config_err)?;
    resolver
        .add_file(level, &label, &entries)
        .map_err(config_err)
}

pub(crate) fn report_notices(loaded: &Loaded) {
    for n in &loaded.notices {
        exit::report(&format!("note: {n}"));
    }
}

pub(crate) fn write_stdout(text: &str) -> Result<u8, CliError> {
    let mut out = std::io::stdout().lock();
    match out.write_all(text.as_bytes()).and_then(|()| out.flush()) {
        Ok(()) => Ok(exit::SUCCESS),
        Err(e) if e.kind() == std::io::ErrorKind::BrokenPipe => Ok(exit::SUCCESS),
        Err(e) => Err(CliError::new(
            exit::RUN_FAILED,
            format!("cannot write to stdout: {e}"),
        )),
    }
}

pub(crate) fn run_config(args: ConfigArgs, global: &Global) -> Result<u8, CliError> {
    match args.command {
        ConfigCommand::Show { key, json } => {
            let loaded = load(global, &[])?;
            report_notices(&loaded);
            show(&loaded.resolved, key.as_deref(), json)
        }
        ConfigCommand::Check => {
            let loaded = load(global, &[])?;
            report_notices(&loaded);
            let count = loaded.resolved.iter().count();
            write_stdout(&format!(
                "configuration is valid ({count} settings resolved)\n"
            ))
        }
        ConfigCommand::Set {
            key,
            value,
            project,
        } => set(&key, &value, project),
    }
}

fn show(resolved: &Resolved, only: Option<&str>, json: bool) -> Result<u8, CliError> {
    let mut keys: Vec<String> = SCHEMA
        .iter()
        .filter(|s| !s.key.contains('*'))
        .map(|s| s.key.to_owned())
        .collect();
    keys.extend(resolved.iter().map(|(k, _)| k.clone()));
    keys.sort();
    keys.dedup();
    if let Some(only) = only {
        if !keys.iter().any(|k| k == only) && smith_config::find_spec(only).is_none() {
            let close = smith_config::closest_keys(only);
            return Err(CliError::usage(format!(
                "unknown setting `{only}`{}; list the settings with `smith config show`",
                if close.is_empty() {
                    String::new()
                } else {
                    format!(" (did you mean {}?)", close.join(", "))
                }
            )));
        }
        keys = vec![only.to_owned()];
    }
    let mut out = String::new();
    for key in keys {
        let v = resolved.get(&key);
        if json {
            let record = match v {
                Some(v) => json!({
                    "key": key,
                    "value": v.value,
                    "source": v.source.to_string(),
                    "level": v.source.level,
                    "origin": v.source.origin,
                    "overridden": v.overridden.iter().map(ToString::to_string).collect::<Vec<_>>(),
                }),
                None => json!({"key": key, "value": null, "source": null, "level": null}),
            };
            out.push_str(&record.to_string());
            out.push('\n');
        } else {
            match v {
                Some(v) => {
                    // One setting per line, whatever its key, value or source holds.
                    let line = format!("{key} = {}  # {}", v.value, v.source);
                    out.push_str(&line.replace('\n', "\\n"));
                    if !v.overridden.is_empty() {
                        let list: Vec<String> =
                            v.overridden.iter().map(ToString::to_string).collect();
                        out.push_str(&format!(" (overrides {})", list.join(", ")));
                    }
                    out.push('\n');
                }
                None => out.push_str(&format!("{key} is not set\n")),
            }
        }
    }
    write_stdout(&smith_render_plain::printable(&out))
}

fn set(key: &str, value: &str, project: bool) -> Result<u8, CliError> {
    let path: PathBuf = if project {
        let cwd = std::env::current_dir()
            .map_err(|e| CliError::usage(format!("cannot tell the current directory: {e}")))?;
        let root = paths::project_of(&cwd).unwrap_or(cwd);
        let trusted = match root.canonicalize() {
            Ok(canonical) => TrustStore::load(&paths::trust_file()?)
                .map_err(config_err)?
                .is_trusted(&canonical),
            Err(_) => false,
        };
        if !trusted {
            exit::report(&format!(
                "note: {} is not trusted, so its project settings do not apply until `smith trust {}`",
                root.display(),
                shell_quote(&root.display().to_string())
            ));
        }
        root.join(".smith").join("config.kdl")
    } else {
        paths::user_config().ok_or_else(|| {
            CliError::usage("cannot tell where the user configuration lives: none of SMITH_HOME, XDG_CONFIG_HOME or HOME is set; set SMITH_HOME")
        })?
    };
    let written = smith_config::set_in_file(&path, key, value).map_err(|e| match e {
        ConfigError::Io { .. } => CliError::new(exit::RUN_FAILED, e.to_string()),
        other => config_err(other),
    })?;
    write_stdout(&smith_render_plain::printable(&format!(
        "{key} = {written}  # written to {}\n",
        path.display()
    )))
}

pub(crate) fn run_trust(args: TrustArgs) -> Result<u8, CliError> {
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
                paths::project_of(&canonical).unwrap_or(canonical)
            } else {
                canonical
            }
        }
        None => paths::project_of(&cwd).unwrap_or(cwd.canonicalize().unwrap_or(cwd)),
    };
    if !args.revoke && !dir.is_dir() {
        return Err(CliError::usage(format!(
            "cannot trust `{}`: it is not a directory; give the project directory",
            dir.display()
        )));
    }
    let mut store = TrustStore::load(&paths::trust_file()?).map_err(config_err)?;
    let io_err = |e: ConfigError| match e {
        ConfigError::Io { .. } => CliError::new(exit::RUN_FAILED, e.to_string()),
        other => config_err(other),
    };
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
