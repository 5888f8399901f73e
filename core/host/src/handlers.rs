//! Lifecycle-handler plugins (the `handler-plugin` world): each event is answered in a fresh
//! instance under the same memory limit, deadline and cancellation as tool calls, and the
//! replies go back to the runtime, which validates and applies them only at its safe points
//! (spec: Agent behavior → Plugin event boundary). A handler that traps or overruns is out of
//! service until Smith restarts; the run goes on without it.

use std::sync::Mutex;
use std::time::Duration;

use smith::{
    Action, Cancel, CompactionEvent, HandlerError, HandlerReply, HistoryError, HistoryErrorKind,
    Lifecycle, LifecycleEvent, Mark, PieceRole, PreparedRequest, RequestEvent, RequestPiece,
    SnapshotPhase, SnapshotRequest,
};
use wasmtime::component::{HasSelf, Linker};

use crate::Error;
use crate::effects::CallState;
use crate::grants::{Grant, Granted};
use crate::manifest::Manifest;
use crate::runtime::{Loadout, Runtime, State, Stopped};

/// Generated bindings of the `handler-plugin` world; its `host` and `vcs` imports are the tool
/// world's.
#[allow(missing_docs, unreachable_pub, clippy::all)]
pub(crate) mod bindings {
    wasmtime::component::bindgen!({
        path: "../../plugins/wit",
        world: "handler-plugin",
        with: {
            "smith:plugin/host": crate::runtime::bindings::smith::plugin::host,
            "smith:plugin/vcs": crate::runtime::bindings::smith::plugin::vcs,
        },
    });
}

use bindings::smith::plugin::lifecycle as wit;
use bindings::{HandlerPlugin, HandlerPluginPre};

/// The lifecycle interface holds types only.
impl wit::Host for State {}

/// Longest a handler may take to answer one event (handlers decide; they do not work), or
/// the host's call deadline when that is shorter.
pub const HANDLER_DEADLINE: Duration = Duration::from_secs(5);

/// A loaded handler plugin.
pub(crate) struct LoadedHandler {
    pub(crate) manifest: Manifest,
    origin: String,
    loaded: crate::generation::Lazy<crate::generation::Ready<Pre>>,
    /// Set when an instance trapped or overran: later events get this error.
    failed: Mutex<Option<String>>,
}

/// The handler world's pre-instantiated bindings.
pub(crate) type Pre = HandlerPluginPre<State>;

/// The linker of the handler world: WASI deny-by-default plus the `host` import.
pub(crate) fn linker(engine: &wasmtime::Engine) -> Result<Linker<State>, Error> {
    let mut linker: Linker<State> = Linker::new(engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker)
        .map_err(|e| Error::Engine(format!("{e:#}")))?;
    HandlerPlugin::add_to_linker::<State, HasSelf<State>>(&mut linker, |s| s)
        .map_err(|e| Error::Engine(format!("{e:#}")))?;
    Ok(linker)
}

/// Check `component` against the handler world and keep it ready to instantiate.
pub(crate) fn pre(
    linkers: &crate::runtime::Linkers,
    component: &wasmtime::component::Component,
    origin: &str,
) -> Result<Pre, Error> {
    let bad = |reason: String| Error::Component {
        origin: origin.to_owned(),
        reason,
    };
    let instance_pre = linkers
        .handler
        .instantiate_pre(component)
        .map_err(|e| bad(format!("it does not fit the `handler-plugin` world: {e:#}")))?;
    HandlerPluginPre::new(instance_pre).map_err(|e| {
        bad(format!(
            "it does not export the `handler-plugin` world: {e:#}"
        ))
    })
}

impl LoadedHandler {
    pub(crate) fn new(
        manifest: Manifest,
        origin: String,
        loaded: crate::generation::Lazy<crate::generation::Ready<Pre>>,
    ) -> Self {
        Self {
            manifest,
            origin,
            loaded,
            failed: Mutex::new(None),
        }
    }

    /// Its component, loaded on first use.
    pub(crate) fn ready(&self, runtime: &Runtime) -> Result<&crate::generation::Ready<Pre>, &str> {
        self.loaded
            .get(|component| crate::generation::load_handler(runtime, component, &self.origin))
    }

    /// The tier of its code when its component is loaded, and how many instances were made
    /// of it.
    pub(crate) fn usage(&self) -> (Option<crate::cache::Tier>, u64) {
        (
            self.loaded.loaded().map(|r| r.tier),
            self.loaded.instances(),
        )
    }
}

