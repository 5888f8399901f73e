//! The work thread: it owns the session's [`Runner`] (the writer) and sends it each command
//! — the one session runner every frontend uses — with the turn's intents going to the
//! render loop's bounded queue. Queueing, withdrawing, aborting and answering go through the
//! session's [`Inbox`](smith_app::runner::Inbox) from other threads, so they work while a
//! turn runs.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc;
use std::thread::JoinHandle;

use smith::{Cancel, EntryId, Selection};
use smith_app::runner::Submission;
use smith_app::{Done, Runner, RunnerError};
use smith_ui_intents::NoticeLevel;

use crate::event::{Event, Events, LiveIntents, LiveSink};

use smith_app::Command as SessionCommand;

/// What the render loop asks of the work thread.
#[derive(Debug)]
pub(crate) enum Command {
    /// Run a turn for this input (its `@path` mentions attached); with an entry, as a new
    /// branch from it (an earlier message edited): the branch ending there is selected first
    /// (recorded), the transcript read again, then the input admitted with it as its explicit
    /// destination.
    Submit(String, Option<EntryId>, Vec<crate::paste_image::Pasted>),
    /// Run a turn for this input on this model (a prompt command's), then go back to the
    /// model in use before.
    SubmitOn(String, Option<EntryId>, Selection),
    /// A change of the session or the working tree through the session's writer.
    Write(Write),
    /// Compact the session, with what the summary should focus on.
    Compact(Option<String>),
    /// Continue the interrupted turn the session holds, with the selection it recorded.
    ContinueInterrupted,
    /// Settle the interrupted turn the session holds as aborted.
    SettleInterrupted,
    /// Use this model (and thinking level) for the following runs: the route is prepared
    /// again, and each run records the model it used.
    SetModel(Selection, Option<smith::ThinkingLevel>),
    /// Use this permission mode for the following runs of the session (`None`: the next).
    SetPermissionMode(Option<smith_app::PermissionMode>),
    /// Read the pickers' values again (the catalog changed: a refresh ended).
    Values,
    /// Close the session and end (after the running turn, which the loop aborted first);
    /// `keep`: keep it even when this run created it and nothing was submitted (the UI goes
    /// on to replay it).
    Close { keep: bool },
}

/// What [`Command::Write`] changes.
#[derive(Debug, PartialEq)]
pub(crate) enum Write {
    /// Take back the latest tool batch's file changes (true: the whole latest turn).
    Undo(bool),
    /// Reapply what the latest undo took back.
    Redo,
    /// Put the working tree back as a snapshot or entry had it.
    Restore(String),
    /// Continue the branch ending at this entry.
    Select(EntryId),
    /// Enable (true) or disable a plugin for the following runs of this process.
    Plugin(String, bool),
    /// Record a verdict on an effect of unknown outcome.
    Verdict {
        /// The effect's id.
        effect: String,
        /// Applied or not applied.
        outcome: smith::EffectOutcome,
        /// The note (may be empty).
        note: String,
    },
}

/// The work thread's handle.
#[derive(Debug)]
pub(crate) struct Work {
    pub(crate) commands: mpsc::Sender<Command>,
    pub(crate) thread: Option<JoinHandle<()>>,
}

/// What the thread needs.
pub(crate) struct Start {
    /// The runner that owns the session (a session it created is removed at the end when
    /// nothing was submitted).
    pub(crate) runner: Runner,
    /// The model chosen with `/model` in an earlier view (over the settings and the session's
    /// recorded one).
    pub(crate) chosen: Option<(Selection, Option<smith::ThinkingLevel>)>,
    pub(crate) script: Option<PathBuf>,
    pub(crate) live: Arc<LiveIntents>,
    pub(crate) events: Events,
}

/// Start the work thread: it prepares the route and tools (so the first frame never waits
/// for plugins), then serves commands until [`Command::Close`].
pub(crate) fn start(start: Start) -> Work {
    let (tx, rx) = mpsc::channel();
    let own = tx.clone();
    let thread = std::thread::Builder::new()
        .name("smith-tui-work".into())
        .spawn(move || run(start, &rx, &own))
        .ok();
    Work {
        commands: tx,
        thread,
    }
}

