//! The SDK facilities a plugin imports, each one a durable effect (spec: Tools → Durable
//! effect boundary): grant check, intent recorded durably, cancellation check, the effect,
//! completion recorded with its full bounded output and mutation state.

use std::sync::Arc;

use serde_json::json;
use smith::{Cancel, EntryId, ToolCall};
use smith_agent::{EffectJournal, ToolContext};
use smith_store::{EffectCompletion, EffectIntent, EffectOutcome};

use crate::fsops::{FsFailure, Listed, ListedKind, Root};
use crate::grants::{Effect, Granted};
use crate::runtime::State;
use crate::runtime::bindings::smith::plugin::{fs, host};

/// What one call's effects need: who is calling, what is granted, and where to record.
pub(crate) struct CallState {
    plugin: String,
    tool: String,
    call_id: String,
    granted: Granted,
    journal: Option<Arc<dyn EffectJournal>>,
    cause: Option<EntryId>,
    pub(crate) cancel: Cancel,
    /// Effects so far in this call (numbers the effect ids).
    count: u32,
    /// Set when a completion could not be recorded: the call's result must say so.
    pub(crate) terminal: Option<String>,
    /// Where progress messages go.
    progress: Option<std::sync::mpsc::Sender<String>>,
}

/// Result of running an effect: what the guest gets, the output recorded, evidence, and the
/// mutation state when it failed.
struct Ran<T> {
    value: T,
    output: Vec<u8>,
    evidence: serde_json::Value,
}

impl CallState {
    pub(crate) fn new(
        plugin: String,
        call: &ToolCall,
        context: &ToolContext,
        granted: Granted,
        cancel: Cancel,
    ) -> Self {
        Self {
            plugin,
            tool: call.name.clone(),
            call_id: call.id.clone(),
            granted,
            journal: Some(Arc::clone(&context.journal)),
            cause: context.cause,
            cancel,
            count: 0,
            terminal: None,
            progress: context.progress.clone(),
        }
    }

    /// A call state for the host's own calls (`definitions`): nothing is granted.
    pub(crate) fn inert(plugin: &str) -> Self {
        Self {
            plugin: plugin.to_owned(),
            tool: String::new(),
            call_id: String::new(),
            granted: Granted::default(),
            journal: None,
            cause: None,
            cancel: Cancel::new(),
            count: 0,
            terminal: None,
            progress: None,
        }
    }

    /// Run `effect` on `target` durably. `mutates` says whether a failure after the intent
    /// may have changed anything (then an I/O failure is recorded as `unknown`).
    fn effect<T>(
        &mut self,
        effect: Effect,
        target: &str,
        input: serde_json::Value,
        run: impl FnOnce(&Root) -> Result<Ran<T>, FsFailure>,
    ) -> Result<T, fs::FsError> {
        let Some(journal) = self.journal.clone() else {
            return Err(fs::FsError::Denied(
                "effects are not available while the host inspects a plugin".to_owned(),
            ));
        };
        self.count += 1;
        let effect_id = format!("{}/{}", self.call_id, self.count);
        let intent = EffectIntent {
            effect_id: effect_id.clone(),
            call_id: self.call_id.clone(),
            plugin: self.plugin.clone(),
            tool: self.tool.clone(),
            effect: effect.name().to_owned(),
            target: Some(target.to_owned()),
            input,
        };
        let intent_entry = journal.intent(intent, self.cause).map_err(|e| {
            fs::FsError::Io(format!(
                "the effect was not run because its intent could not be recorded: {e}"
            ))
        })?;
        let (outcome, result, output, evidence) = if !self.granted.allows(effect) {
            let why = format!(
                "plugin {} has no grant for {} here",
                self.plugin,
                effect.name()
            );
            (
                EffectOutcome::NotApplied,
                Err(fs::FsError::Denied(why.clone())),
                why.into_bytes(),
                serde_json::Value::Null,
            )
        } else if self.cancel.is_cancelled() {
            (
                EffectOutcome::NotApplied,
                Err(fs::FsError::Cancelled),
                b"cancelled before it started".to_vec(),
                serde_json::Value::Null,
            )
        } else {
            let root = self
                .granted
                .roots
                .first()
                .ok_or_else(|| FsFailure::Denied("no root is granted".to_owned()))
                .and_then(|r| Root::open(r));
            match root.and_then(|root| run(&root)) {
                Ok(ran) => (
                    EffectOutcome::Applied,
                    Ok(ran.value),
                    ran.output,
                    ran.evidence,
                ),
                Err(failure) => {
                    let outcome = match failure {
                        FsFailure::Uncertain(_) => EffectOutcome::Unknown,
                        FsFailure::Denied(_)
                        | FsFailure::NotFound(_)
                        | FsFailure::Invalid(_)
                        | FsFailure::Io(_) => EffectOutcome::NotApplied,
                    };
                    let text = failure.to_string();
                    (
                        outcome,
                        Err(to_wit(failure)),
                        text.into_bytes(),
                        serde_json::Value::Null,
                    )
                }
            }
        };
        let completion = EffectCompletion {
            effect_id,
            outcome,
            output,
            evidence,
        };
        if let Err(e) = journal.complete(intent_entry, completion) {
            let why = format!(
                "the completion of effect {} could not be recorded ({e}); its outcome was {outcome:?}",
                effect.name()
            );
            self.terminal = Some(why.clone());
            return Err(fs::FsError::Io(why));
        }
        result
    }
}

