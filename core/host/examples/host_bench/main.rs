//! Measures the plugin host for `cargo xtask bench`: starting every bundled plugin with a warm
//! compile cache (median of 20 loads), and one trivial tool call (`ls` of an empty directory)
//! including its durable intent and completion in a real session file (median of 50), and
//! `web_fetch` of a 1 MB HTML page from a loopback server against the same page fetched by the
//! bare HTTP engine (median of 20 each), and a tool call exchanging a line with a server kept
//! across calls (median of 50), and the bundled MCP client against three stdio servers
//! ([`mcp`]): finding their tools against a bare client doing the same over pipes, and a tool
//! call against the bare `tools/call` round trip (medians). Prints `name value` lines
//! (milliseconds).
#![allow(clippy::print_stdout, clippy::print_stderr, missing_docs)]

mod mcp;

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
        .map(|p| PluginSource::new(p.origin, p.manifest, p.component))
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
        resident: None,
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
    web_fetch(&host, &context)?;
    kept_exchange(&cache, &context)?;
    mcp::mcp_client(&cache, &context)?;
    Ok(())
}

/// One tool call exchanging a line with a server kept across calls (`cat`, started once by
/// the `program-probe` test plugin): the whole call — a fresh instance, the `process.send`
/// effect's intent and completion, the round trip through the pipes — median of 50.
fn kept_exchange(
    cache: &CompileCache,
    context: &ToolContext,
) -> Result<(), Box<dyn std::error::Error>> {
    let probe = &smith_plugins::PROGRAM_PROBE;
    let sources = [PluginSource::new(
        probe.origin,
        probe.manifest,
        probe.component,
    )];
    let tools = Host::load(&sources, cache, Limits::default())?
        .loadout()
        .with_policy(smith_host::Policy {
            process: smith_host::ProcessPolicy::Allowed("the bench allows it".into()),
            sandbox: smith_host::sandbox::Sandbox::full_access(),
            ..smith_host::Policy::default()
        });
    let context = ToolContext {
        resident: Some(Arc::default()),
        ..context.clone()
    };
    let call = |steps: serde_json::Value| ToolCall {
        id: "kept".into(),
        name: "steps".into(),
        arguments: serde_json::json!({ "steps": steps }),
    };
    let start = call(serde_json::json!([{"op": "start", "name": "echo", "program": "cat"}]));
    let out = tools.call(&start, &context, &Cancel::new());
    assert!(out.output.contains("\"started\":true"), "{}", out.output);
    let exchange = call(serde_json::json!([
        {"op": "send", "name": "echo", "text": "ping\n"},
        {"op": "until", "name": "echo", "text": "ping\n", "timeout_ms": 10000},
    ]));
    let mut samples = Vec::new();
    for _ in 0..50 {
        let t = Instant::now();
        let out = tools.call(&exchange, &context, &Cancel::new());
        samples.push(t.elapsed().as_secs_f64() * 1000.0);
        assert!(out.output.contains("ping"), "{}", out.output);
    }
    println!("kept_exchange_call_ms {:.3}", median(samples));
    Ok(())
}

/// A 1 MB HTML page: headings, paragraphs with links and code, lists.
fn page() -> String {
    let mut html = String::from(
        "<!doctype html><html><head><title>Bench</title><style>p{}</style></head><body>",
    );
    let mut i = 0;
    while html.len() < 1 << 20 {
        i += 1;
        html.push_str(&format!(
            "<h2>Section {i}</h2><p>Some <b>text</b> with a <a href=\"/s/{i}\">link</a> and <code>code {i}</code>, long enough to be a paragraph of an ordinary page.</p><ul><li>one</li><li>two</li></ul>"
        ));
    }
    html.push_str("</body></html>");
    html
}

/// Serve `body` as HTML to every connection until the process ends; the port.
fn serve(body: String) -> std::io::Result<u16> {
    use std::io::{BufRead, BufReader, Write};
    let listener = std::net::TcpListener::bind("127.0.0.1:0")?;
    let port = listener.local_addr()?.port();
    std::thread::spawn(move || {
        for stream in listener.incoming().flatten() {
            let mut reader = BufReader::new(&stream);
            let mut line = String::new();
            while reader.read_line(&mut line).is_ok_and(|n| n > 2) {
                line.clear();
            }
            let mut out = &stream;
            let _ = write!(
                out,
                "HTTP/1.1 200 OK\r\ncontent-type: text/html; charset=utf-8\r\ncontent-length: {}\r\nconnection: close\r\n\r\n",
                body.len()
            );
            let _ = out.write_all(body.as_bytes());
        }
    });
    Ok(port)
}

/// `web_fetch` of a 1 MB page against the bare engine's fetch of it: both medians and the
/// difference (the tool's own cost: the facility, the effect records, the conversion).
fn web_fetch(host: &Host, context: &ToolContext) -> Result<(), Box<dyn std::error::Error>> {
    let port = serve(page())?;
    let url = format!("http://127.0.0.1:{port}/page");
    let engine = smith_ai::http::HttpEngine::default();
    let mut bare = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        let request = smith_ai::http::HttpRequest {
            method: "GET".into(),
            url: url.clone(),
            headers: Vec::new(),
            body: Vec::new(),
        };
        let (body, _) = engine.send(request, &Cancel::new())?.body.read_all();
        bare.push(t.elapsed().as_secs_f64() * 1000.0);
        assert!(body.len() >= 1 << 20);
    }
    let mut rules = smith_host::net::NetRules::default();
    rules
        .allow
        .insert("web".into(), vec![format!("127.0.0.1:{port}").parse()?]);
    let tools = host.loadout().with_policy(smith_host::Policy {
        net: rules,
        ..smith_host::Policy::default()
    });
    let call = ToolCall {
        id: "fetch".into(),
        name: "web_fetch".into(),
        arguments: serde_json::json!({ "url": url }),
    };
    let mut fetched = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        let out = tools.call(&call, context, &Cancel::new());
        fetched.push(t.elapsed().as_secs_f64() * 1000.0);
        assert!(
            !out.is_error && out.output.contains("## Section 1"),
            "{}",
            out.output
        );
    }
    let raw_call = ToolCall {
        arguments: serde_json::json!({ "url": url, "raw": true }),
        ..call
    };
    let mut raw = Vec::new();
    for _ in 0..20 {
        let t = Instant::now();
        let out = tools.call(&raw_call, context, &Cancel::new());
        raw.push(t.elapsed().as_secs_f64() * 1000.0);
        assert!(!out.is_error, "{}", out.output);
    }
    println!("web_fetch_raw_1mb_ms {:.3}", median(raw));
    let (bare, fetched) = (median(bare), median(fetched));
    println!("web_fetch_server_ms {bare:.3}");
    println!("web_fetch_1mb_ms {fetched:.3}");
    println!("web_fetch_over_server_ms {:.3}", fetched - bare);
    Ok(())
}
