//! The durable effect boundary of plugin calls (spec: Tools → Durable effect boundary): every
//! SDK facility a plugin calls goes through [`CallState::durable`] — grant check, intent
//! recorded durably, cancellation check, the effect, completion recorded with its full
//! bounded output and mutation state. The facility bindings are [`crate::fs_imports`] and
//! [`crate::process_imports`].

use std::sync::Arc;
use std::time::{Duration, Instant};

use smith::{
    Cancel, EffectCompletion, EffectIntent, EffectJournal, EffectOutcome, EntryId, ToolCall,
    ToolContext,
};

use crate::grants::{Effect, Granted, Policy};

/// What one call's effects need: who is calling, what is granted, and where to record.
pub(crate) struct CallState {
    pub(crate) plugin: String,
    tool: String,
    call_id: String,
    pub(crate) granted: Granted,
    /// The user's policy (process bounds, environment pass-through).
    pub(crate) policy: Arc<Policy>,
    journal: Option<Arc<dyn EffectJournal>>,
    cause: Option<EntryId>,
    pub(crate) cancel: Cancel,
    /// Effects so far in this call (numbers the effect ids).
    count: u32,
    /// Set by a facility for its next effect: one that may still run after cancellation (a
    /// plugin's last word, such as telling a server to stop what it was asked). Taken by
    /// [`CallState::begin`].
    pub(crate) last_word: bool,
    /// Last words spoken since cancellation, at most
    /// [`crate::net_imports::MAX_LAST_WORDS`].
    pub(crate) last_words: u32,
    /// Set when a completion could not be recorded: the call's result must say so.
    pub(crate) terminal: Option<String>,
    /// Where progress messages and questions go (the run relays them).
    pub(crate) events: Option<std::sync::mpsc::Sender<smith::ToolEvent>>,
    /// The structured result the plugin handed over (the `structured` import), unchecked.
    pub(crate) structured: Option<String>,
    /// Wall time spent inside effects (a process may run for minutes): the plugin's own
    /// deadline counts only the rest.
    pub(crate) host_time: Duration,
    /// Asks the secret policy whether an effect may receive a secret's plaintext (`None`:
    /// never).
    pub(crate) authorize: Option<Authorizer>,
    /// Asks the policy plugins about each effect before it runs (`None`: no policy plugin,
    /// or not a tool call).
    pub(crate) gate: Option<EffectGate>,
    /// The policy handlers that allowed the call itself (`id@version`).
    pub(crate) call_allowed_by: Vec<String>,
    /// The call's arguments, JSON text, for the policy's effect events (empty without a
    /// policy).
    pub(crate) call_arguments: String,
    /// What policy handlers said when allowing the call or an effect on a person's choice,
    /// and what the host says of an effect's side (an attached editor that did not take a
    /// write), added to the call's result.
    pub(crate) notes: Vec<String>,
    /// Set by a confined program that failed as the sandbox likely made it fail.
    pub(crate) sandbox_refused: std::sync::atomic::AtomicBool,
    /// What a `context` handler may read while it answers (`None` elsewhere).
    pub(crate) context: Option<crate::context_imports::ContextAccess>,
    /// Put between the call id and the count in effect ids (`""` for a tool's own effects; a
    /// `history` handler's snapshots around the call's batch use their own, so the ids stay
    /// unique in the session).
    id_tag: std::borrow::Cow<'static, str>,
    /// The snapshot ids `vcs.snapshot` returned in this call, in order: a `history`
    /// handler's answer may name only these.
    pub(crate) snapshots: Vec<String>,
    /// What the `state` import reaches (`None`: the kind of call has no state).
    pub(crate) state: Option<crate::state_imports::StateAccess>,
    /// Where a policy handler answering the person's choice may add allow rules (`None`
    /// elsewhere).
    pub(crate) remember: Option<std::path::PathBuf>,
    /// The streamed responses still open in this call (their resources' reps): each one's
    /// completion is recorded when the call ends, if not before.
    pub(crate) streams: Vec<u32>,
    /// What the call's session keeps running for its plugins (`None`: outside a session).
    pub(crate) resident: Option<Arc<smith::Resident>>,
    /// The call's sends to kept programs whose exchange is still open: each one's
    /// completion is recorded at the next send to the same program or when the call ends.
    pub(crate) exchanges: Vec<crate::program_imports::Exchange>,
    /// The configured hooks matching the event a `configured-hooks` policy handler is
    /// answering (empty elsewhere), each with the paths it is given: those the call names
    /// (or, at a turn's end, those the turn's matching calls named).
    pub(crate) hooks: Vec<(crate::hooks::Hook, Vec<String>)>,
    /// What a product handler's `runtime` import asks (the frontend's answers; `None`
    /// elsewhere).
    pub(crate) query: Option<crate::runtime_query::SharedQuery>,
}

