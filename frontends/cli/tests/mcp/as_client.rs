//! Smith as an MCP client: servers added with `smith mcp add`, their tools found by the
//! bundled `mcp-client` plugin before a turn's first request and called through programs kept
//! across calls — with real servers: another Smith (`smith mcp`), the official Python SDK's
//! `MCPServer` (when `SMITH_MCP_PYTHON` names it), and a raw server (`fake_server.py`) that
//! misbehaves on purpose.

use std::path::PathBuf;
use std::process::Output;

use crate::common::{Env, records, stderr, stdout};

const FAKE: &str = concat!(env!("CARGO_MANIFEST_DIR"), "/tests/mcp/fake_server.py");

pub(crate) struct Client {
    pub(crate) env: Env,
    pub(crate) work: PathBuf,
}

impl Client {
    pub(crate) fn new() -> Self {
        let env = Env::new();
        let work = env.root.path().canonicalize().unwrap().join("work");
        std::fs::create_dir(&work).unwrap();
        Self { env, work }
    }

    /// `smith mcp add NAME FLAGS… -- COMMAND…`, which must succeed.
    pub(crate) fn add(&self, name: &str, flags: &[&str], command: &[&str]) {
        let mut args = vec!["mcp", "add", name];
        args.extend_from_slice(flags);
        args.push("--");
        args.extend_from_slice(command);
        let out = self.env.run(&args);
        assert!(out.status.success(), "{}", stderr(&out));
    }

    /// One scripted turn in the work directory (programs allowed): each call in a round of
    /// its own, then a last answer; `eval --json`.
    pub(crate) fn turn(&self, calls: &[(&str, serde_json::Value)]) -> Output {
        let script = self.script("turn.kdl", calls);
        self.eval(&script).output().unwrap()
    }

    /// A script file `name`: each call in a round of its own (ids `c0`, `c1`…), then a last
    /// answer.
    pub(crate) fn script(&self, name: &str, calls: &[(&str, serde_json::Value)]) -> PathBuf {
        let mut script = String::new();
        for (i, (tool, arguments)) in calls.iter().enumerate() {
            script.push_str(&format!(
                "round {{\n  tool-call id=\"c{i}\" name=\"{tool}\" arguments=#\"{arguments}\"#\n  stop \"tool_use\"\n}}\n"
            ));
        }
        script.push_str("round {\n  text \"done\"\n  stop \"end_turn\"\n}\n");
        self.env.write(name, &script)
    }

    /// `smith eval --json` of `script` in the work directory, programs allowed.
    pub(crate) fn eval(&self, script: &std::path::Path) -> std::process::Command {
        let mut cmd = self.env.command(&[
            "eval",
            "-m",
            "scripted/t",
            "--script",
            script.to_str().unwrap(),
            "--allow-process",
            "--json",
            "go",
        ]);
        cmd.current_dir(&self.work);
        cmd
    }

    pub(crate) fn mcp_list(&self) -> Vec<serde_json::Value> {
        let out = self.env.run(&["mcp", "list", "--json"]);
        assert!(out.status.success(), "{}", stderr(&out));
        records(&out)
    }

    /// The last session's entries, as `smith sessions get` prints them.
    pub(crate) fn entries(&self) -> String {
        let mut cmd = self.env.command(&["sessions", "get", "last"]);
        cmd.current_dir(&self.work);
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
        stdout(&out)
    }
}

pub(crate) fn tool_ends(out: &Output) -> Vec<serde_json::Value> {
    records(out)
        .into_iter()
        .filter(|r| r["type"] == "tool_end")
        .collect()
}

pub(crate) fn notices(out: &Output) -> Vec<String> {
    records(out)
        .into_iter()
        .filter(|r| r["type"] == "notice")
        .map(|r| r["text"].as_str().unwrap_or_default().to_owned())
        .collect()
}

