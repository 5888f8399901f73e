//! The session verbs that read or move the UI rather than write the session: going to
//! another session (new, attach, fork, replay, back from a replay) and the read-only ones
//! any view may run — the working tree's diff (shown in a scrollable overlay) and the export
//! of the session as JSONL. The reads run on a thread of their own, so input stays
//! responsive; what they show is redacted against the registered secrets.

use std::path::Path;

use smith_app::App;
use smith_ui_intents::NoticeLevel;

use crate::event::{Event, Events};
use crate::switch::{self, Target};
use crate::ui::Ui;

/// Where a command asks the UI to go.
#[derive(Debug, PartialEq)]
pub(crate) enum Go {
    /// A new session in the working directory.
    New,
    /// Another session, by id or unique prefix.
    Attach(String),
    /// A fork of this session at an entry (none: its branch tip).
    Fork(Option<String>),
    /// A replay of this session (a turn range).
    Replay(Option<String>),
    /// Back to the session a replay was started from.
    Back,
}

/// What a read-only command reads.
#[derive(Debug, PartialEq)]
pub(crate) enum Read {
    /// The working tree's diff: from a snapshot or entry to now (none: the latest change).
    Diff(Option<String>),
    /// The session as JSONL, to a file (none: `SESSION.jsonl` in the working directory).
    Export(Option<String>),
}

/// The target `go` names, checked and prepared (a fork written, a new session created);
/// refused while work runs, since switching would abort it.
pub(crate) fn target(app: &App, cwd: &Path, ui: &Ui, go: Go) -> Result<Target, String> {
    if ui.running.is_some() || ui.admitting || ui.compacting {
        return Err(format!(
            "work is running in this session: {} waits until it has ended (Esc aborts it)",
            match &go {
                Go::New => "a new session",
                Go::Attach(_) => "opening another session",
                Go::Fork(_) => "a fork",
                Go::Replay(_) => "a replay",
                Go::Back => "going back",
            }
        ));
    }
    let Some((id, path)) = ui.opened.clone() else {
        return Err("no session is open".into());
    };
    match go {
        Go::New => switch::new_session(app, cwd),
        Go::Attach(wanted) => {
            // Writing it here already; a replay's or an observer's session may be opened
            // again (written, once its writer has gone).
            let current = id.to_string();
            let writing = matches!(ui.held, crate::ui::Held::Writer);
            switch::existing(app, &wanted, writing.then_some(current.as_str()))
        }
        Go::Fork(at) => switch::fork(app, &path, id, at.as_deref()),
        Go::Replay(range) => switch::replay(&path, id, range.as_deref()),
        Go::Back => match &ui.back {
            Some((id, path)) => Ok(Target::Existing {
                path: path.clone(),
                id: *id,
            }),
            None => Err("this view was not opened from another session".into()),
        },
    }
}

