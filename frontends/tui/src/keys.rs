//! The terminal UI's key table: every action a key can trigger with its help text, the keys
//! built into the frontend (typing, submit, scroll, abort and quit: [`BUILT_IN`]), and the
//! [`Keymap`] in force — those plus the product layer's bindings (the bundled product
//! plugin's defaults, other plugins', the user's `keys.*`). The help overlay and the generated
//! key reference (`docs/reference/keys.md`) read the same keymap.

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};
use smith_app::product::wit::{BindingTarget, KeyAction};
use smith_app::product::{KeyName, KeySpec, ProductLayer, action_name};

/// What a key does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Action {
    /// Send the draft; while work runs, queue it as a follow-up.
    Submit,
    /// Queue the draft as a steer: delivered after the running tool batch, before the next
    /// provider request.
    Steer,
    /// A line break in the draft.
    Newline,
    /// Take the newest queued input back into the draft (it is withdrawn, recorded).
    Withdraw,
    /// Close the top overlay, else clear the draft, else abort the running work.
    Escape,
    /// Complete the `@path` under the cursor.
    Complete,
    /// Edit the draft in `$VISUAL` or `$EDITOR`.
    ExternalEditor,
    /// Show or hide thinking in full.
    ToggleThinking,
    /// Observer: follow the writer's new records live, or hold the view.
    ToggleFollow,
    /// The help overlay: every binding.
    Help,
    /// Search the whole transcript.
    Search,
    /// Select an entry: to copy it, its code or open it in full.
    Select,
    /// Scroll the transcript up a page.
    PageUp,
    /// Scroll the transcript down a page.
    PageDown,
    /// Scroll up a line.
    LineUp,
    /// Scroll down a line.
    LineDown,
    /// Back to the newest line (follow again).
    Bottom,
    /// The oldest line.
    Top,
    /// Leave (aborting running work, recorded). Ctrl+C twice does the same.
    Quit,
    /// Clear the draft; pressed again on an empty draft, leave.
    Interrupt,
    /// Open the command palette (as `/` on an empty draft does).
    Palette,
    /// Search the prompts sent before (this session's and this run's) as you type. The
    /// frontend's own: the product layer has no name for it (a new `key-action` case would
    /// break the WIT's 1.x plugins), so no plugin or setting binds it, and a binding of its
    /// key by the product layer or the user takes the key from it.
    HistorySearch,
    /// Paste the system clipboard's image into the draft (the frontend's own, as
    /// [`Action::HistorySearch`] is).
    PasteImage,
    /// Hide the plan's panel, or show it again (the frontend's own, as
    /// [`Action::HistorySearch`] is).
    TogglePlan,
}

impl Action {
    /// The action of the product layer's key-table action.
    pub fn from_key_action(a: KeyAction) -> Self {
        match a {
            KeyAction::Submit => Self::Submit,
            KeyAction::Steer => Self::Steer,
            KeyAction::Newline => Self::Newline,
            KeyAction::Withdraw => Self::Withdraw,
            KeyAction::Escape => Self::Escape,
            KeyAction::Complete => Self::Complete,
            KeyAction::ExternalEditor => Self::ExternalEditor,
            KeyAction::ToggleThinking => Self::ToggleThinking,
            KeyAction::ToggleFollow => Self::ToggleFollow,
            KeyAction::Help => Self::Help,
            KeyAction::Search => Self::Search,
            KeyAction::SelectEntry => Self::Select,
            KeyAction::PageUp => Self::PageUp,
            KeyAction::PageDown => Self::PageDown,
            KeyAction::LineUp => Self::LineUp,
            KeyAction::LineDown => Self::LineDown,
            KeyAction::Top => Self::Top,
            KeyAction::Bottom => Self::Bottom,
            KeyAction::Interrupt => Self::Interrupt,
            KeyAction::Quit => Self::Quit,
            KeyAction::Palette => Self::Palette,
        }
    }