fn to_wit(f: FsFailure) -> fs::FsError {
    match f {
        FsFailure::Denied(m) => fs::FsError::Denied(m),
        FsFailure::NotFound(m) => fs::FsError::NotFound(m),
        FsFailure::Invalid(m) => fs::FsError::Invalid(m),
        FsFailure::Io(m) | FsFailure::Uncertain(m) => fs::FsError::Io(m),
    }
}

impl fs::Host for State {
    fn read_lines(
        &mut self,
        path: String,
        offset: u32,
        limit: u32,
    ) -> Result<fs::LineWindow, fs::FsError> {
        let input = json!({"path": path, "offset": offset, "limit": limit});
        self.call.effect(Effect::ReadFile, &path, input, |root| {
            let w = root.read_lines(&path, offset, limit)?;
            Ok(Ran {
                output: w.text.clone().into_bytes(),
                evidence: json!({"sha256": w.sha256, "total_lines": w.total_lines}),
                value: fs::LineWindow {
                    text: w.text,
                    first_line: w.first_line,
                    last_line: w.last_line,
                    total_lines: w.total_lines,
                    sha256: w.sha256,
                },
            })
        })
    }

    fn write_file(&mut self, path: String, content: String) -> Result<String, fs::FsError> {
        let input = json!({"path": path, "content": content});
        self.call.effect(Effect::WriteFile, &path, input, |root| {
            let before = root.read_lines(&path, 1, 1).ok().map(|w| w.sha256);
            let hash = root.write_file(&path, content.as_bytes())?;
            Ok(Ran {
                output: hash.clone().into_bytes(),
                evidence: json!({"before_sha256": before, "after_sha256": hash}),
                value: hash,
            })
        })
    }

    fn edit_file(
        &mut self,
        path: String,
        edits: Vec<fs::Replacement>,
        expected_sha256: Option<String>,
    ) -> Result<String, fs::FsError> {
        let pairs: Vec<(String, String)> = edits
            .into_iter()
            .map(|e| (e.old_text, e.new_text))
            .collect();
        let input = json!({
            "path": path,
            "edits": pairs.iter().map(|(o, n)| json!({"old_text": o, "new_text": n})).collect::<Vec<_>>(),
            "expected_sha256": expected_sha256,
        });
        self.call.effect(Effect::EditFile, &path, input, |root| {
            let before = root.read_lines(&path, 1, 1).ok().map(|w| w.sha256);
            let hash = root.edit_file(&path, &pairs, expected_sha256.as_deref())?;
            Ok(Ran {
                output: hash.clone().into_bytes(),
                evidence: json!({"before_sha256": before, "after_sha256": hash}),
                value: hash,
            })
        })
    }

    fn list_dir(&mut self, path: String) -> Result<Vec<fs::DirEntry>, fs::FsError> {
        let input = json!({"path": path});
        self.call.effect(Effect::ListDir, &path, input, |root| {
            let listed = root.list_dir(&path)?;
            let output = listed
                .iter()
                .map(|l| l.name.as_str())
                .collect::<Vec<_>>()
                .join("\n")
                .into_bytes();
            Ok(Ran {
                output,
                evidence: json!({"entries": listed.len()}),
                value: listed.into_iter().map(entry).collect(),
            })
        })
    }
}

fn entry(l: Listed) -> fs::DirEntry {
    fs::DirEntry {
        name: l.name,
        kind: match l.kind {
            ListedKind::File => fs::EntryKind::File,
            ListedKind::Directory => fs::EntryKind::Directory,
            ListedKind::Symlink => fs::EntryKind::Symlink,
            ListedKind::Other => fs::EntryKind::Other,
        },
        size: l.size,
    }
}

impl host::Host for State {
    fn cancelled(&mut self) -> bool {
        self.call.cancel.is_cancelled()
    }

    fn progress(&mut self, message: String) {
        // Transient by contract: relayed as a tool update, never recorded; long messages are
        // cut so a plugin cannot flood the interface.
        if let Some(tx) = &self.call.progress {
            let mut text = message;
            if text.len() > 500 {
                let mut cut = 500;
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                text.truncate(cut);
                text.push('…');
            }
            let _ = tx.send(text);
        }
    }
}

impl crate::runtime::bindings::smith::plugin::types::Host for State {}
