//! Policy plugins (the `policy-plugin` world, package 1.1.0): the handlers of the `permissions`
//! and `hooks` roles, asked before a validated tool call runs, after it returns, and before
//! each effect a tool's facility performs (spec: Agent behavior → Plugin event boundary;
//! Security). Each event is answered in a fresh instance under the handlers' deadline.
//!
//! Verdicts combine in role order: a `deny` from any handler wins; then each `ask`, put to the
//! person through the call's question channel (recorded as an effect of the call, answer
//! included) and given back to the asking handler as an `answered` event, whose `allow` or
//! `deny` decides; a handler that traps, fails or overruns counts as `deny` for that event, named
//! in the reason (the next event gets a fresh instance: a policy is never out of service).

use std::sync::Arc;

use smith::Cancel;
use wasmtime::component::{HasSelf, Linker};

use crate::Error;
use crate::effects::CallState;
use crate::generation::{Lazy, Ready};
use crate::handlers::cut_to as cut;
use crate::manifest::{Manifest, POLICY_ROLES};
use crate::runtime::{Loadout, Runtime, State, Stopped};

/// Generated bindings of the `policy-plugin` world; its `host`, `state` and `process` imports
/// are the tool world's.
#[allow(missing_docs, unreachable_pub, clippy::all)]
pub(crate) mod bindings {
    wasmtime::component::bindgen!({
        path: "../../plugins/wit",
        world: "policy-plugin",
        with: {
            "smith:plugin/host": crate::runtime::bindings::smith::plugin::host,
            "smith:plugin/state": crate::runtime::bindings::smith::plugin::state,
            "smith:plugin/process": crate::runtime::bindings::smith::plugin::process,
        },
    });
}

/// Generated bindings of the `hooks-plugin` world (1.6.0): the policy world and its
/// `turn-end` export, over the policy world's types.
#[allow(missing_docs, unreachable_pub, clippy::all)]
pub(crate) mod hooks_bindings {
    wasmtime::component::bindgen!({
        path: "../../plugins/wit",
        world: "hooks-plugin",
        with: {
            "smith:plugin/host": crate::runtime::bindings::smith::plugin::host,
            "smith:plugin/state": crate::runtime::bindings::smith::plugin::state,
            "smith:plugin/process": crate::runtime::bindings::smith::plugin::process,
            "smith:plugin/policy": super::bindings::smith::plugin::policy,
        },
    });
}

pub(crate) use bindings::smith::plugin::policy as wit;
use bindings::{PolicyPlugin, PolicyPluginPre};

/// The longest rule `remember-allow` writes, in bytes.
const MAX_RULE_BYTES: usize = 4 * 1024;

/// The most rules one `remember-allow` writes.
const MAX_REMEMBERED: usize = 16;

impl wit::Host for State {
    fn matching_hooks(&mut self) -> Vec<wit::Hook> {
        self.call
            .hooks
            .iter()
            .map(|(h, paths)| wit::Hook {
                name: h.name.clone(),
                run: h.run.clone(),
                timeout_ms: u64::try_from(h.timeout.as_millis()).unwrap_or(u64::MAX),
                source: h.source.clone(),
                paths: paths.clone(),
            })
            .collect()
    }

    /// Only while answering the person's choice, in a project whose configuration is read.
    fn remember_allow(&mut self, rules: Vec<String>) -> Result<String, String> {
        let Some(file) = self.call.remember.clone() else {
            return Err(
                "rules are remembered only while answering the person's choice (an `answered` event), in a project whose configuration Smith reads (a trusted one); nothing was written"
                    .to_owned(),
            );
        };
        if rules.is_empty() || rules.len() > MAX_REMEMBERED {
            return Err(format!(
                "{} rules given; 1 to {MAX_REMEMBERED} are written at once",
                rules.len()
            ));
        }
        for rule in &rules {
            check_rule(rule)?;
        }
        remember(&file, &rules)?;
        Ok(file.display().to_string())
    }
}

