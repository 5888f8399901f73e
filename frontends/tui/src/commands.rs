//! Running the product layer's commands in the terminal UI: a `/NAME ARGS` line (typed, from
//! the palette or from a key bound to a command) parsed against the registered commands,
//! its outcome carried out — a key-table action, a runtime verb, a picker, or the intents a
//! plugin's handler returns (theme, layout, notices).
//!
//! Every runtime verb is carried out here: going to another session (new, attach, fork,
//! replay) closes this one and opens that; the writes (undo, redo, restore, select, plugin
//! enable and disable) go through the work thread, which holds the session's writer (refused
//! in a read-only view); diff and export read on a thread of their own. The pickers
//! (sessions, branches, plugins) open over the transcript; the models picker is the
//! palette's. A missing model, plugin or thinking argument opens the palette's picker of its
//! values.

use smith_app::product::Loadout;
use smith_app::product::wit::{Intent, Layout, Level, Picker, Verb};
use smith_app::product::{CommandError, Outcome, ProductLayer, verb_words};
use smith_ui_intents::NoticeLevel;

use crate::go::{Go, Read};
use crate::keys::Action;
use crate::pickers::Kind;
use crate::ui::{Effect, Ui};
use crate::work::Write;

/// What running commands needs beyond the UI: the loadout handler commands run through, and
/// whether colour is drawn at all (`tui.color` none: a theme switch keeps no colour).
pub(crate) struct Runner {
    /// The invocation's composition root, for a handler's `runtime` questions (`None` in
    /// tests: the plugins and MCP servers are not listed).
    pub(crate) app: Option<std::sync::Arc<smith_app::App>>,
    /// The product plugins' loadout (`None`: they did not load).
    pub(crate) loadout: Option<Loadout>,
    /// Whether themes may colour the screen.
    pub(crate) colour: bool,
}

impl Runner {
    /// Run `line` (what follows the `/`).
    pub(crate) fn run(&self, ui: &mut Ui, line: &str) -> Option<Effect> {
        let layer = std::sync::Arc::clone(&ui.product);
        let invocation = match layer.parse_line(line) {
            Ok(i) => i,
            // A missing session: the sessions picker chooses it.
            Err(CommandError::Missing {
                kind: smith_app::product::wit::ArgumentKind::Session,
                ..
            }) => return ui.open_picker(Kind::Sessions { all: false }),
            Err(CommandError::Missing { argument, kind, .. })
                if !ui.values.of_kind(kind).is_empty() =>
            {
                // The picker Rust supplies for it: the palette lists the values to choose.
                ui.editor.set_text(&format!("/{} ", line.trim()));
                ui.palette = 0;
                ui.hint = Some(format!(
                    "choose {argument}: type to filter, ↑↓, Tab or Enter"
                ));
                return None;
            }
            // `/theme` alone: the themes to choose from.
            Err(CommandError::Missing { command, .. }) if command == "theme" => {
                return ui.open_picker(Kind::Themes);
            }
            // Mistyped or incomplete: the line goes back to the draft to be mended.
            Err(e) => {
                ui.editor
                    .set_text(&format!("/{}", line.trim_start_matches('/')));
                ui.palette = 0;
                ui.hint = Some(command_error(&e));
                return None;
            }
        };
        let outcome = match &self.loadout {
            Some(l) => invocation
                .outcome(l, Some(self.query(ui)))
                .map_err(|e| e.to_string()),
            None => match invocation.command.action {
                smith_app::product::wit::CommandAction::Handler
                    if invocation.command.prompt.is_none() =>
                {
                    Err(format!(
                        "/{} is a plugin's command and the product plugins did not load",
                        invocation.command.name
                    ))
                }
                _ => invocation
                    .outcome_without_plugins()
                    .map_err(|e| e.to_string()),
            },
        };
        match outcome {
            Ok(Outcome::Key(a)) => ui.trigger(Action::from_key_action(a)),
            Ok(Outcome::Verb(v)) => self.verb(ui, v),
            Ok(Outcome::Picker(p)) => self.picker(ui, p),
            Ok(Outcome::Prompt { text, model }) => {
                prompt(ui, &invocation.command.name, text, model)
            }
            Ok(Outcome::Intents(intents)) => {
                let mut effect = None;
                for intent in intents {
                    if let Some(e) = self.intent(ui, &layer, intent) {
                        effect = Some(e);
                    }
                }
                effect
            }
            Err(e) => {
                ui.notice(NoticeLevel::Error, e);
                None
            }
        }
    }

