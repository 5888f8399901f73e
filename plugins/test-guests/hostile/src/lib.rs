//! Misbehaving tools for the host's tests: an infinite loop, a memory bomb, stdout output, a
//! trap, an oversized output, a cancellation poller, and raw file facilities.

use smith_plugin_sdk::{
    Guest, Invocation, ToolDefinition, ToolOutput, export_tool_plugin, fs, serde_json, tool,
};

struct Hostile;

const ANY: &str = r#"{"type":"object"}"#;

impl Guest for Hostile {
    fn definitions() -> Vec<ToolDefinition> {
        [
            "spin",
            "bomb",
            "shout",
            "trap",
            "flood",
            "wait-cancel",
            "fs-read",
            "fs-write",
            "progress",
            "structured",
            "structured-undeclared",
        ]
        .iter()
        .map(|n| tool(n, "test tool", ANY))
        .collect()
    }

    fn call(name: String, args: String, _invocation: Invocation) -> ToolOutput {
        let args: serde_json::Value = serde_json::from_str(&args).unwrap_or_default();
        let text = |k: &str| args[k].as_str().unwrap_or_default().to_owned();
        match name.as_str() {
            "spin" => {
                let mut n: u64 = 0;
                loop {
                    n = n.wrapping_add(1);
                    std::hint::black_box(n);
                }
            }
            "bomb" => {
                let mut hoard: Vec<Vec<u8>> = Vec::new();
                loop {
                    hoard.push(vec![1u8; 1 << 20]);
                    std::hint::black_box(&hoard);
                }
            }
            "shout" => {
                println!("PLUGIN-STDOUT-MUST-NOT-LEAK");
                eprintln!("PLUGIN-STDERR-MUST-NOT-LEAK");
                ToolOutput::ok("shouted")
            }
            "trap" => panic!("a plugin bug"),
            "flood" => ToolOutput::ok("x".repeat(1 << 20)),
            "wait-cancel" => {
                // Said once it polls, so a test cancels it mid-call without guessing when.
                smith_plugin_sdk::progress("polling for cancellation");
                let mut polls: u64 = 0;
                while !smith_plugin_sdk::cancelled() {
                    polls += 1;
                    std::hint::black_box(polls);
                }
                ToolOutput::ok("stopped")
            }
            "fs-read" => match fs::read_lines(&text("path"), 1, 100) {
                Ok(w) => ToolOutput::ok(w.text),
                Err(e) => ToolOutput::error(smith_plugin_sdk::describe(&e)),
            },
            "fs-write" => match fs::write_file(&text("path"), &text("content")) {
                Ok(hash) => ToolOutput::ok(hash),
                Err(e) => ToolOutput::error(smith_plugin_sdk::describe(&e)),
            },
            "progress" => {
                smith_plugin_sdk::progress("step 1");
                smith_plugin_sdk::progress("step 2");
                smith_plugin_sdk::progress(&"z".repeat(10_000));
                ToolOutput::ok("done")
            }
            "structured" | "structured-undeclared" => {
                if let Some(json) = args["json"].as_str() {
                    smith_plugin_sdk::structured(json);
                }
                ToolOutput::ok("handed over")
            }
            other => ToolOutput::error(format!("no tool {other}")),
        }
    }
}

export_tool_plugin!(Hostile);