/// Whether `rule` is `TOOL` or `TOOL(PATTERN)` with no comma or line break (the settings
/// separate rules with commas).
fn check_rule(rule: &str) -> Result<(), String> {
    let shaped = smith_config::rules::check(rule).is_ok();
    if !shaped || rule.len() > MAX_RULE_BYTES || rule.contains([',', '\n', '\r']) {
        return Err(format!(
            "rule `{}` is not `TOOL` or `TOOL(PATTERN)` without commas or line breaks (at most {MAX_RULE_BYTES} bytes); nothing was written",
            cut(rule, 200)
        ));
    }
    Ok(())
}

/// Add `rules` to `permissions.allow` in the configuration file `file`, after those its last
/// `permissions.allow` node holds; the file's other contents stay byte for byte.
fn remember(file: &std::path::Path, rules: &[String]) -> Result<(), String> {
    let text = match std::fs::read_to_string(file) {
        Ok(text) => text,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
        Err(e) => return Err(format!("cannot read {}: {e}", file.display())),
    };
    let entries = smith_config::parse_file(&text, &file.display().to_string())
        .map_err(|e| format!("{e}; nothing was written"))?;
    let mut kept: Vec<String> = entries
        .iter()
        .rev()
        .find(|e| e.key == "permissions.allow")
        .map(|e| smith_config::rules::split(&e.text()))
        .unwrap_or_default();
    for rule in rules {
        if !kept.contains(rule) {
            kept.push(rule.clone());
        }
    }
    if let Some(dir) = file.parent() {
        std::fs::create_dir_all(dir)
            .map_err(|e| format!("cannot create {}: {e}", dir.display()))?;
    }
    smith_config::set_in_file(file, "permissions.allow", &kept.join(","))
        .map(drop)
        .map_err(|e| format!("{e}; nothing was written"))
}

/// A policy plugin's pre-instantiated bindings: the policy world's, and the `hooks-plugin`
/// world's for a plugin whose manifest names `event "turn-end"`.
pub(crate) struct Pre {
    pub(crate) decide: PolicyPluginPre<State>,
    pub(crate) turn_end: Option<hooks_bindings::HooksPluginPre<State>>,
}

/// The longest reason a `deny` may give the model, in bytes.
pub const MAX_REASON_BYTES: usize = 2 * 1024;

/// The longest question or `note`, in bytes.
pub const MAX_QUESTION_BYTES: usize = 16 * 1024;

/// The most choices a question may offer.
pub const MAX_CHOICES: usize = 8;

pub use crate::permission_settings::{PermissionMode, Permissions};

/// The linker of the policy world: WASI deny-by-default plus the `host`, `state` and
/// `process` imports.
pub(crate) fn linker(engine: &wasmtime::Engine) -> Result<Linker<State>, Error> {
    let mut linker: Linker<State> = Linker::new(engine);
    wasmtime_wasi::p2::add_to_linker_sync(&mut linker)
        .map_err(|e| Error::Engine(format!("{e:#}")))?;
    PolicyPlugin::add_to_linker::<State, HasSelf<State>>(&mut linker, |s| s)
        .map_err(|e| Error::Engine(format!("{e:#}")))?;
    Ok(linker)
}

/// Check `component` against the policy world — and, when `turn_end`, the `hooks-plugin`
/// world — and keep it ready to instantiate.
pub(crate) fn pre(
    linkers: &crate::runtime::Linkers,
    component: &wasmtime::component::Component,
    origin: &str,
    turn_end: bool,
) -> Result<Pre, Error> {
    let bad = |reason: String| Error::Component {
        origin: origin.to_owned(),
        reason,
    };
    let instance_pre = linkers
        .policy
        .instantiate_pre(component)
        .map_err(|e| bad(format!("it does not fit the `policy-plugin` world: {e:#}")))?;
    let turn_end = if turn_end {
        Some(
            hooks_bindings::HooksPluginPre::new(instance_pre.clone()).map_err(|e| {
                bad(format!(
                    "its manifest names `event \"turn-end\"`, but it does not export the `hooks-plugin` world (its `turn-end`): {e:#}"
                ))
            })?,
        )
    } else {
        None
    };
    let decide = PolicyPluginPre::new(instance_pre).map_err(|e| {
        bad(format!(
            "it does not export the `policy-plugin` world: {e:#}"
        ))
    })?;
    Ok(Pre { decide, turn_end })
}

