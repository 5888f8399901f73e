//! The product layer, composed: the commands, key bindings, themes and layout the enabled
//! product plugins contribute (`smith:plugin/product`), Smith's own commands that enter or
//! recover the runtime, and the user's bindings and themes from configuration (`keys.*`,
//! `theme.*.*`, `tui.theme`, `tui.layout`). Every frontend reads the same [`ProductLayer`]:
//! the terminal UI's palette and key table, the JSON-RPC `commands.list` and `commands.run`.
//!
//! Rules (spec: Plugin system and configuration; the plugins guide, "Product plugins"):
//! the first holder of a command name or a key keeps it — Smith's own commands and the
//! frontend's built-in keys first, then plugins in load order — and each later claim is
//! reported, naming the winner. The user's configuration binds over any plugin, never over a
//! built-in key. A bad plugin contribution is reported and skipped; a bad configuration value
//! is an error naming its source and key.

pub mod keys;
pub mod style;

use smith_host::product::types::{
    Argument, ArgumentKind, ArgumentValue, BindingTarget, CommandAction, Intent, KeyAction, Layout,
    Picker, Verb, VerbKind,
};

pub use keys::{KeyName, KeySpec};
/// The pinned plugin generation handler commands run through.
pub use smith_host::Loadout;
/// The product layer's WIT types (`smith:plugin/product`), for frontends.
pub use smith_host::product::types as wit;
pub use style::{Colour, StyleSpec, THEME_KEYS, ThemeSpec};

/// The layer as the bundled plugins alone compose it, with default settings: what the
/// generated references (commands, keys, themes) and the terminal UI's tests show.
///
/// # Errors
/// The bundled product plugin does not load: a defect of this build.
pub fn bundled(built_in: &[(KeySpec, KeyAction)]) -> Result<ProductLayer, String> {
    let sources: Vec<smith_host::PluginSource<'_>> = smith_plugins::BUNDLED
        .iter()
        .filter(|b| b.manifest.contains("product-plugin@"))
        .map(|b| smith_host::PluginSource {
            origin: b.origin,
            manifest: b.manifest,
            component: b.component,
            parsed: None,
        })
        .collect();
    let host = smith_host::Host::load(
        &sources,
        &smith_host::CompileCache::new(None),
        smith_host::Limits::default(),
    )
    .map_err(|e| e.to_string())?;
    let resolved = smith_config::Resolver::with_defaults().resolve();
    ProductLayer::compose(&host.loadout(), built_in, &resolved).map_err(|e| e.to_string())
}

/// A registered command.
#[derive(Clone, Debug)]
pub struct Command {
    /// Its name, typed after `/`.
    pub name: String,
    /// What it does, one line.
    pub summary: String,
    /// Its arguments, in order.
    pub arguments: Vec<Argument>,
    /// What it does.
    pub action: CommandAction,
    /// The plugin that contributes it; `None`: Smith's own (it enters or recovers the
    /// runtime, and stays when every product plugin is disabled).
    pub plugin: Option<String>,
}

impl Command {
    /// The command as the palette and the help show it: `/model MODEL [THINKING]`.
    pub fn usage(&self) -> String {
        let mut out = format!("/{}", self.name);
        for a in &self.arguments {
            let name = a.name.to_uppercase();
            let shown = if matches!(a.kind, ArgumentKind::Flag) {
                format!("--{}", a.name)
            } else {
                name
            };
            if a.required {
                out.push_str(&format!(" {shown}"));
            } else {
                out.push_str(&format!(" [{shown}]"));
            }
        }
        out
    }
}

/// Where a binding, theme or command came from.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Origin {
    /// Built into the frontend or Smith.
    BuiltIn,
    /// A plugin, by id.
    Plugin(String),
    /// The configuration: its source (`FILE:LINE`, a variable, a flag).
    Config(String),
}

impl std::fmt::Display for Origin {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::BuiltIn => f.write_str("built in"),
            Self::Plugin(id) => write!(f, "plugin {id}"),
            Self::Config(source) => write!(f, "configuration {source}"),
        }
    }
}

/// A key binding in force.
#[derive(Clone, Debug)]
pub struct Binding {
    /// The key.
    pub key: KeySpec,
    /// What it triggers.
    pub target: BindingTarget,
    /// Who bound it.
    pub origin: Origin,
}

