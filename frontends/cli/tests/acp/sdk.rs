//! The official Rust SDK's client side (`agent-client-protocol`, the crate editors' Rust
//! clients use) against the built `smith acp`: initialize → new → set mode → prompts on a
//! scripted tool-using model (a permission allowed, then denied) → a prompt cancelled
//! mid-stream → the session loaded in a second process, its history streamed back.

use std::io::{BufRead, BufReader, Write};
use std::path::Path;
use std::process::{Child, Stdio};
use std::sync::{Arc, Mutex};

use agent_client_protocol::Lines;
use agent_client_protocol::schema::ProtocolVersion;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    CancelNotification, ContentBlock, InitializeRequest, ListSessionsRequest, LoadSessionRequest,
    NewSessionRequest, PermissionOptionKind, PromptRequest, RequestPermissionOutcome,
    RequestPermissionRequest, RequestPermissionResponse, SelectedPermissionOutcome,
    SessionNotification, SessionUpdate, SetSessionModeRequest, StopReason, TextContent,
    ToolCallStatus, ToolKind,
};
use agent_client_protocol::{Agent, Client};
use futures::SinkExt;

use crate::common::Env;

/// A round that edits `notes.txt` from `old` to `new` with call `id`, then one that says `then`.
fn edit_rounds(id: &str, old: &str, new: &str, say: &str, then: &str) -> String {
    format!(
        "round {{\n  text \"{say}\"\n  tool-call id=\"{id}\" name=\"edit\" arguments=#\"{{\"path\":\"notes.txt\",\"edits\":[{{\"old_text\":\"{old}\",\"new_text\":\"{new}\"}}]}}\"#\n  stop \"tool_use\"\n}}\nround {{\n  text \"{then}\"\n  stop \"end_turn\"\n}}\n"
    )
}

/// `smith acp` on `script` in `env`, and the SDK's line transport over its pipes.
fn spawn(
    env: &Env,
    script: &Path,
) -> (
    Child,
    Lines<
        impl futures::Sink<String, Error = std::io::Error> + Send + 'static,
        impl futures::Stream<Item = std::io::Result<String>> + Send + 'static,
    >,
) {
    spawn_with(env, script, &[], Stdio::null())
}

/// `smith [FLAGS…] -m scripted/acp acp --script SCRIPT` in `env`, its stderr to `stderr`, and
/// the SDK's line transport over its pipes.
pub(crate) fn spawn_with(
    env: &Env,
    script: &Path,
    flags: &[&str],
    stderr: Stdio,
) -> (
    Child,
    Lines<
        impl futures::Sink<String, Error = std::io::Error> + Send + 'static,
        impl futures::Stream<Item = std::io::Result<String>> + Send + 'static,
    >,
) {
    let mut args = flags.to_vec();
    args.extend([
        "-m",
        "scripted/acp",
        "acp",
        "--script",
        script.to_str().unwrap(),
    ]);
    let mut child = env
        .command(&args)
        .stdin(Stdio::piped())
        .stdout(Stdio::piped())
        .stderr(stderr)
        .spawn()
        .unwrap();
    let stdout = child.stdout.take().unwrap();
    let (incoming_tx, incoming) = futures::channel::mpsc::unbounded::<std::io::Result<String>>();
    std::thread::spawn(move || {
        for line in BufReader::new(stdout).lines() {
            if incoming_tx.unbounded_send(line).is_err() {
                break;
            }
        }
    });
    let mut stdin = child.stdin.take().unwrap();
    let (outgoing, outgoing_rx) = futures::channel::mpsc::unbounded::<String>();
    std::thread::spawn(move || {
        for line in futures::executor::block_on_stream(outgoing_rx) {
            let line = line.trim_end_matches('\n');
            if writeln!(stdin, "{line}")
                .and_then(|()| stdin.flush())
                .is_err()
            {
                break;
            }
        }
        // Dropping stdin ends the agent's input: it closes its sessions and exits.
    });
    let outgoing = outgoing.sink_map_err(std::io::Error::other);
    (child, Lines::new(outgoing, incoming))
}