/// A loaded policy plugin.
pub(crate) struct LoadedPolicy {
    pub(crate) manifest: Manifest,
    pub(crate) origin: String,
    pub(crate) loaded: Lazy<Ready<Pre>>,
}

impl LoadedPolicy {
    pub(crate) fn new(manifest: Manifest, origin: String, loaded: Lazy<Ready<Pre>>) -> Self {
        Self {
            manifest,
            origin,
            loaded,
        }
    }

    /// The tier of its code when its component is loaded, and how many instances were made
    /// of it.
    pub(crate) fn usage(&self) -> (Option<crate::cache::Tier>, u64) {
        (
            self.loaded.loaded().map(|r| r.tier),
            self.loaded.instances(),
        )
    }

    /// Whether its manifest takes `event` (all events when it names none; `answered` always).
    fn takes(&self, event: &wit::PolicyEvent) -> bool {
        let name = match event {
            wit::PolicyEvent::BeforeTool(_) => "before-tool",
            wit::PolicyEvent::AfterTool(_) => "after-tool",
            wit::PolicyEvent::BeforeEffect(e) if e.read_only && self.manifest.skips_reads => {
                return false;
            }
            wit::PolicyEvent::BeforeEffect(_) => "before-effect",
            wit::PolicyEvent::Answered(_) => return true,
        };
        // `turn-end` is not a `decide` event: it is taken only when named (`Self::ready`).
        let events = &self.manifest.policy_events;
        events.is_empty() || events.iter().any(|e| e == name)
    }

    /// Its answer to `event` in a fresh instance, or why it gave none; `pass` without one when
    /// its manifest does not take the event.
    fn decide(
        &self,
        runtime: &Runtime,
        event: &wit::PolicyEvent,
        cancel: &Cancel,
        state: crate::state_imports::StateAccess,
        remember: Option<&std::path::Path>,
        hooked: Option<&Hooked<'_>>,
    ) -> Result<wit::Verdict, String> {
        if !self.takes(event) {
            return Ok(wit::Verdict::Pass);
        }
        // A handler of the user's hooks is asked about a call only when one of them matches.
        let hooks = match (self.manifest.configured_hooks, hooked) {
            (false, _) => Vec::new(),
            (true, Some(h)) => {
                let hooks = h.matching();
                if hooks.is_empty() {
                    return Ok(wit::Verdict::Pass);
                }
                hooks
            }
            (true, None) => return Ok(wit::Verdict::Pass),
        };
        let ready = self.ready(runtime)?;
        let programs = self
            .manifest
            .grants
            .contains(&crate::grants::Grant::ProcessExec);
        // Plan mode runs no program: a handler's neither.
        let mut call = match hooked
            .filter(|h| programs && h.policy.permissions.mode != PermissionMode::Plan)
        {
            Some(h) => CallState::for_policy(
                self.manifest.label(),
                h.call,
                (&self.manifest.id, h.event),
                h.context,
                crate::grants::default_policy(
                    &self.manifest.grants,
                    h.context.cwd.clone(),
                    h.policy,
                ),
                Arc::clone(h.policy),
                cancel.clone(),
            ),
            None => CallState::inert(&self.manifest.label()),
        };
        let paths: Vec<String> = hooked
            .map(|h| crate::hooks::named_paths(&h.call.arguments))
            .unwrap_or_default()
            .into_iter()
            .map(str::to_owned)
            .collect();
        call.hooks = hooks.into_iter().map(|h| (h, paths.clone())).collect();
        call.cancel = cancel.clone();
        call.state = Some(state);
        if let wit::PolicyEvent::Answered(_) = event {
            call.remember = remember.map(std::path::Path::to_owned);
        }
        // Each event has an instance of its own, so a trap or an overrun costs that event
        // (a deny) and nothing after it: a policy that failed once and then refused every
        // later call, reads included, would stop the session with no way back but a restart.
        self.in_instance(runtime, ready, call, |pre, store| {
            crate::kernel_call(|| {
                pre.decide
                    .instantiate(&mut *store)
                    .and_then(|instance| instance.call_decide(store, event))
            })
        })
    }

