//! Properties of the projection and of context edits (SMH-SPEC-SPEC0001: Sessions → Effective
//! request context, Context edits; plan SMH-PLAN-99TPLN9I B1, B2), over random session trees
//! written to real files: each branch projects exactly its own ancestry with the latest edit
//! of each target applied (ancestry isolation, latest-edit precedence); a refused batch leaves
//! the file and the projection byte-identical; reopening projects the same context.

use proptest::prelude::*;
use smith::{ContextItem, EntryId, Message, SessionId};
use smith_agent::Session;
use smith_store::{EditChange, EditOp, MessageRecord, Record, SessionReader, SessionWriter};
use smith_testkit::run_end_record as run_end;

/// One step of building a session tree.
#[derive(Clone, Debug)]
enum Step {
    /// A user message at the selected leaf, and the end of its run (so no open work is
    /// settled on the next open).
    Message(String),
    /// Select the end of the n-th run written so far (modulo their count) as the leaf.
    Select(usize),
    /// An edit batch of the selected branch: for each (n, replace), the n-th message of the
    /// branch (modulo its length), omitted or replaced.
    Edit(Vec<(usize, Option<String>)>),
}

fn steps() -> impl Strategy<Value = Vec<Step>> {
    let step = prop_oneof![
        4 => "[a-z]{1,8}".prop_map(Step::Message),
        1 => any::<usize>().prop_map(Step::Select),
        2 => proptest::collection::vec(
            (any::<usize>(), proptest::option::of("[A-Z]{1,6}")),
            1..4
        )
        .prop_map(Step::Edit),
    ];
    proptest::collection::vec(step, 1..24)
}

fn user(text: &str) -> Record {
    Record::Message(MessageRecord {
        message: Message::user_text(text),
        model: None,
        stop_reason: None,
        usage: None,
        error: None,
        attempt: None,
    })
}

/// The model: each entry's parent, and what it is.
#[derive(Clone, Debug)]
enum Node {
    Start,
    Message(String),
    RunEnd,
    Edit(Vec<(EntryId, Option<String>)>),
}

struct Model {
    nodes: Vec<(Option<EntryId>, Node)>,
    leaf: EntryId,
}

impl Model {
    fn ancestry(&self, leaf: EntryId) -> Vec<EntryId> {
        let mut out = Vec::new();
        let mut at = Some(leaf);
        while let Some(id) = at {
            out.push(id);
            at = self.nodes[id.0 as usize - 1].0;
        }
        out.reverse();
        out
    }

    /// The texts the model sees at `leaf`: its ancestry's messages, each with the latest
    /// edit of its ancestry applied.
    fn expected(&self, leaf: EntryId) -> Vec<String> {
        let ancestry = self.ancestry(leaf);
        let mut latest: std::collections::HashMap<EntryId, Option<String>> = Default::default();
        for id in &ancestry {
            if let Node::Edit(edits) = &self.nodes[id.0 as usize - 1].1 {
                for (target, change) in edits {
                    latest.insert(*target, change.clone());
                }
            }
        }
        ancestry
            .iter()
            .filter_map(|id| match &self.nodes[id.0 as usize - 1].1 {
                Node::Message(text) => match latest.get(id) {
                    None => Some(text.clone()),
                    Some(None) => None,
                    Some(Some(replacement)) => Some(replacement.clone()),
                },
                _ => None,
            })
            .collect()
    }

    fn branch_messages(&self) -> Vec<EntryId> {
        self.ancestry(self.leaf)
            .into_iter()
            .filter(|id| matches!(self.nodes[id.0 as usize - 1].1, Node::Message(_)))
            .collect()
    }
}

fn texts(items: &[ContextItem]) -> Vec<String> {
    items
        .iter()
        .map(|i| match i {
            ContextItem::Message(m) => m.text(),
            ContextItem::ToolResult(r) => r.output.clone(),
        })
        .collect()
}

