//! The bundled MCP client against three stdio servers: finding their tools against a bare
//! client starting, greeting and listing the same servers over pipes, and a tool call against
//! the bare `tools/call` round trip (medians). Two sets of servers: the raw Python server of
//! the MCP client's tests (always), and the servers issue 62 names — `smith mcp` itself twice
//! and the official Python SDK's server — when `SMITH_BENCH_SMITH` names the `smith` binary
//! and `SMITH_MCP_PYTHON` a Python with the SDK (`cargo xtask bench` sets the first; `.ci/run`
//! installs the SDK).

use std::sync::Arc;
use std::time::Instant;

use smith::{Cancel, ToolCall, ToolContext, ToolRegistry};
use smith_host::{CompileCache, Host, Limits, PluginSource};

use crate::median;

/// The raw MCP server of the MCP client's tests.
const RAW_SERVER: &str = concat!(
    env!("CARGO_MANIFEST_DIR"),
    "/../../frontends/cli/tests/mcp/fake_server.py"
);

/// The official Python SDK's server over stdio, one tool.
const SDK_SERVER: &str = r#"
from mcp.server.mcpserver import MCPServer

server = MCPServer("bench")

@server.tool()
def echo(text: str) -> str:
    """Echo the text."""
    return "echo: " + text

server.run()
"#;

/// How to start one server.
#[derive(Clone)]
struct Spec {
    command: String,
    args: Vec<String>,
    env: Vec<(String, String)>,
}

impl Spec {
    /// Its entry in the MCP client's `servers` slot.
    fn entry(&self) -> serde_json::Value {
        let env: serde_json::Map<String, serde_json::Value> = self
            .env
            .iter()
            .map(|(k, v)| (k.clone(), serde_json::Value::String(v.clone())))
            .collect();
        serde_json::json!({"command": self.command, "args": self.args, "env": env})
    }
}

/// One set of three servers: their specs, the tool a call exercises (on the first) with its
/// arguments and answer, and what a discovery must find.
struct Servers {
    /// The figures' prefix (`mcp`, `mcp_named`).
    prefix: &'static str,
    specs: [Spec; 3],
    call: (&'static str, serde_json::Value, &'static str),
    /// The notices a discovery gives, each checked (none expected: empty).
    notices: fn(&[String]) -> bool,
    /// The tools found, at least.
    tools: usize,
    /// Kept until the figures are taken (the homes and the SDK script).
    _dirs: Vec<tempfile::TempDir>,
}

/// The raw Python server three times.
fn raw() -> Servers {
    let spec = Spec {
        command: "python3".into(),
        args: vec![RAW_SERVER.into(), "ok".into()],
        env: Vec::new(),
    };
    Servers {
        prefix: "mcp",
        specs: [spec.clone(), spec.clone(), spec],
        call: (
            "mcp__a__echo",
            serde_json::json!({"text": "ping"}),
            "echo: ping",
        ),
        // Only each server's malformed tool and the one named as another is are refused.
        notices: |n| {
            n.len() == 6
                && n.iter()
                    .all(|n| n.contains("tool `bad`") || n.contains("tool `weird_name`"))
        },
        // 8 of each server's 10 tools, 3 servers.
        tools: 24,
        _dirs: Vec::new(),
    }
}

/// `smith mcp` twice and the Python SDK's server, when both are at hand.
fn named() -> Result<Option<Servers>, Box<dyn std::error::Error>> {
    let (Some(smith), Some(python)) = (
        std::env::var_os("SMITH_BENCH_SMITH"),
        std::env::var_os("SMITH_MCP_PYTHON"),
    ) else {
        return Ok(None);
    };
    let smith = smith.to_string_lossy().into_owned();
    let script = tempfile::tempdir()?;
    let sdk = script.path().join("sdk_server.py");
    std::fs::write(&sdk, SDK_SERVER)?;
    let (one, two) = (tempfile::tempdir()?, tempfile::tempdir()?);
    let smith_in = |home: &tempfile::TempDir| Spec {
        command: smith.clone(),
        args: vec!["mcp".into()],
        env: vec![("SMITH_HOME".into(), home.path().display().to_string())],
    };
    Ok(Some(Servers {
        prefix: "mcp_named",
        specs: [
            Spec {
                command: python.to_string_lossy().into_owned(),
                args: vec![sdk.display().to_string()],
                env: Vec::new(),
            },
            smith_in(&one),
            smith_in(&two),
        ],
        call: (
            "mcp__a__echo",
            serde_json::json!({"text": "ping"}),
            "echo: ping",
        ),
        notices: <[String]>::is_empty,
        // The SDK server's one tool and each Smith's (a dozen).
        tools: 3,
        _dirs: vec![script, one, two],
    }))
}

