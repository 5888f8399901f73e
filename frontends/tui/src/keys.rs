//! Every key binding of the terminal UI, declared once: the action, its default keys and its
//! help text. The help overlay and the generated key reference (`docs/reference/keys.md`)
//! read this table, and the product layer will make it a plugin contribution; only typing,
//! submit, scroll, abort and quit are built in ([`Binding::built_in`]).

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind, KeyModifiers};

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
}

/// One binding: an action, the keys that trigger it, and what it does.
#[derive(Clone, Copy, Debug)]
pub struct Binding {
    /// The action.
    pub action: Action,
    /// Its default keys, as written in the reference (`Ctrl+S`, `Alt+Enter`, `PageUp`).
    pub keys: &'static [&'static str],
    /// What it does, one sentence.
    pub help: &'static str,
    /// Built into the frontend (typing, submit, scroll, abort and quit); the others become
    /// the product layer's contribution.
    pub built_in: bool,
}

/// Every binding, in the order the help shows them.
pub const BINDINGS: &[Binding] = &[
    Binding {
        action: Action::Submit,
        keys: &["Enter"],
        help: "Send the draft. While work runs it is queued as a follow-up (delivered when the model would otherwise stop).",
        built_in: true,
    },
    Binding {
        action: Action::Steer,
        keys: &["Ctrl+S"],
        help: "Queue the draft as a steer: delivered as soon as the running tool batch completes, before the next provider request. With nothing running it is sent like Enter.",
        built_in: false,
    },
    Binding {
        action: Action::Newline,
        keys: &["Ctrl+J", "Alt+Enter", "Shift+Enter"],
        help: "A line break in the draft (Shift+Enter needs a terminal with the kitty keyboard protocol).",
        built_in: true,
    },
    Binding {
        action: Action::Withdraw,
        keys: &["Alt+Up"],
        help: "Take the newest queued input back into the draft; it is withdrawn (recorded) and never delivered.",
        built_in: false,
    },
    Binding {
        action: Action::Escape,
        keys: &["Esc"],
        help: "Close the top overlay; else clear the draft (Up brings it back); else abort the running work (recorded in the session).",
        built_in: true,
    },
    Binding {
        action: Action::Complete,
        keys: &["Tab"],
        help: "Complete the `@path` before the cursor from the working directory (several fit: listed, and each further Tab puts the next in place).",
        built_in: false,
    },
    Binding {
        action: Action::ExternalEditor,
        keys: &["Ctrl+G"],
        help: "Edit the draft in $VISUAL or $EDITOR (else vi); the saved file becomes the draft.",
        built_in: false,
    },
    Binding {
        action: Action::ToggleThinking,
        keys: &["Ctrl+T"],
        help: "Show thinking in full, or collapse it to one line (the default).",
        built_in: false,
    },
    Binding {
        action: Action::ToggleFollow,
        keys: &["Ctrl+F"],
        help: "Observing another writer's session: follow its new records live, or hold the view where it is.",
        built_in: false,
    },
    Binding {
        action: Action::Help,
        keys: &["F1"],
        help: "Show every key binding; Esc closes it.",
        built_in: false,
    },
    Binding {
        action: Action::Search,
        keys: &["Ctrl+R"],
        help: "Search the whole transcript, also history not yet shown (case ignored; matches highlighted). Type to search from the newest; Enter, Up or Ctrl+R go to the older match, Down to the newer; Esc closes the search and leaves the view there.",
        built_in: false,
    },
    Binding {
        action: Action::Select,
        keys: &["Ctrl+O"],
        help: "Select an entry (the newest shown): Up/Down move between entries, y copies it (a message's text, a tool's full output), c copies its next code block, Enter opens it in full (a tool's whole output), Esc leaves. Copies go to the clipboard by OSC 52 where the terminal has it, else to a file whose path is shown (setting `tui.clipboard`).",
        built_in: false,
    },
    Binding {
        action: Action::PageUp,
        keys: &["PageUp"],
        help: "Scroll the transcript up a page (the mouse wheel scrolls three lines); the view holds while new output arrives, and a marker says when there is new output below.",
        built_in: true,
    },
    Binding {
        action: Action::PageDown,
        keys: &["PageDown"],
        help: "Scroll the transcript down a page; reaching the bottom follows new output again.",
        built_in: true,
    },
    Binding {
        action: Action::LineUp,
        keys: &["Shift+Up"],
        help: "Scroll the transcript up a line.",
        built_in: true,
    },
    Binding {
        action: Action::LineDown,
        keys: &["Shift+Down"],
        help: "Scroll the transcript down a line.",
        built_in: true,
    },
    Binding {
        action: Action::Top,
        keys: &["Ctrl+Home"],
        help: "Scroll to the oldest line (plain Home too, while the draft is empty).",
        built_in: true,
    },
    Binding {
        action: Action::Bottom,
        keys: &["Ctrl+End"],
        help: "Back to the newest line: follow new output again (what the \"new output below\" marker points to; plain End too, while the draft is empty).",
        built_in: true,
    },
    Binding {
        action: Action::Interrupt,
        keys: &["Ctrl+C"],
        help: "Clear the draft (Up brings it back); a second Ctrl+C leaves (aborting running work, recorded).",
        built_in: true,
    },
    Binding {
        action: Action::Quit,
        keys: &["Ctrl+D"],
        help: "Leave when the draft is empty (running work is aborted, recorded); the session stays resumable with `smith --continue`.",
        built_in: true,
    },
];

