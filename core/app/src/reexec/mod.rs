//! Re-execution of a recorded session's tool calls (spec: Replay and VCS → Replay: "replay
//! may re-execute recorded effects only in an explicit re-execution mode … reports
//! divergence"): the replayed turns' calls run again, in order, through the tools of the
//! plugins enabled now and the user's policy, in a scratch copy of the working tree as the
//! snapshot taken at the start of the range holds it (or in a directory the caller names),
//! and each recorded effect is judged the same, different (with a bounded diff) or not
//! re-executed (with why). Nothing is written to the session: the calls' effects are
//! journalled in memory.
//!
//! Never run again: a call with an effect recorded `unknown` or without a completion, or
//! without a recorded result (the run died while it ran: whether it happened is not known);
//! a call that ran a program unless programs are allowed; a tool no enabled plugin offers.
//! The `history` plugin's snapshots around a batch (`vcs.*` effects) are not the calls' own
//! and are not listed. Plugins see the branch and session state the session recorded when
//! each call was made (`recalled.rs`); project and user state are unavailable.

mod collect;
mod compare;
mod recalled;

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use serde::Serialize;
use smith::{
    Cancel, EffectCompletion, EffectIntent, EffectJournal, EntryId, JournalError, ToolContext,
    ToolRegistry,
};
use smith_agent::playback::ReplayError;

pub use compare::MAX_DIFF_BYTES;

/// What to re-execute, and where.
#[derive(Clone, Debug, Default)]
pub struct Options {
    /// The turns (1-based, inclusive; `None`: all).
    pub turns: Option<(u32, u32)>,
    /// The branch's last entry (`None`: the selected branch).
    pub leaf: Option<EntryId>,
    /// Run in this directory as it is, instead of a scratch copy of the range's first
    /// snapshot (the calls change it).
    pub dir: Option<PathBuf>,
    /// Run calls that ran programs (`process.*` effects).
    pub allow_process: bool,
}

/// How one recorded effect compares.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
#[serde(tag = "verdict", rename_all = "snake_case")]
pub enum Verdict {
    /// Re-executed, and its outcome, output and evidence are the recorded ones.
    Same,
    /// Re-executed, and something differs: `diff` is a unified diff, recorded (`-`) against
    /// now (`+`), at most [`MAX_DIFF_BYTES`].
    Different {
        /// The bounded diff.
        diff: String,
    },
    /// Not run again, and why.
    NotReexecuted {
        /// Why, in words.
        why: String,
    },
    /// Recorded without a known outcome (no completion, or `unknown`): never run again.
    Unknown,
}

/// One effect's line of the report.
#[derive(Clone, Debug, PartialEq, Eq, Serialize)]
pub struct EffectReport {
    /// The turn its call ran in.
    pub turn: u32,
    /// The call's id and tool.
    pub call_id: String,
    /// The tool.
    pub tool: String,
    /// The effect's kind (`fs.write`…), `—` for an effect the re-execution made that was not
    /// recorded.
    pub effect: String,
    /// What it acted on, as recorded.
    pub target: Option<String>,
    /// Its recorded outcome (`applied`, `not-applied`, `unknown`; `none` when no completion
    /// was recorded, or for an effect that was not recorded).
    pub recorded: String,
    /// How it compares.
    #[serde(flatten)]
    pub verdict: Verdict,
}

/// The totals of a report ("re-executed 6/6, same 5, different 1").
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Summary {
    /// Effects reported.
    pub effects: u32,
    /// Effects re-executed.
    pub reexecuted: u32,
    /// Re-executed and the same.
    pub same: u32,
    /// Re-executed and different.
    pub different: u32,
    /// Not run again (unknown ones included).
    pub not_reexecuted: u32,
    /// Of those, recorded without a known outcome.
    pub unknown: u32,
}

impl Summary {
    /// Count `report`.
    pub fn add(&mut self, report: &EffectReport) {
        self.effects += 1;
        match report.verdict {
            Verdict::Same => {
                self.reexecuted += 1;
                self.same += 1;
            }
            Verdict::Different { .. } => {
                self.reexecuted += 1;
                self.different += 1;
            }
            Verdict::NotReexecuted { .. } => self.not_reexecuted += 1,
            Verdict::Unknown => {
                self.not_reexecuted += 1;
                self.unknown += 1;
            }
        }
    }
}