/// User state in memory, for the MCP client's servers and cache.
#[derive(Default)]
struct MemoryState(std::sync::Mutex<std::collections::HashMap<String, smith::StateValue>>);

impl smith::ScopedState for MemoryState {
    fn get(&self, key: &smith::StateKey) -> Result<Option<smith::StateValue>, smith::StateError> {
        Ok(self.0.lock().unwrap().get(&key.name).cloned())
    }

    fn set(
        &self,
        key: &smith::StateKey,
        value: Option<smith::StateValue>,
        _cause: Option<smith::EntryId>,
    ) -> Result<(), smith::StateError> {
        let mut map = self.0.lock().unwrap();
        match value {
            Some(v) => map.insert(key.name.clone(), v),
            None => map.remove(&key.name),
        };
        Ok(())
    }
}

/// A bare MCP client over one server's pipes.
struct Bare {
    child: std::process::Child,
    input: std::process::ChildStdin,
    output: std::io::BufReader<std::process::ChildStdout>,
}

impl Bare {
    fn spawn(spec: &Spec) -> std::io::Result<Self> {
        let mut child = std::process::Command::new(&spec.command)
            .args(&spec.args)
            .envs(spec.env.iter().cloned())
            .stdin(std::process::Stdio::piped())
            .stdout(std::process::Stdio::piped())
            .stderr(std::process::Stdio::null())
            .spawn()?;
        let input = child.stdin.take().unwrap();
        let output = std::io::BufReader::new(child.stdout.take().unwrap());
        Ok(Self {
            child,
            input,
            output,
        })
    }

    fn send(&mut self, message: &serde_json::Value) -> std::io::Result<()> {
        use std::io::Write as _;
        writeln!(self.input, "{message}")
    }

    /// Read lines until the answer to `id`.
    fn answer(&mut self, id: &str) -> std::io::Result<serde_json::Value> {
        use std::io::BufRead as _;
        loop {
            let mut line = String::new();
            if self.output.read_line(&mut line)? == 0 {
                return Err(std::io::Error::other("the server ended"));
            }
            if let Ok(v) = serde_json::from_str::<serde_json::Value>(&line)
                && v["id"] == id
            {
                return Ok(v);
            }
        }
    }

    fn request(
        &mut self,
        id: &str,
        method: &str,
        params: serde_json::Value,
    ) -> std::io::Result<()> {
        self.send(
            &serde_json::json!({"jsonrpc": "2.0", "id": id, "method": method, "params": params}),
        )
    }

