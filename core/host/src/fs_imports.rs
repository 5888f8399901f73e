//! The `smith:plugin/fs` imports: file and search facilities confined to the granted root
//! ([`crate::fsops`], [`crate::search`]), each a durable effect.

use serde_json::json;
use smith::EffectOutcome;

use crate::effects::{CallState, Done, EffectCall, EffectError};
use crate::fsops::{FsFailure, Listed, ListedKind, Root};
use crate::grants::Effect;
use crate::runtime::State;
use crate::runtime::bindings::smith::plugin::{fs, host};
use crate::search::{self, WalkOptions};

impl EffectError for fs::FsError {
    fn denied(message: String) -> Self {
        Self::Denied(message)
    }
    fn cancelled() -> Self {
        Self::Cancelled
    }
    fn io(message: String) -> Self {
        Self::Io(message)
    }
}

/// A file effect's value, output recorded in the completion, and evidence.
struct Ran<T> {
    value: T,
    output: Vec<u8>,
    evidence: serde_json::Value,
}

impl CallState {
    /// Run file effect `effect` on `target` durably in the granted root.
    fn fs_effect<T>(
        &mut self,
        effect: Effect,
        target: &str,
        input: serde_json::Value,
        run: impl FnOnce(&Root, &CallState) -> Result<Ran<T>, FsFailure>,
    ) -> Result<T, fs::FsError> {
        let call = EffectCall {
            effect,
            target,
            input,
            leaves_sandbox: false,
            refused: None,
        };
        self.durable(call, |state| {
            let root = state
                .granted
                .roots
                .first()
                .ok_or_else(|| FsFailure::Denied("no root is granted".to_owned()))
                .and_then(|r| Root::open(r));
            match root.and_then(|root| run(&root, state)) {
                Ok(ran) => Done {
                    outcome: EffectOutcome::Applied,
                    result: Ok(ran.value),
                    output: ran.output,
                    evidence: ran.evidence,
                },
                Err(failure) => {
                    let outcome = match failure {
                        FsFailure::Uncertain(_) => EffectOutcome::Unknown,
                        FsFailure::Denied(_)
                        | FsFailure::NotFound(_)
                        | FsFailure::Invalid(_)
                        | FsFailure::Io(_) => EffectOutcome::NotApplied,
                    };
                    let text = failure.to_string();
                    Done {
                        outcome,
                        result: Err(to_wit(failure)),
                        output: text.into_bytes(),
                        evidence: serde_json::Value::Null,
                    }
                }
            }
        })
    }
}

impl CallState {
    /// The session's attached editor, when its frontend keeps one ([`smith::Editor`]).
    fn editor(&self) -> Option<smith::Editor> {
        self.resident
            .as_ref()
            .and_then(|r| r.get::<smith::Editor>())
            .map(|e| (*e).clone())
    }
}

/// The editor's failure as a file failure naming `path`.
fn editor_failure(path: &str, why: &str) -> FsFailure {
    FsFailure::Io(format!(
        "the editor could not give `{path}`: {why}; nothing was changed"
    ))
}

/// Send `text` to the attached editor as `path`'s new content (after the disk has it): what
/// the evidence records of it, and a note for the call's result when the editor refused it.
fn tell_editor(
    editor: Option<&smith::Editor>,
    root: &Root,
    path: &str,
    text: &str,
) -> (serde_json::Value, Option<String>) {
    let Some(editor) = editor.filter(|e| e.write) else {
        return (serde_json::Value::Null, None);
    };
    match root
        .editor_path(path)
        .map_err(|f| f.to_string())
        .and_then(|abs| editor.files.write(&abs, text))
    {
        Ok(()) => (json!("written"), None),
        Err(why) => (
            json!(format!("not written: {why}")),
            Some(format!(
                "[`{path}` was written to disk, but the editor did not take it ({why}): its buffer may still show the old text]"
            )),
        ),
    }
}

fn walk_options(o: fs::WalkOptions) -> WalkOptions {
    WalkOptions {
        respect_ignore_files: o.respect_ignore_files,
        include_hidden: o.include_hidden,
    }
}

fn kind(k: ListedKind) -> fs::EntryKind {
    match k {
        ListedKind::File => fs::EntryKind::File,
        ListedKind::Directory => fs::EntryKind::Directory,
        ListedKind::Symlink => fs::EntryKind::Symlink,
        ListedKind::Other => fs::EntryKind::Other,
    }
}

fn to_wit(f: FsFailure) -> fs::FsError {
    match f {
        FsFailure::Denied(m) => fs::FsError::Denied(m),
        FsFailure::NotFound(m) => fs::FsError::NotFound(m),
        FsFailure::Invalid(m) => fs::FsError::Invalid(m),
        FsFailure::Io(m) | FsFailure::Uncertain(m) => fs::FsError::Io(m),
    }
}

