//! Golden files: the exact bytes of one entry frame per record kind (spec SMH-SPEC-SPEC0001:
//! Storage and encoding — deterministic encoding; compressed bytes depend on the pinned
//! zstd, and these files catch a change). Regenerate deliberately with
//! `SMITH_BLESS=1 cargo test -p smith-store --test golden`, and say why in the commit.

use std::path::PathBuf;

use smith::{
    ContentBlock, EntryId, Message, Role, StopReason, ToolCall, ToolResult, Usage, UsageTotals,
};
use smith_store::{
    EffectCompletion, EffectIntent, EffectOutcome, EntryHead, MessageRecord, ModelChange, Record,
    RunEnd, SessionStart, ToolResultRecord, decode_entry_payload, entry_frame, format,
};

fn cases() -> Vec<(&'static str, Option<EntryId>, Record)> {
    vec![
        (
            "session_start",
            None,
            Record::SessionStart(SessionStart {
                smith_version: "0.1.0".into(),
                cwd: Some("/home/ada/project".into()),
                imported: None,
            }),
        ),
        (
            "model_change",
            None,
            Record::ModelChange(ModelChange {
                model: "scripted/demo".parse().unwrap(),
            }),
        ),
        (
            "message_user",
            None,
            Record::Message(MessageRecord {
                message: Message::user_text("Fix the failing test in src/lib.rs"),
                model: None,
                stop_reason: None,
                usage: None,
                error: None,
                attempt: None,
            }),
        ),
        (
            "message_assistant_tool_call",
            None,
            Record::Message(MessageRecord {
                message: Message {
                    role: Role::Assistant,
                    content: vec![
                        ContentBlock::Thinking {
                            text: "Read it first.".into(),
                            signature: None,
                            redacted: false,
                        },
                        ContentBlock::ToolCall(ToolCall {
                            id: "call_1".into(),
                            name: "read".into(),
                            arguments: serde_json::json!({
                                "path": "src/lib.rs", "limit": 200, "ratio": 0.5, "zero": -0.0
                            }),
                        }),
                    ],
                },
                model: Some("scripted/demo".parse().unwrap()),
                stop_reason: Some(StopReason::ToolUse),
                usage: Some(Usage {
                    input: Some(1200),
                    output: Some(80),
                    cache_read: None,
                    cache_write: Some(0),
                }),
                error: None,
                attempt: None,
            }),
        ),
        (
            "tool_result",
            Some(EntryId(4)),
            Record::ToolResult(ToolResultRecord {
                result: ToolResult {
                    call_id: "call_1".into(),
                    name: "read".into(),
                    output: "fn main() {}\n".into(),
                    is_error: false,
                },
            }),
        ),
        (
            "run_end",
            None,
            Record::RunEnd(RunEnd {
                children: Vec::new(),
                stop_reason: StopReason::EndTurn,
                usage: UsageTotals::default(),
                error: None,
                memory: None,
            }),
        ),
        (
            "effect_intent",
            None,
            Record::EffectIntent(EffectIntent {
                effect_id: "eff_1".into(),
                call_id: "call_2".into(),
                plugin: "files@0.1.0#1".into(),
                tool: "write".into(),
                effect: "file.write".into(),
                target: Some("src/lib.rs".into()),
                input: serde_json::json!({"bytes": 42, "mode": "replace"}),
            }),
        ),
        (
            "effect_completion_compressed",
            Some(EntryId(7)),
            Record::EffectCompletion(EffectCompletion {
                effect_id: "eff_1".into(),
                outcome: EffectOutcome::Applied,
                output: "line of tool output\n".repeat(100).into_bytes(),
                evidence: serde_json::json!({"before": "sha256:00", "after": "sha256:ff"}),
            }),
        ),
        (
            "unknown_kind",
            None,
            Record::Unknown {
                kind: 900,
                body: vec![0xa1, 0x61, 0x78, 0x01],
                projection: false,
            },
        ),
        (
            "submission",
            None,
            Record::Submission(smith_store::Submission {
                session: Some("01a22bd3-8d19-76f1-be00-0165c2737604".parse().unwrap()),
                dedup_key: Some("build-42".into()),
                content_sha256: "5e8b0f1c8a4f8c4f0a9d3d1b1f3a0d9b8e7c6a5f4e3d2c1b0a99887766554433"
                    .into(),
                destination: Some(EntryId(5)),
                explicit_destination: false,
                model: smith::Selection::Model(smith::ModelRef {
                    provider: "scripted".into(),
                    model: "demo".into(),
                }),
                input: "Fix the failing test".into(),
                owner: None,
                delivery: None,
                policy: None,
                attachments: Vec::new(),
            }),
        ),
        (
            "abort",
            Some(EntryId(1)),
            Record::Abort(smith_store::Abort {
                reason: "interrupt signal (Ctrl-C or SIGTERM)".into(),
            }),
        ),
        (
            "submission_queued_child",
            None,
            Record::Submission(smith_store::Submission {
                session: Some("01a22bd3-8d19-76f1-be00-0165c2737604".parse().unwrap()),
                dedup_key: None,
                content_sha256: "0a9d3d1b1f3a0d9b8e7c6a5f4e3d2c1b0a998877665544335e8b0f1c8a4f8c4f"
                    .into(),
                destination: Some(EntryId(9)),
                explicit_destination: false,
                model: smith::Selection::Model(smith::ModelRef {
                    provider: "scripted".into(),
                    model: "demo".into(),
                }),
                input: "Stop and run the linter first".into(),
                owner: Some(EntryId(8)),
                delivery: Some(smith_store::Delivery::Steer),
                policy: Some("queue@0.1.0".into()),
                attachments: Vec::new(),
            }),
        ),
        (
            "withdrawal",
            Some(EntryId(11)),
            Record::Withdrawal(smith_store::Withdrawal {
                reason: "withdrawn by the user".into(),
            }),
        ),
        (
            "checkpoint",
            Some(EntryId(8)),
            Record::Checkpoint(smith_store::Checkpoint {
                round: 2,
                phase: "tool_batch_complete".into(),
                requires: vec!["files@0.1.0".into(), "shell@0.1.0".into()],
                model: None,
                tools: Vec::new(),
            }),
        ),
        // Recorded before attempts said their output limit: still read, as `None`.
        ("attempt", None, Record::Attempt(Box::new(attempt()))),
        (
            "attempt_failed",
            None,
            Record::AttemptFailed(smith::AttemptFailure {
                attempt: EntryId(9),
                kind: smith::ProviderErrorKind::RateLimited,
                message: "anthropic answered HTTP 429: rate limited; retry in a moment".into(),
                next: smith::Next::Failover,
            }),
        ),
        (
            "message_assistant_attempt",
            None,
            Record::Message(MessageRecord {
                message: Message {
                    role: Role::Assistant,
                    content: vec![ContentBlock::Text {
                        text: "Done.".into(),
                    }],
                },
                model: Some("anthropic/claude-haiku-4-5".parse().unwrap()),
                stop_reason: Some(StopReason::EndTurn),
                usage: Some(Usage {
                    input: Some(1000),
                    output: Some(400),
                    cache_read: Some(30000),
                    cache_write: Some(2000),
                }),
                error: None,
                attempt: Some(EntryId(11)),
            }),
        ),
        (
            "attempt_output_limit",
            None,
            Record::Attempt(Box::new(smith::Attempt {
                output_limit: Some(smith::OutputLimit {
                    tokens: Some(64_000),
                    source: smith::OutputLimitSource::Catalog,
                }),
                ..attempt()
            })),
        ),
        (
            "message_user_image",
            None,
            Record::Message(MessageRecord {
                message: Message {
                    role: Role::User,
                    content: vec![
                        ContentBlock::Text {
                            text: "What is in `pixel.png`?\n\n`pixel.png` (image/png, 70 bytes, sha256 …): attached as image 1".into(),
                        },
                        ContentBlock::Image(smith::Image {
                            media_type: "image/png".into(),
                            data: "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==".into(),
                        }),
                    ],
                },
                model: None,
                stop_reason: None,
                usage: None,
                error: None,
                attempt: None,
            }),
        ),
        (
            "secret_registration",
            None,
            Record::SecretRegistration(smith_store::SecretRegistration {
                name: "DEPLOY_TOKEN".into(),
                label: Some("the staging deploy token".into()),
                source: "user".into(),
            }),
        ),
        (
            "context_edit",
            None,
            Record::ContextEdit(smith_store::ContextEdit {
                edits: vec![
                    smith_store::EditOp {
                        target: EntryId(3),
                        change: smith_store::EditChange::Replace(
                            "Fix the failing test in src/lib.rs (the parser one)".into(),
                        ),
                    },
                    smith_store::EditOp {
                        target: EntryId(9),
                        change: smith_store::EditChange::Omit,
                    },
                ],
            }),
        ),
        (
            "request_input_piece",
            None,
            Record::RequestInput(smith_store::RequestInput::Piece {
                handler: "agents-md@0.1.0".into(),
                role: smith_store::PieceRole::Context,
                source: Some("/home/ada/project/AGENTS.md".into()),
                text: "Run `cargo test` before you stop.".into(),
            }),
        ),
        (
            "request_input_tools",
            None,
            Record::RequestInput(smith_store::RequestInput::Tools(vec![
                smith::ToolDefinition {
                    name: "read".into(),
                    description: "Read a file's lines.".into(),
                    input_schema: serde_json::json!({
                        "type": "object",
                        "properties": {"path": {"type": "string"}},
                        "required": ["path"],
                    }),
                },
            ])),
        ),
        (
            "request",
            Some(EntryId(13)),
            Record::Request(smith_store::EffectiveRequest {
                anchor: Some(EntryId(12)),
                projection: smith_store::PROJECTION_VERSION,
                instructions: vec![EntryId(20), EntryId(21)],
                tools: Some(EntryId(22)),
                cache_key: Some("01a22bd3-8d19-76f1-be00-0165c2737604".into()),
                options: [("api".to_owned(), "responses".to_owned())].into(),
                sha256: "9f86d081884c7d659a2feaa0c55ad015a3bf4f1b2b0b822cd15d6c15b0f00a08".into(),
                compaction: None,
            }),
        ),
        (
            "compaction_request",
            Some(EntryId(13)),
            Record::Request(smith_store::EffectiveRequest {
                anchor: Some(EntryId(29)),
                projection: smith_store::PROJECTION_VERSION,
                instructions: vec![EntryId(20)],
                tools: Some(EntryId(22)),
                cache_key: None,
                options: std::collections::BTreeMap::new(),
                sha256: "2c26b46b68ffc68ff99b453c1d30413413422d706483bfa0f98a5e886266e7ae".into(),
                compaction: Some(smith_store::CompactionAsk {
                    items: 7,
                    ask: EntryId(30),
                }),
            }),
        ),
        (
            "unknown_projection",
            None,
            Record::Unknown {
                kind: 901,
                body: vec![0xa1, 0x61, 0x79, 0x02],
                projection: true,
            },
        ),
        (
            "run_end_children",
            Some(EntryId(2)),
            Record::RunEnd(RunEnd {
                stop_reason: StopReason::EndTurn,
                usage: UsageTotals::default(),
                error: None,
                children: vec![EntryId(7), EntryId(11)],
                memory: None,
            }),
        ),
        (
            "client_call",
            None,
            Record::ClientCall(smith_store::ClientCall {
                frontend: "mcp".into(),
                request: "7".into(),
                tool: "read".into(),
                arguments: serde_json::json!({"path": "notes.txt"}),
            }),
        ),
        (
            "compaction",
            None,
            Record::Compaction(smith_store::Compaction {
                summary: "The user asked for a list of the files; it was given.".into(),
                first_kept: Some(EntryId(9)),
                attempt: Some(EntryId(7)),
                usage: Some(smith::Usage {
                    input: Some(1200),
                    output: Some(80),
                    cache_read: None,
                    cache_write: None,
                }),
                started: None,
                carried: None,
            }),
        ),
        (
            "compaction_carried",
            None,
            Record::Compaction(smith_store::Compaction {
                summary: "The tests pass again.".into(),
                first_kept: Some(EntryId(9)),
                attempt: Some(EntryId(7)),
                usage: None,
                started: None,
                carried: Some(smith_store::Carried {
                    model: Some("anthropic/claude-sonnet-4-5".parse().unwrap()),
                    secrets: vec!["GITHUB_TOKEN".into()],
                    open: vec![EntryId(4)],
                    permission_mode: None,
                }),
            }),
        ),
        (
            "vcs_batch",
            None,
            Record::Vcs(smith_store::VcsRecord {
                op: smith_store::VcsOp::Batch,
                root: "/home/ada/project".into(),
                before: "3f786850e387550fdab836ed7e6dc881de23001b".into(),
                after: "89e6c98d92887913cadf06b2adb97f26cde4849b".into(),
                round: Some(2),
                submission: Some(EntryId(3)),
                calls: vec!["toolu_01".into(), "toolu_02".into()],
                steps: Vec::new(),
                target: None,
                written: Vec::new(),
                deleted: Vec::new(),
                turns: Vec::new(),
            }),
        ),
        (
            "vcs_undo",
            None,
            Record::Vcs(smith_store::VcsRecord {
                op: smith_store::VcsOp::Undo,
                root: "/home/ada/project".into(),
                before: "89e6c98d92887913cadf06b2adb97f26cde4849b".into(),
                after: "3f786850e387550fdab836ed7e6dc881de23001b".into(),
                round: None,
                submission: None,
                calls: Vec::new(),
                steps: vec![EntryId(12)],
                target: None,
                written: Vec::new(),
                deleted: Vec::new(),
                turns: Vec::new(),
            }),
        ),
        (
            "state",
            Some(EntryId(4)),
            Record::State(smith_store::StateRecord {
                owner: "permissions".into(),
                name: "session-allow".into(),
                scope: smith::StateScope::Session,
                version: 1,
                value: Some(serde_json::json!(["bash(cargo test*)"])),
            }),
        ),
        // A checkpoint with what a continuation checks besides the plugins: the route and the
        // tool loadout.
        (
            "checkpoint_prerequisites",
            Some(EntryId(8)),
            Record::Checkpoint(smith_store::Checkpoint {
                round: 2,
                phase: "tool_batch_complete".into(),
                requires: vec!["files@0.1.0".into(), "shell@0.1.0".into()],
                model: Some("anthropic/claude-sonnet-4-5".parse().unwrap()),
                tools: vec!["read".into(), "edit".into(), "bash".into()],
            }),
        ),
    ]
}