    /// What a handler's `runtime` questions are answered with: the session this view has
    /// open (its file accounted for `/cost`) and what the status line knows.
    fn query(&self, ui: &Ui) -> smith_app::product::SharedQuery {
        use smith_app::product::query::{
            SessionQuery, configured_modes, mcp_server_lines, plugin_lines,
        };
        // What the prepared route says; before one is ready, what the configuration says.
        let (mode, sandbox) = match &self.app {
            Some(app) if ui.status.permission_mode.is_none() || ui.sandbox.is_none() => {
                configured_modes(app, &ui.cwd)
            }
            _ => (None, None),
        };
        let status = smith_app::product::RuntimeStatus {
            session: ui.opened.as_ref().map(|(id, _)| id.to_string()),
            model: ui.model.as_ref().map(ToString::to_string),
            context_tokens: ui.status.context.map(|(used, _)| used),
            context_window: ui.status.context.and_then(|(_, limit)| limit),
            permission_mode: ui.status.permission_mode.clone().or(mode),
            sandbox: ui.sandbox.map(str::to_owned).or(sandbox),
            plugins: self.app.as_deref().map(plugin_lines).unwrap_or_default(),
            mcp_servers: self
                .app
                .as_deref()
                .map(mcp_server_lines)
                .unwrap_or_default(),
        };
        std::sync::Arc::new(SessionQuery {
            path: ui.opened.as_ref().map(|(_, path)| path.clone()),
            status,
            mcp: self
                .app
                .as_ref()
                .map(|app| smith_app::product::query::McpReach {
                    app: std::sync::Arc::clone(app),
                    resident: ui.resident.clone(),
                }),
        })
    }

    fn intent(&self, ui: &mut Ui, layer: &ProductLayer, intent: Intent) -> Option<Effect> {
        match intent {
            Intent::Run(v) => return self.verb(ui, v),
            Intent::Notice((level, text)) => {
                let level = match level {
                    Level::Info => NoticeLevel::Info,
                    Level::Warning => NoticeLevel::Warning,
                    Level::Error => NoticeLevel::Error,
                };
                ui.notice(level, text);
            }
            Intent::SetTheme(name) => self.theme(ui, layer, &name),
            Intent::SetLayout(layout) => {
                ui.layout = layout;
                ui.hint = Some(format!(
                    "status line at the {} (for this process; setting tui.layout keeps it)",
                    if layout == Layout::StatusTop { "top" } else { "bottom" }
                ));
            }
            Intent::SetSetting((key, value)) => match key.as_str() {
                "permissions.mode" if value == "next" => {
                    return Some(Effect::SetPermissionMode(None));
                }
                "permissions.mode" => match value.parse::<smith_app::PermissionMode>() {
                    Ok(mode) => return Some(Effect::SetPermissionMode(Some(mode))),
                    Err(names) => ui.notice(
                        NoticeLevel::Warning,
                        format!("`{value}` is not a permission mode: {names}"),
                    ),
                },
                "tui.theme" => self.theme(ui, layer, &value),
                "tui.layout" if value == "status-top" => ui.layout = Layout::StatusTop,
                "tui.layout" if value == "status-bottom" => ui.layout = Layout::StatusBottom,
                _ => ui.notice(
                    NoticeLevel::Warning,
                    format!(
                        "a command asked to set `{key}` for this process; the terminal UI changes only tui.theme, tui.layout and permissions.mode while it runs (set it in the configuration: smith config set {key} VALUE)"
                    ),
                ),
            },
        }
        None
    }

    fn theme(&self, ui: &mut Ui, layer: &ProductLayer, name: &str) {
        let Some(spec) = layer.theme_named(name) else {
            ui.hint = Some(format!(
                "no theme `{name}`; known: {}",
                layer
                    .themes
                    .iter()
                    .map(|t| t.name.as_str())
                    .collect::<Vec<_>>()
                    .join(", ")
            ));
            return;
        };
        if !self.colour {
            ui.hint = Some(format!(
                "theme `{name}` chosen, but this terminal draws no colour (tui.color, NO_COLOR)"
            ));
            return;
        }
        ui.theme = crate::themes::theme_of(spec);
        ui.window.restyle();
        ui.hint = Some(format!(
            "theme `{name}` (for this process; setting tui.theme keeps it)"
        ));
    }

    fn picker(&self, ui: &mut Ui, picker: Picker) -> Option<Effect> {
        match picker {
            Picker::Commands => ui.trigger(Action::Palette),
            Picker::Sessions => ui.open_picker(Kind::Sessions { all: false }),
            Picker::Branches => ui.open_picker(Kind::Branches),
            Picker::Plugins => ui.open_picker(Kind::Plugins),
            Picker::Models => {
                // The model picker is the palette's, on /model's argument.
                ui.editor.set_text("/model ");
                ui.palette = 0;
                ui.palette_chose = false;
                None
            }
        }
    }

