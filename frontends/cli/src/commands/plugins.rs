//! `smith plugins list`: every known plugin — id, version, world, grants, state — and which
//! requested grants this directory does not give; `smith plugins install` and `uninstall`
//! for plugins a user builds. Also how this command line words a
//! refusal of process execution ([`process_refusal`]), for every command that runs tools.

use clap::{Args, Subcommand};
use smith_app::ProcessRefusal;
use smith_host::ProcessPolicy;

use crate::cli::Global;
use crate::command_error::CliError;
use crate::output::{report_notices, write_stdout};

pub(crate) const PLUGINS_AFTER_HELP: &str = "\
State is `active` (loaded; its tools are available) or `disabled` (by --disable-plugin or the
setting plugins.ID.enabled, whose source is shown). `install PATH` copies a plugin project's
plugin.kdl and built component (cargo build --target wasm32-wasip2 --release) into Smith's
plugins directory and records its SHA-256: it loads, sandboxed under its manifest's grants,
in every later smith process while the component keeps that digest. Grants are what the plugin's manifest
requests; `process.exec` is given only in a trusted project (`smith trust`) or with
--allow-process / process.allow=true.

Exit status:
  0    success (also when stdout is closed early)
  1    a plugin could not be loaded
  2    bad arguments or configuration";

/// Arguments of `smith plugins`.
#[derive(Debug, Args)]
pub(crate) struct PluginsArgs {
    #[command(subcommand)]
    pub(crate) command: PluginsCommand,
}

/// `smith plugins` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum PluginsCommand {
    /// One line per plugin, in load order.
    List {
        /// One JSON record per plugin: `id`, `version`, `world`, `grants`, `state`, `tools`,
        /// `origin`, `disabled_by` when disabled, `refused_grants` (grant and why) for
        /// requested grants this directory does not give, such as `process.exec` with
        /// process.allow false, and `asked_grants` for those given only per use, on your
        /// answer, such as `process.exec` in an untrusted project, and `settings`: the
        /// `plugin.ID.NAME` settings it declares (`key`, `doc`, `needed_by` tools, and `value`
        /// and `source` when set).
        #[arg(long)]
        json: bool,
    },
    /// Install a plugin you built: PATH is its project (with plugin.kdl at its root) or its
    /// plugin.kdl. Checked by loading it next to the enabled plugins before anything is
    /// written; replaces an installed plugin of the same id.
    Install {
        /// The plugin project (or its plugin.kdl).
        path: std::path::PathBuf,
        /// The component to install; default: the one .wasm under the project's
        /// target/wasm32-wasip2/release/.
        #[arg(long, value_name = "FILE")]
        component: Option<std::path::PathBuf>,
    },
    /// Remove an installed plugin (bundled ones are disabled instead: --disable-plugin ID).
    Uninstall {
        /// The plugin's id.
        id: String,
    },
}

/// A refusal of process execution as the model and the user read it here: why, and the
/// commands and flags that change it.
pub(crate) fn process_refusal(refusal: &ProcessRefusal) -> String {
    match refusal {
        ProcessRefusal::SwitchedOff { source } => format!(
            "running programs is switched off: process.allow is false ({source}); remove that setting to allow it in trusted projects, or pass --allow-process"
        ),
        ProcessRefusal::Untrusted { project } => {
            let shown = project.display().to_string();
            format!(
                "running programs is not allowed here: the project {shown} is not trusted. Trust it with `smith trust {shown}`, or allow programs for one command with `--allow-process` (or the setting process.allow=true)"
            )
        }
    }
}