/// Prepare runs of `selection` (with `thinking`) in the runner, then tell the loop the
/// session is ready for that model.
fn prepare(
    runner: &mut Runner,
    selection: Selection,
    thinking: Option<smith::ThinkingLevel>,
    script: Option<PathBuf>,
    events: &Events,
) -> Result<(), String> {
    let spec = smith_app::RunSpec {
        selection: selection.clone(),
        thinking,
        script,
    };
    let ready = runner.prepare(spec).map_err(|e| e.to_string())?;
    for notice in ready.notices() {
        events.send(Event::Notice(NoticeLevel::Warning, notice.to_string()));
    }
    if let Some(ready) = ready_event(runner) {
        events.send(ready);
    }
    Ok(())
}

/// The session's plan as its selected branch has it (Smith's `plan` branch state; none when
/// it cannot be read).
fn plan_event(runner: &Runner) -> Event {
    use smith::ScopedState as _;
    let items = runner
        .journal()
        .get(&smith::plan_key())
        .ok()
        .flatten()
        .filter(|v| v.version == smith::PLAN_VERSION)
        .and_then(|v| smith::plan_from_value(&v.value))
        .unwrap_or_default();
    Event::Plan(items)
}

/// The banner of the interrupted turn the session holds (`None`: none is held).
fn interrupted_event(runner: &Runner) -> Event {
    Event::Interrupted(runner.interrupted().map(|turn| {
        format!(
            "turn {} (\"{}\") stopped when its process ended, after {}{}",
            turn.submission,
            smith_app::inspect::title_of(&turn.input).unwrap_or_default(),
            smith_app::runner::target::interrupted_progress(turn),
            if turn.unknown_effects.is_empty() {
                ""
            } else {
                " (`smith effects` reconciles them)"
            }
        )
    }))
}

/// Continue the interrupted turn with the selection it recorded (the route in use when it is
/// that one); a refusal names what is missing, and the banner comes back.
fn continue_interrupted(runner: &mut Runner, live: &Arc<LiveIntents>, events: &Events) {
    let recorded = runner.interrupted().map(|t| t.model.clone());
    let spec = match (recorded, runner.current()) {
        (Some(recorded), Some(ready)) if *ready.selection() == recorded => None,
        (Some(recorded), Some(ready)) => {
            events.send(Event::Notice(
                NoticeLevel::Info,
                format!(
                    "the interrupted turn continues with {recorded}, the model it ran with; the following runs use {}",
                    ready.selection()
                ),
            ));
            runner.interrupted_spec()
        }
        _ => runner.interrupted_spec(),
    };
    let mut sink = LiveSink(Arc::clone(live));
    match runner.continue_interrupted(spec, &mut sink, &Cancel::new()) {
        Ok(_) => events.send(plan_event(runner)),
        Err(e) => {
            events.send(Event::Refused(e.to_string()));
            events.send(interrupted_event(runner));
        }
    }
    events.send(Event::WorkEnded {
        leaf: runner.leaf().map(|l| l.0),
    });
}

/// What the view is told once the runner can submit: [`Event::Ready`] for its current
/// selection (`None` before one is prepared).
fn ready_event(runner: &smith_app::Runner) -> Option<Event> {
    let ready = runner.current()?;
    Some(Event::Ready {
        inbox: runner.inbox(),
        model: ready.selection().clone(),
        permission_mode: runner.permission_mode(),
        sandbox: ready.sandbox(),
        fresh: runner.is_created(),
    })
}

