//! `smith` with no subcommand: the fullscreen terminal UI over the shared runtime (spec:
//! Terminal interface; Interface modes → Interactive; DESIGN §10). Built on the composition
//! root ([`smith_app`]) and the agent's verbs like every frontend, with no agent loop of its
//! own.
//!
//! Threads: **input** (crossterm's reader; never blocked by anything else), **work** (owns
//! the session and runs each turn through the agent's `submit`: `work`), the **storage
//! worker** (history and observation read from the file: [`history`]) and the **render
//! loop** here, which folds what they send into the UI state (`ui`) and draws a frame only
//! when something changed — only the changed cells reach the terminal (ratatui's buffer
//! diff), each frame inside synchronized output when the terminal has it. Live intents reach
//! the loop through a bounded subscriber queue that never makes the agent wait.
//!
//! The terminal guard (`guard`) restores every mode on every exit path: quit, error, panic,
//! SIGINT/TERM/HUP/QUIT, a lost terminal. Capabilities are probed within 100 ms ([`caps`]);
//! keys are declared once ([`keys`]).

pub mod caps;
mod clipboard;
mod commands;
pub mod complete;
mod draw;
mod event;
mod go;
mod guard;
#[doc(hidden)]
pub mod headless;
pub mod history;
pub mod keys;
mod layers;
mod palette;
mod paste_image;
mod pickers;
mod question_view;
mod replay;
mod switch;
mod themes;
mod ui;
mod view;
mod work;

use std::path::PathBuf;
use std::sync::{Arc, Condvar, Mutex};
use std::time::Duration;

use ratatui_core::terminal::Terminal;
use ratatui_crossterm::CrosstermBackend;
use smith::SessionId;
use smith_app::App;
use smith_render_terminal::Theme;
use smith_ui_intents::NoticeLevel;

use event::{Event, Events};
use ui::{Held, Ui};

/// How the session was opened.
#[derive(Debug)]
pub enum Opening {
    /// This process writes it, through the runner that owns it (a session the runner created
    /// and nothing was submitted to is removed when the UI leaves it, so opening and quitting
    /// leaves no empty session for `--continue`).
    Writer {
        /// The runner.
        runner: Box<smith_app::Runner>,
    },
    /// Another process writes it: the UI observes it, read-only.
    Observer {
        /// The session file.
        path: PathBuf,
        /// Its id.
        id: SessionId,
    },
    /// A replay of a recorded session (`smith replay --tui`): its runs as they showed,
    /// rebuilt from the file at the options' pace, read-only; nothing runs.
    Replay {
        /// The session file.
        path: PathBuf,
        /// Its id.
        id: SessionId,
        /// What to replay, and how fast.
        options: smith_app::playback::Options,
    },
}

/// What [`run`] needs.
#[derive(Debug)]
pub struct Options {
    /// The composition root (its settings: `tui.*`, the model), shared with the runners.
    pub app: Arc<App>,
    /// Where tools run and `@path` resolves.
    pub cwd: PathBuf,
    /// The session.
    pub opening: Opening,
    /// Notes to show first (recovery of the session, settings notices), each with how much it
    /// matters.
    pub notices: Vec<(NoticeLevel, String)>,
    /// A provider script the scripted provider plays instead of its built-in one.
    pub script: Option<PathBuf>,
}

/// How the UI ended, and the session the person may come back to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Ended {
    /// How it ended.
    pub exit: Exit,
    /// The session this process wrote and left open last, when its file stays (one it
    /// created and submitted nothing to is removed) — left from a replay of it, the session
    /// the replay was opened from: what `--session ID` resumes. `None` for an observed
    /// session.
    pub resume: Option<SessionId>,
}

/// How the UI ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Exit {
    /// The person left (the quit key, Ctrl+C twice).
    Quit,
    /// A signal ended it (its number): running work was aborted, recorded.
    Signal(i32),
    /// The terminal went away (input could not be read).
    TerminalLost,
}

