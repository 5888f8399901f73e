//! The `smith:plugin/state` import (package 1.1.0): durable values a plugin keeps between calls
//! and events (spec: Sessions → Scoped state). A plugin reads and writes only the slots its
//! manifest declares (`state "NAME" scope="SCOPE" version=N max-bytes=N`), each value JSON
//! text within the slot's bound; branch and session values go to the session
//! ([`smith::ToolContext::state`]), project and user values to the composition root's files
//! ([`crate::Policy::state_files`]). An input the manifest declares (`input "NAME"`) is read
//! here too, read only: the value the run's policy gives ([`crate::Policy::inputs`]).

use std::sync::Arc;

use smith::{EntryId, ScopedState, StateKey, StateScope, StateValue};

use crate::runtime::State;
use crate::runtime::bindings::smith::plugin::state as wit;

/// The largest `max-bytes` a slot may declare: 1 MiB.
pub const MAX_STATE_BYTES: u64 = 1 << 20;

/// The most slots one plugin may declare.
pub const MAX_STATE_SLOTS: usize = 16;

/// The most inputs one plugin may declare (`input "NAME"`).
pub const MAX_INPUTS: usize = 4;

/// One slot a manifest declares.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct StateSlot {
    /// Its name (lowercase letters, digits and `-`).
    pub name: String,
    /// Where its value lives.
    pub scope: StateScope,
    /// The version of its value's shape (≥ 1): a value written under another version is not
    /// returned.
    pub version: u32,
    /// The largest value, in bytes of JSON text (≤ [`MAX_STATE_BYTES`]).
    pub max_bytes: u64,
}

/// Parse a `state "NAME" scope="SCOPE" version=N max-bytes=N` manifest node.
pub(crate) fn state_node(node: &kdl::KdlNode) -> Result<StateSlot, String> {
    let example = "e.g. state \"allowed\" scope=\"session\" version=1 max-bytes=65536";
    let mut name = None;
    let (mut scope, mut version, mut max_bytes) = (None, None, None);
    for entry in node.entries() {
        let value = entry.value();
        match entry.name().map(|n| n.value()) {
            None if name.is_none() => name = value.as_string().map(str::to_owned),
            None => return Err(format!("`state` takes one name; {example}")),
            Some("scope") => {
                let given = value.as_string().unwrap_or_default();
                scope = Some(
                    StateScope::ALL
                        .into_iter()
                        .find(|s| s.name() == given)
                        .ok_or_else(|| {
                            format!(
                                "state scope `{given}` is not one of branch, session, project, user"
                            )
                        })?,
                );
            }
            Some("version") => {
                version = value
                    .as_integer()
                    .and_then(|v| u32::try_from(v).ok())
                    .filter(|v| *v >= 1);
                if version.is_none() {
                    return Err(format!(
                        "state `version` takes a whole number ≥ 1; {example}"
                    ));
                }
            }
            Some("max-bytes") => {
                max_bytes = value
                    .as_integer()
                    .and_then(|v| u64::try_from(v).ok())
                    .filter(|v| (1..=MAX_STATE_BYTES).contains(v));
                if max_bytes.is_none() {
                    return Err(format!(
                        "state `max-bytes` takes a whole number from 1 to {MAX_STATE_BYTES}; {example}"
                    ));
                }
            }
            Some(other) => {
                return Err(format!(
                    "unknown state property `{other}`; known: scope, version, max-bytes"
                ));
            }
        }
    }
    let name = name
        .filter(|n| crate::manifest::valid_id(n))
        .ok_or_else(|| {
            format!("`state` takes a name of lowercase letters, digits and `-`; {example}")
        })?;
    let missing = |what: &str| format!("state `{name}` needs `{what}`; {example}");
    Ok(StateSlot {
        scope: scope.ok_or_else(|| missing("scope"))?,
        version: version.ok_or_else(|| missing("version"))?,
        max_bytes: max_bytes.ok_or_else(|| missing("max-bytes"))?,
        name,
    })
}

/// The session's side of a call's state: its branch and session store and the entry writes
/// belong to.
#[derive(Clone, Default)]
pub(crate) struct Kept {
    /// Branch and session state, when the call runs in a session.
    pub(crate) session: Option<Arc<dyn ScopedState>>,
    /// The tool call's message.
    pub(crate) cause: Option<EntryId>,
}

impl Kept {
    /// What `manifest`'s instance reaches with this session side under `policy` (its
    /// project and user state files, the inputs it gives).
    pub(crate) fn access(&self, manifest: &crate::Manifest, policy: &crate::Policy) -> StateAccess {
        let given = policy.inputs.get(&manifest.id);
        StateAccess {
            owner: manifest.id.clone(),
            slots: manifest.state.clone().into(),
            inputs: manifest
                .inputs
                .iter()
                .map(|name| {
                    let value = given.and_then(|g| g.get(name)).map(ToString::to_string);
                    (name.clone(), value)
                })
                .collect::<Vec<_>>()
                .into(),
            session: self.session.clone(),
            files: policy.state_files.0.clone(),
            cause: self.cause,
        }
    }
}

/// What one instance may reach of its plugin's state.
#[derive(Clone)]
pub(crate) struct StateAccess {
    /// The plugin's id (the owner of its slots).
    pub(crate) owner: String,
    /// The slots its manifest declares.
    pub(crate) slots: Arc<[StateSlot]>,
    /// The inputs its manifest declares, each with the JSON text the policy gives (none:
    /// not given in this run).
    pub(crate) inputs: Arc<[(String, Option<String>)]>,
    /// Branch and session state: the session's, when the call runs in one.
    pub(crate) session: Option<Arc<dyn ScopedState>>,
    /// Project and user state: the composition root's files, when there is a data home.
    pub(crate) files: Option<Arc<dyn ScopedState>>,
    /// The entry the writes belong to (the tool call's message).
    pub(crate) cause: Option<EntryId>,
}