/// The composed product layer.
#[derive(Clone, Debug)]
pub struct ProductLayer {
    /// Every command, Smith's own first, then each plugin's in load order.
    pub commands: Vec<Command>,
    /// Every binding in force, built-in keys first.
    pub bindings: Vec<Binding>,
    /// Every theme by name, plugins' then the configuration's.
    pub themes: Vec<ThemeSpec>,
    /// The theme `tui.theme` chose (`None`: no theme of that name and the setting left at its
    /// default — the frontend's no-colour styles apply).
    pub theme: Option<String>,
    /// The layout: `tui.layout`, else the first plugin's choice, else the status line at the
    /// bottom.
    pub layout: Layout,
    /// What composing had to report: conflicts (naming the winner) and skipped
    /// contributions.
    pub notices: Vec<String>,
}

/// A configuration value of the product layer that cannot be used.
#[derive(Debug, thiserror::Error)]
#[error("{source_text}: setting `{key}` = {value:?}: {reason}")]
pub struct ConfigError {
    /// The dotted key (`keys.Ctrl+Y`, `theme.mine.status`, `tui.theme`).
    pub key: String,
    /// The value as given.
    pub value: String,
    /// Where it came from (`FILE:LINE`, a variable, a flag).
    pub source_text: String,
    /// What is wrong and what to write instead.
    pub reason: String,
}

/// Smith's own commands: those that enter or recover the runtime. They stay when every
/// product plugin is disabled.
pub fn built_in_commands() -> Vec<Command> {
    let arg = |name: &str, summary: &str, kind, required| Argument {
        name: name.to_owned(),
        summary: summary.to_owned(),
        kind,
        required,
    };
    let own = |name: &str, summary: &str, arguments, action| Command {
        name: name.to_owned(),
        summary: summary.to_owned(),
        arguments,
        action,
        plugin: None,
    };
    vec![
        own(
            "new",
            "Start a new session in this directory",
            vec![],
            CommandAction::Verb(VerbKind::NewSession),
        ),
        own(
            "attach",
            "Open another session (a picker when none is named)",
            vec![arg(
                "session",
                "the session id or a unique prefix",
                ArgumentKind::Session,
                true,
            )],
            CommandAction::Verb(VerbKind::Attach),
        ),
        own(
            "plugins",
            "Pick a plugin to enable or disable for this process",
            vec![],
            CommandAction::OpenPicker(Picker::Plugins),
        ),
        own(
            "plugin-enable",
            "Enable a plugin for this process",
            vec![arg("plugin", "the plugin id", ArgumentKind::Plugin, true)],
            CommandAction::Verb(VerbKind::PluginEnable),
        ),
        own(
            "plugin-disable",
            "Disable a plugin for this process",
            vec![arg("plugin", "the plugin id", ArgumentKind::Plugin, true)],
            CommandAction::Verb(VerbKind::PluginDisable),
        ),
        own(
            "quit",
            "Leave (running work is aborted, recorded)",
            vec![],
            CommandAction::Key(KeyAction::Quit),
        ),
    ]
}

/// The arguments verb `kind` takes, in order: their kind and whether required.
pub fn verb_signature(kind: VerbKind) -> &'static [(ArgumentKind, bool)] {
    use ArgumentKind as K;
    match kind {
        VerbKind::NewSession | VerbKind::Redo => &[],
        VerbKind::Attach => &[(K::Session, true)],
        VerbKind::Fork => &[(K::Entry, false)],
        VerbKind::Select => &[(K::Entry, true)],
        VerbKind::Compact | VerbKind::Replay => &[(K::Text, false)],
        VerbKind::Undo => &[(K::Flag, false)],
        VerbKind::Restore => &[(K::Text, true)],
        VerbKind::SetModel => &[(K::Model, true), (K::Thinking, false)],
        VerbKind::PluginEnable | VerbKind::PluginDisable => &[(K::Plugin, true)],
    }
}

/// The key-table actions by their written names (`steer`, `select-entry`…).
pub const KEY_ACTIONS: &[(&str, KeyAction)] = &[
    ("submit", KeyAction::Submit),
    ("steer", KeyAction::Steer),
    ("newline", KeyAction::Newline),
    ("withdraw", KeyAction::Withdraw),
    ("escape", KeyAction::Escape),
    ("complete", KeyAction::Complete),
    ("external-editor", KeyAction::ExternalEditor),
    ("toggle-thinking", KeyAction::ToggleThinking),
    ("toggle-follow", KeyAction::ToggleFollow),
    ("help", KeyAction::Help),
    ("search", KeyAction::Search),
    ("select-entry", KeyAction::SelectEntry),
    ("page-up", KeyAction::PageUp),
    ("page-down", KeyAction::PageDown),
    ("line-up", KeyAction::LineUp),
    ("line-down", KeyAction::LineDown),
    ("top", KeyAction::Top),
    ("bottom", KeyAction::Bottom),
    ("interrupt", KeyAction::Interrupt),
    ("quit", KeyAction::Quit),
    ("palette", KeyAction::Palette),
];