/// Asks the secret policy about one restore (see [`crate::handlers::RestoreQuery`]).
pub(crate) type Authorizer = Arc<dyn Fn(&crate::handlers::RestoreQuery<'_>) -> bool + Send + Sync>;

/// Asks the policy plugins about one effect (see [`crate::policy::EffectQuery`]), putting any
/// question through the given asker.
pub(crate) type EffectGate = Arc<
    dyn Fn(
            &crate::policy::EffectQuery<'_>,
            &mut crate::policy::Asker<'_>,
        ) -> crate::policy::Decision
        + Send
        + Sync,
>;

/// `text` with every control character but the line break, and every bidirectional override,
/// written as a visible escape (`\u{1b}`): a frontend that strips escape sequences would
/// otherwise hide part of a command the person is asked to allow.
fn visible(text: &str) -> String {
    text.chars()
        .map(|c| {
            let bidi = matches!(c, '\u{202a}'..='\u{202e}' | '\u{2066}'..='\u{2069}');
            if (c.is_control() && c != '\n') || bidi {
                format!("\\u{{{:x}}}", u32::from(c))
            } else {
                c.to_string()
            }
        })
        .collect()
}

/// A program's whole command line from a `process.run` input (`program`, `args`).
fn command_line(input: &serde_json::Value) -> String {
    let program = input["program"].as_str().unwrap_or_default();
    let args = input["args"]
        .as_array()
        .map(Vec::as_slice)
        .unwrap_or_default();
    crate::process_imports::shell_line(program, args.iter().map(|a| a.as_str().unwrap_or_default()))
}

/// How an effect ended: its mutation state, what the plugin gets, the output and evidence
/// recorded in the completion.
pub(crate) struct Done<T, E> {
    pub(crate) outcome: EffectOutcome,
    pub(crate) result: Result<T, E>,
    pub(crate) output: Vec<u8>,
    pub(crate) evidence: serde_json::Value,
}

impl<T, E> Done<T, E> {
    /// An effect that did not happen: `not-applied`, the message recorded as its output.
    pub(crate) fn not_applied(error: E, message: String) -> Self {
        Self {
            outcome: EffectOutcome::NotApplied,
            result: Err(error),
            output: message.into_bytes(),
            evidence: serde_json::Value::Null,
        }
    }
}

/// The errors every facility can report, whatever its WIT error type.
pub(crate) trait EffectError: Sized {
    /// Not granted here.
    fn denied(message: String) -> Self;
    /// Cancelled before it started.
    fn cancelled() -> Self;
    /// A storage or host failure.
    fn io(message: String) -> Self;
}

/// What a durable effect is: its kind, the target it names, and its canonical input.
pub(crate) struct EffectCall<'a> {
    pub(crate) effect: Effect,
    pub(crate) target: &'a str,
    pub(crate) input: serde_json::Value,
    /// A program the sandbox refused, run again outside it (only when the policy allows).
    pub(crate) leaves_sandbox: bool,
    /// Why the facility refuses it before any policy is asked (a host its network grant
    /// does not cover): recorded as not applied, `denied`.
    pub(crate) refused: Option<String>,
}

impl CallState {
    pub(crate) fn new(
        plugin: String,
        call: &ToolCall,
        context: &ToolContext,
        granted: Granted,
        policy: Arc<Policy>,
        cancel: Cancel,
    ) -> Self {
        Self {
            plugin,
            tool: call.name.clone(),
            call_id: call.id.clone(),
            granted,
            policy,
            journal: Some(Arc::clone(&context.journal)),
            cause: context.cause,
            cancel,
            count: 0,
            last_word: false,
            last_words: 0,
            terminal: None,
            events: context.events.clone(),
            structured: None,
            host_time: Duration::ZERO,
            authorize: None,
            gate: None,
            call_allowed_by: Vec::new(),
            call_arguments: String::new(),
            notes: Vec::new(),
            sandbox_refused: std::sync::atomic::AtomicBool::new(false),
            context: None,
            id_tag: std::borrow::Cow::Borrowed(""),
            snapshots: Vec::new(),
            state: None,
            remember: None,
            streams: Vec::new(),
            resident: context.resident.clone(),
            exchanges: Vec::new(),
            hooks: Vec::new(),
            query: None,
        }
    }

