//! MCP servers an editor passes in `session/new`, through the official Rust SDK's client side:
//! a stdio server (another Smith) connected for the session that passed it — its tool called
//! by a scripted turn and answered by the real server — and not for a second session on the
//! same connection that passed none; an SSE server and one whose name cannot be used skipped
//! with a warning, the others connected.

use std::process::Stdio;
use std::sync::{Arc, Mutex};

use agent_client_protocol::schema::ProtocolVersion;
use agent_client_protocol::v1::ConnectionTo;
use agent_client_protocol::v1::schema::{
    ContentBlock, EnvVariable, InitializeRequest, McpServer, McpServerSse, McpServerStdio,
    NewSessionRequest, PromptRequest, RequestPermissionOutcome, RequestPermissionRequest,
    RequestPermissionResponse, SelectedPermissionOutcome, SessionNotification, SessionUpdate,
    StopReason, TextContent, ToolCallContent, ToolCallStatus,
};
use agent_client_protocol::{Agent, Client};

use crate::common::Env;

/// What each tool call ended as, by session: `(session, call id, status, text)`.
type Ended = Vec<(String, String, ToolCallStatus, String)>;

#[test]
fn an_editors_mcp_servers_are_connected_for_its_session_only() {
    let env = Env::new();
    let project = env.root.path().canonicalize().unwrap().join("project");
    std::fs::create_dir_all(&project).unwrap();
    std::fs::write(
        project.join("notes.txt"),
        "read through the editor's server\n",
    )
    .unwrap();
    let script = env.write(
        "acp.kdl",
        "round {\n  tool-call id=\"m1\" name=\"mcp__Inner-Smith__read\" arguments=#\"{\"path\":\"notes.txt\"}\"#\n  stop \"tool_use\"\n}\nround {\n  text \"done\"\n  stop \"end_turn\"\n}\n",
    );
    let log = std::fs::File::create(env.root.path().join("stderr.log")).unwrap();
    let (mut child, transport) =
        crate::sdk::spawn_with(&env, &script, &["--allow-process"], Stdio::from(log));
    let ended: Arc<Mutex<Ended>> = Arc::default();
    let ended2 = ended.clone();
    let inner_home = project.join(".inner");
    let dir = project.clone();
    futures::executor::block_on(
        Client
            .v1()
            .on_receive_notification(
                async move |n: SessionNotification, _cx| {
                    if let SessionUpdate::ToolCallUpdate(u) = &n.update
                        && let Some(status @ (ToolCallStatus::Completed | ToolCallStatus::Failed)) =
                            u.fields.status
                    {
                        let text = u
                            .fields
                            .content
                            .iter()
                            .flatten()
                            .filter_map(|c| match c {
                                ToolCallContent::Content(c) => match &c.content {
                                    ContentBlock::Text(t) => Some(t.text.clone()),
                                    _ => None,
                                },
                                _ => None,
                            })
                            .collect::<String>();
                        ended2.lock().unwrap().push((
                            n.session_id.0.to_string(),
                            u.tool_call_id.0.to_string(),
                            status,
                            text,
                        ));
                    }
                    Ok(())
                },
                agent_client_protocol::on_receive_notification!(),
            )
            .on_receive_request(
                async move |request: RequestPermissionRequest, responder, _cx| {
                    let option = request.options[0].option_id.clone();
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
                assert!(init.agent_capabilities.mcp_capabilities.http);
                assert!(!init.agent_capabilities.mcp_capabilities.sse);
                let servers = vec![
                    McpServer::Stdio(
                        McpServerStdio::new("Inner Smith", env!("CARGO_BIN_EXE_smith"))
                            .args(vec!["mcp".to_owned()])
                            .env(vec![EnvVariable::new(
                                "SMITH_HOME",
                                inner_home.display().to_string(),
                            )]),
                    ),
                    McpServer::Sse(McpServerSse::new("old-events", "http://127.0.0.1:9/sse")),
                    McpServer::Stdio(McpServerStdio::new("list", "true")),
                ];
                let with = cx
                    .send_request(NewSessionRequest::new(dir.clone()).mcp_servers(servers))
                    .block_task()
                    .await?
                    .session_id;
                let without = cx
                    .send_request(NewSessionRequest::new(dir.clone()))
                    .block_task()
                    .await?
                    .session_id;
                for id in [&with, &without] {
                    let answer = cx
                        .send_request(PromptRequest::new(
                            id.clone(),
                            vec![ContentBlock::Text(TextContent::new("read the notes"))],
                        ))
                        .block_task()
                        .await?;
                    assert_eq!(answer.stop_reason, StopReason::EndTurn);
                }
                Ok((with.0.to_string(), without.0.to_string()))
            }),
    )
    .map(|(with, without)| {
        assert!(child.wait().unwrap().success());
        let ended = ended.lock().unwrap().clone();
        assert_eq!(ended.len(), 2, "{ended:?}");
        // Answered by the real server, for the session that passed it.
        let (session, call, status, text) = &ended[0];
        assert_eq!((session, call.as_str()), (&with, "m1"), "{ended:?}");
        assert_eq!(*status, ToolCallStatus::Completed, "{ended:?}");
        assert!(
            text.contains("read through the editor's server"),
            "{ended:?}"
        );
        // The other session has no such tool.
        let (session, _, status, text) = &ended[1];
        assert_eq!(session, &without);
        assert_eq!(*status, ToolCallStatus::Failed, "{ended:?}");
        assert!(text.contains("mcp__Inner-Smith__read"), "{text}");
    })
    .unwrap();
    let log = std::fs::read_to_string(env.root.path().join("stderr.log")).unwrap();
    assert!(
        log.contains("\"old-events\" is not connected: it speaks SSE"),
        "{log}"
    );
    assert!(
        log.contains("\"list\" is not connected: no server name"),
        "{log}"
    );
}