    /// The product layer's name for it; `None` for the frontend's own actions.
    pub fn key_action(self) -> Option<KeyAction> {
        Some(match self {
            Self::Submit => KeyAction::Submit,
            Self::Steer => KeyAction::Steer,
            Self::Newline => KeyAction::Newline,
            Self::Withdraw => KeyAction::Withdraw,
            Self::Escape => KeyAction::Escape,
            Self::Complete => KeyAction::Complete,
            Self::ExternalEditor => KeyAction::ExternalEditor,
            Self::ToggleThinking => KeyAction::ToggleThinking,
            Self::ToggleFollow => KeyAction::ToggleFollow,
            Self::Help => KeyAction::Help,
            Self::Search => KeyAction::Search,
            Self::Select => KeyAction::SelectEntry,
            Self::PageUp => KeyAction::PageUp,
            Self::PageDown => KeyAction::PageDown,
            Self::LineUp => KeyAction::LineUp,
            Self::LineDown => KeyAction::LineDown,
            Self::Top => KeyAction::Top,
            Self::Bottom => KeyAction::Bottom,
            Self::Interrupt => KeyAction::Interrupt,
            Self::Quit => KeyAction::Quit,
            Self::Palette => KeyAction::Palette,
            Self::HistorySearch | Self::PasteImage | Self::TogglePlan => return None,
        })
    }
}

/// What each action does, one sentence, in the order the help shows them.
pub const ACTIONS: &[(Action, &str)] = &[
    (
        Action::Submit,
        "Send the draft (a line starting with `/` runs that command). While work runs it is queued as a follow-up (delivered when the model would otherwise stop).",
    ),
    (
        Action::Steer,
        "Queue the draft as a steer: delivered as soon as the running tool batch completes, before the next provider request. With nothing running it is sent like Enter.",
    ),
    (
        Action::Newline,
        "A line break in the draft (Shift+Enter needs a terminal with the kitty keyboard protocol).",
    ),
    (
        Action::Withdraw,
        "Take the newest queued input back into the draft; it is withdrawn (recorded) and never delivered.",
    ),
    (
        Action::Escape,
        "Close the top overlay or the palette; else clear the draft (Up brings it back); else abort the running work (recorded in the session).",
    ),
    (
        Action::Complete,
        "Complete the `@path` before the cursor from the working directory (several fit: listed, and each further Tab puts the next in place); in the palette, the chosen command or argument.",
    ),
    (
        Action::ExternalEditor,
        "Edit the draft in $VISUAL or $EDITOR (else vi); the saved file becomes the draft.",
    ),
    (
        Action::ToggleThinking,
        "Show thinking in full, or collapse it to one line (the default).",
    ),
    (
        Action::ToggleFollow,
        "Observing another writer's session: follow its new records live, or hold the view where it is.",
    ),
    (
        Action::Help,
        "Show every command and key binding; Esc closes it.",
    ),
    (
        Action::Search,
        "Search the whole transcript, also history not yet shown (case ignored; matches highlighted). Type to search from the newest; Enter, Up or Ctrl+R go to the older match, Down to the newer; Esc closes the search and leaves the view there.",
    ),
    (
        Action::HistorySearch,
        "Search the input history (the session's prompts, what this run sent or cleared) as you type, newest first, case ignored; the match stands in the draft, the cursor on what matched. Again (or Up) for an older match, Down for a newer one; Enter or Tab takes it into the draft to edit or send; Esc puts the draft back as it was.",
    ),
    (
        Action::TogglePlan,
        "Hide the plan's panel above the input, or show it again. The plan is the checklist the model keeps with its todo_write tool for multi-step work: ✓ done, ▸ in progress, ○ to do; a plan whose steps are all done folds to one line, and on a short screen the panel gives way to the palette, searches and hints.",
    ),
    (
        Action::PasteImage,
        "Paste the image the system clipboard holds (a screenshot, a copied picture) into the draft as a chip `[image · W×H PNG, SIZE]`; it is sent with the draft (the text says `[image K]` where it stood), to a model that takes images (one that does not refuses the input, nothing written). Text is pasted with the terminal's own paste key.",
    ),
    (
        Action::Select,
        "Select an entry (the newest shown): Up/Down move between entries, y copies it (a message's text, a tool's full output), c copies its next code block, Enter opens it in full (a tool's whole output), Esc leaves. Copies go to the clipboard by OSC 52 where the terminal has it, else to a file whose path is shown (setting `tui.clipboard`).",
    ),
    (
        Action::Palette,
        "Open the command palette: the registered commands, filtered as you type (fuzzy), Up/Down to choose, Tab to complete, Enter to run (`/` on an empty draft opens it too).",
    ),
    (
        Action::PageUp,
        "Scroll the transcript up a page (the mouse wheel scrolls three lines); the view holds while new output arrives, and a marker says when there is new output below.",
    ),
    (
        Action::PageDown,
        "Scroll the transcript down a page; reaching the bottom follows new output again.",
    ),
    (Action::LineUp, "Scroll the transcript up a line."),
    (Action::LineDown, "Scroll the transcript down a line."),
    (
        Action::Top,
        "Scroll to the oldest line (plain Home too, while the draft is empty).",
    ),
    (
        Action::Bottom,
        "Back to the newest line: follow new output again (what the \"new output below\" marker points to; plain End too, while the draft is empty).",
    ),
    (
        Action::Interrupt,
        "While work runs: interrupt it (recorded; the draft is kept). When idle: clear the draft (Up brings it back); a second Ctrl+C leaves.",
    ),
    (
        Action::Quit,
        "Leave when the draft is empty (running work is aborted, recorded); the session stays resumable with `smith --continue`.",
    ),
];