    /// A call state for a `history` handler answering a `snapshot` event: its effects are
    /// recorded under `call` (the batch's first call before it, its last after), as tool
    /// `history` (the role), with effect ids tagged `tag` (`vcs-before-1`).
    pub(crate) fn for_history(
        plugin: String,
        call: &ToolCall,
        tag: &'static str,
        context: &ToolContext,
        granted: Granted,
        policy: Arc<Policy>,
        cancel: Cancel,
    ) -> Self {
        let mut state = Self::new(plugin, call, context, granted, policy, cancel);
        "history".clone_into(&mut state.tool);
        state.events = None;
        state.id_tag = std::borrow::Cow::Borrowed(tag);
        state
    }

    /// A call state for policy handler `handler` (its id, and the event: `before` or
    /// `after`) answering a `before-tool` or `after-tool` event about `call`: its effects (the
    /// programs a `hooks` handler runs) are recorded under the call, as tool `handler.0`, with
    /// effect ids tagged `ID-EVENT-` (`call_1/hooks-before-1`), unique in the session. Its
    /// questions and progress go nowhere: it runs between the call's own events.
    pub(crate) fn for_policy(
        label: String,
        call: &ToolCall,
        handler: (&str, &str),
        context: &ToolContext,
        granted: Granted,
        policy: Arc<Policy>,
        cancel: Cancel,
    ) -> Self {
        let mut state = Self::new(label, call, context, granted, policy, cancel);
        handler.0.clone_into(&mut state.tool);
        state.events = None;
        state.id_tag = std::borrow::Cow::Owned(format!("{}-{}-", handler.0, handler.1));
        state
    }

    /// A call state for the host's own calls (`definitions`): nothing is granted.
    pub(crate) fn inert(plugin: &str) -> Self {
        Self {
            plugin: plugin.to_owned(),
            tool: String::new(),
            call_id: String::new(),
            granted: Granted::default(),
            policy: Arc::new(Policy::default()),
            journal: None,
            cause: None,
            cancel: Cancel::new(),
            count: 0,
            last_word: false,
            last_words: 0,
            terminal: None,
            events: None,
            structured: None,
            host_time: Duration::ZERO,
            authorize: None,
            gate: None,
            call_allowed_by: Vec::new(),
            call_arguments: String::new(),
            notes: Vec::new(),
            sandbox_refused: std::sync::atomic::AtomicBool::new(false),
            context: None,
            id_tag: std::borrow::Cow::Borrowed(""),
            snapshots: Vec::new(),
            state: None,
            remember: None,
            streams: Vec::new(),
            resident: None,
            exchanges: Vec::new(),
            hooks: Vec::new(),
            query: None,
        }
    }

    /// `text` with each registered secret's reference replaced by its plaintext where the
    /// secret policy lets `effect` on `target` receive it (spec: the secret proxy restores
    /// secrets only for authorized local effects); other references stay as they are.
    pub(crate) fn restore(&self, text: &str, effect: &str, target: &str) -> String {
        let secrets = self.policy.secrets.current();
        if secrets.is_empty() || !text.contains("⟦secret:") {
            return text.to_owned();
        }
        let plugin = self.plugin.split('#').next().unwrap_or(&self.plugin);
        let allowed = |secret: &str| {
            self.authorize.as_ref().is_some_and(|ask| {
                ask(&crate::handlers::RestoreQuery {
                    secret,
                    plugin,
                    effect,
                    target,
                })
            })
        };
        secrets.restore(text, &allowed).0
    }

