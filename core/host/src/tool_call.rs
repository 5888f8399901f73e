//! One tool call through the [`smith::ToolRegistry`] port: find the plugin, refuse a failed
//! one, validate the arguments against the tool's input schema before anything runs (spec:
//! Security), grant what the user's policy allows, run the call in a fresh instance under the
//! call's limits, and bound its output.

use std::sync::Arc;

use smith::{
    Cancel, ToolCall, ToolContext, ToolDefinition, ToolOutput, ToolRegistry, WithheldTool,
};

use crate::dynamic::Found;
use crate::effects::CallState;
use crate::generation::LoadedPlugin;
use crate::grants::{Grant, ProcessPolicy, default_policy};
use crate::policy::{CallQuery, Decision};
use crate::runtime::{Host, Loadout, Runtime, Stopped, bindings};

impl Runtime {
    /// `text` as tool output, cut at the output bound with a marker saying so.
    fn bounded(&self, text: String, is_error: bool) -> ToolOutput {
        let limit = self.limits.output_bytes;
        if text.len() <= limit {
            return ToolOutput {
                output: text,
                is_error,
                structured: None,
            };
        }
        let mut cut = limit;
        while !text.is_char_boundary(cut) {
            cut -= 1;
        }
        ToolOutput {
            output: format!(
                "{}\n[output cut at {limit} bytes of {}: the tool produced more than the output bound]",
                &text[..cut],
                text.len()
            ),
            is_error,
            structured: None,
        }
    }
}

impl Loadout {
    /// The same tools under the policy as `change` leaves it (the rest of the run's view of
    /// the plugins unchanged): an editor's MCP servers given as an input, say.
    #[must_use]
    pub fn with_policy_change(mut self, change: impl FnOnce(&mut crate::Policy)) -> Self {
        let mut policy = (*self.policy).clone();
        change(&mut policy);
        self.policy = Arc::new(policy);
        self
    }

    /// The same tools with permission mode `mode` in every policy event from now on (the
    /// rest of the policy unchanged).
    #[must_use]
    pub fn with_permission_mode(mut self, mode: crate::PermissionMode) -> Self {
        let mut policy = (*self.policy).clone();
        policy.permissions.mode = mode;
        self.policy = Arc::new(policy);
        self
    }

    /// The permission mode policy events carry.
    pub fn permission_mode(&self) -> crate::PermissionMode {
        self.policy.permissions.mode
    }

    /// Why the user's policy withholds `plugin`'s tools here, if it does: a plugin whose
    /// manifest requests `process.exec` while process execution is refused, or asked first
    /// with no `permissions` handler to ask (its tools could only fail), with the reason and
    /// fix.
    pub(crate) fn withholds(&self, plugin: &LoadedPlugin) -> Option<&str> {
        if !plugin.manifest.grants.contains(&Grant::ProcessExec) {
            return None;
        }
        match &self.policy.process {
            ProcessPolicy::Refused(why) => Some(why),
            ProcessPolicy::AskFirst(why) if !self.has_permissions_handler() => Some(why),
            _ => None,
        }
    }

    /// Why tool `tool` of `plugin` is withheld here: the plugin's reason
    /// ([`Loadout::withholds`]), or a setting the tool needs (`needs-setting`) that is not
    /// set, named with what it is.
    pub(crate) fn withholds_tool(&self, plugin: &LoadedPlugin, tool: &str) -> Option<String> {
        if let Some(why) = self.withholds(plugin) {
            return Some(why.to_owned());
        }
        let setting = plugin.manifest.tool_needs.get(tool)?;
        let id = &plugin.manifest.id;
        if self
            .policy
            .plugin_settings
            .get(id)
            .is_some_and(|set| set.contains_key(setting))
        {
            return None;
        }
        let doc = plugin
            .manifest
            .settings
            .iter()
            .find(|d| &d.name == setting)
            .map_or("", |d| d.doc.as_str());
        Some(format!(
            "it needs the setting plugin.{id}.{setting} ({doc}), which your configuration does not set"
        ))
    }
}

