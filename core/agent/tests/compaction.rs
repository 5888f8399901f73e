//! Properties of compaction's boundary and of the projection across a compaction
//! (SMH-SPEC-SPEC0001: Compaction, cost, and secrets; Sessions → Effective request context;
//! plan SMH-PLAN-99TPLN9I B2), over random histories written to real session files — turns with
//! parallel tool batches, interrupted calls answered by error results, and context edits
//! through the validated edit path: every boundary the compactor picks keeps each tool result
//! with its call and at least the recent context asked for; the projection after the
//! compaction record is its summary and then exactly the kept items, valid under the pairing
//! rules every vendor codec relies on; the branch selected before the compaction projects as
//! if it never happened; an edit of a summarized entry is refused.

use proptest::prelude::*;
use smith::{ContentBlock, ContextItem, EntryId, Message, Role, SessionId, ToolCall, ToolResult};
use smith_agent::{EditError, Session};
use smith_store::{
    Compaction, EditChange, EditOp, NewEntry, Record, SessionReader, SessionWriter,
    ToolResultRecord,
};
use smith_testkit::message_record as message;
use smith_testkit::run_end_record as run_end;

/// One turn: its user text, its tool batches (each the output lengths of its parallel calls),
/// and whether its last batch was interrupted (answered by "interrupted" error results).
#[derive(Clone, Debug)]
struct Turn {
    text: String,
    batches: Vec<Vec<usize>>,
    interrupted: bool,
}

fn turns() -> impl Strategy<Value = Vec<Turn>> {
    let turn = (
        "[a-z]{1,12}",
        proptest::collection::vec(proptest::collection::vec(0usize..600, 1..4), 0..3),
        any::<bool>(),
    )
        .prop_map(|(text, batches, interrupted)| Turn {
            text,
            batches,
            interrupted,
        });
    proptest::collection::vec(turn, 1..10)
}

/// Write `turns` to a new session in `dir`; its path and id, and the tool results' entries.
fn write(dir: &std::path::Path, turns: &[Turn]) -> (std::path::PathBuf, SessionId, Vec<EntryId>) {
    let id = SessionId::new_now();
    let mut w = SessionWriter::create(dir, id).unwrap();
    let mut results = Vec::new();
    for (t, turn) in turns.iter().enumerate() {
        w.append(&[message(Message::user_text(&turn.text))])
            .unwrap();
        for (b, batch) in turn.batches.iter().enumerate() {
            let calls: Vec<ContentBlock> = (0..batch.len())
                .map(|c| {
                    ContentBlock::ToolCall(ToolCall {
                        id: format!("call_{t}_{b}_{c}"),
                        name: "read".into(),
                        arguments: serde_json::json!({"path": format!("f{c}")}),
                    })
                })
                .collect();
            let call = w
                .append(&[message(Message {
                    role: Role::Assistant,
                    content: calls,
                })])
                .unwrap()[0];
            let cut = turn.interrupted && b + 1 == turn.batches.len();
            let batch: Vec<NewEntry> = batch
                .iter()
                .enumerate()
                .map(|(c, len)| NewEntry {
                    record: Record::ToolResult(ToolResultRecord {
                        result: ToolResult {
                            call_id: format!("call_{t}_{b}_{c}"),
                            name: "read".into(),
                            output: if cut {
                                "interrupted: an earlier run ended before this call completed"
                                    .into()
                            } else {
                                "r".repeat(*len)
                            },
                            is_error: cut,
                        },
                    }),
                    pair: Some(call),
                })
                .collect();
            results.extend(w.append_entries(&batch).unwrap());
        }
        w.append(&[
            message(Message {
                role: Role::Assistant,
                content: vec![ContentBlock::Text {
                    text: format!("done {t}"),
                }],
            }),
            run_end(),
        ])
        .unwrap();
    }
    let path = w.path().to_owned();
    w.close().unwrap();
    (path, id, results)
}