/// Build the session `steps` describe in `dir`, edits through [`Session::edit_context`].
fn build(dir: &std::path::Path, steps: &[Step]) -> (std::path::PathBuf, SessionId, Model) {
    let id = SessionId::new_now();
    let session = Session::create(dir, id, None).unwrap();
    let path = session.path().to_owned();
    session.close().unwrap();
    let mut model = Model {
        nodes: vec![(None, Node::Start)],
        leaf: EntryId(1),
    };
    for step in steps {
        match step {
            Step::Message(text) => {
                let (mut w, _) = SessionWriter::open(&path, id).unwrap();
                let ids = w.append(&[user(text), run_end()]).unwrap();
                w.close().unwrap();
                model
                    .nodes
                    .push((Some(model.leaf), Node::Message(text.clone())));
                model.nodes.push((Some(ids[0]), Node::RunEnd));
                model.leaf = ids[1];
            }
            Step::Select(n) => {
                let messages: Vec<EntryId> = (1..=model.nodes.len() as u64)
                    .map(EntryId)
                    .filter(|e| matches!(model.nodes[e.0 as usize - 1].1, Node::RunEnd))
                    .collect();
                if messages.is_empty() {
                    continue;
                }
                let target = messages[n % messages.len()];
                let (mut w, _) = SessionWriter::open(&path, id).unwrap();
                w.select(target).unwrap();
                w.close().unwrap();
                model.leaf = target;
            }
            Step::Edit(edits) => {
                let branch = model.branch_messages();
                if branch.is_empty() {
                    continue;
                }
                let mut ops: Vec<(EntryId, Option<String>)> = Vec::new();
                for (n, change) in edits {
                    let target = branch[n % branch.len()];
                    if !ops.iter().any(|(t, _)| *t == target) {
                        ops.push((target, change.clone()));
                    }
                }
                let mut opened = Session::open(&path, id).unwrap().session;
                let edit = opened
                    .edit_context(
                        ops.iter()
                            .map(|(target, change)| EditOp {
                                target: *target,
                                change: change
                                    .clone()
                                    .map_or(EditChange::Omit, EditChange::Replace),
                            })
                            .collect(),
                    )
                    .unwrap();
                opened.close().unwrap();
                model.nodes.push((Some(model.leaf), Node::Edit(ops)));
                model.leaf = edit;
            }
        }
    }
    (path, id, model)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(48))]

    /// Every entry of the tree projects exactly its own ancestry, the latest edit of each
    /// target applied; the reopened session's context is the projection of its leaf.
    #[test]
    fn each_branch_projects_its_own_ancestry_with_the_latest_edit(steps in steps()) {
        let dir = tempfile::tempdir().unwrap();
        let (path, id, model) = build(dir.path(), &steps);
        let mut reader = SessionReader::open(&path).unwrap();
        for leaf in 1..=model.nodes.len() as u64 {
            let projection = smith_agent::project(&mut reader, Some(EntryId(leaf))).unwrap();
            prop_assert_eq!(texts(&projection.items), model.expected(EntryId(leaf)), "leaf {}", leaf);
        }
        let mut opened = Session::open(&path, id).unwrap().session;
        prop_assert_eq!(texts(opened.context().unwrap()), model.expected(model.leaf));
        let again = smith_agent::project(&mut SessionReader::open(&path).unwrap(), Some(model.leaf)).unwrap();
        prop_assert_eq!(opened.context().unwrap(), again.items.as_slice());
        prop_assert_eq!(opened.context_entries().unwrap(), again.entries.as_slice());
    }

    /// A refused batch — an unknown target, a target off the selected branch, a target that
    /// is not a message, a duplicate — writes nothing, and the projection stays byte-identical.
    #[test]
    fn a_refused_batch_changes_nothing(steps in steps(), pick in any::<usize>()) {
        let dir = tempfile::tempdir().unwrap();
        let (path, id, model) = build(dir.path(), &steps);
        let on_branch = model.ancestry(model.leaf);
        let off_branch: Vec<EntryId> = (1..=model.nodes.len() as u64)
            .map(EntryId)
            .filter(|e| !on_branch.contains(e) && matches!(model.nodes[e.0 as usize - 1].1, Node::Message(_)))
            .collect();
        let mut bad = vec![
            vec![EditOp { target: EntryId(model.nodes.len() as u64 + 5), change: EditChange::Omit }],
            vec![EditOp { target: EntryId(1), change: EditChange::Omit }],
        ];
        if let Some(first) = model.branch_messages().first() {
            bad.push(vec![
                EditOp { target: *first, change: EditChange::Omit },
                EditOp { target: *first, change: EditChange::Replace("x".into()) },
            ]);
        }
        if !off_branch.is_empty() {
            bad.push(vec![EditOp { target: off_branch[pick % off_branch.len()], change: EditChange::Omit }]);
        }
        let before = std::fs::read(&path).unwrap();
        let mut opened = Session::open(&path, id).unwrap().session;
        let context = opened.context().unwrap().to_vec();
        for batch in bad {
            prop_assert!(opened.edit_context(batch).is_err());
            prop_assert_eq!(opened.context().unwrap(), context.as_slice());
        }
        opened.close().unwrap();
        // Close records the acknowledgement in the commit chain only when something changed.
        let after = std::fs::read(&path).unwrap();
        prop_assert_eq!(&after[..before.len()], before.as_slice());
        let projection = smith_agent::project(&mut SessionReader::open(&path).unwrap(), Some(model.leaf)).unwrap();
        prop_assert_eq!(projection.items, context);
    }
}

