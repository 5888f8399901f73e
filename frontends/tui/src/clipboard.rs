//! Copying stable content — an entry, a code block, a tool's output — never screen cells:
//! to the terminal's clipboard with OSC 52 where the terminal has it, otherwise to a new
//! private file whose path is shown (setting `tui.clipboard`).

use std::io::Write;

use base64::Engine;

/// The most text sent by OSC 52, in bytes: terminals drop longer sequences (xterm's and
/// tmux's limits are around 100 KB of base64); longer text goes to a file.
pub(crate) const OSC52_MOST: usize = 74_000;

/// Where copies go (`tui.clipboard`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Mode {
    /// OSC 52 when the terminal is one known to take it, else a file.
    Auto,
    /// Always OSC 52 (text longer than [`OSC52_MOST`] still goes to a file).
    Osc52,
    /// Always a file.
    File,
}

impl Mode {
    /// The mode a `tui.clipboard` value names (the schema admits only these).
    pub(crate) fn from_setting(value: Option<&str>) -> Self {
        match value {
            Some("osc52") => Self::Osc52,
            Some("file") => Self::File,
            _ => Self::Auto,
        }
    }
}

/// Whether the terminal, as its environment names it, takes OSC 52 clipboard writes:
/// tmux, kitty, WezTerm, Alacritty, foot, Ghostty, iTerm2, VS Code's terminal, Windows
/// Terminal. (xterm has it off by default, so it is not on the list.)
pub(crate) fn osc52_known(env: &dyn Fn(&str) -> Option<String>) -> bool {
    if env("TMUX").is_some_and(|v| !v.is_empty()) || env("WT_SESSION").is_some() {
        return true;
    }
    let term = env("TERM").unwrap_or_default();
    let program = env("TERM_PROGRAM").unwrap_or_default();
    ["kitty", "wezterm", "alacritty", "foot", "ghostty", "tmux"]
        .iter()
        .any(|t| term.contains(t))
        || ["iTerm.app", "WezTerm", "vscode", "ghostty", "tmux"].contains(&program.as_str())
}

/// Copy `text` (`what` names it) as `mode` says, `known` whether the terminal takes OSC 52;
/// what happened, for the hint line.
pub(crate) fn copy(text: &str, what: &str, mode: Mode, known: bool) -> String {
    let bytes = text.len();
    let osc52 = match mode {
        Mode::File => false,
        Mode::Osc52 => true,
        Mode::Auto => known,
    };
    if osc52 && bytes <= OSC52_MOST {
        let encoded = base64::engine::general_purpose::STANDARD.encode(text);
        let mut out = std::io::stdout();
        let sent = write!(out, "\x1b]52;c;{encoded}\x07").and_then(|()| out.flush());
        return match sent {
            Ok(()) => format!("copied {what} ({bytes} bytes) to the clipboard (OSC 52)"),
            Err(e) => format!("copying {what} to the clipboard failed: {e}"),
        };
    }
    let why = if !osc52 {
        match mode {
            Mode::File => "tui.clipboard is `file`".to_owned(),
            _ => "this terminal is not one known to take OSC 52; set tui.clipboard to `osc52` to use it anyway".to_owned(),
        }
    } else {
        format!("over the {OSC52_MOST} bytes OSC 52 carries")
    };
    match to_file(text) {
        Ok(path) => format!(
            "copied {what} ({bytes} bytes) to {} ({why})",
            path.display()
        ),
        Err(e) => format!(
            "copying {what} failed: a file in {} cannot be written: {e}; set TMPDIR to a writable directory",
            std::env::temp_dir().display()
        ),
    }
}

/// `text` in a new file only this user can read, kept after Smith ends.
fn to_file(text: &str) -> std::io::Result<std::path::PathBuf> {
    let mut file = tempfile::Builder::new()
        .prefix("smith-copy-")
        .suffix(".txt")
        .tempfile()?;
    file.write_all(text.as_bytes())?;
    let (_, path) = file.keep().map_err(|e| e.error)?;
    Ok(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn known_terminals_take_osc52_and_xterm_is_not_assumed_to() {
        let env = |pairs: &'static [(&'static str, &'static str)]| {
            move |k: &str| {
                pairs
                    .iter()
                    .find(|(n, _)| *n == k)
                    .map(|(_, v)| (*v).to_owned())
            }
        };
        assert!(osc52_known(&env(&[("TMUX", "/tmp/tmux-1/default,1,0")])));
        assert!(osc52_known(&env(&[("TERM", "xterm-kitty")])));
        assert!(osc52_known(&env(&[("TERM_PROGRAM", "WezTerm")])));
        assert!(!osc52_known(&env(&[("TERM", "xterm-256color")])));
        assert!(!osc52_known(&env(&[])));
    }

    #[test]
    fn a_file_copy_holds_the_exact_text_and_only_its_owner_reads_it() {
        use std::os::unix::fs::PermissionsExt;
        let text = "line one\n\ttabbed — ünïcode\n";
        let said = copy(text, "the answer", Mode::File, true);
        let path = said
            .split_whitespace()
            .find(|w| w.contains("smith-copy-"))
            .expect(&said);
        assert_eq!(std::fs::read_to_string(path).unwrap(), text);
        let mode = std::fs::metadata(path).unwrap().permissions().mode();
        assert_eq!(mode & 0o077, 0, "{mode:o}");
        assert!(said.contains("tui.clipboard is `file`"), "{said}");
        std::fs::remove_file(path).unwrap();
    }
}
