//! One session's view: the threads that serve it (work or observation or replay, storage)
//! and the render loop folding what they send into the UI, until the person leaves or asks
//! for another session ([`Ended::Switch`]: the session is closed first, so the next view can
//! take its writer lock — attaching it again after a replay, say).

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use crossterm::event::Event as TermEvent;
use ratatui_core::terminal::Terminal;
use ratatui_crossterm::CrosstermBackend;
use smith_app::App;
use smith_app::runner::QueueInput;
use smith_ui_intents::NoticeLevel;

use crate::event::{Event, Events, LiveIntents};
use crate::switch::Target;
use crate::ui::{Effect, Held, Ui};
use crate::{Exit, InputGate, Opening, TuiError, history, replay, work};

/// What every view shares: the composition root, the terminal's settings, the root sender.
pub(crate) struct Env {
    pub(crate) app: Arc<App>,
    pub(crate) cwd: std::path::PathBuf,
    pub(crate) script: Option<std::path::PathBuf>,
    pub(crate) events: Events,
    pub(crate) gate: Arc<InputGate>,
    pub(crate) caps: crate::caps::Capabilities,
    pub(crate) mouse: bool,
    pub(crate) clipboard: crate::clipboard::Mode,
    pub(crate) osc52: bool,
    pub(crate) runner: crate::commands::Runner,
}

/// How a view ended.
pub(crate) enum Ended {
    /// The UI ends.
    Exit(Exit),
    /// The session is closed; open this one next.
    Switch(Target),
}

/// Serve `opening` as view `generation` until it ends.
pub(crate) fn run(
    env: &Env,
    terminal: &mut Terminal<CrosstermBackend<std::io::Stdout>>,
    rx: &mpsc::Receiver<(u64, Event)>,
    ui: &mut Ui,
    opening: Opening,
    generation: u64,
) -> Result<Ended, TuiError> {
    let events = env.events.for_generation(generation);
    let Served {
        live,
        follow_live,
        stop_follow,
        mut work,
        storage,
        replaying,
    } = serve(opening, env, ui, &events);
    crate::draw_frame(terminal, ui, env.caps.synchronized_output)?;

    let mut exit = None;
    let mut switch: Option<Target> = None;
    let mut leaving = false;
    loop {
        // While a tool runs, its spinner and time move without an event.
        let first = if ui.window.live.running() {
            match rx.recv_timeout(smith_render_terminal::transcript::SPIN_EVERY) {
                Ok(event) => Some(event),
                Err(mpsc::RecvTimeoutError::Timeout) => None,
                Err(mpsc::RecvTimeoutError::Disconnected) => break,
            }
        } else {
            match rx.recv() {
                Ok(event) => Some(event),
                Err(_) => break,
            }
        };
        let mut dirty = false;
        let mut next = first;
        while let Some((from, event)) = next {
            // What an earlier view's threads still send is not this view's.
            if from != 0 && from != generation {
                next = rx.try_recv().ok();
                continue;
            }
            dirty |= on_event(
                event,
                env,
                terminal,
                ui,
                (&live, &mut work, &events),
                (&mut exit, &mut switch),
            )?;
            if (exit.is_some() || switch.is_some()) && !leaving {
                leaving = true;
                begin_leaving(
                    ui,
                    (exit, switch.as_ref()),
                    work.as_ref(),
                    (&replaying, &stop_follow),
                );
                if work.is_none() {
                    break;
                }
            }
            if leaving && work.is_none() {
                break;
            }
            next = rx.try_recv().ok();
        }
        follow_live.store(
            matches!(ui.held, Held::Observer { follow: true, .. }),
            Ordering::SeqCst,
        );
        if leaving && work.is_none() {
            break;
        }
        dirty |= ui.window.live.tick(std::time::Instant::now());
        if dirty && exit != Some(Exit::TerminalLost) {
            crate::draw_frame(terminal, ui, env.caps.synchronized_output)?;
            // The view may near what is not resident, or have left some of it.
            ui.after_frame();
        }
        for ask in ui.asks.drain(..) {
            if let Some(storage) = &storage {
                storage.ask(ask);
            }
        }
        if std::mem::take(&mut ui.ring) {
            use std::io::Write;
            let mut out = std::io::stdout();
            let _ = out.write_all(b"\x07").and_then(|()| out.flush());
        }
    }
    Ok(match (exit, switch) {
        (Some(e), _) => Ended::Exit(e),
        (None, Some(t)) => Ended::Switch(t),
        (None, None) => Ended::Exit(Exit::Quit),
    })
}