/// The written name of `action`.
pub fn action_name(action: KeyAction) -> &'static str {
    KEY_ACTIONS
        .iter()
        .find(|(_, a)| *a == action)
        .map_or("?", |(n, _)| n)
}

/// Whether `name` is a command or argument name: lowercase ASCII letters, digits and `-`,
/// starting with a letter, at most 32 bytes.
fn valid_name(name: &str) -> bool {
    name.len() <= 32
        && name.starts_with(|c: char| c.is_ascii_lowercase())
        && name
            .chars()
            .all(|c| c.is_ascii_lowercase() || c.is_ascii_digit() || c == '-')
}

/// Check a plugin command's shape: its name, its arguments' names, and for a verb its
/// arguments against the verb's.
fn check_command(c: &smith_host::product::types::Command) -> Result<(), String> {
    if !valid_name(&c.name) {
        return Err(format!(
            "command name `{}` is not lowercase letters, digits and `-` starting with a letter",
            c.name.escape_debug()
        ));
    }
    if let Some(a) = c.arguments.iter().find(|a| !valid_name(&a.name)) {
        return Err(format!(
            "command `{}`: argument name `{}` is not lowercase letters, digits and `-`",
            c.name,
            a.name.escape_debug()
        ));
    }
    let verb_args = match c.action {
        CommandAction::Verb(kind) => Some(verb_signature(kind)),
        CommandAction::OpenPicker(_) | CommandAction::Key(_) => Some(&[][..]),
        CommandAction::Handler => None,
    };
    if let Some(sig) = verb_args {
        let fits = sig.len() == c.arguments.len()
            && sig
                .iter()
                .zip(&c.arguments)
                .all(|((kind, required), a)| a.kind == *kind && (a.required || !required));
        if !fits {
            return Err(format!(
                "command `{}`: its arguments do not fit what it does ({:?} takes {})",
                c.name,
                c.action,
                if sig.is_empty() {
                    "no arguments".to_owned()
                } else {
                    sig.iter()
                        .map(|(k, r)| format!("{k:?}{}", if *r { "" } else { " (optional)" }))
                        .collect::<Vec<_>>()
                        .join(", ")
                }
            ));
        }
    }
    Ok(())
}