fn run(start: Start, rx: &mpsc::Receiver<Command>, own: &mpsc::Sender<Command>) {
    let Start {
        mut runner,
        chosen,
        script,
        live,
        events,
    } = start;
    // The plan the session's branch holds (a resumed or forked session's), and the effects a
    // recovery left of unknown outcome (before the session is said ready).
    events.send(plan_event(&runner));
    if !runner.recovered_effects().is_empty() {
        events.send(recovered_event(&runner));
    }
    // The pickers' values: the catalog is read here, after the first frame, not before it,
    // and before the session is ready (so a command that opens a picker finds them).
    events.send(Event::Values(smith_app::product::ArgumentValues::of(
        runner.app(),
    )));
    // Ended with the view: a refresh still waiting for a server stops at once.
    let refresh_cancel = Cancel::new();
    if runner.app().settings.bool("catalog.refresh", false)
        && !CATALOG_REFRESHED.swap(true, std::sync::atomic::Ordering::SeqCst)
    {
        refresh_catalog(
            runner.app(),
            own.clone(),
            events.clone(),
            refresh_cancel.clone(),
        );
    }
    let cwd = runner.cwd().to_owned();
    let (wanted, thinking) = match chosen {
        Some((selection, thinking)) => (Ok(selection), thinking.or_else(|| runner.app().thinking())),
        None => (
            runner.default_selection(None).map(|(s, _)| s).map_err(|e| {
                format!("{e}; start smith with --model PROVIDER/MODEL (e.g. --model scripted/demo, which needs no key), or set `model` in your config")
            }),
            runner.app().thinking(),
        ),
    };
    if let Err(why) = wanted
        .and_then(|selection| prepare(&mut runner, selection, thinking, script.clone(), &events))
    {
        events.send(Event::Unprepared(why));
    }
    events.send(interrupted_event(&runner));
    let mut keep = false;
    while let Ok(command) = rx.recv() {
        // A command that writes history settles an interrupted turn: the banner follows.
        let writes = !matches!(
            command,
            Command::Values
                | Command::Close { .. }
                | Command::SetModel(..)
                | Command::SetPermissionMode(_)
        );
        let held = runner.interrupted().is_some();
        match command {
            Command::Submit(input, at, images) => {
                submit(&mut runner, (&input, &images), at, &cwd, &live, &events);
            }
            Command::SubmitOn(input, at, wanted) => {
                submit_on(
                    &mut runner,
                    (&input, at, wanted),
                    &script,
                    (&cwd, &live),
                    &events,
                );
            }
            Command::ContinueInterrupted => continue_interrupted(&mut runner, &live, &events),
            Command::SettleInterrupted => settle_interrupted(&mut runner, &events),
            Command::Compact(focus) => compact(&mut runner, focus, &live, &events),
            Command::SetModel(wanted, thinking) => {
                set_model(&mut runner, (wanted, thinking), script.as_deref(), &events);
            }
            Command::Write(write) => write_op(&mut runner, write, &events),
            Command::SetPermissionMode(mode) => set_permission_mode(&mut runner, mode, &events),
            Command::Values => events.send(Event::Values(smith_app::product::ArgumentValues::of(
                runner.app(),
            ))),
            Command::Close { keep: k } => {
                keep = k;
                break;
            }
        }
        if writes && held {
            events.send(interrupted_event(&runner));
        }
    }
    refresh_cancel.cancel();
    if let Err(e) = runner.close(keep) {
        events.send(Event::Notice(
            NoticeLevel::Warning,
            format!("closing the session: {e} (nothing acknowledged is lost; the next writer recovers it)"),
        ));
    }
    events.send(Event::Closed);
}

/// Whether this process started its catalog refresh (`catalog.refresh`): once per process,
/// not once per session view.
static CATALOG_REFRESHED: std::sync::atomic::AtomicBool = std::sync::atomic::AtomicBool::new(false);

/// Ask each provider that lists its models what it serves, on a thread of its own (the UI
/// never waits for it), saying how each went; the pickers are read again when it ends.
fn refresh_catalog(
    app: &smith_app::App,
    work: mpsc::Sender<Command>,
    events: Events,
    cancel: Cancel,
) {
    let listings = match smith_app::refresh::listings(app) {
        Ok(listings) => listings,
        Err(e) => {
            events.send(Event::Notice(
                NoticeLevel::Warning,
                format!("catalog refresh: {e}"),
            ));
            return;
        }
    };
    if listings.is_empty() {
        return;
    }
    let warn = events.clone();
    let spawned = std::thread::Builder::new()
        .name("smith-catalog-refresh".into())
        .spawn(move || {
            for listing in listings {
                match listing.fetch_from_server(&cancel) {
                    Ok(s) => events.send(Event::Notice(
                        NoticeLevel::Info,
                        format!(
                            "catalog refresh: {} lists {} model{} (the model picker offers them)",
                            s.provider,
                            s.models.len(),
                            if s.models.len() == 1 { "" } else { "s" }
                        ),
                    )),
                    Err(_) if cancel.is_cancelled() => return,
                    Err(e) => events.send(Event::Notice(
                        NoticeLevel::Warning,
                        format!("catalog refresh: {e}; the models it listed before are kept"),
                    )),
                }
            }
            let _ = work.send(Command::Values);
        });
    if let Err(e) = spawned {
        warn.send(Event::Notice(
            NoticeLevel::Warning,
            format!("catalog refresh: cannot start its thread ({e}); nothing was refreshed"),
        ));
    }
}

