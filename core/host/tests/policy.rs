//! Tool and effect events with real components: the bundled `permissions` plugin and the
//! `policy-probe` test plugin (role `hooks`, answering as the call's arguments say), real
//! files and a real session file. A person's answers come through the call's question channel
//! from a thread standing in for the frontend.

mod common;

use common::Fixture;
use common::policy::{call_answering, host, policy};

use serde_json::json;
use smith_host::PermissionMode;
use smith_store::{EffectOutcome, Record, read_session};

#[test]
fn a_deny_before_the_call_keeps_it_from_running_and_the_model_is_told_why() {
    let host = host();
    let tools = host
        .loadout()
        .with_policy(policy(PermissionMode::Auto, &[], &[]));
    let f = Fixture::new();
    let out = f.call(&tools, "write", json!({"path": "veto.txt", "content": "x"}));
    assert!(out.is_error);
    assert!(
        out.output
            .contains("refused by policy-probe@0.1.0: the probe vetoes this call"),
        "{}",
        out.output
    );
    assert!(!f.root().join("veto.txt").exists());
    assert!(f.effects().is_empty(), "nothing ran, so no effect");
}

#[test]
fn a_deny_before_an_effect_is_recorded_as_not_applied_with_the_reason() {
    let host = host();
    let tools = host
        .loadout()
        .with_policy(policy(PermissionMode::Auto, &[], &[]));
    let f = Fixture::new();
    let out = f.call(
        &tools,
        "write",
        json!({"path": "veto-effect.txt", "content": "x"}),
    );
    assert!(out.is_error, "{}", out.output);
    assert!(!f.root().join("veto-effect.txt").exists());
    assert_eq!(
        f.effects(),
        vec![("fs.write".to_owned(), EffectOutcome::NotApplied)]
    );
    let entries = read_session(&f.session).unwrap().entries;
    let evidence = entries
        .iter()
        .find_map(|e| match &e.record {
            Record::EffectCompletion(c) => Some(String::from_utf8_lossy(&c.output).into_owned()),
            _ => None,
        })
        .unwrap();
    assert!(
        evidence.contains("the probe vetoes fs.write of veto-effect.txt"),
        "{evidence}"
    );
}

#[test]
fn an_ask_is_put_to_the_person_and_their_choice_decides() {
    let host = host();
    let tools = host
        .loadout()
        .with_policy(policy(PermissionMode::Auto, &[], &[]));
    let f = Fixture::new();
    let args = json!({"path": "probe-ask.txt", "content": "x"});
    let (out, prompts) = call_answering(&f, &tools, "write", args.clone(), Some("Yes"));
    assert!(!out.is_error, "{}", out.output);
    assert!(f.root().join("probe-ask.txt").exists());
    assert_eq!(prompts.len(), 1);
    assert!(
        prompts[0].contains("Let write run with") && prompts[0].contains("(policy-probe@0.1.0)"),
        "{prompts:?}"
    );
    std::fs::remove_file(f.root().join("probe-ask.txt")).unwrap();
    let (out, _) = call_answering(&f, &tools, "write", args.clone(), Some("No"));
    assert!(
        out.is_error && out.output.contains("the person said no"),
        "{}",
        out.output
    );
    assert!(!f.root().join("probe-ask.txt").exists());
    // Nobody to ask (a non-interactive run): refused, saying so.
    let (out, _) = call_answering(&f, &tools, "write", args, None);
    assert!(
        out.is_error
            && out
                .output
                .contains("it was not allowed (the test cannot ask)"),
        "{}",
        out.output
    );
    // Each question and its answer are recorded in the session, before the call ran.
    let entries = read_session(&f.session).unwrap().entries;
    let asked = entries
        .iter()
        .filter(|e| matches!(&e.record, Record::EffectIntent(i) if i.effect == "ask.select"))
        .count();
    assert_eq!(asked, 3, "every question is recorded");
}

