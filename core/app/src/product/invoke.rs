//! Running commands: a command line (as typed after `/`) or named JSON arguments parsed
//! against the command's declaration, and what the invocation comes to — a verb built from its
//! arguments, a picker, a key action, or the plugin's intents; and the values the pickers
//! offer.

use smith_host::Loadout;
use smith_host::product::types::{
    Argument, ArgumentKind, ArgumentValue, CommandAction, Intent, KeyAction, Picker, Verb, VerbKind,
};

use super::{Command, ProductLayer};

/// Why a command cannot run as written.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum CommandError {
    /// No command has this name.
    #[error("no command `/{name}`{}", suggest(.near))]
    Unknown {
        /// The name given.
        name: String,
        /// Registered names close to it.
        near: Vec<String>,
    },
    /// A required argument is missing.
    #[error("/{command} needs {argument} ({summary}); usage: {usage}")]
    Missing {
        /// The command.
        command: String,
        /// The argument's name.
        argument: String,
        /// What it is.
        summary: String,
        /// The command's usage line.
        usage: String,
        /// Its kind (a picker can supply a session, model or plugin).
        kind: ArgumentKind,
    },
    /// An argument's value does not fit its kind, or the command takes no such argument.
    #[error("/{command}: {reason}; usage: {usage}")]
    Invalid {
        /// The command.
        command: String,
        /// What is wrong.
        reason: String,
        /// The command's usage line.
        usage: String,
    },
}

fn suggest(near: &[String]) -> String {
    if near.is_empty() {
        "; the palette (`/`) lists the commands".to_owned()
    } else {
        format!(" (did you mean /{}?)", near.join(", /"))
    }
}

/// A command with its arguments parsed: what to carry out.
#[derive(Clone, Debug)]
pub struct Invocation {
    /// The command.
    pub command: Command,
    /// Its arguments by name, parsed as their kinds say.
    pub arguments: Vec<(String, ArgumentValue)>,
}

/// Why a command's invocation came to nothing.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum OutcomeError {
    /// A plugin's command whose plugin is not loaded.
    #[error("/{command} needs plugin {plugin}, which is not loaded")]
    NotLoaded {
        /// The command's name.
        command: String,
        /// The plugin that gives it.
        plugin: String,
    },
    /// The plugin's `run` failed; `why` is its message (it names what was wrong).
    #[error("{why}")]
    Run {
        /// The command's name.
        command: String,
        /// The plugin's message.
        why: String,
    },
}

/// What running a command comes to.
#[derive(Clone, Debug)]
pub enum Outcome {
    /// Carry out a runtime verb.
    Verb(Verb),
    /// Open a picker.
    Picker(Picker),
    /// Trigger a key-table action.
    Key(KeyAction),
    /// Carry out the plugin's intents, in order.
    Intents(Vec<Intent>),
    /// Submit this prompt (a prompt command's text with its arguments put in), on `model`
    /// (PROVIDER/MODEL, alias or group) for this turn when the command names one.
    Prompt {
        /// The prompt.
        text: String,
        /// The model its front matter names, if any.
        model: Option<String>,
    },
}

/// The thinking levels an argument of kind `thinking` takes.
pub const THINKING: &[&str] = &["off", "minimal", "low", "medium", "high", "max"];

/// What the pickers offer for the argument kinds they complete, filled from Smith's own
/// queries: the catalog's models of the installed providers (`PROVIDER/MODEL`) then the
/// aliases and groups of `models.kdl`, the known plugins' ids, and the thinking levels.
#[derive(Clone, Debug, Default)]
pub struct ArgumentValues {
    /// Model ids and names.
    pub models: Vec<String>,
    /// Plugin ids.
    pub plugins: Vec<String>,
    /// One line about a value, by value: a model's context, capabilities and prices (from
    /// the catalog), what an alias or group is, whether a plugin is enabled.
    pub details: std::collections::HashMap<String, String>,
}

