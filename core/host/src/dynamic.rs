//! Tools a plugin finds at run time (package 1.4.0): a plugin whose manifest declares
//! `dynamic-tools prefix="P" [cache="SLOT"]` is built as the `dynamic-tool-plugin` world and
//! exports `discover`. Until `discover` has answered in this process, the tools offered are
//! those its cache slot holds (the plugin keeps it); `discover` runs at the first turn of a
//! process and plugin generation that could use the tools, and again at a later turn's start
//! when its source or cache slot changed since it answered ([`watched`]: a server added, a
//! listing the plugin dropped because its server said its tools changed), in an instance
//! granted as a tool call's, its effects recorded under the turn ([`crate::Loadout`]'s
//! `smith::ToolRegistry::discover`). Every tool found is checked here — its name starts with
//! the prefix and fits a tool name, its input schema is an object schema that compiles — and
//! one that does not is skipped with a notice naming the plugin and the tool, the others
//! kept.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, RwLock};

use smith::{StateKey, StateScope, ToolDefinition};

use crate::manifest::DynamicTools;
use crate::runtime::State;

/// Generated bindings of the `dynamic-tool-plugin` world.
#[allow(missing_docs, unreachable_pub, clippy::all)]
pub(crate) mod bindings {
    wasmtime::component::bindgen!({
        path: "../../plugins/wit",
        world: "dynamic-tool-plugin",
    });
}

/// The pre-instantiated form of a plugin's `dynamic-tool-plugin` world.
pub(crate) type Pre = bindings::DynamicToolPluginPre<State>;

/// The most tools one plugin may offer at run time.
pub const MAX_DYNAMIC_TOOLS: usize = 512;

/// The longest tool name: the strictest provider's bound (OpenAI's 64).
pub const MAX_TOOL_NAME: usize = 64;

/// Tools found at run time, checked, each with its input schema's validator.
#[derive(Default)]
pub(crate) struct Found {
    pub(crate) definitions: Vec<ToolDefinition>,
    pub(crate) validators: HashMap<String, jsonschema::Validator>,
}

impl Found {
    /// Whether `name` is one of them.
    pub(crate) fn has(&self, name: &str) -> bool {
        self.validators.contains_key(name)
    }
}

/// The most sets of inputs one plugin's run-time tools are kept for at once (sessions of a
/// process given different servers); the oldest is forgotten past it, and found again.
const MAX_VIEWS: usize = 16;

/// One plugin's run-time tools in a generation, per set of inputs the runs give it (its
/// [`view`]: runs given the same inputs share them): none until the cache is read or
/// `discover` answers.
#[derive(Default)]
pub(crate) struct DynamicSet {
    found: RwLock<Vec<(u64, Arc<Found>)>>,
    /// What `discover` found from when it was last asked ([`watched`]), per view.
    asked: Mutex<HashMap<u64, u64>>,
}

impl DynamicSet {
    /// The tools offered now in view `view`: `discover`'s, else the cache's (read through
    /// `files` once).
    pub(crate) fn current(
        &self,
        owner: &str,
        decl: &DynamicTools,
        version: u32,
        files: &crate::StateFiles,
        view: u64,
    ) -> Arc<Found> {
        if let Some((_, found)) = self
            .found
            .read()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .iter()
            .find(|(v, _)| *v == view)
        {
            return Arc::clone(found);
        }
        let cached = cached(owner, decl, version, files).unwrap_or_default();
        let (found, _) = check(owner, decl, cached);
        let found = Arc::new(found);
        let mut slot = self
            .found
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if let Some((_, known)) = slot.iter().find(|(v, _)| *v == view) {
            return Arc::clone(known);
        }
        self.keep(&mut slot, view, Arc::clone(&found));
        found
    }

