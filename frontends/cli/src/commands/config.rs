//! `smith config show | check | set`: every setting with its resolved value and source, a
//! validation of every layer, and a comment-preserving write of one setting.

use std::path::PathBuf;

use clap::{Args, Subcommand};
use smith_app::paths::project_of;
use smith_app::{Paths, Settings};
use smith_config::{Resolved, TrustStore};

use crate::cli::Global;
use crate::command_error::{self, CliError};
use crate::exit;
use crate::output::{report_notices, shell_quote, write_stdout};

pub(crate) const CONFIG_AFTER_HELP: &str = "\
Precedence, lowest first: product defaults, built-in plugin defaults, plugin contributions,
user configuration ($SMITH_HOME/config.kdl, else $XDG_CONFIG_HOME/smith/config.kdl, else
~/.config/smith/config.kdl), trusted project configuration (.smith/config.kdl), environment
variables, command-line flags (-c KEY=VALUE and per-command flags). Every setting is listed in
`smith docs get reference/settings`.

Exit status:
  0    success
  2    invalid configuration (the message names the file and line, variable or flag), an
       unknown key (with the closest known ones), or a bad value for `set`";

/// Arguments of `smith config`.
#[derive(Debug, Args)]
pub(crate) struct ConfigArgs {
    #[command(subcommand)]
    pub(crate) command: ConfigCommand,
}

/// `smith config` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum ConfigCommand {
    /// Print every setting (or KEY) with its resolved value and source.
    Show {
        /// Only this setting.
        #[arg(value_name = "KEY")]
        key: Option<String>,
        /// One JSON record per setting: `key`, `value`, `source`, `level`.
        #[arg(long)]
        json: bool,
    },
    /// Validate every configuration layer and report the first problem.
    Check,
    /// Write one setting to the user configuration (or the project's), keeping comments.
    Set {
        /// The setting, e.g. `model`.
        #[arg(value_name = "KEY")]
        key: String,
        /// Its new value.
        #[arg(value_name = "VALUE")]
        value: String,
        /// Write to the project's `.smith/config.kdl` instead.
        #[arg(long)]
        project: bool,
    },
}

/// `smith config …`.
pub(crate) fn run(args: ConfigArgs, global: &Global) -> Result<u8, CliError> {
    match args.command {
        ConfigCommand::Show { key, json } => {
            let settings = settings(global)?;
            report_notices(&settings.notices);
            show(&settings.resolved, key.as_deref(), json)
        }
        ConfigCommand::Check => check(global),
        ConfigCommand::Set {
            key,
            value,
            project,
        } => set(global, &key, &value, project),
    }
}

/// "1 setting", "2 settings".
fn settings_count(n: usize) -> String {
    if n == 1 {
        "1 setting".to_owned()
    } else {
        format!("{n} settings")
    }
}

/// `config check`: every applied layer, the settings against the known plugins and providers,
/// and an untrusted project's file too — checked, and said not to apply.
fn check(global: &Global) -> Result<u8, CliError> {
    let settings = settings(global)?;
    let paths = Paths::from_env();
    let (registry, registry_notices) = smith_app::Registry::resolve(&paths, &settings)?;
    // The model catalog with the user's models.kdl: what every run reads too.
    smith_app::Models::load(&paths, &registry)?;
    // The permission rules' syntax (each `TOOL` or `TOOL(PATTERN)`) and the tools they name,
    // as a run checks them.
    smith_app::permissions::from_settings(&settings, true)?;
    smith_app::permissions::check_tools(
        &settings,
        &smith_app::permissions::known_tools(&registry),
    )?;
    // The hooks: each with one event, a command, a tool pattern and path globs that parse.
    smith_app::hooks::from_settings(&settings, std::time::Duration::MAX)?;
    smith_app::hooks::check_tools(
        &settings,
        &registry,
        &smith_app::permissions::known_tools(&registry),
    )?;
    // The product layer's settings (keys, themes, layout), against the enabled product
    // plugins' contributions and the terminal UI's built-in keys.
    let host = registry.load(&paths, smith_host::Manifest::is_product)?;
    let cwd = std::env::current_dir().unwrap_or_default();
    let (prompts, prompt_notices) = smith_app::product::prompts::discover(&paths, &cwd);
    let layer = smith_app::product::ProductLayer::compose(
        &host.loadout(),
        &smith_tui::keys::built_in_specs(),
        &settings.resolved,
        prompts,
    )
    .map_err(|e| CliError::usage(e.to_string()))?;
    for n in layer.notices.iter().chain(&prompt_notices) {
        exit::report(&format!("warning: {n}"));
    }
    let mut out = format!(
        "configuration is valid ({} resolved; the model catalog and models.kdl read, the keys, themes, permission rules and hooks checked)\n",
        settings_count(settings.resolved.iter().count())
    );
    for notice in settings.notices.iter().chain(&registry_notices) {
        if let smith_app::Notice::UntrustedProject { file, project, .. } = notice {
            let count = smith_app::settings::check_file(file).map_err(|e| {
                let e = CliError::from(e);
                CliError::new(
                    e.status,
                    format!(
                        "{} (the project is not trusted, so this file is not applied yet; fix it before `smith trust {}`)",
                        e.message,
                        shell_quote(&project.display().to_string())
                    ),
                )
            })?;
            out.push_str(&format!(
                "{} is valid ({}) but not applied: the project is not trusted; trust it with `smith trust {}`\n",
                file.display(),
                settings_count(count),
                shell_quote(&project.display().to_string())
            ));
        } else {
            report_notices(std::slice::from_ref(notice));
        }
    }
    write_stdout(&out)
}

