//! Every record kind round-trips through a real session file to an equal record, and
//! encoding is deterministic (spec SMH-SPEC-SPEC0001: Storage and encoding — deterministic
//! encoding and complete semantic round trips).

use proptest::prelude::*;
use smith::{
    ContentBlock, EntryId, Message, Role, SessionId, StopReason, ToolCall, ToolResult, Usage,
    UsageTotals,
};
use smith_store::{
    EffectCompletion, EffectIntent, EffectOutcome, MessageRecord, ModelChange, Record, RunEnd,
    SessionStart, SessionWriter, ToolResultRecord, read_session,
};

fn text() -> impl Strategy<Value = String> {
    prop_oneof![".{0,40}", "[a-z ]{0,12}", Just(String::new()), "\\PC{0,8}"]
}

fn usage() -> impl Strategy<Value = Option<Usage>> {
    proptest::option::of(
        (
            proptest::option::of(any::<u64>()),
            proptest::option::of(any::<u64>()),
            proptest::option::of(any::<u64>()),
            proptest::option::of(any::<u64>()),
        )
            .prop_map(|(input, output, cache_read, cache_write)| Usage {
                input,
                output,
                cache_read,
                cache_write,
            }),
    )
}

fn stop() -> impl Strategy<Value = StopReason> {
    prop_oneof![
        Just(StopReason::EndTurn),
        Just(StopReason::ToolUse),
        Just(StopReason::MaxTokens),
        Just(StopReason::Aborted),
        Just(StopReason::Error),
    ]
}

fn json_value() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<u64>().prop_map(serde_json::Value::from),
        // Floats keep their kind and sign: -0.0, 1.0 (not the integer 1), and odd ones.
        prop_oneof![
            Just(-0.0f64),
            Just(1.0),
            Just(0.1),
            any::<f64>().prop_filter("finite", |f| f.is_finite())
        ]
        .prop_map(serde_json::Value::from),
        text().prop_map(serde_json::Value::from),
    ];
    leaf.prop_recursive(3, 16, 4, |inner| {
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..4).prop_map(serde_json::Value::from),
            proptest::collection::vec(("[a-z]{1,6}", inner), 0..4)
                .prop_map(|pairs| { serde_json::Value::Object(pairs.into_iter().collect()) }),
        ]
    })
}

fn block() -> impl Strategy<Value = ContentBlock> {
    prop_oneof![
        text().prop_map(|text| ContentBlock::Text { text }),
        (
            text(),
            proptest::option::of("[A-Za-z0-9+/=]{1,40}"),
            any::<bool>()
        )
            .prop_map(|(text, signature, redacted)| ContentBlock::Thinking {
                text,
                signature,
                redacted,
            }),
        ("[a-z0-9_]{1,8}", "[a-z]{1,8}", json_value()).prop_map(|(id, name, arguments)| {
            ContentBlock::ToolCall(ToolCall {
                id,
                name,
                arguments,
            })
        }),
    ]
}