    /// Keep `found` for `view`; a view forgotten to make room is asked again when next used
    /// (its claim dropped too), never left offering the cache.
    fn keep(&self, kept: &mut Vec<(u64, Arc<Found>)>, view: u64, found: Arc<Found>) {
        kept.retain(|(v, _)| *v != view);
        if kept.len() == MAX_VIEWS {
            let (forgotten, _) = kept.remove(0);
            self.asked
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner)
                .remove(&forgotten);
        }
        kept.push((view, found));
    }

    /// Claim a `discover` of this generation in view `view`: true the first time, and when
    /// what it finds from (`now`, [`watched`]) changed since it was last asked.
    pub(crate) fn claim(&self, view: u64, now: u64) -> bool {
        let mut asked = self
            .asked
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        if asked.get(&view) == Some(&now) {
            return false;
        }
        if asked.len() >= MAX_VIEWS * 4 {
            asked.clear();
        }
        asked.insert(view, now);
        true
    }

    /// `discover` answered (or failed) in view `view` and what it finds from is `now`: not
    /// asked again until that changes.
    pub(crate) fn settle(&self, view: u64, now: u64) {
        self.asked
            .lock()
            .unwrap_or_else(std::sync::PoisonError::into_inner)
            .insert(view, now);
    }

    /// Offer `found` from now on in view `view`.
    pub(crate) fn set(&self, view: u64, found: Found) {
        let mut kept = self
            .found
            .write()
            .unwrap_or_else(std::sync::PoisonError::into_inner);
        self.keep(&mut kept, view, Arc::new(found));
    }
}

/// A digest of the inputs `policy` gives `manifest`'s plugin (`input "NAME"`): runs given the
/// same inputs see the same run-time tools.
pub(crate) fn view(manifest: &crate::Manifest, policy: &crate::Policy) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    let given = policy.inputs.get(&manifest.id);
    for name in &manifest.inputs {
        match given.and_then(|g| g.get(name)) {
            Some(value) => value.to_string().hash(&mut hasher),
            None => 0_u8.hash(&mut hasher),
        }
    }
    hasher.finish()
}

/// Whether `policy` gives `manifest`'s plugin any of the inputs it declares.
fn has_input(manifest: &crate::Manifest, policy: &crate::Policy) -> bool {
    policy
        .inputs
        .get(&manifest.id)
        .is_some_and(|given| manifest.inputs.iter().any(|n| given.contains_key(n)))
}

/// Whether the slot `decl` finds its tools from holds a value (true when it names none): a
/// plugin with nothing to find from is not asked, nor loaded for it.
fn has_source(manifest: &crate::Manifest, decl: &DynamicTools, files: &crate::StateFiles) -> bool {
    let Some(slot) = &decl.source else {
        return true;
    };
    let Some(store) = files.0.as_ref() else {
        return false;
    };
    let version = manifest
        .state
        .iter()
        .find(|s| &s.name == slot)
        .map(|s| s.version);
    let key = StateKey {
        owner: manifest.id.clone(),
        name: slot.clone(),
        scope: StateScope::User,
    };
    // A value that cannot be read is the plugin's to report: it is asked.
    store
        .get(&key)
        .map_or(true, |v| v.is_some_and(|v| Some(v.version) == version))
}

/// A digest of what `discover` finds from and caches into — the values of the plugin's `user`
/// slots, its source and cache among them: a change since it last answered (a server added,
/// a listing forgotten so it is listed afresh) asks it again at the next turn.
fn watched(manifest: &crate::Manifest, decl: &DynamicTools, files: &crate::StateFiles) -> u64 {
    use std::hash::{Hash, Hasher};
    let mut hasher = std::collections::hash_map::DefaultHasher::new();
    if let Some(store) = files.0.as_ref() {
        let user = manifest
            .state
            .iter()
            .filter(|s| s.scope == StateScope::User)
            .map(|s| &s.name);
        let named = [&decl.source, &decl.cache].into_iter().flatten();
        let mut slots: Vec<&String> = user.chain(named).collect();
        slots.sort();
        slots.dedup();
        for slot in slots {
            let key = StateKey {
                owner: manifest.id.clone(),
                name: slot.clone(),
                scope: StateScope::User,
            };
            match store.get(&key) {
                Ok(Some(value)) => {
                    value.version.hash(&mut hasher);
                    value.value.to_string().hash(&mut hasher);
                }
                Ok(None) => 0_u8.hash(&mut hasher),
                Err(_) => 1_u8.hash(&mut hasher),
            }
        }
    }
    hasher.finish()
}

/// The definitions in `owner`'s cache slot (declared at `version`), if it declares one and
/// it holds a list.
fn cached(
    owner: &str,
    decl: &DynamicTools,
    version: u32,
    files: &crate::StateFiles,
) -> Option<Vec<ToolDefinition>> {
    let slot = decl.cache.as_ref()?;
    let store = files.0.as_ref()?;
    let key = StateKey {
        owner: owner.to_owned(),
        name: slot.clone(),
        scope: StateScope::User,
    };
    let value = store.get(&key).ok()??;
    // A value written under another version of the slot is not this one's (as the `state`
    // import treats it).
    (value.version == version).then(|| serde_json::from_value(value.value).ok())?
}

