//! The bundled permission policy (the permissions guide: `smith docs get permissions`).
//!
//! Before a tool call, the rules: a `permissions.deny` rule matching the call (any part of a
//! shell command) refuses it; then an `ask` rule asks; then, when `allow` rules cover the call
//! (every part of a shell command), it is allowed — and so are the effects it performs, except
//! in `plan` mode. A shell command that cannot be split asks when any rule is about its tool.
//!
//! Before each effect, the mode: reads always run; `plan` refuses every other effect;
//! `ask` asks before writes, programs and network requests; `auto-edit` lets file writes run
//! and asks before programs and network requests (a host allowed for the session is not
//! asked again); `auto` lets run what the OS sandbox and the plugins' network grants permit. In an untrusted project every
//! program asks, in every mode but `plan` (the host refuses one nobody allowed). A program the
//! sandbox refused may be run again outside it only when the person says so, in every mode.
//!
//! A question before a write or a program offers, besides once: for the rest of the session
//! (kept in the plugin's session state; see [`approvals`]), and always in the project (allow
//! rules written to the project's configuration) where the project's configuration is read.

mod approvals;
mod rules;

use smith_plugin_sdk::export_policy_plugin;
use smith_plugin_sdk::policy::{
    Choice, EffectEvent, Guest, PolicyEvent, Question, Settings, ToolCallEvent, Verdict,
};

use approvals::{Approved, Grant};
use rules::{Rule, Subject};

/// The choice ids of the questions it asks (a lasting choice's id carries what it allows).
const ALLOW_ONCE: &str = "allow-once";
const DENY: &str = "deny";
const FOR_SESSION: &str = "allow-session:";
const FOR_PROJECT: &str = "allow-project:";

struct Permissions;

impl Guest for Permissions {
    fn decide(event: PolicyEvent) -> Result<Verdict, String> {
        match event {
            PolicyEvent::BeforeTool(call) => before_tool(&call),
            PolicyEvent::BeforeEffect(effect) => Ok(before_effect(&effect)),
            PolicyEvent::AfterTool(_) => Ok(Verdict::Pass),
            PolicyEvent::Answered(answer) => Ok(answered(&answer.choice)),
        }
    }
}

/// The verdict on the person's `choice`: a lasting allow is kept before the call runs; if it
/// cannot be, the call still runs this once, as the person allowed it, and its result says
/// the choice was not kept and why.
fn answered(choice: &str) -> Verdict {
    if choice == ALLOW_ONCE {
        return Verdict::Allow;
    }
    let not_kept = |what: &str, why: String| {
        Verdict::Note(format!(
            "allowed this once only: the choice to allow it {what} could not be kept ({why}); it will be asked again"
        ))
    };
    if let Some(grant) = Grant::from_choice(choice, FOR_SESSION) {
        return match grant.keep_for_session() {
            Ok(()) => Verdict::Allow,
            Err(why) => not_kept("for the rest of this session", why),
        };
    }
    if let Some(grant) = Grant::from_choice(choice, FOR_PROJECT) {
        return match grant.keep_for_project() {
            Ok(_) => Verdict::Allow,
            Err(why) => not_kept("always in this project", why),
        };
    }
    Verdict::Deny(
        "the user declined it when asked; do not try it another way — ask the user what to do instead".to_owned(),
    )
}

/// The rules of `settings`, by kind.
struct Rules {
    allow: Vec<Rule>,
    ask: Vec<Rule>,
    deny: Vec<Rule>,
}

impl Rules {
    fn parse(settings: &Settings) -> Result<Self, String> {
        let parse = |list: &[String], key: &str| {
            list.iter()
                .map(|r| Rule::parse(r).map_err(|e| format!("permissions.{key}: {e}")))
                .collect::<Result<Vec<_>, _>>()
        };
        Ok(Self {
            allow: parse(&settings.allow, "allow")?,
            ask: parse(&settings.ask, "ask")?,
            deny: parse(&settings.deny, "deny")?,
        })
    }