/// An attempt routed through a group after a failover, with its catalog record.
fn attempt() -> smith::Attempt {
    let mut info = smith::ModelInfo::unknown(
        "anthropic/claude-haiku-4-5".parse().unwrap(),
        smith::Source {
            id: "litellm-1.110.2".into(),
            title:
                "model_prices_and_context_window_backup.json in the litellm 1.110.2 wheel on PyPI"
                    .into(),
            date: Some("2026-11-20".into()),
        },
    );
    info.context = Some(200_000);
    info.output = Some(64_000);
    info.image_input = Some(true);
    info.tools = Some(true);
    info.thinking = Some(vec![
        smith::ThinkingLevel::Off,
        smith::ThinkingLevel::Low,
        smith::ThinkingLevel::Medium,
        smith::ThinkingLevel::High,
    ]);
    info.cache = Some(smith::CacheInfo {
        read: true,
        write: true,
    });
    info.price = Some(smith::Price {
        input: Some(1.0),
        output: Some(5.0),
        cache_read: Some(0.1),
        cache_write: Some(1.25),
    });
    smith::Attempt {
        round: 1,
        number: 2,
        selection: "main".into(),
        model: "anthropic/claude-haiku-4-5".parse().unwrap(),
        account: Some("work".into()),
        thinking: Some(smith::ThinkingLevel::High),
        routing: smith::Routing {
            source: smith::RouteSource::Group,
            path: vec!["main".into(), "anthropic/claude-haiku-4-5".into()],
            position: 2,
            of: 2,
            skipped: vec![],
        },
        after: Some(smith::Next::Failover),
        capabilities: Some(info),
        generation: "anthropic@0.1.0#28593b36a514".into(),
        output_limit: None,
    }
}

