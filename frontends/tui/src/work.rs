//! The work thread: it owns the session (the writer) and runs each submission through the
//! agent's `submit` — the one agent loop every frontend uses — with the turn's intents going
//! to the render loop's bounded queue. Queueing, withdrawing, aborting and answering go
//! through the session's [`Inbox`](smith_agent::Inbox) from other threads, so they work while
//! a turn runs.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::mpsc;
use std::thread::JoinHandle;

use smith::{Cancel, EntryId, Selection};
use smith_agent::{Agent, Session, Submit};
use smith_app::App;
use smith_ui_intents::{NoticeLevel, RedactingSink};

use crate::event::{Event, Events, LiveIntents, LiveSink};

/// What the render loop asks of the work thread.
#[derive(Debug)]
pub(crate) enum Command {
    /// Run a turn for this input (its `@path` mentions attached); with an entry, as a new
    /// branch from it (an earlier message edited): the branch ending there is selected first
    /// (recorded), the transcript read again, then the input admitted with it as its explicit
    /// destination.
    Submit(String, Option<EntryId>),
    /// A change of the session or the working tree through the session's writer.
    Write(Write),
    /// Compact the session, with what the summary should focus on.
    Compact(Option<String>),
    /// Use this model (and thinking level) for the following runs: the route is prepared
    /// again, and each run records the model it used.
    SetModel(Selection, Option<smith::ThinkingLevel>),
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
}

/// The work thread's handle.
#[derive(Debug)]
pub(crate) struct Work {
    pub(crate) commands: mpsc::Sender<Command>,
    pub(crate) thread: Option<JoinHandle<()>>,
}

/// What the thread needs.
pub(crate) struct Start {
    pub(crate) app: Arc<App>,
    pub(crate) session: Session,
    /// This run created the session (removed at the end when nothing was submitted).
    pub(crate) new: bool,
    /// The model chosen with `/model` in an earlier view (over the settings and the session's
    /// recorded one).
    pub(crate) chosen: Option<(Selection, Option<smith::ThinkingLevel>)>,
    pub(crate) script: Option<PathBuf>,
    pub(crate) cwd: PathBuf,
    pub(crate) live: Arc<LiveIntents>,
    pub(crate) events: Events,
}

/// Start the work thread: it prepares the route and tools (so the first frame never waits
/// for plugins), then serves commands until [`Command::Close`].
pub(crate) fn start(start: Start) -> Work {
    let (tx, rx) = mpsc::channel();
    let thread = std::thread::Builder::new()
        .name("smith-tui-work".into())
        .spawn(move || run(start, &rx))
        .ok();
    Work {
        commands: tx,
        thread,
    }
}

/// The selection: the `model` setting (a flag or a file), else the one the session last
/// recorded.
fn selection(app: &App, session: &Session) -> Result<Selection, String> {
    if app.settings.resolved.get("model").is_none()
        && let Some(recorded) = session.model()
    {
        return Ok(recorded.clone());
    }
    app.selection().map_err(|e| {
        format!("{e}; start smith with --model PROVIDER/MODEL (e.g. --model scripted/demo, which needs no key), or set `model` in your config")
    })
}

/// What a run needs, prepared: the selection, its route and plugins, the tools under the
/// user's policy.
type Ready = (Selection, smith_app::Prepared, smith_app::product::Loadout);

/// Prepare runs of `selection` (with `thinking`): the route and plugins, the process policy,
/// the secrets registered with the session; then tell the loop the session is ready for that
/// model.
fn prepare(
    app: &App,
    session: &mut Session,
    selection: Selection,
    thinking: Option<smith::ThinkingLevel>,
    script: Option<PathBuf>,
    cwd: &std::path::Path,
    events: &Events,
) -> Result<Ready, String> {
    let spec = smith_app::RunSpec {
        selection: selection.clone(),
        thinking,
        script,
    };
    let prepared = app.prepare(&spec).map_err(|e| e.to_string())?;
    for notice in &prepared.notices {
        events.send(Event::Notice(NoticeLevel::Warning, notice.to_string()));
    }
    let mut policy = app
        .policy(cwd, &|refusal| {
            format!("{refusal} (`smith trust` trusts this project; `smith --allow-process` allows it for one run)")
        })
        .map_err(|e| e.to_string())?;
    policy.secrets = prepared.secrets.redactor.clone();
    session
        .register_secrets(
            prepared.secrets.redactor.clone(),
            &prepared.secrets.registrations,
        )
        .map_err(|e| e.to_string())?;
    let tools = prepared.tools.clone().with_policy(policy);
    let agent = Agent::routed(&prepared.route, &tools, app.run_limits()).with_lifecycle(&tools);
    events.send(Event::Ready {
        inbox: agent.inbox(session),
        model: selection.clone(),
    });
    Ok((selection, prepared, tools))
}