impl ArgumentValues {
    /// Read them from `app` (the catalog is read; a catalog that does not load offers no
    /// models).
    pub fn of(app: &crate::App) -> Self {
        let mut details = std::collections::HashMap::new();
        let keyless = missing_keys(app);
        let models = app
            .models()
            .map(|m| {
                let mut out: Vec<String> = Vec::new();
                for r in crate::catalog::model_records(&m, app) {
                    let id = r.info.model.to_string();
                    // A provider's "any other model" record names no model to pick.
                    if r.default || id.ends_with("/*") {
                        continue;
                    }
                    let line = model_line(r.info);
                    let provider = id.split_once('/').map_or("", |(p, _)| p);
                    let line = match keyless.get(provider) {
                        Some(mark) => format!("{mark} · {line}"),
                        None => line,
                    };
                    details.insert(id.clone(), line);
                    out.push(id);
                }
                // The scripted provider's built-in scripts, offline models to pick.
                if app.registry.provider_ids().iter().any(|p| p == "scripted") {
                    for n in smith_ai::scripted::BUILTIN_NAMES {
                        let id = format!("scripted/{n}");
                        details.insert(id.clone(), "offline script · no key · free".to_owned());
                        out.push(id);
                    }
                }
                for name in m.routes.names() {
                    details.insert(
                        name.to_owned(),
                        "an alias or group of models.kdl".to_owned(),
                    );
                    out.push(name.to_owned());
                }
                out
            })
            .unwrap_or_default();
        let plugins = app
            .registry
            .plugins()
            .iter()
            .map(|p| {
                details.insert(
                    p.manifest.id.clone(),
                    format!(
                        "{} · {}",
                        app.registry.state_words(p),
                        p.manifest.built_world()
                    ),
                );
                p.manifest.id.clone()
            })
            .collect();
        Self {
            models,
            plugins,
            details,
        }
    }

    /// The values of `kind` (empty for kinds no picker completes).
    pub fn of_kind(&self, kind: ArgumentKind) -> Vec<&str> {
        match kind {
            ArgumentKind::Model => self.models.iter().map(String::as_str).collect(),
            ArgumentKind::Plugin => self.plugins.iter().map(String::as_str).collect(),
            ArgumentKind::Thinking => THINKING.to_vec(),
            _ => Vec::new(),
        }
    }
}

/// The providers whose models cannot be used for want of a key — it is required, and neither
/// its environment variable nor the auth file holds a usable one — each with what is wrong
/// and how to give one (an auth file that cannot be used says why, as `smith auth status`).
fn missing_keys(app: &crate::App) -> std::collections::HashMap<String, String> {
    let Ok(path) = app.paths.auth_file() else {
        return std::collections::HashMap::new();
    };
    app.registry
        .api_keys()
        .into_iter()
        .filter(|(_, key)| key.required)
        .filter_map(|(id, key)| {
            let variable = crate::route::key_variable(&app.settings, &id, &key.env);
            match crate::auth::key_source(&path, &id, &variable) {
                Ok(None) => {
                    let mark = format!("no key: set {variable} or run `smith auth set {id}`");
                    Some((id, mark))
                }
                Err(e) => Some((id, format!("no usable key: {e}"))),
                Ok(Some(_)) => None,
            }
        })
        .collect()
}

/// A catalog model in one line: context, prices in US dollars per million tokens (input /
/// output), capabilities, thinking levels; `?` where the catalog does not know.
fn model_line(m: &smith::ModelInfo) -> String {
    let mut parts = Vec::new();
    parts.push(match m.context {
        Some(n) if n >= 1_000_000 => format!("{}M context", n / 1_000_000),
        Some(n) => format!("{}k context", n / 1000),
        None => "? context".to_owned(),
    });
    let dollars = |x: Option<f64>| x.map_or("?".to_owned(), |x| format!("${x}"));
    parts.push(match m.price {
        Some(p) => format!(
            "{} in / {} out per Mtok",
            dollars(p.input),
            dollars(p.output)
        ),
        None => "price ?".to_owned(),
    });
    if m.tools == Some(true) {
        parts.push("tools".to_owned());
    }
    if m.image_input == Some(true) {
        parts.push("images".to_owned());
    }
    if let Some(levels) = &m.thinking
        && levels.len() > 1
    {
        parts.push(format!(
            "thinking {}",
            levels
                .iter()
                .map(|l| l.as_str())
                .collect::<Vec<_>>()
                .join("/")
        ));
    }
    parts.join(" · ")
}

fn parse_value(kind: ArgumentKind, text: &str) -> Result<ArgumentValue, String> {
    match kind {
        ArgumentKind::Integer => text
            .parse::<i64>()
            .map(ArgumentValue::Integer)
            .map_err(|_| format!("`{text}` is not a whole number")),
        ArgumentKind::Flag => Err(format!("`{text}`: a flag takes no value")),
        ArgumentKind::Thinking if !THINKING.contains(&text) => Err(format!(
            "`{text}` is not a thinking level: {}",
            THINKING.join(", ")
        )),
        _ => Ok(ArgumentValue::Text(text.to_owned())),
    }
}