    /// Ask the person running Smith `question` on behalf of the call, as an effect: the
    /// question is recorded (`ask.confirm`, `ask.select`, `ask.input`, with `target`) before
    /// it is asked, the entry holding it is the request's id (its decimal number), and the answer is recorded as the
    /// completion — a secret text answer as its length only. Waiting for the answer counts as
    /// host time, never against the plugin's deadline.
    ///
    /// # Errors
    /// Why there is no answer (refused by the frontend, cancelled, nobody to ask, or the
    /// question could not be recorded), as a sentence.
    pub(crate) fn ask(
        &mut self,
        question: smith::Question,
        target: &str,
    ) -> Result<smith::Answer, String> {
        let began = Instant::now();
        let result = self.ask_inner(question, target);
        self.host_time += began.elapsed();
        result
    }

    fn ask_inner(
        &mut self,
        question: smith::Question,
        target: &str,
    ) -> Result<smith::Answer, String> {
        let Some(journal) = self.journal.clone() else {
            return Err("nobody can be asked while the host inspects a plugin".to_owned());
        };
        self.count += 1;
        let effect_id = format!("{}/{}{}", self.call_id, self.id_tag, self.count);
        let input = match &question {
            smith::Question::Confirm { prompt, default } => {
                serde_json::json!({"prompt": prompt, "default": default})
            }
            smith::Question::Select { prompt, options } => {
                serde_json::json!({"prompt": prompt, "options": options})
            }
            smith::Question::Input { prompt, secret } => {
                serde_json::json!({"prompt": prompt, "secret": secret})
            }
        };
        let secret = matches!(question, smith::Question::Input { secret: true, .. });
        let intent = EffectIntent {
            effect_id: effect_id.clone(),
            call_id: self.call_id.clone(),
            plugin: self.plugin.clone(),
            tool: self.tool.clone(),
            effect: question.effect().to_owned(),
            target: Some(target.to_owned()),
            input,
        };
        let intent_entry = journal.intent(intent, self.cause).map_err(|e| {
            format!("the question was not asked because it could not be recorded: {e}")
        })?;
        // The request's id is the entry holding the question: unique within the session.
        let request_id = intent_entry.0.to_string();
        let answered = match &self.events {
            Some(events) => smith::ask(events, &request_id, question, &self.cancel),
            None => Err(smith::AskError::Unavailable),
        };
        let (outcome, output, evidence) = match &answered {
            Ok(answer) => {
                let shown = match answer {
                    smith::Answer::Confirm(yes) => serde_json::json!(yes),
                    smith::Answer::Select(index) => serde_json::json!(index),
                    smith::Answer::Text(text) if secret => {
                        serde_json::json!(format!("(secret text, {} bytes)", text.len()))
                    }
                    smith::Answer::Text(text) => serde_json::json!(text),
                };
                let output = shown.to_string().into_bytes();
                (
                    EffectOutcome::Applied,
                    output,
                    serde_json::json!({"answer": shown}),
                )
            }
            Err(why) => (
                EffectOutcome::NotApplied,
                why.to_string().into_bytes(),
                serde_json::json!({"unanswered": why.to_string()}),
            ),
        };
        let completion = EffectCompletion {
            effect_id,
            outcome,
            output,
            evidence,
        };
        if let Err(e) = journal.complete(intent_entry, completion) {
            let why = format!("the answer to a question could not be recorded ({e})");
            self.terminal = Some(why.clone());
            return Err(why);
        }
        answered.map_err(|e| e.to_string())
    }

