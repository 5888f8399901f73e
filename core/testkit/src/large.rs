//! The large-session fixture: a session file of ordinary tool turns, built quickly through the
//! store's public API (never a production command), for tests and benches of working-set
//! bounds (issue "Large sessions stay fast and safe").
//!
//! Each turn is what a real `read` tool turn records, kind for kind and pair for pair:
//! `submission`, (`model_change` once), the user `message`, an `attempt`, the assistant
//! `message` with one `read` tool call, the `effect_intent`, the `effect_completion` and the
//! `tool_result` — both carrying the file's content — a `checkpoint`, a second `attempt`, the
//! final assistant `message` and the `run_end` paired with its submission. The content is
//! printable pseudo-random bytes from a fixed seed, so zstd cannot shrink the file much and two
//! builds of one shape are alike. Turns are written many to a committed change (one fsync per
//! change), each change within the format's bounds.

use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};
use smith::{
    ContentBlock, EffectCompletion, EffectIntent, EffectOutcome, EntryId, Message, Role, Selection,
    SessionId, StopReason, ToolCall, ToolResult, Usage, UsageTotals,
};
use smith_store::{
    Checkpoint, MessageRecord, ModelChange, NewEntry, Record, RunEnd, SessionStart, SessionWriter,
    Submission, ToolResultRecord,
};

/// What [`large_session`] builds.
#[derive(Clone, Copy, Debug)]
pub struct Shape {
    /// Bytes of file content each turn's `read` returns (stored twice: in the effect completion
    /// and in the tool result).
    pub result_bytes: usize,
    /// Stop adding turns once the file is at least this long, in bytes.
    pub file_bytes: u64,
    /// Put the bulk on a side branch: after it, the first entry is selected again and one
    /// small turn continues from there, so the selected branch is short and the bulk lies on
    /// a branch it does not include.
    pub bulk_off_branch: bool,
    /// End the selected branch with a compaction whose summary stands for every turn but
    /// the last (kept verbatim) and which carries the state from before its boundary — a
    /// session compacted at its end, whose next request holds the summary and one turn.
    /// Each turn is then committed as a change of its own (one fsync per turn).
    pub compacted: bool,
}

/// A built large session.
#[derive(Debug)]
pub struct Large {
    /// Its file.
    pub path: PathBuf,
    /// Its id.
    pub id: SessionId,
    /// How many turns it holds (the small one on the selected branch included).
    pub turns: usize,
    /// Its largest entry id.
    pub last_id: u64,
    /// Its selected leaf.
    pub leaf: EntryId,
}

/// The model every turn records.
pub const MODEL: &str = "scripted/tool-call";

/// Build a session of `shape` in `dir` (which must exist), recording working directory
/// `cwd`.
///
/// # Panics
/// When the store refuses a write (a defect of the fixture or a full disk).
pub fn large_session(dir: &Path, shape: Shape, cwd: &str) -> Large {
    let id = SessionId::new_now();
    let mut writer = SessionWriter::create(dir, id).expect("create the session file");
    writer
        .append(&[Record::SessionStart(SessionStart {
            smith_version: "0.1.0".to_owned(),
            cwd: Some(cwd.to_owned()),
            imported: None,
        })])
        .expect("write the session start");
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut turns = 0;
    let mut batch = Vec::new();
    let mut batch_bytes = 0;
    let mut next = 2u64;
    let mut leaf = 1u64;
    // The first entry of the newest turn on the selected branch.
    let mut last_turn = EntryId(2);
    let flush = |writer: &mut SessionWriter, batch: &mut Vec<NewEntry>| {
        writer
            .append_entries(batch)
            .expect("append a batch of turns");
        batch.clear();
    };
    while std::fs::metadata(writer.path()).map_or(0, |m| m.len()) < shape.file_bytes {
        let content = printable(&mut seed, shape.result_bytes);
        let entries = turn(next, leaf, turns, turns == 0, content);
        last_turn = EntryId(next);
        next += entries.len() as u64;
        leaf = next - 1;
        batch_bytes += 2 * shape.result_bytes;
        batch.extend(entries);
        turns += 1;
        // A compacted session commits each turn as a change of its own, as a live session
        // does (at least): a reader validating a kept entry checks the heads of its change
        // alone, not those of a bulk change.
        if shape.compacted || batch_bytes >= 8 << 20 || batch.len() >= 900 {
            flush(&mut writer, &mut batch);
            batch_bytes = 0;
        }
    }
    flush(&mut writer, &mut batch);
    if shape.bulk_off_branch {
        writer.select(EntryId(1)).expect("select the first entry");
        let small = turn(next, 1, turns, true, printable(&mut seed, 512));
        last_turn = EntryId(next);
        next += small.len() as u64;
        writer
            .append_entries(&small)
            .expect("append the small turn");
        turns += 1;
    }
    if shape.compacted {
        assert!(turns > 0, "a compacted shape needs a turn to keep");
        writer
            .append(&[compaction(last_turn)])
            .expect("append the compaction");
        next += 1;
    }
    let leaf = writer.leaf().expect("the session has entries");
    writer.close().expect("close the session");
    Large {
        path: dir.join(smith_store::file_name(&id)),
        id,
        turns,
        last_id: next - 1,
        leaf,
    }
}