impl Loadout {
    /// The plugin providing tool `name`, with the run-time tools it was found among (`None`:
    /// one of the plugin's static tools).
    fn provider_of(&self, name: &str) -> Option<(&LoadedPlugin, Option<Arc<Found>>)> {
        self.generation.plugins.iter().find_map(|p| {
            if p.manifest.tools.iter().any(|t| t == name) {
                return Some((p, None));
            }
            let found = self.found(p)?;
            found.has(name).then_some((p, Some(found)))
        })
    }

    /// `plugin`'s run-time tools offered now, if it declares `dynamic-tools`.
    pub(crate) fn found(&self, plugin: &LoadedPlugin) -> Option<Arc<Found>> {
        let decl = plugin.manifest.dynamic.as_ref()?;
        let version = decl
            .cache
            .as_ref()
            .and_then(|c| plugin.manifest.state.iter().find(|s| &s.name == c))
            .map_or(0, |s| s.version);
        Some(plugin.dynamic.current(
            &plugin.manifest.id,
            decl,
            version,
            &self.policy.state_files,
            crate::dynamic::view(&plugin.manifest, &self.policy),
        ))
    }

    /// The state of one instance of `plugin` running for `call` in `context`: what the
    /// user's policy grants it, its state slots, and the check of secrets restored into its
    /// effects. Also returns the session side of its state, for the policy events.
    pub(crate) fn call_state(
        &self,
        plugin: &LoadedPlugin,
        call: &ToolCall,
        context: &ToolContext,
        cancel: &Cancel,
    ) -> (CallState, crate::state_imports::Kept) {
        let label = plugin.manifest.label();
        let mut granted =
            default_policy(&plugin.manifest.grants, context.cwd.clone(), &self.policy);
        granted.net = crate::net::NetGrant::of(
            &plugin.manifest.id,
            &plugin.manifest.net_hosts,
            &self.policy.net,
        );
        granted.settings = self.policy.settings_of(&plugin.manifest);
        let mut state = CallState::new(
            format!("{label}#{}", self.generation.number),
            call,
            context,
            granted,
            Arc::clone(&self.policy),
            cancel.clone(),
        );
        let kept = crate::state_imports::Kept {
            session: context.state.clone(),
            cause: context.cause,
        };
        state.state = Some(kept.access(&plugin.manifest, &self.policy));
        let loadout = self.clone();
        let cancel = cancel.clone();
        state.authorize = Some(Arc::new(move |query| {
            loadout.authorize_restore(query, &cancel)
        }));
        (state, kept)
    }

    /// Ask the policy plugins before each of `state`'s effects.
    pub(crate) fn gate(&self, state: &mut CallState, cancel: &Cancel) {
        let loadout = self.clone();
        let cancel = cancel.clone();
        state.gate = Some(Arc::new(move |query, ask| {
            loadout.before_effect(query, ask, &cancel)
        }));
    }
}

impl ToolRegistry for Loadout {
    /// The tools offered here: every tool plugin's, but those the policy withholds and those
    /// whose needed setting is unset.
    fn definitions(&self) -> Vec<ToolDefinition> {
        self.generation
            .plugins
            .iter()
            .filter(|p| self.withholds(p).is_none())
            .flat_map(|p| {
                let found = self.found(p);
                p.definitions
                    .iter()
                    .filter(|d| self.withholds_tool(p, &d.name).is_none())
                    .cloned()
                    .chain(found.into_iter().flat_map(|f| f.definitions.clone()))
                    .collect::<Vec<_>>()
            })
            .collect()
    }

    fn discover(&self, context: &ToolContext, cancel: &Cancel) -> Vec<String> {
        self.discover_all(context, cancel)
    }