pub(crate) fn text(update: &SessionUpdate) -> Option<(&'static str, String)> {
    let (kind, chunk) = match update {
        SessionUpdate::AgentMessageChunk(c) => ("agent", c),
        SessionUpdate::AgentThoughtChunk(c) => ("thought", c),
        SessionUpdate::UserMessageChunk(c) => ("user", c),
        _ => return None,
    };
    match &chunk.content {
        ContentBlock::Text(t) => Some((kind, t.text.clone())),
        _ => None,
    }
}

/// What a client saw: the updates in order, and the permission requests it answered.
#[derive(Default)]
struct Seen {
    updates: Vec<SessionUpdate>,
    asked: Vec<RequestPermissionRequest>,
}

/// Each update's short form: `agent:TEXT`, `tool_call:ID:KIND`, `update:ID:STATUS`, …
fn shapes(updates: &[SessionUpdate]) -> Vec<String> {
    updates
        .iter()
        .filter_map(|u| match u {
            SessionUpdate::ToolCall(c) => Some(format!(
                "tool_call:{}:{}",
                c.tool_call_id.0,
                serde_json::to_value(c.kind).unwrap().as_str().unwrap()
            )),
            SessionUpdate::ToolCallUpdate(c) => c.fields.status.map(|s| {
                format!(
                    "update:{}:{}",
                    c.tool_call_id.0,
                    serde_json::to_value(s).unwrap().as_str().unwrap()
                )
            }),
            other => text(other).map(|(k, t)| format!("{k}:{t}")),
        })
        .collect()
}

#[test]
fn the_rust_sdk_client_prompts_is_asked_cancels_and_loads_the_session_again() {
    let env = Env::new();
    let project = env.root.path().canonicalize().unwrap().join("project");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(project.join("notes.txt"), "draft\n").unwrap();
    let mut script = edit_rounds("e1", "draft", "final", "Let me edit.", "Edited.");
    script.push_str(&edit_rounds("e2", "final", "second", "Again.", "Denied."));
    script.push_str(
        "round {\n  text \"before \"\n  gate \"hold\"\n  text \"after\"\n  stop \"end_turn\"\n}\n",
    );
    let script = env.write("acp.kdl", &script);

    let seen = Arc::new(Mutex::new(Seen::default()));
    // The answers to the permission requests, in order: allow, then deny.
    let answers = Arc::new(Mutex::new(vec![
        PermissionOptionKind::RejectOnce,
        PermissionOptionKind::AllowOnce,
    ]));
    // Fired when the gated round's first words arrive: the turn is mid-stream.
    let (mid_stream, reached) = futures::channel::oneshot::channel::<()>();
    let mid_stream = Arc::new(Mutex::new(Some(mid_stream)));

    let (mut child, transport) = spawn(&env, &script);
    let (seen2, seen3, answers2, mid2) = (
        seen.clone(),
        seen.clone(),
        answers.clone(),
        mid_stream.clone(),
    );
    let dir = project.clone();
    let session = futures::executor::block_on(
        Client
            .v1()
            .on_receive_notification(
                async move |n: SessionNotification, _cx| {
                    if text(&n.update).is_some_and(|(_, t)| t == "before ")
                        && let Some(tx) = mid2.lock().unwrap().take()
                    {
                        let _ = tx.send(());
                    }
                    seen2.lock().unwrap().updates.push(n.update);
                    Ok(())
                },
                agent_client_protocol::on_receive_notification!(),
            )
            .on_receive_request(
                async move |request: RequestPermissionRequest, responder, _cx| {
                    let kind = answers2.lock().unwrap().pop().expect("an answer is left");
                    let option = request
                        .options
                        .iter()
                        .find(|o| o.kind == kind)
                        .expect("the option is offered")
                        .option_id
                        .clone();
                    seen3.lock().unwrap().asked.push(request);
                    responder.respond(RequestPermissionResponse::new(
                        RequestPermissionOutcome::Selected(SelectedPermissionOutcome::new(option)),
                    ))
                },
                agent_client_protocol::on_receive_request!(),
            )
            .connect_with(transport, async move |cx: ConnectionTo<Agent>| {
                let init = cx
                    .send_request(InitializeRequest::new(ProtocolVersion::V1))
                    .block_task()
                    .await?;
                assert_eq!(init.protocol_version, ProtocolVersion::V1);
                assert!(init.agent_capabilities.load_session);
                let new = cx
                    .send_request(NewSessionRequest::new(dir.clone()))
                    .block_task()
                    .await?;
                let id = new.session_id.clone();
                // The mode the settings give an untrusted directory, where programs may not
                // run: the editor shows the one turns will use.
                assert_eq!(new.modes.unwrap().current_mode_id.0.as_ref(), "auto-edit");
                cx.send_request(SetSessionModeRequest::new(id.clone(), "ask"))
                    .block_task()
                    .await?;
                let prompt = |words: &str| {
                    PromptRequest::new(
                        id.clone(),
                        vec![ContentBlock::Text(TextContent::new(words))],
                    )
                };
                let first = cx
                    .send_request(prompt("edit the notes"))
                    .block_task()
                    .await?;
                assert_eq!(first.stop_reason, StopReason::EndTurn);
                let second = cx
                    .send_request(prompt("edit them again"))
                    .block_task()
                    .await?;
                assert_eq!(second.stop_reason, StopReason::EndTurn);
                // Cancelled once its first words arrived, through the gate (never a timer).
                let third = cx.send_request(prompt("wait")).block_task();
                let cancel = async {
                    reached.await.unwrap();
                    cx.send_notification(CancelNotification::new(id.clone()))
                        .unwrap();
                };
                let (third, ()) = futures::join!(third, cancel);
                assert_eq!(third?.stop_reason, StopReason::Cancelled);
                Ok(id)
            }),
    )
    .unwrap();
    assert!(child.wait().unwrap().success());

    let seen = std::mem::take(&mut *seen.lock().unwrap());
    check_live(&seen, &project, &session);

    // A second process loads the session: the same history streamed back, the person's
    // messages included, then the answer.
    let (loaded, listed) = load_again(&env, &script, session, project);
    let history = shapes(&loaded);
    assert_eq!(
        history,
        [
            "user:edit the notes",
            "agent:Let me edit.",
            "tool_call:e1:edit",
            "update:e1:completed",
            "agent:Edited.",
            "user:edit them again",
            "agent:Again.",
            "tool_call:e2:edit",
            "update:e2:failed",
            "agent:Denied.",
            "user:wait",
            "agent:before ",
        ],
        "{history:#?}"
    );
    assert_eq!(listed.len(), 1, "{listed:?}");
    assert_eq!(listed[0].title.as_deref(), Some("edit the notes"));
}

