//! The session runner: the one owner of an open session that every frontend drives — `eval`
//! and `compact`, the terminal UI's work thread, a JSON-RPC session's thread and MCP's
//! `smith_run` — through one typed [`Command`] enum (spec: Runtime foundation, "Embedding and
//! frontends share session access, submission, inspection, observation, cancellation, fork,
//! and close semantics").
//!
//! A [`Runner`] holds the session (its writer), the routes prepared for it ([`Ready`]: the
//! route, the plugin generation under the user's policy with the run's secrets), registers
//! those secrets with the session once, and builds the agent in one place
//! (`Runner::agent`). What each command may do is decided here once: the writes that need
//! the session idle are refused with [`RunnerError::Busy`] while work is live, anything that
//! asks a model without a prepared route with [`RunnerError::Unprepared`]; a refusal writes
//! nothing. Intents leave through the sink the caller gives each command, redacted against
//! the run's secrets.
//!
//! Commands run on the thread that owns the runner, one at a time. What must work while a
//! turn runs — queueing input as steer or follow-up, withdrawing it, aborting work, answering
//! a tool's question — goes through the session's inbox from any thread
//! ([`Runner::inbox`]), as the spec's queue semantics require.

mod error;
mod inbox;
mod ready;
mod recovery;
pub mod target;

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};
use std::sync::Arc;

use smith::{Cancel, EntryId, Selection, SessionId, StopReason, UsageTotals};
use smith_agent::{Agent, Session};
use smith_ui_intents::{IntentSink, RedactingSink};

pub use error::RunnerError;
pub use inbox::{Inbox, QueueInput, Queued, Waiting};
pub use ready::{Ready, RefusalWords};

use crate::history::{Moved, Step};
use crate::prompt::Prompt;
use crate::{App, RunSpec, SelectError};

/// Input for a turn ([`Command::Submit`]).
#[derive(Debug, Default)]
pub struct Submission {
    /// The prompt: its text, attached files and images.
    pub prompt: Prompt,
    /// The route to run it with; `None`: the one in use ([`Runner::current`]).
    pub spec: Option<RunSpec>,
    /// The deduplication key (spec: Sessions → Submission and receipts).
    pub dedup_key: Option<String>,
    /// The entry to continue from (a branch point); `None`: the selected leaf.
    pub destination: Option<EntryId>,
}

/// A compaction asked for ([`Command::Compact`]).
#[derive(Debug, Default)]
pub struct CompactRequest {
    /// What the summary should focus on.
    pub instructions: Option<String>,
    /// Tokens kept verbatim (default: the `compaction.keep-tokens` setting).
    pub keep_tokens: Option<u64>,
    /// The route whose model summarizes; `None`: the one in use.
    pub spec: Option<RunSpec>,
}

/// What a frontend asks of its session. Each is refused by a typed [`RunnerError`], with
/// nothing written, when the session's state does not allow it.
#[derive(Debug)]
pub enum Command {
    /// Run a turn for this input. An interrupted turn the session holds is settled as
    /// aborted first (as by every command that writes history, but [`Command::Continue`]).
    Submit(Submission),
    /// Continue the interrupted turn the session holds ([`Runner::interrupted`]) with the
    /// route of this spec, or the one in use; its recorded prerequisites are checked first.
    Continue(Option<RunSpec>),
    /// Settle the interrupted turn the session holds as aborted.
    SettleInterrupted,
    /// Compact the context now (idle only).
    Compact(CompactRequest),
    /// Select the branch ending at this entry (idle only; never inside a tool batch).
    Select(EntryId),
    /// Change what later requests show the model, as one validated batch.
    Edit(Vec<smith_store::EditOp>),
    /// Take back the latest tool batch's file changes (idle only).
    Undo(Step),
    /// Reapply what the latest undo took back (idle only).
    Redo(Step),
    /// Put the working tree back as a snapshot or entry had it (idle only).
    Restore {
        /// A snapshot id or an entry id.
        target: String,
        /// Snapshot changes made by hand first instead of refusing.
        snapshot_first: bool,
    },
    /// Use this route for the following runs (prepared now; the session's model stays as
    /// recorded until a run records another).
    SetModel(RunSpec),
    /// Use this permission mode for the following runs of this session (`None`: the next one
    /// after the current, in [`smith_host::PermissionMode::ALL`]'s order); the policy plugins
    /// get it in every event, and every effect they decide records it.
    SetPermissionMode(Option<smith_host::PermissionMode>),
    /// Enable or disable a plugin for the rest of this process (idle only); the route in use
    /// is prepared again with the new plugin set.
    SetPlugin {
        /// The plugin id.
        id: String,
        /// Enable (true) or disable.
        enabled: bool,
    },
}