#[test]
fn a_note_after_the_call_reaches_the_model() {
    let host = host();
    let tools = host
        .loadout()
        .with_policy(policy(PermissionMode::Auto, &[], &[]));
    let f = Fixture::new();
    let out = f.call(&tools, "write", json!({"path": "note.txt", "content": "x"}));
    assert!(!out.is_error, "{}", out.output);
    assert!(
        out.output.contains("[policy-probe@0.1.0] probe note:"),
        "{}",
        out.output
    );
}

#[test]
fn deny_wins_over_an_allow_rule_and_a_failing_handler_counts_as_deny() {
    let host = host();
    // The permissions plugin allows every write by rule; the probe's veto still wins.
    let tools = host
        .loadout()
        .with_policy(policy(PermissionMode::Ask, &["write"], &[]));
    let f = Fixture::new();
    let out = f.call(&tools, "write", json!({"path": "veto.txt", "content": "x"}));
    assert!(out.output.contains("the probe vetoes"), "{}", out.output);
    let out = f.call(&tools, "write", json!({"path": "fine.txt", "content": "x"}));
    assert!(
        !out.is_error,
        "the allow rule lets the write run in ask mode: {}",
        out.output
    );
    // A handler that traps denies that call, named; the next event has a fresh instance.
    let out = f.call(&tools, "write", json!({"path": "trap.txt", "content": "x"}));
    assert!(
        out.is_error
            && out.output.contains("policy-probe@0.1.0 gave no verdict")
            && out.output.contains("trapped"),
        "{}",
        out.output
    );
    assert!(!f.root().join("trap.txt").exists());
    let out = f.call(
        &tools,
        "write",
        json!({"path": "after.txt", "content": "x"}),
    );
    assert!(!out.is_error, "{}", out.output);
    assert!(f.root().join("after.txt").exists());
}

#[test]
fn a_handler_past_its_deadline_counts_as_deny() {
    let host = host();
    let tools = host
        .loadout()
        .with_policy(policy(PermissionMode::Auto, &[], &[]));
    let f = Fixture::new();
    let out = f.call(&tools, "write", json!({"path": "loop.txt", "content": "x"}));
    assert!(
        out.is_error && out.output.contains("policy-probe@0.1.0 gave no verdict"),
        "{}",
        out.output
    );
    assert!(!f.root().join("loop.txt").exists());
}

#[test]
fn modes_decide_each_effect_and_rules_match_commands_part_by_part() {
    let host = host();
    let f = Fixture::new();
    let write = json!({"path": "a.txt", "content": "x"});
    // plan: reads run, writes and programs are refused with the reason.
    let tools = host
        .loadout()
        .with_policy(policy(PermissionMode::Plan, &[], &[]));
    std::fs::write(f.root().join("r.txt"), "read me\n").unwrap();
    assert!(!f.call(&tools, "read", json!({"path": "r.txt"})).is_error);
    let out = f.call(&tools, "write", write.clone());
    assert!(
        out.is_error && out.output.contains("plan mode"),
        "{}",
        out.output
    );
    let out = f.call(&tools, "bash", json!({"command": "touch made"}));
    assert!(
        out.is_error && out.output.contains("plan mode"),
        "{}",
        out.output
    );
    assert!(!f.root().join("made").exists());
    // auto-edit: writes run; programs ask (refused here: nobody answers).
    let tools = host
        .loadout()
        .with_policy(policy(PermissionMode::AutoEdit, &[], &[]));
    assert!(!f.call(&tools, "write", write.clone()).is_error);
    let (out, prompts) = call_answering(&f, &tools, "bash", json!({"command": "touch made"}), None);
    assert!(out.is_error, "{}", out.output);
    assert!(
        prompts[0].contains("touch made"),
        "the whole command is asked: {prompts:?}"
    );
    // ask + `bash(git status*)`: `git status` runs unasked; `git status; touch x` asks.
    let tools = host.loadout().with_policy(policy(
        PermissionMode::Ask,
        &["bash(git status*)", "bash(true)"],
        &[],
    ));
    let (out, prompts) = call_answering(
        &f,
        &tools,
        "bash",
        json!({"command": "git status || true"}),
        None,
    );
    assert!(prompts.is_empty(), "{prompts:?}: {}", out.output);
    let (out, prompts) = call_answering(
        &f,
        &tools,
        "bash",
        json!({"command": "git status; touch x"}),
        None,
    );
    assert!(
        out.is_error && prompts.len() == 1,
        "{prompts:?}: {}",
        out.output
    );
    assert!(!f.root().join("x").exists());
    // A substitution is a part of its own: `$(touch y)` is not covered by `git status*`.
    let (out, prompts) = call_answering(
        &f,
        &tools,
        "bash",
        json!({"command": "git status $(touch y)"}),
        None,
    );
    assert!(
        out.is_error && prompts.len() == 1,
        "{prompts:?}: {}",
        out.output
    );
    // A deny rule wins over the allow rules, whatever the mode.
    let tools = host.loadout().with_policy(policy(
        PermissionMode::Auto,
        &["bash(git status*)"],
        &["bash(rm *)"],
    ));
    let out = f.call(&tools, "bash", json!({"command": "git status && rm -rf x"}));
    assert!(
        out.is_error && out.output.contains("permissions.deny `bash(rm *)`"),
        "{}",
        out.output
    );
    // A command that cannot be split asks when a rule is about its tool.
    let (out, prompts) = call_answering(
        &f,
        &tools,
        "bash",
        json!({"command": "echo 'unclosed"}),
        None,
    );
    assert!(
        out.is_error && prompts[0].contains("could not be split"),
        "{prompts:?}: {}",
        out.output
    );
}