/// A key as the table writes it, parsed: its code and modifiers.
fn parse(key: &str) -> Option<(KeyCode, KeyModifiers)> {
    let mut modifiers = KeyModifiers::NONE;
    let mut rest = key;
    loop {
        if let Some(r) = rest.strip_prefix("Ctrl+") {
            modifiers |= KeyModifiers::CONTROL;
            rest = r;
        } else if let Some(r) = rest.strip_prefix("Alt+") {
            modifiers |= KeyModifiers::ALT;
            rest = r;
        } else if let Some(r) = rest.strip_prefix("Shift+") {
            modifiers |= KeyModifiers::SHIFT;
            rest = r;
        } else {
            break;
        }
    }
    let code = match rest {
        "Enter" => KeyCode::Enter,
        "Esc" => KeyCode::Esc,
        "Tab" => KeyCode::Tab,
        "Up" => KeyCode::Up,
        "Down" => KeyCode::Down,
        "PageUp" => KeyCode::PageUp,
        "PageDown" => KeyCode::PageDown,
        "Home" => KeyCode::Home,
        "End" => KeyCode::End,
        f if f.starts_with('F') && f.len() > 1 => KeyCode::F(f[1..].parse().ok()?),
        c if c.chars().count() == 1 => KeyCode::Char(c.chars().next()?.to_ascii_lowercase()),
        _ => return None,
    };
    Some((code, modifiers))
}

/// The action `event` triggers, if any (key releases trigger none).
pub fn action_for(event: &KeyEvent) -> Option<Action> {
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
    BINDINGS.iter().find_map(|b| {
        b.keys
            .iter()
            .filter_map(|k| parse(k))
            .any(|(c, m)| c == code && m == modifiers)
            .then_some(b.action)
    })
}

/// The keys of `action`, as the help shows them (`Ctrl+S`).
pub fn keys_of(action: Action) -> String {
    BINDINGS
        .iter()
        .find(|b| b.action == action)
        .map(|b| b.keys.join(" / "))
        .unwrap_or_default()
}

/// The key reference (Markdown), generated from [`BINDINGS`]: `docs/reference/keys.md`.
pub fn reference() -> String {
    let mut out = String::from(
        "# Key reference\n\nEvery key binding of the terminal UI (`smith`; the guide is [tui](../tui.md)), generated from its key table (`frontends/tui/src/keys.rs`); the help overlay (F1) shows the same table. Keys marked *built in* are the frontend's own (typing, submit, scroll, abort and quit); the others are the product layer's default contribution. Any other key with no Ctrl or Alt types its character.\n\n| Keys | Action | Built in |\n| --- | --- | --- |\n",
    );
    for b in BINDINGS {
        let keys: Vec<String> = b.keys.iter().map(|k| format!("`{k}`")).collect();
        out.push_str(&format!(
            "| {} | {} | {} |\n",
            keys.join(", "),
            b.help.replace('|', "\\|"),
            if b.built_in { "yes" } else { "" }
        ));
    }
    out.push_str("\nEditing keys (built in): Left/Right move by character, Ctrl+Left/Ctrl+Right (or Alt+B/Alt+F) by word, Home/End (or Ctrl+A/Ctrl+E) to the line's ends, Up/Down between lines and, on the first or last line, through the input history; Backspace and Delete remove a character, Ctrl+W (or Alt+Backspace) the word before the cursor, Ctrl+K to the end of the line, Ctrl+U the whole draft. A paste of more than 50 lines or 8 KiB becomes one `[paste N: L lines]` chip that sends the whole text.\n");
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_key_in_the_table_parses_and_maps_to_its_own_action() {
        for b in BINDINGS {
            for k in b.keys {
                let (code, modifiers) = parse(k).unwrap_or_else(|| panic!("{k} does not parse"));
                let event = KeyEvent::new(code, modifiers);
                assert_eq!(action_for(&event), Some(b.action), "{k}");
            }
        }
        assert_eq!(
            action_for(&KeyEvent::new(KeyCode::Char('a'), KeyModifiers::NONE)),
            None
        );
        assert_eq!(
            action_for(&KeyEvent::new(
                KeyCode::Char('S'),
                KeyModifiers::CONTROL | KeyModifiers::SHIFT
            )),
            None,
            "Ctrl+Shift+S is not Ctrl+S"
        );
    }

    #[test]
    fn no_key_is_bound_twice() {
        let mut seen = std::collections::HashSet::new();
        for b in BINDINGS {
            for k in b.keys {
                assert!(seen.insert(parse(k)), "{k} is bound twice");
            }
        }
    }
}
