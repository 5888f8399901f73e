//! Usage and cost of a session, per attempt and in total, from its records alone (spec:
//! Compaction, cost, and secrets — usage and pricing follow the physical model of each
//! operation; each observation counts once; unknown stays unknown).
//!
//! A usage observation is an assistant message record's `usage` or a compaction record's
//! (kind 19: its summary is its attempt's response), attributed to the attempt
//! (record kind 12) it names and priced at the prices that attempt recorded — never at
//! today's catalog, so a later price change does not rewrite history. Attempts that ended
//! without a response (record kind 13) produced no observation: they are listed, with no
//! usage, and add nothing to the totals.

use std::collections::BTreeMap;

use serde::Serialize;
use smith::{EntryId, ModelRef, Next, ProviderErrorKind, Usage, UsageTotals};
use smith_store::{Entry, Record};

/// One attempt with what it came to.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct AttemptUsage {
    /// The attempt's entry id.
    pub attempt: u64,
    /// The round and the attempt within it.
    pub round: u32,
    /// The attempt within its round (1-based).
    pub number: u32,
    /// The selection, as the user wrote it.
    pub selection: String,
    /// The physical model.
    pub model: ModelRef,
    /// The credential account's label.
    pub account: Option<String>,
    /// The failure class when it ended without a response; `None` when it answered (or the
    /// session ends before it did).
    pub failed: Option<ProviderErrorKind>,
    /// What the round did after that failure.
    pub next: Option<Next>,
    /// The assistant message (or compaction) it produced.
    pub message: Option<u64>,
    /// The usage that response reported; `None` when none (unknown).
    pub usage: Option<Usage>,
    /// Its cost in US dollars at the attempt's recorded prices; `None` when unknown.
    pub cost_usd: Option<f64>,
}

/// The memory one turn allocated, as its `run_end` recorded it.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
pub struct TurnMemoryUsage {
    /// The turn's submission (its `run_end`'s pair), when recorded.
    pub submission: Option<u64>,
    /// The `run_end` entry.
    pub run_end: u64,
    /// The figures.
    #[serde(flatten)]
    pub memory: smith::TurnMemory,
}

/// A session's usage: per attempt, and in total over every response counted once.
#[derive(Clone, Debug, PartialEq, Serialize)]
pub struct Accounts {
    /// Every attempt, in record order.
    pub attempts: Vec<AttemptUsage>,
    /// Usage summed over every response (each counted once); a figure is unknown when any
    /// response left it unknown.
    pub total: UsageTotals,
    /// Cost summed over every response; `None` when any response's cost is unknown.
    pub cost_usd: Option<f64>,
    /// The memory each turn allocated, in record order: the turns whose `run_end` carries
    /// figures (written by a process that accounts for memory).
    pub memory: Vec<TurnMemoryUsage>,
}

/// Account for `entries` (every committed entry of a session, in any order; each entry id
/// counted once).
pub fn account<'e>(entries: impl IntoIterator<Item = &'e Entry>) -> Accounts {
    let mut seen = std::collections::HashSet::new();
    let mut attempts: BTreeMap<EntryId, (AttemptUsage, Option<smith::Price>)> = BTreeMap::new();
    // Responses, by entry id: (attempt, usage).
    let mut responses: BTreeMap<EntryId, (Option<EntryId>, Option<Usage>)> = BTreeMap::new();
    let mut failures: Vec<smith::AttemptFailure> = Vec::new();
    let mut memory: BTreeMap<EntryId, TurnMemoryUsage> = BTreeMap::new();
    for entry in entries {
        if !seen.insert(entry.id) {
            continue;
        }
        match &entry.record {
            Record::Attempt(a) => {
                attempts.insert(
                    entry.id,
                    (
                        AttemptUsage {
                            attempt: entry.id.0,
                            round: a.round,
                            number: a.number,
                            selection: a.selection.clone(),
                            model: a.model.clone(),
                            account: a.account.clone(),
                            failed: None,
                            next: None,
                            message: None,
                            usage: None,
                            cost_usd: None,
                        },
                        a.capabilities.as_ref().and_then(|c| c.price),
                    ),
                );
            }
            Record::AttemptFailed(f) => failures.push(f.clone()),
            Record::Message(m) if m.model.is_some() => {
                responses.insert(entry.id, (m.attempt, m.usage));
            }
            // A compaction's summary is its attempt's response (spec: cost accounting includes
            // compaction).
            Record::Compaction(c) => {
                responses.insert(entry.id, (c.attempt, c.usage));
            }
            Record::RunEnd(r) => {
                if let Some(figures) = r.memory {
                    memory.insert(
                        entry.id,
                        TurnMemoryUsage {
                            submission: entry.pair.map(|p| p.0),
                            run_end: entry.id.0,
                            memory: figures,
                        },
                    );
                }
            }
            _ => {}
        }
    }
    for f in failures {
        if let Some((a, _)) = attempts.get_mut(&f.attempt) {
            a.failed = Some(f.kind);
            a.next = Some(f.next);
        }
    }
    let mut total = UsageTotals::default();
    let mut cost = Some(0.0);
    for (message, (attempt, usage)) in responses {
        total.add(usage.as_ref());
        let priced = attempt
            .and_then(|id| attempts.get_mut(&id))
            .and_then(|(a, price)| {
                a.message = Some(message.0);
                a.usage = usage;
                a.cost_usd = usage.as_ref().zip(*price).and_then(|(u, p)| p.cost(u));
                a.cost_usd
            });
        cost = cost.zip(priced).map(|(a, b)| a + b);
    }
    Accounts {
        attempts: attempts.into_values().map(|(a, _)| a).collect(),
        total,
        cost_usd: cost,
        memory: memory.into_values().collect(),
    }
}

/// The usage of work `work` (a submission's entry id) with everything it owns: its end's own
/// usage plus, by reference, each child's (recursively, each end counted once however it is
/// referenced). `None` when the work has no recorded end. Equal to the sum over the
/// responses the work and its children recorded: no response is counted twice (plan
/// SMH-PLAN-99TPLN9I B5).
pub fn work_usage<'e>(
    entries: impl IntoIterator<Item = &'e Entry>,
    work: EntryId,
) -> Option<UsageTotals> {
    let ends: BTreeMap<EntryId, &smith_store::RunEnd> = entries
        .into_iter()
        .filter_map(|e| match (&e.record, e.pair) {
            (Record::RunEnd(end), Some(pair)) => Some((pair, end)),
            _ => None,
        })
        .collect();
    ends.get(&work)?;
    let mut total = UsageTotals::default();
    let mut counted = std::collections::HashSet::new();
    let mut pending = vec![work];
    while let Some(id) = pending.pop() {
        if !counted.insert(id) {
            continue;
        }
        if let Some(end) = ends.get(&id) {
            total.merge(&end.usage);
            pending.extend(end.children.iter().copied());
        }
    }
    Some(total)
}