impl ProductLayer {
    /// Compose the layer from `loadout`'s product plugins (in load order), the frontend's
    /// built-in keys (`built_in`: each key and the action it triggers) and `resolved`
    /// configuration.
    ///
    /// # Errors
    /// [`ConfigError`] for a `keys.*`, `theme.*.*`, `tui.theme` or `tui.layout` value that
    /// cannot be used.
    pub fn compose(
        loadout: &Loadout,
        built_in: &[(KeySpec, KeyAction)],
        resolved: &smith_config::Resolved,
    ) -> Result<Self, ConfigError> {
        let mut layer = Self::built_in_only(built_in);
        let mut layout = None;
        let mut plugin_bindings = Vec::new();
        for (id, contributions) in loadout.products() {
            for c in &contributions.commands {
                if let Err(why) = check_command(c) {
                    layer
                        .notices
                        .push(format!("plugin {id}: {why}; the command is not registered"));
                    continue;
                }
                if let Some(holder) = layer.commands.iter().find(|h| h.name == c.name) {
                    layer.notices.push(format!(
                        "plugin {id}: command `/{}` is not registered: {} has it (the first holder keeps a name; disable one of the two to choose)",
                        c.name,
                        holder
                            .plugin
                            .as_ref()
                            .map_or_else(|| "Smith".to_owned(), |p| format!("plugin {p}"))
                    ));
                    continue;
                }
                layer.commands.push(Command {
                    name: c.name.clone(),
                    summary: c.summary.clone(),
                    arguments: c.arguments.clone(),
                    action: c.action,
                    plugin: Some(id.to_owned()),
                });
            }
            for b in &contributions.bindings {
                match KeySpec::parse(&b.key) {
                    Ok(key) => plugin_bindings.push((id.to_owned(), key, b.target.clone())),
                    Err(e) => layer
                        .notices
                        .push(format!("plugin {id}: {e}; the binding is skipped")),
                }
            }
            for t in &contributions.themes {
                match plugin_theme(id, t) {
                    Ok(theme) => {
                        if let Some(holder) = layer.themes.iter().find(|h| h.name == theme.name) {
                            layer.notices.push(format!(
                                "plugin {id}: theme `{}` is not registered: {} has it",
                                theme.name, holder.source
                            ));
                        } else {
                            layer.themes.push(theme);
                        }
                    }
                    Err(why) => layer
                        .notices
                        .push(format!("plugin {id}: {why}; the theme is skipped")),
                }
            }
            if layout.is_none() {
                layout = contributions.layout;
            }
        }
        // The user's bindings first: they win over any plugin's.
        let user = user_bindings(resolved, &layer)?;
        for (key, target, source) in user {
            layer
                .bindings
                .retain(|b| b.key != key || b.origin == Origin::BuiltIn);
            if let Some(target) = target {
                layer.bindings.push(Binding {
                    key,
                    target,
                    origin: Origin::Config(source),
                });
            } else {
                // `none`: unbound; a plugin's binding of the key is dropped below too.
                layer.bindings.push(Binding {
                    key,
                    target: BindingTarget::Command(String::new()),
                    origin: Origin::Config(source),
                });
            }
        }
        for (id, key, target) in plugin_bindings {
            if let BindingTarget::Command(name) = &target
                && !layer.commands.iter().any(|c| &c.name == name)
            {
                layer.notices.push(format!(
                    "plugin {id}: {key} is bound to `/{name}`, which no enabled plugin offers; the binding is skipped"
                ));
                continue;
            }
            if let Some(holder) = layer.bindings.iter().find(|b| b.key == key) {
                if !matches!(holder.origin, Origin::Config(_)) {
                    layer.notices.push(format!(
                        "plugin {id}: {key} is not bound to {}: {} binds it to {} (the first binding of a key wins; rebind it with setting keys.{key})",
                        target_words(&target),
                        holder.origin,
                        target_words(&holder.target),
                    ));
                }
                continue;
            }
            layer.bindings.push(Binding {
                key,
                target,
                origin: Origin::Plugin(id),
            });
        }
        // `none` placeholders go.
        layer
            .bindings
            .retain(|b| !matches!(&b.target, BindingTarget::Command(n) if n.is_empty()));
        user_themes(resolved, &mut layer.themes)?;
        layer.theme = chosen_theme(resolved, &layer.themes)?;
        layer.layout = match resolved.get("tui.layout") {
            Some(v) if v.value.to_string().trim_matches('"') == "status-top" => Layout::StatusTop,
            Some(v) if v.value.to_string().trim_matches('"') == "status-bottom" => {
                Layout::StatusBottom
            }
            _ => layout.unwrap_or(Layout::StatusBottom),
        };
        Ok(layer)
    }

    /// The layer with no product plugin and no settings: Smith's own commands and the
    /// `built_in` keys only (what remains when the product plugins cannot load).
    pub fn built_in_only(built_in: &[(KeySpec, KeyAction)]) -> Self {
        Self {
            commands: built_in_commands(),
            bindings: built_in
                .iter()
                .map(|(key, action)| Binding {
                    key: *key,
                    target: BindingTarget::Key(*action),
                    origin: Origin::BuiltIn,
                })
                .collect(),
            themes: Vec::new(),
            theme: None,
            layout: Layout::StatusBottom,
            notices: Vec::new(),
        }
    }

    /// The command named `name`.
    pub fn command(&self, name: &str) -> Option<&Command> {
        self.commands.iter().find(|c| c.name == name)
    }

    /// The theme named `name`.
    pub fn theme_named(&self, name: &str) -> Option<&ThemeSpec> {
        self.themes.iter().find(|t| t.name == name)
    }

    /// The keys bound to `target`, in binding order.
    pub fn keys_for(&self, target: &BindingTarget) -> Vec<KeySpec> {
        self.bindings
            .iter()
            .filter(|b| same_target(&b.target, target))
            .map(|b| b.key)
            .collect()
    }