fn run(start: Start, rx: &mpsc::Receiver<Command>) {
    let Start {
        app,
        mut session,
        new,
        chosen,
        script,
        cwd,
        live,
        events,
    } = start;
    // The pickers' values: the catalog is read here, after the first frame, not before it,
    // and before the session is ready (so a command that opens a picker finds them).
    events.send(Event::Values(smith_app::product::ArgumentValues::of(&app)));
    let (wanted, thinking) = match chosen {
        Some((selection, thinking)) => (Ok(selection), thinking.or_else(|| app.thinking())),
        None => (selection(&app, &session), app.thinking()),
    };
    let first = wanted.and_then(|selection| {
        prepare(
            &app,
            &mut session,
            selection,
            thinking,
            script.clone(),
            &cwd,
            &events,
        )
    });
    let mut ready = match first {
        Ok(ready) => Some(ready),
        Err(why) => {
            events.send(Event::Unprepared(why));
            None
        }
    };
    let mut submitted = false;
    while let Ok(command) = rx.recv() {
        match command {
            Command::Submit(input, at) => {
                let Some((selection, prepared, tools)) = &ready else {
                    events.send(Event::Refused(
                        "no turn can run: the model could not be prepared (see the error above)"
                            .into(),
                    ));
                    continue;
                };
                let prompt = match smith_app::prompt::expand(
                    &input,
                    &cwd,
                    None,
                    smith_app::prompt::Bounds::default(),
                ) {
                    Ok(p) => p,
                    Err(e) => {
                        events.send(Event::Refused(format!(
                            "{e}; nothing was sent (edit the draft and send it again)"
                        )));
                        continue;
                    }
                };
                if let Some(at) = at {
                    if let Err(e) = session.select_branch(at) {
                        events.send(Event::Refused(format!(
                            "{e}; nothing was sent (the edited message is back in the draft)"
                        )));
                        continue;
                    }
                    events.send(Event::Reselected {
                        leaf: at.0,
                        said: format!("a new branch from entry {}: the edited message continues the conversation there (the branches picker shows both)", at.0),
                    });
                }
                let submit = Submit {
                    model: selection,
                    input: &prompt.text,
                    dedup_key: None,
                    destination: at,
                    attachments: &prompt.attachments,
                    images: &prompt.images,
                };
                let agent = Agent::routed(&prepared.route, tools, app.run_limits())
                    .with_lifecycle(tools)
                    .with_compaction(app.compaction_policy())
                    .with_history(tools)
                    .in_dir(cwd.clone());
                submitted = true;
                let mut sink = LiveSink(Arc::clone(&live));
                let mut shown = RedactingSink::new(&mut sink, prepared.secrets.redactor.clone());
                match agent.submit(&mut session, submit, &mut shown, &Cancel::new()) {
                    Ok(_) => events.send(Event::WorkEnded {
                        leaf: session.journal().lock().leaf().map(|l| l.0),
                    }),
                    Err(e) => events.send(Event::Refused(format!("{e}; nothing was sent"))),
                }
            }
            Command::Compact(focus) => {
                let Some((selection, prepared, tools)) = &ready else {
                    events.send(Event::Refused(
                        "nothing can be compacted: the model could not be prepared (see the error above)"
                            .into(),
                    ));
                    continue;
                };
                let agent = Agent::routed(&prepared.route, tools, app.run_limits())
                    .with_lifecycle(tools)
                    .with_compaction(app.compaction_policy())
                    .in_dir(cwd.clone());
                let compact = smith_agent::Compact {
                    model: selection,
                    instructions: focus.as_deref(),
                    keep_tokens: None,
                };
                let mut sink = LiveSink(Arc::clone(&live));
                let mut shown = RedactingSink::new(&mut sink, prepared.secrets.redactor.clone());
                // Its end intent says how it went (the marker, or why nothing was kept).
                let outcome = agent.compact(&mut session, compact, &mut shown, &Cancel::new());
                if let Some(smith_agent::CompactError::Busy(_)) = outcome.error {
                    events.send(Event::Refused(
                        "work is running, so the session was not compacted".into(),
                    ));
                }
            }
            Command::SetModel(wanted, thinking) => {
                let thinking = thinking.or_else(|| app.thinking());
                match prepare(
                    &app,
                    &mut session,
                    wanted.clone(),
                    thinking,
                    script.clone(),
                    &cwd,
                    &events,
                ) {
                    Ok(next) => {
                        ready = Some(next);
                        events.send(Event::Notice(
                            NoticeLevel::Info,
                            format!(
                                "model {wanted}{} for the following runs (each run records the model it used)",
                                thinking.map(|t| format!(", thinking {}", t.as_str())).unwrap_or_default()
                            ),
                        ));
                    }
                    Err(why) => {
                        events.send(Event::Refused(format!("{why}; the model stays as it was")))
                    }
                }
            }
            Command::Write(write) => {
                if write_op(&app, &mut session, &cwd, write, &events)
                    && let Some((selection, _, _)) = &ready
                {
                    // The plugins changed: the following runs load them again.
                    let selection = selection.clone();
                    match prepare(
                        &app,
                        &mut session,
                        selection,
                        app.thinking(),
                        script.clone(),
                        &cwd,
                        &events,
                    ) {
                        Ok(next) => ready = Some(next),
                        Err(why) => {
                            events.send(Event::Unprepared(why));
                            ready = None;
                        }
                    }
                }
            }
            Command::Close { keep: true } => {
                submitted = true;
                break;
            }
            Command::Close { keep: false } => break,
        }
    }
    if new && !submitted {
        // Nothing anyone sent is in it (only its start and secret registrations): remove it
        // while this process still holds its writer lock, so no other process opens it
        // between; a failure leaves an empty session, which is harmless.
        let _ = std::fs::remove_file(session.path());
    }
    if let Err(e) = session.close() {
        events.send(Event::Notice(
            NoticeLevel::Warning,
            format!("closing the session: {e} (nothing acknowledged is lost; the next writer recovers it)"),
        ));
    }
    events.send(Event::Closed);
}