fn queued(items: &[smith::QueuedInput]) -> Vec<wit::QueuedInput> {
    items
        .iter()
        .map(|q| wit::QueuedInput {
            submission: q.submission.0,
            delivery: match q.delivery {
                smith::Delivery::Steer => wit::Delivery::Steer,
                smith::Delivery::FollowUp => wit::Delivery::FollowUp,
            },
            bytes: q.input.len() as u64,
        })
        .collect()
}

fn event(event: &LifecycleEvent) -> wit::LifecycleEvent {
    match event {
        LifecycleEvent::ToolEnd {
            round,
            remaining,
            queued: q,
        } => wit::LifecycleEvent::ToolEnd(wit::ToolEndEvent {
            round: *round,
            remaining: *remaining,
            queued: queued(q),
        }),
        LifecycleEvent::BatchEnd { round, queued: q } => {
            wit::LifecycleEvent::BatchEnd(wit::RoundEvent {
                round: *round,
                queued: queued(q),
            })
        }
        LifecycleEvent::Idle { round, queued: q } => wit::LifecycleEvent::Idle(wit::RoundEvent {
            round: *round,
            queued: queued(q),
        }),
    }
}

/// A handler's reason, cut so a plugin cannot flood notices.
fn cut(text: &str) -> String {
    cut_to(text, 500)
}

/// `text` cut at about `max` bytes on a character boundary, with `…` when cut: what a plugin
/// says is bounded before it reaches a person or the model.
pub(crate) fn cut_to(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}…", &text[..end])
}

impl LoadedHandler {
    /// Answer `event` in a fresh instance: the plugin's actions as it gave them.
    fn answer(
        &self,
        runtime: &Runtime,
        event: &wit::LifecycleEvent,
        cancel: &Cancel,
        context: Option<crate::context_imports::ContextAccess>,
    ) -> Result<Vec<wit::Action>, HandlerError> {
        let label = self.manifest.label();
        let mut call = CallState::inert(&label);
        call.cancel = cancel.clone();
        if context.is_some()
            && self
                .manifest
                .grants
                .contains(&crate::grants::Grant::ContextRead)
        {
            call.granted.grants.push(crate::grants::Grant::ContextRead);
            call.context = context;
        }
        self.answer_in(runtime, event, call)
            .map(|(actions, _)| actions)
    }

    /// Answer `event` in a fresh instance whose calls run in `call`: the plugin's actions as it
    /// gave them and the snapshot ids its `vcs.snapshot` calls returned.
    fn answer_in(
        &self,
        runtime: &Runtime,
        event: &wit::LifecycleEvent,
        call: CallState,
    ) -> Result<(Vec<wit::Action>, Vec<String>), HandlerError> {
        let label = self.manifest.label();
        let failed = self
            .failed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone();
        if let Some(why) = failed {
            return Err(HandlerError::OutOfService {
                handler: label,
                why,
            });
        }
        let ready = self
            .ready(runtime)
            .map_err(|why| HandlerError::OutOfService {
                handler: label.clone(),
                why: why.to_owned(),
            })?;
        let mut store = runtime.store(
            ready.tier,
            call,
            runtime.limits().deadline.min(HANDLER_DEADLINE),
        );
        self.loaded.count_instance();
        let result = crate::kernel_call(|| {
            ready
                .pre
                .instantiate(&mut store)
                .and_then(|instance| instance.call_handle(&mut store, event))
        });
        match result {
            Ok(Ok(actions)) => {
                let call = &mut store.data_mut().call;
                if let Some(why) = call.terminal.take() {
                    return Err(HandlerError::Refused(why));
                }
                Ok((actions, std::mem::take(&mut call.snapshots)))
            }
            Ok(Err(why)) => Err(HandlerError::Refused(cut(&why))),
            Err(e) => {
                let stopped = e.downcast_ref::<Stopped>();
                let why = match stopped {
                    Some(s) => s.to_string(),
                    None => format!("the plugin trapped: {}", crate::tool_call::trap_reason(&e)),
                };
                if !matches!(stopped, Some(Stopped::Cancelled)) {
                    *self
                        .failed
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(why.clone());
                }
                Err(HandlerError::Stopped(why))
            }
        }
    }

