//! A session this server writes: its own thread owns the session's [`Runner`] and runs its
//! work (the one session runner every frontend drives) while the connection goes on; queue
//! operations and aborts go through the session's [`Inbox`] from any thread. Live intents
//! become events in the outbox, each with the committed position it follows and the id of
//! the request that caused the work.

use std::path::PathBuf;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::sync::{Arc, Condvar, Mutex, mpsc};
use std::thread::JoinHandle;

use serde_json::{Value, json};
use smith::{Cancel, EntryId, Selection, SessionId};
use smith_app::runner::{CompactRequest, Inbox, Submission};
use smith_app::{Command as SessionCommand, Done, Runner, RunnerError};
use smith_render_jsonrpc::{ErrorObject, Event, Outbox, response};
use smith_ui_intents::{Delivery, Intent, IntentSink};

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

/// What `session.continue` asks for.
pub(crate) struct ContinueParams {
    pub(crate) model: Option<String>,
    pub(crate) script: Option<PathBuf>,
}

/// What `session.compact` asks for.
pub(crate) struct CompactParams {
    pub(crate) instructions: Option<String>,
    pub(crate) keep_tokens: Option<u64>,
    pub(crate) model: Option<String>,
    pub(crate) script: Option<PathBuf>,
}

/// A command for the session's thread, answered to `id`.
pub(crate) enum Command {
    /// A runner command that emits no intents (a selection, a context edit, a working-tree
    /// history operation), answered with what it did.
    Run {
        id: Option<Value>,
        command: SessionCommand,
    },
    Submit {
        id: Option<Value>,
        params: SubmitParams,
    },
    Compact {
        id: Option<Value>,
        params: CompactParams,
    },
    /// Continue the interrupted turn the session holds.
    Continue {
        id: Option<Value>,
        params: ContinueParams,
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
    /// The session's resident state (the programs it keeps), for `/mcp reconnect`.
    pub(crate) resident: Arc<smith::Resident>,
    pub(crate) shared: Arc<Shared>,
    pub(crate) published: Arc<AtomicU64>,
    thread: Mutex<Option<JoinHandle<()>>>,
}

impl WriterHandle {
    /// Start the session's thread.
    pub(crate) fn start(server: &Arc<Server>, runner: Runner) -> Self {
        let published = runner.published_position();
        let resident = runner.resident();
        let shared = Arc::new(Shared::default());
        // Listing, withdrawing and clearing the queue, aborting and answering need no model:
        // they work from the start, whatever preparing the session's model decides.
        *lock(&shared.inbox) = Some(runner.inbox());
        let (tx, rx) = mpsc::channel();
        let thread = {
            let server = Arc::clone(server);
            let shared = Arc::clone(&shared);
            let published = Arc::clone(&published);
            std::thread::spawn(move || {
                Actor {
                    server,
                    runner: Some(runner),
                    shared,
                    published,
                }
                .run(&rx);
            })
        };
        Self {
            commands: Mutex::new(Some(tx)),
            resident,
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

struct Actor {
    server: Arc<Server>,
    runner: Option<Runner>,
    shared: Arc<Shared>,
    published: Arc<AtomicU64>,
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
                Command::Run { id, command } => {
                    // A history operation was claimed like a submission (no work starts
                    // while the tree is restored); a selection or an edit was not.
                    let claimed = matches!(
                        command,
                        SessionCommand::Undo(_)
                            | SessionCommand::Redo(_)
                            | SessionCommand::Restore { .. }
                    );
                    let result = self.apply(command).map(|done| match done {
                        Done::Moved(moved) => moved.to_json(),
                        Done::Edited(edit) => json!({"edit": edit}),
                        Done::Selected(leaf) => json!({"leaf": leaf}),
                        Done::PermissionModeSet(mode) => json!({"mode": mode.name()}),
                        _ => Value::Null,
                    });
                    if claimed {
                        self.shared.admitting.store(false, Ordering::SeqCst);
                    }
                    self.server.answer(id.as_ref(), result);
                }
                Command::Continue { id, params } => {
                    let result = self.continue_turn(&id, params);
                    self.shared.admitting.store(false, Ordering::SeqCst);
                    if let Err(e) = result {
                        self.server.answer(id.as_ref(), Err(e));
                    }
                }
                Command::Compact { id, params } => {
                    let result = self.compact(&id, params);
                    self.shared.admitting.store(false, Ordering::SeqCst);
                    self.server.answer(id.as_ref(), result);
                }
                Command::Queue { id, method, params } => {
                    let result = self.queue(method, &params);
                    self.server.answer(id.as_ref(), result);
                    self.shared.deferred.fetch_sub(1, Ordering::SeqCst);
                }
                Command::Close { id } => {
                    let result = match self.runner.take() {
                        Some(r) => r
                            .close(true)
                            .map(|()| json!({"closed": true}))
                            .map_err(|e| errors::store(&e)),
                        None => Ok(json!({"closed": true})),
                    };
                    self.server.answer(id.as_ref(), result);
                    break;
                }
            }
        }
        if let Some(r) = self.runner.take() {
            let _ = r.close(true);
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

    fn runner(&mut self) -> Result<&mut Runner, ErrorObject> {
        self.runner.as_mut().ok_or_else(errors::shutting_down)
    }

    /// A command that emits no intents, through the session's runner.
    fn apply(&mut self, command: SessionCommand) -> Result<Done, ErrorObject> {
        let mut quiet = |_: Intent| {};
        self.runner()?
            .apply(command, &mut quiet, &Cancel::new())
            .map_err(|e| errors::runner(&e))
    }

    /// The selection of a submission: its `model`, else the `model` setting, else the one
    /// the session last recorded.
    fn default_selection(&mut self, model: Option<&str>) -> Result<Selection, ErrorObject> {
        let runner = self.runner()?;
        match runner.default_selection(model) {
            Ok((selection, _)) => Ok(selection),
            Err(smith_app::SelectError::Invalid { error, .. }) if model.is_some() => {
                let model = model.unwrap_or_default();
                Err(ErrorObject {
                    code: code::CONFIG,
                    message: format!(
                        "`model` {model:?} is not a model reference, alias or group: {error}; `models.list` lists the models"
                    ),
                    data: Some(json!({"field": "model"})),
                })
            }
            Err(e) => Err(errors::config(&e)),
        }
    }

    /// Prepare `selection` (once per selection and script) in the runner, and give the
    /// connection the session's inbox with its queue policy.
    fn prepare(
        &mut self,
        selection: &Selection,
        script: Option<&PathBuf>,
    ) -> Result<(), ErrorObject> {
        let runner = self.runner()?;
        let spec = smith_app::RunSpec {
            selection: selection.clone(),
            thinking: runner.app().thinking(),
            script: script.cloned(),
        };
        runner.prepare(spec).map_err(|e| match e {
            RunnerError::Store(e) => errors::store(&e),
            other => errors::config(&other),
        })?;
        *lock(&self.shared.inbox) = Some(runner.inbox());
        *lock(&self.shared.unprepared) = None;
        Ok(())
    }

    fn submit(&mut self, id: &Option<Value>, params: SubmitParams) -> Result<(), ErrorObject> {
        let selection = self.default_selection(params.model.as_deref())?;
        self.prepare(&selection, params.script.as_ref())?;
        // A notification (no id) is never answered.
        let mut sink = self.sink(id, id.is_none())?;
        let runner = self.runner()?;
        let submission = Submission {
            prompt: smith_app::prompt::Prompt::literal(params.input),
            spec: None,
            dedup_key: params.dedup_key,
            destination: params.destination.map(EntryId),
        };
        let outcome = runner.submit(submission, &mut sink, &Cancel::new());
        *lock(&self.shared.running) = None;
        match outcome {
            Err(e) if !sink.replied => Err(errors::runner(&e)),
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

    /// Continue the interrupted turn: prepared with the selection it recorded (or `model`,
    /// which the continuation checks is the same); the receipt answers request `id`.
    fn continue_turn(
        &mut self,
        id: &Option<Value>,
        params: ContinueParams,
    ) -> Result<(), ErrorObject> {
        let Some(recorded) = self.runner()?.interrupted().map(|t| t.model.clone()) else {
            return Err(ErrorObject::new(
                code::STATE,
                "the session has no interrupted turn to continue: its last turn ended (or was settled); submit new input with `session.submit`",
            ));
        };
        let selection = match params.model.as_deref() {
            Some(model) => self.default_selection(Some(model))?,
            None => recorded,
        };
        self.prepare(&selection, params.script.as_ref())?;
        let mut sink = self.sink(id, id.is_none())?;
        let outcome = self
            .runner()?
            .continue_interrupted(None, &mut sink, &Cancel::new());
        *lock(&self.shared.running) = None;
        match outcome {
            Err(e) if !sink.replied => Err(errors::runner(&e)),
            _ => Ok(()),
        }
    }

    /// The sink of the run answering request `id` (`replied`: it needs no answer from the
    /// sink — a notification, or a call answered when the run is over).
    fn sink(&mut self, id: &Option<Value>, replied: bool) -> Result<RpcSink, ErrorObject> {
        let session = self.runner()?.id();
        Ok(RpcSink {
            outbox: Arc::clone(&self.server.outbox),
            session,
            request: id.clone().unwrap_or(Value::Null),
            published: Arc::clone(&self.published),
            shared: Arc::clone(&self.shared),
            replied,
            admitted: false,
        })
    }

    /// Compact the session now; its intents stream as events tagged with the request `id`,
    /// and the reply is the recorded compaction.
    fn compact(&mut self, id: &Option<Value>, params: CompactParams) -> Result<Value, ErrorObject> {
        let selection = self.default_selection(params.model.as_deref())?;
        self.prepare(&selection, params.script.as_ref())?;
        // Answered here, after the compaction.
        let mut sink = self.sink(id, true)?;
        let request = CompactRequest {
            instructions: params.instructions,
            keep_tokens: params.keep_tokens,
            spec: None,
        };
        let c = self
            .runner()?
            .compact(request, &mut sink, &Cancel::new())
            .map_err(|e| errors::runner(&e))?;
        Ok(json!({
            "compaction": c.entry,
            "summarized": c.summarized,
            "kept": c.kept,
            "first_kept": c.first_kept,
            "usage": c.usage,
            "cost_usd": c.cost_usd,
        }))
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