fn hex(bytes: &[u8]) -> String {
    bytes
        .chunks(32)
        .map(|line| line.iter().map(|b| format!("{b:02x}")).collect::<String>() + "\n")
        .collect()
}

fn unhex(text: &str) -> Vec<u8> {
    let digits: Vec<u8> = text.bytes().filter(u8::is_ascii_hexdigit).collect();
    digits
        .chunks(2)
        .map(|p| u8::from_str_radix(std::str::from_utf8(p).unwrap(), 16).unwrap())
        .collect()
}

#[test]
fn every_record_kind_encodes_to_its_golden_bytes_and_back() {
    let dir = PathBuf::from(env!("CARGO_MANIFEST_DIR")).join("tests/golden");
    let bless = std::env::var_os("SMITH_BLESS").is_some();
    for (n, (name, pair, record)) in cases().into_iter().enumerate() {
        let id = n as u64 + 1;
        let head = EntryHead {
            id: EntryId(id),
            parent: (id > 1).then(|| EntryId(id - 1)),
            pair,
            timestamp_ms: 1_764_460_800_000,
        };
        let frame = entry_frame(&head, &record).unwrap();
        let path = dir.join(format!("{name}.hex"));
        if bless {
            std::fs::write(&path, hex(&frame)).unwrap();
        }
        let golden = unhex(&std::fs::read_to_string(&path).unwrap_or_else(|e| {
            panic!(
                "{}: {e}; run with SMITH_BLESS=1 to create it",
                path.display()
            )
        }));
        assert_eq!(hex(&frame), hex(&golden), "{name}: encoding changed");
        let payload = &golden[format::FRAME_HEAD_LEN..golden.len() - format::FRAME_TAIL_LEN];
        let entry = decode_entry_payload(payload).unwrap();
        assert_eq!(entry.record, record, "{name}");
        assert_eq!(
            (entry.id, entry.parent, entry.pair),
            (head.id, head.parent, head.pair)
        );
        let entry_flags = u16::from_le_bytes([payload[26], payload[27]]);
        assert_eq!(
            entry_flags & smith_store::meta::ENTRY_PROJECTION != 0,
            matches!(
                name,
                "context_edit" | "compaction" | "compaction_carried" | "unknown_projection"
            ),
            "{name}: the projection flag marks exactly the records that change later requests"
        );
        if name.ends_with("compressed") {
            let flags = u16::from_le_bytes([payload[26], payload[27]]);
            assert_eq!(
                flags,
                smith_store::meta::ENTRY_COMPRESSED,
                "{name} is compressed"
            );
        }
    }
}
