//! The CLI's error type and its edge: every library error becomes an exit status (`exit.rs`)
//! and a message worded for this command line — the library's own message, with the flags and
//! commands that fix it added here (the library names values and settings, never flags).

use std::fmt;

use smith_app::{
    AuthError, CreateError, FindError, ModelsError, NoHome, PassedOver, RegistryError, RouteError,
    SelectError, SettingsError,
};
use smith_config::ConfigError;

use crate::exit::{DAMAGED, REFUSED, RUN_FAILED, USAGE};

/// A failure reported on stderr with its exit status. The message says what happened, why,
/// and what to do next.
#[derive(Debug)]
pub(crate) struct CliError {
    pub(crate) status: u8,
    pub(crate) message: String,
}

impl CliError {
    pub(crate) fn new(status: u8, message: impl Into<String>) -> Self {
        Self {
            status,
            message: message.into(),
        }
    }

    pub(crate) fn usage(message: impl Into<String>) -> Self {
        Self::new(USAGE, message)
    }
}

impl fmt::Display for CliError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

/// The status for a store error met while opening, reading or creating a session.
/// The working directory, where sessions start and tools run; exit 1 when it cannot be told
/// (it was removed, or is not readable).
pub(crate) fn current_dir() -> Result<std::path::PathBuf, CliError> {
    std::env::current_dir().map_err(|e| {
        CliError::new(
            crate::exit::RUN_FAILED,
            format!("cannot tell the working directory, where sessions start and tools run: {e}; run smith from an existing directory"),
        )
    })
}

pub(crate) fn store_status(e: &smith_store::Error) -> u8 {
    use smith_store::Error as E;
    match e {
        E::Locked { .. } => REFUSED,
        E::NotASession { .. }
        | E::UnsupportedVersion { .. }
        | E::Corrupt { .. }
        | E::Unprojectable { .. } => DAMAGED,
        E::Io { .. } | E::Uncertain { .. } | E::Encode { .. } => RUN_FAILED,
    }
}

/// A store error with its status, worded with the commands that inspect or work around it.
pub(crate) fn store(e: &smith_store::Error) -> CliError {
    CliError::new(store_status(e), store_message(e))
}

/// The words of a store error on this command line.
pub(crate) fn store_message(e: &smith_store::Error) -> String {
    use smith_store::Error as E;
    match e {
        E::Corrupt {
            path,
            offset,
            reason,
        } => format!(
            "`{}` is damaged at byte {offset}: {reason}. The file was not changed; `smith sessions verify` reports all damage, and `smith sessions fork --at ENTRY` continues from an intact entry",
            path.display()
        ),
        E::Locked { path } => format!(
            "session `{}` is open for writing by another Smith process, so this process may only read it; wait for that process to finish, or continue separately in a fork (`smith sessions fork`)",
            path.display()
        ),
        _ => e.to_string(),
    }
}

/// Configuration errors: usage errors (an unreadable or unwritable file: the run failed).
pub(crate) fn config(e: &ConfigError) -> CliError {
    match e {
        ConfigError::Unknown {
            source_text,
            key,
            hint,
        } => CliError::usage(format!(
            "{source_text}: unknown setting `{key}`{hint}; list the settings with `smith config show`"
        )),
        ConfigError::Io { .. } => CliError::new(RUN_FAILED, e.to_string()),
        _ => CliError::usage(e.to_string()),
    }
}

/// A place no home variable leads to.
pub(crate) fn no_home(e: &NoHome) -> CliError {
    use smith_app::paths::Place;
    CliError::usage(match e.place {
        Place::Sessions => {
            "cannot tell where to keep sessions: none of SMITH_HOME, XDG_DATA_HOME or HOME is set; set SMITH_HOME to a writable directory, or pass --no-session"
        }
        Place::TrustRecords => {
            "cannot tell where trust records live: none of SMITH_HOME, XDG_DATA_HOME or HOME is set; set SMITH_HOME"
        }
        Place::AuthFile => {
            "cannot tell where the auth file lives: none of SMITH_HOME, XDG_DATA_HOME or HOME is set; set SMITH_HOME"
        }
        Place::UserConfig => {
            "cannot tell where the user configuration lives: none of SMITH_HOME, XDG_CONFIG_HOME or HOME is set; set SMITH_HOME"
        }
        Place::History => {
            "cannot tell where working-tree snapshots live: none of SMITH_HOME, XDG_DATA_HOME or HOME is set; set SMITH_HOME"
        }
        Place::Plugins => {
            "cannot tell where installed plugins live: none of SMITH_HOME, XDG_DATA_HOME or HOME is set; set SMITH_HOME"
        }
    })
}