fn project(path: &std::path::Path, leaf: EntryId) -> smith_agent::Projection {
    smith_agent::project(&mut SessionReader::open(path).unwrap(), Some(leaf)).unwrap()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 48, ..ProptestConfig::default() })]

    #[test]
    fn a_compaction_keeps_pairs_whole_and_the_recent_context_verbatim(
        turns in turns(),
        replaced in proptest::collection::vec(any::<usize>(), 0..3),
        keep_tokens in 1u64..200,
        carry in any::<bool>(),
    ) {
        let dir = tempfile::tempdir().unwrap();
        let (path, id, results) = write(dir.path(), &turns);
        let mut session = Session::open(&path, id).unwrap().session;
        // Context edits through the validated path: some tool outputs replaced.
        let mut edits: Vec<EditOp> = Vec::new();
        for n in replaced {
            if results.is_empty() {
                break;
            }
            let target = results[n % results.len()];
            if edits.iter().all(|e| e.target != target) {
                edits.push(EditOp { target, change: EditChange::Replace("(elided)".into()) });
            }
        }
        if !edits.is_empty() {
            session.edit_context(edits).unwrap();
        }
        let before = session.context().unwrap().to_vec();
        let before_entries = session.context_entries().unwrap().to_vec();
        smith::check_pairing(&before).unwrap();
        let Some(chosen) = smith_agent::compaction_boundary(&before, keep_tokens) else {
            // Nothing to summarize: the whole context is within `keep_tokens`, or every item
            // after the first up to where the recent tail starts is a tool result.
            let mut tail = 0;
            let start = before.iter().rposition(|item| {
                tail += item.estimated_tokens();
                tail >= keep_tokens
            });
            if let Some(start) = start {
                let candidates = if start == 0 { &before[..0] } else { &before[1..=start] };
                prop_assert!(
                    candidates.iter().all(|i| matches!(i, ContextItem::ToolResult(_))),
                    "a message at or before {start} could have been the boundary"
                );
            }
            return Ok(());
        };
        let first = chosen.index;
        prop_assert!(first >= 1 && first < before.len());
        prop_assert!(matches!(before[first], ContextItem::Message(_)), "the boundary is a message");
        let tail = |i: usize| -> u64 { before[i..].iter().map(ContextItem::estimated_tokens).sum() };
        let kept = tail(first);
        prop_assert!(kept >= keep_tokens);
        prop_assert_eq!(kept, chosen.kept_tokens);
        // Near what was asked: at most 1.5 × keep-tokens, unless no later message keeps
        // enough (the first kept batch is that large by itself), which is said.
        let bound = keep_tokens + keep_tokens / 2;
        prop_assert_eq!(chosen.oversized, kept > bound);
        if chosen.oversized {
            let later = (first + 1..before.len())
                .find(|&j| matches!(before[j], ContextItem::Message(_)) && tail(j) >= keep_tokens);
            prop_assert!(later.is_none(), "message {later:?} keeps less and enough");
        }
        // A turn's start is kept whole when that is within the bound.
        let latest_turn = (1..before.len()).rev().find(|&j| {
            matches!(&before[j], ContextItem::Message(m) if m.role == smith::Role::User)
                && tail(j) >= keep_tokens
        });
        if let Some(turn) = latest_turn.filter(|&t| tail(t) <= bound) {
            prop_assert_eq!(first, turn, "the turn starting at {} fits", turn);
        }
        drop(session);

        let mut w = SessionWriter::open(&path, id).unwrap().0;
        let leaf_before = w.leaf().unwrap();
        // Carrying the state before it, as the agent records it: the projection then stops
        // at the boundary, and must give what the whole walk gives.
        let full = project(&path, leaf_before);
        let compaction = w.append(&[Record::Compaction(Compaction {
            summary: "Summary of the earlier conversation.".into(),
            first_kept: Some(before_entries[first]),
            attempt: None,
            usage: None,
            started: None,
            carried: carry.then(|| smith_store::Carried {
                model: full.model.clone(),
                secrets: full.registered.iter().cloned().collect(),
                open: Vec::new(),
                permission_mode: None,
            }),
        })]).unwrap()[0];
        w.close().unwrap();

        let after = project(&path, compaction);
        let mut expected = vec![ContextItem::Message(Message::user_text(
            "Summary of the earlier conversation.",
        ))];
        expected.extend_from_slice(&before[first..]);
        prop_assert_eq!(&after.items, &expected);
        prop_assert_eq!(after.entries[0], compaction);
        prop_assert_eq!(&after.entries[1..], &before_entries[first..]);
        prop_assert_eq!(after.compaction, Some((compaction, Some(before_entries[first]))));
        prop_assert_eq!(&after.model, &full.model);
        prop_assert_eq!(&after.registered, &full.registered);
        smith::check_pairing(&after.items).unwrap();
        // The session opened again sees the same; the branch before the compaction projects
        // as if it never happened.
        let mut reopened = Session::open(&path, id).unwrap().session;
        prop_assert_eq!(reopened.context().unwrap(), expected.as_slice());
        prop_assert_eq!(project(&path, leaf_before).items, before.clone());
        // An entry the summary stands for cannot be edited any more.
        let summarized = before_entries[first - 1];
        let refused = reopened.edit_context(vec![EditOp {
            target: summarized,
            change: EditChange::Omit,
        }]);
        prop_assert!(
            matches!(refused, Err(EditError::Compacted { target, compaction: c }) if target == summarized && c == compaction),
            "{refused:?}"
        );
    }
}