/// Why the UI could not run or stopped with an error. The terminal is restored either way.
#[derive(Debug, thiserror::Error)]
pub enum TuiError {
    /// The terminal refused a mode or a write.
    #[error("the terminal failed: {0}")]
    Terminal(#[from] std::io::Error),
    /// A product setting (`keys.*`, `theme.*.*`, `tui.theme`, `tui.layout`) is unusable.
    #[error("{0}")]
    Product(smith_app::product::ConfigError),
    /// The debug builds' fault hook asked for an error (`SMITH_TUI_FAULT=error`).
    #[error("the fault hook returned an error (SMITH_TUI_FAULT=error, debug builds only)")]
    Fault,
}

/// The key reference (Markdown) generated from the key table and the bundled product
/// plugin's bindings.
///
/// # Errors
/// The bundled product plugin does not load (a defect of this build).
pub fn key_reference() -> Result<String, smith_app::product::BundledError> {
    smith_app::product::bundled(&keys::built_in_specs()).map(|layer| keys::reference(&layer))
}

/// The product layer of `app` for this UI: its product plugins composed with the built-in
/// keys and the settings, and what loading them had to say. Plugins that fail to load leave
/// the built-in keys and commands (said in a notice); unusable settings are an error.
fn product_layer(
    app: &smith_app::App,
    cwd: &std::path::Path,
) -> Result<
    (
        smith_app::product::ProductLayer,
        Option<smith_app::product::Loadout>,
        Vec<String>,
    ),
    TuiError,
> {
    let built_in = keys::built_in_specs();
    match app.product(&built_in, cwd) {
        Ok((layer, loadout)) => {
            let notices = layer.notices.clone();
            Ok((layer, Some(loadout), notices))
        }
        Err(smith_app::ProductError::Config(e)) => Err(TuiError::Product(e)),
        Err(smith_app::ProductError::Registry(e)) => {
            let mut layer = smith_app::product::ProductLayer::built_in_only(&built_in);
            let (prompts, found) = app.prompt_commands(cwd);
            layer.add_prompts(prompts);
            let mut notices = vec![format!(
                "the product plugins did not load ({e}); only the built-in keys, Smith's own commands and the prompt commands are available"
            )];
            notices.extend(found);
            notices.extend(layer.notices.iter().cloned());
            Ok((layer, None, notices))
        }
    }
}

/// The session a person leaving `ui` may come back to: the one it writes, or from a replay
/// the one the replay was opened from (Esc goes back to it) — while its file stays.
fn resumable(ui: &Ui) -> Option<SessionId> {
    match (&ui.held, &ui.opened, &ui.back) {
        (Held::Writer, Some((id, path)), _) | (Held::Replay, _, Some((id, path)))
            if path.exists() =>
        {
            Some(*id)
        }
        _ => None,
    }
}

/// Restores the terminal when dropped: returned errors and unwinding restore it too.
struct Restore;

impl Drop for Restore {
    fn drop(&mut self) {
        guard::restore();
    }
}

/// Lets the render loop stop the input thread while another program owns the terminal.
#[derive(Default)]
pub(crate) struct InputGate {
    paused: Mutex<(bool, bool)>,
    changed: Condvar,
}

impl InputGate {
    fn lock(&self) -> std::sync::MutexGuard<'_, (bool, bool)> {
        self.paused
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
    }

