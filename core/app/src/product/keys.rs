//! Keys as the key reference writes them (`Ctrl+S`, `Alt+Up`, `F1`, `Shift+Enter`, `Ctrl+Y`),
//! parsed into a frontend-neutral form the terminal UI maps onto its key events.

use std::fmt;

/// A key without modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub enum KeyName {
    /// A character key, lowercase (`Ctrl+Y` and `Ctrl+y` are the same key).
    Char(char),
    /// Enter (Return).
    Enter,
    /// Escape.
    Esc,
    /// Tab.
    Tab,
    /// Backspace.
    Backspace,
    /// Delete.
    Delete,
    /// Arrow up.
    Up,
    /// Arrow down.
    Down,
    /// Arrow left.
    Left,
    /// Arrow right.
    Right,
    /// Page up.
    PageUp,
    /// Page down.
    PageDown,
    /// Home.
    Home,
    /// End.
    End,
    /// A function key, `F1`–`F24`.
    F(u8),
}

/// A key with its modifiers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct KeySpec {
    /// Ctrl held.
    pub ctrl: bool,
    /// Alt (Option, Meta) held.
    pub alt: bool,
    /// Shift held.
    pub shift: bool,
    /// The key.
    pub key: KeyName,
}

const NAMED: &[(&str, KeyName)] = &[
    ("Enter", KeyName::Enter),
    ("Esc", KeyName::Esc),
    ("Tab", KeyName::Tab),
    ("Backspace", KeyName::Backspace),
    ("Delete", KeyName::Delete),
    ("Up", KeyName::Up),
    ("Down", KeyName::Down),
    ("Left", KeyName::Left),
    ("Right", KeyName::Right),
    ("PageUp", KeyName::PageUp),
    ("PageDown", KeyName::PageDown),
    ("Home", KeyName::Home),
    ("End", KeyName::End),
];

/// Why a key does not parse.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "`{key}` is not a key: {why}; write modifiers Ctrl+, Alt+, Shift+ then one character or a key name (Enter, Esc, Tab, Backspace, Delete, Up, Down, Left, Right, PageUp, PageDown, Home, End, F1–F24), e.g. `Ctrl+Y` or `Alt+Up`"
)]
pub struct KeyError {
    /// The text given.
    pub key: String,
    /// What is wrong.
    pub why: &'static str,
}

impl KeySpec {
    /// Parse `text` (`Ctrl+Alt+X`; modifier names case-insensitive, key names as listed).
    ///
    /// # Errors
    /// [`KeyError`] naming the text.
    pub fn parse(text: &str) -> Result<Self, KeyError> {
        let bad = |why| KeyError {
            key: text.to_owned(),
            why,
        };
        let (mut ctrl, mut alt, mut shift) = (false, false, false);
        let mut rest = text;
        while let Some((head, tail)) = rest.split_once('+') {
            if tail.is_empty() {
                if !head.is_empty() {
                    return Err(bad("no key after the modifiers"));
                }
                // `Ctrl++`: the `+` key itself.
                break;
            }
            let flag = match head.to_ascii_lowercase().as_str() {
                "ctrl" | "control" => &mut ctrl,
                "alt" | "meta" | "option" => &mut alt,
                "shift" => &mut shift,
                _ => return Err(bad("an unknown modifier")),
            };
            if *flag {
                return Err(bad("a modifier given twice"));
            }
            *flag = true;
            rest = tail;
        }
        let key = if let Some((_, k)) = NAMED.iter().find(|(n, _)| n.eq_ignore_ascii_case(rest)) {
            *k
        } else if let Some(n) = rest
            .strip_prefix(['F', 'f'])
            .filter(|n| !n.is_empty() && n.chars().all(|c| c.is_ascii_digit()))
        {
            match n.parse::<u8>() {
                Ok(n @ 1..=24) => KeyName::F(n),
                _ => return Err(bad("function keys are F1 to F24")),
            }
        } else {
            let mut chars = rest.chars();
            match (chars.next(), chars.next()) {
                (Some(c), None) if !c.is_control() && c != ' ' => {
                    KeyName::Char(c.to_ascii_lowercase())
                }
                (None, _) => return Err(bad("no key after the modifiers")),
                _ => return Err(bad("an unknown key name")),
            }
        };
        if let KeyName::Char(_) = key
            && !ctrl
            && !alt
        {
            return Err(bad(
                "a character without Ctrl or Alt types itself; bind it with Ctrl+ or Alt+",
            ));
        }
        Ok(Self {
            ctrl,
            alt,
            shift,
            key,
        })
    }
}

impl fmt::Display for KeySpec {
    /// The reference's spelling: `Ctrl+Alt+Shift+KEY`, characters in uppercase.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.ctrl {
            f.write_str("Ctrl+")?;
        }
        if self.alt {
            f.write_str("Alt+")?;
        }
        if self.shift {
            f.write_str("Shift+")?;
        }
        match self.key {
            KeyName::Char(c) => write!(f, "{}", c.to_ascii_uppercase()),
            KeyName::F(n) => write!(f, "F{n}"),
            other => {
                let name = NAMED.iter().find(|(_, k)| *k == other).map(|(n, _)| *n);
                f.write_str(name.unwrap_or("?"))
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_parse_to_one_spelling_and_bad_ones_say_why() {
        for (text, shown) in [
            ("Ctrl+S", "Ctrl+S"),
            ("ctrl+s", "Ctrl+S"),
            ("Alt+Up", "Alt+Up"),
            ("F1", "F1"),
            ("Shift+Enter", "Shift+Enter"),
            ("Ctrl+Alt+x", "Ctrl+Alt+X"),
            ("Ctrl++", "Ctrl++"),
            ("Ctrl+Home", "Ctrl+Home"),
        ] {
            assert_eq!(KeySpec::parse(text).unwrap().to_string(), shown, "{text}");
        }
        for (text, why) in [
            ("Hyper+X", "unknown modifier"),
            ("Ctrl+", "no key"),
            ("F99", "F1 to F24"),
            ("Ctrl+Banana", "unknown key name"),
            ("x", "types itself"),
            ("Shift+x", "types itself"),
            ("Ctrl+Ctrl+Q", "given twice"),
        ] {
            let e = KeySpec::parse(text).unwrap_err().to_string();
            assert!(e.contains(why) && e.contains(text), "{text}: {e}");
        }
    }
}
