//! What Smith's tests share, written once (ARCHITECTURE.md: only ever a dev-dependency).
//!
//! - [`selection`]: a model selection from text;
//! - [`scripted`]: the scripted provider playing a script text, its gates in a directory;
//! - [`kinds`], [`kinds_of`]: the record kinds of a session file or of entries, in order;
//! - [`wait_until`] and [`wait_for`]: polling until a condition holds, with one generous
//!   deadline ([`DEADLINE`]) for every test, so a loaded machine slows a test down instead of
//!   failing it; never a fixed sleep standing in for synchronisation;
//! - [`fake`]: an in-process provider playing planned events per request, keeping the
//!   requests, with a hook inside each call;
//! - [`allocations`]: exact allocation counts checked against a crate's recorded ones;
//! - [`large`]: a large session of ordinary tool turns, built through the store's API;
//! - [`representative`]: entry `i` of a representative mix of records;
//! - [`message_record`]: a `message` record of a message alone (no model, usage or attempt);
//! - [`run_end_record`]: the `run_end` of a run that finished its turn;
//! - [`set_format_version`]: a session file's header rewritten to another format version, by
//!   the offsets and checksum of `smith_store::format`, never by magic numbers.

pub mod allocations;
pub mod fake;
pub mod large;

use std::path::Path;
use std::time::{Duration, Instant};

use smith::Selection;
use smith_ai::scripted::{Script, ScriptedProvider};
use smith_store::format::{HEADER_CRC, HEADER_LEN, HEADER_VERSION, seal_header};

/// A `message` record holding `message` alone: no model, stop reason, usage, error or attempt
/// (a user's message, or an assistant's as a fixture needs it).
pub fn message_record(message: smith::Message) -> smith_store::Record {
    smith_store::Record::Message(smith_store::MessageRecord {
        message,
        model: None,
        stop_reason: None,
        usage: None,
        error: None,
        attempt: None,
    })
}

/// The `run_end` record of a run that finished its turn: no children, no usage, no error.
pub fn run_end_record() -> smith_store::Record {
    smith_store::Record::RunEnd(smith_store::RunEnd {
        children: Vec::new(),
        stop_reason: smith::StopReason::EndTurn,
        usage: smith::UsageTotals::default(),
        error: None,
        memory: None,
    })
}

/// How long any polled condition may take before the test fails: generous, because a loaded
/// 2-core runner may be slow, and it costs nothing when the condition holds early.
pub const DEADLINE: Duration = Duration::from_secs(60);

/// How often a polled condition is looked at.
const POLL: Duration = Duration::from_millis(2);

/// The selection `text` (e.g. `scripted/t`).
///
/// # Panics
/// When `text` is not a selection (a defect of the test).
pub fn selection(text: &str) -> Selection {
    text.parse()
        .unwrap_or_else(|e| panic!("`{text}` is not a selection: {e}"))
}

/// The scripted provider playing script `src` (origin `test.kdl`, label `t`), its gates in
/// `gates` (`None` forbids gates).
///
/// # Panics
/// When `src` is not a valid script (a defect of the test), with the script's diagnostic.
pub fn scripted(src: &str, gates: Option<&Path>) -> ScriptedProvider {
    let script = Script::parse(src, "test.kdl", "t", gates.map(Path::to_path_buf))
        .unwrap_or_else(|e| panic!("the test script is invalid: {e}"));
    ScriptedProvider::new(script)
}

/// The record kinds of the session file at `path`, in entry order.
///
/// # Panics
/// When the file cannot be read.
pub fn kinds(path: &Path) -> Vec<&'static str> {
    let read = smith_store::read_session(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    kinds_of(&read.entries)
}

/// The record kinds of `entries`, in order.
pub fn kinds_of(entries: &[smith_store::Entry]) -> Vec<&'static str> {
    entries.iter().map(|e| e.record.kind_name()).collect()
}

/// Poll `condition` until it holds.
///
/// # Panics
/// When it still does not hold after [`DEADLINE`], with `what` in the message.
pub fn wait_until(what: &str, mut condition: impl FnMut() -> bool) {
    let deadline = Instant::now() + DEADLINE;
    while !condition() {
        assert!(
            Instant::now() < deadline,
            "{what} did not happen within {DEADLINE:?}"
        );
        std::thread::sleep(POLL);
    }
}

/// Wait until `path` exists.
///
/// # Panics
/// When it does not appear within [`DEADLINE`].
pub fn wait_for(path: &Path) {
    wait_until(&format!("{} appearing", path.display()), || path.exists());
}

/// Rewrite the header of session-file bytes `file` to claim format `version`, with a valid
/// header checksum, so only the version is wrong.
///
/// # Panics
/// When `file` is shorter than a header.
pub fn set_format_version(file: &mut [u8], version: u16) {
    let header: &mut [u8; HEADER_LEN] = (&mut file[..HEADER_LEN])
        .try_into()
        .unwrap_or_else(|_| panic!("a session file starts with a {HEADER_LEN}-byte header"));
    header[HEADER_VERSION].copy_from_slice(&version.to_le_bytes());
    seal_header(header);
    debug_assert_eq!(HEADER_CRC.end, HEADER_LEN);
}

/// Every entry body of the session file at `path`, decoded (decompressed when stored
/// compressed) and concatenated: where to search for text a session must not hold. A byte
/// search of the file itself proves nothing, since large bodies are stored zstd-compressed.
///
/// # Panics
/// When the file cannot be read.
pub fn decoded_bodies(path: &Path) -> Vec<u8> {
    let read = smith_store::read_session(path)
        .unwrap_or_else(|e| panic!("cannot read {}: {e}", path.display()));
    let mut out = Vec::new();
    for entry in &read.entries {
        out.extend(
            entry
                .record
                .encode_body()
                .unwrap_or_else(|e| panic!("entry {} does not encode: {e}", entry.id.0)),
        );
        out.push(b'\n');
    }
    out
}

/// Entry `i` of a representative mix, in turn: a user prompt, assistant text with a tool call,
/// its result (what the store bench encodes and the allocation counts measure).
pub fn representative(i: usize) -> smith_store::Record {
    use smith::{ContentBlock, Message, Role, StopReason, ToolCall, ToolResult, Usage};
    use smith_store::{MessageRecord, Record, ToolResultRecord};
    match i % 3 {
        0 => Record::Message(MessageRecord {
            message: Message::user_text(format!(
                "Please look at file {i} and fix the failing test."
            )),
            model: None,
            stop_reason: None,
            usage: None,
            error: None,
            attempt: None,
        }),
        1 => Record::Message(MessageRecord {
            message: Message {
                role: Role::Assistant,
                content: vec![
                    ContentBlock::Text {
                        text: "I will read the file first, then edit the assertion.".into(),
                    },
                    ContentBlock::ToolCall(ToolCall {
                        id: format!("call_{i}"),
                        name: "read".into(),
                        arguments: serde_json::json!({"path": format!("src/file_{i}.rs"), "offset": 1, "limit": 200}),
                    }),
                ],
            },
            model: Some("scripted/demo".parse().expect("valid model")),
            stop_reason: Some(StopReason::ToolUse),
            usage: Some(Usage {
                input: Some(1200),
                output: Some(80),
                cache_read: Some(1000),
                cache_write: None,
            }),
            error: None,
            attempt: None,
        }),
        _ => Record::ToolResult(ToolResultRecord {
            result: ToolResult {
                call_id: format!("call_{i}"),
                name: "read".into(),
                output: "fn main() {\n    println!(\"hello\");\n}\n".repeat(8),
                is_error: false,
            },
        }),
    }
}