    /// What the policy plugins decide about effect `call` (allowed when there are none): a
    /// question one asks is put to the person as a choice, recorded as an effect of this call.
    fn gate_effect(
        &mut self,
        effect: crate::grants::Effect,
        target: &str,
        command: &str,
        leaves_sandbox: bool,
    ) -> crate::policy::Decision {
        let writes = matches!(
            effect,
            crate::grants::Effect::WriteFile | crate::grants::Effect::EditFile
        );
        let configures = if writes {
            self.granted
                .roots
                .first()
                .and_then(|root| crate::protected::protected(root, target))
        } else {
            None
        };
        let Some(gate) = self.gate.clone() else {
            if let Some(what) = configures {
                return crate::policy::Decision::Deny(format!(
                    "{target} holds {what}, which a tool changes only when a permissions policy asks you first, and none is active"
                ));
            }
            if leaves_sandbox {
                return crate::policy::Decision::Deny(
                    "it stays in the sandbox: no policy plugin is active to allow running it outside".to_owned(),
                );
            }
            return crate::policy::Decision::Allow {
                by: Vec::new(),
                notes: Vec::new(),
            };
        };
        let (call_id, tool, plugin) =
            (self.call_id.clone(), self.tool.clone(), self.plugin.clone());
        let allowed_by = self.call_allowed_by.clone();
        let arguments = self.call_arguments.clone();
        let process = matches!(
            effect,
            crate::grants::Effect::Process | crate::grants::Effect::ProcessStart
        );
        let query = crate::policy::EffectQuery {
            call_id: &call_id,
            tool: &tool,
            plugin: &plugin,
            effect: effect.name(),
            read_only: effect.read_only(),
            target,
            command: command.to_owned(),
            sandbox: if leaves_sandbox {
                format!(
                    "none — outside the sandbox ({}), which refused it",
                    self.policy.sandbox.describe()
                )
            } else if process {
                self.policy.sandbox.describe()
            } else {
                String::new()
            },
            call_allowed_by: &allowed_by,
            leaves_sandbox,
            arguments: &arguments,
            needs_allow: configures.is_some()
                || process && matches!(self.policy.process, crate::ProcessPolicy::AskFirst(_)),
            kept: self
                .state
                .as_ref()
                .map(|s| crate::state_imports::Kept {
                    session: s.session.clone(),
                    cause: s.cause,
                })
                .unwrap_or_default(),
        };
        let target = target.to_owned();
        let mut asker =
            |label: &str, q: &crate::policy::wit::Question| self.choose(label, q, &target);
        gate(&query, &mut asker)
    }

    /// Put a policy plugin's question to the person as a choice among its labels: the index
    /// chosen, or why nobody answered.
    pub(crate) fn choose(
        &mut self,
        label: &str,
        question: &crate::policy::wit::Question,
        target: &str,
    ) -> Result<usize, String> {
        let asked = smith::Question::Select {
            prompt: format!("{} ({label})", visible(&question.text)),
            options: question.choices.iter().map(|c| c.label.clone()).collect(),
        };
        match self.ask(asked, target)? {
            smith::Answer::Select(i) if (i as usize) < question.choices.len() => Ok(i as usize),
            other => Err(format!("the answer {other:?} is not one of the choices")),
        }
    }

    /// Run `body` as effect `call`, durably: the intent is recorded before anything else (a
    /// failure to record it stops the effect); an ungranted or cancelled effect is recorded as
    /// `not-applied` without running; otherwise `body` runs and its [`Done`] is recorded as
    /// the completion. A completion that cannot be recorded is terminal for the call.
    pub(crate) fn durable<T, E: EffectError>(
        &mut self,
        call: EffectCall<'_>,
        body: impl FnOnce(&Self) -> Done<T, E>,
    ) -> Result<T, E> {
        let began = Instant::now();
        // An effect is an io request (a file effect, a request, a program): its own scope.
        let _io = smith_memory::ScopeGuard::open(smith_memory::Kind::IoRequest);
        let result = self.durable_inner(call, body);
        self.host_time += began.elapsed();
        result
    }

    fn durable_inner<T, E: EffectError>(
        &mut self,
        call: EffectCall<'_>,
        body: impl FnOnce(&Self) -> Done<T, E>,
    ) -> Result<T, E> {
        let pending = self.begin(call)?;
        let done = body(self);
        self.finish(pending, done)
    }