    fn about(&self, tool: &str) -> bool {
        self.allow
            .iter()
            .chain(&self.ask)
            .chain(&self.deny)
            .any(|r| r.tool == tool)
    }
}

fn before_tool(call: &ToolCallEvent) -> Result<Verdict, String> {
    let rules = Rules::parse(&call.settings)?;
    if !rules.about(&call.tool) {
        return Ok(Verdict::Pass);
    }
    let subject = Subject::of(&call.arguments, &call.cwd);
    if let Some(rule) = rules
        .deny
        .iter()
        .find(|r| r.matches_any(&call.tool, &subject))
    {
        return Ok(Verdict::Deny(format!(
            "the user's rule permissions.deny `{}` matches this call; do not try it another way",
            rule.text
        )));
    }
    let described = describe(&call.tool, &subject);
    if let Some(rule) = rules
        .ask
        .iter()
        .find(|r| r.matches_any(&call.tool, &subject))
    {
        return Ok(ask(
            &call.call_id,
            format!("{described}\n(rule permissions.ask `{}`)", rule.text),
        ));
    }
    if let Subject::Unparsed(_) = subject {
        return Ok(ask(
            &call.call_id,
            format!(
                "{described}\n(the command could not be split into its parts to check the rules)"
            ),
        ));
    }
    if rules.allow.iter().any(|r| r.matches(&call.tool, &subject))
        || covered(&rules, call, &subject)
    {
        return Ok(Verdict::Allow);
    }
    Ok(Verdict::Pass)
}

/// Whether the allow rules cover every part of a shell command together (`git status;
/// cargo test` under `bash(git status*)` and `bash(cargo test*)`).
fn covered(rules: &Rules, call: &ToolCallEvent, subject: &Subject) -> bool {
    let Subject::Command(parts) = subject else {
        return false;
    };
    !parts.is_empty()
        && parts.iter().all(|part| {
            let one = Subject::Command(vec![part.clone()]);
            rules.allow.iter().any(|r| r.matches(&call.tool, &one))
        })
}

fn before_effect(effect: &EffectEvent) -> Verdict {
    if effect.read_only {
        return Verdict::Pass;
    }
    if effect.effect == "process.send" {
        // A message to a program kept for the session: starting it was this policy's
        // question (`process.start`), and the tool call sending it passed the policy itself.
        return Verdict::Pass;
    }
    let mode = effect.settings.mode.as_str();
    if mode == "plan" {
        return Verdict::Deny(format!(
            "plan mode: {} is refused — in plan mode Smith reads and plans but changes nothing and runs no program; describe the change instead, and the user can switch the mode (permissions.mode) to let it run",
            what(effect)
        ));
    }
    if effect.leaves_sandbox {
        // Whatever the mode and the rules: leaving the sandbox is the person's call.
        return ask(
            &effect.call_id,
            format!(
                "The sandbox likely refused what this program tried (its output shows a permission error). Run the whole command again OUTSIDE the sandbox, with your full access, this once? What it already did inside the sandbox stays done.\n{}",
                effect.command
            ),
        );
    }
    let writes = matches!(effect.effect.as_str(), "fs.write" | "fs.edit");
    if writes && effect.needs_allow {
        // Smith's or git's configuration: always the person's call, once at a time, whatever
        // the rules and the mode (a rule allowing `edit` never covers it).
        return ask(
            &effect.call_id,
            format!(
                "Let `{}` {}?\n(This file configures Smith or git — its settings, rules or hooks — so it is always yours to allow.)",
                effect.tool,
                what(effect)
            ),
        );
    }
    if effect.call_allowed {
        // A rule or a lasting choice allowed the call: its effects too (an explicit allow,
        // which a program in an untrusted project needs).
        return Verdict::Allow;
    }
    // In an untrusted project every program is the person's call, whatever the mode.
    if mode == "auto" && !effect.needs_allow {
        return Verdict::Pass;
    }
    if writes && mode == "auto-edit" {
        return Verdict::Pass;
    }
    // What the person allowed for the session (read only on the way to a question, so a
    // session that asks nothing never reads its state).
    let grant = Grant::of(effect);
    if grant.as_ref().is_some_and(|g| Approved::load().covers(g)) {
        return Verdict::Allow;
    }
    let untrusted = if effect.needs_allow {
        "\n(This project is not trusted, so each program is yours to allow; in a trusted project the mode decides.)"
    } else {
        ""
    };
    let mut question = question(
        &effect.call_id,
        format!("Let `{}` {}?{untrusted}", effect.tool, what(effect)),
    );
    // A lasting choice is offered only when it can be kept (a run with session state, room in
    // the slot): one that fails after the person chose it would go unsaid.
    if let Some(grant) = grant.filter(|g| Approved::load().can_keep(g)) {
        question.choices.push(Choice {
            id: grant.choice_id(FOR_SESSION),
            label: grant.label(None),
        });
        let project = &effect.settings.project_config;
        if !project.is_empty() && grant.rules().is_some() {
            question.choices.push(Choice {
                id: grant.choice_id(FOR_PROJECT),
                label: grant.label(Some(project)),
            });
        }
    }
    asked(question)
}