/// A compaction keeping the turn whose submission is `turn` (its user message is the first
/// kept entry) and carrying the model every turn uses.
fn compaction(turn: EntryId) -> Record {
    Record::Compaction(smith_store::Compaction {
        summary: "Earlier, the README was read many times; it did not change.".to_owned(),
        // After the submission: the user message (or a first turn's model change before it).
        first_kept: Some(EntryId(turn.0 + 1)),
        attempt: None,
        usage: None,
        carried: Some(smith_store::Carried {
            model: Some(MODEL.parse().expect("a valid selection")),
            ..smith_store::Carried::default()
        }),
        started: None,
    })
}

/// `len` printable ASCII bytes from the xorshift generator at `seed`.
fn printable(seed: &mut u64, len: usize) -> String {
    (0..len)
        .map(|_| {
            *seed ^= *seed << 13;
            *seed ^= *seed >> 7;
            *seed ^= *seed << 17;
            char::from(b' ' + (*seed % 95) as u8)
        })
        .collect()
}

/// The entries of turn `n`, ids from `first`, its submission admitted onto `onto`.
fn turn(first: u64, onto: u64, n: usize, model_change: bool, content: String) -> Vec<NewEntry> {
    let selection: Selection = MODEL.parse().expect("a valid selection");
    let model: smith::ModelRef = MODEL.parse().expect("a valid model");
    let input = format!("Read the README again ({n})");
    let submission = EntryId(first);
    let mut id = first;
    let mut out = Vec::new();
    let mut push = |record: Record, pair: Option<EntryId>| {
        out.push(NewEntry { record, pair });
        id += 1;
        EntryId(id - 1)
    };
    push(
        Record::Submission(Submission {
            session: None,
            dedup_key: None,
            content_sha256: content_sha256(&selection, &input),
            destination: Some(EntryId(onto)),
            explicit_destination: false,
            model: selection.clone(),
            input: input.clone(),
            owner: None,
            delivery: None,
            policy: None,
            attachments: Vec::new(),
        }),
        None,
    );
    if model_change {
        push(
            Record::ModelChange(ModelChange {
                model: selection.clone(),
            }),
            None,
        );
    }
    push(message(Message::user_text(input), None, None, None), None);
    let attempt = push(attempt_record(1, &model), None);
    let call_id = format!("call_{n}");
    let call = push(
        message(
            Message {
                role: Role::Assistant,
                content: vec![
                    ContentBlock::Text {
                        text: "Let me read the README first.".to_owned(),
                    },
                    ContentBlock::ToolCall(ToolCall {
                        id: call_id.clone(),
                        name: "read".to_owned(),
                        arguments: serde_json::json!({"path": "README.md"}),
                    }),
                ],
            },
            Some(&model),
            Some(StopReason::ToolUse),
            Some(attempt),
        ),
        None,
    );
    let effect_id = format!("{call_id}/1");
    let intent = push(
        Record::EffectIntent(EffectIntent {
            effect_id: effect_id.clone(),
            call_id: call_id.clone(),
            plugin: "files@0.1.0#1".to_owned(),
            tool: "read".to_owned(),
            effect: "fs.read".to_owned(),
            target: Some("README.md".to_owned()),
            input: serde_json::json!({"path": "README.md", "offset": 1, "limit": 2000}),
        }),
        Some(call),
    );
    push(
        Record::EffectCompletion(EffectCompletion {
            effect_id,
            outcome: EffectOutcome::Applied,
            output: content.clone().into_bytes(),
            evidence: serde_json::Value::Null,
        }),
        Some(intent),
    );
    push(
        Record::ToolResult(ToolResultRecord {
            result: ToolResult {
                call_id,
                name: "read".to_owned(),
                output: content,
                is_error: false,
            },
        }),
        Some(call),
    );
    push(
        Record::Checkpoint(Checkpoint {
            round: 1,
            phase: "tool_batch_complete".to_owned(),
            requires: vec!["files@0.1.0".to_owned()],
            model: None,
            tools: Vec::new(),
        }),
        Some(submission),
    );
    let attempt = push(attempt_record(2, &model), None);
    push(
        message(
            Message {
                role: Role::Assistant,
                content: vec![ContentBlock::Text {
                    text: "I have read the README.".to_owned(),
                }],
            },
            Some(&model),
            Some(StopReason::EndTurn),
            Some(attempt),
        ),
        None,
    );
    push(
        Record::RunEnd(RunEnd {
            children: Vec::new(),
            stop_reason: StopReason::EndTurn,
            usage: UsageTotals {
                responses: 2,
                usage: usage(),
            },
            error: None,
            memory: None,
        }),
        Some(submission),
    );
    out
}

