//! Work and the queue: the live state a session's runs consult — admitted work with its owner
//! and depth, and queued input waiting for delivery — rebuilt from the session file on open
//! (spec: Sessions → Work and recovery, Scoped state, Committed changes).
//!
//! Work is a submission that runs: its entry id is its identity, its `owner` (if any) the work
//! it belongs to, its `run_end` its terminal receipt. Queued input is a submission with a
//! delivery mode: scoped state owned by the queue policy, delivered into live work by a user
//! message paired with it, or withdrawn by a `withdrawal` paired with it. Nothing here is a
//! live thread: every field is rebuilt from recorded entries.

use std::collections::{BTreeMap, HashSet};

use smith::{EntryId, QueuedInput, Selection, SessionId};
use smith_store::{Entry, Record};

use crate::AdmissionError;

/// Bounds on live work and active queue state. Excess admission fails with
/// [`AdmissionError::Limit`] and writes nothing (spec: Committed changes — "live-work count
/// and ownership depth, and active scoped-state item and byte totals, have explicit limits").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WorkLimits {
    /// Most admitted work without a terminal receipt, at once, in one session.
    pub max_live_work: usize,
    /// Deepest ownership chain: top-level work is depth 1, its child 2, and so on.
    pub max_depth: u32,
    /// Most queued inputs waiting for delivery.
    pub max_queued_items: usize,
    /// Most bytes of queued input text waiting for delivery, in all.
    pub max_queued_bytes: usize,
}

impl Default for WorkLimits {
    /// 16 live works, depth 4, 32 queued inputs, 256 KiB of queued text.
    fn default() -> Self {
        Self {
            max_live_work: 16,
            max_depth: 4,
            max_queued_items: 32,
            max_queued_bytes: 256 * 1024,
        }
    }
}

/// Admitted work without a terminal receipt.
#[derive(Clone, Debug)]
pub(crate) struct Live {
    pub(crate) owner: Option<EntryId>,
    pub(crate) depth: u32,
    /// Whether its input has been delivered (its run began); child work waits for its owner.
    pub(crate) started: bool,
    pub(crate) model: Selection,
    pub(crate) input: String,
}

/// The live work and the queue of one session.
#[derive(Debug, Default)]
pub(crate) struct WorkState {
    pub(crate) live: BTreeMap<EntryId, Live>,
    pub(crate) queue: Vec<QueuedInput>,
    /// Set by close: no further admission.
    pub(crate) sealed: bool,
    /// The top-level work executing now and its cancellation, while a run holds the session.
    pub(crate) running: Option<(EntryId, smith::Cancel)>,
    /// The reason of the running work's abort request, once it is recorded.
    pub(crate) abort_recorded: Option<String>,
    /// The interrupted turn held open for a decision ([`crate::Session::open_holding`]):
    /// live in the file, but nothing runs it, so it is not reported as live work.
    pub(crate) held: Option<EntryId>,
    /// Work inherited from a fork's source that had not ended at the fork point: it is not
    /// this session's live work (it never runs here), but its receipt is settled on open.
    pub(crate) inherited_open: Vec<EntryId>,
    /// Queued input inherited from a fork's source, never delivered here: withdrawn on open.
    pub(crate) inherited_queued: Vec<EntryId>,
    /// Questions of the running tool call waiting for an answer (live only, never rebuilt:
    /// a question's call ends with the process that runs it).
    pub(crate) asks: Vec<crate::asks::PendingAsk>,
    /// Set when nobody will answer any more (the frontend's client went away): every
    /// question, waiting or later, is refused with this reason.
    pub(crate) asks_refused: Option<String>,
}