    fn turn_end(
        &self,
        end: &smith::TurnEnd<'_>,
        context: &ToolContext,
        cancel: &Cancel,
    ) -> Vec<smith::TurnEndNote> {
        self.turn_end_all(end, context, cancel)
    }

    /// The tool plugins offered here, as `id@version`, in load order.
    fn provenance(&self) -> Vec<String> {
        self.generation
            .plugins
            .iter()
            .filter(|p| self.withholds(p).is_none())
            .map(|p| p.manifest.label())
            .collect()
    }

    /// Whether the plugin providing `name` declares it `read-only=#true` in its manifest.
    fn read_only(&self, name: &str) -> bool {
        self.generation
            .plugins
            .iter()
            .find(|p| p.manifest.tools.contains(&name.to_owned()))
            .and_then(|p| p.manifest.tool_hints.get(name))
            .and_then(|h| h.read_only)
            .unwrap_or(false)
    }

    fn withheld(&self) -> Vec<WithheldTool> {
        self.generation
            .plugins
            .iter()
            .flat_map(|p| {
                p.definitions.iter().filter_map(move |d| {
                    self.withholds_tool(p, &d.name).map(|why| WithheldTool {
                        name: d.name.clone(),
                        plugin: p.manifest.label(),
                        why,
                    })
                })
            })
            .collect()
    }

    fn call(&self, call: &ToolCall, context: &ToolContext, cancel: &Cancel) -> ToolOutput {
        let Some((plugin, found)) = self.provider_of(&call.name) else {
            return ToolOutput {
                output: format!("tool `{}` is not provided by any loaded plugin", call.name),
                is_error: true,
                structured: None,
            };
        };
        let label = format!("{}@{}", plugin.manifest.id, plugin.manifest.version);
        if let Some(why) = plugin
            .failed
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .clone()
        {
            return ToolOutput {
                output: format!(
                    "plugin {label} is out of service after an earlier failure ({why}); restart Smith to load it again"
                ),
                is_error: true,
                structured: None,
            };
        }
        let ready = match plugin.ready(&self.runtime) {
            Ok(ready) => ready,
            Err(why) => {
                return ToolOutput {
                    output: format!("plugin {label} cannot be loaded: {why}; nothing was run"),
                    is_error: true,
                    structured: None,
                };
            }
        };
        // Arguments are validated before anything runs (spec: Security).
        let validator = match &found {
            Some(found) => found.validators.get(&call.name),
            None => ready.validators.get(&call.name),
        };
        if let Some(refusal) = validator.and_then(|v| mismatch(v, call)) {
            return refusal;
        }
        let (mut state, kept) = self.call_state(plugin, call, context, cancel);
        let gated = self.has_policy().then(|| CallQuery {
            call,
            context,
            call_id: &call.id,
            tool: &call.name,
            plugin: &label,
            arguments: integral(&call.arguments).to_string(),
            cwd: context
                .cwd
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
            read_only: self.read_only(&call.name),
            kept: kept.clone(),
        });
        if let Some(query) = &gated {
            let mut asker =
                |by: &str, q: &crate::policy::wit::Question| state.choose(by, q, &call.name);
            match self.before_tool(query, &mut asker, cancel) {
                Decision::Deny(why) => {
                    return ToolOutput {
                        output: format!("`{}` was not run: {why}", call.name),
                        is_error: true,
                        structured: None,
                    };
                }
                Decision::Allow { by, notes } => {
                    state.call_allowed_by = by;
                    state.notes = notes;
                }
            }
            state.call_arguments.clone_from(&query.arguments);
            self.gate(&mut state, cancel);
        }
        let mut store = self
            .runtime
            .store(ready.tier, state, self.runtime.limits.deadline);
        let invocation = bindings::smith::plugin::types::Invocation {
            call_id: call.id.clone(),
            cwd: context
                .cwd
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
        };
        // JSON Schema counts `2.0` as an integer; the plugin gets it written as one.
        let arguments = integral(&call.arguments).to_string();
        plugin.loaded.count_instance();
        let result = crate::kernel_call(|| {
            ready.pre.instantiate(&mut store).and_then(|instance| {
                instance.call_call(&mut store, &call.name, &arguments, &invocation)
            })
        });
        // Streams the plugin left open end with the call: their completions are recorded now.
        crate::net_stream::end_all(store.data_mut());
        // So do the exchanges with kept programs: what the call received is recorded now.
        crate::program_imports::end_all(store.data_mut());
        let terminal = store.data_mut().call.terminal.take();
        let notes = std::mem::take(&mut store.data_mut().call.notes);
        let given = store.data_mut().call.structured.take();
        match result {
            Ok(out) => {
                let mut text = out.text;
                let mut is_error = out.is_error;
                if let Some(why) = terminal {
                    text.push_str(&format!("\n[{why}]"));
                    is_error = true;
                }
                let mut output = self.runtime.bounded(text, is_error);
                if !is_error {
                    output.structured = structured(ready, &call.name, given);
                }
                // What the host and the policy said of the call, then the after-tool hooks'.
                let after = match &gated {
                    Some(query) => self.after_tool(query, &output.output, output.is_error, cancel),
                    None => Vec::new(),
                };
                for note in notes.into_iter().chain(after) {
                    output.output.push('\n');
                    output.output.push_str(&note);
                }
                output
            }
            Err(e) => {
                let why = failure(&e, self.runtime.limits.memory_bytes);
                let cancelled = matches!(e.downcast_ref::<Stopped>(), Some(Stopped::Cancelled));
                if !cancelled {
                    // A trap or an overrun is the plugin's fault: it is out of service.
                    *plugin
                        .failed
                        .lock()
                        .unwrap_or_else(std::sync::PoisonError::into_inner) = Some(why.clone());
                }
                let after = if cancelled {
                    "its instance was destroyed"
                } else {
                    "its instance was destroyed and the plugin is out of service until Smith restarts"
                };
                ToolOutput {
                    output: format!(
                        "tool `{}` of {label} failed: {why}; {after} (effects it recorded before this are in the session)",
                        call.name
                    ),
                    is_error: true,
                    structured: None,
                }
            }
        }
    }
}