/// How a command ended.
#[derive(Debug)]
pub enum Done {
    /// A turn ran (or, deduplicated, the original's end was found; or an interrupted turn
    /// was continued).
    Ran(TurnEnd),
    /// The interrupted turn of this submission was settled as aborted.
    Settled(EntryId),
    /// A summary was recorded.
    Compacted(smith_agent::Compacted),
    /// The branch ending at this entry is selected (recorded, unless it already was).
    Selected(EntryId),
    /// The context edit recorded at this entry.
    Edited(EntryId),
    /// A working-tree change done and recorded.
    Moved(Moved),
    /// The permission mode in use now.
    PermissionModeSet(smith_host::PermissionMode),
    /// The route in use now.
    ModelSet {
        /// The selection.
        selection: Selection,
        /// The thinking level asked for.
        thinking: Option<smith::ThinkingLevel>,
    },
    /// A plugin switched (or already as asked: `changed` false).
    PluginSet {
        /// Whether its state changed.
        changed: bool,
        /// Whether it is a product plugin (its commands, keys and themes change at the next
        /// start).
        product: bool,
    },
}

/// How a turn ended.
#[derive(Debug)]
pub struct TurnEnd {
    /// The submission the work belongs to, once admitted; deduplicated, the original.
    pub submission: Option<EntryId>,
    /// The input repeated an earlier submission's key and content: nothing ran.
    pub deduplicated: bool,
    /// The final stop reason.
    pub stop_reason: StopReason,
    /// Usage summed over the run's responses.
    pub usage: UsageTotals,
    /// Cost in US dollars, when every response's is known.
    pub cost_usd: Option<f64>,
    /// The failure, when `stop_reason` is `error`.
    pub error: Option<smith_agent::RunError>,
}

/// The owner of one open session (its writer) and the routes prepared for it.
pub struct Runner {
    app: Arc<App>,
    session: Session,
    cwd: PathBuf,
    words: RefusalWords,
    /// Routes prepared, newest last; the last one used is [`Runner::current`].
    ready: Vec<Ready>,
    current: Option<usize>,
    /// This runner created the session: closed with nothing admitted, it is removed.
    fresh: bool,
    /// The session's next entry id when the runner took it: closed with none appended since
    /// (every command refused), nothing is written, not even an acknowledgement.
    opened_at: EntryId,
    /// Something was admitted, or a write failed (the file is kept to be inspected).
    keep: bool,
    /// The permission mode chosen for this session ([`Command::SetPermissionMode`]), which
    /// every route prepared from now on takes too; `None`: the settings'.
    permission_mode: Option<smith_host::PermissionMode>,
    /// What is streaming now, for observers in other processes.
    feed: crate::live::Feed,
    /// The effects of unknown outcome the recovery at opening left ([`Runner::recovered`]).
    recovered: Vec<String>,
    /// The MCP servers the frontend's client declared for this session (an editor's, over
    /// ACP), given to every route prepared ([`Runner::declare_mcp_servers`]).
    mcp_servers: BTreeMap<String, crate::mcp::Declared>,
}

impl std::fmt::Debug for Runner {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Runner")
            .field("session", &self.session.id())
            .field("cwd", &self.cwd)
            .field("current", &self.current())
            .finish_non_exhaustive()
    }
}

