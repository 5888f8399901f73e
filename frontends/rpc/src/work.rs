//! A session this server writes: its own thread owns the [`smith_agent::Session`] and runs
//! its work (the one agent loop, as every frontend does) while the connection goes on; queue
//! operations and aborts go through the session's [`Inbox`] from any thread. Live intents
//! become events in the outbox, each with the committed position it follows and the id of
//! the request that caused the work.

use std::collections::HashMap;
use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, mpsc};
use std::thread::JoinHandle;

use serde_json::{Value, json};
use smith::{Cancel, EntryId, Selection, SessionId};
use smith_agent::{Agent, Inbox, Session, Submit};
use smith_render_jsonrpc::{ErrorObject, Event, Outbox, response};
use smith_ui_intents::{Delivery, Intent, IntentSink, RedactingSink};

use crate::decl::code;
use crate::errors;
use crate::server::{Server, lock};

/// What a submission asks for.
pub(crate) struct SubmitParams {
    pub(crate) input: String,
    pub(crate) model: Option<String>,
    pub(crate) dedup_key: Option<String>,
    pub(crate) destination: Option<u64>,
    pub(crate) script: Option<PathBuf>,
}

/// What `session.compact` asks for.
pub(crate) struct CompactParams {
    pub(crate) instructions: Option<String>,
    pub(crate) keep_tokens: Option<u64>,
    pub(crate) model: Option<String>,
    pub(crate) script: Option<PathBuf>,
}

/// A working-tree history operation (`history.undo`, `history.redo`, `history.restore`).
pub(crate) enum HistoryOp {
    Undo(smith_app::history::Step),
    Redo(smith_app::history::Step),
    Restore {
        target: String,
        snapshot_first: bool,
    },
}

/// A command for the session's thread, answered to `id`.
pub(crate) enum Command {
    History {
        id: Option<Value>,
        op: HistoryOp,
    },
    Submit {
        id: Option<Value>,
        params: SubmitParams,
    },
    Edit {
        id: Option<Value>,
        edits: Vec<smith_store::EditOp>,
    },
    Compact {
        id: Option<Value>,
        params: CompactParams,
    },
    Select {
        id: Option<Value>,
        entry: u64,
    },
    Close {
        id: Option<Value>,
    },
    /// A queue call sent while the session was being prepared, or behind one that was: served
    /// in the order sent ([`crate::queue`]).
    Queue {
        id: Option<Value>,
        method: &'static str,
        params: crate::params::Params,
    },
}

/// What the connection's threads share with the session's thread.
#[derive(Default)]
pub(crate) struct Shared {
    /// A submission is on its way to admission (sent to the session's thread, not yet
    /// answered).
    pub(crate) admitting: AtomicBool,
    /// The running work's submission.
    pub(crate) running: Mutex<Option<EntryId>>,
    /// The session's inbox (once a run was prepared).
    pub(crate) inbox: Mutex<Option<Inbox>>,
    /// Why the session's model could not be prepared (queuing needs its queue policy).
    pub(crate) unprepared: Mutex<Option<String>>,
    /// Whether the first preparation is over (succeeded or not), and its signal.
    pub(crate) prepared: Mutex<bool>,
    pub(crate) prepared_signal: Condvar,
    /// Queue calls sent to the session's thread and not yet served: later ones follow them.
    pub(crate) deferred: std::sync::atomic::AtomicUsize,
}

impl Shared {
    fn mark_prepared(&self) {
        *lock(&self.prepared) = true;
        self.prepared_signal.notify_all();
    }
}