/// Refuse a `SMITH_HOME` that exists but is not a readable directory, naming the variable
/// (not the first file a command would have read inside it). A missing one is left to the
/// command, which creates it when it writes.
pub(crate) fn check_home(paths: &smith_app::Paths) -> Result<(), CliError> {
    let Some(home) = paths.smith_home() else {
        return Ok(());
    };
    let source = match std::fs::metadata(home) {
        Ok(m) if m.is_dir() => match std::fs::read_dir(home) {
            Ok(_) => return Ok(()),
            Err(e) => e,
        },
        Ok(_) => std::io::ErrorKind::NotADirectory.into(),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(()),
        Err(e) => e,
    };
    Err(CliError::usage(
        smith_app::settings::SettingsError::UnreadableDirectory {
            dir: home.to_owned(),
            home: true,
            source,
        }
        .to_string(),
    ))
}

/// The words of the auth file's errors, with the command that stores keys.
pub(crate) fn auth_message(e: &AuthError) -> String {
    match e {
        AuthError::Unreadable { .. } => format!("{e} with `smith auth set PROVIDER`"),
        AuthError::Malformed { provider, .. } => {
            format!("{e} with `smith auth set {provider} --account NAME`")
        }
        _ => e.to_string(),
    }
}

impl From<AuthError> for CliError {
    fn from(e: AuthError) -> Self {
        CliError::usage(auth_message(&e))
    }
}

impl From<SettingsError> for CliError {
    fn from(e: SettingsError) -> Self {
        match &e {
            SettingsError::Config(c) => config(c),
            SettingsError::NoHome(h) => no_home(h),
            SettingsError::Unreadable { .. }
            | SettingsError::UnreadableDirectory { .. }
            | SettingsError::NotUtf8 { .. } => CliError::usage(e.to_string()),
        }
    }
}

impl From<RegistryError> for CliError {
    fn from(e: RegistryError) -> Self {
        match &e {
            RegistryError::Defect(_) => CliError::new(RUN_FAILED, e.to_string()),
            RegistryError::Conflict(_) => {
                CliError::new(RUN_FAILED, format!("{e} (--disable-plugin ID)"))
            }
            RegistryError::Trust(c) => CliError::usage(c.to_string()),
            RegistryError::NoHome(h) => no_home(h),
            RegistryError::Installed(_) => CliError::new(
                RUN_FAILED,
                format!(
                    "{e} (smith plugins list shows them; smith plugins uninstall ID, --disable-plugin ID)"
                ),
            ),
            RegistryError::UnknownPlugin { .. }
            | RegistryError::UnknownProvider { .. }
            | RegistryError::PassEnv { .. }
            | RegistryError::SandboxPath { .. }
            | RegistryError::NetPattern { .. }
            | RegistryError::PermissionRule { .. } => CliError::usage(e.to_string()),
            RegistryError::Hook { .. } => CliError::usage(format!(
                "{e} (smith docs get hooks shows how hooks are written)"
            )),
            RegistryError::McpServer { .. } => CliError::usage(format!(
                "{e} (smith docs get mcp-client shows how servers are declared)"
            )),
        }
    }
}

impl From<ModelsError> for CliError {
    fn from(e: ModelsError) -> Self {
        match &e {
            ModelsError::Invalid(inner) => CliError::usage(format!(
                "{inner} (models.kdl holds `model`, `source`, `alias` and `group` nodes; `smith docs get models` has the schema)"
            )),
            ModelsError::Defect(_) => CliError::new(RUN_FAILED, e.to_string()),
            ModelsError::SpoofedSource { .. } | ModelsError::Unreadable { .. } => {
                CliError::usage(e.to_string())
            }
        }
    }
}

impl From<SelectError> for CliError {
    fn from(e: SelectError) -> Self {
        match e {
            SelectError::None => CliError::usage(
                "no model selected: eval needs one to answer the prompt; pass --model, e.g. `--model scripted/demo` for the offline scripted provider, or set a default with `smith config set model scripted/demo`",
            ),
            SelectError::Invalid { .. } => CliError::usage(e.to_string()),
        }
    }
}

/// How the CLI words a model passed over: the library's reason, with the flag or command
/// that changes it.
fn passed_over(reason: &PassedOver) -> String {
    match reason {
        PassedOver::ScriptedDisabled { model } => format!(
            "{model}: the scripted provider's plugin `scripted` is disabled (by --disable-plugin or plugins.scripted.enabled); enable it to run scripted models"
        ),
        PassedOver::UnknownProvider { .. } => format!("{reason}. Try `--model scripted/demo`"),
        PassedOver::NotInCatalog {
            model,
            plugin,
            models_file,
            suggestions,
        } => format!(
            "{model}: not in the model catalog (no bundled record, none in models.kdl, and plugin {plugin} declares nothing for models it does not list), so nothing is known of its limits, tools or prices and Smith sends it nothing; {}`smith models` lists the known models, or declare it in {}: model \"{model}\" {{ tools #true }}",
            smith_app::route::did_you_mean(suggestions),
            models_file
                .as_ref()
                .map_or("models.kdl".to_owned(), |p| p.display().to_string())
        ),
        PassedOver::Unsupported(e) => {
            format!("{e} (--thinking LEVEL; `smith models` lists each model's levels)")
        }
        PassedOver::Renewal(why) => why.clone(),
    }
}