/// Run a turn for `input` on model `wanted` (a prompt command's own), then go back to the
/// route in use before. The view is not told of the passing model (its status line keeps the
/// session's); the run records the model it used.
fn submit_on(
    runner: &mut Runner,
    (input, at, wanted): (&str, Option<EntryId>, Selection),
    script: &Option<PathBuf>,
    (cwd, live): (&std::path::Path, &Arc<LiveIntents>),
    events: &Events,
) {
    let before = runner.current().map(|r| r.spec().clone());
    let spec = smith_app::RunSpec {
        thinking: before
            .as_ref()
            .and_then(|b| b.thinking)
            .or_else(|| runner.app().thinking()),
        selection: wanted,
        script: script.clone(),
    };
    match runner.prepare(spec) {
        Ok(ready) => {
            for notice in ready.notices() {
                events.send(Event::Notice(NoticeLevel::Warning, notice.to_string()));
            }
        }
        Err(e) => {
            events.send(Event::Refused(format!(
                "{e}; the model is the one the command's file names in its front matter; nothing was sent"
            )));
            return;
        }
    }
    submit(runner, (input, &[]), at, cwd, live, events);
    if let Some(before) = before {
        let model = before.selection.clone();
        // Prepared again, and recorded as the session's model: a resumed session runs on it.
        let back = runner
            .prepare(before)
            .map(|_| ())
            .and_then(|()| runner.record_model(&model));
        if let Err(e) = back {
            events.send(Event::Refused(format!(
                "{e}; the command's model stays in use for the following runs"
            )));
        }
    }
}

/// Run a turn for `input` (its `@path` mentions attached); with `at`, as a new branch from
/// that entry: the branch is selected first (recorded), the transcript read again, then the
/// input admitted with it as its explicit destination.
fn submit(
    runner: &mut Runner,
    (input, images): (&str, &[crate::paste_image::Pasted]),
    at: Option<EntryId>,
    cwd: &std::path::Path,
    live: &Arc<LiveIntents>,
    events: &Events,
) {
    if runner.current().is_none() {
        events.send(Event::Refused(
            "no turn can run: the model could not be prepared (see the error above)".into(),
        ));
        return;
    }
    let bounds = smith_app::prompt::Bounds::default();
    let expanded = smith_app::prompt::expand(input, cwd, None, bounds).and_then(|mut prompt| {
        for image in images {
            let shown = format!("clipboard image ({})", image.label);
            smith_app::prompt::attach_image_bytes(&mut prompt, &image.png, &shown, bounds)?;
        }
        Ok(prompt)
    });
    let prompt = match expanded {
        Ok(p) => p,
        Err(e) => {
            events.send(Event::Refused(format!(
                "{e}; nothing was sent (edit the draft and send it again)"
            )));
            return;
        }
    };
    // An image for a route with no model that takes images: refused before anything is
    // written, with the route's own reason.
    if !prompt.images.is_empty()
        && let Some(Err(e)) = runner
            .current()
            .map(|r| r.check_images(prompt.images.len()))
    {
        events.send(Event::Refused(format!(
            "{e}; nothing was sent (the draft keeps its text and images)"
        )));
        return;
    }
    let mut sink = LiveSink(Arc::clone(live));
    if let Some(at) = at {
        if let Err(e) = runner.apply(SessionCommand::Select(at), &mut sink, &Cancel::new()) {
            events.send(Event::Refused(format!(
                "{e}; nothing was sent (the edited message is back in the draft)"
            )));
            return;
        }
        events.send(plan_event(runner));
        events.send(Event::Reselected {
            leaf: at.0,
            said: format!("a new branch from entry {}: the edited message continues the conversation there (the branches picker shows both)", at.0),
        });
    }
    let submission = Submission {
        prompt,
        destination: at,
        ..Submission::default()
    };
    let held = runner.interrupted().map(|t| t.submission);
    let submitted = runner.submit(submission, &mut sink, &Cancel::new());
    if let Some(turn) = held.filter(|_| runner.interrupted().is_none()) {
        events.send(Event::Notice(
            NoticeLevel::Info,
            format!(
                "the interrupted turn {turn} was settled as aborted: new input moves on from it"
            ),
        ));
    }
    match submitted {
        Ok(_) => {
            // The plan as the work left it (a live change a slow view dropped is not lost).
            events.send(plan_event(runner));
            events.send(Event::WorkEnded {
                leaf: runner.leaf().map(|l| l.0),
            });
        }
        Err(e) => events.send(Event::Refused(format!("{e}; nothing was sent"))),
    }
}