/// Where a re-execution ran and how it went.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Executed {
    /// The directory the calls ran in.
    pub dir: PathBuf,
    /// The snapshot it was restored from (`None`: a named directory).
    pub snapshot: Option<String>,
    /// The totals.
    pub summary: Summary,
    /// Calls run again.
    pub calls: u32,
    /// Stopped through the cancel before the call with this id.
    pub stopped: Option<String>,
    /// The plugins (`id@version`) whose effects were recorded and which no enabled plugin
    /// is now: what the session required that is missing (their calls' tools may be offered
    /// by another version, or not at all).
    pub missing: Vec<String>,
}

/// Why a re-execution could not start.
#[derive(Debug, thiserror::Error)]
pub enum ExecError {
    /// Reading the session failed, or the range or branch names nothing.
    #[error(transparent)]
    Replay(#[from] ReplayError),
    /// No snapshot was taken in the range, so there is no tree to start from.
    #[error(
        "no working-tree snapshot was recorded in the replayed turns (snapshots are taken around tool batches that may change files, when history.snapshots is on), so there is no tree to start from"
    )]
    NoSnapshot,
    /// The snapshot could not be written into a scratch directory.
    #[error("the snapshot {snapshot} of {root} could not be copied into {}: {source}", dir.display())]
    Export {
        /// The snapshot.
        snapshot: String,
        /// The project it is of.
        root: String,
        /// The scratch directory.
        dir: PathBuf,
        /// Why.
        source: Box<dyn std::error::Error + Send + Sync>,
    },
    /// The directory to run in does not exist or is not a directory.
    #[error("{} does not exist or is not a directory", path.display())]
    NotADirectory {
        /// The path given.
        path: PathBuf,
    },
    /// The tools could not be loaded.
    #[error("the tools cannot be loaded: {0}")]
    Tools(String),
}

/// The effects a re-executed call records, kept in memory (nothing reaches the session).
#[derive(Default)]
struct Memory {
    effects: Mutex<Vec<(EffectIntent, Option<EffectCompletion>)>>,
}

impl EffectJournal for Memory {
    fn intent(
        &self,
        intent: EffectIntent,
        _parent: Option<EntryId>,
    ) -> Result<EntryId, JournalError> {
        let mut effects = self.effects.lock().unwrap_or_else(|p| p.into_inner());
        effects.push((intent, None));
        Ok(EntryId(effects.len() as u64))
    }

    fn complete(
        &self,
        intent: EntryId,
        completion: EffectCompletion,
    ) -> Result<EntryId, JournalError> {
        let mut effects = self.effects.lock().unwrap_or_else(|p| p.into_inner());
        let at = usize::try_from(intent.0)
            .unwrap_or(usize::MAX)
            .wrapping_sub(1);
        if let Some(slot) = effects.get_mut(at) {
            slot.1 = Some(completion);
        }
        Ok(intent)
    }
}

/// A scratch directory removed when dropped.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        let _ = std::fs::remove_dir_all(&self.0);
    }
}