impl WorkState {
    /// Rebuild from the selected branch, root first. Inherited submissions (admitted into a
    /// fork's source) never become this session's live work or queue.
    pub(crate) fn rebuild(branch: &[Entry], session: SessionId) -> Self {
        let mut state = Self::default();
        let mut ended: HashSet<EntryId> = HashSet::new();
        let mut delivered: HashSet<EntryId> = HashSet::new();
        for entry in branch {
            match &entry.record {
                Record::RunEnd(_) | Record::Withdrawal(_) => ended.extend(entry.pair),
                Record::Message(m) if m.message.role == smith::Role::User => {
                    delivered.extend(entry.pair);
                }
                _ => {}
            }
        }
        for entry in branch {
            let Record::Submission(s) = &entry.record else {
                continue;
            };
            if ended.contains(&entry.id) {
                continue;
            }
            if s.session.unwrap_or(session) != session {
                if s.delivery.is_none() {
                    state.inherited_open.push(entry.id);
                } else if !delivered.contains(&entry.id) {
                    state.inherited_queued.push(entry.id);
                }
                continue;
            }
            match s.delivery {
                Some(delivery) if !delivered.contains(&entry.id) => {
                    // Without a recorded policy no policy may deliver it: it stays queued,
                    // reported and withdrawable.
                    state.queue.push(QueuedInput {
                        submission: entry.id,
                        delivery,
                        input: s.input.clone(),
                        policy: s
                            .policy
                            .clone()
                            .unwrap_or_else(|| "(no policy recorded)".to_owned()),
                    });
                }
                Some(_) => {}
                None => {
                    let depth = s
                        .owner
                        .and_then(|o| state.live.get(&o))
                        .map_or(1, |o| o.depth + 1);
                    let started = delivered.contains(&entry.id) || s.owner.is_none();
                    state.live.insert(
                        entry.id,
                        Live {
                            owner: s.owner,
                            depth,
                            started,
                            model: s.model.clone(),
                            input: s.input.clone(),
                        },
                    );
                }
            }
        }
        state
    }

    /// The depth new work owned by `owner` gets, after checking the live-work and depth limits.
    /// Whether work is live that is not the held interrupted turn (nothing runs that one).
    pub(crate) fn busy(&self) -> bool {
        self.live.keys().any(|id| self.held != Some(*id))
    }

    pub(crate) fn check_work(
        &self,
        owner: Option<EntryId>,
        limits: &WorkLimits,
    ) -> Result<u32, AdmissionError> {
        if self.sealed {
            return Err(AdmissionError::Closed);
        }
        if self.live.len() >= limits.max_live_work {
            return Err(AdmissionError::Limit {
                what: "live work",
                limit: limits.max_live_work as u64,
                current: self.live.len() as u64,
            });
        }
        let depth = match owner {
            None => 1,
            Some(o) => match self.live.get(&o) {
                Some(parent) => parent.depth + 1,
                None => return Err(AdmissionError::UnknownOwner { owner: o }),
            },
        };
        if depth > limits.max_depth {
            return Err(AdmissionError::Limit {
                what: "ownership depth",
                limit: u64::from(limits.max_depth),
                current: u64::from(depth),
            });
        }
        Ok(depth)
    }

    /// Check that `input` fits the queue's item and byte limits.
    pub(crate) fn check_queue(
        &self,
        input: &str,
        limits: &WorkLimits,
    ) -> Result<(), AdmissionError> {
        if self.sealed {
            return Err(AdmissionError::Closed);
        }
        if self.queue.len() >= limits.max_queued_items {
            return Err(AdmissionError::Limit {
                what: "queued inputs",
                limit: limits.max_queued_items as u64,
                current: self.queue.len() as u64,
            });
        }
        let bytes: usize = self.queue.iter().map(|q| q.input.len()).sum();
        if bytes + input.len() > limits.max_queued_bytes {
            return Err(AdmissionError::Limit {
                what: "queued input bytes",
                limit: limits.max_queued_bytes as u64,
                current: (bytes + input.len()) as u64,
            });
        }
        Ok(())
    }

    /// Owned child work of `owner` not yet started, in admission order.
    pub(crate) fn waiting_children(&self, owner: EntryId) -> Vec<EntryId> {
        self.live
            .iter()
            .filter(|(_, l)| l.owner == Some(owner) && !l.started)
            .map(|(id, _)| *id)
            .collect()
    }
}
