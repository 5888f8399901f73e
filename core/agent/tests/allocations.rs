//! Exact allocation counts of deterministic paths (issue 72; spec: Performance and
//! portability → Memory accounting — "allocation-count tests assert exact counts and bounds
//! only tighten"), measured in scopes of the accounting allocator and checked against
//! `allocations.txt` beside this file: encoding 1,000 representative entries, opening a
//! 10,000-entry session, projecting a request's context, and one scripted turn's agent loop
//! (the scripted provider in process and no tool plugins: the plugin engine's allocations
//! depend on wasmtime's compiled code and its caches, so they are measured by the turn bench,
//! not counted exactly here).
//!
//! Each path runs once unmeasured first, so one-time initialisation (lazy statics, a thread's
//! first wait on a channel) is not counted. Regenerate: `BLESS=1 cargo test -p smith-agent
//! --test allocations`.

use smith::{Cancel, EntryId, Message, NoTools, SessionId};
use smith_agent::{Agent, RunLimits, Session};
use smith_memory::{Accounting, Kind, ScopeGuard};
use smith_store::{EntryHead, NewEntry, Record, SessionReader, SessionWriter, entry_payload};
use smith_testkit::allocations::{Counted, check};
use smith_ui_intents::Intent;

#[global_allocator]
static ALLOCATOR: Accounting<std::alloc::System> = Accounting::new(std::alloc::System);

/// What `f` allocated on this thread (and on threads that entered its scope), in a scope of
/// its own; `f`'s result is dropped inside the scope.
fn measured<T>(name: &'static str, mut f: impl FnMut() -> T) -> Counted {
    let (figures, ()) = prepared(|| (), |()| drop(f()));
    Counted::of(name, figures)
}

/// What `f` allocated, as [`measured`], with what `setup` makes for each run made and dropped
/// outside the scope; and what the measured run returned.
fn prepared<S, T>(
    mut setup: impl FnMut() -> S,
    mut f: impl FnMut(&mut S) -> T,
) -> (smith_memory::Figures, T) {
    let mut warm = setup();
    drop(f(&mut warm));
    let mut state = setup();
    let scope = ScopeGuard::open(Kind::Turn);
    let result = f(&mut state);
    let figures = scope.close();
    drop((warm, state));
    (figures, result)
}

fn encode_1000() -> Counted {
    let records: Vec<Record> = (0..1000).map(smith_testkit::representative).collect();
    let mut bytes = 0;
    let counted = measured("encode_1000_entries", || {
        for (i, record) in records.iter().enumerate() {
            let head = EntryHead {
                id: EntryId(i as u64 + 2),
                parent: Some(EntryId(i as u64 + 1)),
                pair: None,
                timestamp_ms: 1_700_000_000_000,
            };
            bytes += entry_payload(&head, record).unwrap().len();
        }
    });
    assert!(bytes > 0);
    counted
}

/// A session of `n` entries on one branch — user messages in changes of 100 — closed cleanly.
fn session(dir: &std::path::Path, n: usize) -> (std::path::PathBuf, SessionId, EntryId) {
    let id = SessionId::new_now();
    let mut writer = SessionWriter::create(dir, id).unwrap();
    let mut leaf = EntryId(0);
    for chunk in 0..n / 100 {
        let batch: Vec<NewEntry> = (0..100)
            .map(|i| {
                NewEntry::from(smith_testkit::message_record(Message::user_text(format!(
                    "message {:05} of the branch",
                    chunk * 100 + i
                ))))
            })
            .collect();
        leaf = *writer.append_entries(&batch).unwrap().last().unwrap();
    }
    let path = writer.path().to_owned();
    writer.close().unwrap();
    (path, id, leaf)
}

const TURN: &str = r##"
round {
    text "Reading."
    tool-call id="c1" name="read" arguments=#"{"path": "a.txt"}"#
    usage input=5 output=2
    stop "tool_use"
}
round {
    text "Done."
    usage input=9 output=1
    stop "end_turn"
}
"##;

#[test]
fn deterministic_paths_allocate_exactly_what_was_recorded() {
    let encode = encode_1000();
    let dir = tempfile::tempdir().unwrap();
    let (large, large_id, _) = session(dir.path(), 10_000);
    // Opening records the writer's holder, which names the process id: its digits vary by a
    // few bytes from one process to the next.
    let open = measured("open_10000_entry_session", || {
        Session::open(&large, large_id).unwrap()
    })
    .with_bytes_slack(16);
    let (small, _, leaf) = session(dir.path(), 400);
    let project = measured("project_400_message_context", || {
        let mut reader = SessionReader::open(&small).unwrap();
        smith_agent::project(&mut reader, Some(leaf)).unwrap()
    });
    let turns = tempfile::tempdir().unwrap();
    let model = smith_testkit::selection("scripted/t");
    // The run's own turn scope sits in its session's (opened outside the measurement): the
    // loop's figures are what the run charged to its turn, as its end reports them, and what
    // it allocated before its turn scope opened.
    let (before, memory) = prepared(
        || {
            let provider = smith_testkit::scripted(TURN, Some(turns.path()));
            let session = Session::create(turns.path(), SessionId::new_now(), None).unwrap();
            (provider, session)
        },
        |(provider, session)| {
            let mut memory = None;
            let outcome = Agent::new(&*provider, &NoTools, RunLimits::default()).run(
                session,
                &model,
                "read a.txt",
                &mut |intent| {
                    if let Intent::RunEnd { memory: m, .. } = intent {
                        memory = m.map(|m| *m);
                    }
                },
                &Cancel::new(),
            );
            assert!(outcome.error.is_none(), "{:?}", outcome.error);
            memory.expect("the turn's end carries its memory")
        },
    );
    let turn = Counted {
        name: "scripted_turn_agent_loop",
        allocations: before.allocations + memory.allocations,
        bytes: before.allocated_bytes + memory.allocated_bytes,
        bytes_slack: 0,
    };
    let counted = [encode, open, project, turn];
    let here = std::path::Path::new(env!("CARGO_MANIFEST_DIR"));
    check(
        &here.join("tests/allocations.txt"),
        &here.join("../../Cargo.lock"),
        "BLESS=1 cargo test -p smith-agent --test allocations",
        &counted,
    );
}
