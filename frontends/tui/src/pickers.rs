//! The pickers Rust supplies over the transcript — sessions (resume), the session's branches,
//! the plugins — as one overlay: a query filtering the rows fuzzily (nucleo), Up/Down to
//! choose, Enter to act, Esc to close. Their rows are read on a thread of their own and
//! arrive in batches: the sessions stream as they are summarized, newest first, so the first
//! rows show long before every session is read.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};
use smith::EntryId;
use smith_app::App;

use crate::event::{Event, Events};

/// Which picker.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// Sessions: of this directory, or (`all`) of every directory.
    Sessions { all: bool },
    /// The branches of this session, as a tree of its messages.
    Branches,
    /// The known plugins.
    Plugins,
    /// The themes of the product layer (`/theme` without a name).
    Themes,
    /// The session's effects of unknown outcome, offered for a verdict (after a recovery):
    /// the query is the verdict's note, not a filter.
    Effects,
}

/// What a branches row acts on.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Branch {
    /// The leaf selecting it continues.
    pub(crate) tip: EntryId,
    /// Where an edit of the message starts its new branch.
    pub(crate) destination: Option<EntryId>,
    /// The message's entry.
    pub(crate) entry: EntryId,
    /// The whole message (the edit starts from it).
    pub(crate) input: String,
}

/// One row.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Row {
    /// What choosing it acts on: a session id, a plugin id, an entry id.
    pub(crate) key: String,
    /// What it is (a title, a message's first line, a plugin id).
    pub(crate) label: String,
    /// About it (time, model, size; grants; entry and model).
    pub(crate) detail: String,
    /// How far it is indented (a branch's depth).
    pub(crate) depth: usize,
    /// It is current: this session, the selected branch, an enabled plugin.
    pub(crate) marked: bool,
    /// A branches row's targets.
    pub(crate) branch: Option<Branch>,
}

/// An open picker.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Picker {
    pub(crate) kind: Kind,
    /// The listing its rows come from (a later one supersedes it).
    pub(crate) request: u64,
    /// What filters the rows, as typed.
    pub(crate) query: String,
    /// Every row read so far.
    pub(crate) rows: Vec<Row>,
    /// The chosen row, an index into [`Picker::shown`].
    pub(crate) chosen: usize,
    /// More rows are being read.
    pub(crate) loading: bool,
    /// Why the rows could not be read.
    pub(crate) error: Option<String>,
    /// The effects picker: the effect whose verdict is being recorded (its note kept until the
    /// rows read again show it recorded).
    pub(crate) pending: Option<String>,
    /// Where the query's cursor is, in characters before its end (0: at the end, where typing
    /// goes unless Left moved it).
    pub(crate) back: usize,
}

impl Picker {
    /// A picker of `kind` waiting for listing `request`.
    pub(crate) fn new(kind: Kind, request: u64) -> Self {
        Self {
            kind,
            request,
            query: String::new(),
            rows: Vec::new(),
            chosen: 0,
            loading: true,
            error: None,
            pending: None,
            back: 0,
        }
    }

    /// The cursor's byte offset in the query.
    pub(crate) fn cursor(&self) -> usize {
        match self.back {
            0 => self.query.len(),
            back => self
                .query
                .char_indices()
                .rev()
                .nth(back - 1)
                .map_or(0, |(at, _)| at),
        }
    }

    /// Insert `text` at the cursor (which stays after it).
    pub(crate) fn insert(&mut self, text: &str) {
        let at = self.cursor();
        self.query.insert_str(at, text);
    }

    /// Backspace: the character before the cursor goes.
    pub(crate) fn delete_back(&mut self) {
        let at = self.cursor();
        if let Some((before, _)) = self.query[..at].char_indices().next_back() {
            self.query.remove(before);
        }
    }

    /// Delete: the character after the cursor goes.
    pub(crate) fn delete_forward(&mut self) {
        let at = self.cursor();
        if at < self.query.len() {
            self.query.remove(at);
            self.back -= 1;
        }
    }

    /// Left (`true`) or Right: the cursor moves one character.
    pub(crate) fn move_cursor(&mut self, left: bool) {
        if left {
            self.back = (self.back + 1).min(self.query.chars().count());
        } else {
            self.back = self.back.saturating_sub(1);
        }
    }