#[test]
fn what_the_first_trials_found_stays_fixed() {
    let host = host();
    let f = Fixture::new();
    // A question shows control characters as visible escapes: an escape sequence cannot hide
    // part of the command the person allows.
    let tools = host
        .loadout()
        .with_policy(policy(PermissionMode::Ask, &[], &[]));
    let hidden = "ls \u{1b}]0;x; touch hidden\u{7}";
    let (out, prompts) = call_answering(&f, &tools, "bash", json!({"command": hidden}), None);
    assert!(out.is_error, "{}", out.output);
    assert!(
        prompts[0].contains("\\u{1b}]0;x; touch hidden\\u{7}"),
        "{prompts:?}"
    );
    // A rule is matched in time bounded by its length times the command's: a long command
    // does not push the policy past its deadline (which would put it out of service).
    let tools = host.loadout().with_policy(policy(
        PermissionMode::Auto,
        &[],
        &["bash(*git*push*--force*)", "bash(rm *)", "read(r.txt)"],
    ));
    let long = format!("echo {}", "git push ".repeat(2000));
    let out = f.call(&tools, "bash", json!({"command": long}));
    assert!(
        !out.is_error,
        "{}",
        &out.output[..out.output.len().min(300)]
    );
    // The shell's spellings of `rm` meet a deny rule; so does a path through `..`.
    for command in [
        "\\rm -f zz",
        "FOO=1 rm -f zz",
        "/bin/rm -f zz",
        "rm\t-f zz",
        // What the second trial got through: quotes, keywords, prefixes, redirections.
        "'rm' -rf zz",
        "\"rm\" -rf zz",
        "r\\m -rf zz",
        "{ rm -rf zz; }",
        "time rm -rf zz",
        "! rm -rf zz",
        "if true; then rm -rf zz; fi",
        "for d in zz; do rm -rf $d; done",
        "while rm -rf zz; do :; done",
        "exec rm -rf zz",
        "command rm -rf zz",
        "env -i rm -rf zz",
        "nice -n 5 rm -rf zz",
        ">x rm -rf zz",
        "2> log rm -rf zz",
        "f(){ rm -rf zz; }; f",
    ] {
        let out = f.call(&tools, "bash", json!({"command": command}));
        assert!(
            out.is_error && out.output.contains("permissions.deny `bash(rm *)`"),
            "{command:?}: {}",
            out.output
        );
    }
    std::fs::create_dir(f.root().join("sub")).unwrap();
    std::fs::write(f.root().join("r.txt"), "secret\n").unwrap();
    let out = f.call(&tools, "read", json!({"path": "sub/../r.txt"}));
    assert!(
        out.is_error && !out.output.contains("secret"),
        "{}",
        out.output
    );
}