/// The threads serving one view, and the handles the loop keeps to them.
struct Served {
    /// The live intents of this process's runs.
    live: Arc<LiveIntents>,
    /// An observer follows the writer live (the loop sets it from the UI).
    follow_live: Arc<AtomicBool>,
    /// The observation stops.
    stop_follow: Arc<AtomicBool>,
    /// The work thread, for a writer.
    work: Option<work::Work>,
    /// The storage worker (none for a replay, which brings its own transcript).
    storage: Option<history::Storage>,
    /// Cancelled, a replay's thread stops between entries.
    replaying: smith::Cancel,
}

/// Start the threads that serve `opening` — work and storage for a writer, observation for
/// an observer, the replay for a replay — sending to `events`.
fn serve(opening: Opening, env: &Env, ui: &mut Ui, events: &Events) -> Served {
    let session_id = match &opening {
        Opening::Writer { runner } => runner.id(),
        Opening::Observer { id, .. } | Opening::Replay { id, .. } => *id,
    };
    let live = LiveIntents::new(session_id, events.clone());
    let follow_live = Arc::new(AtomicBool::new(true));
    let stop_follow = Arc::new(AtomicBool::new(false));
    let mut work = None;
    let storage;
    // A replay's thread stops between entries once this is cancelled.
    let replaying = smith::Cancel::new();
    match opening {
        Opening::Writer { runner } => {
            storage = Some(history::start(
                runner.path().to_owned(),
                events.clone(),
                None,
            ));
            ui.loading = true;
            work = Some(work::start(work::Start {
                runner: *runner,
                chosen: ui.chosen.clone(),
                script: env.script.clone(),
                live: Arc::clone(&live),
                events: events.clone(),
            }));
        }
        Opening::Observer { path, id } => {
            if let Ok(Some(model)) = smith_app::inspect::recorded_selection(&path) {
                ui.status.model = model.to_string();
            }
            storage = Some(history::start(
                path,
                events.clone(),
                Some(history::Observe {
                    id,
                    live: Arc::clone(&follow_live),
                    stop: Arc::clone(&stop_follow),
                }),
            ));
        }
        Opening::Replay { path, id, options } => {
            if let Ok(Some(model)) = smith_app::inspect::recorded_selection(&path) {
                ui.status.model = model.to_string();
            }
            // No history is read: the replay brings the transcript, entry by entry.
            storage = None;
            replay::start(path, id, options, replaying.clone(), events.clone());
        }
    }
    Served {
        live,
        follow_live,
        stop_follow,
        work,
        storage,
        replaying,
    }
}

