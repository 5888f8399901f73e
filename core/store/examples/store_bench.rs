//! Measures the session store for `cargo xtask bench`: encoding 1,000 representative entries
//! (spec: ≤ 5 ms), and opening a cleanly closed session to fetch its last 50 entries at
//! 10,000 and 100,000 entries (wall time; peak RSS is measured by xtask around this process).
//! Prints `name value` lines.
#![allow(clippy::print_stdout, missing_docs)]

use std::time::Instant;

use smith::{ContentBlock, Message, Role, SessionId, StopReason, ToolCall, ToolResult, Usage};
use smith_store::{CommitReader, MessageRecord, Record, SessionWriter, ToolResultRecord};

/// A representative mix: user prompt, assistant text with a tool call, its result.
fn representative(i: usize) -> Record {
    match i % 3 {
        0 => Record::Message(MessageRecord {
            message: Message::user_text(format!(
                "Please look at file {i} and fix the failing test."
            )),
            model: None,
            stop_reason: None,
            usage: None,
            error: None,
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

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // Encoding: body CBOR for 1,000 entries, median of 20 runs.
    let records: Vec<Record> = (0..1000).map(representative).collect();
    let mut samples = Vec::new();
    for _ in 0..20 {
        let start = Instant::now();
        let mut bytes = 0usize;
        for r in &records {
            bytes += r.encode_body()?.len();
        }
        samples.push(start.elapsed());
        assert!(bytes > 0);
    }
    samples.sort();
    println!("encode_1000_ms {:.3}", samples[10].as_secs_f64() * 1000.0);

    for n in [10_000usize, 100_000] {
        let dir = tempfile::tempdir()?;
        let id = SessionId::new_now();
        let mut w = SessionWriter::create(dir.path(), id)?;
        for chunk in (0..n).collect::<Vec<_>>().chunks(1000) {
            let batch: Vec<Record> = chunk.iter().map(|&i| representative(i)).collect();
            w.append(&batch)?;
        }
        let path = w.path().to_owned();
        drop(w);
        let start = Instant::now();
        let mut reader = CommitReader::open(&path)?;
        let mut last = std::collections::VecDeque::with_capacity(50);
        while let Some(change) = reader.next_commit()? {
            for entry in change {
                if last.len() == 50 {
                    last.pop_front();
                }
                last.push_back(entry);
            }
        }
        assert_eq!(last.len(), 50);
        println!(
            "open_last50_{n}_ms {:.3}",
            start.elapsed().as_secs_f64() * 1000.0
        );
    }
    Ok(())
}
