//! The turn `turn_bench` and `turn_bench_accounted` measure for `cargo xtask bench`: the scripted
//! provider (in-process playback, no network, no waiting) asks for one tool call (`ls` of an
//! empty directory through the bundled wasm plugin), gets its result and answers. The turns
//! of one [`Bench`] run in one session until [`Bench::restart`], so the history — and the
//! request projected from it — grows by one turn each time: two benches compare turn for turn
//! only at the same turn number. Per turn: wall time, heap allocations and bytes (every thread, as the binary's
//! global allocator counts them), and commits — each commit is one `fsync` of the session
//! file.

use std::time::Instant;

use smith::{Cancel, SessionId};
use smith_agent::{Agent, RunLimits, Session};
use smith_ai::scripted::{Script, ScriptedProvider};
use smith_host::{CompileCache, Host, Limits, Loadout, PluginSource};

const SCRIPT: &str = r##"
round {
    text "Listing."
    tool-call id="c1" name="ls" arguments=#"{}"#
    usage input=12 output=4
    stop "tool_use"
}
round {
    text "Empty."
    usage input=20 output=2
    stop "end_turn"
}
"##;

pub(crate) fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

/// One turn's figures.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Sample {
    /// Wall time, in milliseconds.
    pub(crate) wall_ms: f64,
    /// Heap allocations.
    pub(crate) allocations: f64,
    /// KiB allocated, as the caller asked (an accounting wrapper's headers not included).
    pub(crate) alloc_kib: f64,
    /// Commits (one fsync each).
    pub(crate) fsyncs: f64,
}

/// The allocations and bytes allocated so far, as the binary's allocator counts them
/// (counted without allocating); `(0, 0)` where it does not count.
pub(crate) type Counter = fn() -> (u64, u64);

/// A loaded host, a work directory and one session, ready to run turns.
pub(crate) struct Bench {
    count: Counter,
    tools: Loadout,
    script: Script,
    model: smith::Selection,
    session: Session,
    sessions: tempfile::TempDir,
    // Kept alive for the session, the work directory and the compiled plugins.
    _host: Host,
    work: tempfile::TempDir,
    _cache: tempfile::TempDir,
}

impl Bench {
    /// Load the bundled plugins (compiled into a fresh cache) and create the session.
    pub(crate) fn new(count: Counter) -> Result<Self, Box<dyn std::error::Error>> {
        let cache_dir = tempfile::tempdir()?;
        let work = tempfile::tempdir()?;
        let sessions = tempfile::tempdir()?;
        let cache = CompileCache::new(Some(cache_dir.path().to_owned()));
        let sources: Vec<PluginSource<'_>> = smith_plugins::BUNDLED
            .iter()
            .map(|p| PluginSource::new(p.origin, p.manifest, p.component))
            .collect();
        let host = Host::load(&sources, &cache, Limits::default())?;
        let tools = host.loadout();
        let script = Script::parse(SCRIPT, "bench.kdl", "bench", Some(work.path().to_owned()))?;
        let session = Session::create(sessions.path(), SessionId::new_now(), None)?;
        Ok(Self {
            count,
            tools,
            script,
            model: "scripted/bench".parse()?,
            session,
            _host: host,
            work,
            sessions,
            _cache: cache_dir,
        })
    }

    /// Go on in a fresh session.
    pub(crate) fn restart(&mut self) -> Result<(), Box<dyn std::error::Error>> {
        self.session = Session::create(self.sessions.path(), SessionId::new_now(), None)?;
        Ok(())
    }

    /// Run one turn.
    pub(crate) fn turn(&mut self) -> Result<Sample, Box<dyn std::error::Error>> {
        let provider = ScriptedProvider::new(self.script.clone());
        let agent = Agent::new(&provider, &self.tools, RunLimits::default())
            .in_dir(self.work.path().to_owned());
        let before = self.session.journal().lock().sequence();
        let counted = (self.count)();
        let t = Instant::now();
        let outcome = agent.run(
            &mut self.session,
            &self.model,
            "list",
            &mut |_| {},
            &Cancel::new(),
        );
        let wall = t.elapsed().as_secs_f64() * 1000.0;
        let (allocations, allocated) = (self.count)();
        if let Some(e) = outcome.error {
            return Err(e.into());
        }
        Ok(Sample {
            wall_ms: wall,
            allocations: (allocations - counted.0) as f64,
            alloc_kib: (allocated - counted.1) as f64 / 1024.0,
            fsyncs: (self.session.journal().lock().sequence() - before) as f64,
        })
    }

    /// Run `n` turns.
    pub(crate) fn turns(&mut self, n: usize) -> Result<Vec<Sample>, Box<dyn std::error::Error>> {
        (0..n).map(|_| self.turn()).collect()
    }
}

/// Medians of each figure over `samples`.
pub(crate) fn medians(samples: &[Sample]) -> Sample {
    let of = |f: fn(&Sample) -> f64| median(samples.iter().map(f).collect());
    Sample {
        wall_ms: of(|s| s.wall_ms),
        allocations: of(|s| s.allocations),
        alloc_kib: of(|s| s.alloc_kib),
        fsyncs: of(|s| s.fsyncs),
    }
}