    fn handle(
        &self,
        runtime: &Runtime,
        event: &wit::LifecycleEvent,
        cancel: &Cancel,
    ) -> HandlerReply {
        let actions = self.answer(runtime, event, cancel, None).and_then(|actions| {
            actions
                .into_iter()
                .map(|a| match a {
                    wit::Action::Deliver(id) => Ok(Action::Deliver(smith::EntryId(id))),
                    wit::Action::SkipRemaining(why) => Ok(Action::SkipRemaining(cut(&why))),
                    wit::Action::Restore => Err(HandlerError::Refused(
                        "it answered `restore`, which answers only a `restore` event".to_owned(),
                    )),
                    wit::Action::Instructions(_)
                    | wit::Action::Context(_)
                    | wit::Action::CompactionAsk(_)
                    | wit::Action::Notice(_) => Err(HandlerError::Refused(
                        "it answered `instructions`, `context`, `compaction-ask` or `notice`, which answer only `prompt`, `context` and `compact` events".to_owned(),
                    )),
                    wit::Action::Snapshot(_) => Err(HandlerError::Refused(
                        "it answered `snapshot`, which answers only a `snapshot` event".to_owned(),
                    )),
                })
                .collect()
        });
        HandlerReply {
            handler: self.manifest.label(),
            actions,
        }
    }
}

/// A restore decision to ask the secret policy (see the WIT `restore-event`).
#[derive(Clone, Copy, Debug)]
pub(crate) struct RestoreQuery<'a> {
    /// The secret's name.
    pub(crate) secret: &'a str,
    /// The plugin whose tool asked for the effect (`id@version`).
    pub(crate) plugin: &'a str,
    /// `process.run`, `fs.write` or `fs.edit`.
    pub(crate) effect: &'a str,
    /// The program, or the file's path as given.
    pub(crate) target: &'a str,
}

impl Loadout {
    /// Whether the active `secret-policy` handler lets the effect `query` describes receive
    /// the secret's plaintext. No such handler, an out-of-service one, or any answer but
    /// `restore`: no (deny by default).
    pub(crate) fn authorize_restore(&self, query: &RestoreQuery<'_>, cancel: &Cancel) -> bool {
        let Some(policy) = self
            .handlers()
            .iter()
            .find(|h| h.manifest.handlers.iter().any(|r| r == "secret-policy"))
        else {
            return false;
        };
        let event = wit::LifecycleEvent::Restore(wit::RestoreEvent {
            secret: query.secret.to_owned(),
            plugin: query.plugin.to_owned(),
            effect: query.effect.to_owned(),
            target: query.target.to_owned(),
        });
        policy
            .answer(self.runtime(), &event, cancel, None)
            .is_ok_and(|actions| actions.iter().any(|a| matches!(a, wit::Action::Restore)))
    }
}

/// The largest instructions a `prompt` handler may give, and the largest piece of standing
/// context, in bytes: a context file of [`crate::MAX_CONTEXT_FILE_BYTES`] with room for the
/// heading that names it.
pub const MAX_PIECE_BYTES: usize = 68 * 1024;

/// The largest standing context all of one `context` handler's pieces may add, in bytes.
pub const MAX_CONTEXT_BYTES: usize = 256 * 1024;

/// `os-arch` as the `prompt` event names the platform (`linux-x86_64`, `macos-aarch64`).
fn platform() -> String {
    format!("{}-{}", std::env::consts::OS, std::env::consts::ARCH)
}

impl Loadout {
    /// The pieces `handler` gave for `event` (of role `role`) and its notices (each prefixed
    /// with the handler), validated as one batch: only the answer `role` takes and notices,
    /// each piece within [`MAX_PIECE_BYTES`], together within [`MAX_CONTEXT_BYTES`]; or a
    /// sentence saying why it contributes nothing.
    fn pieces(
        &self,
        handler: &LoadedHandler,
        event: &wit::LifecycleEvent,
        role: PieceRole,
        cancel: &Cancel,
        notices: &mut Vec<String>,
    ) -> Result<Vec<RequestPiece>, String> {
        let label = handler.manifest.label();
        let access = (role == PieceRole::Context).then(|| crate::context_imports::ContextAccess {
            dirs: self.policy.scope.context_dirs.clone(),
            names: handler.manifest.context_files.clone(),
            preferred: crate::context_imports::preferred(
                &handler.manifest.context_files,
                &self.policy.scope.context_files,
            ),
            user_dir: self.policy.scope.user_dir.clone(),
        });
        let (kind, answer) = match role {
            PieceRole::Instructions => ("prompt", "instructions"),
            PieceRole::Context => ("context", "context"),
            PieceRole::Compaction => ("compaction", "compaction-ask"),
        };
        let actions = handler
            .answer(self.runtime(), event, cancel, access)
            .map_err(|e| format!("{kind} handler {label} gave nothing for this request: {e}"))?;
        let mut pieces = Vec::new();
        let mut said = Vec::new();
        let mut total = 0usize;
        for action in actions {
            let (source, text) = match (role, action) {
                (PieceRole::Instructions, wit::Action::Instructions(text)) => (None, text),
                (PieceRole::Context, wit::Action::Context(piece)) => (piece.source, piece.text),
                (PieceRole::Compaction, wit::Action::CompactionAsk(text)) => (None, text),
                (_, wit::Action::Notice(text)) => {
                    said.push(format!("{kind} handler {label}: {}", cut(&text)));
                    continue;
                }
                _ => {
                    return Err(format!(
                        "{kind} handler {label} answered with an action other than `{answer}`, so its whole answer was set aside"
                    ));
                }
            };
            total += text.len();
            if text.len() > MAX_PIECE_BYTES || total > MAX_CONTEXT_BYTES {
                return Err(format!(
                    "{kind} handler {label} gave more than {} bytes, so its whole answer was set aside; shorten what it reads",
                    if text.len() > MAX_PIECE_BYTES {
                        MAX_PIECE_BYTES
                    } else {
                        MAX_CONTEXT_BYTES
                    }
                ));
            }
            pieces.push(RequestPiece {
                handler: label.clone(),
                role,
                source: source.map(|s| cut(&s)),
                text,
            });
        }
        notices.extend(said);
        Ok(pieces)
    }
}