/// Settle the interrupted turn as aborted (Esc on its banner); a refusal brings the banner
/// back.
fn settle_interrupted(runner: &mut Runner, events: &Events) {
    let mut quiet = |_: smith_ui_intents::Intent| {};
    match runner.apply(SessionCommand::SettleInterrupted, &mut quiet, &Cancel::new()) {
        Ok(Done::Settled(turn)) => events.send(Event::Notice(
            NoticeLevel::Info,
            format!("the interrupted turn {turn} is settled as aborted; what it recorded stays in the session"),
        )),
        Ok(_) => {}
        Err(e) => {
            events.send(Event::Refused(e.to_string()));
            events.send(interrupted_event(runner));
        }
    }
    events.send(Event::WorkEnded {
        leaf: runner.leaf().map(|l| l.0),
    });
}

/// `/compact`: its end intent says how it went (the marker, or why nothing was kept); a
/// refusal is said.
fn compact(runner: &mut Runner, focus: Option<String>, live: &Arc<LiveIntents>, events: &Events) {
    let request = smith_app::runner::CompactRequest {
        instructions: focus,
        ..Default::default()
    };
    let mut sink = LiveSink(Arc::clone(live));
    match runner.compact(request, &mut sink, &Cancel::new()) {
        Err(RunnerError::Busy { .. }) => events.send(Event::Refused(
            "work is running, so the session was not compacted".into(),
        )),
        Err(RunnerError::Unprepared { .. }) => events.send(Event::Refused(
            "nothing can be compacted: the model could not be prepared (see the error above)"
                .into(),
        )),
        _ => {}
    }
}

/// `/model`: prepare the route for the following runs, or say why the model stays.
fn set_model(
    runner: &mut Runner,
    (wanted, thinking): (Selection, Option<smith::ThinkingLevel>),
    script: Option<&std::path::Path>,
    events: &Events,
) {
    let thinking = thinking.or_else(|| runner.app().thinking());
    match prepare(
        runner,
        wanted.clone(),
        thinking,
        script.map(std::path::Path::to_path_buf),
        events,
    ) {
        Ok(()) => events.send(Event::Notice(
            NoticeLevel::Info,
            format!(
                "model {wanted}{} for the following runs (each run records the model it used)",
                thinking
                    .map(|t| format!(", thinking {}", t.as_str()))
                    .unwrap_or_default()
            ),
        )),
        Err(why) => events.send(Event::Refused(format!("{why}; the model stays as it was"))),
    }
}

/// Shift+Tab or `/permissions`: the mode for the following runs of this session, said with
/// what it lets run.
fn set_permission_mode(
    runner: &mut Runner,
    mode: Option<smith_app::PermissionMode>,
    events: &Events,
) {
    let mut quiet = |_: smith_ui_intents::Intent| {};
    let command = SessionCommand::SetPermissionMode(mode);
    if let Ok(Done::PermissionModeSet(mode)) = runner.apply(command, &mut quiet, &Cancel::new()) {
        events.send(Event::PermissionMode(mode));
        events.send(Event::Notice(
            NoticeLevel::Info,
            format!(
                "permission mode {mode} for the following runs of this session (Shift+Tab or /permissions MODE changes it; permissions.mode sets the default){}",
                match mode {
                    smith_app::PermissionMode::Plan => {
                        ": reads only — every write and program is refused"
                    }
                    smith_app::PermissionMode::Ask => ": writes and programs ask first",
                    smith_app::PermissionMode::AutoEdit => ": writes run, programs ask first",
                    smith_app::PermissionMode::Auto => ": what the sandbox permits runs",
                }
            ),
        ));
    }
}

