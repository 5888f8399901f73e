//! Measures the runtime's overhead of one agent turn for `cargo xtask bench`: the scripted
//! provider (in-process playback, no network, no waiting) asks for one tool call (`ls` of an
//! empty directory through the bundled wasm plugin), gets its result and answers. Per turn
//! (median of 30 after 3 warm-up turns, one session): wall time, heap allocations and bytes
//! (every thread, counted by the global allocator), and commits — each commit is one
//! `fsync` of the session file. Prints `name value` lines.
#![allow(clippy::print_stdout, missing_docs)]

use std::time::Instant;

use smith::{Cancel, SessionId};
use smith_agent::{Agent, RunLimits, Session};
use smith_ai::scripted::{Script, ScriptedProvider};
use smith_host::{CompileCache, Host, Limits, PluginSource};
use stats_alloc::{INSTRUMENTED_SYSTEM, Region, StatsAlloc};

#[global_allocator]
static GLOBAL: &StatsAlloc<std::alloc::System> = &INSTRUMENTED_SYSTEM;

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

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
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
        let region = Region::new(GLOBAL);
        let t = Instant::now();
        let outcome = agent.run(&mut session, &model, "list", &mut |_| {}, &Cancel::new());
        let wall = t.elapsed().as_secs_f64() * 1000.0;
        let change = region.change();
        if let Some(e) = outcome.error {
            return Err(e.into());
        }
        if turn >= 3 {
            walls.push(wall);
            allocs.push(change.allocations as f64);
            bytes.push(change.bytes_allocated as f64 / 1024.0);
            commits.push((session.journal().lock().sequence() - before) as f64);
        }
    }
    println!("turn_wall_ms {:.3}", median(walls));
    println!("turn_allocations {:.0}", median(allocs));
    println!("turn_alloc_kib {:.1}", median(bytes));
    println!("turn_fsyncs {:.0}", median(commits));
    Ok(())
}