impl StateAccess {
    fn slot(
        &self,
        name: &str,
    ) -> Result<(&StateSlot, StateKey, &dyn ScopedState), wit::StateError> {
        if self.inputs.iter().any(|(n, _)| n == name) {
            return Err(wit::StateError::Invalid(format!(
                "`{}` is an input Smith gives this plugin, which it reads but cannot change",
                cut(name)
            )));
        }
        let slot = self
            .slots
            .iter()
            .find(|s| s.name == name)
            .ok_or_else(|| wit::StateError::Undeclared(cut(name)))?;
        let store = if slot.scope.in_session() {
            self.session.as_deref()
        } else {
            self.files.as_deref()
        };
        let store = store.ok_or_else(|| {
            wit::StateError::Unavailable(if slot.scope.in_session() {
                format!(
                    "{} state needs a session, and this call runs outside one",
                    slot.scope.name()
                )
            } else {
                format!(
                    "{} state needs Smith's data home, and none is set",
                    slot.scope.name()
                )
            })
        })?;
        let key = StateKey {
            owner: self.owner.clone(),
            name: slot.name.clone(),
            scope: slot.scope,
        };
        Ok((slot, key, store))
    }
}

fn cut(name: &str) -> String {
    crate::handlers::cut_to(name, 200)
}

fn failed(e: &smith::StateError) -> wit::StateError {
    match e {
        smith::StateError::Unavailable(scope) => {
            wit::StateError::Unavailable(format!("{scope} state is not kept here"))
        }
        smith::StateError::Storage { .. } => wit::StateError::Storage(e.to_string()),
    }
}

impl State {
    fn access(&self) -> Result<&StateAccess, wit::StateError> {
        self.call.state.as_ref().ok_or_else(|| {
            wit::StateError::Unavailable(
                "this plugin's state is not available to this kind of call".to_owned(),
            )
        })
    }
}

impl wit::Host for State {
    fn get(&mut self, name: String) -> Result<Option<String>, wit::StateError> {
        let access = self.access()?;
        if let Some((_, given)) = access.inputs.iter().find(|(n, _)| *n == name) {
            return Ok(given.clone());
        }
        let (slot, key, store) = access.slot(&name)?;
        Ok(store
            .get(&key)
            .map_err(|e| failed(&e))?
            .filter(|v| v.version == slot.version)
            .map(|v| v.value.to_string()))
    }

    fn set(&mut self, name: String, value: String) -> Result<(), wit::StateError> {
        let access = self.access()?;
        let (slot, key, store) = access.slot(&name)?;
        if value.len() as u64 > slot.max_bytes {
            return Err(wit::StateError::TooLarge(value.len() as u64));
        }
        let parsed: serde_json::Value =
            serde_json::from_str(&value).map_err(|e| wit::StateError::Invalid(e.to_string()))?;
        let value = StateValue {
            version: slot.version,
            value: parsed,
        };
        store
            .set(&key, Some(value), access.cause)
            .map_err(|e| failed(&e))
    }

    fn remove(&mut self, name: String) -> Result<(), wit::StateError> {
        let access = self.access()?;
        let (_, key, store) = access.slot(&name)?;
        store.set(&key, None, access.cause).map_err(|e| failed(&e))
    }
}

/// Where project and user state is kept for a run ([`crate::Policy::state_files`]): the
/// composition root's files under the data home, or none (plugins are told it is
/// unavailable).
#[derive(Clone, Default)]
pub struct StateFiles(pub Option<Arc<dyn ScopedState>>);

impl std::fmt::Debug for StateFiles {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(if self.0.is_some() {
            "StateFiles(kept)"
        } else {
            "StateFiles(none)"
        })
    }
}

impl PartialEq for StateFiles {
    /// The same store, or none on both sides.
    fn eq(&self, other: &Self) -> bool {
        match (&self.0, &other.0) {
            (Some(a), Some(b)) => Arc::ptr_eq(a, b),
            (None, None) => true,
            _ => false,
        }
    }
}

impl Eq for StateFiles {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn an_input_is_given_by_the_policy_and_read_only() {
        let manifest = crate::Manifest::parse(
            "plugin \"m\" { version \"1\"\n world \"tool-plugin@1.9.0\"\n tool \"t\"\n input \"given\"\n input \"absent\"\n}",
            "m.kdl",
        )
        .unwrap();
        let mut policy = crate::Policy::default();
        let given = serde_json::json!({"a": [1, 2]});
        policy
            .inputs
            .entry("m".into())
            .or_default()
            .insert("given".into(), given.clone());
        // Another plugin's inputs are not this one's.
        policy
            .inputs
            .entry("other".into())
            .or_default()
            .insert("absent".into(), serde_json::json!(1));
        let access = Kept::default().access(&manifest, &policy);
        let text = access
            .inputs
            .iter()
            .find(|(n, _)| n == "given")
            .and_then(|(_, v)| v.clone())
            .unwrap();
        assert_eq!(
            serde_json::from_str::<serde_json::Value>(&text).unwrap(),
            given
        );
        assert_eq!(
            access.inputs.iter().find(|(n, _)| n == "absent").unwrap().1,
            None
        );
        assert!(matches!(
            access.slot("given"),
            Err(wit::StateError::Invalid(why)) if why.contains("cannot change")
        ));
        assert!(matches!(
            access.slot("nothing"),
            Err(wit::StateError::Undeclared(_))
        ));
    }
}