    /// What `key` triggers, if it is bound.
    pub fn binding(&self, key: &KeySpec) -> Option<&BindingTarget> {
        self.bindings
            .iter()
            .find(|b| b.key == *key)
            .map(|b| &b.target)
    }
}

fn same_target(a: &BindingTarget, b: &BindingTarget) -> bool {
    match (a, b) {
        (BindingTarget::Key(x), BindingTarget::Key(y)) => x == y,
        (BindingTarget::Command(x), BindingTarget::Command(y)) => x == y,
        _ => false,
    }
}

/// A binding's target as words: `help` or `/compact`.
pub fn target_words(target: &BindingTarget) -> String {
    match target {
        BindingTarget::Key(a) => action_name(*a).to_owned(),
        BindingTarget::Command(c) => format!("/{c}"),
    }
}

fn plugin_theme(id: &str, t: &smith_host::product::types::Theme) -> Result<ThemeSpec, String> {
    if !valid_name(&t.name) {
        return Err(format!(
            "theme name `{}` is not lowercase letters, digits and `-`",
            t.name.escape_debug()
        ));
    }
    let mut styles = std::collections::BTreeMap::new();
    for (key, s) in &t.styles {
        if !THEME_KEYS.iter().any(|(k, _)| k == key) {
            return Err(format!(
                "theme `{}`: `{}` is not a theme key (the theme reference lists them)",
                t.name,
                key.escape_debug()
            ));
        }
        let spec = style::from_record(s).map_err(|e| format!("theme `{}`: {key}: {e}", t.name))?;
        styles.insert(key.clone(), spec);
    }
    Ok(ThemeSpec {
        name: t.name.clone(),
        summary: t.summary.clone(),
        styles,
        source: format!("plugin {id}"),
    })
}