impl crate::App {
    /// Re-execute the recorded tool calls of the session at `path` as `options` select, each
    /// effect's line given to `report` as soon as it is judged; stopped between calls once
    /// `cancel` is cancelled. `words` words a process refusal (the frontend's hints).
    ///
    /// # Errors
    /// [`ExecError`]: nothing ran.
    pub fn reexecute(
        &self,
        path: &Path,
        options: &Options,
        cancel: &Cancel,
        words: &dyn Fn(&crate::ProcessRefusal) -> String,
        report: &mut dyn FnMut(&EffectReport),
    ) -> Result<Executed, ExecError> {
        if let Some((first, last)) = options.turns
            && (first == 0 || first > last)
        {
            return Err(ReplayError::Range { first, last }.into());
        }
        let recorded = collect::read(path, options.leaf, options.turns)?;
        if let Some((first, _)) = options.turns
            && first > recorded.turns
        {
            return Err(ReplayError::PastLast {
                first,
                turns: recorded.turns,
            }
            .into());
        }
        let (base, snapshot, _scratch) = match &options.dir {
            Some(dir) => {
                let dir = std::fs::canonicalize(dir)
                    .ok()
                    .filter(|d| d.is_dir())
                    .ok_or_else(|| ExecError::NotADirectory { path: dir.clone() })?;
                (dir, None, None)
            }
            None => {
                let (root, id) = recorded.snapshot.clone().ok_or(ExecError::NoSnapshot)?;
                let dir = self.scratch(&root, &id)?;
                (dir.0.clone(), Some(id), Some(dir))
            }
        };
        // The calls run where the session ran, relative to the copy of its project.
        let root = recorded
            .snapshot
            .as_ref()
            .map(|(r, _)| PathBuf::from(r))
            .or_else(|| {
                recorded
                    .cwd
                    .as_deref()
                    .and_then(|c| crate::history::project_root(Path::new(c)).ok())
            });
        let cwd = match (&root, &recorded.cwd) {
            (Some(root), Some(cwd)) => Path::new(cwd)
                .strip_prefix(root)
                .ok()
                .map(|rel| base.join(rel))
                .filter(|d| d.is_dir())
                .unwrap_or_else(|| base.clone()),
            _ => base.clone(),
        };
        let tools = self.replay_tools(&cwd, options.allow_process, words)?;
        let active: Vec<String> = tools.definitions().into_iter().map(|d| d.name).collect();
        let withheld = tools.withheld();
        // What is installed and enabled, also when the policy withholds its tools here.
        let mut present = tools.provenance();
        present.extend(withheld.iter().map(|w| w.plugin.clone()));
        let mut missing: Vec<String> = recorded
            .calls
            .iter()
            .flat_map(|c| &c.effects)
            .filter(|(i, _)| !collect::bookkeeping(i))
            .map(|(i, _)| i.plugin.split('#').next().unwrap_or_default().to_owned())
            .filter(|label| !present.contains(label))
            .collect();
        missing.sort();
        missing.dedup();
        let original = recorded.cwd.clone().unwrap_or_default();
        let same_place = compare::Places {
            now: cwd.to_string_lossy().into_owned(),
            then: original,
        };
        let mut summary = Summary::default();
        let mut calls = 0;
        for call in &recorded.calls {
            if cancel.is_cancelled() {
                return Ok(Executed {
                    dir: base,
                    snapshot,
                    summary,
                    calls,
                    stopped: Some(call.call.id.clone()),
                    missing,
                });
            }
            let effects: Vec<_> = call
                .effects
                .iter()
                .filter(|(i, _)| !collect::bookkeeping(i))
                .collect();
            let why_not = why_not(call, &effects, &active, &withheld, options.allow_process);
            let lines = match why_not {
                Some(verdict) if effects.is_empty() => vec![compare::call_line(call, verdict)],
                Some(verdict) => effects
                    .iter()
                    .map(|(i, c)| line(call, i, c.as_ref(), verdict.clone()))
                    .collect::<Vec<_>>(),
                None => {
                    calls += 1;
                    let memory = Arc::new(Memory::default());
                    let context = ToolContext {
                        cwd: Some(cwd.clone()),
                        journal: memory.clone(),
                        cause: None,
                        events: None,
                        // The state recorded when the call was made; what it writes stays
                        // in memory (re-execution writes no session).
                        state: Some(Arc::new(recalled::Recalled::new(call.state.clone()))),
                        resident: None,
                    };
                    // Paths of the recorded place name the same files here.
                    let mut moved = call.call.clone();
                    same_place.forward(&mut moved.arguments);
                    let output = tools.call(&moved, &context, cancel);
                    let now: Vec<_> = std::mem::take(
                        &mut *memory.effects.lock().unwrap_or_else(|p| p.into_inner()),
                    )
                    .into_iter()
                    .filter(|(i, _)| !collect::bookkeeping(i))
                    .collect();
                    compare::call(call, &effects, &now, &output, &same_place)
                }
            };
            for l in lines {
                summary.add(&l);
                report(&l);
            }
        }
        Ok(Executed {
            dir: base,
            snapshot,
            summary,
            calls,
            stopped: None,
            missing,
        })
    }