/// Run `read` on a thread of its own; its outcome comes back as an overlay or a notice.
pub(crate) fn read(app: &App, cwd: &Path, ui: &Ui, read: Read, events: &Events) {
    let Some((id, path)) = ui.opened.clone() else {
        return;
    };
    let events = events.clone();
    let redactor = app.secrets().map(|s| s.redactor.current()).ok();
    let redact = move |text: &str| match &redactor {
        Some(r) => r.redact(text).into_owned(),
        None => text.to_owned(),
    };
    match read {
        Read::Diff(from) => {
            let history = app.open_history(cwd);
            std::thread::spawn(move || {
                let diff = history.and_then(|h| h.diff(&path, id, from.as_deref(), None));
                match diff {
                    Ok(diff) if diff.files.is_empty() => events.send(Event::Notice(
                        NoticeLevel::Info,
                        "no difference: the working tree is as it was there".into(),
                    )),
                    Ok(diff) => events.send(Event::Overlay {
                        title: format!(
                            "Diff {}..{}",
                            &diff.from[..diff.from.len().min(12)],
                            &diff.to[..diff.to.len().min(12)]
                        ),
                        text: redact(&format!("{}\n{}", diff.stat_text(), diff.unified())),
                    }),
                    Err(e) => events.send(Event::Notice(
                        NoticeLevel::Error,
                        format!("{e}; nothing to show (`/diff ENTRY` compares the tree now with an entry's)"),
                    )),
                }
            });
        }
        Read::Export(file) => {
            let file = match file.map(|f| f.trim().to_owned()).filter(|f| !f.is_empty()) {
                Some(f) => match (f.strip_prefix("~/"), std::env::var_os("HOME")) {
                    (Some(rest), Some(home)) => Path::new(&home).join(rest),
                    _ => cwd.join(f),
                },
                None => cwd.join(format!("{id}.jsonl")),
            };
            if file.exists() {
                events.send(Event::Notice(
                    NoticeLevel::Error,
                    format!(
                        "{} exists, and an export never replaces a file: name another (/export FILE)",
                        shown(&file)
                    ),
                ));
                return;
            }
            std::thread::spawn(move || {
                match export(&path, id, &file, &redact) {
                Ok(n) => events.send(Event::Notice(
                    NoticeLevel::Info,
                    format!(
                        "exported {n} record(s) of session {id} to {} (JSONL, redacted as recorded)",
                        shown(&file)
                    ),
                )),
                Err(e) => events.send(Event::Notice(
                    NoticeLevel::Error,
                    format!(
                        "cannot export session {id} to {}: {e}; nothing was written there (name another file: /export FILE)",
                        shown(&file)
                    ),
                )),
            }
            });
        }
    }
}

/// Write every entry of session `id` (`path`) to `file` as JSONL — the records of `smith
/// sessions export`, each line redacted — through a temporary file renamed into place, so
/// an existing file is replaced whole or not at all; how many records.
fn export(
    path: &Path,
    id: smith::SessionId,
    file: &Path,
    redact: &dyn Fn(&str) -> String,
) -> Result<usize, String> {
    use smith_app::inspect::{EntryView, MAX_LIMIT, PageRequest, Record, read_page};
    use std::io::Write;
    let dir = file
        .parent()
        .filter(|d| !d.as_os_str().is_empty())
        .unwrap_or_else(|| Path::new("."));
    let mut out = tempfile::NamedTempFile::new_in(dir).map_err(|e| e.to_string())?;
    let mut cursor = None;
    let mut count = 0;
    loop {
        let page = read_page(
            path,
            id,
            PageRequest {
                limit: MAX_LIMIT,
                cursor,
                branch: false,
            },
        )
        .map_err(|e| e.to_string())?;
        for entry in &page.entries {
            let line = serde_json::to_string(&Record::Entry(EntryView::new(id, entry)))
                .map_err(|e| e.to_string())?;
            writeln!(out, "{}", redact(&line)).map_err(|e| e.to_string())?;
            count += 1;
        }
        match page.next_cursor {
            Some(next) => cursor = Some(next),
            None => break,
        }
    }
    out.as_file().sync_all().map_err(|e| e.to_string())?;
    // Never over a file that appeared meanwhile; readable as the user's files are.
    let written = out
        .persist_noclobber(file)
        .map_err(|e| match e.error.kind() {
            std::io::ErrorKind::AlreadyExists => "it exists now".to_owned(),
            _ => e.error.to_string(),
        })?;
    {
        use std::os::unix::fs::PermissionsExt;
        let _ = written.set_permissions(std::fs::Permissions::from_mode(0o644));
    }
    Ok(count)
}

/// A path for a notice: at most 120 characters (a long one is cut in the middle).
pub(crate) fn shown(path: &Path) -> String {
    let text = path.display().to_string();
    let chars: Vec<char> = text.chars().collect();
    if chars.len() <= 120 {
        return text;
    }
    let head: String = chars[..50].iter().collect();
    let tail: String = chars[chars.len() - 60..].iter().collect();
    format!("{head}…{tail}")
}