impl fs::Host for State {
    fn read_lines(
        &mut self,
        path: String,
        offset: u32,
        limit: u32,
    ) -> Result<fs::LineWindow, fs::FsError> {
        let input = json!({"path": path, "offset": offset, "limit": limit});
        let editor = self.call.editor().filter(|e| e.read);
        self.call
            .fs_effect(Effect::ReadFile, &path, input, |root, _| {
                // An attached editor's buffer, unsaved changes included, else the disk.
                let (w, source) = match &editor {
                    Some(editor) => {
                        let abs = root.editor_path(&path)?;
                        let text = editor
                            .files
                            .read(&abs)
                            .map_err(|why| editor_failure(&path, &why))?;
                        (
                            crate::fsops::window(&path, text.as_bytes(), offset, limit)?,
                            "editor",
                        )
                    }
                    None => (root.read_lines(&path, offset, limit)?, "disk"),
                };
                Ok(Ran {
                    output: w.text.clone().into_bytes(),
                    evidence: json!({"sha256": w.sha256, "total_lines": w.total_lines, "source": source}),
                    value: fs::LineWindow {
                        text: w.text,
                        first_line: w.first_line,
                        last_line: w.last_line,
                        total_lines: w.total_lines,
                        sha256: w.sha256,
                    },
                })
            })
    }

    fn write_file(&mut self, path: String, content: String) -> Result<String, fs::FsError> {
        let input = json!({"path": path, "content": content});
        // The local effect boundary: the file gets the plaintext where the secret policy
        // allows it, the record the reference.
        let content = self.call.restore(&content, "fs.write", &path);
        let editor = self.call.editor();
        let mut note = None;
        let done = self
            .call
            .fs_effect(Effect::WriteFile, &path, input, |root, _| {
                let before = root.read_lines(&path, 1, 1).ok().map(|w| w.sha256);
                // The disk first (the history's snapshots read it), then the editor's buffer.
                let hash = root.write_file(&path, content.as_bytes())?;
                let (told, said) = tell_editor(editor.as_ref(), root, &path, &content);
                note = said;
                Ok(Ran {
                    output: hash.clone().into_bytes(),
                    evidence: json!({"before_sha256": before, "after_sha256": hash, "editor": told}),
                    value: hash,
                })
            });
        self.call.notes.extend(note);
        done
    }

    fn edit_file(
        &mut self,
        path: String,
        edits: Vec<fs::Replacement>,
        expected_sha256: Option<String>,
    ) -> Result<String, fs::FsError> {
        let pairs: Vec<(String, String)> = edits
            .into_iter()
            .map(|e| (e.old_text, e.new_text))
            .collect();
        let input = json!({
            "path": path,
            "edits": pairs.iter().map(|(o, n)| json!({"old_text": o, "new_text": n})).collect::<Vec<_>>(),
            "expected_sha256": expected_sha256,
        });
        let pairs: Vec<(String, String)> = pairs
            .iter()
            .map(|(o, n)| {
                (
                    self.call.restore(o, "fs.edit", &path),
                    self.call.restore(n, "fs.edit", &path),
                )
            })
            .collect();
        let editor = self.call.editor();
        let mut note = None;
        let done = self
            .call
            .fs_effect(Effect::EditFile, &path, input, |root, _| {
                let (before, hash, told) = match &editor {
                    // With an editor attached: its buffer (unsaved changes included) when it
                    // serves reads, else the disk's text, edited, written to disk and given
                    // to the editor.
                    Some(ed) => {
                        let bytes = if ed.read {
                            let abs = root.editor_path(&path)?;
                            ed.files
                                .read(&abs)
                                .map_err(|why| editor_failure(&path, &why))?
                                .into_bytes()
                        } else {
                            root.editable(&path)?
                        };
                        let before = crate::fsops::sha256_hex(&bytes);
                        let out = crate::fsops::edited(
                            &path,
                            bytes,
                            &pairs,
                            expected_sha256.as_deref(),
                        )?;
                        let hash = root.write_file(&path, out.as_bytes())?;
                        let (told, said) = tell_editor(editor.as_ref(), root, &path, &out);
                        note = said;
                        (Some(before), hash, told)
                    }
                    None => {
                        let before = root.read_lines(&path, 1, 1).ok().map(|w| w.sha256);
                        let hash = root.edit_file(&path, &pairs, expected_sha256.as_deref())?;
                        (before, hash, serde_json::Value::Null)
                    }
                };
                Ok(Ran {
                    output: hash.clone().into_bytes(),
                    evidence: json!({"before_sha256": before, "after_sha256": hash, "editor": told}),
                    value: hash,
                })
            });
        self.call.notes.extend(note);
        done
    }