/// The connection's handle on a session it writes.
pub(crate) struct WriterHandle {
    commands: Mutex<Option<mpsc::Sender<Command>>>,
    pub(crate) shared: Arc<Shared>,
    pub(crate) published: Arc<AtomicU64>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl WriterHandle {
    /// Start the session's thread.
    pub(crate) fn start(server: &Arc<Server>, session: Session, cwd: PathBuf) -> Self {
        let published = session.journal().lock().published_position();
        let shared = Arc::new(Shared::default());
        // Listing, withdrawing and clearing the queue, aborting and answering need no model:
        // they work from the start, whatever preparing the session's model decides.
        *lock(&shared.inbox) = Some(session.inbox_without_policy());
        let (tx, rx) = mpsc::channel();
        let thread = {
            let server = Arc::clone(server);
            let shared = Arc::clone(&shared);
            let published = Arc::clone(&published);
            std::thread::spawn(move || {
                Actor {
                    server,
                    session: Some(session),
                    cwd,
                    shared,
                    published,
                    ready: HashMap::new(),
                    registered: false,
                }
                .run(&rx);
            })
        };
        Self {
            commands: Mutex::new(Some(tx)),
            shared,
            published,
            thread: Mutex::new(Some(thread)),
        }
    }

    /// Send `command` to the session's thread; `false` when it has ended.
    pub(crate) fn send(&self, command: Command) -> bool {
        lock(&self.commands)
            .as_ref()
            .is_some_and(|tx| tx.send(command).is_ok())
    }

    /// Whether work is live in the session (admitted and not ended: its `run_end` is not
    /// committed) or a submission is on its way to admission. Once work's end is committed
    /// the session takes the next submission, queued behind what its thread still does.
    pub(crate) fn busy(&self) -> bool {
        self.shared.admitting.load(Ordering::SeqCst)
            || lock(&self.shared.inbox)
                .as_ref()
                .is_some_and(|i| !i.live_work().is_empty())
    }

    /// Claim admission for a submission: `false` when the session is busy.
    pub(crate) fn claim(&self) -> bool {
        if lock(&self.shared.inbox)
            .as_ref()
            .is_some_and(|i| !i.live_work().is_empty())
        {
            return false;
        }
        self.shared
            .admitting
            .compare_exchange(false, true, Ordering::SeqCst, Ordering::SeqCst)
            .is_ok()
    }

    /// The inbox: listing, withdrawing, aborting and answering work from the start.
    pub(crate) fn inbox(&self) -> Result<Inbox, ErrorObject> {
        lock(&self.shared.inbox)
            .clone()
            .ok_or_else(errors::shutting_down)
    }

    /// Whether the first preparation of the session's model is over.
    pub(crate) fn prepared(&self) -> bool {
        *lock(&self.shared.prepared)
    }

    /// Whether the session's model could not be prepared (queuing needs a model named).
    pub(crate) fn unprepared(&self) -> bool {
        lock(&self.shared.unprepared).is_some()
    }

    /// The inbox that queues input (with the queue policy of the prepared model), waiting for
    /// the first preparation to end; or why the session cannot queue.
    pub(crate) fn queuing_inbox(&self) -> Result<Inbox, ErrorObject> {
        let mut prepared = lock(&self.shared.prepared);
        while !*prepared {
            prepared = self
                .shared
                .prepared_signal
                .wait(prepared)
                .unwrap_or_else(std::sync::PoisonError::into_inner);
        }
        drop(prepared);
        if let Some(why) = lock(&self.shared.unprepared).clone() {
            return Err(ErrorObject::new(
                code::CONFIG,
                format!("input cannot be queued in this session: {why}"),
            ));
        }
        self.inbox()
    }

    /// Abort the running work, if any (recorded).
    pub(crate) fn abort_running(&self, reason: &str) {
        let running = *lock(&self.shared.running);
        if let (Some(work), Ok(inbox)) = (running, self.inbox()) {
            let _ = inbox.abort(work, reason);
        }
    }

    /// Close the session after the work it runs (its turn ends first) and wait for its thread.
    pub(crate) fn close_and_join(&self) {
        self.send(Command::Close { id: None });
        lock(&self.commands).take();
        if let Some(t) = lock(&self.thread).take() {
            let _ = t.join();
        }
    }
}

/// A prepared route and the plugin generation a run uses.
struct Ready {
    prepared: smith_app::Prepared,
    tools: smith_app::Loadout,
}

struct Actor {
    server: Arc<Server>,
    session: Option<Session>,
    cwd: PathBuf,
    shared: Arc<Shared>,
    published: Arc<AtomicU64>,
    ready: HashMap<String, Ready>,
    registered: bool,
}

impl Actor {
    fn run(mut self, rx: &mpsc::Receiver<Command>) {
        // Prepare the default selection now, so queuing has the queue policy before the
        // first submission.
        match self.default_selection(None) {
            Ok(selection) => {
                if let Err(e) = self.prepare(&selection, None) {
                    *lock(&self.shared.unprepared) = Some(e.message);
                }
            }
            Err(e) => *lock(&self.shared.unprepared) = Some(e.message),
        }
        self.shared.mark_prepared();
        while let Ok(command) = rx.recv() {
            match command {
                Command::Submit { id, params } => {
                    let result = self.submit(&id, params);
                    self.shared.admitting.store(false, Ordering::SeqCst);
                    if let Err(e) = result {
                        self.server.answer(id.as_ref(), Err(e));
                    }
                }
                Command::Edit { id, edits } => {
                    let result = self.with_session(|s| {
                        s.edit_context(edits)
                            .map(|edit| json!({"edit": edit}))
                            .map_err(|e| match e {
                                smith_agent::EditError::Store(e) => errors::store(&e),
                                other => ErrorObject::new(code::REFUSED, other.to_string()),
                            })
                    });
                    self.server.answer(id.as_ref(), result);
                }
                Command::Compact { id, params } => {
                    let result = self.compact(&id, &params);
                    self.shared.admitting.store(false, Ordering::SeqCst);
                    self.server.answer(id.as_ref(), result);
                }
                Command::History { id, op } => {
                    let result = self.history(op);
                    self.shared.admitting.store(false, Ordering::SeqCst);
                    self.server.answer(id.as_ref(), result);
                }
                Command::Select { id, entry } => {
                    let result = self.with_session(|s| {
                        s.select_branch(EntryId(entry))
                            .map(|()| json!({"leaf": entry}))
                            .map_err(|e| errors::admission(&e))
                    });
                    self.server.answer(id.as_ref(), result);
                }
                Command::Queue { id, method, params } => {
                    let result = self.queue(method, &params);
                    self.server.answer(id.as_ref(), result);
                    self.shared.deferred.fetch_sub(1, Ordering::SeqCst);
                }
                Command::Close { id } => {
                    let result = match self.session.take() {
                        Some(s) => s
                            .close()
                            .map(|()| json!({"closed": true}))
                            .map_err(|e| errors::store(&e)),
                        None => Ok(json!({"closed": true})),
                    };
                    self.server.answer(id.as_ref(), result);
                    break;
                }
            }
        }
        if let Some(s) = self.session.take() {
            let _ = s.close();
        }
        self.shared.mark_prepared();
    }