impl Runner {
    /// A runner of `session` (opened as its writer) for tools run in `cwd`, a refused program
    /// worded by `words`. No route is prepared yet: [`Runner::prepare`] or
    /// [`Runner::adopt`].
    pub fn new(app: Arc<App>, session: Session, cwd: PathBuf, words: RefusalWords) -> Self {
        let opened_at = session.journal().lock().next_entry_id();
        let feed = crate::live::Feed::new(session.path());
        Self {
            opened_at,
            app,
            session,
            cwd,
            words,
            ready: Vec::new(),
            current: None,
            fresh: false,
            keep: false,
            permission_mode: None,
            feed,
            recovered: Vec::new(),
            mcp_servers: BTreeMap::new(),
        }
        .with_recorded_permission_mode()
    }

    fn with_recorded_permission_mode(mut self) -> Self {
        self.restore_permission_mode();
        self
    }

    /// [`Command::SetPermissionMode`]: `mode` (or the one after the current) for every route
    /// prepared and to be prepared, recorded in the session first (it holds when the session
    /// is opened again); the mode now in use.
    ///
    /// # Errors
    /// [`RunnerError::Store`] when it cannot be recorded: nothing changed.
    fn set_permission_mode(
        &mut self,
        mode: Option<smith_host::PermissionMode>,
    ) -> Result<smith_host::PermissionMode, RunnerError> {
        let mode = mode.unwrap_or_else(|| self.permission_mode().next());
        self.session.record_permission_mode(mode.name())?;
        self.apply_permission_mode(mode);
        Ok(mode)
    }

    fn apply_permission_mode(&mut self, mode: smith_host::PermissionMode) {
        self.permission_mode = Some(mode);
        for ready in &mut self.ready {
            ready.set_permission_mode(mode);
        }
    }

    /// Give the MCP client `servers` — the ones the frontend's client declared for this
    /// session, by name (an editor's, from ACP's `session/new`) — on top of those added and
    /// configured, in every route prepared and to be prepared; their tools are found at the
    /// next turn. They are not recorded: the client declares them again when it opens the
    /// session again.
    ///
    /// # Errors
    /// [`crate::mcp::McpError`] for the first entry that cannot be used (a bad name, neither a
    /// command nor a url…): none is given then.
    pub fn declare_mcp_servers(
        &mut self,
        servers: BTreeMap<String, crate::mcp::Server>,
    ) -> Result<(), crate::mcp::McpError> {
        self.mcp_servers = crate::mcp::from_editor(servers)?;
        let servers = self.mcp_servers.clone();
        for ready in &mut self.ready {
            ready.give_mcp_servers(&servers);
        }
        Ok(())
    }

    /// Record `model` as the session's model when another was recorded last (after a turn on
    /// a prompt command's own model): the model a resumed session runs on.
    ///
    /// # Errors
    /// [`RunnerError::Store`] when it cannot be recorded: nothing changed.
    pub fn record_model(&mut self, model: &Selection) -> Result<(), RunnerError> {
        Ok(self.session.record_model(model)?)
    }

    /// The mode recorded in the session by an earlier [`Command::SetPermissionMode`], unless
    /// this invocation names one itself (a flag or an environment variable): taken from now on.
    fn restore_permission_mode(&mut self) {
        let named = self
            .app
            .settings
            .resolved
            .get("permissions.mode")
            .is_some_and(|v| {
                matches!(
                    v.source.level,
                    smith_config::Level::Environment | smith_config::Level::CommandLine
                )
            });
        if named {
            return;
        }
        let recorded = self
            .session
            .permission_mode()
            .and_then(|m| m.parse::<smith_host::PermissionMode>().ok());
        if let Some(mode) = recorded {
            self.apply_permission_mode(mode);
        }
    }

    /// The permission mode the next run uses: the session's choice, else the route's
    /// settings, else — before a route is prepared — what the settings and the directory's
    /// trust give (`permissions.mode`; `auto` where programs may run, else `auto-edit`).
    pub fn permission_mode(&self) -> smith_host::PermissionMode {
        self.permission_mode
            .or_else(|| self.current().map(|r| r.tools().permission_mode()))
            .or_else(|| {
                self.app
                    .policy(&self.cwd, &self.words)
                    .ok()
                    .map(|p| p.permissions.mode)
            })
            .unwrap_or_default()
    }

    /// Mark the session as created for this runner: closed with nothing admitted (only its
    /// start and secret registrations in it), the file is removed ([`Runner::close`]).
    #[must_use]
    pub fn created(mut self, created: bool) -> Self {
        self.fresh = created;
        self
    }