/// The keys built into the frontend: typing, submit, scroll, abort and quit. No plugin or
/// setting rebinds them, and they stay when every product plugin is disabled.
pub const BUILT_IN: &[(&str, Action)] = &[
    ("Enter", Action::Submit),
    ("Ctrl+J", Action::Newline),
    ("Alt+Enter", Action::Newline),
    ("Shift+Enter", Action::Newline),
    ("Esc", Action::Escape),
    ("PageUp", Action::PageUp),
    ("PageDown", Action::PageDown),
    ("Shift+Up", Action::LineUp),
    ("Shift+Down", Action::LineDown),
    ("Ctrl+Home", Action::Top),
    ("Ctrl+End", Action::Bottom),
    ("Ctrl+C", Action::Interrupt),
    ("Ctrl+D", Action::Quit),
];

/// The keys of the frontend's own actions (no product-layer name): each holds its key
/// unless the product layer binds the same key, whose binding then wins.
pub const FRONTEND: &[(&str, Action)] = &[
    ("Alt+R", Action::HistorySearch),
    ("Ctrl+V", Action::PasteImage),
    ("Alt+P", Action::TogglePlan),
];

/// The built-in keys as the product layer takes them.
pub fn built_in_specs() -> Vec<(KeySpec, KeyAction)> {
    BUILT_IN
        .iter()
        .filter_map(|(k, a)| Some((KeySpec::parse(k).ok()?, a.key_action()?)))
        .collect()
}

/// What a key triggers.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Target {
    /// An action of the key table.
    Action(Action),
    /// A command, by name, run without arguments.
    Command(String),
}

/// The keys in force: each key's code and modifiers, what it triggers, and who bound it
/// (for the help: `built in`, `plugin product`, `configuration FILE:LINE`).
#[derive(Clone, Debug, Default)]
pub struct Keymap {
    entries: Vec<(KeySpec, KeyCode, KeyModifiers, Target, String)>,
}

/// A key spec as crossterm's code and modifiers.
fn event_of(spec: &KeySpec) -> (KeyCode, KeyModifiers) {
    let mut m = KeyModifiers::NONE;
    if spec.ctrl {
        m |= KeyModifiers::CONTROL;
    }
    if spec.alt {
        m |= KeyModifiers::ALT;
    }
    if spec.shift {
        m |= KeyModifiers::SHIFT;
    }
    let code = match spec.key {
        KeyName::Char(c) => KeyCode::Char(c),
        KeyName::Enter => KeyCode::Enter,
        KeyName::Esc => KeyCode::Esc,
        // Terminals send Shift+Tab as its own key (crossterm's BackTab, with Shift held).
        KeyName::Tab if spec.shift => KeyCode::BackTab,
        KeyName::Tab => KeyCode::Tab,
        KeyName::Backspace => KeyCode::Backspace,
        KeyName::Delete => KeyCode::Delete,
        KeyName::Up => KeyCode::Up,
        KeyName::Down => KeyCode::Down,
        KeyName::Left => KeyCode::Left,
        KeyName::Right => KeyCode::Right,
        KeyName::PageUp => KeyCode::PageUp,
        KeyName::PageDown => KeyCode::PageDown,
        KeyName::Home => KeyCode::Home,
        KeyName::End => KeyCode::End,
        KeyName::F(n) => KeyCode::F(n),
    };
    (code, m)
}