    /// Serve a queue call in its turn; input that names a model while the session has none
    /// prepared prepares that one (its queue policy comes with it).
    fn queue(
        &mut self,
        method: &'static str,
        params: &crate::params::Params,
    ) -> Result<Value, ErrorObject> {
        if matches!(method, "queue.steer" | "queue.follow_up")
            && lock(&self.shared.unprepared).is_some()
            && let Some(model) = params.str("model")
        {
            let selection = crate::queue::selection(&self.server, model)?;
            self.prepare(&selection, None).map_err(|mut e| {
                e.data = Some(json!({"field": "model"}));
                e
            })?;
        }
        crate::queue::run(&self.server, method, params)
    }

    /// Run `op` through the session's own writer (this thread holds the session, so the
    /// operation cannot take the file's writer lock itself); the `vcs` record it writes as the
    /// answer.
    fn history(&mut self, op: HistoryOp) -> Result<Value, ErrorObject> {
        let history = self
            .server
            .app
            .open_history(&self.cwd)
            .map_err(|e| errors::history(&e))?;
        let session = self.session.as_ref().ok_or_else(errors::shutting_down)?;
        let path = session.path().to_owned();
        let shared = session.journal();
        let mut writer = shared.lock();
        let moved = match op {
            HistoryOp::Undo(step) => history.undo_with(&mut writer, &path, step),
            HistoryOp::Redo(step) => history.redo_with(&mut writer, &path, step),
            HistoryOp::Restore {
                target,
                snapshot_first,
            } => history.restore_with(&mut writer, &path, &target, snapshot_first),
        }
        .map_err(|e| errors::history(&e))?;
        Ok(moved.to_json())
    }

    fn with_session(
        &mut self,
        f: impl FnOnce(&mut Session) -> Result<Value, ErrorObject>,
    ) -> Result<Value, ErrorObject> {
        match self.session.as_mut() {
            Some(s) => f(s),
            None => Err(errors::shutting_down()),
        }
    }

