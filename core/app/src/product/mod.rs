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

mod config;
mod invoke;
pub mod keys;
pub mod prompts;
pub mod query;
pub mod style;
mod words;

use smith_host::product::types::{
    Argument, ArgumentKind, BindingTarget, CommandAction, KeyAction, Layout, Picker, VerbKind,
};

pub use invoke::{ArgumentValues, CommandError, Invocation, Outcome, OutcomeError, THINKING};
pub use keys::{KeyName, KeySpec};
/// The pinned plugin generation handler commands run through.
pub use smith_host::Loadout;
/// The product layer's WIT types (`smith:plugin/product`), for frontends.
pub use smith_host::product::types as wit;
/// What a handler's `runtime` questions are answered with.
pub use smith_host::{ModelUsage, RuntimeQuery, RuntimeStatus, SharedQuery};
pub use style::{Colour, StyleError, StyleSpec, THEME_KEYS, ThemeSpec};
pub use words::{
    action_words, commands_reference, kind_name, picker_name, style_words, themes_reference,
    verb_kind_name, verb_words,
};

/// The layer as the bundled plugins alone compose it, with default settings: what the
/// generated references (commands, keys, themes) and the terminal UI's tests show.
///
/// # Errors
/// [`BundledError`]: the bundled product plugin does not load or compose — a defect of this
/// build.
pub fn bundled(built_in: &[(KeySpec, KeyAction)]) -> Result<ProductLayer, BundledError> {
    let sources: Vec<smith_host::PluginSource<'_>> = smith_plugins::BUNDLED
        .iter()
        .filter(|b| b.manifest.contains("product-plugin@"))
        .map(|b| smith_host::PluginSource::new(b.origin, b.manifest, b.component))
        .collect();
    let host = smith_host::Host::load(
        &sources,
        &smith_host::CompileCache::new(None),
        smith_host::Limits::default(),
    )
    .map_err(BundledError::Load)?;
    let resolved = smith_config::Resolver::with_defaults().resolve();
    ProductLayer::compose(&host.loadout(), built_in, &resolved, prompts::bundled())
        .map_err(BundledError::Compose)
}

/// Why the bundled product layer could not be made: a defect of this build, never of the
/// user's configuration (it is composed with defaults).
#[derive(Debug, thiserror::Error)]
pub enum BundledError {
    /// The bundled product plugin's component does not load.
    #[error("the bundled product plugin does not load: {0}")]
    Load(smith_host::Error),
    /// Its contributions do not compose with the frontend's built-in keys.
    #[error("the bundled product layer does not compose: {0}")]
    Compose(ConfigError),
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
    /// runtime, and stays when every product plugin is disabled) or a prompt command.
    pub plugin: Option<String>,
    /// For a prompt command (a Markdown file, or one Smith bundles): its text, submitted as a
    /// prompt with the arguments put in; `action` is then `handler` and `plugin` `None`.
    pub prompt: Option<prompts::Shared>,
}