    /// Mark `effects` (effect ids) as the effects of unknown outcome the recovery at opening
    /// left: a frontend offers them for a verdict ([`Runner::recovered_effects`]).
    #[must_use]
    pub fn recovered(mut self, effects: Vec<String>) -> Self {
        self.recovered = effects;
        self
    }

    /// The effects of unknown outcome the recovery at opening left (effect ids, in intent
    /// order; empty when it left none, or the runner was made without saying).
    pub fn recovered_effects(&self) -> &[String] {
        &self.recovered
    }

    /// Whether this runner created the session (see [`Runner::created`]), rather than opening
    /// one that existed.
    pub fn is_created(&self) -> bool {
        self.fresh
    }

    /// The composition root.
    pub fn app(&self) -> &Arc<App> {
        &self.app
    }

    /// The session id.
    pub fn id(&self) -> SessionId {
        self.session.id()
    }

    /// The session file.
    pub fn path(&self) -> &Path {
        self.session.path()
    }

    /// The working directory tools run in.
    pub fn cwd(&self) -> &Path {
        &self.cwd
    }

    /// Run tools in `cwd` from now on (a protocol client's roots moved them): the routes are
    /// prepared again when next used, since the user's policy depends on the directory.
    pub fn move_to(&mut self, cwd: PathBuf) {
        if cwd != self.cwd {
            self.cwd = cwd;
            self.ready.clear();
            self.current = None;
        }
    }

    /// The session's effect journal (for tool calls a protocol client makes directly).
    pub fn journal(&self) -> smith_store::SharedWriter {
        self.session.journal()
    }

    /// What the session keeps running for its plugins between tool calls (for tool calls a
    /// protocol client makes directly, so they reach the programs the session's runs started).
    pub fn resident(&self) -> std::sync::Arc<smith::Resident> {
        self.session.resident()
    }

    /// The model the session last recorded, if any.
    pub fn recorded_model(&self) -> Option<&Selection> {
        self.session.model()
    }

    /// The selected leaf.
    pub fn leaf(&self) -> Option<EntryId> {
        self.session.journal().lock().leaf()
    }

    /// The committed position of the session file, as the writer advances it.
    pub fn published_position(&self) -> Arc<std::sync::atomic::AtomicU64> {
        self.session.journal().lock().published_position()
    }

    /// The route in use, if one is prepared.
    pub fn current(&self) -> Option<&Ready> {
        self.current.map(|i| &self.ready[i])
    }

    /// The selection runs use by default: `model` (a reference, alias or group) when given,
    /// else the `model` setting, else the model the session last recorded (the second value
    /// is then `true`).
    ///
    /// # Errors
    /// [`SelectError`]: no model anywhere, or `model` / the setting is not a selection.
    pub fn default_selection(&self, model: Option<&str>) -> Result<(Selection, bool), SelectError> {
        if let Some(model) = model {
            return model
                .parse()
                .map(|s| (s, false))
                .map_err(|error| SelectError::Invalid {
                    source_text: format!("the model {model:?}"),
                    error,
                });
        }
        if self.app.settings.resolved.get("model").is_none()
            && let Some(recorded) = self.session.model()
        {
            return Ok((recorded.clone(), true));
        }
        self.app.selection().map(|s| (s, false))
    }

    /// An inbox of the session: queueing (with the queue policy of the route in use; none
    /// prepared, queueing is refused), listing and withdrawing input, aborting work and
    /// answering questions — from any thread, while a turn runs.
    pub fn inbox(&self) -> Inbox {
        Inbox(match self.current() {
            Some(ready) => self.agent(ready).inbox(&self.session),
            None => self.session.inbox_without_policy(),
        })
    }

    /// The live work items of the session (admitted, not ended), not counting an
    /// interrupted turn held for a decision ([`Runner::interrupted`]): nothing runs it.
    pub fn live_work(&self) -> usize {
        self.session.inbox_without_policy().live_work().len()
    }