    fn list_dir(&mut self, path: String) -> Result<Vec<fs::DirEntry>, fs::FsError> {
        let input = json!({"path": path});
        self.call
            .fs_effect(Effect::ListDir, &path, input, |root, _| {
                let listed = root.list_dir(&path)?;
                let output = listed
                    .iter()
                    .map(|l| l.name.as_str())
                    .collect::<Vec<_>>()
                    .join("\n")
                    .into_bytes();
                Ok(Ran {
                    output,
                    evidence: json!({"entries": listed.len()}),
                    value: listed.into_iter().map(entry).collect(),
                })
            })
    }

    fn find(
        &mut self,
        path: String,
        pattern: String,
        limit: u32,
        options: fs::WalkOptions,
    ) -> Result<fs::FindResult, fs::FsError> {
        let input = json!({
            "path": path, "pattern": pattern, "limit": limit,
            "respect_ignore_files": options.respect_ignore_files,
            "include_hidden": options.include_hidden,
        });
        self.call
            .fs_effect(Effect::Find, &path, input, |root, state| {
                let found = root.find(&path, &pattern, limit, walk_options(options), &|| {
                    state.cancel.is_cancelled()
                })?;
                let output = found
                    .entries
                    .iter()
                    .map(|f| f.path.as_str())
                    .collect::<Vec<_>>()
                    .join("\n")
                    .into_bytes();
                Ok(Ran {
                    output,
                    evidence: json!({
                        "entries": found.entries.len(),
                        "truncated": found.truncated,
                        "errors": found.errors,
                    }),
                    value: fs::FindResult {
                        entries: found
                            .entries
                            .into_iter()
                            .map(|f| fs::Found {
                                path: f.path,
                                kind: kind(f.kind),
                                size: f.size,
                            })
                            .collect(),
                        truncated: found.truncated,
                        errors: found.errors,
                    },
                })
            })
    }

    fn grep(&mut self, request: fs::GrepRequest) -> Result<fs::GrepResult, fs::FsError> {
        let input = json!({
            "path": request.path, "pattern": request.pattern, "literal": request.literal,
            "case_insensitive": request.case_insensitive, "glob": request.glob,
            "limit": request.limit,
            "respect_ignore_files": request.options.respect_ignore_files,
            "include_hidden": request.options.include_hidden,
        });
        let target = request.path.clone();
        self.call
            .fs_effect(Effect::Grep, &target, input, |root, state| {
                let found = root.grep(
                    &search::GrepRequest {
                        path: &request.path,
                        pattern: &request.pattern,
                        literal: request.literal,
                        case_insensitive: request.case_insensitive,
                        glob: request.glob.as_deref(),
                        limit: request.limit,
                        options: walk_options(request.options),
                    },
                    &|| state.cancel.is_cancelled(),
                )?;
                let output = found
                    .matches
                    .iter()
                    .map(|m| format!("{}:{}:{}", m.path, m.line, m.text))
                    .collect::<Vec<_>>()
                    .join("\n")
                    .into_bytes();
                Ok(Ran {
                    output,
                    evidence: json!({
                        "matches": found.matches.len(),
                        "truncated": found.truncated,
                        "files_searched": found.files_searched,
                        "binary_count": found.binary_count,
                        "binary_files": found.binary_files,
                        "errors": found.errors,
                    }),
                    value: fs::GrepResult {
                        matches: found
                            .matches
                            .into_iter()
                            .map(|m| fs::GrepMatch {
                                path: m.path,
                                line: m.line,
                                text: m.text,
                            })
                            .collect(),
                        truncated: found.truncated,
                        files_searched: found.files_searched,
                        binary_files: found.binary_files,
                        binary_count: found.binary_count,
                        errors: found.errors,
                    },
                })
            })
    }
}

fn entry(l: Listed) -> fs::DirEntry {
    fs::DirEntry {
        name: l.name,
        kind: kind(l.kind),
        size: l.size,
    }
}

impl host::Host for State {
    fn cancelled(&mut self) -> bool {
        self.call.cancel.is_cancelled()
    }

    fn progress(&mut self, message: String) {
        // Transient by contract: relayed as a tool update, never recorded; long messages are
        // cut so a plugin cannot flood the interface.
        if let Some(tx) = &self.call.events {
            let mut text = message;
            if text.len() > 500 {
                let mut cut = 500;
                while !text.is_char_boundary(cut) {
                    cut -= 1;
                }
                text.truncate(cut);
                text.push('…');
            }
            let _ = tx.send(smith::ToolEvent::Progress(text));
        }
    }

    fn structured(&mut self, json: String) {
        // Checked when the call returns (against the tool's output schema); kept as given.
        self.call.structured = Some(json);
    }

    fn setting(&mut self, name: String) -> Option<String> {
        // Only the declared settings were handed over (`Policy::settings_of`).
        self.call.granted.settings.get(&name).cloned()
    }
}

impl crate::runtime::bindings::smith::plugin::types::Host for State {}