/// What the first client saw: the file as the allowed edit left it, one question per edit for
/// its call, and the updates in order.
fn check_live(seen: &Seen, project: &Path, session: &agent_client_protocol::v1::schema::SessionId) {
    // Allowed once: edited; denied: not edited again.
    assert_eq!(
        std::fs::read_to_string(project.join("notes.txt")).unwrap(),
        "final\n"
    );
    assert_eq!(seen.asked.len(), 2, "one question per edit");
    for (asked, call) in seen.asked.iter().zip(["e1", "e2"]) {
        assert_eq!(asked.tool_call.tool_call_id.0.as_ref(), call);
        assert_eq!(&asked.session_id, session);
    }
    let live = shapes(&seen.updates);
    assert_eq!(
        live,
        [
            "agent:Let me edit.",
            "tool_call:e1:edit",
            // Awaiting approval, then allowed.
            "update:e1:pending",
            "update:e1:in_progress",
            "update:e1:completed",
            "agent:Edited.",
            "agent:Again.",
            "tool_call:e2:edit",
            // Awaiting approval, then denied.
            "update:e2:pending",
            "update:e2:failed",
            "agent:Denied.",
            "agent:before ",
        ],
        "{:#?}",
        seen.updates
    );
    let edit = seen.updates.iter().find_map(|u| match u {
        SessionUpdate::ToolCall(c) if c.tool_call_id.0.as_ref() == "e1" => Some(c),
        _ => None,
    });
    let edit = edit.unwrap();
    assert_eq!(edit.kind, ToolKind::Edit);
    assert_eq!(edit.status, ToolCallStatus::InProgress);
    assert_eq!(edit.locations[0].path, project.join("notes.txt"));
    assert!(matches!(
        &edit.content[0],
        agent_client_protocol::v1::schema::ToolCallContent::Diff(d)
            if d.old_text.as_deref() == Some("draft") && d.new_text == "final"
    ));
}