    /// Its component, loaded (compiled or from the cache) on first use.
    pub(crate) fn ready(&self, runtime: &Runtime) -> Result<&Ready<Pre>, String> {
        self.loaded
            .get(|component| {
                crate::generation::load_policy(
                    runtime,
                    component,
                    &self.origin,
                    self.manifest.policy_events.iter().any(|e| e == "turn-end"),
                )
            })
            .map_err(|why| format!("it cannot be loaded: {why}"))
    }

    /// `call` in a fresh instance of `ready` under the handlers' deadline: what it returned,
    /// or why it gave nothing (it failed, trapped or overran).
    pub(crate) fn in_instance<T>(
        &self,
        runtime: &Runtime,
        ready: &Ready<Pre>,
        state: CallState,
        call: impl FnOnce(&Pre, &mut wasmtime::Store<State>) -> wasmtime::Result<Result<T, String>>,
    ) -> Result<T, String> {
        let deadline = runtime
            .limits()
            .deadline
            .min(crate::handlers::HANDLER_DEADLINE);
        let mut store = runtime.store(ready.tier, state, deadline);
        self.loaded.count_instance();
        match call(&ready.pre, &mut store) {
            Ok(Ok(answer)) => Ok(answer),
            Ok(Err(why)) => Err(format!("it failed: {}", cut(&why, MAX_REASON_BYTES))),
            Err(e) => Err(match e.downcast_ref::<Stopped>() {
                Some(s) => s.to_string(),
                None => format!("the plugin trapped: {}", crate::tool_call::trap_reason(&e)),
            }),
        }
    }
}

/// What the policy decided about a call or an effect.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Decision {
    /// It runs.
    Allow {
        /// The handlers that allowed it (`id@version`), empty when none had an opinion.
        by: Vec<String>,
        /// What handlers answering a person's choice with `note` said (each prefixed with
        /// its handler): added to the call's result.
        notes: Vec<String>,
    },
    /// It does not run; the reason (naming the handler) is what the model sees.
    Deny(String),
}

/// One effect, as a `before-effect` event describes it.
pub(crate) struct EffectQuery<'a> {
    pub(crate) call_id: &'a str,
    pub(crate) tool: &'a str,
    pub(crate) plugin: &'a str,
    pub(crate) effect: &'a str,
    pub(crate) read_only: bool,
    pub(crate) target: &'a str,
    pub(crate) command: String,
    pub(crate) sandbox: String,
    /// The handlers that allowed the call itself (`id@version`).
    pub(crate) call_allowed_by: &'a [String],
    /// The offer to run a program the sandbox refused again outside it.
    pub(crate) leaves_sandbox: bool,
    /// An effect that runs only on an explicit allow: a program in an untrusted project, a
    /// write to a file that configures Smith or git (`crate::protected`).
    pub(crate) needs_allow: bool,
    /// The call's session state (the handlers keep theirs there).
    pub(crate) kept: crate::state_imports::Kept,
    /// The call's arguments, JSON text.
    pub(crate) arguments: &'a str,
}

/// The call a `before-tool` or `after-tool` event is about, for a handler that runs programs
/// while it answers (a `hooks` handler with the `process.exec` grant): they are effects of
/// that call.
pub(crate) struct Hooked<'a> {
    call: &'a smith::ToolCall,
    context: &'a smith::ToolContext,
    /// `before` or `after`: the effect ids' tag.
    event: &'static str,
    policy: &'a Arc<crate::grants::Policy>,
}

