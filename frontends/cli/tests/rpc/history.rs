//! `history.undo`, `history.redo`, `history.restore` and `history.diff`: the working-tree
//! history over the protocol, on a session this server writes (the operations go through its
//! own writer), with the refusals as error objects that change nothing.

use serde_json::json;

use crate::client::{Client, all_protocol};
use crate::common::Env;

const SCRIPT: &str = r##"round {
  tool-call id="c1" name="edit" arguments=#"{"path": "a.txt", "edits": [{"old_text": "world", "new_text": "there"}]}"#
  stop "tool_use"
}
round {
  text "edited"
  stop "end_turn"
}
"##;

#[test]
fn undo_redo_restore_and_diff_over_the_protocol() {
    let env = Env::new();
    let dir = env.root.path().join("project");
    std::fs::create_dir_all(dir.join(".smith")).unwrap();
    let file = dir.join("a.txt");
    std::fs::write(&file, "hello\nworld\n").unwrap();
    let script = env.write("edit.kdl", SCRIPT);
    let mut c = Client::start_in(&env, &[], &dir);
    let s = c.create();
    let receipt = c.result(
        "session.submit",
        json!({"session": s, "input": "edit it", "model": "scripted/history", "script": script}),
    );
    let submission = receipt["submission"].as_u64().unwrap();
    let settled = c.result(
        "session.wait",
        json!({"session": s, "submission": submission}),
    );
    assert_eq!(settled["stop_reason"], "end_turn", "{settled}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "hello\nthere\n");

    // The latest change, as git's diff.
    let diff = c.result("history.diff", json!({"session": s}));
    assert_eq!(diff["files"][0]["path"], "a.txt", "{diff}");
    let patch = diff["patch"].as_str().unwrap();
    assert!(patch.contains("-world\n+there\n"), "{patch}");
    assert!(diff["stat"].as_str().unwrap().contains("1 file changed"));
    let before = diff["from"].as_str().unwrap().to_owned();

    let undone = c.result("history.undo", json!({"session": s}));
    assert_eq!(undone["op"], "undo", "{undone}");
    assert_eq!(undone["written"], json!(["a.txt"]));
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "hello\nworld\n");
    let nothing = c.error("history.undo", json!({"session": s}));
    assert_eq!(nothing["code"], -32010, "{nothing}");

    let redone = c.result("history.redo", json!({"session": s}));
    assert_eq!(redone["op"], "redo");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "hello\nthere\n");

    let restored = c.result(
        "history.restore",
        json!({"session": s, "target": &before[..12]}),
    );
    assert_eq!(restored["op"], "restore", "{restored}");
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "hello\nworld\n");

    // A hand edit since the last record: refused, and nothing changes.
    std::fs::write(&file, "mine\n").unwrap();
    let refused = c.error("history.undo", json!({"session": s}));
    assert_eq!(refused["code"], -32005, "{refused}");
    assert!(
        refused["message"].as_str().unwrap().contains("a.txt"),
        "{refused}"
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "mine\n");
    // Asked to, it keeps the hand edit in a snapshot and goes on.
    let kept = c.result(
        "history.undo",
        json!({"session": s, "snapshot_first": true}),
    );
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "hello\nthere\n");
    let back = c.result(
        "history.diff",
        json!({"session": s, "from": kept["before"], "to": kept["after"]}),
    );
    assert!(
        back["patch"].as_str().unwrap().contains("-mine\n"),
        "{back}"
    );

    // Bad targets: not found, nothing changed.
    for target in ["zzzz", "0000000", "999999"] {
        let missing = c.error("history.restore", json!({"session": s, "target": target}));
        assert_eq!(missing["code"], -32004, "{target}: {missing}");
    }
    assert_eq!(std::fs::read_to_string(&file).unwrap(), "hello\nthere\n");
    let bad = c.error("history.diff", json!({"session": s, "to": "abcdef0"}));
    assert_eq!(bad["code"], -32602, "{bad}");

    let (status, lines, stderr) = c.finish();
    assert!(status.success(), "{stderr}");
    all_protocol(&lines);
}
