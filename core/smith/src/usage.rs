//! Token usage, where unknown stays unknown.

use serde::{Deserialize, Serialize};

/// Token usage reported by a provider for one response. `None` means the provider did not
/// report that figure: unknown, never zero (spec: Compaction, cost, and secrets).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct Usage {
    /// Input (prompt) tokens, excluding cache reads and writes.
    pub input: Option<u64>,
    /// Output (completion) tokens, thinking included.
    pub output: Option<u64>,
    /// Input tokens served from the provider's prompt cache.
    pub cache_read: Option<u64>,
    /// Input tokens written to the provider's prompt cache.
    pub cache_write: Option<u64>,
}

impl Usage {
    /// The tokens the conversation holds after this response: everything the request sent
    /// (input, cache reads and writes) and what the response added (output). `None` when the
    /// input was not reported; an unreported cache or output figure counts as none.
    pub fn context_tokens(&self) -> Option<u64> {
        let input = self.input?;
        Some(
            [self.cache_read, self.cache_write, self.output]
                .into_iter()
                .flatten()
                .fold(input, u64::saturating_add),
        )
    }
}

/// Usage summed over the responses of a run.
///
/// Each field is the exact sum only when every response reported it; if any response left a
/// field unknown (or reported no usage at all) the total of that field is unknown (`None`).
/// With no responses every total is a known zero.
///
/// Serialized flat — `responses`, `input`, `output`, `cache_read`, `cache_write` — through a
/// fixed struct rather than `#[serde(flatten)]`, so encoders see a definite-length map (the
/// session store's canonical CBOR has no indefinite lengths).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize, Deserialize)]
#[serde(into = "FlatTotals", from = "FlatTotals")]
pub struct UsageTotals {
    /// How many responses were counted.
    pub responses: u32,
    /// The summed figures.
    pub usage: Usage,
}

/// The wire shape of [`UsageTotals`].
#[derive(Clone, Copy, Serialize, Deserialize)]
struct FlatTotals {
    responses: u32,
    input: Option<u64>,
    output: Option<u64>,
    cache_read: Option<u64>,
    cache_write: Option<u64>,
}

impl From<UsageTotals> for FlatTotals {
    fn from(t: UsageTotals) -> Self {
        Self {
            responses: t.responses,
            input: t.usage.input,
            output: t.usage.output,
            cache_read: t.usage.cache_read,
            cache_write: t.usage.cache_write,
        }
    }
}

impl From<FlatTotals> for UsageTotals {
    fn from(f: FlatTotals) -> Self {
        Self {
            responses: f.responses,
            usage: Usage {
                input: f.input,
                output: f.output,
                cache_read: f.cache_read,
                cache_write: f.cache_write,
            },
        }
    }
}

impl Default for UsageTotals {
    fn default() -> Self {
        Self {
            responses: 0,
            usage: Usage {
                input: Some(0),
                output: Some(0),
                cache_read: Some(0),
                cache_write: Some(0),
            },
        }
    }
}

impl UsageTotals {
    /// Count one response's usage; `None` means the response reported no usage at all.
    pub fn add(&mut self, observed: Option<&Usage>) {
        fn sum(total: Option<u64>, seen: Option<u64>) -> Option<u64> {
            Some(total?.saturating_add(seen?))
        }
        let seen = observed.copied().unwrap_or_default();
        self.responses += 1;
        self.usage = Usage {
            input: sum(self.usage.input, seen.input),
            output: sum(self.usage.output, seen.output),
            cache_read: sum(self.usage.cache_read, seen.cache_read),
            cache_write: sum(self.usage.cache_write, seen.cache_write),
        };
    }
}