/// The value of a resolved setting as text (strings unquoted).
fn text_of(v: &smith_config::ResolvedValue) -> String {
    match &v.value {
        smith_config::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

type UserBinding = (KeySpec, Option<BindingTarget>, String);

/// `keys.KEY "ACTION"` / `"/COMMAND"` / `"none"` settings.
fn user_bindings(
    resolved: &smith_config::Resolved,
    layer: &ProductLayer,
) -> Result<Vec<UserBinding>, ConfigError> {
    let mut out = Vec::new();
    for (key, v) in resolved.iter() {
        let Some(written) = key.strip_prefix("keys.") else {
            continue;
        };
        let value = text_of(v);
        let bad = |reason: String| ConfigError {
            key: key.clone(),
            value: value.clone(),
            source_text: v.source.to_string(),
            reason,
        };
        let spec = KeySpec::parse(written).map_err(|e| bad(e.to_string()))?;
        if layer
            .bindings
            .iter()
            .any(|b| b.key == spec && b.origin == Origin::BuiltIn)
        {
            return Err(bad(format!(
                "{spec} is built into the terminal UI (typing, submit, scroll, abort and quit keys cannot be rebound); choose another key"
            )));
        }
        let target = if value == "none" {
            None
        } else if let Some(name) = value.strip_prefix('/') {
            if layer.command(name).is_none() {
                let names: Vec<&str> = layer.commands.iter().map(|c| c.name.as_str()).collect();
                let near = smith_config::closest(name, names.iter().copied());
                return Err(bad(format!(
                    "no command `/{name}` is registered{}",
                    if near.is_empty() {
                        String::new()
                    } else {
                        format!(" (did you mean /{}?)", near.join(", /"))
                    }
                )));
            }
            Some(BindingTarget::Command(name.to_owned()))
        } else if let Some((_, a)) = KEY_ACTIONS.iter().find(|(n, _)| *n == value) {
            Some(BindingTarget::Key(*a))
        } else {
            return Err(bad(format!(
                "not an action: write one of {}, `/COMMAND`, or `none` to unbind",
                KEY_ACTIONS
                    .iter()
                    .map(|(n, _)| *n)
                    .collect::<Vec<_>>()
                    .join(", ")
            )));
        };
        out.push((spec, target, v.source.to_string()));
    }
    Ok(out)
}

/// `theme.NAME.KEY "STYLE"` and `theme.NAME.base "THEME"` settings: a theme of the user's, or
/// changes to a plugin's.
fn user_themes(
    resolved: &smith_config::Resolved,
    themes: &mut Vec<ThemeSpec>,
) -> Result<(), ConfigError> {
    let entries: Vec<(&String, &smith_config::ResolvedValue)> = resolved
        .iter()
        .filter(|(k, _)| k.starts_with("theme."))
        .collect();
    // Bases first, so a theme's own keys go over its base's.
    let mut ordered: Vec<_> = entries
        .iter()
        .filter(|(k, _)| k.ends_with(".base"))
        .collect();
    ordered.extend(entries.iter().filter(|(k, _)| !k.ends_with(".base")));
    for (key, v) in ordered {
        let value = text_of(v);
        let bad = |reason: String| ConfigError {
            key: (*key).clone(),
            value: value.clone(),
            source_text: v.source.to_string(),
            reason,
        };
        let mut parts = key.splitn(3, '.');
        let (_, Some(name), Some(field)) = (parts.next(), parts.next(), parts.next()) else {
            return Err(bad(
                "write `theme.NAME.KEY \"STYLE\"` (e.g. theme.mine.status \"black on yellow\")"
                    .into(),
            ));
        };
        if !valid_name(name) {
            return Err(bad(format!(
                "theme name `{name}` is not lowercase letters, digits and `-`"
            )));
        }
        let index = match themes.iter().position(|t| t.name == name) {
            Some(i) => i,
            None => {
                themes.push(ThemeSpec {
                    name: name.to_owned(),
                    summary: format!("the user's theme ({})", v.source),
                    styles: Default::default(),
                    source: format!("configuration {}", v.source),
                });
                themes.len() - 1
            }
        };
        if field == "base" {
            let base = themes
                .iter()
                .find(|t| t.name == value)
                .ok_or_else(|| {
                    bad(format!(
                        "no theme `{value}` to start from; known: {}",
                        themes
                            .iter()
                            .map(|t| t.name.as_str())
                            .collect::<Vec<_>>()
                            .join(", ")
                    ))
                })?
                .styles
                .clone();
            let theme = &mut themes[index];
            for (k, s) in base {
                theme.styles.entry(k).or_insert(s);
            }
            continue;
        }
        if !THEME_KEYS.iter().any(|(k, _)| *k == field) {
            let near = smith_config::closest(field, THEME_KEYS.iter().map(|(k, _)| *k));
            return Err(bad(format!(
                "`{field}` is not a theme key{}; the theme reference lists them",
                if near.is_empty() {
                    String::new()
                } else {
                    format!(" (did you mean {}?)", near.join(", "))
                }
            )));
        }
        let spec = style::parse_style(&value).map_err(bad)?;
        themes[index].styles.insert(field.to_owned(), spec);
    }
    Ok(())
}

/// The theme `tui.theme` names, checked when the user set it.
fn chosen_theme(
    resolved: &smith_config::Resolved,
    themes: &[ThemeSpec],
) -> Result<Option<String>, ConfigError> {
    let Some(v) = resolved.get("tui.theme") else {
        return Ok(None);
    };
    let name = text_of(v);
    if themes.iter().any(|t| t.name == name) {
        return Ok(Some(name));
    }
    if v.source.level == smith_config::Level::ProductDefault {
        return Ok(None);
    }
    Err(ConfigError {
        key: "tui.theme".into(),
        value: name,
        source_text: v.source.to_string(),
        reason: format!(
            "no theme of that name; known: {} (themes come from product plugins and `theme.NAME.KEY` settings)",
            if themes.is_empty() {
                "none — is the product plugin disabled?".to_owned()
            } else {
                themes
                    .iter()
                    .map(|t| t.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        ),
    })
}

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
}

const THINKING: &[&str] = &["off", "minimal", "low", "medium", "high", "max"];

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
    /// rest of the line; `--NAME` sets a flag.
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
        let mut next = 0;
        while !rest.is_empty() {
            let (word, tail) = rest
                .split_once(char::is_whitespace)
                .map_or((rest, ""), |(w, t)| (w, t.trim_start()));
            if let Some(flag) = word.strip_prefix("--") {
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
    /// a `handler` command fails.
    ///
    /// # Errors
    /// A `handler` command: no plugin to run it.
    pub fn outcome_without_plugins(&self) -> Result<Outcome, String> {
        match self.command.action {
            CommandAction::Handler => Err(format!(
                "/{} needs its plugin, which is not loaded",
                self.command.name
            )),
            _ => self.outcome_with(None),
        }
    }

    /// What this invocation comes to: a verb built from its arguments, a picker, a key
    /// action, or the plugin's intents (its `run` is called through `loadout`).
    ///
    /// # Errors
    /// The plugin's `run` failed: its message.
    pub fn outcome(&self, loadout: &Loadout) -> Result<Outcome, String> {
        self.outcome_with(Some(loadout))
    }

    fn outcome_with(&self, loadout: Option<&Loadout>) -> Result<Outcome, String> {
        let t = |i| self.text(i);
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
            }),
            CommandAction::OpenPicker(p) => Outcome::Picker(p),
            CommandAction::Key(a) => Outcome::Key(a),
            CommandAction::Handler => {
                let plugin = self.command.plugin.as_deref().unwrap_or_default();
                let Some(loadout) = loadout else {
                    return Err(format!(
                        "/{} needs plugin {plugin}, which is not loaded",
                        self.command.name
                    ));
                };
                Outcome::Intents(loadout.run_command(
                    plugin,
                    &self.command.name,
                    &self.arguments,
                )?)
            }
        })
    }
}