/// Carry out `write` through the session's writer; whether the plugins changed (the route
/// and tools are prepared again).
fn write_op(
    app: &App,
    session: &mut Session,
    cwd: &std::path::Path,
    write: Write,
    events: &Events,
) -> bool {
    use smith_app::history::Step;
    let history =
        |op: &dyn Fn(
            &smith_app::history::ProjectHistory,
            &mut smith_store::SessionWriter,
            &std::path::Path,
        ) -> Result<smith_app::history::Moved, smith_app::history::OpError>| {
            let history = app.open_history(cwd)?;
            let path = session.path().to_owned();
            let shared = session.journal();
            let mut writer = shared.lock();
            op(&history, &mut writer, &path)
        };
    let step = |turn| Step {
        turn,
        snapshot_first: false,
    };
    let moved = match write {
        Write::Undo(turn) => history(&|h, w, p| h.undo_with(w, p, step(turn))),
        Write::Redo => history(&|h, w, p| h.redo_with(w, p, step(false))),
        Write::Restore(target) => history(&|h, w, p| h.restore_with(w, p, &target, false)),
        Write::Select(leaf) => {
            match session.select_branch(leaf) {
                Ok(()) => events.send(Event::Reselected {
                    leaf: leaf.0,
                    said: format!(
                        "continuing the branch that ends at entry {} (recorded; the next message goes there)",
                        leaf.0
                    ),
                }),
                Err(e) => events.send(Event::Notice(
                    NoticeLevel::Error,
                    format!("{e}; the branch stays as it was"),
                )),
            }
            return false;
        }
        Write::Plugin(id, enabled) => {
            return match app.registry.set_enabled(&id, enabled) {
                Ok(was) if was == enabled => {
                    events.send(Event::Notice(
                        NoticeLevel::Info,
                        format!(
                            "plugin {id} is {} already",
                            if enabled { "enabled" } else { "disabled" }
                        ),
                    ));
                    false
                }
                Ok(_) => {
                    let product = app
                        .registry
                        .plugins()
                        .iter()
                        .any(|p| p.manifest.id == id && p.manifest.is_product());
                    events.send(Event::Notice(
                        NoticeLevel::Info,
                        format!(
                            "plugin {id} {} for the following runs of this process (the configuration is unchanged: plugins.{id}.enabled keeps it){}",
                            if enabled { "enabled" } else { "disabled" },
                            if product {
                                "; the commands, keys and themes it contributes change when smith starts again"
                            } else {
                                ""
                            }
                        ),
                    ));
                    true
                }
                Err(e) => {
                    events.send(Event::Notice(NoticeLevel::Error, e));
                    false
                }
            };
        }
    };
    match moved {
        Ok(moved) => {
            let text = moved.summary();
            let text = text.trim_end();
            let text = match app.secrets() {
                Ok(s) => s.redactor.current().redact(text).into_owned(),
                Err(_) => text.to_owned(),
            };
            events.send(Event::Notice(NoticeLevel::Info, text));
        }
        Err(e) => events.send(Event::Notice(
            NoticeLevel::Error,
            format!("{e}; the working tree was not changed (/diff shows the latest change)"),
        )),
    }
    false
}