    /// The query emptied, the cursor at its end.
    pub(crate) fn clear_query(&mut self) {
        self.query.clear();
        self.back = 0;
    }

    /// The rows the query keeps (over their labels and keys), best first (all, in order, for
    /// an empty query), as indices into [`Picker::rows`]. Rows whose label holds every word of
    /// the query (ignoring case) are kept and no others — those whose label holds the whole
    /// query as typed, or whose key starts with it, first,
    /// each group in listing order (for sessions, the most recent first); only when no row
    /// holds every word does the match go fuzzy (nucleo), best score first.
    pub(crate) fn shown(&self) -> Vec<usize> {
        if self.query.trim().is_empty() || self.kind == Kind::Effects {
            return (0..self.rows.len()).collect();
        }
        // The label, and the key (a session id, an entry id) by its start: the details'
        // dates and sizes, or digits inside an id, would make every number match.
        let labels: Vec<String> = self.rows.iter().map(|r| r.label.to_lowercase()).collect();
        let query = self.query.trim().to_lowercase();
        let words: Vec<&str> = query.split_whitespace().collect();
        let (mut whole, mut every) = (Vec::new(), Vec::new());
        for (i, label) in labels.iter().enumerate() {
            if label.contains(&query) || self.rows[i].key.to_lowercase().starts_with(&query) {
                whole.push(i);
            } else if words.iter().all(|w| label.contains(w)) {
                every.push(i);
            }
        }
        if !whole.is_empty() || !every.is_empty() {
            whole.extend(every);
            return whole;
        }
        let pattern = Pattern::parse(&self.query, CaseMatching::Ignore, Normalization::Smart);
        let mut matcher = Matcher::new(Config::DEFAULT);
        let mut buf = Vec::new();
        let mut scored: Vec<(u32, usize)> = self
            .rows
            .iter()
            .enumerate()
            .filter_map(|(i, r)| {
                let text = format!("{} {}", r.label, r.key);
                pattern
                    .score(Utf32Str::new(&text, &mut buf), &mut matcher)
                    .map(|s| (s, i))
            })
            .collect();
        scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
        scored.into_iter().map(|(_, i)| i).collect()
    }

    /// The chosen row, if any is shown.
    pub(crate) fn chosen_row(&self) -> Option<&Row> {
        let shown = self.shown();
        let i = *shown.get(self.chosen.min(shown.len().saturating_sub(1)))?;
        self.rows.get(i)
    }

    /// Its title.
    pub(crate) fn title(&self) -> &'static str {
        match self.kind {
            Kind::Sessions { all: false } => "Sessions of this directory",
            Kind::Sessions { all: true } => "Sessions of every directory",
            Kind::Branches => "Branches",
            Kind::Plugins => "Plugins",
            Kind::Themes => "Themes",
            Kind::Effects => "Effects of unknown outcome: did they take effect?",
        }
    }

    /// What precedes the query on its line.
    pub(crate) fn prompt(&self) -> &'static str {
        match self.kind {
            Kind::Effects => " note › ",
            _ => " › ",
        }
    }

    /// What its keys do, for its footer.
    pub(crate) fn keys(&self) -> &'static str {
        match self.kind {
            Kind::Sessions { all: false } => "Enter opens · Tab: every directory · Esc closes",
            Kind::Sessions { all: true } => "Enter opens · Tab: this directory · Esc closes",
            Kind::Branches => {
                "Enter continues that branch · Ctrl+E edits the message into a new branch · Esc closes"
            }
            Kind::Plugins => "Enter enables or disables it for this process · Esc closes",
            Kind::Themes => "Enter uses it for this process · Esc closes",
            Kind::Effects => {
                "type a note · Ctrl+A: it took effect · Ctrl+N: it did not · Esc leaves them unknown"
            }
        }
    }
}

/// A batch of rows for listing `request`.
#[derive(Debug)]
pub(crate) struct Listed {
    pub(crate) request: u64,
    /// The rows (appended to those before), or why none could be read.
    pub(crate) rows: Result<Vec<Row>, String>,
    /// The last batch.
    pub(crate) done: bool,
}