/// A verb as words for notices and errors: `/undo --turn`, `set-model sonnet`.
pub fn verb_words(verb: &Verb) -> String {
    match verb {
        Verb::NewSession => "new session".into(),
        Verb::Attach(s) => format!("attach {s}"),
        Verb::Fork(e) => format!("fork {}", e.as_deref().unwrap_or(""))
            .trim_end()
            .into(),
        Verb::Select(e) => format!("select {e}"),
        Verb::Compact(_) => "compact".into(),
        Verb::Undo(turn) => if *turn { "undo turn" } else { "undo" }.into(),
        Verb::Redo => "redo".into(),
        Verb::Restore(t) => format!("restore {t}"),
        Verb::Replay(_) => "replay".into(),
        Verb::SetModel((m, _)) => format!("set model {m}"),
        Verb::PluginEnable(p) => format!("enable plugin {p}"),
        Verb::PluginDisable(p) => format!("disable plugin {p}"),
        Verb::OpenPicker(p) => format!("open the {p:?} picker").to_lowercase(),
    }
}

/// What a command does, in words for the references and `commands.list`.
pub fn action_words(action: &CommandAction) -> String {
    match action {
        CommandAction::Verb(kind) => format!("runtime verb `{}`", verb_kind_name(*kind)),
        CommandAction::OpenPicker(p) => format!("opens the {} picker", picker_name(*p)),
        CommandAction::Key(a) => format!("key action `{}`", action_name(*a)),
        CommandAction::Handler => "the plugin's handler".to_owned(),
    }
}

/// A verb kind's written name (`set-model`).
pub fn verb_kind_name(kind: VerbKind) -> &'static str {
    match kind {
        VerbKind::NewSession => "new-session",
        VerbKind::Attach => "attach",
        VerbKind::Fork => "fork",
        VerbKind::Select => "select",
        VerbKind::Compact => "compact",
        VerbKind::Undo => "undo",
        VerbKind::Redo => "redo",
        VerbKind::Restore => "restore",
        VerbKind::Replay => "replay",
        VerbKind::SetModel => "set-model",
        VerbKind::PluginEnable => "plugin-enable",
        VerbKind::PluginDisable => "plugin-disable",
    }
}

/// A picker's written name (`models`).
pub fn picker_name(picker: Picker) -> &'static str {
    match picker {
        Picker::Commands => "commands",
        Picker::Sessions => "sessions",
        Picker::Models => "models",
        Picker::Plugins => "plugins",
    }
}

/// An argument kind's written name (`model`).
pub fn kind_name(kind: ArgumentKind) -> &'static str {
    match kind {
        ArgumentKind::Text => "text",
        ArgumentKind::Integer => "integer",
        ArgumentKind::Flag => "flag",
        ArgumentKind::Session => "session",
        ArgumentKind::Entry => "entry",
        ArgumentKind::Model => "model",
        ArgumentKind::Plugin => "plugin",
        ArgumentKind::Thinking => "thinking",
    }
}