/// `session` loaded by a second `smith acp` on `script`: the updates it streamed, and what
/// `session/list` then lists.
fn load_again(
    env: &Env,
    script: &Path,
    session: agent_client_protocol::v1::schema::SessionId,
    project: std::path::PathBuf,
) -> (
    Vec<SessionUpdate>,
    Vec<agent_client_protocol::v1::schema::SessionInfo>,
) {
    let (mut child, transport) = spawn(env, script);
    let loaded = Arc::new(Mutex::new(Vec::new()));
    let loaded2 = loaded.clone();
    let listed = futures::executor::block_on(
        Client
            .v1()
            .on_receive_notification(
                async move |n: SessionNotification, _cx| {
                    loaded2.lock().unwrap().push(n.update);
                    Ok(())
                },
                agent_client_protocol::on_receive_notification!(),
            )
            .connect_with(transport, async move |cx: ConnectionTo<Agent>| {
                cx.send_request(InitializeRequest::new(ProtocolVersion::V1))
                    .block_task()
                    .await?;
                cx.send_request(LoadSessionRequest::new(session.clone(), project.clone()))
                    .block_task()
                    .await?;
                let list = cx
                    .send_request(ListSessionsRequest::new())
                    .block_task()
                    .await?;
                Ok(list.sessions)
            }),
    )
    .unwrap();
    assert!(child.wait().unwrap().success());
    let loaded = std::mem::take(&mut *loaded.lock().unwrap());
    (loaded, listed)
}

/// The directory with the official ACP TypeScript SDK (`xtask/acp`, its `node_modules`
/// installed by `.ci/run`), or `None` outside CI when it is not installed.
fn node_client() -> Option<std::path::PathBuf> {
    match std::env::var_os("SMITH_ACP_NODE") {
        Some(p) => Some(p.into()),
        None => {
            assert!(
                std::env::var_os("CI").is_none(),
                "CI must install the ACP TypeScript SDK (.ci/run)"
            );
            None
        }
    }
}