/// Rows the first batch of sessions carries (what fills a screen); later batches are larger.
const FIRST_BATCH: usize = 24;
const BATCH: usize = 256;

/// Start reading the rows of `kind` as listing `request`; `current` is the request still
/// wanted (a reader whose request it no longer is stops).
pub(crate) fn start(
    app: &Arc<App>,
    cwd: &Path,
    opened: Option<(smith::SessionId, PathBuf)>,
    kind: Kind,
    (request, current): (u64, Arc<AtomicU64>),
    events: &Events,
) {
    let events = events.clone();
    let app = Arc::clone(app);
    let cwd = cwd.to_owned();
    std::thread::spawn(move || {
        let send = |rows, done| {
            events.send(Event::Listed(Listed {
                request,
                rows,
                done,
            }));
        };
        match kind {
            Kind::Sessions { all } => {
                let this = opened.as_ref().map(|(id, _)| *id);
                sessions(
                    &app,
                    &cwd,
                    all,
                    this,
                    &|| current.load(Ordering::Acquire) == request,
                    &send,
                );
            }
            Kind::Branches => {
                let rows = match opened {
                    Some((_, path)) => branch_rows(&path),
                    None => Err("no session is open".into()),
                };
                send(rows, true);
            }
            Kind::Plugins => send(Ok(plugin_rows(&app, &cwd)), true),
            // Listed by the UI itself: from its product layer (`Ui::open_picker`), from the
            // work thread's reading (`Ui::unknown_effects`).
            Kind::Themes | Kind::Effects => {}
        }
    });
}

/// Stream the sessions, most recently written first: each summarized through its index
/// (never decoded whole), sent in batches, until `wanted` says stop.
fn sessions(
    app: &App,
    cwd: &Path,
    all: bool,
    this: Option<smith::SessionId>,
    wanted: &dyn Fn() -> bool,
    send: &dyn Fn(Result<Vec<Row>, String>, bool),
) {
    let store = match app.sessions() {
        Ok(s) => s,
        Err(e) => return send(Err(e.to_string()), true),
    };
    let mut found = match store.list() {
        Ok(f) => f,
        Err(e) => {
            return send(
                Err(format!("cannot list {}: {e}", store.dir().display())),
                true,
            );
        }
    };
    // Most recently written first (a stat each; the files are not read for it).
    let mut dated: Vec<(std::time::SystemTime, smith::SessionId, PathBuf)> = found
        .drain(..)
        .map(|(id, path)| {
            let at = std::fs::metadata(&path)
                .and_then(|m| m.modified())
                .unwrap_or(std::time::UNIX_EPOCH);
            (at, id, path)
        })
        .collect();
    dated.sort_by(|a, b| b.0.cmp(&a.0).then(b.1.cmp(&a.1)));
    let here = cwd.to_str().map(str::to_owned);
    let mut batch = Vec::new();
    let mut first = true;
    for (_, id, path) in dated {
        if !wanted() {
            return;
        }
        let Ok(summary) = smith_app::inspect::summarize(id, &path) else {
            continue;
        };
        if !all && summary.cwd != here {
            continue;
        }
        // The session open here with nothing sent is not one to go back to.
        if this == Some(id) && summary.title.is_none() {
            continue;
        }
        batch.push(session_row(&summary, this == Some(id), all));
        if batch.len() >= if first { FIRST_BATCH } else { BATCH } {
            first = false;
            send(Ok(std::mem::take(&mut batch)), false);
        }
    }
    send(Ok(batch), true);
}

fn session_row(s: &smith_app::inspect::SessionSummary, this: bool, all: bool) -> Row {
    let when = s
        .modified_ms
        .or(s.created_ms)
        .map_or_else(|| "-".to_owned(), minutes);
    let id = s.id.to_string();
    let mut detail = format!(
        "{when} · {} · {} · {}",
        s.last_model.as_deref().unwrap_or("no model yet"),
        size(s.bytes),
        id.get(..13).unwrap_or(&id)
    );
    if all {
        detail.push_str(&format!(" · {}", s.cwd.as_deref().unwrap_or("-")));
    }
    Row {
        key: s.id.to_string(),
        label: s
            .title
            .clone()
            .unwrap_or_else(|| "(nothing sent yet)".to_owned()),
        detail,
        depth: 0,
        marked: this,
        branch: None,
    }
}

