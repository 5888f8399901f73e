//! Recovery in a real terminal: a turn a killed process cut off is shown as interrupted —
//! Enter continues it without running its recorded write again, Esc settles it — and an
//! effect it left of unknown outcome is offered for a verdict when the session opens, which
//! the continuation then shows the model.

use smith_store::{Record, read_session};

use crate::common::Env;
use crate::pane::Pane;
use crate::quit;

/// The terminal UI on `session`, as model `scripted/t` playing `script`.
fn continuing(env: &Env, session: &str, script: &std::path::Path) -> Pane {
    let args = [
        "--session",
        session,
        "--model",
        "scripted/t",
        "--script",
        script.to_str().unwrap(),
    ];
    Pane::start(env, &args, &[])
}

/// A turn killed between rounds (its write recorded, the next request held at a gate): the
/// terminal UI's banner says what it had done; Enter continues it to its answer without
/// writing again; a second such turn is settled with Esc.
#[test]
fn an_interrupted_turn_is_continued_with_enter_and_settled_with_esc() {
    let env = Env::new();
    let (session, path) = env.killed_after_a_write();
    let rest = env.write(
        "rest.kdl",
        "round {\n  text \"continued to the end\"\n  stop \"end_turn\"\n}\n",
    );
    let pane = continuing(&env, &session, &rest);
    pane.wait_for_text("Enter continues it");
    let screen = pane.screen();
    assert!(
        screen.contains("1 model response and 1 tool call answered"),
        "{screen}"
    );
    pane.keys(&["Enter"]);
    pane.wait_for_text("continued to the end");
    pane.wait_for_text("scripted/t · idle");
    assert!(!pane.screen().contains("Enter continues it"));
    crate::quit(&pane);
    pane.assert_restored();
    assert_eq!(
        std::fs::read_to_string(env.root.path().join("out.txt")).unwrap(),
        "changed\n",
        "the recorded write ran again"
    );

    // Killed again in a new session; this time Esc settles it as aborted.
    let (session, path2) = env.killed_after_a_write();
    assert_ne!(path, path2);
    let pane = continuing(&env, &session, &rest);
    pane.wait_for_text("Enter continues it");
    pane.keys(&["Escape"]);
    pane.wait_for_text("settled as aborted");
    crate::quit(&pane);
    pane.assert_restored();
    let ends: Vec<_> = smith_store::read_session(&path2)
        .unwrap()
        .entries
        .into_iter()
        .filter_map(|e| match e.record {
            smith_store::Record::RunEnd(end) => Some(end.stop_reason),
            _ => None,
        })
        .collect();
    assert_eq!(ends, vec![smith::StopReason::Aborted]);
}

/// A turn killed inside a read of a named pipe leaves an effect of unknown outcome: opening
/// the session offers it for a verdict; the note typed and Ctrl+A record `applied`, paired
/// with the effect's completion (whose evidence stays), and the picker closes, every effect
/// judged. The verdict does not settle the interrupted turn: its banner is there, and Enter
/// continues it with the verdict in the call's result, the read not run again. Reopened, the
/// session offers nothing.
#[test]
fn an_unknown_effect_is_offered_for_a_verdict_when_the_session_opens() {
    let env = Env::new();
    let (session, path) = env.session_killed_mid_effect();
    // Were the read run again, it would wait on the pipe.
    let rest = env.write(
        "rest.kdl",
        "round {\n  text \"going on without the read\"\n  stop \"end_turn\"\n}\n",
    );
    let pane = continuing(&env, &session, &rest);
    pane.wait_for_text("Effects of unknown outcome");
    let screen = pane.screen();
    assert!(
        screen.contains("fs.read pipe") && screen.contains("no verdict yet"),
        "{screen}"
    );
    pane.type_text("nothing wrote the pipe");
    pane.keys(&["C-a"]);
    pane.wait_for_text("verdict applied recorded");
    pane.wait_for_text("Enter continues it");
    // Under the picker, closed now: the opening's notice naming the effect cut off.
    let screen = pane.screen();
    assert!(
        screen.contains("outcome is unknown (c1/1)")
            && screen.contains("smith effects")
            && !screen.contains("Effects of unknown outcome"),
        "{screen}"
    );
    pane.keys(&["Enter"]);
    pane.wait_for_text("going on without the read");
    quit(&pane);
    pane.assert_restored();

    let file = read_session(&path).unwrap();
    let completion = file
        .entries
        .iter()
        .find_map(|e| match &e.record {
            Record::EffectCompletion(c) => Some((e.id, c.outcome)),
            _ => None,
        })
        .expect("the cut-off read was completed as unknown");
    assert_eq!(completion.1, smith::EffectOutcome::Unknown);
    let verdicts: Vec<_> = file
        .entries
        .iter()
        .filter_map(|e| match &e.record {
            Record::EffectVerdict(v) => Some((e.pair, v.outcome, v.note.clone())),
            _ => None,
        })
        .collect();
    assert_eq!(
        verdicts,
        vec![(
            Some(completion.0),
            smith::EffectOutcome::Applied,
            "nothing wrote the pipe".to_owned()
        )]
    );
    let intents = file
        .entries
        .iter()
        .filter(|e| matches!(e.record, Record::EffectIntent(_)))
        .count();
    assert_eq!(intents, 1, "the read ran again");
    let results: Vec<_> = file
        .entries
        .iter()
        .filter_map(|e| match &e.record {
            Record::ToolResult(r) => Some(r.result.output.clone()),
            _ => None,
        })
        .collect();
    assert_eq!(results.len(), 1, "{results:?}");
    assert!(
        results[0].contains("a person found it applied (nothing wrote the pipe)"),
        "{}",
        results[0]
    );

    // Every effect has its verdict: nothing is offered again (the effects are read before
    // the session is said ready).
    let pane = continuing(&env, &session, &rest);
    pane.wait_for_text("scripted/t · idle");
    assert!(!pane.screen().contains("Effects of unknown outcome"));
    quit(&pane);
    pane.assert_restored();
}