    /// Prepare runs of `spec` (reusing a route already prepared for the same spec) and use
    /// it from now on; the session's records are redacted against the route's secrets.
    ///
    /// # Errors
    /// [`RunnerError::App`] (the catalog, the route, the plugins, the policy);
    /// [`RunnerError::Store`] registering the secrets.
    pub fn prepare(&mut self, spec: RunSpec) -> Result<&Ready, RunnerError> {
        let found = self.ready.iter().position(|r| same_spec(r.spec(), &spec));
        let index = match found {
            Some(i) => i,
            None => {
                let mut ready = self.app.ready(spec, &self.cwd, self.words)?;
                if let Some(mode) = self.permission_mode {
                    ready.set_permission_mode(mode);
                }
                ready.give_mcp_servers(&self.mcp_servers);
                self.ready.push(ready);
                self.ready.len() - 1
            }
        };
        self.register(index)?;
        self.current = Some(index);
        Ok(&self.ready[index])
    }

    /// Use `ready`, made before the session was opened (so a failure there wrote nothing).
    ///
    /// # Errors
    /// [`RunnerError::Store`] registering the secrets.
    pub fn adopt(&mut self, mut ready: Ready) -> Result<(), RunnerError> {
        // A route prepared elsewhere takes the session's mode too (a resumed session's).
        if let Some(mode) = self.permission_mode {
            ready.set_permission_mode(mode);
        }
        ready.give_mcp_servers(&self.mcp_servers);
        self.ready.push(ready);
        let index = self.ready.len() - 1;
        self.register(index)?;
        self.current = Some(index);
        Ok(())
    }

    /// Forget every prepared route (the plugin set changed) and prepare the one in use again.
    fn prepare_again(&mut self) -> Result<(), RunnerError> {
        let Some(spec) = self.current().map(|r| r.spec().clone()) else {
            return Ok(());
        };
        self.ready.clear();
        self.current = None;
        self.prepare(spec).map(|_| ())
    }

    /// Redact the session's records against the route's secrets from now on, and record
    /// the registrations the branch does not hold yet (nothing when it holds them all).
    fn register(&mut self, index: usize) -> Result<(), RunnerError> {
        let secrets = &self.ready[index].prepared().secrets;
        self.session
            .register_secrets(secrets.redactor.clone(), &secrets.registrations)?;
        Ok(())
    }

    /// Redact the session's records against the user's secrets (the store, credentials, key
    /// variables) before any route is prepared: for effects a protocol client asks for
    /// directly. A route prepared later registers its own.
    ///
    /// # Errors
    /// [`RunnerError::App`] gathering the secrets; [`RunnerError::Store`] recording them.
    pub fn register_secrets(&mut self) -> Result<(), RunnerError> {
        let secrets = self.app.secrets().map_err(crate::Error::from)?;
        self.session
            .register_secrets(secrets.redactor, &secrets.registrations)?;
        Ok(())
    }

