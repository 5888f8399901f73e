//! The turn `turn_bench` and `turn_bench_accounted` measure for `cargo xtask bench`: the scripted
//! provider (in-process playback, no network, no waiting) asks for one tool call (`ls` of an
//! empty directory through the bundled wasm plugin), gets its result and answers. Per turn
//! (median of 30 after 3 warm-up turns, one session): wall time, heap allocations and bytes
//! (every thread, counted by the global allocator), and commits — each commit is one
//! `fsync` of the session file.

use std::time::Instant;

use smith::{Cancel, SessionId};
use smith_agent::{Agent, RunLimits, Session};
use smith_ai::scripted::{Script, ScriptedProvider};
use smith_host::{CompileCache, Host, Limits, PluginSource};

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

/// One turn's figures, medians of 30 after 3 warm-up turns.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Figures {
    /// Wall time, in milliseconds.
    pub(crate) wall_ms: f64,
    /// Heap allocations.
    pub(crate) allocations: f64,
    /// KiB allocated, as the system allocator was asked (an accounting wrapper's headers
    /// included).
    pub(crate) alloc_kib: f64,
    /// Commits (one fsync each).
    pub(crate) fsyncs: f64,
}

/// The allocations and bytes allocated so far, as the binary's allocator counts them
/// (counted without allocating).
pub(crate) type Counter = fn() -> (u64, u64);

/// Measure the turn, counting allocations with `count`.
pub(crate) fn measure(count: Counter) -> Result<Figures, Box<dyn std::error::Error>> {
    let cache_dir = tempfile::tempdir()?;
    let work = tempfile::tempdir()?;
    let sessions = tempfile::tempdir()?;
    let cache = CompileCache::new(Some(cache_dir.path().to_owned()));
    let sources: Vec<PluginSource<'_>> = smith_plugins::BUNDLED
        .iter()
        .map(|p| PluginSource {
            origin: p.origin,
            manifest: p.manifest,
            component: p.component,
            parsed: None,
            declared: None,
        })
        .collect();
    let host = Host::load(&sources, &cache, Limits::default())?;
    let tools = host.loadout();
    let script = Script::parse(SCRIPT, "bench.kdl", "bench", Some(work.path().to_owned()))?;
    let model: smith::Selection = "scripted/bench".parse()?;
    let mut session = Session::create(sessions.path(), SessionId::new_now(), None)?;
    let (mut walls, mut allocs, mut bytes, mut commits) = (vec![], vec![], vec![], vec![]);
    for turn in 0..33 {
        let provider = ScriptedProvider::new(script.clone());
        let agent =
            Agent::new(&provider, &tools, RunLimits::default()).in_dir(work.path().to_owned());
        let before = session.journal().lock().sequence();
        let counted = count();
        let t = Instant::now();
        let outcome = agent.run(&mut session, &model, "list", &mut |_| {}, &Cancel::new());
        let wall = t.elapsed().as_secs_f64() * 1000.0;
        let (allocations, allocated) = count();
        if let Some(e) = outcome.error {
            return Err(e.into());
        }
        if turn >= 3 {
            walls.push(wall);
            allocs.push((allocations - counted.0) as f64);
            bytes.push((allocated - counted.1) as f64 / 1024.0);
            commits.push((session.journal().lock().sequence() - before) as f64);
        }
    }
    Ok(Figures {
        wall_ms: median(walls),
        allocations: median(allocs),
        alloc_kib: median(bytes),
        fsyncs: median(commits),
    })
}