/// `given` checked: the tools that fit, and a notice for each that does not.
pub(crate) fn check(
    owner: &str,
    decl: &DynamicTools,
    given: Vec<ToolDefinition>,
) -> (Found, Vec<String>) {
    let mut found = Found::default();
    let mut notices = Vec::new();
    let mut over = 0_usize;
    for d in given {
        if found.definitions.len() == MAX_DYNAMIC_TOOLS {
            over += 1;
            continue;
        }
        let name = crate::handlers::cut_to(&d.name, 80);
        let fault = if !d.name.starts_with(&decl.prefix) {
            Some(format!("its name does not start with `{}`", decl.prefix))
        } else if d.name.len() > MAX_TOOL_NAME
            || !d
                .name
                .chars()
                .all(|c| c.is_ascii_alphanumeric() || c == '_' || c == '-')
        {
            Some(format!(
                "a tool name is 1 to {MAX_TOOL_NAME} letters, digits, `_` and `-`"
            ))
        } else if found.has(&d.name) {
            Some("the name is given twice".to_owned())
        } else if found.definitions.len() == MAX_DYNAMIC_TOOLS {
            Some(format!(
                "a plugin offers at most {MAX_DYNAMIC_TOOLS} tools found at run time"
            ))
        } else if d.input_schema.get("type").and_then(|t| t.as_str()) != Some("object") {
            Some("its input schema is not an object schema (`\"type\": \"object\"`)".to_owned())
        } else {
            match jsonschema::validator_for(&d.input_schema) {
                Ok(validator) => {
                    found.validators.insert(d.name.clone(), validator);
                    found.definitions.push(d);
                    None
                }
                Err(e) => Some(format!(
                    "its input schema is invalid: {}",
                    crate::handlers::cut_to(&e.to_string(), 300)
                )),
            }
        };
        if let Some(why) = fault {
            notices.push(format!(
                "plugin {owner}: tool `{name}` was skipped: {why}; its other tools are offered"
            ));
        }
    }
    if notices.len() > MAX_NOTICES - 2 {
        let more = notices.len() - (MAX_NOTICES - 2);
        notices.truncate(MAX_NOTICES - 2);
        notices.push(format!(
            "plugin {owner}: {more} more of its tools were skipped for such reasons"
        ));
    }
    if over > 0 {
        notices.push(format!(
            "plugin {owner}: {over} of its tools were skipped: a plugin offers at most {MAX_DYNAMIC_TOOLS} tools found at run time, and the first {MAX_DYNAMIC_TOOLS} are offered"
        ));
    }
    (found, notices)
}

/// A discovery's WIT tool definitions as the host's, a schema that is not JSON taken as
/// `null` (refused by [`check`] with the others' reasons).
pub(crate) fn definitions(
    given: Vec<bindings::smith::plugin::types::ToolDefinition>,
) -> Vec<ToolDefinition> {
    given
        .into_iter()
        .map(|d| ToolDefinition {
            input_schema: serde_json::from_str(&d.input_schema).unwrap_or(serde_json::Value::Null),
            name: d.name,
            description: d.description,
        })
        .collect()
}

impl crate::Loadout {
    /// Ask each plugin with run-time tools that is offered here — and was not asked yet in
    /// this generation, or whose source or cache slot changed since it answered — what it
    /// offers now (its `discover` export), in `context` — its effects
    /// recorded in the session, asked of the policy as a tool call's are. Returns the
    /// notices for the person: each plugin's own, each tool skipped, each failure (which
    /// leaves the tools offered before, the cache's, in place).
    pub(crate) fn discover_all(
        &self,
        context: &smith::ToolContext,
        cancel: &smith::Cancel,
    ) -> Vec<String> {
        let mut notices = Vec::new();
        for plugin in &self.generation.plugins {
            let Some(decl) = &plugin.manifest.dynamic else {
                continue;
            };
            let files = &self.policy.state_files;
            let view = view(&plugin.manifest, &self.policy);
            if self.withholds(plugin).is_some()
                || !(has_source(&plugin.manifest, decl, files)
                    || has_input(&plugin.manifest, &self.policy))
                || !plugin
                    .dynamic
                    .claim(view, watched(&plugin.manifest, decl, files))
            {
                continue;
            }
            let answer = self.discover_one(plugin, decl, context, cancel);
            // What it wrote itself (its cache) is no reason to ask it again.
            plugin
                .dynamic
                .settle(view, watched(&plugin.manifest, decl, files));
            match answer {
                Ok((found, said)) => {
                    plugin.dynamic.set(view, found);
                    notices.extend(said);
                }
                Err(why) => notices.push(format!(
                    "plugin {} could not find its tools: {why}; the tools it offered before, if any, are offered",
                    plugin.manifest.label()
                )),
            }
        }
        notices
    }

