//! One example of every intent kind, in a plausible order: the golden sequence every renderer
//! is snapshotted with, and the examples of the generated reference.

use smith::{ContentBlock, Message, Role, SessionId, StopReason, ToolCall, Usage, UsageTotals};

use crate::{Access, DeltaKind, Intent, NoticeLevel};

/// The fixed session id of the examples.
pub const EXAMPLE_SESSION: &str = "01a22a94-a317-7338-916a-bf230df657af";

/// At least one example of every [`crate::IntentKind`], in the order a run could emit them, including
/// the requests a non-interactive frontend must refuse.
pub fn examples() -> Vec<Intent> {
    let session: SessionId = EXAMPLE_SESSION
        .parse()
        .unwrap_or_else(|_| SessionId::new_now());
    let usage = Usage {
        input: Some(24),
        output: Some(31),
        cache_read: Some(0),
        cache_write: None,
    };
    let call = ToolCall {
        id: "call_1".into(),
        name: "read".into(),
        arguments: serde_json::json!({"path": "README.md"}),
    };
    let mut totals = UsageTotals::default();
    totals.add(Some(&usage));
    vec![
        Intent::SessionChange {
            session,
            access: Access::Writer,
        },
        Intent::RunStart {
            session,
            model: smith::Selection::Name("fast".into()),
            sandbox: Some("workspace-write".into()),
        },
        Intent::Receipt {
            submission: 1,
            dedup_key: Some("ci-run-42".into()),
            deduplicated: false,
            state: crate::ReceiptStatus::Admitted,
            stop_reason: None,
        },
        Intent::BranchChange { leaf: Some(2) },
        Intent::Attempt {
            entry_id: 2,
            attempt: Box::new(smith::Attempt {
                round: 1,
                number: 1,
                selection: "fast".into(),
                model: "scripted/demo".parse().expect("a model reference"),
                account: None,
                thinking: None,
                routing: smith::Routing {
                    source: smith::RouteSource::Alias,
                    path: vec!["fast".into(), "scripted/demo".into()],
                    position: 1,
                    of: 1,
                    skipped: Vec::new(),
                },
                after: None,
                capabilities: None,
                generation: "scripted@0.1.0#0123abcd".into(),
                output_limit: Some(smith::OutputLimit {
                    tokens: None,
                    source: smith::OutputLimitSource::ProviderDefault,
                }),
            }),
        },
        Intent::AttemptFailed {
            failure: smith::AttemptFailure {
                attempt: smith::EntryId(2),
                kind: smith::ProviderErrorKind::RateLimited,
                message: "anthropic answered HTTP 429: rate limited; retry in a moment".into(),
                next: smith::Next::Failover,
            },
        },
        Intent::ContextUse {
            used_tokens: Some(1200),
            limit_tokens: Some(200_000),
        },
        Intent::RoundStart { round: 1 },
        Intent::MessageStart {
            message_id: 3,
            role: Role::Assistant,
        },
        Intent::MessageDelta {
            message_id: 3,
            kind: DeltaKind::Thinking,
            text: "The user wants the README.".into(),
        },
        Intent::MessageDelta {
            message_id: 3,
            kind: DeltaKind::Text,
            text: "Let me read it.".into(),
        },
        Intent::MessageEnd {
            message_id: 3,
            entry_id: Some(3),
            message: Message {
                role: Role::Assistant,
                content: vec![
                    ContentBlock::Thinking {
                        text: "The user wants the README.".into(),
                        signature: None,
                        redacted: false,
                    },
                    ContentBlock::Text {
                        text: "Let me read it.".into(),
                    },
                    ContentBlock::ToolCall(call.clone()),
                ],
            },
            stop_reason: Some(StopReason::ToolUse),
            usage: Some(usage),
            recorded: true,
        },
        Intent::Usage {
            message_id: 3,
            attempt: Some(2),
            model: Some(Box::new(
                "scripted/demo".parse().expect("a model reference"),
            )),
            usage: Some(usage),
            cost_usd: None,
        },
        Intent::ToolStart {
            call_id: call.id.clone(),
            name: call.name.clone(),
            arguments: call.arguments.clone(),
        },
        Intent::ToolUpdate {
            call_id: call.id.clone(),
            text: "read 120 of 300 lines".into(),
        },
        Intent::ToolEnd {
            call_id: call.id,
            name: call.name,
            entry_id: Some(4),
            output: "# Smith\n…".into(),
            is_error: false,
            recorded: true,
        },
        Intent::RoundEnd {
            round: 1,
            stop_reason: StopReason::ToolUse,
        },
        Intent::Progress {
            id: "index".into(),
            label: "indexing the project".into(),
            done: Some(40),
            total: Some(100),
        },
        Intent::Status {
            key: "model".into(),
            value: "scripted/demo".into(),
        },
        Intent::ConfirmRequest {
            request_id: "req-1".into(),
            prompt: "Overwrite README.md?".into(),
            default: Some(false),
        },
        Intent::SelectRequest {
            request_id: "req-2".into(),
            prompt: "Which branch?".into(),
            options: vec!["main".into(), "experiment".into()],
        },
        Intent::InputRequest {
            request_id: "req-3".into(),
            prompt: "Commit message:".into(),
            secret: false,
        },
        Intent::RequestRefused {
            request_id: "req-0".into(),
            reason: "an earlier request was refused".into(),
        },
        Intent::TranscriptAppend {
            entry_id: 5,
            source: "smith".into(),
            text: "Compacted 12 entries.".into(),
        },
        Intent::CompactionStart {
            reason: smith::CompactionReason::Threshold,
            summarized: 12,
            kept: 4,
            estimated_tokens: 81_000,
            kept_tokens: Some(19_000),
        },
        Intent::CompactionEnd {
            reason: smith::CompactionReason::Threshold,
            entry_id: Some(31),
            first_kept: Some(24),
            summary: Some("The user asked to fix the parser; the tests now pass.".into()),
            usage: None,
            cost_usd: None,
            error: None,
        },
        Intent::Notice {
            level: NoticeLevel::Warning,
            text: "the answer stopped at the model's output limit".into(),
        },
        Intent::Plan {
            items: vec![
                smith::PlanItem {
                    content: "Read the parser".into(),
                    status: smith::PlanStatus::Completed,
                },
                smith::PlanItem {
                    content: "Fix the off-by-one".into(),
                    status: smith::PlanStatus::InProgress,
                },
                smith::PlanItem {
                    content: "Run the tests".into(),
                    status: smith::PlanStatus::Pending,
                },
            ],
        },
        Intent::FellBehind { session, next: 7 },
        Intent::Extension {
            capability: "terminal.image".into(),
            payload: serde_json::json!({"png": "…"}),
        },
        Intent::RunEnd {
            stop_reason: StopReason::EndTurn,
            usage: totals,
            cost_usd: None,
            error: None,
            memory: None,
        },
    ]
}