#[test]
fn the_typescript_sdk_client_prompts_and_answers_permission_requests() {
    let Some(dir) = node_client() else { return };
    let env = Env::new();
    let project = env.root.path().canonicalize().unwrap().join("project");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(project.join("notes.txt"), "draft\n").unwrap();
    let mut script = edit_rounds("e1", "draft", "final", "Let me edit.", "Edited.");
    script.push_str(&edit_rounds("e2", "final", "second", "Again.", "Denied."));
    let script = env.write("ts.kdl", &script);
    // The agent the SDK spawns inherits this environment: the test's home, as `Env` sets it.
    let out = std::process::Command::new("node")
        .arg(dir.join("ts_client.mjs"))
        .arg(env!("CARGO_BIN_EXE_smith"))
        .arg(&script)
        .arg(&project)
        .env("SMITH_HOME", env.home())
        .env("TMPDIR", env.tmp())
        .env(
            "SMITH_CACHE_HOME",
            Path::new(env!("CARGO_TARGET_TMPDIR")).join("smith-cache"),
        )
        .env_remove("XDG_DATA_HOME")
        .env_remove("XDG_CONFIG_HOME")
        .env_remove("SMITH_MODEL")
        .env_remove("SMITH_THINKING")
        .current_dir(env.root.path())
        .stdin(Stdio::null())
        .output()
        .unwrap();
    let stdout = String::from_utf8_lossy(&out.stdout);
    assert!(
        out.status.success(),
        "the SDK client failed:\n{stdout}\n{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let summary: serde_json::Value = serde_json::from_str(stdout.lines().last().unwrap()).unwrap();
    assert_eq!(summary["protocolVersion"], 1);
    assert_eq!(summary["agent"], "smith");
    assert_eq!(
        summary["stops"],
        serde_json::json!(["end_turn", "end_turn"])
    );
    assert_eq!(summary["asked"], serde_json::json!(["e1", "e2"]));
    let commands = summary["commands"].as_array().unwrap();
    for name in ["init", "review", "compact", "undo", "redo"] {
        assert!(commands.iter().any(|c| c == name), "{name}: {commands:?}");
    }
    assert_eq!(summary["listed"], serde_json::json!([summary["sessionId"]]));
    assert_eq!(
        summary["shapes"],
        serde_json::json!([
            "current_mode_update",
            "agent_message_chunk:Let me edit.",
            "tool_call:e1:edit",
            "update:e1:pending",
            "update:e1:in_progress",
            "update:e1:completed",
            "agent_message_chunk:Edited.",
            "agent_message_chunk:Again.",
            "tool_call:e2:edit",
            "update:e2:pending",
            "update:e2:failed",
            "agent_message_chunk:Denied.",
        ])
    );
    assert_eq!(
        std::fs::read_to_string(project.join("notes.txt")).unwrap(),
        "final\n"
    );
}

/// A client that offers its files: the file tools read its buffer (unsaved changes the disk
/// does not have) and what they write reaches it — and the disk, which the history snapshots;
/// `/undo` restores the disk and gives the editor the restored text.
#[test]
fn a_client_with_files_serves_the_file_tools_from_its_buffer() {
    use agent_client_protocol::v1::schema::{
        ClientCapabilities, FileSystemCapabilities, ReadTextFileRequest, ReadTextFileResponse,
        WriteTextFileRequest, WriteTextFileResponse,
    };
    let env = Env::new();
    let project = env.root.path().canonicalize().unwrap().join("project");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(project.join("notes.txt"), "draft\n").unwrap();
    let script = env.write(
        "buffer.kdl",
        "round {\n  tool-call id=\"r\" name=\"read\" arguments=#\"{\"path\":\"notes.txt\"}\"#\n  tool-call id=\"e\" name=\"edit\" arguments=#\"{\"path\":\"notes.txt\",\"edits\":[{\"old_text\":\"unsaved\",\"new_text\":\"kept\"}]}\"#\n  stop \"tool_use\"\n}\nround {\n  text \"done\"\n  stop \"end_turn\"\n}\n",
    );
    // The editor's buffer of notes.txt: changes not saved to disk.
    let buffer = Arc::new(Mutex::new("draft plus unsaved\n".to_owned()));
    let reads = Arc::new(Mutex::new(Vec::new()));
    let updates = Arc::new(Mutex::new(Vec::new()));
    let (buffer2, buffer3, buffer4, reads2, updates2) = (
        buffer.clone(),
        buffer.clone(),
        buffer.clone(),
        reads.clone(),
        updates.clone(),
    );
    let (mut child, transport) = spawn(&env, &script);
    let dir = project.clone();
    futures::executor::block_on(
        Client
            .v1()
            .on_receive_notification(
                async move |n: SessionNotification, _cx| {
                    updates2.lock().unwrap().push(n.update);
                    Ok(())
                },
                agent_client_protocol::on_receive_notification!(),
            )
            .on_receive_request(
                async move |request: ReadTextFileRequest, responder, _cx| {
                    reads2.lock().unwrap().push(request.path.clone());
                    let text = buffer2.lock().unwrap().clone();
                    responder.respond(ReadTextFileResponse::new(text))
                },
                agent_client_protocol::on_receive_request!(),
            )
            .on_receive_request(
                async move |request: WriteTextFileRequest, responder, _cx| {
                    *buffer3.lock().unwrap() = request.content.clone();
                    responder.respond(WriteTextFileResponse::new())
                },
                agent_client_protocol::on_receive_request!(),
            )
            .connect_with(transport, async move |cx: ConnectionTo<Agent>| {
                let files = FileSystemCapabilities::new()
                    .read_text_file(true)
                    .write_text_file(true);
                cx.send_request(
                    InitializeRequest::new(ProtocolVersion::V1)
                        .client_capabilities(ClientCapabilities::new().fs(files)),
                )
                .block_task()
                .await?;
                let new = cx
                    .send_request(NewSessionRequest::new(dir.clone()))
                    .block_task()
                    .await?;
                let answer = cx
                    .send_request(PromptRequest::new(
                        new.session_id.clone(),
                        vec![ContentBlock::Text(TextContent::new("tidy the notes"))],
                    ))
                    .block_task()
                    .await?;
                assert_eq!(answer.stop_reason, StopReason::EndTurn);
                let edited = buffer4.lock().unwrap().clone();
                // Undone: the disk and the editor's buffer both hold what the disk held
                // before the batch.
                let answer = cx
                    .send_request(PromptRequest::new(
                        new.session_id,
                        vec![ContentBlock::Text(TextContent::new("/undo"))],
                    ))
                    .block_task()
                    .await?;
                assert_eq!(answer.stop_reason, StopReason::EndTurn);
                Ok(edited)
            }),
    )
    .map(|edited| {
        // The edit applied to the buffer reached the editor and the disk alike.
        assert_eq!(edited, "draft plus kept\n");
    })
    .unwrap();
    assert!(child.wait().unwrap().success());
    assert_eq!(*buffer.lock().unwrap(), "draft\n");
    assert_eq!(
        std::fs::read_to_string(project.join("notes.txt")).unwrap(),
        "draft\n"
    );
    // Both tools asked the editor (the edit tool reads before it edits), by the absolute path.
    let reads = reads.lock().unwrap().clone();
    assert!(reads.len() >= 2, "{reads:?}");
    assert!(
        reads.iter().all(|p| *p == project.join("notes.txt")),
        "{reads:?}"
    );
    // The read saw the buffer, not the disk.
    let read_output = updates.lock().unwrap().iter().find_map(|u| match u {
        SessionUpdate::ToolCallUpdate(c) if c.tool_call_id.0.as_ref() == "r" => c
            .fields
            .raw_output
            .as_ref()
            .and_then(|v| v.as_str().map(str::to_owned)),
        _ => None,
    });
    assert!(
        read_output
            .as_deref()
            .is_some_and(|o| o.contains("draft plus unsaved")),
        "{read_output:?}"
    );
}

/// An editor that refuses a write: the disk has it (the history snapshots it), and the call's
/// result tells the model the editor's buffer may still show the old text.
#[test]
fn an_editor_that_refuses_a_write_is_said_in_the_calls_result() {
    use agent_client_protocol::v1::schema::{
        ClientCapabilities, FileSystemCapabilities, WriteTextFileRequest,
    };
    let env = Env::new();
    let project = env.root.path().canonicalize().unwrap().join("project");
    std::fs::create_dir_all(&project).unwrap();
    let script = env.write(
        "refused.kdl",
        "round {\n  tool-call id=\"w\" name=\"write\" arguments=#\"{\"path\":\"notes.txt\",\"content\":\"written\\n\"}\"#\n  stop \"tool_use\"\n}\nround {\n  text \"done\"\n  stop \"end_turn\"\n}\n",
    );
    let updates = Arc::new(Mutex::new(Vec::new()));
    let updates2 = updates.clone();
    let (mut child, transport) = spawn(&env, &script);
    let dir = project.clone();
    futures::executor::block_on(
        Client
            .v1()
            .on_receive_notification(
                async move |n: SessionNotification, _cx| {
                    updates2.lock().unwrap().push(n.update);
                    Ok(())
                },
                agent_client_protocol::on_receive_notification!(),
            )
            .on_receive_request(
                async move |_request: WriteTextFileRequest, responder, _cx| {
                    responder.respond_with_internal_error("the buffer is read-only")
                },
                agent_client_protocol::on_receive_request!(),
            )
            .connect_with(transport, async move |cx: ConnectionTo<Agent>| {
                let files = FileSystemCapabilities::new().write_text_file(true);
                cx.send_request(
                    InitializeRequest::new(ProtocolVersion::V1)
                        .client_capabilities(ClientCapabilities::new().fs(files)),
                )
                .block_task()
                .await?;
                let new = cx
                    .send_request(NewSessionRequest::new(dir.clone()))
                    .block_task()
                    .await?;
                let answer = cx
                    .send_request(PromptRequest::new(
                        new.session_id,
                        vec![ContentBlock::Text(TextContent::new("write the notes"))],
                    ))
                    .block_task()
                    .await?;
                assert_eq!(answer.stop_reason, StopReason::EndTurn);
                Ok(())
            }),
    )
    .unwrap();
    assert!(child.wait().unwrap().success());
    assert_eq!(
        std::fs::read_to_string(project.join("notes.txt")).unwrap(),
        "written\n"
    );
    let output = updates.lock().unwrap().iter().find_map(|u| match u {
        SessionUpdate::ToolCallUpdate(c)
            if c.tool_call_id.0.as_ref() == "w"
                && c.fields.status == Some(ToolCallStatus::Completed) =>
        {
            c.fields.raw_output.as_ref().map(ToString::to_string)
        }
        _ => None,
    });
    let output = output.expect("the write completed");
    assert!(
        output.contains("the editor did not take it") && output.contains("read-only"),
        "{output}"
    );
}