    /// The selection of a submission: its `model`, else the `model` setting, else the one
    /// the session last recorded.
    fn default_selection(&self, model: Option<&str>) -> Result<Selection, ErrorObject> {
        if let Some(model) = model {
            return model.parse().map_err(|e: smith::ModelRefError| {
                ErrorObject {
                    code: code::CONFIG,
                    message: format!("`model` {model:?} is not a model reference, alias or group: {e}; `models.list` lists the models"),
                    data: Some(json!({"field": "model"})),
                }
            });
        }
        let app = &self.server.app;
        if app.settings.resolved.get("model").is_none()
            && let Some(recorded) = self.session.as_ref().and_then(|s| s.model().cloned())
        {
            return Ok(recorded);
        }
        app.selection().map_err(|e| errors::config(&e))
    }

    fn key(selection: &Selection, script: Option<&PathBuf>) -> String {
        format!(
            "{selection}\u{0}{}",
            script.map(|p| p.display().to_string()).unwrap_or_default()
        )
    }

    /// Prepare `selection` (cached), and give the session its inbox and secrets.
    fn prepare(
        &mut self,
        selection: &Selection,
        script: Option<&PathBuf>,
    ) -> Result<String, ErrorObject> {
        let key = Self::key(selection, script);
        if !self.ready.contains_key(&key) {
            let app = &self.server.app;
            let spec = smith_app::RunSpec {
                selection: selection.clone(),
                thinking: app.thinking(),
                script: script.cloned(),
            };
            let prepared = app.prepare(&spec).map_err(|e| errors::config(&e))?;
            let mut policy = app
                .policy(&self.cwd, &|refusal| refusal.to_string())
                .map_err(|e| errors::config(&e))?;
            policy.secrets = prepared.secrets.redactor.clone();
            let tools = prepared.tools.clone().with_policy(policy);
            self.ready.insert(key.clone(), Ready { prepared, tools });
        }
        let ready = &self.ready[&key];
        let Some(session) = self.session.as_mut() else {
            return Err(errors::shutting_down());
        };
        if !self.registered {
            session
                .register_secrets(
                    ready.prepared.secrets.redactor.clone(),
                    &ready.prepared.secrets.registrations,
                )
                .map_err(|e| errors::store(&e))?;
            self.registered = true;
        }
        let agent = Agent::routed(
            &ready.prepared.route,
            &ready.tools,
            self.server.app.run_limits(),
        )
        .with_lifecycle(&ready.tools);
        *lock(&self.shared.inbox) = Some(agent.inbox(session));
        *lock(&self.shared.unprepared) = None;
        Ok(key)
    }

    fn submit(&mut self, id: &Option<Value>, params: SubmitParams) -> Result<(), ErrorObject> {
        let selection = self.default_selection(params.model.as_deref())?;
        let key = self.prepare(&selection, params.script.as_ref())?;
        // A notification (no id) is never answered.
        let mut sink = self.sink(id, id.is_none())?;
        let ready = &self.ready[&key];
        let Some(session) = self.session.as_mut() else {
            return Err(errors::shutting_down());
        };
        let agent = agent(ready, &self.server.app, &self.cwd);
        let submit = Submit {
            model: &selection,
            input: &params.input,
            dedup_key: params.dedup_key.as_deref(),
            destination: params.destination.map(EntryId),
            attachments: &[],
            images: &[],
        };
        let cancel = Cancel::new();
        let outcome = {
            let mut shown = RedactingSink::new(&mut sink, ready.prepared.secrets.redactor.clone());
            agent.submit(session, submit, &mut shown, &cancel)
        };
        *lock(&self.shared.running) = None;
        match outcome {
            Err(e) if !sink.replied => Err(errors::admission(&e)),
            Ok(outcome) if !sink.replied => {
                // No receipt intent came (it always does after admission); answer from the
                // outcome.
                self.server.answer(
                    id.as_ref(),
                    Ok(json!({"session": sink.session, "submission": outcome.submission, "deduplicated": outcome.deduplicated, "state": "terminal"})),
                );
                Ok(())
            }
            _ => Ok(()),
        }
    }
}

/// The agent of `ready`'s plugin generation, as every run of a session's thread uses it.
fn agent<'a>(ready: &'a Ready, app: &smith_app::App, cwd: &std::path::Path) -> Agent<'a> {
    Agent::routed(&ready.prepared.route, &ready.tools, app.run_limits())
        .with_lifecycle(&ready.tools)
        .with_compaction(app.compaction_policy())
        .with_history(&ready.tools)
        .in_dir(cwd.to_owned())
}

