//! The storage worker: a session's committed records read from the file on a thread of its
//! own and turned into the intents a live run emits, so history and live work fold into one
//! transcript (the render loop never touches files — DESIGN §10). A writer reads its
//! selected branch once at start; an observer follows every record the writer commits
//! while follow-live is on, and holds while it is off.

use std::ops::ControlFlow;
use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use smith::{ContentBlock, Role, SessionId};
use smith_store::{Entry, Record, SessionReader};
use smith_ui_intents::{Intent, NoticeLevel};

use crate::event::{Event, Events};

/// How often an observed file is looked at for new commits.
const POLL: Duration = Duration::from_millis(50);

/// Entries read per batch sent to the render loop.
const BATCH: usize = 256;

/// The intents a live run would have emitted for `entry` (none for records the transcript
/// does not show: attempts, effects, checkpoints, requests).
pub fn entry_intents(entry: &Entry) -> Vec<Intent> {
    let id = entry.id.0;
    match &entry.record {
        Record::Message(m) => {
            let mut out = vec![Intent::MessageEnd {
                message_id: id,
                entry_id: Some(id),
                message: m.message.clone(),
                stop_reason: m.stop_reason,
                usage: m.usage,
                recorded: true,
            }];
            if m.message.role == Role::Assistant {
                for block in &m.message.content {
                    if let ContentBlock::ToolCall(call) = block {
                        out.push(Intent::ToolStart {
                            call_id: call.id.clone(),
                            name: call.name.clone(),
                            arguments: call.arguments.clone(),
                        });
                    }
                }
            }
            out
        }
        Record::ToolResult(r) => vec![Intent::ToolEnd {
            call_id: r.result.call_id.clone(),
            name: r.result.name.clone(),
            entry_id: Some(id),
            output: r.result.output.clone(),
            is_error: r.result.is_error,
            recorded: true,
        }],
        Record::RunEnd(end) => vec![Intent::RunEnd {
            stop_reason: end.stop_reason,
            usage: end.usage,
            cost_usd: None,
            error: end.error.clone(),
        }],
        Record::Abort(a) => vec![Intent::Notice {
            level: NoticeLevel::Warning,
            text: format!("abort requested: {}", a.reason),
        }],
        _ => Vec::new(),
    }
}

/// Read the selected branch of the session at `path` (root first) and send its intents.
pub(crate) fn load_branch(path: PathBuf, events: Events) {
    std::thread::spawn(move || {
        let result = (|| {
            let mut reader = SessionReader::open(&path)?;
            let Some(leaf) = reader.state().leaf_id() else {
                return Ok((Vec::new(), None));
            };
            let mut branch = reader.branch(leaf, usize::MAX)?;
            branch.reverse();
            // What the branch cost so far, from its records (each response once, at the
            // prices its attempt recorded), so a resumed session's status line has it.
            let cost_usd = smith_agent::account(branch.iter()).cost_usd;
            let intents = branch.iter().flat_map(entry_intents).collect();
            Ok::<_, smith_store::Error>((intents, cost_usd))
        })();
        events.send(match result {
            Ok((intents, cost_usd)) => Event::History { intents, cost_usd },
            Err(e) => Event::Notice(
                NoticeLevel::Error,
                format!("the session's history cannot be shown: {e}"),
            ),
        });
    });
}

/// Follow session `id` at `path` from its first entry: batches of intents while `live` is
/// set; paused (nothing read) while it is not; ended when `stop` is set.
pub(crate) fn follow(
    path: PathBuf,
    id: SessionId,
    live: Arc<AtomicBool>,
    stop: Arc<AtomicBool>,
    events: Events,
) {
    std::thread::spawn(move || {
        let mut follow = match smith_app::inspect::Follow::start(&path, id, None) {
            Ok(f) => f,
            Err(e) => {
                events.send(Event::Notice(
                    NoticeLevel::Error,
                    format!("the session cannot be observed: {e}"),
                ));
                return;
            }
        };
        while !stop.load(Ordering::SeqCst) {
            if live.load(Ordering::SeqCst) {
                let mut batch = Vec::new();
                let polled = follow.poll(&mut |entry| {
                    batch.extend(entry_intents(entry));
                    if batch.len() >= BATCH {
                        events.send(Event::Observed(std::mem::take(&mut batch)));
                    }
                    ControlFlow::Continue(())
                });
                if !batch.is_empty() {
                    events.send(Event::Observed(batch));
                }
                match polled {
                    Ok(p) => {
                        if let Some((a, b)) = p.withheld {
                            events.send(Event::Notice(
                                NoticeLevel::Warning,
                                format!("entries {a}..={b} lie in a damaged change and are not shown; `smith sessions verify {id}` has the details"),
                            ));
                            return;
                        }
                        if p.idle {
                            events.send(Event::WriterGone);
                        }
                    }
                    Err(e) => {
                        events.send(Event::Notice(
                            NoticeLevel::Error,
                            format!("observing the session stopped: {e}"),
                        ));
                        return;
                    }
                }
            }
            std::thread::sleep(POLL);
        }
    });
}

#[cfg(test)]
mod tests {
    use super::*;
    use smith::{EntryId, Message, StopReason, ToolCall, ToolResult};
    use smith_store::{MessageRecord, ToolResultRecord};

    fn entry(id: u64, record: Record) -> Entry {
        Entry {
            id: EntryId(id),
            parent: None,
            pair: None,
            timestamp_ms: 0,
            record,
        }
    }

    #[test]
    fn messages_tool_calls_and_results_become_the_live_intents() {
        let call = ToolCall {
            id: "c1".into(),
            name: "read".into(),
            arguments: serde_json::json!({"path": "a.txt"}),
        };
        let assistant = Message {
            role: Role::Assistant,
            content: vec![
                ContentBlock::Text {
                    text: "reading".into(),
                },
                ContentBlock::ToolCall(call),
            ],
        };
        let record = Record::Message(MessageRecord {
            message: assistant,
            model: None,
            stop_reason: Some(StopReason::ToolUse),
            usage: None,
            error: None,
            attempt: None,
        });
        let intents = entry_intents(&entry(3, record));
        assert!(matches!(
            &intents[0],
            Intent::MessageEnd { message_id: 3, .. }
        ));
        assert!(
            matches!(&intents[1], Intent::ToolStart { call_id, name, .. } if call_id == "c1" && name == "read")
        );
        let result = Record::ToolResult(ToolResultRecord {
            result: ToolResult {
                call_id: "c1".into(),
                name: "read".into(),
                output: "hello".into(),
                is_error: false,
            },
        });
        let intents = entry_intents(&entry(4, result));
        assert!(
            matches!(&intents[0], Intent::ToolEnd { output, entry_id: Some(4), .. } if output == "hello")
        );
        let mut t = smith_render_terminal::transcript::Transcript::new();
        for i in entry_intents(&entry(
            3,
            Record::Abort(smith_store::Abort {
                reason: "Esc".into(),
            }),
        )) {
            t.apply(&i);
        }
        assert_eq!(t.blocks().len(), 1);
    }
}