#[cfg(unix)]
#[test]
fn another_smith_serves_its_tools_and_a_later_process_offers_them_from_the_cache() {
    let client = Client::new();
    std::fs::write(client.work.join("notes.txt"), "hello through two Smiths\n").unwrap();
    let inner_home = client.work.join(".inner");
    let flags = [
        "--env".to_owned(),
        format!("SMITH_HOME={}", inner_home.display()),
        "--env".to_owned(),
        "SERVER_TOKEN=sekrit-value-1234".to_owned(),
    ];
    let flags: Vec<&str> = flags.iter().map(String::as_str).collect();
    client.add("smith", &flags, &[env!("CARGO_BIN_EXE_smith"), "mcp"]);
    let read = ("mcp__smith__read", serde_json::json!({"path": "notes.txt"}));
    let out = client.turn(std::slice::from_ref(&read));
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let ends = tool_ends(&out);
    assert_eq!(ends[0]["is_error"], false, "{ends:?}");
    assert!(
        ends[0]["output"]
            .as_str()
            .unwrap()
            .contains("hello through two Smiths"),
        "{ends:?}"
    );
    // The server's start and each exchange are the session's effects.
    let first = client.entries();
    assert!(
        first.contains("discover/1 process.start") && first.contains("process.send mcp-smith"),
        "{first}"
    );
    let listed = client.mcp_list();
    assert_eq!(listed[0]["state"], "listed", "{listed:?}");
    assert!(
        listed[0]["tools"]
            .as_array()
            .unwrap()
            .iter()
            .any(|t| t == "mcp__smith__read"),
        "{listed:?}"
    );
    // A later process offers the cached tools: nothing is started before the call needs it.
    let out = client.turn(&[read]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(tool_ends(&out)[0]["is_error"], false);
    let second = client.entries();
    assert!(!second.contains("discover/"), "{second}");
    assert!(second.contains("c0/1 process.start"), "{second}");
    // A variable's value never reaches the session: its name and length do.
    let mut export = client.env.command(&["sessions", "export", "last"]);
    export.current_dir(&client.work);
    let export = stdout(&export.output().unwrap());
    assert!(
        export.contains("SERVER_TOKEN") && !export.contains("sekrit-value-1234"),
        "{export}"
    );
    // Removed and added again as it was, it is listed afresh.
    let out = client.env.run(&["mcp", "remove", "smith"]);
    assert!(out.status.success(), "{}", stderr(&out));
    assert!(client.mcp_list().is_empty());
    client.add("smith", &flags, &[env!("CARGO_BIN_EXE_smith"), "mcp"]);
    let out = client.turn(&[("mcp__smith__read", serde_json::json!({"path": "notes.txt"}))]);
    assert_eq!(tool_ends(&out)[0]["is_error"], false, "{}", stdout(&out));
    assert!(client.entries().contains("discover/1 process.start"));
}

#[cfg(unix)]
#[test]
fn entries_that_cannot_work_are_refused_when_added() {
    let client = Client::new();
    client.add("fs", &[], &["true"]);
    for (args, says) in [
        (
            &["mcp", "add", "x", "--timeout", "0", "--", "true"][..],
            "from 1 to 600 seconds",
        ),
        (
            &["mcp", "add", "x", "--call-timeout", "7200", "--", "true"],
            "from 1 to 3600 seconds",
        ),
        (
            &["mcp", "add", "x", "--env", "A B=1", "--", "true"],
            "`A B` cannot name an environment variable",
        ),
        (
            &[
                "mcp", "add", "x", "--env", "A=1", "--env", "A=2", "--", "true",
            ],
            "`A` is given twice",
        ),
        (
            &["mcp", "add", "x", "--env", "NOVALUE", "--", "true"],
            "is not KEY=VALUE",
        ),
        (
            &["mcp", "add", "FS", "--", "true"],
            "named `fs` is already added",
        ),
        (
            &["mcp", "add", "serve", "--", "true"],
            "cannot name an MCP server",
        ),
        (
            &["mcp", "add", "a_b", "--", "true"],
            "cannot name an MCP server",
        ),
        (
            &["mcp", "remove", "nothing"],
            "no MCP server is named `nothing`",
        ),
    ] {
        let out = client.env.run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}");
        assert!(stderr(&out).contains(says), "{args:?}: {}", stderr(&out));
    }
    assert_eq!(client.mcp_list().len(), 1);
}