/// The command reference (Markdown), generated from `layer` (the bundled plugins' layer):
/// `docs/reference/commands.md`.
pub fn commands_reference(layer: &ProductLayer) -> String {
    let mut out = String::from(
        "# Command reference\n\nEvery command of the product layer as this build registers it, generated from the declarations (Smith's own in `core/app/src/product`, the bundled product plugin's in `plugins/guests/product`). In the terminal UI, `/` opens the palette over them; over JSON-RPC, `commands.list` lists them and `commands.run` runs one with its arguments by name. *Smith* marks the commands that enter or recover the runtime: they stay when every product plugin is disabled. The guide is [commands](../commands.md).\n\n| Command | What it does | Carried out as | From |\n| --- | --- | --- | --- |\n",
    );
    for c in &layer.commands {
        out.push_str(&format!(
            "| `{}` | {} | {} | {} |\n",
            c.usage(),
            c.summary.replace('|', "\\|"),
            action_words(&c.action),
            c.plugin
                .as_deref()
                .map_or_else(|| "Smith".to_owned(), |p| format!("plugin `{p}`")),
        ));
    }
    out.push_str("\n## Arguments\n\n| Command | Argument | Kind | Required | What it is |\n| --- | --- | --- | --- | --- |\n");
    for c in &layer.commands {
        for a in &c.arguments {
            out.push_str(&format!(
                "| `/{}` | `{}` | {} | {} | {} |\n",
                c.name,
                a.name,
                kind_name(a.kind),
                if a.required { "yes" } else { "no" },
                a.summary.replace('|', "\\|")
            ));
        }
    }
    out.push_str("\nArgument kinds: `text` (the last one takes the rest of the line), `integer`, `flag` (written `--NAME`), `session` (an id or unique prefix), `entry` (an entry id), `model` (an id or alias of the catalog), `plugin` (a plugin id), `thinking` (off, minimal, low, medium, high, max).\n");
    out
}

/// The theme reference (Markdown), generated from [`THEME_KEYS`] and `layer`'s themes:
/// `docs/reference/themes.md`.
pub fn themes_reference(layer: &ProductLayer) -> String {
    let mut out = String::from(
        "# Theme reference\n\nThe theme keys of the terminal UI and the themes this build bundles, generated from their declarations (`core/app/src/product/style.rs`, `plugins/guests/product`). Choose a theme with the `tui.theme` setting or `/theme NAME`; change one, or make your own, with `theme.NAME.KEY \"STYLE\"` settings (a foreground colour, `on` and a background colour, modifiers: `\"black on yellow bold\"`; `theme.NAME.base \"dark\"` starts from another theme). Keys a theme leaves out are unstyled. The guide is [commands](../commands.md#themes).\n\n| Theme key | What it styles |",
    );
    for t in &layer.themes {
        out.push_str(&format!(" `{}` |", t.name));
    }
    out.push_str("\n| --- | --- |");
    for _ in &layer.themes {
        out.push_str(" --- |");
    }
    out.push('\n');
    for (key, what) in THEME_KEYS {
        out.push_str(&format!("| `{key}` | {what} |"));
        for t in &layer.themes {
            out.push_str(&format!(
                " {} |",
                t.styles
                    .get(*key)
                    .map_or_else(|| "—".to_owned(), style_words)
            ));
        }
        out.push('\n');
    }
    out.push_str("\nThemes: ");
    let names: Vec<String> = layer
        .themes
        .iter()
        .map(|t| format!("`{}` ({}, {})", t.name, t.summary, t.source))
        .collect();
    out.push_str(&names.join("; "));
    out.push_str(&format!(
        ".\n\nColours: {}, an index `0`–`255`, or `#rrggbb`. Modifiers: `bold`, `italic`, `underlined`, `reversed`, `dim`.\n",
        style::COLOUR_NAMES.iter().map(|c| format!("`{c}`")).collect::<Vec<_>>().join(", ")
    ));
    out
}

fn colour_words(c: Colour) -> String {
    match c {
        Colour::Named(n) => n.to_owned(),
        Colour::Indexed(i) => i.to_string(),
        Colour::Rgb(r, g, b) => format!("#{r:02x}{g:02x}{b:02x}"),
    }
}

/// A style as configuration writes it (`black on yellow bold`; `plain` for none).
pub fn style_words(s: &StyleSpec) -> String {
    let mut words = Vec::new();
    if let Some(fg) = s.fg {
        words.push(colour_words(fg));
    }
    if let Some(bg) = s.bg {
        words.push(format!("on {}", colour_words(bg)));
    }
    for (on, w) in [
        (s.bold, "bold"),
        (s.italic, "italic"),
        (s.underlined, "underlined"),
        (s.reversed, "reversed"),
        (s.dim, "dim"),
    ] {
        if on {
            words.push(w.to_owned());
        }
    }
    if words.is_empty() {
        "plain".to_owned()
    } else {
        words.join(" ")
    }
}