impl UsageTotals {
    /// Add `other`'s counted responses and figures; a figure unknown on either side stays
    /// unknown.
    pub fn merge(&mut self, other: &UsageTotals) {
        fn sum(a: Option<u64>, b: Option<u64>) -> Option<u64> {
            Some(a?.saturating_add(b?))
        }
        self.responses += other.responses;
        self.usage = Usage {
            input: sum(self.usage.input, other.usage.input),
            output: sum(self.usage.output, other.usage.output),
            cache_read: sum(self.usage.cache_read, other.usage.cache_read),
            cache_write: sum(self.usage.cache_write, other.usage.cache_write),
        };
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_context_holds_the_whole_request_and_the_answer() {
        let usage = Usage {
            input: Some(900),
            output: Some(50),
            cache_read: Some(100),
            cache_write: None,
        };
        assert_eq!(usage.context_tokens(), Some(1050));
        let no_input = Usage {
            input: None,
            ..usage
        };
        assert_eq!(no_input.context_tokens(), None);
    }

    #[test]
    fn known_figures_sum() {
        let mut t = UsageTotals::default();
        let u = Usage {
            input: Some(3),
            output: Some(4),
            cache_read: Some(0),
            cache_write: Some(1),
        };
        t.add(Some(&u));
        t.add(Some(&u));
        assert_eq!(t.responses, 2);
        assert_eq!(t.usage.input, Some(6));
        assert_eq!(t.usage.cache_write, Some(2));
    }

    #[test]
    fn unknown_stays_unknown() {
        let mut t = UsageTotals::default();
        t.add(Some(&Usage {
            input: Some(3),
            output: None,
            ..Usage::default()
        }));
        assert_eq!(t.usage.input, Some(3));
        assert_eq!(t.usage.output, None);
        assert_eq!(t.usage.cache_read, None);
        let mut t = UsageTotals::default();
        t.add(None);
        assert_eq!(t.usage, Usage::default());
    }
}

/// The memory one turn allocated, as the process's accounting allocator attributed it to the
/// turn's scope (spec: Performance and portability → Memory accounting). Recorded in the
/// turn's `run_end` and carried by its end intent; absent where no accounting allocator was
/// installed (a library embedding the agent) and in sessions written before it existed.
///
/// Bytes are of the blocks asked for, not counting the allocator's own overhead.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize, Deserialize)]
pub struct TurnMemory {
    /// Blocks the turn allocated, its plugin calls' and requests' included.
    pub allocations: u64,
    /// Bytes the turn allocated (growth by reallocation included), its plugin calls' and
    /// requests' included.
    pub allocated_bytes: u64,
    /// The most bytes of the turn's own blocks live at once.
    pub peak_live_bytes: u64,
    /// Bytes of the turn's own blocks still live at its end (what it handed to the session:
    /// its messages, results, caches).
    pub live_bytes: u64,
    /// The turn ceiling in force (`memory.ceiling.turn`), in bytes; `None` when unset.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub ceiling_bytes: Option<u64>,
    /// Whether the turn's live bytes went past that ceiling. The turn was not stopped.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub ceiling_crossed: bool,
    /// Plugin calls (kernel-call scopes) that went past `memory.ceiling.kernel-call` while the
    /// turn ran, counted process-wide (another session's turn at the same time may add).
    #[serde(default, skip_serializing_if = "is_zero")]
    pub kernel_calls_crossed: u64,
    /// Effects and model requests (io-request scopes) that went past
    /// `memory.ceiling.io-request` while the turn ran, counted as `kernel_calls_crossed` is.
    #[serde(default, skip_serializing_if = "is_zero")]
    pub io_requests_crossed: u64,
    /// Whether the session's scope went past `memory.ceiling.session`: said once per session,
    /// at the end of the turn that found it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub session_ceiling_crossed: bool,
    /// Whether the process's own scope went past `memory.ceiling.process`: said once per
    /// process, at the end of the turn that found it.
    #[serde(default, skip_serializing_if = "std::ops::Not::not")]
    pub process_ceiling_crossed: bool,
}

#[allow(clippy::trivially_copy_pass_by_ref)] // serde's skip_serializing_if passes a reference
fn is_zero(n: &u64) -> bool {
    *n == 0
}