/// The scripted provider's resolution errors, with the flags that select a script.
fn resolve(e: &smith_ai::ResolveError) -> String {
    use smith_ai::ResolveError as R;
    match e {
        R::UnknownModel { model, known } => format!(
            "unknown model `{model}`; known models: {known}. To play your own script, pass `--script FILE`"
        ),
        R::ScriptNeedsScripted { model } => format!(
            "`--script` applies only to the scripted provider, but the model is `{model}`; use `--model scripted/NAME --script FILE`"
        ),
        R::UnknownProvider { .. } => format!("{e}. Try `--model scripted/demo`"),
        R::Script(script) if script.line == 0 && script.field == "file" => {
            format!("{e} (the path given to --script)")
        }
        R::Script(_) => e.to_string(),
    }
}

impl From<RouteError> for CliError {
    fn from(e: RouteError) -> Self {
        CliError::usage(match &e {
            RouteError::NoCandidate { selection, reasons } => match reasons.as_slice() {
                [one] => passed_over(one),
                _ => format!(
                    "no model of `{selection}` can be used: {}",
                    reasons
                        .iter()
                        .map(passed_over)
                        .collect::<Vec<_>>()
                        .join("; ")
                ),
            },
            RouteError::ScriptNeedsScripted(r) | RouteError::Script(r) => resolve(r),
            RouteError::Auth(a) => auth_message(a),
            RouteError::Resolve(_)
            | RouteError::ControlInKey { .. }
            | RouteError::Bind(_)
            | RouteError::NotAProvider(_) => e.to_string(),
        })
    }
}

impl From<smith_app::Error> for CliError {
    fn from(e: smith_app::Error) -> Self {
        use smith_app::Error as E;
        match e {
            E::NoHome(h) => no_home(&h),
            E::Settings(e) => e.into(),
            E::Registry(e) => e.into(),
            E::Models(e) => e.into(),
            E::Select(e) => e.into(),
            E::Route(e) => e.into(),
            E::Auth(e) => e.into(),
            E::Find(e) => find(
                &e,
                "session id",
                "a run creates one: smith eval -m scripted/demo \"Hello\"",
            ),
            E::Create(e) => create(&e),
            E::Store(e) => store(&e),
            E::Secrets(e) => secrets(&e),
        }
    }
}

/// The secret store or a secret that cannot be used, with the command that fixes it.
pub(crate) fn secrets(e: &smith_app::secrets::SecretsError) -> CliError {
    use smith_app::secrets::SecretsError as S;
    match e {
        S::Setting { .. } | S::Refused(_) | S::Control { .. } | S::OpenToOthers { .. } => {
            CliError::usage(e.to_string())
        }
        S::Malformed { path, .. } | S::Unreadable { path, .. } => CliError::usage(format!(
            "{e}; fix it in an editor, or move it away to start a new store (its secrets are then no longer redacted): mv {} {}.bak",
            path.display(),
            path.display()
        )),
        S::Auth(a) => CliError::usage(a.to_string()),
        S::Write { .. } => CliError::new(RUN_FAILED, e.to_string()),
    }
}

/// A session id that names no single session: `label` says where the id came from
/// (`--session`, `session id`), `create_hint` what to do when nothing matches.
pub(crate) fn find(e: &FindError, label: &str, create_hint: &str) -> CliError {
    CliError::usage(match e {
        FindError::NotAnId { .. } => format!("{label} {e} (`smith sessions list` shows them)"),
        FindError::NoMatch { .. } => {
            format!("{label} {e} (`smith sessions list` shows them) — {create_hint}")
        }
        FindError::Unlistable { .. } => format!("{label} {e}; {create_hint}"),
        FindError::Ambiguous { .. } | FindError::Elsewhere { .. } => format!("{label} {e}"),
    })
}

/// A session or temporary store that could not be created.
pub(crate) fn create(e: &CreateError) -> CliError {
    match e {
        CreateError::Directory { .. } => CliError::new(
            RUN_FAILED,
            format!("{e} — set SMITH_HOME to one, or pass --no-session"),
        ),
        CreateError::Store(s) => store(s),
        CreateError::Exists { .. } => CliError::usage(e.to_string()),
        CreateError::Temporary { .. } | CreateError::Remove { .. } => {
            CliError::new(RUN_FAILED, e.to_string())
        }
    }
}