/// The effect in words, its target whole.
fn what(effect: &EffectEvent) -> String {
    match effect.effect.as_str() {
        "process.run" => format!(
            "run this program ({}):\n{}",
            if effect.sandbox.is_empty() {
                "no sandbox"
            } else {
                &effect.sandbox
            },
            effect.command
        ),
        "process.start" => format!(
            "start this program and keep it running for the session ({}):\n{}",
            if effect.sandbox.is_empty() {
                "no sandbox"
            } else {
                &effect.sandbox
            },
            effect.command
        ),
        "fs.write" => format!("write the file {}", effect.target),
        "fs.edit" => format!("edit the file {}", effect.target),
        "vcs.restore" => format!("restore the working tree to {}", effect.target),
        "net.fetch" => format!(
            "send this request to {}:\n{}",
            approvals::host_of(&effect.target).unwrap_or_else(|| effect.target.clone()),
            effect.command
        ),
        other => format!("perform {other} on {}", effect.target),
    }
}

fn describe(tool: &str, subject: &Subject) -> String {
    match subject {
        Subject::Command(parts) if parts.len() == 1 => format!("Run `{tool}`: {}", parts[0]),
        Subject::Command(parts) => format!("Run `{tool}`, whose parts are:\n{}", parts.join("\n")),
        Subject::Unparsed(text) => format!("Run `{tool}`: {text}"),
        Subject::Path(path) => format!("Let `{tool}` use {path}?"),
        Subject::None => format!("Call `{tool}`?"),
    }
}

fn ask(call_id: &str, text: String) -> Verdict {
    asked(question(call_id, text))
}

/// The longest question it puts, in bytes: under the host's bound (16 KiB), with room for the
/// handler's name the host adds.
const MAX_QUESTION: usize = 15 * 1024;

/// `question` as the verdict, or — when it is too long to be shown whole — a refusal saying
/// so: nobody is asked to allow what they cannot read.
fn asked(question: Question) -> Verdict {
    if question.text.len() <= MAX_QUESTION {
        return Verdict::Ask(question);
    }
    Verdict::Deny(format!(
        "it is too long to be shown whole for the user to allow ({} bytes; a question shows at most {MAX_QUESTION}); write the commands to a script file and run that, or split the work into shorter calls",
        question.text.len()
    ))
}

/// A question allowing once or denying.
fn question(call_id: &str, text: String) -> Question {
    Question {
        id: format!("{call_id}:permissions"),
        text,
        // Deny first: it is what a frontend highlights, so an Enter typed ahead of the
        // question (meant for the draft) never lets anything run.
        choices: vec![
            Choice {
                id: DENY.to_owned(),
                label: "Deny".to_owned(),
            },
            Choice {
                id: ALLOW_ONCE.to_owned(),
                label: "Allow once".to_owned(),
            },
        ],
    }
}

export_policy_plugin!(Permissions);