impl Hooked<'_> {
    /// The configured hooks that match this event of the call.
    fn matching(&self) -> Vec<crate::hooks::Hook> {
        // Plan mode changes nothing and runs no program: no hook either.
        if self.policy.permissions.mode == PermissionMode::Plan {
            return Vec::new();
        }
        let event = match self.event {
            "before" => crate::hooks::HookEvent::BeforeTool,
            _ => crate::hooks::HookEvent::AfterTool,
        };
        self.policy
            .hooks
            .iter()
            .filter(|h| {
                h.matches(
                    event,
                    &self.call.name,
                    &self.call.arguments,
                    self.context.cwd.as_deref(),
                )
            })
            .cloned()
            .collect()
    }
}

/// One tool call, as a `before-tool` or `after-tool` event describes it.
pub(crate) struct CallQuery<'a> {
    /// The call itself and where it runs (a handler's programs are its effects).
    pub(crate) call: &'a smith::ToolCall,
    pub(crate) context: &'a smith::ToolContext,
    pub(crate) call_id: &'a str,
    pub(crate) tool: &'a str,
    pub(crate) plugin: &'a str,
    pub(crate) arguments: String,
    pub(crate) cwd: String,
    pub(crate) read_only: bool,
    /// The call's session state (the handlers keep theirs there).
    pub(crate) kept: crate::state_imports::Kept,
}

/// Put `question` to the person: the chosen choice's index, or why nobody answered.
pub(crate) type Asker<'a> = dyn FnMut(&str, &wit::Question) -> Result<usize, String> + 'a;

impl Loadout {
    /// The policy plugins in role order (each once, at its first role).
    pub(crate) fn policies(&self) -> Vec<&LoadedPolicy> {
        let mut out: Vec<&LoadedPolicy> = Vec::new();
        for role in POLICY_ROLES {
            for p in &self.generation.policies {
                if p.manifest.handlers.iter().any(|h| h == role)
                    && !out.iter().any(|o| std::ptr::eq(*o, p))
                {
                    out.push(p);
                }
            }
        }
        out
    }

    /// Whether any policy plugin is active (no events are built otherwise).
    pub(crate) fn has_policy(&self) -> bool {
        !self.generation.policies.is_empty()
    }

    /// Whether a handler of the `permissions` role is active (what asks before each program
    /// where the process policy is [`crate::ProcessPolicy::AskFirst`]).
    pub(crate) fn has_permissions_handler(&self) -> bool {
        self.generation
            .policies
            .iter()
            .any(|p| p.manifest.handlers.iter().any(|h| h == "permissions"))
    }

    /// The decision on the call `query` describes, before it runs.
    pub(crate) fn before_tool(
        &self,
        query: &CallQuery<'_>,
        ask: &mut Asker<'_>,
        cancel: &Cancel,
    ) -> Decision {
        let event = wit::PolicyEvent::BeforeTool(wit::ToolCallEvent {
            call_id: query.call_id.to_owned(),
            tool: query.tool.to_owned(),
            plugin: query.plugin.to_owned(),
            arguments: query.arguments.clone(),
            cwd: query.cwd.clone(),
            read_only: query.read_only,
            settings: self.policy.permissions.wit(),
        });
        let hooked = Hooked {
            call: query.call,
            context: query.context,
            event: "before",
            policy: &self.policy,
        };
        self.decide(
            &|_: &str| event.clone(),
            (query.call_id, Some(&hooked)),
            &query.kept,
            ask,
            cancel,
        )
    }