/// `smith plugins …`.
pub(crate) fn run(args: PluginsArgs, global: &Global) -> Result<u8, CliError> {
    let json = match args.command {
        PluginsCommand::List { json } => json,
        PluginsCommand::Install { path, component } => {
            return install(global, &path, component.as_deref());
        }
        PluginsCommand::Uninstall { id } => return uninstall(global, &id),
    };
    let app = global.app(&[])?;
    report_notices(&app.settings.notices);
    // Loading proves the active ones load; a failure is reported with its plugin.
    app.load_plugins(|_| true)?;
    // Whether `process.exec` would be given to a plugin run from here.
    let cwd = std::env::current_dir().ok();
    let process = match &cwd {
        Some(cwd) => app.policy(cwd, &process_refusal)?.process,
        None => ProcessPolicy::Refused("the current directory is not accessible".to_owned()),
    };
    let mut out = String::new();
    for p in app.registry.plugins() {
        let m = &p.manifest;
        let grants = m.grants_described();
        let state = if p.disabled_by.is_some() {
            "disabled"
        } else {
            "active"
        };
        if json {
            let mut record = smith_app::catalog::plugin_record(&app.registry, p, &process);
            // Each declared setting's value here and where it came from (none: unset).
            if let Some(serde_json::Value::Array(settings)) = record.get_mut("settings") {
                for setting in settings {
                    let key = setting["key"].as_str().unwrap_or_default().to_owned();
                    if let Some(v) = app.settings.resolved.get(&key) {
                        setting["value"] = serde_json::json!(v.value.to_string());
                        setting["source"] = serde_json::json!(v.source.to_string());
                    }
                }
            }
            out.push_str(&record.to_string());
            out.push('\n');
        } else {
            let grants = if grants.is_empty() {
                "no grants".to_owned()
            } else {
                grants.join(", ")
            };
            let state = match &p.disabled_by {
                Some(by) => format!("disabled by {by}"),
                None => state.to_owned(),
            };
            let contributes = if let Some(p) = &m.provider {
                format!("provider: {}", p.id)
            } else if m.is_handler() || m.is_policy() {
                format!("handlers: {}", m.handlers.join(", "))
            } else if m.is_product() && m.tools.is_empty() {
                "product layer: commands, key bindings, themes".to_owned()
            } else if m.is_product() {
                format!("product layer and tools: {}", m.tools.join(", "))
            } else {
                format!("tools: {}", m.tools.join(", "))
            };
            out.push_str(&format!(
                "{} {}  {}  [{grants}]  {state}  {contributes}\n",
                m.id,
                m.version,
                m.built_world()
            ));
            if let Some(provider) = &m.provider {
                out.push_str(&provider_line(&app, provider));
            }
            for d in &m.settings {
                let key = format!("plugin.{}.{}", m.id, d.name);
                let value = match app.settings.resolved.get(&key) {
                    Some(v) => format!("= {} (from {})", v.value, v.source),
                    None => "unset".to_owned(),
                };
                let needed: Vec<&str> = m
                    .tool_needs
                    .iter()
                    .filter(|(_, s)| **s == d.name)
                    .map(|(t, _)| t.as_str())
                    .collect();
                let needed = if needed.is_empty() {
                    String::new()
                } else {
                    format!("; {} offered only when set", needed.join(", "))
                };
                out.push_str(&format!("  setting {key} {value}: {}{needed}\n", d.doc));
            }
            if let (true, ProcessPolicy::Refused(why)) = (
                m.grants.contains(&smith_host::grants::Grant::ProcessExec),
                &process,
            ) {
                out.push_str(&format!(
                    "  process.exec is not given here, so its tools ({}) are not offered to the model: {why}\n",
                    m.tools.join(", ")
                ));
            }
            if m.configured_hooks {
                let hooks =
                    smith_app::hooks::from_settings(&app.settings, std::time::Duration::MAX)
                        .map(|h| h.len())
                        .unwrap_or_default();
                out.push_str(&format!(
                    "  runs the hooks you configure ({hooks} now; `smith docs get hooks`), unasked and inside the sandbox: they are your programs, not the model's\n"
                ));
            } else if let (true, ProcessPolicy::AskFirst(_)) = (
                m.grants.contains(&smith_host::grants::Grant::ProcessExec),
                &process,
            ) {
                out.push_str(
                    "  process.exec is asked first here: this project is not trusted, so each program runs only when you allow it (the permissions guide)\n",
                );
            }
        }
    }
    // Installed plugins that are not loaded: listed too, so a client of `--json` sees them.
    for r in app.registry.refused() {
        if json {
            let record = serde_json::json!({
                "id": r.id,
                "state": "refused",
                "origin": format!("installed:{}", r.dir.display()),
                "why": r.why,
            });
            out.push_str(&record.to_string());
            out.push('\n');
        } else {
            out.push_str(&format!("{}  refused: {}\n", r.id, r.why));
        }
    }
    write_stdout(&smith_render_plain::printable(&out))
}