impl ProductLayer {
    /// Parse a command line as typed after `/`: `NAME [ARGS…]`. Arguments fill the command's
    /// non-flag arguments in order, separated by whitespace, the last text argument taking the
    /// rest of the line; `--NAME` sets a flag (for a command that declares none, `--x` is text
    /// like any other word: a prompt command's `/deploy --prod`).
    ///
    /// # Errors
    /// [`CommandError`]: an unknown name, a missing or ill-typed argument.
    pub fn parse_line(&self, line: &str) -> Result<Invocation, CommandError> {
        let line = line.trim().trim_start_matches('/');
        let (name, mut rest) = line
            .split_once(char::is_whitespace)
            .map_or((line, ""), |(n, r)| (n, r.trim_start()));
        let command = self.lookup(name)?;
        let mut given: Vec<(String, ArgumentValue)> = Vec::new();
        let positional: Vec<&Argument> = command
            .arguments
            .iter()
            .filter(|a| !matches!(a.kind, ArgumentKind::Flag))
            .collect();
        let has_flags = command
            .arguments
            .iter()
            .any(|a| matches!(a.kind, ArgumentKind::Flag));
        let mut next = 0;
        while !rest.is_empty() {
            let (word, tail) = rest
                .split_once(char::is_whitespace)
                .map_or((rest, ""), |(w, t)| (w, t.trim_start()));
            if let Some(flag) = word.strip_prefix("--").filter(|_| has_flags) {
                let Some(a) = command
                    .arguments
                    .iter()
                    .find(|a| a.name == flag && matches!(a.kind, ArgumentKind::Flag))
                else {
                    return Err(invalid(command, format!("no flag `--{flag}`")));
                };
                given.push((a.name.clone(), ArgumentValue::Flag(true)));
                rest = tail;
                continue;
            }
            let Some(a) = positional.get(next) else {
                return Err(invalid(
                    command,
                    format!("`{word}` is one argument too many"),
                ));
            };
            next += 1;
            let last_text = next == positional.len() && matches!(a.kind, ArgumentKind::Text);
            let text = if last_text { rest.trim_end() } else { word };
            let value = parse_value(a.kind, text).map_err(|r| invalid(command, r))?;
            given.push((a.name.clone(), value));
            rest = if last_text { "" } else { tail };
        }
        self.complete(command, given)
    }

    /// Check named arguments (as `commands.run` gives them, JSON) against `name`'s.
    ///
    /// # Errors
    /// [`CommandError`].
    pub fn parse_json(
        &self,
        name: &str,
        arguments: &serde_json::Map<String, serde_json::Value>,
    ) -> Result<Invocation, CommandError> {
        let command = self.lookup(name)?;
        let mut given = Vec::new();
        for (key, value) in arguments {
            let Some(a) = command.arguments.iter().find(|a| &a.name == key) else {
                return Err(invalid(command, format!("no argument `{key}`")));
            };
            let parsed = match (a.kind, value) {
                (ArgumentKind::Flag, serde_json::Value::Bool(b)) => ArgumentValue::Flag(*b),
                (ArgumentKind::Integer, serde_json::Value::Number(n)) => n
                    .as_i64()
                    .map(ArgumentValue::Integer)
                    .ok_or_else(|| invalid(command, format!("`{key}` is not a whole number")))?,
                (ArgumentKind::Flag | ArgumentKind::Integer, _) => {
                    return Err(invalid(
                        command,
                        format!(
                            "`{key}` must be a {}",
                            if matches!(a.kind, ArgumentKind::Flag) {
                                "boolean"
                            } else {
                                "whole number"
                            }
                        ),
                    ));
                }
                (kind, serde_json::Value::String(s)) => {
                    parse_value(kind, s).map_err(|r| invalid(command, format!("{key}: {r}")))?
                }
                _ => return Err(invalid(command, format!("`{key}` must be a string"))),
            };
            given.push((a.name.clone(), parsed));
        }
        self.complete(command, given)
    }

    fn lookup(&self, name: &str) -> Result<&Command, CommandError> {
        self.command(name).ok_or_else(|| CommandError::Unknown {
            name: name.to_owned(),
            near: smith_config::closest(name, self.commands.iter().map(|c| c.name.as_str()))
                .into_iter()
                .map(str::to_owned)
                .collect(),
        })
    }

