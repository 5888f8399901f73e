//! Requests the server sends the client: a tool call's questions as form elicitations (ports
//! of the conformance scenarios `tools-call-elicitation` and `elicitation-sep1034-defaults`),
//! their refusal when the client cannot elicit, their withdrawal when the call ends first; and
//! the client's roots, which may move tools to a trusted project and are otherwise refused
//! with a log message.

use serde_json::{Value, json};
use smith_store::Record;

use crate::client::{Client, all_protocol};
use crate::common::Env;

const ASKING: &[&str] = &["--allow-process", "-c", "permissions.mode=ask"];

/// A server in `dir` after the handshake, the client declaring `capabilities`.
fn start(env: &Env, args: &[&str], dir: &std::path::Path, capabilities: Value) -> Client {
    let mut c = Client::start_subcommand(env, "mcp", args, dir);
    c.result(
        "initialize",
        json!({"protocolVersion": "2025-11-25", "capabilities": capabilities, "clientInfo": {"name": "t", "version": "1"}}),
    );
    c.send_raw(r#"{"jsonrpc":"2.0","method":"notifications/initialized"}"#);
    c
}

/// A server that asks before each program, with a client that answers form elicitations.
fn asking(env: &Env) -> Client {
    start(env, ASKING, env.root.path(), json!({"elicitation": {}}))
}

fn done(c: Client) -> Vec<Value> {
    let (status, lines, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
    all_protocol(&lines);
    lines
}

/// Answer the server's request `request` with `result`.
fn reply(c: &mut Client, request: &Value, result: Value) {
    c.send_raw(&json!({"jsonrpc": "2.0", "id": request["id"], "result": result}).to_string());
}

fn text(r: &Value) -> String {
    r["result"]["content"][0]["text"]
        .as_str()
        .unwrap_or_default()
        .to_owned()
}

/// The effect kinds of the server's session, in order.
fn effects(env: &Env) -> Vec<String> {
    let files = env.session_files();
    assert_eq!(files.len(), 1, "{files:?}");
    smith_store::read_session(&files[0])
        .unwrap()
        .entries
        .into_iter()
        .filter_map(|e| match e.record {
            Record::EffectIntent(i) => Some(i.effect),
            _ => None,
        })
        .collect()
}

/// Scenarios `tools-call-elicitation` and `elicitation-sep1034-defaults`: the question the
/// `ask` permission mode asks before a program becomes `elicitation/create` with a
/// one-property form (its choices as an `enum`, the first — Deny — its default); accepted
/// with "Allow once", the program runs; declined, it does not; an answer that does not fit, or
/// an error response, leaves it unanswered and the program unrun. Every question and answer is
/// recorded.
#[cfg(unix)]
#[test]
fn tools_call_elicitation_decides_whether_a_program_runs() {
    let env = Env::new();
    let mut c = asking(&env);
    let call = |c: &mut Client, file: &str| {
        c.request(
            "tools/call",
            json!({"name": "bash", "arguments": {"command": format!("echo made > {file}")}}),
        )
    };
    let id = call(&mut c, "yes.txt");
    let ask = c.until(|l| l["method"] == "elicitation/create");
    assert!(ask["id"].is_string(), "{ask}");
    let params = &ask["params"];
    assert!(
        params["message"]
            .as_str()
            .unwrap()
            .contains("echo made > yes.txt"),
        "{params}"
    );
    let schema = &params["requestedSchema"];
    assert_eq!(schema["type"], "object");
    assert_eq!(schema["required"], json!(["choice"]));
    assert_eq!(schema["properties"]["choice"]["type"], "string");
    assert_eq!(schema["properties"]["choice"]["enum"][0], "Deny");
    assert_eq!(schema["properties"]["choice"]["enum"][1], "Allow once");
    reply(
        &mut c,
        &ask,
        json!({"action": "accept", "content": {"choice": "Allow once"}}),
    );
    let r = c.response(id);
    assert_eq!(r["result"]["isError"], false, "{r}");
    assert!(env.root.path().join("yes.txt").exists());

    // Declined: a no.
    let id = call(&mut c, "declined.txt");
    let ask = c.until(|l| l["method"] == "elicitation/create");
    reply(&mut c, &ask, json!({"action": "decline"}));
    let r = c.response(id);
    assert!(text(&r).contains("declined"), "{r}");
    // An answer that does not fit the form.
    let id = call(&mut c, "unfit.txt");
    let ask = c.until(|l| l["method"] == "elicitation/create");
    reply(
        &mut c,
        &ask,
        json!({"action": "accept", "content": {"choice": "yes"}}),
    );
    let r = c.response(id);
    assert!(text(&r).contains("does not fit"), "{r}");
    // An error response.
    let id = call(&mut c, "failed.txt");
    let ask = c.until(|l| l["method"] == "elicitation/create");
    c.send_raw(
        &json!({"jsonrpc": "2.0", "id": ask["id"], "error": {"code": -1, "message": "no UI here"}})
            .to_string(),
    );
    let r = c.response(id);
    assert!(text(&r).contains("no UI here"), "{r}");
    // A malformed response still answers the question: unanswered, saying why.
    let id = call(&mut c, "malformed.txt");
    let ask = c.until(|l| l["method"] == "elicitation/create");
    c.send_raw(
        &json!({"id": ask["id"], "result": {"action": "accept", "content": {"choice": "Allow once"}}})
            .to_string(),
    );
    let r = c.response(id);
    assert!(text(&r).contains("invalid response"), "{r}");
    for unrun in ["declined.txt", "unfit.txt", "failed.txt", "malformed.txt"] {
        assert!(!env.root.path().join(unrun).exists(), "{unrun} was made");
    }
    done(c);
    let effects = effects(&env);
    assert_eq!(
        effects.iter().filter(|e| *e == "ask.select").count(),
        5,
        "{effects:?}"
    );
    // Each program is recorded before its question; only the allowed one ran (above).
    assert_eq!(
        effects.iter().filter(|e| *e == "process.run").count(),
        5,
        "{effects:?}"
    );
}

/// A client that declared no elicitation capability is never asked: the question is refused
/// (logged as a warning) and the program does not run.
#[cfg(unix)]
#[test]
fn without_the_capability_a_question_is_refused_and_logged() {
    let env = Env::new();
    let mut c = start(&env, ASKING, env.root.path(), json!({}));
    let r = c.call(
        "tools/call",
        json!({"name": "bash", "arguments": {"command": "echo made > made.txt"}}),
    );
    assert!(text(&r).contains("does not answer questions"), "{r}");
    let warned =
        c.seen(|l| l["method"] == "notifications/message" && l["params"]["level"] == "warning");
    assert!(
        warned["params"]["data"]
            .as_str()
            .unwrap()
            .contains("refused"),
        "{warned}"
    );
    let lines = done(c);
    assert!(!lines.iter().any(|l| l["method"] == "elicitation/create"));
    assert!(!env.root.path().join("made.txt").exists());
}

/// A call cancelled while its question waits: the elicitation is withdrawn with
/// `notifications/cancelled`, the program does not run, and a late answer is dropped.
#[cfg(unix)]
#[test]
fn a_cancelled_call_withdraws_its_elicitation() {
    let env = Env::new();
    let mut c = asking(&env);
    let id = c.request(
        "tools/call",
        json!({"name": "bash", "arguments": {"command": "echo made > made.txt"}}),
    );
    let ask = c.until(|l| l["method"] == "elicitation/create");
    c.send_raw(
        &json!({"jsonrpc": "2.0", "method": "notifications/cancelled", "params": {"requestId": id}})
            .to_string(),
    );
    let withdrawn = c.seen(|l| {
        l["method"] == "notifications/cancelled" && l["params"]["requestId"] == ask["id"]
    });
    assert!(withdrawn["params"]["reason"].is_string());
    reply(
        &mut c,
        &ask,
        json!({"action": "accept", "content": {"choice": "Allow once"}}),
    );
    assert_eq!(c.result("ping", json!({})), json!({}));
    done(c);
    assert!(!env.root.path().join("made.txt").exists());
}

/// A `smith_run` turn's question (its bash call in the `ask` mode) is an elicitation
/// too; accepted, the turn runs the program and finishes.
#[cfg(unix)]
#[test]
fn a_turn_asks_through_elicitation() {
    let env = Env::new();
    let script = env.write(
        "make.kdl",
        "round {\n  tool-call id=\"call_1\" name=\"bash\" arguments=#\"{\"command\": \"echo made > made.txt\"}\"#\n  stop \"tool_use\"\n}\nround {\n  text \"finished\"\n  stop \"end_turn\"\n}\n",
    );
    let script = script.to_str().unwrap().to_owned();
    let mut args = ASKING.to_vec();
    args.extend(["-m", "scripted/make", "--script", &script]);
    let mut c = start(&env, &args, env.root.path(), json!({"elicitation": {}}));
    let id = c.request(
        "tools/call",
        json!({"name": "smith_run", "arguments": {"prompt": "make it"}}),
    );
    let ask = c.until(|l| l["method"] == "elicitation/create");
    assert!(
        ask["params"]["message"]
            .as_str()
            .unwrap()
            .contains("made.txt")
    );
    // While the turn waits for the answer, the server answers everything else.
    let own = c.result("resources/read", json!({"uri": "smith://server/session"}));
    assert!(
        own["contents"][0]["text"]
            .as_str()
            .unwrap()
            .contains("session")
    );
    assert_eq!(c.result("ping", json!({})), json!({}));
    reply(
        &mut c,
        &ask,
        json!({"action": "accept", "content": {"choice": "Allow once"}}),
    );
    let r = c.response(id);
    assert_eq!(r["result"]["isError"], false, "{r}");
    assert_eq!(text(&r), "finished");
    done(c);
    assert_eq!(
        std::fs::read_to_string(env.root.path().join("made.txt")).unwrap(),
        "made\n"
    );
}

fn file_uri(p: &std::path::Path) -> String {
    format!("file://{}", p.display())
}

/// Wait for the server's `roots/list` and answer it with `roots`.
fn give_roots(c: &mut Client, roots: Value) {
    let asked = c.until(|l| l["method"] == "roots/list");
    reply(c, &asked, json!({ "roots": roots }));
}

/// What `ls .` lists in the directory tools run in.
fn listed(c: &mut Client) -> String {
    let r = c.call(
        "tools/call",
        json!({"name": "ls", "arguments": {"path": "."}}),
    );
    text(&r)
}

/// The client's roots: the server asks for them after `initialized`; an untrusted root is
/// refused with a warning; the first trusted one becomes the directory tools run in.
#[test]
fn a_trusted_root_moves_the_tools_and_an_untrusted_one_is_refused() {
    let env = Env::new();
    let root = env.root.path().canonicalize().unwrap();
    let (work, other, project) = (root.join("work"), root.join("other"), root.join("project"));
    for d in [&work, &other, &project] {
        std::fs::create_dir(d).unwrap();
    }
    std::fs::write(project.join("in-project.txt"), "p\n").unwrap();
    let trusted = env.run(&["trust", project.to_str().unwrap()]);
    assert!(trusted.status.success(), "{trusted:?}");
    let mut c = start(&env, &[], &work, json!({"roots": {"listChanged": true}}));
    give_roots(
        &mut c,
        json!([
            {"uri": file_uri(&other), "name": "other"},
            {"uri": file_uri(&project), "name": "project"},
        ]),
    );
    let refused = c.seen(|l| {
        l["method"] == "notifications/message"
            && l["params"]["level"] == "warning"
            && l["params"]["data"]
                .as_str()
                .is_some_and(|d| d.contains("other"))
    });
    assert!(
        refused["params"]["data"]
            .as_str()
            .unwrap()
            .contains("not a trusted project"),
        "{refused}"
    );
    c.seen(|l| {
        l["method"] == "notifications/message"
            && l["params"]["data"]
                .as_str()
                .is_some_and(|d| d.contains("tools now run in"))
    });
    let here = listed(&mut c);
    assert!(here.contains("in-project.txt"), "{here}");

    // The move changed the tool list (bash comes with the project's trust): the client is told.
    c.seen(|l| l["method"] == "notifications/tools/list_changed");

    // Only untrusted roots, after a change: refused, and the tools go back to the server's
    // working directory — never left in a root the client no longer lists.
    std::fs::write(work.join("in-work.txt"), "w\n").unwrap();
    c.send_raw(r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#);
    give_roots(&mut c, json!([{"uri": file_uri(&other)}]));
    let here = listed(&mut c);
    assert!(here.contains("in-work.txt"), "{here}");
    // Back to the project, then roots around the working directory: back there too.
    c.send_raw(r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#);
    give_roots(&mut c, json!([{"uri": file_uri(&project)}]));
    assert!(listed(&mut c).contains("in-project.txt"));
    c.send_raw(r#"{"jsonrpc":"2.0","method":"notifications/roots/list_changed"}"#);
    give_roots(
        &mut c,
        json!([{"uri": file_uri(&root)}, {"uri": "https://example.com/x"}, {"uri": "file://host/x"}]),
    );
    assert!(listed(&mut c).contains("in-work.txt"));
    for bad in ["https://example.com/x", "file://host/x"] {
        c.seen(|l| {
            l["params"]["level"] == "warning"
                && l["params"]["data"]
                    .as_str()
                    .is_some_and(|d| d.contains(bad))
        });
    }
    done(c);
}

/// Roots that contain the working directory change nothing; a client without the `roots`
/// capability is never asked.
#[test]
fn roots_around_the_working_directory_keep_it() {
    let env = Env::new();
    std::fs::write(env.root.path().join("here.txt"), "h\n").unwrap();
    let mut c = start(&env, &[], env.root.path(), json!({"roots": {}}));
    let parent = env.root.path().parent().unwrap().to_owned();
    give_roots(&mut c, json!([{"uri": file_uri(&parent)}]));
    let here = listed(&mut c);
    assert!(here.contains("here.txt"), "{here}");
    let lines = done(c);
    assert!(
        !lines.iter().any(|l| l["params"]["level"] == "warning"),
        "{lines:#?}"
    );

    let mut c = start(&env, &[], env.root.path(), json!({}));
    assert_eq!(c.result("ping", json!({})), json!({}));
    let lines = done(c);
    assert!(!lines.iter().any(|l| l["method"] == "roots/list"));
}

/// The client goes away (end of input) while a question waits: the call ends unanswered, the
/// program never runs, the server exits 0, and the question is in the session.
#[cfg(unix)]
#[test]
fn end_of_input_while_a_question_waits() {
    let env = Env::new();
    let mut c = asking(&env);
    c.request(
        "tools/call",
        json!({"name": "bash", "arguments": {"command": "echo made > made.txt"}}),
    );
    c.until(|l| l["method"] == "elicitation/create");
    done(c);
    assert!(!env.root.path().join("made.txt").exists());
    let effects = effects(&env);
    assert_eq!(effects, ["process.run", "ask.select"], "{effects:?}");
}