impl Actor {
    /// The sink of the run answering request `id` (`replied`: it needs no answer from the
    /// sink — a notification, or a call answered when the run is over).
    fn sink(&self, id: &Option<Value>, replied: bool) -> Result<RpcSink, ErrorObject> {
        let session = self.session.as_ref().ok_or_else(errors::shutting_down)?;
        Ok(RpcSink {
            outbox: Arc::clone(&self.server.outbox),
            session: session.id(),
            request: id.clone().unwrap_or(Value::Null),
            published: Arc::clone(&self.published),
            shared: Arc::clone(&self.shared),
            replied,
            admitted: false,
        })
    }

    /// Compact the session now; its intents stream as events tagged with the request `id`,
    /// and the reply is the recorded compaction.
    fn compact(
        &mut self,
        id: &Option<Value>,
        params: &CompactParams,
    ) -> Result<Value, ErrorObject> {
        let selection = self.default_selection(params.model.as_deref())?;
        let key = self.prepare(&selection, params.script.as_ref())?;
        // Answered here, after the compaction.
        let mut sink = self.sink(id, true)?;
        let ready = &self.ready[&key];
        let Some(session) = self.session.as_mut() else {
            return Err(errors::shutting_down());
        };
        let agent = agent(ready, &self.server.app, &self.cwd);
        let compact = smith_agent::Compact {
            model: &selection,
            instructions: params.instructions.as_deref(),
            keep_tokens: params.keep_tokens,
        };
        let outcome = {
            let mut shown = RedactingSink::new(&mut sink, ready.prepared.secrets.redactor.clone());
            agent.compact(session, compact, &mut shown, &Cancel::new())
        };
        match (outcome.compacted, outcome.error) {
            (Some(c), _) => Ok(json!({
                "compaction": c.entry,
                "summarized": c.summarized,
                "kept": c.kept,
                "first_kept": c.first_kept,
                "usage": c.usage,
                "cost_usd": c.cost_usd,
            })),
            (None, Some(smith_agent::CompactError::Run(smith_agent::RunError::Store(e)))) => {
                Err(errors::store(&e))
            }
            (None, Some(smith_agent::CompactError::Busy(_))) => {
                Err(errors::busy(&session.id().to_string()))
            }
            (None, e) => Err(ErrorObject::new(
                code::REFUSED,
                e.map_or_else(
                    || "the compaction recorded nothing".to_owned(),
                    |e| e.to_string(),
                ),
            )),
        }
    }
}

/// The sink of one run: the first receipt answers the `session.submit` request (after the
/// admission is durable); every intent becomes an event.
struct RpcSink {
    outbox: Arc<Outbox>,
    session: SessionId,
    request: Value,
    published: Arc<AtomicU64>,
    shared: Arc<Shared>,
    /// Whether the `session.submit` was answered (or, a notification, needs no answer).
    replied: bool,
    /// Whether the work's receipt came (admission is over).
    admitted: bool,
}

impl IntentSink for RpcSink {
    fn emit(&mut self, intent: Intent) -> Delivery {
        let follows = self.published.load(Ordering::Acquire);
        if let Intent::Receipt {
            submission,
            deduplicated,
            ..
        } = &intent
            && !self.admitted
        {
            self.admitted = true;
            self.shared.admitting.store(false, Ordering::SeqCst);
            if !*deduplicated {
                *lock(&self.shared.running) = Some(EntryId(*submission));
            }
        }
        if let Intent::Receipt {
            submission,
            dedup_key,
            deduplicated,
            state,
            stop_reason,
        } = &intent
            && !self.replied
        {
            self.replied = true;
            self.outbox.reply(response(
                &self.request,
                json!({
                    "session": self.session,
                    "submission": submission,
                    "dedup_key": dedup_key,
                    "deduplicated": deduplicated,
                    "state": state,
                    "stop_reason": stop_reason,
                    "position": follows,
                }),
            ));
        }
        // Requests (`confirm_request`, …) are shown like every event; the client answers
        // them with `request.respond`, and an observation started while one waits offers it
        // again.
        self.outbox.event(Event {
            session: self.session,
            follows,
            request: self.request.clone(),
            intent,
        });
        Delivery::Shown
    }
}
