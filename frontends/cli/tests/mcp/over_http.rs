//! Smith as a client of MCP servers over Streamable HTTP: the official Python SDK's
//! `MCPServer` on loopback (when `SMITH_MCP_PYTHON` names it), answering in an event stream
//! and in plain JSON — its tools found, called with progress and structured output, a slow
//! call cancelled, a session the server forgot greeted again — and entries and URLs that
//! cannot work.

use std::net::{TcpListener, TcpStream};
use std::process::{Child, Command, Stdio};

use crate::as_client::{Client, notices, tool_ends};
use crate::common::{records, stderr, stdout};

/// The SDK server: `weather` (progress, then a structured result) and `slow` (progress,
/// then a minute's wait), on the port and in the mode its arguments give.
const SERVER: &str = r#"
import sys
import anyio
from mcp.server.mcpserver import MCPServer, Context

server = MCPServer("sdk")

@server.tool()
async def weather(city: str, ctx: Context) -> dict:
    """The weather in a city."""
    await ctx.report_progress(1, 2, "looking")
    return {"city": city, "temperature": 21}

@server.tool()
async def slow(ctx: Context) -> str:
    """Takes a minute."""
    await ctx.report_progress(0, 1, "waiting")
    await anyio.sleep(60)
    return "late"

server.run(transport="streamable-http", host="127.0.0.1", port=int(sys.argv[1]),
           json_response=sys.argv[2] == "json")
"#;

/// One SDK server process on loopback, ended when dropped.
pub(crate) struct Served {
    child: Child,
    port: u16,
}

impl Served {
    /// Start the server (`mode`: `sse` or `json`) on `port` (0: a free one) and wait until it
    /// accepts connections.
    pub(crate) fn start(client: &Client, python: &std::ffi::OsStr, mode: &str, port: u16) -> Self {
        let script = client.env.write("http_server.py", SERVER);
        let port = if port == 0 {
            TcpListener::bind("127.0.0.1:0")
                .unwrap()
                .local_addr()
                .unwrap()
                .port()
        } else {
            port
        };
        let child = Command::new(python)
            .arg(&script)
            .arg(port.to_string())
            .arg(mode)
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .spawn()
            .unwrap();
        let mut served = Self { child, port };
        smith_testkit::wait_until("the SDK server listening", || {
            assert!(
                served.child.try_wait().unwrap().is_none(),
                "the SDK server exited"
            );
            TcpStream::connect(("127.0.0.1", port)).is_ok()
        });
        served
    }

    pub(crate) fn url(&self) -> String {
        format!("http://127.0.0.1:{}/mcp", self.port)
    }
}

impl Drop for Served {
    fn drop(&mut self) {
        let _ = self.child.kill();
        let _ = self.child.wait();
    }
}

pub(crate) fn python() -> Option<std::ffi::OsString> {
    let python = std::env::var_os("SMITH_MCP_PYTHON");
    if python.is_none() {
        assert!(
            std::env::var_os("CI").is_none(),
            "CI must install the MCP Python SDK (.ci/run)"
        );
    }
    python
}

/// `smith mcp add NAME --url URL FLAGS…`, which must succeed; what it printed.
fn add_url(client: &Client, name: &str, url: &str, flags: &[&str]) -> String {
    let mut args = vec!["mcp", "add", name, "--url", url];
    args.extend_from_slice(flags);
    let out = client.env.run(&args);
    assert!(out.status.success(), "{}", stderr(&out));
    stdout(&out)
}