    fn complete(
        &self,
        command: &Command,
        given: Vec<(String, ArgumentValue)>,
    ) -> Result<Invocation, CommandError> {
        if let Some(a) = command
            .arguments
            .iter()
            .find(|a| a.required && !given.iter().any(|(n, _)| *n == a.name))
        {
            return Err(CommandError::Missing {
                command: command.name.clone(),
                argument: a.name.clone(),
                summary: a.summary.clone(),
                usage: command.usage(),
                kind: a.kind,
            });
        }
        Ok(Invocation {
            command: command.clone(),
            arguments: given,
        })
    }
}

fn invalid(command: &Command, reason: String) -> CommandError {
    CommandError::Invalid {
        command: command.name.clone(),
        reason,
        usage: command.usage(),
    }
}

impl Invocation {
    fn text(&self, name_at: usize) -> Option<String> {
        let a = self.command.arguments.get(name_at)?;
        self.arguments.iter().find_map(|(n, v)| match v {
            ArgumentValue::Text(t) if *n == a.name => Some(t.clone()),
            _ => None,
        })
    }

    fn flag(&self, name_at: usize) -> bool {
        let Some(a) = self.command.arguments.get(name_at) else {
            return false;
        };
        self.arguments
            .iter()
            .any(|(n, v)| *n == a.name && matches!(v, ArgumentValue::Flag(true)))
    }

    /// What this invocation comes to with no product plugin loaded: as [`Self::outcome`], and
    /// a plugin's `handler` command fails (a prompt command needs no plugin).
    ///
    /// # Errors
    /// [`OutcomeError::NotLoaded`] for a `handler` command: no plugin to run it.
    pub fn outcome_without_plugins(&self) -> Result<Outcome, OutcomeError> {
        self.outcome_with(None)
    }

    /// What this invocation comes to: a verb built from its arguments, a picker, a key
    /// action, or the plugin's intents (its `run` is called through `loadout`, its `runtime`
    /// questions answered by `query`: the frontend's session, when one is open).
    ///
    /// # Errors
    /// [`OutcomeError::Run`]: the plugin's `run` failed.
    pub fn outcome(
        &self,
        loadout: &Loadout,
        query: Option<smith_host::SharedQuery>,
    ) -> Result<Outcome, OutcomeError> {
        self.outcome_with(Some((loadout, query)))
    }

    fn outcome_with(
        &self,
        loadout: Option<(&Loadout, Option<smith_host::SharedQuery>)>,
    ) -> Result<Outcome, OutcomeError> {
        let t = |i| self.text(i);
        if let Some(prompt) = &self.command.prompt {
            return Ok(Outcome::Prompt {
                text: prompt.expand(&t(0).unwrap_or_default()),
                model: prompt.model.clone(),
            });
        }
        Ok(match self.command.action {
            CommandAction::Verb(kind) => Outcome::Verb(match kind {
                VerbKind::NewSession => Verb::NewSession,
                VerbKind::Attach => Verb::Attach(t(0).unwrap_or_default()),
                VerbKind::Fork => Verb::Fork(t(0)),
                VerbKind::Select => Verb::Select(t(0).unwrap_or_default()),
                VerbKind::Compact => Verb::Compact(t(0)),
                VerbKind::Undo => Verb::Undo(self.flag(0)),
                VerbKind::Redo => Verb::Redo,
                VerbKind::Restore => Verb::Restore(t(0).unwrap_or_default()),
                VerbKind::Replay => Verb::Replay(t(0)),
                VerbKind::SetModel => Verb::SetModel((t(0).unwrap_or_default(), t(1))),
                VerbKind::PluginEnable => Verb::PluginEnable(t(0).unwrap_or_default()),
                VerbKind::PluginDisable => Verb::PluginDisable(t(0).unwrap_or_default()),
                VerbKind::Diff => Verb::Diff(t(0)),
                VerbKind::Export => Verb::Export(t(0)),
            }),
            CommandAction::OpenPicker(p) => Outcome::Picker(p),
            CommandAction::Key(a) => Outcome::Key(a),
            CommandAction::Handler => {
                let plugin = self.command.plugin.as_deref().unwrap_or_default();
                let Some((loadout, query)) = loadout else {
                    return Err(OutcomeError::NotLoaded {
                        command: self.command.name.clone(),
                        plugin: plugin.to_owned(),
                    });
                };
                Outcome::Intents(
                    loadout
                        .run_command(plugin, &self.command.name, &self.arguments, query)
                        .map_err(|why| OutcomeError::Run {
                            command: self.command.name.clone(),
                            why,
                        })?,
                )
            }
        })
    }
}