impl Lifecycle for Loadout {
    /// The handler plugin holding the `queue-policy` role, as `id@version` — unless it is out
    /// of service after a failure (then no input can be queued that it could never deliver).
    fn queue_policy(&self) -> Option<String> {
        self.handlers()
            .iter()
            .find(|h| h.manifest.handlers.iter().any(|r| r == "queue-policy"))
            .filter(|h| {
                h.failed
                    .lock()
                    .unwrap_or_else(std::sync::PoisonError::into_inner)
                    .is_none()
            })
            .map(|h| h.manifest.label())
    }

    /// Every handler of the pinned generation, in load order, each in a fresh instance.
    fn handle(&self, event: &LifecycleEvent, cancel: &Cancel) -> Vec<HandlerReply> {
        let wit_event = self::event(event);
        self.handlers()
            .iter()
            .filter(|h| {
                // Request preparers and the history answer only their own events.
                !h.manifest
                    .handlers
                    .iter()
                    .all(|r| matches!(r.as_str(), "prompt" | "context" | "compaction" | "history"))
            })
            .map(|h| h.handle(self.runtime(), &wit_event, cancel))
            .collect()
    }

    /// The first `compaction` handler's ask, in a fresh instance; a handler that fails,
    /// answers wrongly or gives no ask is named in the error.
    fn compaction_prompt(
        &self,
        event: &CompactionEvent,
        cancel: &Cancel,
    ) -> Result<RequestPiece, String> {
        let has = |h: &&LoadedHandler| h.manifest.handlers.iter().any(|r| r == "compaction");
        let Some(handler) = self.handlers().iter().find(has) else {
            return smith::NoHandlers.compaction_prompt(event, cancel);
        };
        let wit_event = wit::LifecycleEvent::Compact(wit::CompactEvent {
            reason: event.reason.as_str().to_owned(),
            summarized: event.summarized,
            kept: event.kept,
            estimated_tokens: event.estimated_tokens,
            instructions: event.instructions.clone(),
        });
        let mut notices = Vec::new();
        let mut pieces = self.pieces(
            handler,
            &wit_event,
            PieceRole::Compaction,
            cancel,
            &mut notices,
        )?;
        match (pieces.len(), pieces.pop()) {
            (1, Some(piece)) => Ok(piece),
            (n, _) => Err(format!(
                "compaction handler {} answered with {n} asks instead of one, so nothing was compacted",
                handler.manifest.label()
            )),
        }
    }

    /// The first `prompt` handler's instructions, then every `context` handler's pieces, in
    /// load order, each handler in a fresh instance; a handler that fails or answers wrongly
    /// contributes nothing and is named in the problems.
    fn prepare_request(&self, event: &RequestEvent, cancel: &Cancel) -> PreparedRequest {
        let scope = &self.policy.scope;
        let cwd = scope
            .cwd
            .as_ref()
            .map(|p| p.display().to_string())
            .unwrap_or_default();
        let mut out = PreparedRequest::default();
        let has = |h: &&LoadedHandler, role: &str| h.manifest.handlers.iter().any(|r| r == role);
        if let Some(prompt) = self.handlers().iter().find(|h| has(h, "prompt")) {
            let wit_event = wit::LifecycleEvent::Prompt(wit::PromptEvent {
                round: event.round,
                cwd: cwd.clone(),
                platform: platform(),
                smith_version: env!("CARGO_PKG_VERSION").to_owned(),
                tools: event.tools.clone(),
            });
            match self.pieces(
                prompt,
                &wit_event,
                PieceRole::Instructions,
                cancel,
                &mut out.problems,
            ) {
                Ok(pieces) => out.pieces.extend(pieces),
                Err(problem) => out.problems.push(problem),
            }
        }
        let dirs: Vec<String> = scope
            .context_dirs
            .iter()
            .map(|d| d.display().to_string())
            .collect();
        for handler in self.handlers().iter().filter(|h| has(h, "context")) {
            if cancel.is_cancelled() {
                break;
            }
            let wit_event = wit::LifecycleEvent::Context(wit::ContextEvent {
                round: event.round,
                cwd: cwd.clone(),
                dirs: dirs.clone(),
                user_dir: scope.user_dir.as_ref().map(|d| d.display().to_string()),
            });
            match self.pieces(
                handler,
                &wit_event,
                PieceRole::Context,
                cancel,
                &mut out.problems,
            ) {
                Ok(pieces) => out.pieces.extend(pieces),
                Err(problem) => out.problems.push(problem),
            }
        }
        out
    }
}

