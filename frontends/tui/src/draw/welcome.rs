//! The welcome of a new session: while its transcript is empty, the transcript area says
//! where the person is — the version, the working directory, the model, the permission mode
//! and the OS sandbox the first run uses — and the keys for help and for leaving.

use ratatui_core::buffer::Buffer;
use ratatui_core::layout::Rect;
use ratatui_core::text::Span;
use smith_render_terminal::Theme;
use smith_render_terminal::wrap::{Piece, wrap};

use crate::keys::Action;
use crate::ui::{Ui, Welcome};

/// Draw `welcome` at the top of `area` (the empty transcript), wrapped to its width.
pub(super) fn draw(ui: &Ui, welcome: &Welcome, t: &Theme, area: Rect, buf: &mut Buffer) {
    let cwd = tilde(&ui.cwd, std::env::var_os("HOME").as_deref());
    let keys = |action: Action, what: &str| {
        let keys = ui.keymap.keys_of(action);
        (!keys.is_empty()).then(|| format!("{keys} {what}"))
    };
    let hints: Vec<String> = [
        keys(Action::Help, "shows the keys"),
        Some("/ opens the commands".to_owned()),
        keys(Action::HistorySearch, "searches your prompts"),
        keys(Action::Quit, "quits"),
    ]
    .into_iter()
    .flatten()
    .collect();
    let paragraphs: [Vec<Piece>; 3] = [
        vec![
            Piece::new(format!("smith {}", env!("CARGO_PKG_VERSION")), t.heading),
            Piece::new(" in ", t.dim),
            Piece::new(super::sanitize(&cwd).into_owned(), t.user),
        ],
        vec![Piece::new(
            format!(
                "model {} · permission mode {} · sandbox {}",
                super::sanitize(&welcome.model),
                welcome.permission_mode,
                welcome.sandbox
            ),
            t.dim,
        )],
        vec![Piece::new(hints.join(" · "), t.dim)],
    ];
    let lead = [Span::raw(" ")];
    let mut y = area.y.saturating_add(1);
    for pieces in &paragraphs {
        for line in wrap(pieces, area.width, &lead, &lead) {
            if y >= area.y + area.height {
                return;
            }
            super::line(buf, area, y, line.spans);
            y += 1;
        }
    }
}

/// `path` as a person reads it, the home directory `home` written `~` (`~/src/app`).
fn tilde(path: &std::path::Path, home: Option<&std::ffi::OsStr>) -> String {
    let home = home.filter(|h| !h.is_empty()).map(std::path::Path::new);
    match home.and_then(|h| path.strip_prefix(h).ok()) {
        Some(rest) if rest.as_os_str().is_empty() => "~".to_owned(),
        Some(rest) => format!("~/{}", rest.display()),
        None => path.display().to_string(),
    }
}

#[cfg(test)]
mod tests {
    use std::ffi::OsStr;
    use std::path::Path;

    #[test]
    fn the_home_directory_is_written_as_a_tilde() {
        let home = Some(OsStr::new("/home/ada"));
        assert_eq!(
            super::tilde(Path::new("/home/ada/src/app"), home),
            "~/src/app"
        );
        assert_eq!(super::tilde(Path::new("/home/ada"), home), "~");
        assert_eq!(
            super::tilde(Path::new("/home/adam/x"), home),
            "/home/adam/x"
        );
        assert_eq!(super::tilde(Path::new("/srv/x"), None), "/srv/x");
        assert_eq!(
            super::tilde(Path::new("/srv/x"), Some(OsStr::new(""))),
            "/srv/x"
        );
    }
}