#[cfg(unix)]
#[test]
fn a_raw_server_is_read_through_its_garbage_and_crash_and_started_again() {
    let client = Client::new();
    client.add("fake", &[], &["python3", FAKE, "ok"]);
    let out = client.turn(&[
        ("mcp__fake__echo", serde_json::json!({"text": "hi"})),
        ("mcp__fake__crash", serde_json::json!({})),
        ("mcp__fake__echo", serde_json::json!({"text": "again"})),
        ("mcp__fake__weird_name", serde_json::json!({})),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let said = notices(&out);
    assert!(
        said.iter()
            .any(|n| n.contains("`fake`") && n.contains("tool `bad` was skipped")),
        "{said:?}"
    );
    // Two tools written the same way: the first keeps the name, the other is skipped.
    assert!(
        said.iter()
            .any(|n| n.contains("tool `weird_name` was skipped")
                && n.contains("`weird.name` already has")),
        "{said:?}"
    );
    let ends = tool_ends(&out);
    assert_eq!(ends[0]["output"], "echo: hi", "{ends:?}");
    let crash = ends[1]["output"].as_str().unwrap();
    assert_eq!(ends[1]["is_error"], true);
    assert!(
        crash.contains("exited with status 3") && crash.contains("dying on purpose"),
        "{crash}"
    );
    // The next call starts it again.
    assert_eq!(ends[2]["output"], "echo: again", "{ends:?}");
    assert_eq!(ends[3]["output"], "called weird.name", "{ends:?}");
    let updates: Vec<_> = records(&out)
        .into_iter()
        .filter(|r| r["type"] == "tool_update")
        .collect();
    assert!(
        updates.iter().any(|u| u["text"] == "1/2 halfway"),
        "{updates:?}"
    );
}

#[cfg(unix)]
#[test]
fn a_server_that_never_answers_is_named_and_blocks_neither_the_others_nor_the_turn() {
    let client = Client::new();
    client.add("quiet", &["--timeout", "1"], &["python3", FAKE, "silent"]);
    client.add("noise", &["--timeout", "1"], &["python3", FAKE, "garbage"]);
    client.add("fake", &[], &["python3", FAKE, "ok"]);
    let out = client.turn(&[("mcp__fake__echo", serde_json::json!({"text": "still"}))]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert_eq!(tool_ends(&out)[0]["output"], "echo: still");
    let said = notices(&out);
    assert!(
        said.iter()
            .any(|n| n.contains("`quiet`") && n.contains("no answer to `initialize` within 1 s")),
        "{said:?}"
    );
    assert!(
        said.iter()
            .any(|n| n.contains("`noise`") && n.contains("not JSON-RPC messages")),
        "{said:?}"
    );
    let listed = client.mcp_list();
    let state = |name: &str| {
        listed
            .iter()
            .find(|r| r["name"] == name)
            .map(|r| r["state"].as_str().unwrap().to_owned())
    };
    assert_eq!(state("quiet").as_deref(), Some("failed"));
    assert_eq!(state("noise").as_deref(), Some("failed"));
    assert_eq!(state("fake").as_deref(), Some("listed"));
}

#[cfg(unix)]
#[test]
fn the_python_sdk_server_answers_with_structured_content_and_progress() {
    let Some(python) = std::env::var_os("SMITH_MCP_PYTHON") else {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install the MCP Python SDK (.ci/run)"
        );
        return;
    };
    let client = Client::new();
    let server = client.env.write(
        "sdk_server.py",
        r#"
from mcp.server.mcpserver import MCPServer, Context

server = MCPServer("sdk")

@server.tool()
async def weather(city: str, ctx: Context) -> dict:
    """The weather in a city."""
    await ctx.report_progress(1, 2, "looking")
    return {"city": city, "temperature": 21}

server.run()
"#,
    );
    client.add(
        "sdk",
        &[],
        &[python.to_str().unwrap(), server.to_str().unwrap()],
    );
    let out = client.turn(&[("mcp__sdk__weather", serde_json::json!({"city": "Oslo"}))]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let ends = tool_ends(&out);
    assert_eq!(ends[0]["is_error"], false, "{ends:?}");
    let text = ends[0]["output"].as_str().unwrap();
    assert!(text.contains("Oslo") && text.contains("21"), "{text}");
    let updates: Vec<_> = records(&out)
        .into_iter()
        .filter(|r| r["type"] == "tool_update")
        .collect();
    assert!(
        updates
            .iter()
            .any(|u| u["text"].as_str().unwrap_or_default().contains("looking")),
        "{updates:?}"
    );
}

#[cfg(unix)]
#[test]
fn aborting_a_call_tells_the_server_it_is_cancelled() {
    // (What the server does with it is its own affair: the session ends right after.)
    use std::io::BufRead as _;
    let client = Client::new();
    client.add("fake", &[], &["python3", FAKE, "ok"]);
    let script = client.env.write(
        "hang.kdl",
        "round {\n  tool-call id=\"c0\" name=\"mcp__fake__hang\" arguments=#\"{}\"#\n  stop \"tool_use\"\n}\nround {\n  text \"done\"\n  stop \"end_turn\"\n}\n",
    );
    let mut cmd = client.eval(&script);
    cmd.stdout(std::process::Stdio::piped())
        .stderr(std::process::Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    // Interrupted once the server said it is waiting: the call is running.
    for line in lines.by_ref() {
        let record: serde_json::Value = serde_json::from_str(&line.unwrap()).unwrap();
        if record["type"] == "tool_update" && record["text"] == "0 waiting" {
            break;
        }
    }
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap()),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let rest: Vec<String> = lines.map(Result::unwrap).collect();
    child.wait().unwrap();
    let end = rest
        .iter()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .find(|r| r["type"] == "tool_end")
        .expect("the call ended");
    assert_eq!(end["is_error"], true, "{end}");
    // The cancel was sent to the server, as a recorded exchange of the call.
    let mut cmd = client.env.command(&["sessions", "export", "last"]);
    cmd.current_dir(&client.work);
    let export = stdout(&cmd.output().unwrap());
    let sent = export
        .lines()
        .map(|l| serde_json::from_str::<serde_json::Value>(l).unwrap())
        .filter(|r| r.to_string().contains("process.send"))
        .map(|r| r.to_string())
        .find(|r| r.contains("notifications/cancelled"));
    let sent = sent.expect("a process.send effect carried notifications/cancelled");
    assert!(sent.contains(r#"\"requestId\":\"c0\""#), "{sent}");
}

#[cfg(unix)]
#[test]
fn a_huge_odd_or_silent_answer_ends_its_call_not_the_plugin() {
    let client = Client::new();
    client.add("fake", &["--call-timeout", "1"], &["python3", FAKE, "ok"]);
    let out = client.turn(&[
        ("mcp__fake__huge", serde_json::json!({})),
        ("mcp__fake__surrogate", serde_json::json!({})),
        ("mcp__fake__hang", serde_json::json!({})),
        ("mcp__fake__echo", serde_json::json!({"text": "alive"})),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let ends = tool_ends(&out);
    let text = |i: usize| ends[i]["output"].as_str().unwrap().to_owned();
    assert_eq!(ends[0]["is_error"], true);
    assert!(text(0).contains("is over 8 MiB"), "{}", text(0));
    assert_eq!(text(1), "half \u{fffd} pair");
    assert_eq!(ends[2]["is_error"], true);
    assert!(
        text(2).contains("no answer to `tools/call` within 1 s"),
        "{}",
        text(2)
    );
    assert_eq!(text(3), "echo: alive");
}

#[cfg(unix)]
#[test]
fn the_typescript_sdk_example_server_answers_with_structured_content() {
    let Some(node) = crate::sdk::node_clients() else {
        return;
    };
    let example = node.join(
        "node_modules/@modelcontextprotocol/sdk/dist/esm/examples/server/mcpServerOutputSchema.js",
    );
    let client = Client::new();
    client.add("ts", &[], &["node", example.to_str().unwrap()]);
    let out = client.turn(&[(
        "mcp__ts__get_weather",
        serde_json::json!({"city": "Oslo", "country": "NO"}),
    )]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let ends = tool_ends(&out);
    assert_eq!(ends[0]["is_error"], false, "{ends:?}");
    // Its answer is the structured weather record, as text.
    let text = ends[0]["output"].as_str().unwrap();
    let weather: serde_json::Value = serde_json::from_str(text).unwrap();
    assert!(weather["temperature"]["celsius"].is_number(), "{text}");
    // What `smith tools list` shows includes the server's tools, from the cache.
    let mut list = client
        .env
        .command(&["tools", "list", "--json", "--allow-process"]);
    list.current_dir(&client.work);
    let tools = records(&list.output().unwrap());
    assert!(
        tools
            .iter()
            .any(|t| t["name"] == "mcp__ts__get_weather" && t["plugin"] == "mcp-client"),
        "{tools:?}"
    );
}

#[cfg(unix)]
#[test]
fn a_server_that_says_its_tools_changed_and_one_added_meanwhile_are_listed_at_the_next_turn() {
    use serde_json::json;
    let client = Client::new();
    client.add("fake", &[], &["python3", FAKE, "ok"]);
    // One Smith process, two turns.
    let mut rpc = crate::client::Client::start_in(&client.env, &["--allow-process"], &client.work);
    let session = rpc.create();
    let mut turn = |name: &str, calls: &[(&str, serde_json::Value)]| {
        let script = client.script(name, calls);
        let id = rpc.request(
            "session.submit",
            json!({"session": session, "input": "go", "model": "scripted/t", "script": script}),
        );
        let submission = rpc.response(id)["result"]["submission"].as_u64().unwrap();
        rpc.result(
            "session.wait",
            json!({"session": session, "submission": submission}),
        );
    };
    // The server says its tools changed (`grow` lists `grown` from then on)…
    turn("grow.kdl", &[("mcp__fake__grow", json!({}))]);
    // …and another server is added from another terminal while the process runs.
    client.add("other", &[], &["python3", FAKE, "ok"]);
    turn(
        "grown.kdl",
        &[
            ("mcp__fake__grown", json!({})),
            ("mcp__other__echo", json!({"text": "hi"})),
        ],
    );
    let entries =
        smith_store::read_session(&client.env.sessions().join(format!("{session}.smith")))
            .unwrap()
            .entries;
    let results: Vec<(String, String, bool)> = entries
        .iter()
        .filter_map(|e| match &e.record {
            smith_store::Record::ToolResult(r) => Some((
                r.result.name.clone(),
                r.result.output.clone(),
                r.result.is_error,
            )),
            _ => None,
        })
        .collect();
    assert_eq!(
        results,
        [
            ("mcp__fake__grow".to_owned(), "grew".to_owned(), false),
            (
                "mcp__fake__grown".to_owned(),
                "called grown".to_owned(),
                false
            ),
            ("mcp__other__echo".to_owned(), "echo: hi".to_owned(), false),
        ]
    );
    let listed = client.mcp_list();
    assert_eq!(listed.len(), 2);
    assert!(listed.iter().all(|s| s["state"] == "listed"), "{listed:?}");
}

#[cfg(unix)]
#[test]
fn a_server_given_a_writable_root_writes_there_and_others_stay_in_the_sandbox() {
    let client = Client::new();
    let outside = client.env.root.path().canonicalize().unwrap().join("cache");
    std::fs::create_dir(&outside).unwrap();
    let outside_text = outside.to_str().unwrap();
    client.add("plain", &[], &["python3", FAKE, "ok"]);
    client.add(
        "wide",
        &["--writable-root", outside_text],
        &["python3", FAKE, "ok"],
    );
    let listed = client.mcp_list();
    assert_eq!(listed[1]["name"], "wide");
    assert_eq!(
        listed[1]["writable_roots"],
        serde_json::json!([outside_text])
    );
    assert_eq!(listed[0]["writable_roots"], serde_json::json!([]));
    let target = |name: &str| serde_json::json!({"path": outside.join(name)});
    let out = client.turn(&[
        ("mcp__plain__write", target("plain.txt")),
        ("mcp__wide__write", target("wide.txt")),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let ends = tool_ends(&out);
    let said = |i: usize| ends[i]["output"].as_str().unwrap().to_owned();
    assert!(said(0).starts_with("failed:"), "{}", said(0));
    assert_eq!(said(1), "wrote");
    assert!(outside.join("wide.txt").exists() && !outside.join("plain.txt").exists());
    // The widened sandbox is what the session recorded when the server started.
    let mut export = client.env.command(&["sessions", "export", "last"]);
    export.current_dir(&client.work);
    let export = stdout(&export.output().unwrap());
    assert!(
        export.contains(&format!(
            "(widened by plugins.mcp-client.programs.mcp-wide: writable {outside_text})"
        )),
        "{export}"
    );
    // Removed and added again, it starts in the sandbox like any other.
    let out = client.env.run(&["mcp", "remove", "wide"]);
    assert!(out.status.success(), "{}", stderr(&out));
    client.add("wide", &[], &["python3", FAKE, "ok"]);
    assert_eq!(
        client.mcp_list()[1]["writable_roots"],
        serde_json::json!([])
    );
    // The network, likewise, only for the server given it.
    client.add("net", &["--network"], &["python3", FAKE, "ok"]);
    let net = client.env.run(&["mcp", "get", "net"]);
    assert!(
        stdout(&net).contains("sandbox widened: network allowed"),
        "{}",
        stdout(&net)
    );
    let out = client.env.run(&[
        "mcp",
        "add",
        "bad",
        "--writable-root",
        "/no/such/dir",
        "--",
        "python3",
        FAKE,
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("`/no/such/dir` is not an existing directory"),
        "{}",
        stderr(&out)
    );
}

#[cfg(unix)]
#[test]
fn a_session_that_may_not_start_a_server_says_so_and_leaves_it_unlisted() {
    let client = Client::new();
    client.add("fake", &[], &["python3", FAKE, "ok"]);
    let script = client.script("none.kdl", &[]);
    // An untrusted directory, no --allow-process, and nobody to ask.
    let out = client
        .env
        .command(&[
            "eval",
            "-m",
            "scripted/t",
            "--script",
            script.to_str().unwrap(),
            "--json",
            "go",
        ])
        .current_dir(&client.work)
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let said = notices(&out).join("\n");
    assert!(
        said.contains("MCP server `fake` was not listed: this session may not reach it"),
        "{said}"
    );
    // Not the server's fault: it is listed at a turn where it may run.
    assert_eq!(client.mcp_list()[0]["state"], "unlisted");
    let out = client.turn(&[("mcp__fake__echo", serde_json::json!({"text": "now"}))]);
    assert_eq!(
        tool_ends(&out)[0]["output"],
        "echo: now",
        "{}",
        stdout(&out)
    );
}