    fn discover_one(
        &self,
        plugin: &crate::generation::LoadedPlugin,
        decl: &DynamicTools,
        context: &smith::ToolContext,
        cancel: &smith::Cancel,
    ) -> Result<(Found, Vec<String>), String> {
        let ready = plugin.ready(&self.runtime).map_err(str::to_owned)?;
        let pre = ready
            .discover
            .as_ref()
            .ok_or("it does not export `discover` (the `dynamic-tool-plugin` world)")?;
        let call = smith::ToolCall {
            id: smith::DISCOVER_CALL_ID.to_owned(),
            name: smith::DISCOVER_CALL_ID.to_owned(),
            arguments: serde_json::json!({}),
        };
        let (mut state, _) = self.call_state(plugin, &call, context, cancel);
        if self.has_policy() {
            self.gate(&mut state, cancel);
        }
        let mut store = self
            .runtime
            .store(ready.tier, state, self.runtime.limits.deadline);
        plugin.loaded.count_instance();
        let result = crate::kernel_call(|| {
            pre.instantiate(&mut store)
                .and_then(|instance| instance.call_discover(&mut store))
        });
        crate::net_stream::end_all(store.data_mut());
        crate::program_imports::end_all(store.data_mut());
        let discovery = result
            .map_err(|e| crate::tool_call::failure(&e, self.runtime.limits.memory_bytes))?
            .map_err(|why| crate::handlers::cut_to(&why, 2000))?;
        let owner = plugin.manifest.label();
        let (found, skipped) = check(&owner, decl, definitions(discovery.tools));
        let notices = discovery
            .notices
            .iter()
            .take(MAX_NOTICES)
            .map(|n| format!("plugin {owner}: {}", crate::handlers::cut_to(n, 2000)))
            .chain(skipped)
            .collect();
        Ok((found, notices))
    }
}

/// The most notices one `discover` may give.
const MAX_NOTICES: usize = 32;

#[cfg(test)]
mod tests {
    use super::*;

    fn tool(name: &str, schema: serde_json::Value) -> ToolDefinition {
        ToolDefinition {
            name: name.to_owned(),
            description: String::new(),
            input_schema: schema,
        }
    }

    #[test]
    fn a_malformed_tool_is_skipped_with_a_notice_and_the_others_kept() {
        let decl = DynamicTools {
            prefix: "mcp__".to_owned(),
            cache: None,
            source: None,
        };
        let object = serde_json::json!({"type": "object"});
        let (found, notices) = check(
            "mcp-client@0.1.0",
            &decl,
            vec![
                tool("mcp__s__ok", object.clone()),
                tool("other", object.clone()),
                tool(&format!("mcp__{}", "x".repeat(60)), object.clone()),
                tool("mcp__s__a.b", object.clone()),
                tool("mcp__s__ok", object.clone()),
                tool("mcp__s__list", serde_json::json!({"type": "array"})),
                tool(
                    "mcp__s__bad",
                    serde_json::json!({"type": "object", "minProperties": "x"}),
                ),
                tool("mcp__s__fine", object),
            ],
        );
        let names: Vec<&str> = found.definitions.iter().map(|d| d.name.as_str()).collect();
        assert_eq!(names, ["mcp__s__ok", "mcp__s__fine"]);
        assert_eq!(notices.len(), 6, "{notices:?}");
        for (notice, says) in notices.iter().zip([
            "does not start with `mcp__`",
            "1 to 64 letters",
            "1 to 64 letters",
            "given twice",
            "not an object schema",
            "input schema is invalid",
        ]) {
            assert!(
                notice.contains(says) && notice.starts_with("plugin mcp-client@0.1.0: tool `"),
                "{notice}"
            );
        }
    }

    /// User state in memory.
    #[derive(Default)]
    struct Memory(std::sync::Mutex<HashMap<String, smith::StateValue>>);

    impl smith::ScopedState for Memory {
        fn get(&self, key: &StateKey) -> Result<Option<smith::StateValue>, smith::StateError> {
            Ok(self.0.lock().unwrap().get(&key.name).cloned())
        }