/// An attempt on `model` priced at $1 per million input tokens and $2 per million output.
fn priced_attempt(model: &str) -> Record {
    let model: smith::ModelRef = model.parse().unwrap();
    let mut info = smith::ModelInfo::unknown(
        model.clone(),
        smith::Source {
            id: "test".into(),
            title: "prices written for this test".into(),
            date: None,
        },
    );
    info.price = Some(smith::Price {
        input: Some(1.0),
        output: Some(2.0),
        cache_read: None,
        cache_write: None,
    });
    Record::Attempt(Box::new(smith::Attempt {
        round: 1,
        number: 1,
        selection: model.to_string(),
        model,
        account: None,
        thinking: None,
        routing: smith::Routing {
            source: smith::RouteSource::Direct,
            path: vec!["scripted/t".into()],
            position: 1,
            of: 1,
            skipped: Vec::new(),
        },
        after: None,
        capabilities: Some(info),
        generation: "test".into(),
        output_limit: None,
    }))
}

/// Spec: Compaction, cost, and secrets — cost accounting includes compaction; each usage
/// observation counts once. A session with one priced answer and one priced compaction, read
/// back from its file: the compaction is its attempt's response, and the totals hold both
/// once.
#[test]
fn a_compactions_usage_is_counted_once_at_its_attempts_prices() {
    let dir = tempfile::tempdir().unwrap();
    let id = SessionId::new_now();
    let mut w = SessionWriter::create(dir.path(), id).unwrap();
    let usage = |input, output| smith::Usage {
        input: Some(input),
        output: Some(output),
        cache_read: Some(0),
        cache_write: Some(0),
    };
    w.append(&[message(Message::user_text("hello"))]).unwrap();
    let answered = w.append(&[priced_attempt("scripted/t")]).unwrap()[0];
    w.append(&[Record::Message(smith_store::MessageRecord {
        message: Message {
            role: Role::Assistant,
            content: vec![ContentBlock::Text { text: "hi".into() }],
        },
        model: Some("scripted/t".parse().unwrap()),
        stop_reason: Some(smith::StopReason::EndTurn),
        usage: Some(usage(1_000, 100)),
        error: None,
        attempt: Some(answered),
    })])
    .unwrap();
    let summarized = w.append(&[priced_attempt("scripted/t")]).unwrap()[0];
    let compaction = w
        .append(&[Record::Compaction(Compaction {
            summary: "The user said hello.".into(),
            first_kept: None,
            attempt: Some(summarized),
            usage: Some(usage(2_000, 300)),
            started: None,
            carried: None,
        })])
        .unwrap()[0];
    let path = w.path().to_owned();
    w.close().unwrap();
    let entries = smith_store::read_session(&path).unwrap().entries;
    let accounts = smith_agent::account(&entries);
    assert_eq!(accounts.total.responses, 2);
    assert_eq!(accounts.total.usage.input, Some(3_000));
    assert_eq!(accounts.total.usage.output, Some(400));
    let of = |attempt: EntryId| {
        accounts
            .attempts
            .iter()
            .find(|a| a.attempt == attempt.0)
            .unwrap()
    };
    assert_eq!(of(summarized).message, Some(compaction.0));
    let cost = of(summarized).cost_usd.unwrap();
    assert!(
        (cost - (2_000.0 * 1.0 + 300.0 * 2.0) / 1e6).abs() < 1e-12,
        "{cost}"
    );
    let total = accounts.cost_usd.unwrap();
    assert!((total - 0.0012 - 0.0026).abs() < 1e-12, "{total}");
}