/// Record a verdict (the effects picker): said, and the effects read again for the picker.
fn verdict(
    runner: &mut Runner,
    effect: &str,
    outcome: smith::EffectOutcome,
    note: &str,
    events: &Events,
) {
    match runner.reconcile(effect, outcome, note) {
        Ok(done) => events.send(Event::Notice(
            NoticeLevel::Info,
            format!(
                "effect {effect} ({} {}): verdict {} recorded{}; the evidence stays as recorded, and replay and re-execution read the verdict",
                done.effect.effect,
                done.effect.target.as_deref().unwrap_or("-"),
                outcome.as_str(),
                done.replaced
                    .map(|v| format!(" (it replaces the verdict {})", v.outcome.as_str()))
                    .unwrap_or_default()
            ),
        )),
        Err(e) => events.send(Event::VerdictRefused(format!("no verdict was recorded: {e}"))),
    }
    events.send(recovered_event(runner));
}

/// The effects of unknown outcome the recovery at opening left, as the session has them now
/// (with any verdict); none when they cannot be read (said), which closes their picker.
fn recovered_event(runner: &Runner) -> Event {
    let recovered = runner.recovered_effects();
    match smith_app::verdicts::unknown_effects(runner.path()) {
        Ok(mut effects) => {
            effects.retain(|e| recovered.contains(&e.effect_id));
            Event::UnknownEffects(effects)
        }
        Err(e) => Event::Refused(format!(
            "the effects of unknown outcome could not be read ({e}); `smith effects {}` lists them",
            runner.id()
        )),
    }
}

/// Carry out `write` through the runner (it holds the session's writer); a plugin switch
/// prepares the route again.
fn write_op(runner: &mut Runner, write: Write, events: &Events) {
    use smith_app::history::Step;
    let step = |turn| Step {
        turn,
        snapshot_first: false,
    };
    let (command, plugin) = match write {
        Write::Verdict {
            effect,
            outcome,
            note,
        } => return verdict(runner, &effect, outcome, &note, events),
        Write::Undo(turn) => (SessionCommand::Undo(step(turn)), None),
        Write::Redo => (SessionCommand::Redo(step(false)), None),
        Write::Restore(target) => (
            SessionCommand::Restore {
                target,
                snapshot_first: false,
            },
            None,
        ),
        Write::Select(leaf) => (SessionCommand::Select(leaf), None),
        Write::Plugin(id, enabled) => (
            SessionCommand::SetPlugin {
                id: id.clone(),
                enabled,
            },
            Some((id, enabled)),
        ),
    };
    let select = matches!(command, SessionCommand::Select(_));
    // These commands emit no intents.
    let mut quiet = |_: smith_ui_intents::Intent| {};
    match runner.apply(command, &mut quiet, &Cancel::new()) {
        Ok(Done::Selected(leaf)) => {
            events.send(Event::Reselected {
                leaf: leaf.0,
                said: format!(
                    "continuing the branch that ends at entry {} (recorded; the next message goes there)",
                    leaf.0
                ),
            });
            events.send(plan_event(runner));
        }
        Ok(Done::PluginSet { changed, product }) => {
            let (id, enabled) = plugin.unwrap_or_default();
            let state = if enabled { "enabled" } else { "disabled" };
            if changed {
                events.send(Event::Notice(
                    NoticeLevel::Info,
                    format!(
                        "plugin {id} {state} for the following runs of this process (the configuration is unchanged: plugins.{id}.enabled keeps it){}",
                        if product {
                            "; the commands, keys and themes it contributes change when smith starts again"
                        } else {
                            ""
                        }
                    ),
                ));
                if let Some(ready) = ready_event(runner) {
                    events.send(ready);
                }
            } else {
                events.send(Event::Notice(
                    NoticeLevel::Info,
                    format!("plugin {id} is {state} already"),
                ));
            }
        }
        Ok(Done::Moved(moved)) => {
            let text = moved.summary();
            let text = text.trim_end();
            let text = match runner.app().secrets() {
                Ok(s) => s.redactor.current().redact(text).into_owned(),
                Err(_) => text.to_owned(),
            };
            events.send(Event::Notice(NoticeLevel::Info, text));
        }
        Ok(_) => {}
        Err(RunnerError::Plugin(e)) => {
            events.send(Event::Notice(NoticeLevel::Error, e.to_string()));
        }
        Err(e @ RunnerError::App(_)) if plugin.is_some() => {
            events.send(Event::Unprepared(e.to_string()))
        }
        Err(e) if select => events.send(Event::Notice(
            NoticeLevel::Error,
            format!("{e}; the branch stays as it was"),
        )),
        Err(e) => events.send(Event::Notice(
            NoticeLevel::Error,
            format!("{e}; the working tree was not changed (/diff shows the latest change)"),
        )),
    }
}