fn record() -> impl Strategy<Value = Record> {
    prop_oneof![
        (text(), proptest::option::of(text())).prop_map(|(smith_version, cwd)| {
            Record::SessionStart(SessionStart {
                smith_version,
                cwd,
                imported: None,
            })
        }),
        ("[a-z]{1,8}", "[a-z0-9/.-]{1,12}").prop_map(|(p, m)| {
            Record::ModelChange(ModelChange {
                model: format!("{p}/{m}").parse().unwrap(),
            })
        }),
        (
            prop_oneof![Just(Role::User), Just(Role::Assistant)],
            proptest::collection::vec(block(), 0..4),
            proptest::option::of(stop()),
            usage(),
            proptest::option::of(text()),
        )
            .prop_map(|(role, content, stop_reason, usage, error)| {
                Record::Message(MessageRecord {
                    message: Message { role, content },
                    model: Some("scripted/demo".parse().unwrap()),
                    stop_reason,
                    usage,
                    error,
                    attempt: None,
                })
            }),
        ("[a-z0-9_]{1,8}", "[a-z]{1,8}", text(), any::<bool>()).prop_map(
            |(call_id, name, output, is_error)| {
                Record::ToolResult(ToolResultRecord {
                    result: ToolResult {
                        call_id,
                        name,
                        output,
                        is_error,
                    },
                })
            }
        ),
        (stop(), proptest::option::of(text())).prop_map(|(stop_reason, error)| {
            Record::RunEnd(RunEnd {
                children: Vec::new(),
                stop_reason,
                usage: UsageTotals::default(),
                error,
                memory: None,
            })
        }),
        (
            "[a-z0-9]{1,8}",
            "[a-z0-9_]{1,8}",
            "[a-z.]{1,10}",
            proptest::option::of(text()),
            json_value()
        )
            .prop_map(|(effect_id, call_id, effect, target, input)| {
                Record::EffectIntent(EffectIntent {
                    effect_id,
                    call_id,
                    plugin: "files@0.1.0#1".into(),
                    tool: "write".into(),
                    effect,
                    target,
                    input,
                })
            }),
        (
            "[a-z0-9]{1,8}",
            prop_oneof![
                Just(EffectOutcome::Applied),
                Just(EffectOutcome::NotApplied),
                Just(EffectOutcome::Unknown)
            ],
            proptest::collection::vec(any::<u8>(), 0..600),
            json_value(),
        )
            .prop_map(|(effect_id, outcome, output, evidence)| {
                Record::EffectCompletion(EffectCompletion {
                    effect_id,
                    outcome,
                    output,
                    evidence,
                })
            }),
        (
            proptest::option::of(".{0,12}"),
            "[0-9a-f]{64}",
            proptest::option::of(1u64..1000),
            any::<bool>(),
            ".{0,40}",
            proptest::option::of(1u64..1000),
            proptest::option::of(any::<bool>()),
            proptest::option::of("[a-z]{1,8}@0\\.1\\.0"),
            proptest::collection::vec(("[a-z/.]{1,12}", any::<u64>(), "[0-9a-f]{64}"), 0..3),
        )
            .prop_map(
                |(
                    dedup_key,
                    content_sha256,
                    destination,
                    explicit_destination,
                    input,
                    owner,
                    steer,
                    policy,
                    attachments,
                )| {
                    Record::Submission(smith_store::Submission {
                        session: Some(SessionId::new_now()),
                        dedup_key,
                        content_sha256,
                        destination: destination.map(EntryId),
                        explicit_destination,
                        model: smith::Selection::Model(smith::ModelRef {
                            provider: "scripted".into(),
                            model: "demo".into(),
                        }),
                        input,
                        owner: owner.map(EntryId),
                        delivery: steer.map(|s| {
                            if s {
                                smith_store::Delivery::Steer
                            } else {
                                smith_store::Delivery::FollowUp
                            }
                        }),
                        policy,
                        attachments: attachments
                            .into_iter()
                            .map(|(path, bytes, sha256)| smith_store::Attachment {
                                path,
                                bytes,
                                sha256,
                            })
                            .collect(),
                    })
                }
            ),
        ".{0,40}".prop_map(|reason| Record::Abort(smith_store::Abort { reason })),
        ".{0,40}".prop_map(|reason| Record::Withdrawal(smith_store::Withdrawal { reason })),
        ("[a-z0-9/_-]{1,24}", any::<bool>(), ".{0,40}").prop_map(|(effect_id, applied, note)| {
            Record::EffectVerdict(smith_store::EffectVerdict {
                effect_id,
                outcome: if applied {
                    smith::EffectOutcome::Applied
                } else {
                    smith::EffectOutcome::NotApplied
                },
                note,
            })
        }),
        (
            "[A-Za-z0-9_.-]{1,64}",
            proptest::option::of(".{0,40}"),
            ".{1,40}"
        )
            .prop_map(|(name, label, source)| Record::SecretRegistration(
                smith_store::SecretRegistration {
                    name,
                    label,
                    source,
                }
            )),
        (
            1u32..100,
            proptest::collection::vec("[a-z]{1,8}@0\\.1\\.0", 0..4)
        )
            .prop_map(
                |(round, requires)| Record::Checkpoint(smith_store::Checkpoint {
                    round,
                    phase: "tool_batch_complete".into(),
                    requires,
                    model: None,
                    tools: Vec::new(),
                })
            ),
        (100u16..200, proptest::collection::vec(any::<u8>(), 0..32)).prop_map(|(kind, body)| {
            Record::Unknown {
                kind,
                body,
                projection: false,
            }
        }),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(64))]

    #[test]
    fn records_round_trip_through_a_session_file(records in proptest::collection::vec(record(), 1..12)) {
        for r in &records {
            let bytes = r.encode_body().unwrap();
            prop_assert_eq!(&bytes, &r.encode_body().unwrap(), "deterministic");
            if !matches!(r, Record::Unknown { .. }) {
                prop_assert_eq!(smith_store::cbor::check(&bytes), Ok(()), "canonical");
            }
            // Decoding and encoding again gives identical bytes.
            let again = Record::decode(r.kind(), &bytes).unwrap().encode_body().unwrap();
            prop_assert_eq!(&again, &bytes, "identical bytes after a round trip");
        }
        let dir = tempfile::tempdir().unwrap();
        let mut w = SessionWriter::create(dir.path(), SessionId::new_now()).unwrap();
        w.append(&records).unwrap();
        let path = w.path().to_owned();
        drop(w);
        let back: Vec<Record> = read_session(&path).unwrap().entries.into_iter().map(|e| e.record).collect();
        prop_assert_eq!(&back, &records);
        // Negative zero survives with its sign (PartialEq alone would not notice).
        prop_assert_eq!(format!("{back:?}"), format!("{records:?}"));
    }
}