/// `YYYY-MM-DD HH:MM` UTC for milliseconds since the epoch.
fn minutes(ms: u64) -> String {
    let mut t = smith_app::inspect::format_utc(ms);
    t.truncate(16);
    t
}

/// Bytes as a person reads them: `812 B`, `12 KB`, `3.4 MB`.
fn size(bytes: u64) -> String {
    match bytes {
        b if b < 1024 => format!("{b} B"),
        b if b < 1024 * 1024 => format!("{} KB", b / 1024),
        b => format!("{:.1} MB", b as f64 / (1024.0 * 1024.0)),
    }
}

fn branch_rows(path: &Path) -> Result<Vec<Row>, String> {
    let tree = smith_app::inspect::branches(path).map_err(|e| e.to_string())?;
    Ok(tree
        .nodes
        .into_iter()
        .map(|n| Row {
            key: n.entry.0.to_string(),
            label: n
                .input
                .lines()
                .map(str::trim)
                .find(|l| !l.is_empty())
                .unwrap_or("")
                .to_owned(),
            detail: format!(
                "{}entry {} · {} · {}",
                match (n.forks, n.destination) {
                    (true, Some(d)) => format!("branches at entry {} · ", d.0),
                    _ => String::new(),
                },
                n.entry.0,
                n.model,
                minutes(u64::try_from(n.timestamp_ms).unwrap_or(0))
            ),
            depth: n.depth,
            marked: n.selected,
            branch: Some(Branch {
                tip: n.tip,
                destination: n.destination,
                entry: n.entry,
                input: n.input,
            }),
        })
        .collect())
}

fn plugin_rows(app: &App, cwd: &Path) -> Vec<Row> {
    let policy = app.policy(cwd, &|r| r.to_string()).ok();
    app.registry
        .plugins()
        .iter()
        .map(|p| {
            let m = &p.manifest;
            let disabled = app.registry.disabled_by(p);
            let grants = if m.grants.is_empty() {
                "no grants".to_owned()
            } else {
                let mut g: Vec<String> = m.grants.iter().map(ToString::to_string).collect();
                let refused = policy.as_ref().is_some_and(|policy| {
                    smith_app::catalog::plugin_record(&app.registry, p, &policy.process)
                        .get("refused_grants")
                        .is_some()
                });
                if refused {
                    g.push("(process.exec refused in this directory)".into());
                }
                format!("grants {}", g.join(", "))
            };
            let state = match &disabled {
                Some(by) => format!("disabled by {by}"),
                None => "enabled".to_owned(),
            };
            Row {
                key: m.id.clone(),
                label: format!("{} {}", m.id, m.version),
                detail: format!("{state} · {} · {grants}", m.built_world()),
                depth: 0,
                marked: disabled.is_none(),
                branch: None,
            }
        })
        .collect()
}

/// A row of the effects picker: what the effect did and to what, its call, what was recorded
/// (the evidence's words), and the verdict recorded on it (marked then).
pub(crate) fn effect_row(e: &smith_app::verdicts::UnknownEffect) -> Row {
    let flat = |text: &str| text.split_whitespace().collect::<Vec<_>>().join(" ");
    let target = e
        .target
        .clone()
        .unwrap_or_else(|| flat(&e.input.to_string()));
    let verdict = match &e.verdict {
        Some(v) if v.note.is_empty() => format!("verdict: {}", v.outcome.as_str()),
        Some(v) => format!("verdict: {} — {}", v.outcome.as_str(), flat(&v.note)),
        None => "no verdict yet".to_owned(),
    };
    let recorded = e
        .output
        .as_deref()
        .map_or("no completion".to_owned(), &flat);
    // What it was asked to do tells two effects of one kind apart (the command of a program).
    let asked = if e.input.is_null() {
        String::new()
    } else {
        format!("asked {} · ", flat(&e.input.to_string()))
    };
    Row {
        key: e.address.clone(),
        label: format!("{} {}", e.effect, flat(&target)),
        detail: format!("{verdict} · {asked}call {} · {recorded}", e.call_id),
        depth: 0,
        marked: e.verdict.is_some(),
        branch: None,
    }
}
