//! Measures the plugin host for `cargo xtask bench`: starting every bundled plugin with a warm
//! compile cache (median of 20 loads), and one trivial tool call (`ls` of an empty directory)
//! including its durable intent and completion in a real session file (median of 50).
//! Prints `name value` lines (milliseconds).
#![allow(clippy::print_stdout, missing_docs)]

use std::sync::Arc;
use std::time::Instant;

use smith::{Cancel, SessionId, ToolCall, ToolContext, ToolRegistry};
use smith_host::{CompileCache, Host, Limits, PluginSource};
use smith_store::{SessionWriter, SharedWriter};

fn median(mut samples: Vec<f64>) -> f64 {
    samples.sort_by(f64::total_cmp);
    samples[samples.len() / 2]
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let cache_dir = tempfile::tempdir()?;
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
    let cold = Instant::now();
    drop(Host::load(&sources, &cache, Limits::default())?);
    println!(
        "plugins_start_cold_ms {:.3}",
        cold.elapsed().as_secs_f64() * 1000.0
    );
    let mut starts = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        let host = Host::load(&sources, &cache, Limits::default())?;
        starts.push(t.elapsed().as_secs_f64() * 1000.0);
        drop(host);
    }
    println!("plugins_start_warm_ms {:.3}", median(starts));

    let host = Host::load(&sources, &cache, Limits::default())?;
    let work = tempfile::tempdir()?;
    let sessions = tempfile::tempdir()?;
    let writer = SharedWriter::new(SessionWriter::create(
        sessions.path(),
        SessionId::new_now(),
    )?);
    let context = ToolContext {
        cwd: Some(work.path().to_owned()),
        journal: Arc::new(writer),
        cause: None,
        events: None,
        state: None,
    };
    let call = ToolCall {
        id: "bench".into(),
        name: "ls".into(),
        arguments: serde_json::json!({}),
    };
    let mut calls = Vec::new();
    for _ in 0..50 {
        let t = Instant::now();
        let out = host.call(&call, &context, &Cancel::new());
        calls.push(t.elapsed().as_secs_f64() * 1000.0);
        assert!(!out.is_error, "{}", out.output);
    }
    println!("tool_call_ms {:.3}", median(calls));
    Ok(())
}