impl Keymap {
    /// Only the built-in keys (no product layer).
    pub fn built_in() -> Self {
        let mut map = Self::default();
        for (spec, action) in built_in_specs() {
            let (code, m) = event_of(&spec);
            map.entries.push((
                spec,
                code,
                m,
                Target::Action(Action::from_key_action(action)),
                "built in".into(),
            ));
        }
        map.add_frontend_keys();
        map
    }

    /// The frontend's own keys ([`FRONTEND`]), each where nothing binds its key yet.
    fn add_frontend_keys(&mut self) {
        for (key, action) in FRONTEND {
            let Ok(spec) = KeySpec::parse(key) else {
                continue;
            };
            let (code, m) = event_of(&spec);
            if !self
                .entries
                .iter()
                .any(|(_, c, mm, ..)| *c == code && *mm == m)
            {
                self.entries
                    .push((spec, code, m, Target::Action(*action), "built in".into()));
            }
        }
    }

    /// The bindings of `layer` (built-in keys included, as it composed them).
    pub fn from_layer(layer: &ProductLayer) -> Self {
        let entries = layer
            .bindings
            .iter()
            .map(|b| {
                let (code, m) = event_of(&b.key);
                let target = match &b.target {
                    BindingTarget::Key(a) => Target::Action(Action::from_key_action(*a)),
                    BindingTarget::Command(c) => Target::Command(c.clone()),
                };
                (b.key, code, m, target, b.origin.to_string())
            })
            .collect();
        let mut map = Self { entries };
        map.add_frontend_keys();
        map
    }

    /// What `event` triggers, if anything (key releases trigger nothing).
    pub fn target_for(&self, event: &KeyEvent) -> Option<&Target> {
        if event.kind == KeyEventKind::Release {
            return None;
        }
        let code = match event.code {
            KeyCode::Char(c) => KeyCode::Char(c.to_ascii_lowercase()),
            other => other,
        };
        // Shift on a letter with Ctrl is the same key to the table; Shift alone on text is text.
        let modifiers =
            event.modifiers & (KeyModifiers::CONTROL | KeyModifiers::ALT | KeyModifiers::SHIFT);
        self.entries
            .iter()
            .find(|(_, c, m, _, _)| *c == code && *m == modifiers)
            .map(|(_, _, _, t, _)| t)
    }

    /// The action `event` triggers, if it triggers one.
    pub fn action_for(&self, event: &KeyEvent) -> Option<Action> {
        match self.target_for(event) {
            Some(Target::Action(a)) => Some(*a),
            _ => None,
        }
    }

    /// The keys of `action`, as the help shows them (`Ctrl+S`); empty when unbound.
    pub fn keys_of(&self, action: Action) -> String {
        self.keys_where(|t| *t == Target::Action(action))
    }

    /// The keys of command `name`.
    pub fn keys_of_command(&self, name: &str) -> String {
        self.keys_where(|t| matches!(t, Target::Command(c) if c == name))
    }

    fn keys_where(&self, wanted: impl Fn(&Target) -> bool) -> String {
        self.entries
            .iter()
            .filter(|(_, _, _, t, _)| wanted(t))
            .map(|(k, ..)| k.to_string())
            .collect::<Vec<_>>()
            .join(" / ")
    }

    /// Every binding: key, target and who bound it, in binding order.
    pub fn entries(&self) -> impl Iterator<Item = (&KeySpec, &Target, &str)> {
        self.entries
            .iter()
            .map(|(k, _, _, t, o)| (k, t, o.as_str()))
    }
}