/// Fold `event` into the view: a key through [`key_event`], the live intents, the storage
/// worker's reads, the work thread's news, signals. Whether the frame may have changed (a
/// mouse event that scrolls nothing did not).
fn on_event(
    event: Event,
    env: &Env,
    terminal: &mut Terminal<CrosstermBackend<std::io::Stdout>>,
    ui: &mut Ui,
    (live, work, events): (&LiveIntents, &mut Option<work::Work>, &Events),
    (exit, switch): (&mut Option<Exit>, &mut Option<Target>),
) -> Result<bool, TuiError> {
    match event {
        Event::Terminal(TermEvent::Key(key)) => {
            key_event(
                key,
                env,
                terminal,
                ui,
                work.as_ref(),
                events,
                (exit, switch),
            )?;
        }
        Event::Terminal(TermEvent::Paste(text)) => ui.paste(&text),
        Event::Terminal(TermEvent::Mouse(m)) => match m.kind {
            crossterm::event::MouseEventKind::ScrollUp => {
                ui.scroll_by(-3);
            }
            crossterm::event::MouseEventKind::ScrollDown => {
                ui.scroll_by(3);
            }
            _ => return Ok(false),
        },
        Event::Terminal(TermEvent::FocusGained) => ui.focused = true,
        Event::Terminal(TermEvent::FocusLost) => ui.focused = false,
        Event::Terminal(_) => {}
        Event::TerminalLost => {
            exit.get_or_insert(Exit::TerminalLost);
        }
        Event::Intents => {
            for intent in live.drain() {
                ui.apply(&intent);
            }
            for submission in std::mem::take(&mut ui.stranded) {
                carry_out(Effect::Withdraw(submission), ui, work.as_ref(), events);
            }
            ui.refresh_queue();
            if let Some(effect) = ui.send_left_over() {
                carry_out(effect, ui, work.as_ref(), events);
            }
            if std::mem::take(&mut ui.reload) {
                ui.read_again();
            }
        }
        event @ (Event::Chunk { .. }
        | Event::Summary { .. }
        | Event::Found { .. }
        | Event::NotFound { .. }) => ui.storage_event(event),
        Event::Observed(intents) => ui.observed(&intents),
        Event::Streaming(snapshot) => ui.streaming(snapshot),
        Event::WriterGone => {
            if let Held::Observer { writer_gone, .. } = &mut ui.held {
                *writer_gone = true;
            }
        }
        Event::Plan(items) => ui.plan = items,
        Event::Interrupted(banner) => ui.interrupted = banner,
        Event::UnknownEffects(effects) => ui.unknown_effects(&effects),
        Event::VerdictRefused(why) => ui.verdict_refused(why),
        Event::PermissionMode(mode) => {
            ui.status.permission_mode = Some(mode.name().to_owned());
        }
        Event::Ready {
            inbox,
            model,
            permission_mode,
            sandbox,
            fresh,
        } => {
            ui.welcome = fresh.then(|| crate::ui::Welcome {
                model: model.to_string(),
                permission_mode,
                sandbox,
            });
            ui.status.permission_mode = Some(permission_mode.name().to_owned());
            ui.sandbox = Some(sandbox);
            ui.status.model = model.to_string();
            ui.status.state = "idle".into();
            ui.model = Some(model);
            ui.inbox = Some(inbox);
            ui.unprepared = None;
        }
        Event::Values(values) => ui.values = Arc::new(values),
        Event::Listed(listed) => ui.listed(listed),
        Event::Overlay { title, text } => ui.overlay(title, text),
        Event::Reselected { leaf, said } => {
            ui.read_again_at(leaf);
            ui.notice(NoticeLevel::Info, said);
        }
        Event::Unprepared(why) => {
            ui.status.state = "no model".into();
            ui.notice(NoticeLevel::Error, why.clone());
            ui.unprepared = Some(why);
        }
        Event::Refused(why) => ui.refused(why),
        Event::Pasted(read) => ui.pasted(read),
        Event::Unqueued(text, why) => {
            if ui.editor.is_empty() {
                ui.editor.set_text(&text);
            }
            ui.notice(NoticeLevel::Error, why);
        }
        Event::Queued(mine) => {
            ui.enqueued.extend(mine);
            ui.refresh_queue();
            if let Some(effect) = ui.send_left_over() {
                carry_out(effect, ui, work.as_ref(), events);
            }
        }
        Event::Notice(level, text) => ui.notice(level, text),
        Event::WorkEnded { leaf } => {
            for intent in live.drain() {
                ui.apply(&intent);
            }
            ui.work_ended(leaf);
            if let Some(effect) = ui.send_left_over() {
                carry_out(effect, ui, work.as_ref(), events);
            }
        }
        Event::Closed => {
            if let Some(thread) = work.take().and_then(|mut w| w.thread.take()) {
                let _ = thread.join();
            }
        }
        Event::Signal(n) => {
            exit.get_or_insert(Exit::Signal(n));
        }
    }
    Ok(true)
}