#[test]
fn writing_smiths_or_gits_configuration_is_always_asked_and_refused_unanswered() {
    let host = host();
    let f = Fixture::new();
    std::fs::create_dir_all(f.root().join(".git")).unwrap();
    std::fs::write(f.root().join(".git/config"), "[core]\n").unwrap();
    // Auto mode, and a rule allowing every write: still asked.
    let tools = host
        .loadout()
        .with_policy(policy(PermissionMode::Auto, &["write", "edit"], &[]));
    let (out, prompts) = call_answering(
        &f,
        &tools,
        "write",
        json!({"path": ".smith/config.kdl", "content": "permissions.mode \"auto\"\n"}),
        None,
    );
    assert!(out.is_error, "{}", out.output);
    assert_eq!(prompts.len(), 1, "{prompts:?}");
    assert!(
        prompts[0].contains("configures Smith or git"),
        "{prompts:?}"
    );
    assert!(!f.root().join(".smith/config.kdl").exists());
    let (out, prompts) = call_answering(
        &f,
        &tools,
        "edit",
        json!({"path": ".git/config", "edits": [{"old_text": "[core]", "new_text": "[core]\n\tfsmonitor = x"}]}),
        None,
    );
    assert!(out.is_error && prompts.len() == 1, "{}", out.output);
    assert_eq!(
        std::fs::read_to_string(f.root().join(".git/config")).unwrap(),
        "[core]\n"
    );
    // Allowed once by the person: written.
    let (out, _) = call_answering(
        &f,
        &tools,
        "write",
        json!({"path": ".smith/config.kdl", "content": "model \"x\"\n"}),
        Some("Allow once"),
    );
    assert!(!out.is_error, "{}", out.output);
    assert!(f.root().join(".smith/config.kdl").exists());
}

#[test]
fn a_policy_that_leaves_out_reads_is_not_instantiated_for_them() {
    let host = host();
    let tools = host
        .loadout()
        .with_policy(policy(PermissionMode::Ask, &[], &[]));
    let f = Fixture::new();
    std::fs::write(f.root().join("r.txt"), "r\n").unwrap();
    let instances = |id: &str| {
        tools
            .usage()
            .into_iter()
            .find(|u| u.id == id)
            .map_or(0, |u| u.instances)
    };
    let (permissions, probe) = (instances("permissions"), instances("policy-probe"));
    let out = f.call(&tools, "read", json!({"path": "r.txt"}));
    assert!(!out.is_error, "{}", out.output);
    // `permissions` declares `event "before-effect" read-only=#false`: only its before-tool
    // event; the probe takes every event: before-tool, before-effect and after-tool.
    assert_eq!(instances("permissions") - permissions, 1);
    assert_eq!(instances("policy-probe") - probe, 3);
}

#[test]
fn a_command_too_long_to_show_is_refused_saying_so_not_asked() {
    let host = host();
    let tools = host
        .loadout()
        .with_policy(policy(PermissionMode::Ask, &[], &[]));
    let f = Fixture::new();
    let command = format!("echo {}", "x".repeat(20 * 1024));
    let (out, prompts) = call_answering(&f, &tools, "bash", json!({ "command": command }), None);
    assert!(
        prompts.is_empty(),
        "nobody is asked to allow what they cannot read"
    );
    assert!(
        out.is_error && out.output.contains("too long to be shown whole"),
        "{}",
        &out.output[..out.output.len().min(400)]
    );
}