    /// The first half of [`CallState::durable`], for an effect that outlives the import
    /// that started it (a streamed response): record the intent, check the grant, the
    /// facility's refusal, cancellation and the policy. An effect that may run comes back as
    /// [`Pending`], whose completion the caller records with [`CallState::finish`]; one that
    /// may not has its `not-applied` completion recorded here and comes back as the error.
    pub(crate) fn begin<E: EffectError>(&mut self, call: EffectCall<'_>) -> Result<Pending, E> {
        let Some(journal) = self.journal.clone() else {
            return Err(E::denied(
                "effects are not available while the host inspects a plugin".to_owned(),
            ));
        };
        self.count += 1;
        let last_word = std::mem::take(&mut self.last_word);
        let effect_id = format!("{}/{}{}", self.call_id, self.id_tag, self.count);
        // A program's command line, or a request's method and URL, for the policy (the
        // input moves into the intent).
        let command = match call.effect {
            _ if self.gate.is_none() => String::new(),
            crate::grants::Effect::Process | crate::grants::Effect::ProcessStart => {
                command_line(&call.input)
            }
            crate::grants::Effect::NetFetch => format!(
                "{} {}",
                call.input["method"].as_str().unwrap_or_default(),
                call.input["url"].as_str().unwrap_or_default()
            ),
            _ => String::new(),
        };
        let intent = EffectIntent {
            effect_id: effect_id.clone(),
            call_id: self.call_id.clone(),
            plugin: self.plugin.clone(),
            tool: self.tool.clone(),
            effect: call.effect.name().to_owned(),
            target: Some(call.target.to_owned()),
            input: call.input,
        };
        let intent = journal.intent(intent, self.cause).map_err(|e| {
            E::io(format!(
                "the effect was not run because its intent could not be recorded: {e}"
            ))
        })?;
        let mut pending = Pending {
            journal,
            intent,
            effect_id,
            effect: call.effect,
            target: call.target.to_owned(),
            evidence: serde_json::Map::new(),
        };
        let refused = if let Err(denied) = self.granted.check(call.effect, &self.plugin) {
            let why = denied.to_string();
            Done::not_applied(E::denied(why.clone()), why)
        } else if let Some(why) = call.refused {
            Done::not_applied(E::denied(why.clone()), why)
        } else if self.cancel.is_cancelled() && call.effect != Effect::ProcessSend && !last_word {
            // A send still goes out after cancellation, and so does a facility's last word:
            // it is how a plugin tells a kept program or a server to stop what it was asked
            // (MCP's `notifications/cancelled`).
            Done::not_applied(E::cancelled(), "cancelled before it started".to_owned())
        } else {
            match self.gate_effect(call.effect, call.target, &command, call.leaves_sandbox) {
                crate::policy::Decision::Deny(why) => {
                    let mut done = Done::not_applied(E::denied(why.clone()), why);
                    done.evidence = serde_json::json!({
                        "permission_mode": self.policy.permissions.mode.name(),
                    });
                    done
                }
                crate::policy::Decision::Allow { by, notes } => {
                    self.notes.extend(notes);
                    if self.gate.is_some() {
                        pending.evidence.insert(
                            "permission_mode".to_owned(),
                            serde_json::json!(self.policy.permissions.mode.name()),
                        );
                        if !by.is_empty() {
                            pending
                                .evidence
                                .insert("allowed_by".to_owned(), serde_json::json!(by));
                        }
                    }
                    return Ok(pending);
                }
            }
        };
        pending.evidence.clear();
        match self.finish::<(), E>(pending, refused) {
            Err(e) => Err(e),
            Ok(()) => Err(E::denied("the effect was refused".to_owned())),
        }
    }

    /// Record `done` as the completion of `pending` (what the policy said added to an
    /// object's evidence) and return its result. A completion that cannot be recorded is
    /// terminal for the call: the error says what is known of the effect.
    pub(crate) fn finish<T, E: EffectError>(
        &mut self,
        pending: Pending,
        mut done: Done<T, E>,
    ) -> Result<T, E> {
        if let serde_json::Value::Object(map) = &mut done.evidence {
            map.extend(pending.evidence);
        }
        let outcome = done.outcome;
        let completion = EffectCompletion {
            effect_id: pending.effect_id,
            outcome,
            output: done.output,
            evidence: done.evidence,
        };
        if let Err(e) = pending.journal.complete(pending.intent, completion) {
            // Say what is known: whether it ran, not only the outcome the record would hold.
            let known = match outcome {
                EffectOutcome::Applied => "was carried out",
                EffectOutcome::NotApplied => "did not take effect",
                // A program's outcome is never claimed: it ran, what it changed is unknown.
                EffectOutcome::Unknown => "was started and ran (what it changed is not known)",
            };
            let why = format!(
                "{} `{}` {known}, but its completion could not be recorded ({e}); the session keeps it as started with its completion not recorded",
                pending.effect.name(),
                pending.target
            );
            self.terminal = Some(why.clone());
            return Err(E::io(why));
        }
        done.result
    }
}

/// An effect whose intent is recorded and which may run ([`CallState::begin`]): its
/// completion is still to be recorded ([`CallState::finish`]).
pub(crate) struct Pending {
    journal: Arc<dyn EffectJournal>,
    intent: EntryId,
    effect_id: String,
    effect: Effect,
    target: String,
    /// What the policy said (the permission mode, who allowed the effect), added to the
    /// completion's evidence.
    evidence: serde_json::Map<String, serde_json::Value>,
}