    /// Greet it as the MCP client does.
    fn greet(&mut self) -> std::io::Result<()> {
        self.request("i", "initialize", serde_json::json!({"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "bare", "version": "1"}}))?;
        self.answer("i")?;
        self.send(&serde_json::json!({"jsonrpc": "2.0", "method": "notifications/initialized"}))
    }
}

impl Drop for Bare {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

/// The three servers started at once, greeted and listed by a bare client: their own time.
fn bare_listing(specs: &[Spec]) -> std::io::Result<f64> {
    let t = Instant::now();
    let mut servers = specs
        .iter()
        .map(Bare::spawn)
        .collect::<std::io::Result<Vec<_>>>()?;
    for s in &mut servers {
        s.greet()?;
        s.request("l", "tools/list", serde_json::json!({}))?;
    }
    for s in &mut servers {
        s.answer("l")?;
    }
    Ok(t.elapsed().as_secs_f64() * 1000.0)
}

/// Both sets of servers, each as [`measure`] says.
pub(crate) fn mcp_client(
    cache: &CompileCache,
    context: &ToolContext,
) -> Result<(), Box<dyn std::error::Error>> {
    measure(cache, context, &raw())?;
    match named()? {
        Some(servers) => measure(cache, context, &servers)?,
        None => eprintln!(
            "host_bench: SMITH_BENCH_SMITH or SMITH_MCP_PYTHON unset: the named servers (smith mcp, the Python SDK's) are not measured"
        ),
    }
    Ok(())
}

/// The bundled MCP client's `discover` with `servers` to list (a fresh loadout and session
/// each time) against [`bare_listing`], and a call against the bare round trip; medians of
/// 10 and 50.
fn measure(
    cache: &CompileCache,
    context: &ToolContext,
    servers: &Servers,
) -> Result<(), Box<dyn std::error::Error>> {
    let client = smith_plugins::BUNDLED
        .iter()
        .find(|p| p.manifest.contains("plugin \"mcp-client\""))
        .ok_or("the mcp-client plugin is not bundled")?;
    let sources = [PluginSource::new(
        client.origin,
        client.manifest,
        client.component,
    )];
    let entries: serde_json::Map<String, serde_json::Value> = ["a", "b", "c"]
        .iter()
        .zip(&servers.specs)
        .map(|(n, spec)| ((*n).to_owned(), spec.entry()))
        .collect();
    let loadout =
        |state: &Arc<MemoryState>| -> Result<smith_host::Loadout, Box<dyn std::error::Error>> {
            Ok(Host::load(&sources, cache, Limits::default())?
                .loadout()
                .with_policy(smith_host::Policy {
                    process: smith_host::ProcessPolicy::Allowed("the bench allows it".into()),
                    sandbox: smith_host::sandbox::Sandbox::full_access(),
                    state_files: smith_host::StateFiles(Some(
                        Arc::clone(state) as Arc<dyn smith::ScopedState>
                    )),
                    ..smith_host::Policy::default()
                }))
        };
    let fresh_state = || {
        let state = Arc::new(MemoryState::default());
        state.0.lock().unwrap().insert(
            "servers".to_owned(),
            smith::StateValue {
                version: 1,
                value: serde_json::Value::Object(entries.clone()),
            },
        );
        state
    };
    let (mut discovered, mut bare) = (Vec::new(), Vec::new());
    let mut tools = None;
    for _ in 0..10 {
        bare.push(bare_listing(&servers.specs)?);
        let state = fresh_state();
        let loadout = loadout(&state)?;
        let context = ToolContext {
            resident: Some(Arc::default()),
            ..context.clone()
        };
        let t = Instant::now();
        let notices = loadout.discover(&context, &Cancel::new());
        discovered.push(t.elapsed().as_secs_f64() * 1000.0);
        assert!((servers.notices)(&notices), "{notices:?}");
        let found = loadout
            .definitions()
            .iter()
            .filter(|d| d.name.starts_with("mcp__"))
            .count();
        assert!(found >= servers.tools, "{found} tools found");
        tools = Some((loadout, context));
    }
    let prefix = servers.prefix;
    let (bare_ms, discover_ms) = (median(bare), median(discovered));
    println!("{prefix}_bare_listing_ms {bare_ms:.3}");
    println!("{prefix}_discover_ms {discover_ms:.3}");
    println!(
        "{prefix}_discover_over_servers_ms {:.3}",
        discover_ms - bare_ms
    );

    let (loadout, context) = tools.ok_or("no loadout")?;
    let (tool, arguments, answer) = &servers.call;
    let call = ToolCall {
        id: "echo".into(),
        name: (*tool).into(),
        arguments: arguments.clone(),
    };
    let mut calls = Vec::new();
    for _ in 0..50 {
        let t = Instant::now();
        let out = loadout.call(&call, &context, &Cancel::new());
        calls.push(t.elapsed().as_secs_f64() * 1000.0);
        assert!(out.output.contains(answer), "{}", out.output);
    }
    let mut server = Bare::spawn(&servers.specs[0])?;
    server.greet()?;
    let mcp_name = tool.rsplit("__").next().unwrap_or_default();
    let mut direct = Vec::new();
    for _ in 0..50 {
        let t = Instant::now();
        server.request(
            "e",
            "tools/call",
            serde_json::json!({"name": mcp_name, "arguments": arguments}),
        )?;
        server.answer("e")?;
        direct.push(t.elapsed().as_secs_f64() * 1000.0);
    }
    let (call_ms, direct_ms) = (median(calls), median(direct));
    println!("{prefix}_call_ms {call_ms:.3}");
    println!("{prefix}_bare_call_ms {direct_ms:.3}");
    println!("{prefix}_call_over_server_ms {:.3}", call_ms - direct_ms);
    Ok(())
}