/// A batch whose result would leave a tool call without its result is refused whole.
#[test]
fn an_edit_that_breaks_tool_pairing_is_refused_whole() {
    let dir = tempfile::tempdir().unwrap();
    let id = SessionId::new_now();
    let session = Session::create(dir.path(), id, None).unwrap();
    let path = session.path().to_owned();
    let journal = session.journal();
    let call = smith::ToolCall {
        id: "c1".into(),
        name: "ls".into(),
        arguments: serde_json::json!({}),
    };
    let ids = journal
        .lock()
        .append(&[
            user("list"),
            Record::Message(MessageRecord {
                message: Message {
                    role: smith::Role::Assistant,
                    content: vec![smith::ContentBlock::ToolCall(call)],
                },
                model: Some("scripted/t".parse().unwrap()),
                stop_reason: Some(smith::StopReason::ToolUse),
                usage: Some(smith::Usage {
                    input: Some(120),
                    output: Some(7),
                    cache_read: None,
                    cache_write: None,
                }),
                error: None,
                attempt: None,
            }),
        ])
        .unwrap();
    journal
        .lock()
        .append_entries(&[smith_store::NewEntry {
            record: Record::ToolResult(smith_store::ToolResultRecord {
                result: smith::ToolResult {
                    call_id: "c1".into(),
                    name: "ls".into(),
                    output: "a.txt".into(),
                    is_error: false,
                },
            }),
            pair: Some(ids[1]),
        }])
        .unwrap();
    drop(journal);
    session.close().unwrap();
    let result = EntryId(ids[1].0 + 1);
    let usage_before = smith_agent::account(&smith_store::read_session(&path).unwrap().entries);
    let mut opened = Session::open(&path, id).unwrap().session;
    let before = opened.context().unwrap().to_vec();
    for batch in [vec![result], vec![ids[1]]] {
        let ops = batch
            .into_iter()
            .map(|target| EditOp {
                target,
                change: EditChange::Omit,
            })
            .collect();
        let err = opened.edit_context(ops).unwrap_err();
        assert!(
            matches!(err, smith_agent::EditError::Pairing { .. }),
            "{err}"
        );
        assert_eq!(opened.context().unwrap(), before.as_slice());
    }
    // The call's message with its result, together, may go; a result's text may be replaced.
    opened
        .edit_context(vec![
            EditOp {
                target: ids[1],
                change: EditChange::Omit,
            },
            EditOp {
                target: result,
                change: EditChange::Omit,
            },
        ])
        .unwrap();
    assert_eq!(texts(opened.context().unwrap()), ["list"]);
    opened
        .edit_context(vec![
            EditOp {
                target: ids[1],
                change: EditChange::Replace("I listed it.".into()),
            },
            EditOp {
                target: result,
                change: EditChange::Replace("(one file)".into()),
            },
        ])
        .unwrap();
    assert_eq!(
        texts(opened.context().unwrap()),
        ["list", "I listed it.", "(one file)"]
    );
    // The replaced assistant message keeps its tool call, so its result stays paired.
    smith::check_pairing(opened.context().unwrap()).unwrap();
    // Edits never erase or move recorded usage.
    opened.close().unwrap();
    let usage_after = smith_agent::account(&smith_store::read_session(&path).unwrap().entries);
    assert_eq!(usage_after, usage_before);
    assert_eq!(usage_after.total.usage.input, Some(120));
}