/// The answer to `call` when its arguments do not match `validator` (its tool's input
/// schema): where and why, and that nothing ran.
fn mismatch(validator: &jsonschema::Validator, call: &ToolCall) -> Option<ToolOutput> {
    let error = validator.iter_errors(&call.arguments).next()?;
    let at = error.instance_path().to_string();
    let at = if at.is_empty() {
        "the arguments".to_owned()
    } else {
        format!("`{at}`")
    };
    Some(ToolOutput {
        output: format!(
            "the arguments of `{}` do not match its input schema: {}: {}; nothing was run — call it again with arguments that match",
            call.name,
            cut(&at, 200),
            cut(&error.to_string(), 500)
        ),
        is_error: true,
        structured: None,
    })
}

/// Why a tool's instance ended without an answer, in words: the deadline or the cancel that
/// stopped it, its memory limit (`memory_bytes`), or the trap.
pub(crate) fn failure(e: &wasmtime::Error, memory_bytes: usize) -> String {
    if let Some(stopped) = e.downcast_ref::<Stopped>() {
        return stopped.to_string();
    }
    let text = format!("{e:#}");
    if text.contains("growing memory") || text.contains("memory") && text.contains("limit") {
        format!("the plugin exceeded its memory limit of {memory_bytes} bytes")
    } else {
        format!("the plugin trapped: {}", trap_reason(e))
    }
}

/// Set to `1` in the environment, a trap's whole wasm backtrace follows its reason.
pub(crate) const BACKTRACE_VAR: &str = "SMITH_PLUGIN_BACKTRACE";