#[test]
fn a_hooks_handler_runs_programs_recorded_as_effects_of_the_call() {
    let host = host();
    let tools = host
        .loadout()
        .with_policy(policy(PermissionMode::Auto, &[], &[]));
    // Before the call: the program's failure denies it, its stderr the model's reason.
    let f = Fixture::new();
    let out = f.call(
        &tools,
        "write",
        json!({"path": "hook-deny.txt", "content": "x"}),
    );
    assert!(out.is_error, "{}", out.output);
    assert!(
        out.output
            .contains("refused by policy-probe@0.1.0: not on a Friday"),
        "{}",
        out.output
    );
    assert!(!f.root().join("hook-deny.txt").exists());
    let entries = read_session(&f.session).unwrap().entries;
    let intents: Vec<_> = entries
        .iter()
        .filter_map(|e| match &e.record {
            Record::EffectIntent(i) => Some(i),
            _ => None,
        })
        .collect();
    assert_eq!(intents.len(), 1, "only the hook's program ran: {intents:?}");
    assert_eq!(intents[0].effect, "process.run");
    assert!(
        intents[0].effect_id.ends_with("/policy-probe-before-1"),
        "{}",
        intents[0].effect_id
    );
    assert_eq!(intents[0].tool, "policy-probe");
    let done = f.completed();
    assert_eq!(done.len(), 1);
    assert!(done[0].output.contains("checked"), "{}", done[0].output);

    // After the call: its output is a note for the model, and the write and the program are
    // both recorded, in order, with ids unique in the session.
    let f = Fixture::new();
    let out = f.call(
        &tools,
        "write",
        json!({"path": "hook-after.txt", "content": "x"}),
    );
    assert!(!out.is_error, "{}", out.output);
    assert!(
        out.output.contains("[policy-probe@0.1.0] formatted write"),
        "{}",
        out.output
    );
    assert_eq!(
        f.effects(),
        vec![
            ("fs.write".to_owned(), EffectOutcome::Applied),
            ("process.run".to_owned(), EffectOutcome::Unknown),
        ]
    );

    // A program past its timeout is ended, and the call is denied saying so.
    let f = Fixture::new();
    let out = f.call(
        &tools,
        "write",
        json!({"path": "hook-slow.txt", "content": "x"}),
    );
    assert!(
        out.is_error && out.output.contains("timed out after 200 ms"),
        "{}",
        out.output
    );
    assert!(!f.root().join("hook-slow.txt").exists());
}

#[test]
fn a_hooks_handler_runs_no_program_where_programs_are_refused() {
    let host = host();
    let tools = host.loadout().with_policy(smith_host::Policy {
        process: smith_host::ProcessPolicy::Refused("programs are off in this test".to_owned()),
        ..policy(PermissionMode::Auto, &[], &[])
    });
    let f = Fixture::new();
    let out = f.call(
        &tools,
        "write",
        json!({"path": "hook-deny.txt", "content": "x"}),
    );
    assert!(
        out.is_error && out.output.contains("the hook did not run"),
        "{}",
        out.output
    );
    assert_eq!(
        f.effects(),
        vec![("process.run".to_owned(), EffectOutcome::NotApplied)]
    );
}

#[test]
fn in_plan_mode_a_handler_runs_no_program() {
    let host = host();
    let tools = host
        .loadout()
        .with_policy(policy(PermissionMode::Plan, &[], &[]));
    let f = Fixture::new();
    std::fs::write(f.root().join("hook-deny.txt"), "x").unwrap();
    let out = f.call(&tools, "read", json!({"path": "hook-deny.txt"}));
    assert!(
        out.is_error && out.output.contains("the hook did not run"),
        "{}",
        out.output
    );
    assert!(
        f.effects().iter().all(|(e, _)| e != "process.run"),
        "{:?}",
        f.effects()
    );
}

#[test]
fn a_plugin_naming_the_turn_end_event_without_its_export_is_refused_at_load() {
    // The probe is built as the `policy-plugin` world: it has no `turn-end` export.
    let probe = &smith_plugins::POLICY_PROBE;
    let manifest = probe.manifest.replace(
        "handler \"hooks\"",
        "handler \"hooks\"\n    event \"turn-end\"",
    );
    assert!(manifest.contains("turn-end"), "{manifest}");
    let source = smith_host::PluginSource::new(probe.origin, &manifest, probe.component);
    let err = match smith_host::Host::load(&[source], &common::cache(), Default::default()) {
        Ok(_) => panic!("a policy plugin without `turn-end` loaded under a manifest naming it"),
        Err(e) => e.to_string(),
    };
    assert!(
        err.contains("names `event \"turn-end\"`, but it does not export the `hooks-plugin` world"),
        "{err}"
    );
}