    /// The decision on the effect `query` describes, before it runs.
    pub(crate) fn before_effect(
        &self,
        query: &EffectQuery<'_>,
        ask: &mut Asker<'_>,
        cancel: &Cancel,
    ) -> Decision {
        let event = |label: &str| {
            wit::PolicyEvent::BeforeEffect(wit::EffectEvent {
                call_id: query.call_id.to_owned(),
                tool: query.tool.to_owned(),
                plugin: query.plugin.to_owned(),
                effect: query.effect.to_owned(),
                read_only: query.read_only,
                target: query.target.to_owned(),
                command: query.command.clone(),
                sandbox: query.sandbox.clone(),
                call_allowed: query.call_allowed_by.iter().any(|b| b == label),
                leaves_sandbox: query.leaves_sandbox,
                needs_allow: query.needs_allow,
                arguments: query.arguments.to_owned(),
                settings: self.policy.permissions.wit(),
            })
        };
        match self.decide(&event, (query.call_id, None), &query.kept, ask, cancel) {
            // Leaving the sandbox takes an explicit allow: no opinion keeps it in.
            Decision::Allow { by, .. } if query.leaves_sandbox && by.is_empty() => Decision::Deny(
                "it stays in the sandbox: no policy handler allowed running it outside".to_owned(),
            ),
            Decision::Allow { by, .. } if query.needs_allow && by.is_empty() => {
                let why = match &self.policy.process {
                    crate::ProcessPolicy::AskFirst(why) if query.effect == "process.run" => {
                        why.as_str()
                    }
                    _ => "it changes the configuration of Smith or git",
                };
                Decision::Deny(format!(
                    "this runs only when the user allows it, and no policy handler did: {why}"
                ))
            }
            decision => decision,
        }
    }

    /// The notes the handlers add to the result of the call `query` describes, each
    /// prefixed with its handler; a handler that fails adds a note saying so.
    pub(crate) fn after_tool(
        &self,
        query: &CallQuery<'_>,
        output: &str,
        is_error: bool,
        cancel: &Cancel,
    ) -> Vec<String> {
        let event = wit::PolicyEvent::AfterTool(wit::ToolResultEvent {
            call_id: query.call_id.to_owned(),
            tool: query.tool.to_owned(),
            plugin: query.plugin.to_owned(),
            arguments: query.arguments.clone(),
            output: output.to_owned(),
            is_error,
            settings: self.policy.permissions.wit(),
        });
        let hooked = Hooked {
            call: query.call,
            context: query.context,
            event: "after",
            policy: &self.policy,
        };
        let mut notes = Vec::new();
        for p in self.policies() {
            let label = p.manifest.label();
            let state = query.kept.access(&p.manifest, &self.policy);
            // The user's hooks run after a call that did its work, never after one that failed
            // or was refused (a formatter has nothing to format then).
            let hooked = (!is_error).then_some(&hooked);
            match p.decide(&self.runtime, &event, cancel, state, None, hooked) {
                Ok(wit::Verdict::Note(text)) => {
                    notes.push(format!("[{label}] {}", cut(&text, MAX_QUESTION_BYTES)));
                }
                Ok(wit::Verdict::Pass | wit::Verdict::Allow) => {}
                Ok(other) => notes.push(format!(
                    "[{label}] answered the end of the call with {}, which only `note` or `pass` may answer; ignored",
                    verdict_name(&other)
                )),
                Err(why) => notes.push(format!(
                    "[{label}] could not look at the result: {why}"
                )),
            }
        }
        notes
    }

