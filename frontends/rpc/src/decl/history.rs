//! The declarations of the working-tree history methods (`history.*`; the undo/restore
//! guide), kept apart from the session and inspection methods of `decl.rs`.

use serde_json::{Value, json};

use super::code::*;
use super::{Method, Param, p, session, string};

/// The `history.*` methods, in the order the reference lists them.
pub(super) fn methods() -> Vec<Method> {
    vec![
        Method {
            name: "history.undo",
            summary: "Take back the latest change the session's tool batches made to the working tree (the undo/restore guide): the tree is restored to the snapshot before it, after checking that the tree holds no change since the session last recorded it, that no file a snapshot does not hold would be lost and that no write goes through a symbolic link — a refusal changes nothing. Recorded as a `vcs` record, so it can be redone or undone in turn. The session must be open for writing here and idle.",
            params: vec![
                session(),
                p(
                    "turn",
                    false,
                    json!({"type": "boolean"}),
                    "Take back every latest step of the same turn (the last prompt's batches), not just one.",
                ),
                snapshot_first(),
            ],
            result: "The `vcs` record written: `entry`, `op`, `before` and `after` (snapshot ids), `steps` (the entries moved), `target`, `written` and `deleted` (paths).",
            result_schema: moved(),
            errors: &[
                NOT_OPEN, READ_ONLY, BUSY, NOT_FOUND, REFUSED, STATE, CONFIG, STORAGE,
            ],
        },
        Method {
            name: "history.redo",
            summary: "Replay what the latest undo took back (until a new change of the tree clears it), with the same checks as `history.undo`; recorded.",
            params: vec![session(), snapshot_first()],
            result: "The `vcs` record written, as `history.undo`.",
            result_schema: moved(),
            errors: &[
                NOT_OPEN, READ_ONLY, BUSY, NOT_FOUND, REFUSED, STATE, CONFIG, STORAGE,
            ],
        },
        Method {
            name: "history.restore",
            summary: "Restore the working tree to a snapshot of this project, or to its state at an entry of the session (time travel), with the same checks as `history.undo`; recorded as a step `history.undo` takes back.",
            params: vec![
                session(),
                p(
                    "target",
                    true,
                    string(),
                    "A snapshot id (7 to 40 hexadecimal digits), or an entry id of the session (fewer than 7 digits).",
                ),
                snapshot_first(),
            ],
            result: "The `vcs` record written, as `history.undo`.",
            result_schema: moved(),
            errors: &[
                NOT_OPEN, READ_ONLY, BUSY, NOT_FOUND, REFUSED, STATE, CONFIG, STORAGE,
            ],
        },
        Method {
            name: "history.diff",
            summary: "What changed in the working tree, as a git-format diff (`git apply` takes its `patch`), registered secrets as their references: without `from`, the session's latest change; with `from` only, from there to the tree as it is now; read-only, so an observed session can be diffed too.",
            params: vec![
                session(),
                p(
                    "from",
                    false,
                    string(),
                    "A snapshot id or an entry id of the session (the state of the tree at it).",
                ),
                p(
                    "to",
                    false,
                    string(),
                    "As `from`; default: the working tree now. Needs `from`.",
                ),
            ],
            result: "`from` and `to` (snapshot ids), `files` (each with `path`, `change`, `old_mode`, `new_mode`, `binary`, `insertions`, `deletions`, `patch`), `patch` (the whole unified diff) and `stat` (git's summary).",
            result_schema: json!({"type": "object", "required": ["from", "to", "files", "patch", "stat"], "properties": {"from": {"type": "string"}, "to": {"type": "string"}, "files": {"type": "array"}, "patch": {"type": "string"}, "stat": {"type": "string"}}}),
            errors: &[NOT_OPEN, NOT_FOUND, REFUSED, STATE, CONFIG, STORAGE],
        },
    ]
}

fn snapshot_first() -> Param {
    p(
        "snapshot_first",
        false,
        json!({"type": "boolean"}),
        "When the tree changed since the session last recorded it, keep those changes in a snapshot (the record's `before`) and go on instead of refusing.",
    )
}

/// What `history.undo`, `history.redo` and `history.restore` answer.
fn moved() -> Value {
    json!({"type": "object", "required": ["entry", "op", "before", "after", "steps", "written", "deleted"], "properties": {
        "entry": {"type": "integer"},
        "op": {"enum": ["undo", "redo", "restore"]},
        "before": {"type": "string"},
        "after": {"type": "string"},
        "steps": {"type": "array", "items": {"type": "integer"}},
        "target": {"type": ["string", "null"]},
        "written": {"type": "array", "items": {"type": "string"}},
        "deleted": {"type": "array", "items": {"type": "string"}},
        "editor": {"type": ["object", "null"], "description": "What an attached editor was told (ACP): `written` paths and `failed` `{path, why}`; null without one.", "properties": {
            "written": {"type": "array", "items": {"type": "string"}},
            "failed": {"type": "array", "items": {"type": "object", "properties": {"path": {"type": "string"}, "why": {"type": "string"}}}}
        }}
    }})
}