impl Command {
    /// The command as the palette and the help show it: `/model MODEL [THINKING]`.
    pub fn usage(&self) -> String {
        if let Some(p) = &self.prompt {
            return p.usage();
        }
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

    /// Whether it is Smith's own: neither a plugin's nor a prompt command.
    pub fn is_own(&self) -> bool {
        self.plugin.is_none() && self.prompt.is_none()
    }

    /// Who gives it, in words: `Smith`, `plugin ID`, or the prompt command's origin.
    pub fn holder(&self) -> String {
        match (&self.plugin, &self.prompt) {
            (Some(p), _) => format!("plugin {p}"),
            (None, Some(p)) => p.origin.to_string(),
            (None, None) => "Smith".to_owned(),
        }
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
        prompt: None,
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
            "Open another session by its id or a unique prefix",
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
        VerbKind::Compact | VerbKind::Replay | VerbKind::Diff | VerbKind::Export => {
            &[(K::Text, false)]
        }
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
pub(crate) fn valid_name(name: &str) -> bool {
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
                "command `{}`: its arguments do not fit what it does ({} takes {})",
                c.name,
                action_words(&c.action),
                if sig.is_empty() {
                    "no arguments".to_owned()
                } else {
                    sig.iter()
                        .map(|(k, r)| {
                            format!("{}{}", kind_name(*k), if *r { "" } else { " (optional)" })
                        })
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
    /// built-in keys (`built_in`: each key and the action it triggers), the prompt commands
    /// (`prompts`, after the plugins' commands: [`prompts::discover`]) and `resolved`
    /// configuration (whose `keys.*` may bind any of these commands).
    ///
    /// # Errors
    /// [`ConfigError`] for a `keys.*`, `theme.*.*`, `tui.theme` or `tui.layout` value that
    /// cannot be used.
    pub fn compose(
        loadout: &Loadout,
        built_in: &[(KeySpec, KeyAction)],
        resolved: &smith_config::Resolved,
        prompts: Vec<prompts::PromptCommand>,
    ) -> Result<Self, ConfigError> {
        let mut layer = Self::built_in_only(built_in);
        let mut layout = None;
        let mut plugin_bindings = Vec::new();
        for (id, contributions) in loadout.products() {
            let contributions = match contributions {
                Ok(c) => c,
                Err(why) => {
                    layer.notices.push(format!(
                        "plugin {id} cannot be loaded: {why}; its commands, keys and themes are not registered"
                    ));
                    continue;
                }
            };
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
                        holder.holder()
                    ));
                    continue;
                }
                layer.commands.push(Command {
                    name: c.name.clone(),
                    summary: c.summary.clone(),
                    arguments: c.arguments.clone(),
                    action: c.action,
                    plugin: Some(id.to_owned()),
                    prompt: None,
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
        layer.add_prompts(prompts);
        // The user's bindings first: they win over any plugin's.
        let mut skipped = Vec::new();
        let user = config::user_bindings(resolved, &layer, &mut skipped)?;
        layer.notices.extend(skipped);
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
            if let BindingTarget::Command(name) = &target {
                match layer.commands.iter().find(|c| &c.name == name) {
                    None => {
                        layer.notices.push(format!(
                            "plugin {id}: {key} is bound to `/{name}`, which no enabled plugin offers; the binding is skipped"
                        ));
                        continue;
                    }
                    Some(c) if c.arguments.iter().any(|a| a.required) => {
                        layer.notices.push(format!(
                            "plugin {id}: {key} is bound to `/{name}`, which needs arguments a key cannot give; the binding is skipped"
                        ));
                        continue;
                    }
                    Some(_) => {}
                }
            }
            if let Some(holder) = layer.bindings.iter().find(|b| b.key == key) {
                let way = if holder.origin == Origin::BuiltIn {
                    "built-in keys are not rebound".to_owned()
                } else {
                    format!("the first binding of a key wins; rebind it with setting keys.{key}")
                };
                if !matches!(holder.origin, Origin::Config(_)) {
                    layer.notices.push(format!(
                        "plugin {id}: {key} is not bound to {}: {} binds it to {} ({way})",
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
        config::user_themes(resolved, &mut layer.themes)?;
        layer.theme = config::chosen_theme(resolved, &layer.themes)?;
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

    /// Register prompt commands after those already held, in order: a name already held
    /// keeps its holder, and a notice names both.
    pub fn add_prompts(&mut self, commands: Vec<prompts::PromptCommand>) {
        for c in commands {
            if let Some(holder) = self.command(&c.name) {
                self.notices.push(format!(
                    "{}: command `/{}` is not registered: {} has it (the first holder keeps a name; rename the file to keep both)",
                    c.origin,
                    c.name,
                    holder.holder()
                ));
                continue;
            }
            let summary = match &c.argument_hint {
                Some(hint) => format!("what the command's text asks for: {hint}"),
                None => {
                    "text put in for $ARGUMENTS (appended when the command names none)".to_owned()
                }
            };
            // `argument-hint: ISSUE [AREA]`: the first word is not optional, so the palette
            // puts the command in place for it instead of running it bare.
            let required = c
                .argument_hint
                .as_deref()
                .and_then(|h| h.split_whitespace().next())
                .is_some_and(|w| !w.starts_with('['));
            self.commands.push(Command {
                name: c.name.clone(),
                summary: c.description.clone(),
                arguments: vec![Argument {
                    name: "arguments".to_owned(),
                    summary,
                    kind: ArgumentKind::Text,
                    required,
                }],
                action: CommandAction::Handler,
                plugin: None,
                prompt: Some(std::sync::Arc::new(c)),
            });
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