    /// Combine every handler's verdict on the event `event` makes for it (given its label):
    /// deny wins, then each ask, then allow. `about` is the call's id and, for a call's own
    /// event, the call a handler's programs are effects of.
    fn decide(
        &self,
        event: &dyn Fn(&str) -> wit::PolicyEvent,
        about: (&str, Option<&Hooked<'_>>),
        kept: &crate::state_imports::Kept,
        ask: &mut Asker<'_>,
        cancel: &Cancel,
    ) -> Decision {
        let mut allowed = Vec::new();
        let mut asks: Vec<(&LoadedPolicy, wit::Question)> = Vec::new();
        let mut notes = Vec::new();
        for p in self.policies() {
            let label = p.manifest.label();
            let state = kept.access(&p.manifest, &self.policy);
            match p.decide(&self.runtime, &event(&label), cancel, state, None, about.1) {
                Ok(wit::Verdict::Deny(reason)) => {
                    return Decision::Deny(format!(
                        "refused by {label}: {}",
                        cut(&reason, MAX_REASON_BYTES)
                    ));
                }
                Ok(wit::Verdict::Ask(question)) => asks.push((p, question)),
                Ok(wit::Verdict::Allow) => allowed.push(label),
                Ok(wit::Verdict::Pass) => {}
                Ok(wit::Verdict::Note(_)) => {
                    return Decision::Deny(format!(
                        "refused: the policy handler {label} answered with `note`, which only the end of a call takes"
                    ));
                }
                Err(why) => {
                    return Decision::Deny(format!(
                        "refused: the policy handler {label} gave no verdict — {why} — and a handler that fails counts as deny"
                    ));
                }
            }
        }
        for (p, question) in asks {
            let label = p.manifest.label();
            if let Err(why) = check_question(&question) {
                return Decision::Deny(format!(
                    "refused: the policy handler {label} asked a question Smith cannot show ({why})"
                ));
            }
            let choice = match ask(&label, &question) {
                Ok(i) => question.choices[i].id.clone(),
                Err(why) => {
                    return Decision::Deny(format!(
                        "refused: {label} asks before this runs, and it was not allowed ({why}); do not try it another way — ask the user what to do instead"
                    ));
                }
            };
            let answered = wit::PolicyEvent::Answered(wit::AnsweredEvent {
                call_id: about.0.to_owned(),
                question: question.id.clone(),
                choice: choice.clone(),
                settings: self.policy.permissions.wit(),
            });
            let state = kept.access(&p.manifest, &self.policy);
            match p.decide(
                &self.runtime,
                &answered,
                cancel,
                state,
                self.policy.permissions.project_config.as_deref(),
                None,
            ) {
                Ok(wit::Verdict::Allow) => allowed.push(label),
                // Allowed, with something the person and the model are told (a lasting
                // choice that could not be kept).
                Ok(wit::Verdict::Note(note)) => {
                    notes.push(format!("[{label}] {}", cut(&note, MAX_REASON_BYTES)));
                    allowed.push(label);
                }
                Ok(wit::Verdict::Deny(reason)) => {
                    return Decision::Deny(format!(
                        "refused by {label} (the person chose `{choice}`): {}",
                        cut(&reason, MAX_REASON_BYTES)
                    ));
                }
                Ok(other) => {
                    return Decision::Deny(format!(
                        "refused: {label} answered the person's choice `{choice}` with {}, not allow or deny",
                        verdict_name(&other)
                    ));
                }
                Err(why) => {
                    return Decision::Deny(format!(
                        "refused: the policy handler {label} gave no verdict on the person's choice — {why}"
                    ));
                }
            }
        }
        Decision::Allow { by: allowed, notes }
    }
}

/// Whether `question` can be shown: a text within [`MAX_QUESTION_BYTES`] and 1 to
/// [`MAX_CHOICES`] choices with distinct ids.
fn check_question(question: &wit::Question) -> Result<(), String> {
    if question.text.len() > MAX_QUESTION_BYTES {
        return Err(format!(
            "its text is {} bytes, over {MAX_QUESTION_BYTES}",
            question.text.len()
        ));
    }
    let n = question.choices.len();
    if n == 0 || n > MAX_CHOICES {
        return Err(format!(
            "it offers {n} choices; 1 to {MAX_CHOICES} are shown"
        ));
    }
    for (i, c) in question.choices.iter().enumerate() {
        if question.choices[..i].iter().any(|o| o.id == c.id) {
            return Err(format!("choice id `{}` is given twice", cut(&c.id, 64)));
        }
    }
    Ok(())
}

fn verdict_name(verdict: &wit::Verdict) -> &'static str {
    match verdict {
        wit::Verdict::Pass => "`pass`",
        wit::Verdict::Allow => "`allow`",
        wit::Verdict::Deny(_) => "`deny`",
        wit::Verdict::Ask(_) => "`ask`",
        wit::Verdict::Note(_) => "`note`",
    }
}
