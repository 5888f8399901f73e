//! What the policy and state tests share: a host with the file tools, `bash`, the bundled
//! permissions policy and the probe; a policy; a stand-in frontend answering questions.

use std::sync::mpsc;

use smith::{Answer, Cancel, Question, ToolCall, ToolContext, ToolEvent, ToolOutput, ToolRegistry};
use smith_host::{Host, Limits, PermissionMode, Permissions, Policy};

use super::{Fixture, cache, source};

/// The file tools, `bash`, the bundled permissions policy and the probe.
pub fn host() -> Host {
    let sources: Vec<_> = smith_plugins::BUNDLED
        .iter()
        .filter(|p| {
            ["files", "shell", "permissions"]
                .iter()
                .any(|n| p.origin.contains(n))
        })
        .chain([&smith_plugins::POLICY_PROBE])
        .map(source)
        .collect();
    Host::load(
        &sources,
        &cache(),
        Limits {
            deadline: std::time::Duration::from_millis(1500),
            ..Limits::default()
        },
    )
    .unwrap()
}

pub fn policy(mode: PermissionMode, allow: &[&str], deny: &[&str]) -> Policy {
    let owned = |rules: &[&str]| rules.iter().map(|r| (*r).to_owned()).collect();
    Policy {
        process: smith_host::ProcessPolicy::Allowed("the test allows programs".to_owned()),
        sandbox: smith_host::sandbox::Sandbox::full_access(),
        permissions: Permissions {
            mode,
            allow: owned(allow),
            ask: Vec::new(),
            deny: owned(deny),
            project_config: None,
        },
        ..Policy::default()
    }
}

/// Call `name` with `args` while a stand-in frontend answers each question with the option
/// labelled `choose` (or refuses it when `None`); the output and the questions, each its
/// prompt followed by its choices, one per line.
pub fn call_answering(
    f: &Fixture,
    tools: &dyn ToolRegistry,
    name: &str,
    args: serde_json::Value,
    choose: Option<&'static str>,
) -> (ToolOutput, Vec<String>) {
    call_answering_in(f.context(), tools, name, args, choose)
}

/// [`call_answering`] in `context` (its events replaced by the stand-in frontend's).
pub fn call_answering_in(
    context: ToolContext,
    tools: &dyn ToolRegistry,
    name: &str,
    args: serde_json::Value,
    choose: Option<&'static str>,
) -> (ToolOutput, Vec<String>) {
    let (tx, rx) = mpsc::channel::<ToolEvent>();
    let frontend = std::thread::spawn(move || {
        let mut prompts = Vec::new();
        for event in rx {
            if let ToolEvent::Ask {
                question, reply, ..
            } = event
            {
                let Question::Select { prompt, options } = question else {
                    panic!("a policy question is a choice: {question:?}");
                };
                // The prompt, then each choice on a line of its own.
                prompts.push(format!("{prompt}\n{}", options.join("\n")));
                let answer = match choose {
                    Some(label) => Ok(Answer::Select(
                        options.iter().position(|o| o == label).unwrap() as u32,
                    )),
                    None => Err(smith::AskError::Refused("the test cannot ask".to_owned())),
                };
                reply.send(answer).unwrap();
            }
        }
        prompts
    });
    let call = ToolCall {
        id: format!("call_{name}"),
        name: name.to_owned(),
        arguments: args,
    };
    let context = ToolContext {
        events: Some(tx),
        ..context
    };
    let out = tools.call(&call, &context, &Cancel::new());
    drop(context);
    (out, frontend.join().unwrap())
}
