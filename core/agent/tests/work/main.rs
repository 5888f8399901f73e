//! Runtime contracts with real session files and the real scripted provider (spec: Agent
//! behavior, Sessions → Submission and receipts, Work and recovery, Scoped state, Observation,
//! Access ownership). The queue policy here is a small Rust [`Lifecycle`] that exercises the
//! runtime's safe points and validation; the bundled wasm policy is tested in `core/host`.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use smith::{
    Action, Cancel, ContentBlock, ContextItem, Delivery, EntryId, HandlerReply, Lifecycle,
    LifecycleEvent, SessionId, StopReason, ToolCall, ToolContext, ToolOutput, ToolRegistry,
};
use smith_agent::{
    Access, AdmissionError, Agent, Enqueue, Inbox, ObserveError, Observer, Position, ReceiptState,
    RunLimits, Session, WithdrawError, WorkLimits,
};
use smith_ai::scripted::ScriptedProvider;
use smith_store::{EffectIntent, Record, read_session};
use smith_testkit::{kinds, scripted, selection, wait_for};
use smith_ui_intents::Intent;

/// A copy of the session file as it is at this instant: every change is durable when its
/// append returns, so this is exactly what a crash now would leave.
fn crash_image(from: &Path, to_dir: &Path) -> PathBuf {
    let to = to_dir.join(from.file_name().unwrap());
    std::fs::copy(from, &to).unwrap();
    to
}

fn model() -> smith::Selection {
    selection("scripted/t")
}

fn provider(src: &str, dir: &Path) -> ScriptedProvider {
    scripted(src, Some(dir))
}

/// The steer/follow-up policy the bundled plugin implements, as a Rust handler.
struct Policy {
    label: &'static str,
    /// Replace the policy's answer (to test validation).
    answer: Option<Vec<Action>>,
}

impl Policy {
    fn new() -> Self {
        Self {
            label: "policy@1.0.0",
            answer: None,
        }
    }
}

impl Lifecycle for Policy {
    fn queue_policy(&self) -> Option<String> {
        Some(self.label.to_owned())
    }

    fn handle(&self, event: &LifecycleEvent, _cancel: &Cancel) -> Vec<HandlerReply> {
        let actions = self.answer.clone().unwrap_or_else(|| match event {
            LifecycleEvent::ToolEnd { queued, .. } => queued
                .iter()
                .any(|q| q.delivery == Delivery::Steer)
                .then(|| Action::SkipRemaining("the user steered the work".into()))
                .into_iter()
                .collect(),
            LifecycleEvent::BatchEnd { queued, .. } => queued
                .iter()
                .filter(|q| q.delivery == Delivery::Steer)
                .map(|q| Action::Deliver(q.submission))
                .collect(),
            LifecycleEvent::Idle { queued, .. } => queued
                .iter()
                .map(|q| Action::Deliver(q.submission))
                .collect(),
        });
        vec![HandlerReply {
            handler: self.label.to_owned(),
            actions: Ok(actions),
        }]
    }
}

type Hook = Box<dyn Fn(&ToolCall, &ToolContext) + Send + Sync>;

/// Tools whose calls run `hook` (to act while a call is running) and answer `ran NAME`.
struct Tools {
    hook: Hook,
    calls: Mutex<Vec<String>>,
}

impl Tools {
    fn new(hook: impl Fn(&ToolCall, &ToolContext) + Send + Sync + 'static) -> Self {
        Self {
            hook: Box::new(hook),
            calls: Mutex::new(Vec::new()),
        }
    }
}

impl ToolRegistry for Tools {
    fn definitions(&self) -> Vec<smith::ToolDefinition> {
        vec![smith::ToolDefinition {
            name: "step".into(),
            description: "a step".into(),
            input_schema: serde_json::json!({"type": "object"}),
        }]
    }

    fn call(&self, call: &ToolCall, context: &ToolContext, _cancel: &Cancel) -> ToolOutput {
        self.calls.lock().unwrap().push(call.id.clone());
        (self.hook)(call, context);
        ToolOutput {
            output: format!("ran {}", call.id),
            is_error: false,
            structured: None,
        }
    }

    fn provenance(&self) -> Vec<String> {
        vec!["steps@1.0.0".into()]
    }
}

const THREE_CALLS: &str = r#"
round {
    tool-call id="c1" name="step" arguments="{}"
    tool-call id="c2" name="step" arguments="{}"
    tool-call id="c3" name="step" arguments="{}"
    stop "tool_use"
}
round { echo; stop "end_turn" }
round { echo; stop "end_turn" }
round { echo; stop "end_turn" }
"#;

struct Fixture {
    dir: tempfile::TempDir,
    session: Session,
    inbox_slot: Arc<Mutex<Option<Inbox>>>,
}

fn fixture() -> Fixture {
    let dir = tempfile::tempdir().unwrap();
    let session = Session::create(dir.path(), SessionId::new_now(), None).unwrap();
    Fixture {
        dir,
        session,
        inbox_slot: Arc::new(Mutex::new(None)),
    }
}

fn enqueue(inbox: &Inbox, input: &str, delivery: Delivery) -> EntryId {
    inbox
        .enqueue(Enqueue {
            model: &model(),
            input,
            delivery,
            dedup_key: None,
        })
        .unwrap()
}

/// The context recorded in a session file (one branch): its messages and tool results.
fn reopened_context(path: &Path, _id: SessionId) -> Vec<ContextItem> {
    read_session(path)
        .unwrap()
        .entries
        .into_iter()
        .filter_map(|e| match e.record {
            Record::Message(m) => Some(ContextItem::Message(m.message)),
            Record::ToolResult(r) => Some(ContextItem::ToolResult(r.result)),
            _ => None,
        })
        .collect()
}

mod continuation;
mod ownership;
mod queue;
mod recovery;