/// A provider plugin's second line: the base URL it uses here (and what set it) and where its
/// key is read from.
fn provider_line(app: &smith_app::App, provider: &smith_host::manifest::ProviderDecl) -> String {
    let id = &provider.id;
    let key = format!("provider.{id}.base-url");
    let url = match app.settings.resolved.get(&key) {
        Some(v) => format!("base URL {} (from {})", v.value, v.source),
        None if !provider.base_url.starts_with("http") => {
            format!("no network: its transport is `{}`", provider.base_url)
        }
        None => format!(
            "base URL {} (the default; {key} overrides it)",
            provider.base_url
        ),
    };
    let credential = match &provider.api_key {
        Some(k) => format!(
            "key from {} or the auth file (`smith auth set {id}`), {}",
            smith_app::route::key_variable(&app.settings, id, &k.env),
            if k.required { "required" } else { "optional" }
        ),
        None => "no key".to_owned(),
    };
    format!("  {url}; {credential}\n")
}

/// `smith plugins install PATH [--component FILE]`.
fn install(
    global: &Global,
    path: &std::path::Path,
    component: Option<&std::path::Path>,
) -> Result<u8, CliError> {
    let app = global.app(&[])?;
    report_notices(&app.settings.notices);
    // The check: the new plugin loads next to the enabled tool and product plugins (its tools
    // and commands may not clash with theirs).
    let check = |manifest: &smith_host::Manifest, text: &str, bytes: &[u8]| {
        let mut sources = app.registry.sources(|m| {
            m.id != manifest.id && (m.world == smith_host::manifest::TOOL_WORLD || m.is_product())
        });
        sources.push(smith_host::PluginSource {
            origin: &manifest.id,
            manifest: text,
            component: bytes,
            parsed: Some(manifest),
            declared: None,
        });
        let cache = smith_host::CompileCache::new(
            app.paths.compile_cache().map(std::path::Path::to_path_buf),
        );
        smith_host::Host::load(&sources, &cache, smith_host::Limits::default())
            .map(|_| ())
            .map_err(|e| format!("it does not load: {e}"))
    };
    let report =
        smith_app::installed::install(&app.paths, path, component, check).map_err(|e| match e {
            smith_app::installed::InstallError::NoHome(h) => crate::command_error::no_home(&h),
            smith_app::installed::InstallError::Project(p) => {
                CliError::usage(format!("{p} (--component FILE names it)"))
            }
            other => CliError::usage(other.to_string()),
        })?;
    let m = &report.manifest;
    let grants = m.grants_described();
    let mut out = format!(
        "{} plugin {} {} ({}) into {}\n  grants: {}\n",
        if report.replaced {
            "replaced"
        } else {
            "installed"
        },
        m.id,
        m.version,
        m.built_world(),
        report.dir.display(),
        if grants.is_empty() {
            "none".to_owned()
        } else {
            grants.join(", ")
        },
    );
    if !m.tools.is_empty() {
        out.push_str(&format!("  tools: {}\n", m.tools.join(", ")));
    }
    out.push_str(&format!(
        "  component SHA-256 {} (trusted as installed: a changed component is not loaded until installed again)\n  it loads in every new smith process; `smith plugins list` shows it, `smith plugins uninstall {}` removes it\n",
        report.sha256, m.id
    ));
    // What the product layer now says: a clash with another plugin's command or key.
    if report.manifest.is_product()
        && let Ok(app) = global.app(&[])
        && let Ok(cwd) = std::env::current_dir()
        && let Ok((layer, _)) = app.product(&smith_tui::keys::built_in_specs(), &cwd)
    {
        for n in layer
            .notices
            .iter()
            .filter(|n| n.contains(&format!("plugin {}:", m.id)))
        {
            crate::exit::report(&format!("warning: {n}"));
        }
    }
    write_stdout(&smith_render_plain::printable(&out))
}

/// `smith plugins uninstall ID`.
fn uninstall(global: &Global, id: &str) -> Result<u8, CliError> {
    let app = global.app(&[])?;
    let removed = smith_app::installed::uninstall(&app.paths, id).map_err(|e| match e {
        smith_app::installed::InstallError::NoHome(h) => crate::command_error::no_home(&h),
        other => CliError::new(crate::exit::RUN_FAILED, other.to_string()),
    })?;
    if !removed {
        let bundled = app
            .registry
            .plugins()
            .iter()
            .any(|p| p.manifest.id == id && !p.is_installed());
        return Err(CliError::usage(if bundled {
            format!(
                "`{id}` is a bundled plugin: it cannot be uninstalled; disable it with --disable-plugin {id} or the setting plugins.{id}.enabled false"
            )
        } else {
            format!(
                "no plugin `{id}` is installed; `smith plugins list` shows the installed ones (origin installed:…)"
            )
        }));
    }
    write_stdout(&format!("uninstalled plugin {id}\n"))
}