        fn set(
            &self,
            key: &StateKey,
            value: Option<smith::StateValue>,
            _: Option<smith::EntryId>,
        ) -> Result<(), smith::StateError> {
            let mut map = self.0.lock().unwrap();
            match value {
                Some(v) => map.insert(key.name.clone(), v),
                None => map.remove(&key.name),
            };
            Ok(())
        }
    }

    #[test]
    fn discover_is_claimed_once_and_again_only_when_what_it_finds_from_changed() {
        let set = DynamicSet::default();
        assert!(set.claim(0, 7));
        assert!(!set.claim(0, 7));
        // It wrote its cache itself: settled on the new digest, not asked again for it.
        set.settle(0, 8);
        assert!(!set.claim(0, 8));
        // A server added since.
        assert!(set.claim(0, 9));
        assert!(!set.claim(0, 9));
        // A run given other inputs is asked for itself.
        assert!(set.claim(1, 9));
        assert!(!set.claim(0, 9));
    }

    #[test]
    fn runs_given_different_inputs_see_their_own_tools_and_the_oldest_view_is_forgotten() {
        let manifest = crate::Manifest::parse(
            "plugin \"m\" { version \"1\"\n world \"tool-plugin@1.9.0\"\n dynamic-tools prefix=\"m__\" source=\"servers\"\n state \"servers\" scope=\"user\" version=1 max-bytes=99\n input \"given\"\n}",
            "m.kdl",
        )
        .unwrap();
        let decl = manifest.dynamic.clone().unwrap();
        let mut policy = crate::Policy::default();
        let none = view(&manifest, &policy);
        assert!(!has_input(&manifest, &policy));
        policy
            .inputs
            .entry("m".into())
            .or_default()
            .insert("given".into(), serde_json::json!({"a": 1}));
        assert!(has_input(&manifest, &policy));
        let a = view(&manifest, &policy);
        assert_ne!(a, none);
        let set = DynamicSet::default();
        let found = |names: &[&str]| {
            let (found, _) = check(
                "m",
                &decl,
                names
                    .iter()
                    .map(|n| tool(n, serde_json::json!({"type": "object"})))
                    .collect(),
            );
            found
        };
        assert!(set.claim(a, 1));
        set.set(a, found(&["m__a"]));
        set.set(none, found(&["m__none"]));
        let files = crate::StateFiles(None);
        let names = |v: u64| -> Vec<String> {
            set.current("m", &decl, 1, &files, v)
                .definitions
                .iter()
                .map(|d| d.name.clone())
                .collect()
        };
        assert_eq!(names(a), ["m__a"]);
        assert_eq!(names(none), ["m__none"]);
        for v in 100..100 + MAX_VIEWS as u64 {
            set.set(v, found(&[]));
        }
        // Forgotten, then read from the (empty) cache again rather than another view's, and
        // asked again at its next turn.
        assert!(names(a).is_empty());
        assert!(set.claim(a, 1));
    }

    #[test]
    fn a_plugin_with_nothing_to_find_from_is_not_asked() {
        let manifest = crate::Manifest::parse(
            "plugin \"m\" { version \"1\"\n world \"tool-plugin@1.6.0\"\n dynamic-tools prefix=\"m__\" source=\"servers\"\n state \"servers\" scope=\"user\" version=2 max-bytes=99\n}",
            "m.kdl",
        )
        .unwrap();
        let decl = manifest.dynamic.clone().unwrap();
        let memory = Arc::new(Memory::default());
        let files = crate::StateFiles(Some(Arc::clone(&memory) as Arc<dyn smith::ScopedState>));
        assert!(!has_source(&manifest, &decl, &crate::StateFiles(None)));
        assert!(!has_source(&manifest, &decl, &files));
        let value = |version| smith::StateValue {
            version,
            value: serde_json::json!({"a": {}}),
        };
        // A value written under another version of the slot is not its value.
        memory
            .0
            .lock()
            .unwrap()
            .insert("servers".to_owned(), value(1));
        assert!(!has_source(&manifest, &decl, &files));
        memory
            .0
            .lock()
            .unwrap()
            .insert("servers".to_owned(), value(2));
        assert!(has_source(&manifest, &decl, &files));
        let always = DynamicTools {
            source: None,
            ..decl
        };
        assert!(has_source(&manifest, &always, &crate::StateFiles(None)));
    }
}