    /// A scratch directory holding snapshot `id` of project `root`.
    fn scratch(&self, root: &str, id: &str) -> Result<Scratch, ExecError> {
        static NEXT: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(0);
        let n = NEXT.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let dir = std::env::temp_dir().join(format!("smith-replay-{}-{n}", std::process::id()));
        let export = |source: Box<dyn std::error::Error + Send + Sync>| ExecError::Export {
            snapshot: id.to_owned(),
            root: root.to_owned(),
            dir: dir.clone(),
            source,
        };
        std::os::unix::fs::DirBuilderExt::mode(&mut std::fs::DirBuilder::new(), 0o700)
            .create(&dir)
            .map_err(|e| export(Box::new(e)))?;
        let scratch = Scratch(std::fs::canonicalize(&dir).unwrap_or(dir.clone()));
        let history = self
            .open_history(Path::new(root))
            .map_err(|e| export(Box::new(e)))?;
        history
            .with(|vcs| {
                let target = vcs.resolve(id)?;
                vcs.export(target, &scratch.0)
            })
            .map_err(|e| export(Box::new(e)))?;
        Ok(scratch)
    }

    /// The enabled tool plugins (no provider plugin) with the user's policy for `cwd`, its
    /// secrets redacted from every output; programs allowed only when `allow_process`, and
    /// never a snapshot of the scratch tree.
    fn replay_tools(
        &self,
        cwd: &Path,
        allow_process: bool,
        words: &dyn Fn(&crate::ProcessRefusal) -> String,
    ) -> Result<smith_host::Loadout, ExecError> {
        let tools = |e: &dyn std::fmt::Display| ExecError::Tools(e.to_string());
        let host = self
            .load_plugins(|m| m.provider.is_none())
            .map_err(|e| tools(&e))?;
        let mut policy = self.policy(cwd, words).map_err(|e| tools(&e))?;
        policy.secrets = self.secrets().map_err(|e| tools(&e))?.redactor;
        policy.tree = smith_host::Tree(None);
        // Project and user state are today's files, not what the session recorded.
        policy.state_files = smith_host::StateFiles(Some(Arc::new(recalled::NotRecorded)));
        if allow_process {
            // Allowed explicitly for this re-execution, where no question can be answered: the
            // mode lets programs run (deny rules still hold), untrusted project or not.
            policy.process = smith_host::ProcessPolicy::Allowed(
                "allowed explicitly for this re-execution".to_owned(),
            );
            policy.permissions.mode = smith_host::PermissionMode::Auto;
        } else {
            policy.process = smith_host::ProcessPolicy::Refused(
                "a re-execution runs programs only when they are allowed".to_owned(),
            );
        }
        Ok(host.loadout().with_policy(policy))
    }
}

/// Why `call` is not run again, as the verdict its effects get; `None`: it runs.
fn why_not(
    call: &collect::RecordedCall,
    effects: &[&(EffectIntent, Option<EffectCompletion>)],
    active: &[String],
    withheld: &[smith::WithheldTool],
    allow_process: bool,
) -> Option<Verdict> {
    let unknown = effects
        .iter()
        .any(|(i, c)| c.as_ref().is_none_or(|c| c.uncertain(&i.effect)));
    // A call cut off before its result was recorded runs again only when every effect it
    // recorded has a known outcome (a person's verdict stands for an unknown one).
    if unknown || (call.result.is_none() && effects.is_empty()) {
        return Some(Verdict::Unknown);
    }
    let not = |why: String| Some(Verdict::NotReexecuted { why });
    if !allow_process
        && effects
            .iter()
            .any(|(i, _)| i.effect.starts_with("process."))
    {
        return not("it ran a program; programs run again only when allowed".to_owned());
    }
    if effects.iter().any(|(i, _)| i.effect.starts_with("net.")) {
        return not("it used the network, which a re-execution never does".to_owned());
    }
    if let Some(w) = withheld.iter().find(|w| w.name == call.call.name) {
        return not(format!("the tool is not offered here: {}", w.why));
    }
    if !active.contains(&call.call.name) {
        return not(format!(
            "no enabled plugin offers the tool `{}` now",
            call.call.name
        ));
    }
    None
}

/// The line of recorded effect `intent` (completed by `completion`) of `call`.
fn line(
    call: &collect::RecordedCall,
    intent: &EffectIntent,
    completion: Option<&EffectCompletion>,
    verdict: Verdict,
) -> EffectReport {
    EffectReport {
        turn: call.turn,
        call_id: call.call.id.clone(),
        tool: call.call.name.clone(),
        effect: intent.effect.clone(),
        target: intent.target.clone(),
        recorded: completion.map_or("none", |c| c.outcome.as_str()).to_owned(),
        verdict,
    }
}