    fn verb(&self, ui: &mut Ui, verb: Verb) -> Option<Effect> {
        let writes = |ui: &mut Ui, write: Write| -> Option<Effect> {
            match &ui.held {
                // A write waits for no turn: refused while one runs, never held for later.
                crate::ui::Held::Writer if ui.busy() || ui.compacting => {
                    ui.hint = Some(format!(
                        "work is running: {} waits until it has ended (Esc aborts it), then run it again",
                        verb_words(&verb)
                    ));
                    None
                }
                crate::ui::Held::Writer => Some(Effect::Write(write)),
                _ => {
                    ui.hint = Some(format!(
                        "read-only: {} changes the session; /fork makes a writable copy",
                        verb_words(&verb)
                    ));
                    None
                }
            }
        };
        match verb.clone() {
            Verb::Compact(focus) => ui.compact(focus),
            Verb::SetModel((model, thinking)) => set_model(ui, &model, thinking.as_deref()),
            Verb::OpenPicker(p) => self.picker(ui, p),
            Verb::NewSession => Some(Effect::Go(Go::New)),
            Verb::Attach(id) => Some(Effect::Go(Go::Attach(id))),
            Verb::Fork(entry) => Some(Effect::Go(Go::Fork(entry))),
            Verb::Replay(range) => Some(Effect::Go(Go::Replay(range))),
            Verb::Select(entry) => match entry.trim().parse::<u64>() {
                Ok(leaf) if leaf > 0 => writes(ui, Write::Select(smith::EntryId(leaf))),
                _ => {
                    ui.hint = Some(format!(
                        "`{entry}` is not an entry id (a whole number: /branches shows the branches)"
                    ));
                    None
                }
            },
            Verb::Undo(turn) => writes(ui, Write::Undo(turn)),
            Verb::Redo => writes(ui, Write::Redo),
            Verb::Restore(target) => writes(ui, Write::Restore(target)),
            Verb::PluginEnable(id) => writes(ui, Write::Plugin(id, true)),
            Verb::PluginDisable(id) => writes(ui, Write::Plugin(id, false)),
            Verb::Diff(from) => Some(Effect::Read(Read::Diff(from))),
            Verb::Export(file) => Some(Effect::Read(Read::Export(file))),
        }
    }
}

/// The `set-model` verb: the selection and thinking level checked here, carried out by the
/// work thread (which prepares the route before the next run).
fn set_model(ui: &mut Ui, model: &str, thinking: Option<&str>) -> Option<Effect> {
    if !matches!(ui.held, crate::ui::Held::Writer) {
        ui.hint = Some("this view runs nothing: there is no model to change".into());
        return None;
    }
    if ui.busy() || ui.compacting {
        ui.hint = Some(
            "work is running: the model changes for the following runs once it has ended; run /model again then (Esc aborts it)".into(),
        );
        return None;
    }
    let selection = match model.parse::<smith::Selection>() {
        Ok(s) => s,
        Err(e) => {
            ui.hint = Some(format!(
                "`{model}` is not a model: {e}; write PROVIDER/MODEL or an alias or group of models.kdl (the picker lists them: /model )"
            ));
            return None;
        }
    };
    let thinking = match thinking {
        None => None,
        Some(t) => match smith::ThinkingLevel::parse(t) {
            Some(level) => Some(level),
            None => {
                ui.hint = Some(format!(
                    "`{t}` is not a thinking level: {}",
                    smith_app::product::THINKING.join(", ")
                ));
                return None;
            }
        },
    };
    ui.status.state = "switching model".into();
    // Kept for the sessions this UI goes to next.
    ui.chosen = Some((selection.clone(), thinking));
    Some(Effect::SetModel(selection, thinking))
}

/// A command error as the hint shows it.
fn command_error(e: &CommandError) -> String {
    e.to_string()
}

/// Send a prompt command's text (`/NAME`'s, its arguments put in) as the person's message:
/// queued for the running work as a follow-up, else a turn of its own — on the command's model
/// when its file names one (then only when no work runs: the turn needs that model), and in
/// place of an earlier message being edited (a new branch from where it was sent).
fn prompt(ui: &mut Ui, name: &str, text: String, model: Option<String>) -> Option<Effect> {
    if let Some(why) = ui.cannot_submit() {
        ui.hint = Some(why);
        return None;
    }
    let model = match model.map(|m| (m.parse::<smith::Selection>(), m)) {
        None => None,
        Some((Ok(selection), _)) => Some(selection),
        Some((Err(e), written)) => {
            ui.notice(
                NoticeLevel::Error,
                format!("/{name}: its file names model `{written}`, which cannot be used: {e}; fix the front matter's `model` (PROVIDER/MODEL, an alias or a group)"),
            );
            return None;
        }
    };
    if ui.busy() {
        if model.is_some() || ui.editing.is_some() {
            ui.hint = Some(format!(
                "work is running and /{name} {}: run it once the work has ended",
                if model.is_some() {
                    "runs on a model of its own"
                } else {
                    "replaces the message being edited, a new branch"
                }
            ));
            return None;
        }
        return Some(Effect::Enqueue(text, smith::Delivery::FollowUp));
    }
    // An earlier message being edited: the command's text takes its place, a new branch.
    let at = ui.editing.take().map(|(at, _)| at);
    ui.sending(&text);
    Some(match (model, at) {
        (Some(selection), at) => Effect::SubmitOn(text, at, selection),
        (None, Some(at)) => Effect::SubmitAt(text, at),
        (None, None) => Effect::Submit(text),
    })
}