/// A record this build does not know is kept and passed over — unless its entry says it
/// changes what requests see: then the session is not continued past it, and the error says
/// why, rather than building a request that silently ignores it.
#[test]
fn an_unknown_record_that_changes_the_projection_refuses_the_branch() {
    let dir = tempfile::tempdir().unwrap();
    let id = SessionId::new_now();
    let mut w = SessionWriter::create(dir.path(), id).unwrap();
    let first = w.append(&[user("hello"), run_end()]).unwrap();
    w.append(&[Record::Unknown {
        kind: 900,
        body: vec![0xa0],
        projection: false,
    }])
    .unwrap();
    let path = w.path().to_owned();
    w.close().unwrap();
    let mut opened = Session::open(&path, id).unwrap().session;
    assert_eq!(texts(opened.context().unwrap()), ["hello"]);
    opened.close().unwrap();

    let (mut w, _) = SessionWriter::open(&path, id).unwrap();
    let flagged = w
        .append(&[Record::Unknown {
            kind: 901,
            body: vec![0xa0],
            projection: true,
        }])
        .unwrap()[0];
    w.close().unwrap();
    let err = Session::open(&path, id).unwrap_err();
    assert!(
        matches!(&err, smith_store::Error::Unprojectable { entry, .. } if *entry == flagged.0),
        "{err}"
    );
    assert!(err.to_string().contains("kind 901"), "{err}");
    // The branch before it still projects.
    let before =
        smith_agent::project(&mut SessionReader::open(&path).unwrap(), Some(first[1])).unwrap();
    assert_eq!(texts(&before.items), ["hello"]);
}

/// A branch long enough to be decoded in parallel batches projects exactly as the in-memory
/// fold of the same entries does (order, edits and all).
#[test]
fn a_long_branch_projects_the_same_from_the_file_as_in_memory() {
    let dir = tempfile::tempdir().unwrap();
    let id = SessionId::new_now();
    let mut w = SessionWriter::create(dir.path(), id).unwrap();
    let mut last = EntryId(0);
    for chunk in 0..30 {
        let batch: Vec<Record> = (0..100).map(|i| user(&format!("m{chunk}-{i}"))).collect();
        let ids = w.append(&batch).unwrap();
        last = *ids.last().unwrap();
        w.append(&[Record::ContextEdit(smith_store::ContextEdit {
            edits: vec![
                EditOp {
                    target: ids[3],
                    change: EditChange::Omit,
                },
                EditOp {
                    target: ids[7],
                    change: EditChange::Replace(format!("edited {chunk}")),
                },
            ],
        })])
        .unwrap();
    }
    let path = w.path().to_owned();
    w.close().unwrap();
    let leaf = smith_store::read_session(&path).unwrap().state.leaf_id();
    let from_file = smith_agent::project(&mut SessionReader::open(&path).unwrap(), leaf).unwrap();
    let entries = smith_store::read_session(&path).unwrap().entries;
    let in_memory = smith_agent::project_entries(entries.iter()).unwrap();
    assert_eq!(from_file, in_memory);
    assert_eq!(from_file.items.len(), 30 * 99);
    assert!(texts(&from_file.items).contains(&"edited 29".to_owned()));
    assert!(last.0 > 2000);
}