    /// The agent of `ready`: its route and tools, the lifecycle handlers and the working-tree
    /// history of the same plugin generation, the settings' run limits and compaction policy,
    /// in this runner's directory. Every run of every frontend is built here.
    fn agent<'a>(&self, ready: &'a Ready) -> Agent<'a> {
        let tools = ready.tools();
        Agent::routed(&ready.prepared().route, tools, self.app.run_limits())
            .with_lifecycle(tools)
            .with_compaction(self.app.compaction_policy())
            .with_history(tools)
            .with_sandbox(ready.sandbox())
            .in_dir(self.cwd.clone())
    }

    /// The route for a command: `spec`'s (prepared now) or the one in use.
    fn route_for(
        &mut self,
        spec: Option<RunSpec>,
        what: &'static str,
    ) -> Result<usize, RunnerError> {
        if let Some(spec) = spec {
            self.prepare(spec)?;
        }
        self.current.ok_or_else(|| RunnerError::Unprepared {
            what,
            why: "no model is prepared".into(),
        })
    }

    /// Refuse `what` while work is live.
    fn idle(&self, what: &'static str) -> Result<(), RunnerError> {
        match self.live_work() {
            0 => Ok(()),
            live => Err(RunnerError::Busy {
                session: self.session.id(),
                live,
                what,
            }),
        }
    }

    /// Carry out `command`, its intents (a turn's, a compaction's) into `sink` redacted
    /// against the run's secrets, observing `cancel`.
    ///
    /// # Errors
    /// [`RunnerError`]: refused (nothing written) or failed as each variant says.
    pub fn apply(
        &mut self,
        command: Command,
        sink: &mut dyn IntentSink,
        cancel: &Cancel,
    ) -> Result<Done, RunnerError> {
        match command {
            Command::Submit(submission) => self.submit(submission, sink, cancel).map(Done::Ran),
            Command::Continue(spec) => self.continue_interrupted(spec, sink, cancel).map(Done::Ran),
            Command::SettleInterrupted => {
                let turn = self.interrupted().map(|t| t.submission).ok_or_else(|| {
                    RunnerError::Continue(Box::new(smith_agent::ContinueError::NothingToContinue))
                })?;
                self.settle_interrupted()?;
                Ok(Done::Settled(turn))
            }
            Command::Compact(request) => self.compact(request, sink, cancel).map(Done::Compacted),
            Command::Select(leaf) => {
                self.idle("selecting a branch")?;
                self.session.select_branch(leaf)?;
                Ok(Done::Selected(leaf))
            }
            Command::Edit(edits) => {
                let session = self.session.id();
                // An interrupted turn is settled once the checks that need no projection pass.
                let held = self.session.interrupted_turn().is_some();
                let edited = self.session.edit_context(edits);
                self.keep |= edited.is_ok() || (held && self.session.interrupted_turn().is_none());
                edited
                    .map(Done::Edited)
                    .map_err(|e| RunnerError::edit(e, session))
            }
            Command::Undo(step) => self.history("undo", |h, w, p| h.undo_with(w, p, step)),
            Command::Redo(step) => self.history("redo", |h, w, p| h.redo_with(w, p, step)),
            Command::Restore {
                target,
                snapshot_first,
            } => self.history("restore", |h, w, p| {
                h.restore_with(w, p, &target, snapshot_first)
            }),
            Command::SetModel(spec) => {
                let ready = self.prepare(spec)?;
                Ok(Done::ModelSet {
                    selection: ready.selection().clone(),
                    thinking: ready.thinking(),
                })
            }
            Command::SetPlugin { id, enabled } => self.set_plugin(&id, enabled),
            Command::SetPermissionMode(mode) => {
                Ok(Done::PermissionModeSet(self.set_permission_mode(mode)?))
            }
        }
    }

    /// [`Command::Submit`]: run a turn for `submission`.
    ///
    /// # Errors
    /// As [`Runner::apply`].
    pub fn submit(
        &mut self,
        submission: Submission,
        sink: &mut dyn IntentSink,
        cancel: &Cancel,
    ) -> Result<TurnEnd, RunnerError> {
        let prompt = &submission.prompt;
        if prompt.text.trim().is_empty() && prompt.images.is_empty() {
            return Err(RunnerError::EmptyInput);
        }
        let index = self.route_for(submission.spec, "no turn")?;
        let ready = &self.ready[index];
        let agent = self.agent(ready);
        let prompt = &submission.prompt;
        let submit = smith_agent::Submit {
            model: ready.selection(),
            input: &prompt.text,
            dedup_key: submission.dedup_key.as_deref(),
            destination: submission.destination,
            attachments: &prompt.attachments,
            images: &prompt.images,
        };
        let mut tee = self.feed.tee(sink);
        let mut shown = RedactingSink::new(&mut tee, ready.redactor().clone());
        match agent.submit(&mut self.session, submit, &mut shown, cancel) {
            Ok(outcome) => {
                self.keep |= outcome.submission.is_some();
                Ok(TurnEnd {
                    submission: outcome.submission,
                    deduplicated: outcome.deduplicated,
                    stop_reason: outcome.stop_reason,
                    usage: outcome.usage,
                    cost_usd: outcome.cost_usd,
                    error: outcome.error,
                })
            }
            Err(e) => {
                // A write that failed keeps the file to be inspected; a refusal wrote nothing.
                self.keep |= matches!(e, smith_agent::AdmissionError::Store(_));
                Err(e.into())
            }
        }
    }

    /// [`Command::Compact`]: compact the context now.
    ///
    /// # Errors
    /// As [`Runner::apply`].
    pub fn compact(
        &mut self,
        request: CompactRequest,
        sink: &mut dyn IntentSink,
        cancel: &Cancel,
    ) -> Result<smith_agent::Compacted, RunnerError> {
        self.idle("the compaction")?;
        if let Some(turn) = self.interrupted() {
            return Err(RunnerError::Interrupted {
                session: self.session.id(),
                turn: turn.submission,
                what: "the compaction",
            });
        }
        let index = self.route_for(request.spec, "the compaction")?;
        let ready = &self.ready[index];
        let compact = smith_agent::Compact {
            model: ready.selection(),
            instructions: request.instructions.as_deref(),
            keep_tokens: request.keep_tokens,
        };
        let agent = self.agent(ready);
        let mut tee = self.feed.tee(sink);
        let mut shown = RedactingSink::new(&mut tee, ready.redactor().clone());
        let outcome = agent.compact(&mut self.session, compact, &mut shown, cancel);
        match (outcome.compacted, outcome.error) {
            (Some(compacted), _) => Ok(compacted),
            (None, Some(e)) => Err(RunnerError::compaction(e, self.session.id())),
            (None, None) => Err(RunnerError::compaction(
                smith_agent::CompactError::Incomplete("the compaction recorded nothing".into()),
                self.session.id(),
            )),
        }
    }

    /// Run a working-tree history operation through the session's own writer (this runner
    /// holds it, so the operation cannot take the file's writer lock itself).
    fn history(
        &mut self,
        what: &'static str,
        op: impl FnOnce(
            &crate::history::ProjectHistory,
            &mut smith_store::SessionWriter,
            &Path,
        ) -> Result<Moved, crate::history::OpError>,
    ) -> Result<Done, RunnerError> {
        self.idle(what)?;
        let history = self.app.open_history(&self.cwd)?;
        let path = self.session.path().to_owned();
        let shared = self.session.journal();
        let mut moved = op(&history, &mut shared.lock(), &path)?;
        // An attached editor's buffers show what the disk now holds (spec: an `undo` restores
        // through the editor when it is attached).
        if let Some(editor) = self.session.resident().get::<smith::Editor>()
            && editor.write
        {
            moved.tell(&editor, Path::new(history.root()));
        }
        // The change moved on from an interrupted turn held here (a refusal wrote nothing).
        self.settle_interrupted()?;
        Ok(Done::Moved(moved))
    }

    fn set_plugin(&mut self, id: &str, enabled: bool) -> Result<Done, RunnerError> {
        self.idle("switching a plugin")?;
        let was = self.app.registry.set_enabled(id, enabled)?;
        let product = self
            .app
            .registry
            .plugins()
            .iter()
            .any(|p| p.manifest.id == id && p.manifest.is_product());
        let changed = was != enabled;
        if changed {
            // The following runs load the plugins again.
            self.prepare_again()?;
        }
        Ok(Done::PluginSet { changed, product })
    }

    /// Close the session: every change acknowledged. A session this runner created in which
    /// nothing was admitted (only its start and secret registrations) is removed first, while
    /// this process still holds its writer lock — unless `keep`. When nothing was appended
    /// since the runner took the session (every command was refused), the file is left as it
    /// was: the lock is released without recording an acknowledgement.
    ///
    /// # Errors
    /// The store's error closing the file (nothing acknowledged is lost: the next writer's
    /// recovery establishes it).
    pub fn close(mut self, keep: bool) -> Result<(), smith_store::Error> {
        self.feed.stop();
        if self.fresh && !self.keep && !keep {
            // A failure leaves an empty session, which is harmless.
            let _ = std::fs::remove_file(self.session.path());
        }
        if self.session.journal().lock().next_entry_id() == self.opened_at {
            // Dropped, the writer releases its lock; the last change's acknowledgement, if
            // it was never recorded, is established by the next writer's recovery.
            return Ok(());
        }
        self.session.close()
    }
}

fn same_spec(a: &RunSpec, b: &RunSpec) -> bool {
    a.selection == b.selection && a.thinking == b.thinking && a.script == b.script
}