/// The session's `net.fetch` effects: each intent's request body and headers, with its
/// completion's status (none when it has none).
fn requests(client: &Client, session: &str) -> Vec<(String, String, Option<u64>)> {
    let mut cmd = client.env.command(&["sessions", "export", session]);
    cmd.current_dir(&client.work);
    let export = stdout(&cmd.output().unwrap());
    let entries: Vec<serde_json::Value> = export
        .lines()
        .map(|l| serde_json::from_str(l).unwrap())
        .collect();
    let mut out = Vec::new();
    for entry in &entries {
        let record = &entry["record"];
        if entry["kind"] != "effect_intent" || record["effect"] != "net.fetch" {
            continue;
        }
        let status = entries
            .iter()
            .find(|e| e["kind"] == "effect_completion" && e["pair"] == entry["id"])
            .and_then(|e| e["record"]["evidence"]["status"].as_u64());
        out.push((
            record["input"]["body"]
                .as_str()
                .unwrap_or_default()
                .to_owned(),
            record["input"]["headers"].to_string(),
            status,
        ));
    }
    out
}

#[test]
fn the_python_sdk_server_over_streamable_http_answers_in_events_and_in_json() {
    let Some(python) = python() else { return };
    let client = Client::new();
    let sse = Served::start(&client, &python, "sse", 0);
    let json = Served::start(&client, &python, "json", 0);
    let said = add_url(&client, "events", &sse.url(), &[]);
    // Adding it grants the client that host, and no other.
    assert!(
        said.contains(&format!(
            "plugins.mcp-client.net.allow = \"127.0.0.1:{}\"",
            sse.port
        )),
        "{said}"
    );
    add_url(&client, "plain", &json.url(), &["--header", "X-Trace: on"]);
    let config = std::fs::read_to_string(client.env.home().join("config.kdl")).unwrap();
    assert!(
        config.contains(&format!("127.0.0.1:{},127.0.0.1:{}", sse.port, json.port)),
        "{config}"
    );

    let out = client.turn(&[
        ("mcp__events__weather", serde_json::json!({"city": "Oslo"})),
        ("mcp__plain__weather", serde_json::json!({"city": "Rome"})),
        (
            "mcp__events__weather",
            serde_json::json!({"city": "Bergen"}),
        ),
    ]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    assert!(notices(&out).is_empty(), "{:?}", notices(&out));
    let ends = tool_ends(&out);
    for (i, city) in ["Oslo", "Rome", "Bergen"].iter().enumerate() {
        assert_eq!(ends[i]["is_error"], false, "{ends:?}");
        let text = ends[i]["output"].as_str().unwrap();
        assert!(text.contains(city) && text.contains("21"), "{text}");
    }
    // Progress from the event stream is the call's progress.
    let looking = records(&out)
        .into_iter()
        .filter(|r| r["type"] == "tool_update" && r["call_id"] == "c0")
        .any(|r| r["text"].as_str().unwrap_or_default().contains("looking"));
    assert!(looking);
    let listed = client.mcp_list();
    assert!(
        listed
            .iter()
            .all(|s| s["state"] == "listed" && s["transport"] == "http"),
        "{listed:?}"
    );

    // Every message was a recorded request; the calls after the handshake carried the
    // session the server gave, and the user's header went to its own server only.
    let session = records(&out)[0]["session"].as_str().unwrap().to_owned();
    let sent = requests(&client, &session);
    let calls: Vec<_> = sent
        .iter()
        .filter(|(body, _, _)| body.contains("tools/call"))
        .collect();
    assert_eq!(calls.len(), 3, "{sent:?}");
    assert!(
        calls
            .iter()
            .all(|(_, headers, status)| headers.contains("mcp-session-id") && *status == Some(200)),
        "{calls:?}"
    );
    assert!(calls[1].1.contains("x-trace") && !calls[0].1.contains("x-trace"));
    // The third call reused the second's handshake: one `initialize` per server.
    let greetings = sent
        .iter()
        .filter(|(body, _, _)| body.contains("\"initialize\""))
        .count();
    assert_eq!(greetings, 2, "{sent:?}");
}

#[test]
fn a_session_the_server_forgot_is_greeted_again_and_a_cancelled_call_is_told() {
    use std::io::BufRead as _;
    let Some(python) = python() else { return };
    let client = Client::new();
    let first = Served::start(&client, &python, "sse", 0);
    let port = first.port;
    add_url(&client, "sdk", &first.url(), &[]);
    let out = client.turn(&[("mcp__sdk__weather", serde_json::json!({"city": "Oslo"}))]);
    assert_eq!(tool_ends(&out)[0]["is_error"], false, "{}", stdout(&out));
    let session = records(&out)[0]["session"].as_str().unwrap().to_owned();

    // A new server on the same port knows nothing of the session the first one gave.
    drop(first);
    let _second = Served::start(&client, &python, "sse", port);
    let again = client.script(
        "again.kdl",
        &[("mcp__sdk__weather", serde_json::json!({"city": "Rome"}))],
    );
    let mut cmd = client.eval(&again);
    cmd.args(["--session", &session]);
    let out = cmd.output().unwrap();
    let ends = tool_ends(&out);
    assert_eq!(ends[0]["is_error"], false, "{}", stdout(&out));
    assert!(ends[0]["output"].as_str().unwrap().contains("Rome"));
    let statuses: Vec<Option<u64>> = requests(&client, &session)
        .into_iter()
        .map(|(_, _, status)| status)
        .collect();
    assert!(
        statuses.windows(2).any(|w| w == [Some(404), Some(200)]),
        "the forgotten session was answered 404, then greeted again: {statuses:?}"
    );

    // A slow call, interrupted once the server said it is waiting.
    let slow = client.script("slow.kdl", &[("mcp__sdk__slow", serde_json::json!({}))]);
    let mut cmd = client.eval(&slow);
    cmd.stdout(Stdio::piped()).stderr(Stdio::piped());
    let mut child = cmd.spawn().unwrap();
    let mut lines = std::io::BufReader::new(child.stdout.take().unwrap()).lines();
    let mut session = String::new();
    for line in lines.by_ref() {
        let record: serde_json::Value = serde_json::from_str(&line.unwrap()).unwrap();
        if record["type"] == "run_start" {
            session = record["session"].as_str().unwrap().to_owned();
        }
        if record["type"] == "tool_update"
            && record["text"]
                .as_str()
                .is_some_and(|t| t.contains("waiting"))
        {
            break;
        }
    }
    nix::sys::signal::kill(
        nix::unistd::Pid::from_raw(i32::try_from(child.id()).unwrap()),
        nix::sys::signal::Signal::SIGINT,
    )
    .unwrap();
    let rest: Vec<serde_json::Value> = lines
        .map(|l| serde_json::from_str(&l.unwrap()).unwrap())
        .collect();
    child.wait().unwrap();
    let end = rest
        .iter()
        .find(|r| r["type"] == "tool_end")
        .expect("the call ended");
    assert_eq!(end["is_error"], true, "{end}");
    assert!(
        end["output"].as_str().unwrap().contains("cancelled"),
        "{end}"
    );
    // The cancel reached the server: a request after the call was cancelled, answered.
    let told = requests(&client, &session)
        .into_iter()
        .find(|(body, _, _)| body.contains("notifications/cancelled"))
        .expect("notifications/cancelled was sent");
    assert!(told.0.contains(r#""requestId":"c0""#), "{told:?}");
    assert_eq!(told.2, Some(202), "{told:?}");
}

#[test]
fn http_entries_that_cannot_work_are_refused_and_an_unreachable_server_is_named() {
    let client = Client::new();
    for (args, why) in [
        (
            &["mcp", "add", "x", "--url", "ftp://example.com/mcp"][..],
            "uses `ftp`; an MCP server's URL is http or https",
        ),
        (
            &["mcp", "add", "x", "--url", "http:///mcp"][..],
            "has no host",
        ),
        (
            &["mcp", "add", "x", "--url", "http://a/", "--", "prog"][..],
            "cannot be used with",
        ),
        (
            &["mcp", "add", "x", "--url", "http://a/", "--env", "A=b"][..],
            "cannot be used with",
        ),
        (
            &[
                "mcp",
                "add",
                "x",
                "--url",
                "http://a/",
                "--header",
                "Mcp-Session-Id: 1",
            ][..],
            "set by Smith itself",
        ),
        (
            &[
                "mcp",
                "add",
                "x",
                "--url",
                "http://a/",
                "--header",
                "nocolon",
            ][..],
            "not `NAME: VALUE`",
        ),
        (
            &["mcp", "add", "x", "--url", "http://a/", "--secret", "a b"][..],
            "the secret is named",
        ),
        (&["mcp", "add", "x"][..], "required arguments"),
        (
            &["mcp", "add", "x", "--url", "http://example.com./mcp"][..],
            "ending in a dot",
        ),
        (
            &["mcp", "add", "x", "--url", "http://a/", "--timeout", "3"][..],
            "cannot be used with",
        ),
        (
            &["mcp", "add", "x", "--url", "http://*:8080/mcp"][..],
            "a host is a name of letters",
        ),
        (
            &[
                "mcp",
                "add",
                "x",
                "--url",
                "http://a/",
                "--header",
                "TE: trailers",
            ][..],
            "header `TE` is set by Smith itself",
        ),
        (
            &[
                "mcp",
                "add",
                "x",
                "--url",
                "http://a/",
                "--header",
                "X-Key: v",
                "--secret",
                "K@x-key",
            ][..],
            "both set `x-key`",
        ),
        (
            &["mcp", "add", "x", "--", "https://example.com/mcp"][..],
            "is a URL; add an HTTP server with smith mcp add x --url URL",
        ),
        (
            &["mcp", "add", "x", "--secret", "T", "--", "prog"][..],
            "--secret goes with --url",
        ),
        (
            &["mcp", "add", "x", "--header", "A: b", "--", "prog"][..],
            "headers go with a url",
        ),
    ] {
        let out = client.env.run(args);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {}", stderr(&out));
        assert!(stderr(&out).contains(why), "{args:?}: {}", stderr(&out));
    }
    assert!(client.mcp_list().is_empty());

    let closed = TcpListener::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port();
    let url = format!("http://127.0.0.1:{closed}/mcp");
    // A secret that is not registered is refused before anything is written.
    let out = client.env.run(&[
        "mcp",
        "add",
        "dead",
        "--url",
        &url,
        "--secret",
        "DEAD_TOKEN",
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(
        stderr(&out).contains("no secret `DEAD_TOKEN` is registered")
            && stderr(&out).contains("smith secrets add DEAD_TOKEN"),
        "{}",
        stderr(&out)
    );
    assert!(client.mcp_list().is_empty());
    let registered = client
        .env
        .run_with_stdin(&["secrets", "add", "DEAD_TOKEN"], "t0ken-value\n");
    assert!(registered.status.success(), "{}", stderr(&registered));
    add_url(&client, "dead", &url, &["--secret", "DEAD_TOKEN"]);
    // Nothing listens on the port: the listing fails, named, and the turn goes on.
    let out = client.turn(&[]);
    assert_eq!(out.status.code(), Some(0), "{}", stderr(&out));
    let said = notices(&out).join("\n");
    assert!(
        said.contains("MCP server `dead` did not list its tools")
            && said.contains("unreachable")
            && said.contains(&url),
        "{said}"
    );
    let listed = client.mcp_list();
    assert_eq!(listed[0]["state"], "failed", "{listed:?}");
}

#[test]
fn servers_added_at_once_are_all_kept_with_their_hosts() {
    let client = Client::new();
    let adds: Vec<_> = (0..8)
        .map(|i| {
            client
                .env
                .command(&[
                    "mcp",
                    "add",
                    &format!("par{i}"),
                    "--url",
                    &format!("http://127.0.0.1:{}/mcp", 19300 + i),
                ])
                .stdout(Stdio::null())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    for add in adds {
        let out = add.wait_with_output().unwrap();
        assert!(out.status.success(), "{}", stderr(&out));
    }
    assert_eq!(client.mcp_list().len(), 8);
    let config = std::fs::read_to_string(client.env.home().join("config.kdl")).unwrap();
    for i in 0..8 {
        assert!(
            config.contains(&format!("127.0.0.1:{}", 19300 + i)),
            "{config}"
        );
    }
}