/// The key reference (Markdown), generated from the key table and the product layer
/// `layer` composes (the bundled plugins, no user settings): `docs/reference/keys.md`.
pub fn reference(layer: &ProductLayer) -> String {
    let map = Keymap::from_layer(layer);
    let mut out = String::from(
        "# Key reference\n\nEvery key binding of the terminal UI (`smith`; the guide is [tui](../tui.md)), generated from its key table (`frontends/tui/src/keys.rs`) and the bundled product plugin's bindings; the help overlay (F1) shows the same table with your own. Keys marked *built in* are the frontend's own (typing, submit, scroll, abort and quit) and cannot be rebound; the others come from the product plugin and can be changed with the `keys.*` setting (e.g. `keys { \"Ctrl+Y\" \"/compact\" }`). Any other key with no Ctrl or Alt types its character.\n\n| Keys | Action | Name | Bound by |\n| --- | --- | --- | --- |\n",
    );
    for (action, help) in ACTIONS {
        let keys = map.keys_of(*action);
        let origin = map
            .entries()
            .find(|(_, t, _)| **t == Target::Action(*action))
            .map_or("", |(_, _, o)| o);
        let keys: Vec<String> = keys
            .split(" / ")
            .filter(|k| !k.is_empty())
            .map(|k| format!("`{k}`"))
            .collect();
        out.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            if keys.is_empty() {
                "—".to_owned()
            } else {
                keys.join(", ")
            },
            help.replace('|', "\\|"),
            action
                .key_action()
                .map_or("— (the frontend's own: not bindable)".to_owned(), |a| {
                    format!("`{}`", action_name(a))
                }),
            origin
        ));
    }
    out.push_str(&format!("\nEditing keys (built in): Left/Right move by character, Ctrl+Left/Ctrl+Right (or Alt+B/Alt+F) by word, Home/End (or Ctrl+A/Ctrl+E) to the line's ends, Up/Down between lines and, on the first or last line, through the input history; Backspace and Delete remove a character, Ctrl+W (or Alt+Backspace) the word before the cursor, Ctrl+K to the end of the line, Ctrl+U the whole draft. A paste of more than {} lines or {} bytes becomes one `[paste N: L lines, SIZE]` chip that sends the whole text. Ctrl+Z, unless bound, stops smith as a shell's job control does (the terminal given back; `fg` resumes). Shift+Enter starts a new line only where the terminal reports it apart from Enter (the keyboard protocol: kitty, WezTerm, foot, Ghostty, iTerm2 with it on); elsewhere use Ctrl+J or Alt+Enter.\n",
        smith_render_terminal::input::CHIP_LINES,
        smith_render_terminal::input::CHIP_BYTES
    ));
    out.push_str(&format!("\nThe mouse: {MOUSE}\n"));
    out
}

/// What the mouse does, and how to select text with it: for the help overlay and the key
/// reference (where people look for "select text with the mouse").
pub const MOUSE: &str = "The wheel scrolls the transcript (smith captures the mouse while it runs, unless `tui.mouse` is off). To select text with the mouse, hold Shift while dragging (most terminals let the selection through then), or start smith with `-c tui.mouse=off` (or set `tui.mouse off`) to leave the mouse to the terminal; `y` on a selected entry copies it whole.";

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn built_in_keys_parse_and_map_to_their_actions_and_every_action_has_help() {
        let map = Keymap::built_in();
        for (k, action) in BUILT_IN {
            let spec = KeySpec::parse(k).unwrap_or_else(|e| panic!("{k}: {e}"));
            let (code, m) = event_of(&spec);
            assert_eq!(
                map.action_for(&KeyEvent::new(code, m)),
                Some(*action),
                "{k}"
            );
        }
        assert_eq!(
            map.action_for(&KeyEvent::new(KeyCode::Char('a'), KeyModifiers::NONE)),
            None
        );
        assert_eq!(
            map.action_for(&KeyEvent::new(KeyCode::Char('s'), KeyModifiers::CONTROL)),
            None,
            "Ctrl+S is the product plugin's, not built in"
        );
        for a in smith_app::product::KEY_ACTIONS {
            let action = Action::from_key_action(a.1);
            assert_eq!(action.key_action(), Some(a.1));
            assert!(
                ACTIONS.iter().any(|(x, _)| *x == action),
                "{action:?} has no help"
            );
        }
    }
}