    /// Ask the input thread to stop reading and wait until it has (`.0` asked, `.1` done).
    fn pause(&self) {
        let mut s = self.lock();
        s.0 = true;
        while !s.1 {
            s = self
                .changed
                .wait(s)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }

    fn resume(&self) {
        let mut s = self.lock();
        *s = (false, false);
        self.changed.notify_all();
    }

    /// The input thread: park while a pause is asked.
    fn park(&self) {
        let mut s = self.lock();
        if !s.0 {
            return;
        }
        s.1 = true;
        self.changed.notify_all();
        while s.0 {
            s = self
                .changed
                .wait(s)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
    }
}

fn setting(app: &App, key: &str) -> Option<String> {
    app.settings.resolved.get(key).map(|v| v.value.to_string())
}

fn spawn_input(events: Events, gate: Arc<InputGate>) {
    std::thread::spawn(move || {
        loop {
            gate.park();
            match crossterm::event::poll(Duration::from_millis(100)) {
                Ok(false) => continue,
                Ok(true) => {}
                Err(_) => {
                    events.send(Event::TerminalLost);
                    return;
                }
            }
            match crossterm::event::read() {
                Ok(e) => events.send(Event::Terminal(e)),
                Err(_) => {
                    events.send(Event::TerminalLost);
                    return;
                }
            }
        }
    });
}

fn spawn_signals(events: Events) -> std::io::Result<()> {
    use signal_hook::consts::{SIGHUP, SIGINT, SIGQUIT, SIGTERM};
    // SIGINT inherited ignored stays ignored (the rule of every frontend, see
    // `smith_app::interrupts`); Ctrl+C in the terminal is a key, not this signal.
    let mut wanted = vec![SIGTERM, SIGHUP, SIGQUIT];
    if !smith_app::interrupts::sigint_ignored() {
        wanted.push(SIGINT);
    }
    let mut signals = signal_hook::iterator::Signals::new(wanted)?;
    std::thread::spawn(move || {
        let mut seen = false;
        for signal in signals.forever() {
            if seen {
                // A second signal: the loop did not get there; restore and go at once.
                guard::restore();
                std::process::exit(128 + signal);
            }
            seen = true;
            events.send(Event::Signal(signal));
        }
    });
    Ok(())
}

/// Run the terminal UI until the person leaves, a signal arrives or the terminal goes away.
/// Stdin and stdout must be a terminal (the caller checks).
///
/// # Errors
/// [`TuiError`]: the terminal refused a mode or a write. The terminal is restored first.
pub fn run(options: Options) -> Result<Ended, TuiError> {
    let Options {
        app,
        cwd,
        opening,
        notices,
        script,
    } = options;
    let overrides = caps::Overrides {
        color: setting(&app, "tui.color"),
        keyboard_enhancement: setting(&app, "tui.keyboard-enhancement"),
        synchronized_output: setting(&app, "tui.synchronized-output"),
        hyperlinks: setting(&app, "tui.hyperlinks"),
    };
    let (product, product_loadout, product_notices) = product_layer(&app, &cwd)?;
    let notify = setting(&app, "tui.notify").as_deref() != Some("off");
    let mouse = setting(&app, "tui.mouse").as_deref() != Some("off");
    let clipboard = clipboard::Mode::from_setting(setting(&app, "tui.clipboard").as_deref());
    let osc52 = clipboard::osc52_known(&|k| std::env::var(k).ok());
    let env = |k: &str| std::env::var(k).ok();
    let env_color = caps::color_from_env(
        env("NO_COLOR").as_deref(),
        env("TERM").as_deref(),
        env("COLORTERM").as_deref(),
    );

    guard::install_panic_hook();
    let _restore = Restore;
    guard::raw()?;
    let answers = if overrides.needs_probe() {
        caps::probe(caps::PROBE_BUDGET)
    } else {
        caps::Answers::default()
    };
    let caps = caps::decide(answers, env_color, &overrides);
    guard::enter(caps.keyboard_enhancement, mouse)?;
    let mut terminal = fresh_terminal()?;

    let (events, rx) = Events::channel();
    let colour = caps.color != caps::ColorDepth::None;
    let theme = match product
        .theme
        .as_deref()
        .and_then(|n| product.theme_named(n))
    {
        Some(spec) if colour => themes::theme_of(spec),
        _ => Theme::plain(),
    };
    let runner = commands::Runner {
        app: Some(Arc::clone(&app)),
        loadout: product_loadout,
        colour,
    };
    let mut ui = Ui::new(
        theme,
        held_of(&opening),
        session_id_of(&opening).to_string(),
        cwd.clone(),
    );
    ui.notify = notify;
    ui.set_vim(setting(&app, "tui.input-mode").as_deref() == Some("vim"));
    ui.hyperlinks = caps.hyperlinks;
    ui.set_product(std::sync::Arc::new(product));
    for n in product_notices {
        ui.notice(NoticeLevel::Warning, n);
    }
    #[cfg(debug_assertions)]
    {
        ui.fault = std::env::var_os("SMITH_TUI_FAULT").is_some();
    }
    for (level, n) in notices {
        ui.notice(level, n);
    }
    // The first frame, before any thread starts.
    draw_frame(&mut terminal, &mut ui, caps.synchronized_output)?;

    spawn_signals(events.clone())?;
    let gate = Arc::new(InputGate::default());
    spawn_input(events.clone(), Arc::clone(&gate));
    let env = view::Env {
        app,
        cwd,
        script,
        events: events.clone(),
        gate,
        caps,
        mouse,
        clipboard,
        osc52,
        runner,
    };
    let mut opening = opening;
    let mut generation = 1;
    let mut back: Option<(SessionId, PathBuf)> = None;
    loop {
        ui.opened = Some((session_id_of(&opening), path_of(&opening)));
        ui.resident = match &opening {
            Opening::Writer { runner } => Some(runner.resident()),
            Opening::Observer { .. } | Opening::Replay { .. } => None,
        };
        ui.back = back.take();
        let ended = view::run(&env, &mut terminal, &rx, &mut ui, opening, generation)?;
        let target = match ended {
            view::Ended::Exit(exit) => {
                drop(terminal);
                drop(_restore);
                return Ok(Ended {
                    exit,
                    resume: resumable(&ui),
                });
            }
            view::Ended::Switch(target) => target,
        };
        generation += 1;
        let from = ui.opened.clone();
        if matches!(target, switch::Target::Replay { .. }) {
            back = from.clone();
        }
        let (next, notices) = match switch::open(&env.app, target, &env.cwd) {
            Ok(opened) => opened,
            Err(why) => {
                // The previous session again (it was closed for the switch).
                let Some((id, path)) = from else {
                    return Err(TuiError::Terminal(std::io::Error::other(why)));
                };
                match switch::open(&env.app, switch::Target::Existing { path, id }, &env.cwd) {
                    Ok((o, mut n)) => {
                        n.insert(
                            0,
                            (
                                NoticeLevel::Error,
                                format!("{why}; session {id} is open again"),
                            ),
                        );
                        (o, n)
                    }
                    Err(again) => {
                        return Err(TuiError::Terminal(std::io::Error::other(format!(
                            "{why}; and reopening session {id} failed: {again}"
                        ))));
                    }
                }
            }
        };
        let held = held_of(&next);
        ui = ui.next_view(held, session_id_of(&next));
        for (level, n) in notices {
            ui.notice(level, n);
        }
        opening = next;
    }
}

/// The id of the session `opening` opens.
fn session_id_of(opening: &Opening) -> SessionId {
    match opening {
        Opening::Writer { runner } => runner.id(),
        Opening::Observer { id, .. } | Opening::Replay { id, .. } => *id,
    }
}

/// The file of the session `opening` opens.
fn path_of(opening: &Opening) -> PathBuf {
    match opening {
        Opening::Writer { runner } => runner.path().to_owned(),
        Opening::Observer { path, .. } | Opening::Replay { path, .. } => path.clone(),
    }
}

/// How the UI holds the session `opening` opens.
fn held_of(opening: &Opening) -> Held {
    match opening {
        Opening::Writer { .. } => Held::Writer,
        Opening::Observer { path, .. } => Held::Observer {
            holder: smith_store::holder::read_holder(path),
            follow: true,
            writer_gone: false,
        },
        Opening::Replay { .. } => Held::Replay,
    }
}

/// What opening a session recovered or skipped, as notices.
pub fn open_notices(
    notices: &[smith_app::runner::target::OpenNotice],
) -> Vec<(NoticeLevel, String)> {
    use smith_app::runner::target::OpenNotice;
    notices
        .iter()
        .map(|n| {
            let text = match n {
                OpenNotice::Skipped { id, .. } => {
                    format!("{n} — see `smith sessions verify {id}`")
                }
                OpenNotice::Recovered { .. } => n.to_string(),
                OpenNotice::UnknownEffects { id, .. } => {
                    format!("{n} — `smith effects {id}` lists them and records your verdict")
                }
                OpenNotice::StartedElsewhere { started, .. } => {
                    format!("{n} (start smith in {started} to work there)")
                }
                OpenNotice::Settled { .. } => n.to_string(),
                OpenNotice::Interrupted { .. } => {
                    format!("{n} — Enter on an empty input continues it, Esc settles it")
                }
            };
            (NoticeLevel::Warning, text)
        })
        .collect()
}

/// How the terminal UI words a program the user's policy refuses (the runner's words).
pub fn refusal(refusal: &smith_app::ProcessRefusal) -> String {
    format!(
        "{refusal} (`smith trust` trusts this project; `smith --allow-process` allows it for one run)"
    )
}

/// A cleared screen and a terminal whose next frame draws every cell. (Ratatui's own `clear`
/// asks the terminal where its cursor is, and a terminal that does not answer would hold the
/// start for seconds; a fullscreen frame needs no answer.)
fn fresh_terminal() -> std::io::Result<Terminal<CrosstermBackend<std::io::Stdout>>> {
    let mut out = std::io::stdout();
    crossterm::execute!(
        out,
        crossterm::terminal::Clear(crossterm::terminal::ClearType::All)
    )?;
    Terminal::new(CrosstermBackend::new(out))
}

pub(crate) fn draw_frame(
    terminal: &mut Terminal<CrosstermBackend<std::io::Stdout>>,
    ui: &mut Ui,
    synchronized: bool,
) -> std::io::Result<()> {
    if synchronized {
        crossterm::execute!(
            std::io::stdout(),
            crossterm::terminal::BeginSynchronizedUpdate
        )?;
    }
    // One frame is a memory scope of its own (spec: Memory accounting, "frame").
    let memory = smith_memory::ScopeGuard::open(smith_memory::Kind::Frame);
    let drawn = terminal.draw(|frame| {
        let area = frame.area();
        if let Some(cursor) = draw::draw(ui, area, frame.buffer_mut()) {
            frame.set_cursor_position(cursor);
        }
    });
    let crossed = memory.close().ceiling_crossed;
    if crossed && !ui.frame_memory_said {
        ui.frame_memory_said = true;
        ui.notice(
            NoticeLevel::Warning,
            format!(
                "a frame's memory went past the frame ceiling of {} (memory.ceiling.frame); nothing was stopped, and this is said once (`/memory` shows the scopes)",
                smith_memory::bytes(
                    smith_memory::ceiling(smith_memory::Kind::Frame)
                        .map_or(0, std::num::NonZeroU64::get)
                )
            ),
        );
    }
    if synchronized {
        crossterm::execute!(
            std::io::stdout(),
            crossterm::terminal::EndSynchronizedUpdate
        )?;
    }
    drawn.map(|_| ())
}

/// Edit the draft in `$VISUAL`, `$EDITOR` or `vi`: the terminal is handed over (input
/// paused, modes restored) and taken back after.
/// Stop smith as a shell's Ctrl+Z would (SIGTSTP to its process group), with the terminal
/// restored while it is stopped; on `fg` (SIGCONT) the modes are set again and the screen
/// drawn afresh. Running work goes on meanwhile only as far as it needs no terminal.
///
/// # Errors
/// Setting the terminal's modes again failed.
pub(crate) fn suspend_to_shell(
    gate: &InputGate,
    terminal: &mut Terminal<CrosstermBackend<std::io::Stdout>>,
    (keyboard, mouse): (bool, bool),
) -> std::io::Result<()> {
    gate.pause();
    let _ = guard::suspend();
    // Returns once the process group is continued (at once when nothing can continue it: an
    // orphaned process group ignores the stop).
    let _ = rustix::process::kill_process_group(
        rustix::process::getpgrp(),
        rustix::process::Signal::TSTP,
    );
    guard::resume(keyboard, mouse)?;
    gate.resume();
    *terminal = fresh_terminal()?;
    Ok(())
}

pub(crate) fn external_editor(
    ui: &mut Ui,
    gate: &InputGate,
    terminal: &mut Terminal<CrosstermBackend<std::io::Stdout>>,
    (keyboard, mouse): (bool, bool),
) -> std::io::Result<()> {
    let editor = std::env::var("VISUAL")
        .or_else(|_| std::env::var("EDITOR"))
        .ok()
        .filter(|e| !e.trim().is_empty())
        .unwrap_or_else(|| "vi".to_owned());
    // A new file only this user can read (O_EXCL, 0600), never a predictable path an other
    // user could plant a symlink at; removed when `file` drops.
    let mut file = tempfile::Builder::new()
        .prefix("smith-draft-")
        .suffix(".md")
        .tempfile()?;
    std::io::Write::write_all(&mut file, ui.editor.expanded().as_bytes())?;
    let path = file.path().to_owned();
    gate.pause();
    let _ = guard::suspend();
    // The editor's command line is split at whitespace (no shell runs): `code --wait` works.
    let mut words = editor.split_whitespace();
    let program = words.next().unwrap_or("vi").to_owned();
    let status = std::process::Command::new(&program)
        .args(words)
        .arg(&path)
        .status();
    guard::resume(keyboard, mouse)?;
    gate.resume();
    *terminal = fresh_terminal()?;
    match status {
        // Editors end the file with a newline; only that one is not part of the draft.
        Ok(s) if s.success() => match std::fs::read_to_string(&path) {
            Ok(text) => ui.editor.set_text(text.strip_suffix('\n').unwrap_or(&text)),
            Err(e) => {
                ui.hint = Some(format!(
                    "cannot read the edited draft {}: {e}; the draft is unchanged",
                    path.display()
                ));
            }
        },
        Ok(s) => ui.hint = Some(format!("{editor} exited with {s}; the draft is unchanged")),
        Err(e) => {
            ui.hint = Some(format!(
                "cannot start the editor `{editor}`: {e}; set VISUAL or EDITOR to an editor on PATH"
            ));
        }
    }
    Ok(())
}