/// The view is ending (`exit`, or a `switch` to another session): the replay and the
/// observation stop, the status says so, waiting questions are refused and running work is
/// aborted with the reason, and the work thread is asked to close the session.
fn begin_leaving(
    ui: &mut Ui,
    (exit, switch): (Option<Exit>, Option<&Target>),
    work: Option<&work::Work>,
    (replaying, stop_follow): (&smith::Cancel, &AtomicBool),
) {
    replaying.cancel();
    stop_follow.store(true, Ordering::SeqCst);
    ui.status.state = if exit.is_some() {
        "closing".into()
    } else {
        "switching session".into()
    };
    if let Some(inbox) = &ui.inbox {
        let why = match exit {
            Some(Exit::Signal(n)) => format!("the terminal UI got signal {n}"),
            Some(Exit::TerminalLost) => "the terminal went away".to_owned(),
            Some(Exit::Quit) => "the terminal UI was closed".to_owned(),
            None => "the terminal UI switched to another session".to_owned(),
        };
        inbox.refuse_asks(&why);
        if let Some(running) = ui.running {
            let _ = inbox.abort(running, &why);
        }
    }
    if let Some(w) = work {
        let keep = matches!(switch, Some(Target::Replay { .. }));
        let _ = w.commands.send(work::Command::Close { keep });
    }
}

/// Carry out what `key` does to the view: its effect on the loop (leave, the external editor,
/// suspend, copy, go, pickers, reads, the clipboard's image) or on the work thread.
fn key_event(
    key: crossterm::event::KeyEvent,
    env: &Env,
    terminal: &mut Terminal<CrosstermBackend<std::io::Stdout>>,
    ui: &mut Ui,
    work: Option<&work::Work>,
    events: &Events,
    (exit, switch): (&mut Option<Exit>, &mut Option<Target>),
) -> Result<(), TuiError> {
    let effect = match ui.key(key) {
        Some(Effect::Command(line)) => env.runner.run(ui, &line),
        other => other,
    };
    if let Some(effect) = effect {
        match effect {
            Effect::Quit => {
                exit.get_or_insert(Exit::Quit);
            }
            Effect::ExternalEditor => {
                crate::external_editor(
                    ui,
                    &env.gate,
                    terminal,
                    (env.caps.keyboard_enhancement, env.mouse),
                )?;
            }
            Effect::Suspend => {
                crate::suspend_to_shell(
                    &env.gate,
                    terminal,
                    (env.caps.keyboard_enhancement, env.mouse),
                )?;
            }
            Effect::Copy { text, what } => {
                ui.hint = Some(crate::clipboard::copy(
                    &text,
                    &what,
                    env.clipboard,
                    env.osc52,
                ));
            }
            Effect::Go(go) => {
                if switch.is_none() && exit.is_none() {
                    match crate::go::target(&env.app, &env.cwd, ui, go) {
                        Ok(target) => *switch = Some(target),
                        Err(why) => ui.notice(NoticeLevel::Error, why),
                    }
                }
            }
            Effect::List(kind) => crate::pickers::start(
                &env.app,
                &env.cwd,
                ui.opened.clone(),
                kind,
                (
                    ui.listing.load(std::sync::atomic::Ordering::Acquire),
                    Arc::clone(&ui.listing),
                ),
                events,
            ),
            Effect::PasteImage => crate::paste_image::start(events),
            Effect::Read(op) => crate::go::read(&env.app, &env.cwd, ui, op, events),
            #[cfg(debug_assertions)]
            Effect::Fault => {
                if std::env::var("SMITH_TUI_FAULT").as_deref() == Ok("error") {
                    return Err(TuiError::Fault);
                }
                panic!("SMITH_TUI_FAULT: the fault hook panicked on purpose (debug builds only)");
            }
            other => carry_out(other, ui, work, events),
        }
    }
    Ok(())
}