/// A product setting (`keys.*`, `theme.*.*`, `tui.theme`, `tui.layout`) checked before it is
/// written: the product layer composed with the value as it would apply.
fn product_setting(global: &Global, paths: &Paths, key: &str, value: &str) -> Result<(), CliError> {
    let product = key.starts_with("keys.") || key.starts_with("theme.") || key == "tui.theme";
    if !product {
        return Ok(());
    }
    let mut invocation = global.invocation(std::env::current_dir().ok(), &[]);
    invocation.overrides.push(format!("{key}={value}"));
    let settings = Settings::load(paths, &invocation)?;
    let (registry, _) = smith_app::Registry::resolve(paths, &settings)?;
    let host = registry.load(paths, smith_host::Manifest::is_product)?;
    let cwd = std::env::current_dir().unwrap_or_default();
    smith_app::product::ProductLayer::compose(
        &host.loadout(),
        &smith_tui::keys::built_in_specs(),
        &settings.resolved,
        smith_app::product::prompts::discover(paths, &cwd).0,
    )
    .map(|_| ())
    .map_err(|e| CliError::usage(format!("{}: {}; nothing was written", e.key, e.reason)))
}

/// The settings of this invocation (the plugin registry is not needed to show them).
fn settings(global: &Global) -> Result<Settings, CliError> {
    let invocation = global.invocation(std::env::current_dir().ok(), &[]);
    Ok(Settings::load(&Paths::from_env(), &invocation)?)
}

fn show(resolved: &Resolved, only: Option<&str>, json: bool) -> Result<u8, CliError> {
    let mut keys = smith_app::catalog::setting_keys(resolved);
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
            let record = smith_app::catalog::setting_record(&key, resolved);
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

fn set(global: &Global, key: &str, value: &str, project: bool) -> Result<u8, CliError> {
    let paths = Paths::from_env();
    product_setting(global, &paths, key, value)?;
    let path: PathBuf = if project {
        let cwd = std::env::current_dir()
            .map_err(|e| CliError::usage(format!("cannot tell the current directory: {e}")))?;
        let root = project_of(&cwd).unwrap_or(cwd);
        let trusted = match root.canonicalize() {
            Ok(canonical) => trust_store(&paths)?.is_trusted(&canonical),
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
        paths
            .require_user_config()
            .map_err(|e| command_error::no_home(&e))?
            .to_owned()
    };
    let written =
        smith_config::set_in_file(&path, key, value).map_err(|e| command_error::config(&e))?;
    write_stdout(&smith_render_plain::printable(&format!(
        "{key} = {written}  # written to {}\n",
        path.display()
    )))
}

/// The trust records of `paths`.
pub(crate) fn trust_store(paths: &Paths) -> Result<TrustStore, CliError> {
    let file = paths.trust_file().map_err(|e| command_error::no_home(&e))?;
    TrustStore::load(&file).map_err(|e| CliError::usage(e.to_string()))
}