impl Loadout {
    /// The first active handler holding the `history` role.
    fn history_handler(&self) -> Option<&LoadedHandler> {
        self.handlers()
            .iter()
            .find(|h| h.manifest.handlers.iter().any(|r| r == "history"))
    }
}

impl smith::History for Loadout {
    /// Snapshots are taken when the run has a working tree (the `history.snapshots` setting
    /// is on) and an active plugin holds the `history` role.
    fn enabled(&self) -> bool {
        self.policy.tree.0.is_some() && self.history_handler().is_some()
    }

    /// The `history` handler's snapshot, in a fresh instance whose `vcs` effects are recorded
    /// under the batch's first call (before) or last call (after). Its answer must be one
    /// `snapshot` action naming an id its own `vcs.snapshot` returned in that answer.
    fn snapshot(&self, request: &SnapshotRequest<'_>) -> Result<Mark, HistoryError> {
        let failed = |message: String| HistoryError::new(HistoryErrorKind::Io, message);
        let handler = self.history_handler().ok_or_else(|| {
            HistoryError::new(
                HistoryErrorKind::Unavailable,
                "no active plugin holds the `history` role, so no snapshot is taken",
            )
        })?;
        let label = handler.manifest.label();
        let (call, tag, phase) = match request.phase {
            SnapshotPhase::Before => (
                request.calls.first(),
                "vcs-before-",
                wit::SnapshotPhase::Before,
            ),
            SnapshotPhase::After => (
                request.calls.last(),
                "vcs-after-",
                wit::SnapshotPhase::After,
            ),
        };
        let call =
            call.ok_or_else(|| failed("a snapshot was asked for an empty tool batch".to_owned()))?;
        let granted = Granted {
            grants: handler
                .manifest
                .grants
                .iter()
                .copied()
                .filter(|g| matches!(g, Grant::VcsSnapshot | Grant::VcsRestore))
                .collect(),
            roots: Vec::new(),
            process_refused: None,
            net: crate::net::NetGrant::default(),
            settings: std::collections::BTreeMap::new(),
        };
        let state = CallState::for_history(
            label.clone(),
            call,
            tag,
            request.context,
            granted,
            std::sync::Arc::clone(&self.policy),
            request.cancel.clone(),
        );
        let event = wit::LifecycleEvent::Snapshot(wit::SnapshotEvent {
            phase,
            round: request.round,
            calls: request.calls.iter().map(|c| c.id.clone()).collect(),
            tools: request.calls.iter().map(|c| c.name.clone()).collect(),
        });
        let (actions, taken) = handler
            .answer_in(self.runtime(), &event, state)
            .map_err(|e| failed(format!("history handler {label} took no snapshot: {e}")))?;
        let mut named = Vec::new();
        for action in actions {
            match action {
                wit::Action::Snapshot(id) => named.push(id),
                wit::Action::Notice(_) => {}
                _ => {
                    return Err(failed(format!(
                        "history handler {label} answered a `snapshot` event with an action other than `snapshot`"
                    )));
                }
            }
        }
        let [id] = named.as_slice() else {
            return Err(failed(format!(
                "history handler {label} named {} snapshots instead of one",
                named.len()
            )));
        };
        if !taken.contains(id) {
            return Err(failed(format!(
                "history handler {label} named snapshot `{}`, which its own `vcs.snapshot` did not return in this answer",
                cut(id)
            )));
        }
        let root = self
            .policy
            .tree
            .0
            .as_ref()
            .map(|t| t.root().to_owned())
            .unwrap_or_default();
        Ok(Mark {
            snapshot: id.clone(),
            root,
        })
    }
}