/// Carry out an inbox effect on a thread of its own (each writes and syncs the file), so
/// input stays responsive; the work thread's commands go to it.
fn carry_out(effect: Effect, ui: &Ui, work: Option<&work::Work>, events: &Events) {
    let command = match effect {
        Effect::Submit(text) => Some(work::Command::Submit(text, None, Vec::new())),
        Effect::SubmitAt(text, at) => Some(work::Command::Submit(text, Some(at), Vec::new())),
        Effect::SubmitOn(text, at, model) => Some(work::Command::SubmitOn(text, at, model)),
        Effect::SubmitImages { text, at, images } => Some(work::Command::Submit(text, at, images)),
        Effect::Compact(focus) => Some(work::Command::Compact(focus)),
        Effect::ContinueInterrupted => Some(work::Command::ContinueInterrupted),
        Effect::SettleInterrupted => Some(work::Command::SettleInterrupted),
        Effect::SetModel(selection, thinking) => Some(work::Command::SetModel(selection, thinking)),
        Effect::SetPermissionMode(mode) => Some(work::Command::SetPermissionMode(mode)),
        Effect::Write(op) => Some(work::Command::Write(op)),
        other => {
            inbox_effect(other, ui, events);
            None
        }
    };
    if let Some(command) = command {
        match work {
            Some(w) => {
                let _ = w.commands.send(command);
            }
            None => events.send(Event::Notice(
                NoticeLevel::Warning,
                "this view is read-only: it runs and writes nothing (a fork is writable: /fork)"
                    .into(),
            )),
        }
    }
}

fn inbox_effect(effect: Effect, ui: &Ui, events: &Events) {
    let Some(inbox) = ui.inbox.clone() else {
        events.send(Event::Notice(
            NoticeLevel::Warning,
            "the session is not ready yet; try again in a moment".into(),
        ));
        return;
    };
    let model = ui.model.clone();
    let events = events.clone();
    std::thread::spawn(move || match effect {
        Effect::Enqueue(text, delivery) => {
            let Some(model) = model else { return };
            match inbox.queue(QueueInput {
                model: &model,
                input: &text,
                delivery,
                dedup_key: None,
            }) {
                Ok(queued) => events.send(Event::Queued(Some(queued.submission))),
                Err(e) => events.send(Event::Unqueued(
                    text,
                    format!("{e}; the input was not queued (it is back in the draft)"),
                )),
            }
        }
        Effect::Withdraw(submission) => {
            if let Err(e) =
                inbox.withdraw(submission, "taken back into the draft in the terminal UI")
            {
                events.send(Event::Notice(NoticeLevel::Warning, e.to_string()));
            }
            events.send(Event::Queued(None));
        }
        Effect::Abort(work) => match inbox.abort(work, "aborted in the terminal UI") {
            // It ended on its own as the key came: nothing to abort, nothing to say.
            Err(e) if e.work_not_live() => {}
            Err(e) => events.send(Event::Notice(NoticeLevel::Warning, e.to_string())),
            Ok(()) => {}
        },
        Effect::Answer(id, answer) => {
            if let Err(e) = inbox.answer(&id, answer) {
                events.send(Event::Notice(NoticeLevel::Warning, e.to_string()));
            }
        }
        Effect::Refuse(id) => {
            if let Err(e) = inbox.refuse(&id, "declined in the terminal UI") {
                events.send(Event::Notice(NoticeLevel::Warning, e.to_string()));
            }
        }
        _ => {}
    });
}