fn usage() -> Usage {
    Usage {
        input: Some(40),
        output: Some(16),
        cache_read: None,
        cache_write: None,
    }
}

fn message(
    message: Message,
    model: Option<&smith::ModelRef>,
    stop_reason: Option<StopReason>,
    attempt: Option<EntryId>,
) -> Record {
    Record::Message(MessageRecord {
        message,
        model: model.cloned(),
        stop_reason,
        usage: model.map(|_| usage()),
        error: None,
        attempt,
    })
}

fn attempt_record(round: u32, model: &smith::ModelRef) -> Record {
    Record::Attempt(Box::new(smith::Attempt {
        round,
        number: 1,
        selection: MODEL.to_owned(),
        model: model.clone(),
        account: None,
        thinking: None,
        routing: smith::Routing {
            source: smith::RouteSource::Direct,
            path: vec![MODEL.to_owned()],
            position: 1,
            of: 1,
            skipped: Vec::new(),
        },
        after: None,
        capabilities: None,
        generation: "scripted".to_owned(),
        output_limit: None,
    }))
}

/// SHA-256 (hex) of the model reference, a NUL byte and the input: a submission's content
/// hash as the agent computes it (`Submission::content_sha256`).
fn content_sha256(model: &Selection, input: &str) -> String {
    let mut hash = Sha256::new();
    hash.update(model.to_string().as_bytes());
    hash.update([0]);
    hash.update(input.as_bytes());
    hash.finalize().iter().map(|b| format!("{b:02x}")).collect()
}

/// Bytes process `pid` has read through `read(2)` and its kin (Linux `rchar` of
/// `/proc/PID/io`): what a counting reader under every file it opens would count. The process
/// may have exited and not been reaped yet (a zombie keeps its counters until it is waited
/// for).
///
/// # Panics
/// Where `/proc/PID/io` cannot be read.
pub fn bytes_read_by(pid: u32) -> u64 {
    rchar(&format!("/proc/{pid}/io"))
}

fn rchar(file: &str) -> u64 {
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| panic!("cannot read {file}: {e}"));
    text.lines()
        .find_map(|l| l.strip_prefix("rchar:"))
        .and_then(|v| v.trim().parse().ok())
        .unwrap_or_else(|| panic!("{file} has no rchar line"))
}