/// Why an instance trapped, in one line — the trap itself (`wasm \`unreachable\` instruction
/// executed`, an out-of-bounds access…) or the root cause — without the wasm backtrace the
/// error carries, which follows only when [`BACKTRACE_VAR`] is `1`. Cut at 500 bytes.
pub(crate) fn trap_reason(e: &wasmtime::Error) -> String {
    let reason = match e.downcast_ref::<wasmtime::Trap>() {
        Some(trap) => trap.to_string(),
        None => e.root_cause().to_string(),
    };
    let reason = reason.lines().next().unwrap_or_default().to_owned();
    if std::env::var(BACKTRACE_VAR).as_deref() == Ok("1") {
        return cut(&format!("{reason}\n{e:?}"), 16 * 1024);
    }
    cut(&reason, 500)
}

/// `text` cut at about `max` bytes (on a character boundary), with `…` when cut: error
/// messages quote offending values, which may be huge.
/// The most bytes of structured result a call may hand over.
const MAX_STRUCTURED_BYTES: usize = 1 << 20;

/// The structured result of a successful call of `tool`: `given` checked against the tool's
/// output schema, or why it does not fit; `None` when the tool declares no schema and gave
/// nothing.
fn structured(
    plugin: &crate::generation::ToolReady,
    tool: &str,
    given: Option<String>,
) -> Option<Result<serde_json::Value, String>> {
    let validator = plugin.output_validators.get(tool);
    let checked = match (validator, given) {
        (None, None) => return None,
        (None, Some(_)) => Err(format!(
            "`{tool}` handed over a structured result, but its manifest declares no output schema"
        )),
        (Some(_), None) => Err(format!(
            "`{tool}` declares an output schema but handed over no structured result"
        )),
        (Some(_), Some(text)) if text.len() > MAX_STRUCTURED_BYTES => Err(format!(
            "`{tool}`'s structured result is {} bytes, over the {MAX_STRUCTURED_BYTES} allowed",
            text.len()
        )),
        (Some(validator), Some(text)) => serde_json::from_str::<serde_json::Value>(&text)
            .map_err(|e| format!("`{tool}`'s structured result is not JSON: {e}"))
            .and_then(|value| {
                let mismatch = validator.iter_errors(&value).next().map(|error| {
                    format!(
                        "`{tool}`'s structured result does not match its output schema at `{}`: {}",
                        cut(&error.instance_path().to_string(), 200),
                        cut(&error.to_string(), 500)
                    )
                });
                mismatch.map_or(Ok(value), Err)
            }),
    };
    Some(checked)
}

fn cut(text: &str, max: usize) -> String {
    if text.len() <= max {
        return text.to_owned();
    }
    let mut end = max;
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    format!("{}… ({} bytes in all)", &text[..end], text.len())
}

/// `value` with every integral float that fits an `i64` (`2.0`) written as an integer.
fn integral(value: &serde_json::Value) -> serde_json::Value {
    use serde_json::Value;
    match value {
        Value::Number(n) if !n.is_i64() && !n.is_u64() => match n.as_f64() {
            #[allow(clippy::cast_possible_truncation)]
            Some(f) if f.fract() == 0.0 && f.abs() < 9.0e15 => Value::from(f as i64),
            _ => value.clone(),
        },
        Value::Array(items) => Value::Array(items.iter().map(integral).collect()),
        Value::Object(map) => {
            Value::Object(map.iter().map(|(k, v)| (k.clone(), integral(v))).collect())
        }
        other => other.clone(),
    }
}

impl ToolRegistry for Host {
    /// The current generation's tools.
    fn definitions(&self) -> Vec<ToolDefinition> {
        self.loadout().definitions()
    }

    /// Runs in the generation current when the call starts (a run that must not see a reload
    /// mid-way uses a [`Loadout`] instead).
    fn call(&self, call: &ToolCall, context: &ToolContext, cancel: &Cancel) -> ToolOutput {
        self.loadout().call(call, context, cancel)
    }

    fn read_only(&self, name: &str) -> bool {
        self.loadout().read_only(name)
    }
}
