//! Differences between two snapshots, as git prints them (`diff --git`, extended headers, unified
//! hunks with three lines of context), so that `git apply` turns FROM into TO.

use gix::ObjectId;
use gix::objs::tree::EntryKind;
use serde::Serialize;
use similar::{Algorithm, ChangeTag, TextDiff};

use crate::tree::Files;
use crate::{SnapshotId, Vcs, VcsError};

/// The changes from one snapshot to another, in path order.
#[derive(Clone, Debug, Serialize)]
pub struct Diff {
    /// The snapshot compared from (hexadecimal id).
    pub from: String,
    /// The snapshot compared to.
    pub to: String,
    /// One entry per changed path (a path whose kind changed, file ↔ link, is a deletion
    /// followed by an addition, as in git).
    pub files: Vec<FileDiff>,
}

/// What happened to one path.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FileChange {
    /// It exists only in TO.
    Added,
    /// It exists only in FROM.
    Deleted,
    /// Its content changed (and maybe its mode).
    Modified,
    /// Only its mode changed (the executable bit).
    Mode,
}

/// One path's change.
#[derive(Clone, Debug, Serialize)]
pub struct FileDiff {
    /// Relative to the project root, `/`-separated.
    pub path: String,
    /// What happened.
    pub change: FileChange,
    /// Git's mode in FROM (`100644`, `100755`, `120000`), when the path exists there.
    pub old_mode: Option<String>,
    /// Git's mode in TO.
    pub new_mode: Option<String>,
    /// Whether either side is binary (a NUL byte in its first 8,000 bytes, or not UTF-8): the
    /// patch then says only that the files differ.
    pub binary: bool,
    /// Lines added (0 for binary files).
    pub insertions: u64,
    /// Lines removed.
    pub deletions: u64,
    /// This path's part of the unified diff, headers included.
    pub patch: String,
}

/// Totals of a diff, as `git diff --shortstat` counts them.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Serialize)]
pub struct Stat {
    /// Paths changed.
    pub files: u64,
    /// Lines added.
    pub insertions: u64,
    /// Lines removed.
    pub deletions: u64,
}

impl Diff {
    /// The whole unified diff (empty when nothing changed).
    #[must_use]
    pub fn unified(&self) -> String {
        self.files.iter().map(|f| f.patch.as_str()).collect()
    }

    /// The totals.
    #[must_use]
    pub fn stat(&self) -> Stat {
        self.files.iter().fold(Stat::default(), |mut s, f| {
            s.files += 1;
            s.insertions += f.insertions;
            s.deletions += f.deletions;
            s
        })
    }

    /// Git's `--stat` text: one line per path with its count of changed lines, then the totals.
    #[must_use]
    pub fn stat_text(&self) -> String {
        // No change: nothing, as git prints.
        if self.files.is_empty() {
            return String::new();
        }
        let shown: Vec<String> = self.files.iter().map(|f| display_path(&f.path)).collect();
        let width = shown.iter().map(|p| p.chars().count()).max().unwrap_or(0);
        let mut out = String::new();
        for (f, path) in self.files.iter().zip(&shown) {
            let count = if f.binary {
                "Bin".to_owned()
            } else {
                (f.insertions + f.deletions).to_string()
            };
            let bar = format!(
                "{}{}",
                "+".repeat(usize::try_from(f.insertions.min(40)).unwrap_or(40)),
                "-".repeat(usize::try_from(f.deletions.min(40)).unwrap_or(40))
            );
            let sep = if bar.is_empty() { "" } else { " " };
            out.push_str(&format!(" {path:<width$} | {count}{sep}{bar}\n"));
        }
        let s = self.stat();
        let plural = |n: u64, one: &str, many: &str| {
            if n == 1 {
                one.to_owned()
            } else {
                many.to_owned()
            }
        };
        out.push_str(&format!(
            " {} {} changed",
            s.files,
            plural(s.files, "file", "files")
        ));
        if s.insertions > 0 || s.deletions == 0 {
            out.push_str(&format!(
                ", {} {}(+)",
                s.insertions,
                plural(s.insertions, "insertion", "insertions")
            ));
        }
        if s.deletions > 0 {
            out.push_str(&format!(
                ", {} {}(-)",
                s.deletions,
                plural(s.deletions, "deletion", "deletions")
            ));
        }
        out.push('\n');
        out
    }
}

fn mode(kind: EntryKind) -> &'static str {
    match kind {
        EntryKind::BlobExecutable => "100755",
        EntryKind::Link => "120000",
        EntryKind::Tree => "040000",
        EntryKind::Commit => "160000",
        EntryKind::Blob => "100644",
    }
}

impl Vcs {
    /// The changes from snapshot `from` to snapshot `to`.
    ///
    /// # Errors
    /// [`VcsError::Repository`] when a snapshot's objects cannot be read.
    pub fn diff(&self, from: SnapshotId, to: SnapshotId) -> Result<Diff, VcsError> {
        let (old, new) = (self.files(from)?, self.files(to)?);
        // A path one side left out (too large, special) is not absent there: not shown.
        let mut left_out = self.skipped_of(from)?;
        left_out.extend(self.skipped_of(to)?);
        let mut files = Vec::new();
        for (path, change) in changes(&old, &new) {
            if matches!(change, (Some(_), None) | (None, Some(_))) && left_out.contains(path) {
                continue;
            }
            let path = String::from_utf8_lossy(path).into_owned();
            match change {
                (Some(a), Some(b)) if is_link(a.0) != is_link(b.0) => {
                    files.push(self.file_diff(&path, Some(a), None)?);
                    files.push(self.file_diff(&path, None, Some(b))?);
                }
                (a, b) => files.push(self.file_diff(&path, a, b)?),
            }
        }
        Ok(Diff {
            from: from.to_hex(),
            to: to.to_hex(),
            files,
        })
    }

    fn file_diff(
        &self,
        path: &str,
        old: Option<(EntryKind, ObjectId)>,
        new: Option<(EntryKind, ObjectId)>,
    ) -> Result<FileDiff, VcsError> {
        let quoted = (quote(&format!("a/{path}")), quote(&format!("b/{path}")));
        let mut patch = format!("diff --git {} {}\n", quoted.0, quoted.1);
        let zero = "0000000";
        let abbrev = |id: ObjectId| id.to_hex_with_len(7).to_string();
        let change = match (old, new) {
            (None, Some((k, id))) => {
                patch.push_str(&format!(
                    "new file mode {}\nindex {zero}..{}\n",
                    mode(k),
                    abbrev(id)
                ));
                FileChange::Added
            }
            (Some((k, id)), None) => {
                patch.push_str(&format!(
                    "deleted file mode {}\nindex {}..{zero}\n",
                    mode(k),
                    abbrev(id)
                ));
                FileChange::Deleted
            }
            (Some((ka, a)), Some((kb, b))) => {
                if ka != kb {
                    patch.push_str(&format!("old mode {}\nnew mode {}\n", mode(ka), mode(kb)));
                }
                if a == b {
                    FileChange::Mode
                } else {
                    let tail = if ka == kb {
                        format!(" {}", mode(ka))
                    } else {
                        String::new()
                    };
                    patch.push_str(&format!("index {}..{}{tail}\n", abbrev(a), abbrev(b)));
                    FileChange::Modified
                }
            }
            (None, None) => FileChange::Mode,
        };
        let mut out = FileDiff {
            path: path.to_owned(),
            change,
            old_mode: old.map(|o| mode(o.0).to_owned()),
            new_mode: new.map(|n| mode(n.0).to_owned()),
            binary: false,
            insertions: 0,
            deletions: 0,
            patch,
        };
        if change == FileChange::Mode {
            return Ok(out);
        }
        let old_bytes = old.map(|o| self.blob(o.1)).transpose()?.unwrap_or_default();
        let new_bytes = new.map(|n| self.blob(n.1)).transpose()?.unwrap_or_default();
        let (Some(a), Some(b)) = (text(&old_bytes), text(&new_bytes)) else {
            out.binary = true;
            let from = if old.is_some() {
                quoted.0.clone()
            } else {
                "/dev/null".into()
            };
            let to = if new.is_some() {
                quoted.1.clone()
            } else {
                "/dev/null".into()
            };
            out.patch
                .push_str(&format!("Binary files {from} and {to} differ\n"));
            return Ok(out);
        };
        if a.is_empty() && b.is_empty() {
            return Ok(out);
        }
        let diff = TextDiff::configure()
            .algorithm(Algorithm::Myers)
            .diff_lines(a, b);
        for change in diff.iter_all_changes() {
            match change.tag() {
                ChangeTag::Insert => out.insertions += 1,
                ChangeTag::Delete => out.deletions += 1,
                ChangeTag::Equal => {}
            }
        }
        let from = if old.is_some() {
            quoted.0
        } else {
            "/dev/null".into()
        };
        let to = if new.is_some() {
            quoted.1
        } else {
            "/dev/null".into()
        };
        out.patch.push_str(&format!("--- {from}\n+++ {to}\n"));
        for hunk in diff.unified_diff().context_radius(3).iter_hunks() {
            out.patch.push_str(&hunk.to_string());
        }
        Ok(out)
    }
}

fn is_link(kind: EntryKind) -> bool {
    kind == EntryKind::Link
}

/// One side of a change: the entry's kind and blob, or `None` when absent.
pub(crate) type Side = Option<(EntryKind, ObjectId)>;

/// Paths whose entry differs between `old` and `new`, with both sides.
pub(crate) fn changes<'a>(old: &'a Files, new: &'a Files) -> Vec<(&'a Vec<u8>, (Side, Side))> {
    let mut out = Vec::new();
    let (mut a, mut b) = (old.iter().peekable(), new.iter().peekable());
    loop {
        match (a.peek(), b.peek()) {
            (None, None) => break,
            (Some((pa, ea)), Some((pb, eb))) if pa == pb => {
                if ea != eb {
                    out.push((*pa, (Some(**ea), Some(**eb))));
                }
                a.next();
                b.next();
            }
            (Some((pa, ea)), Some((pb, _))) if pa < pb => {
                out.push((*pa, (Some(**ea), None)));
                a.next();
            }
            (Some((pa, ea)), None) => {
                out.push((*pa, (Some(**ea), None)));
                a.next();
            }
            (_, Some((pb, eb))) => {
                out.push((*pb, (None, Some(**eb))));
                b.next();
            }
        }
    }
    out
}

/// The text of `bytes` when git would diff it as text.
fn text(bytes: &[u8]) -> Option<&str> {
    let head = &bytes[..bytes.len().min(8000)];
    if head.contains(&0) {
        return None;
    }
    std::str::from_utf8(bytes).ok()
}

/// A path as git's `diff --git` line writes it: as is, or C-quoted when it holds a control
/// character, a quote or a backslash (git's `quote_c_style`; non-ASCII is kept, as with
/// `core.quotePath=false`, which `git apply` reads either way).
fn quote(path: &str) -> String {
    if !path
        .chars()
        .any(|c| c.is_ascii_control() || c == '"' || c == '\\')
    {
        return path.to_owned();
    }
    quote_always(path)
}

/// A path for a person's terminal: as is, or C-quoted as git does when it holds any control
/// character (C1 ones too, as the octal of their UTF-8 bytes), a quote or a backslash — so a
/// file name can never carry an escape sequence to the terminal.
pub fn display_path(path: &str) -> String {
    if !path
        .chars()
        .any(|c| c.is_control() || c == '"' || c == '\\')
    {
        return path.to_owned();
    }
    quote_always(path)
}

fn quote_always(path: &str) -> String {
    let mut out = String::from("\"");
    for c in path.chars() {
        match c {
            '"' => out.push_str("\\\""),
            '\\' => out.push_str("\\\\"),
            '\t' => out.push_str("\\t"),
            '\n' => out.push_str("\\n"),
            c if c.is_control() => {
                let mut buf = [0u8; 4];
                for b in c.encode_utf8(&mut buf).bytes() {
                    out.push_str(&format!("\\{b:03o}"));
                }
            }
            c => out.push(c),
        }
    }
    out.push('"');
    out
}

#[cfg(test)]
mod display_tests {
    use super::display_path;

    #[test]
    fn a_path_with_control_characters_is_quoted_so_none_reaches_a_terminal() {
        assert_eq!(display_path("src/main.rs"), "src/main.rs");
        assert_eq!(display_path("é.txt"), "é.txt");
        assert_eq!(display_path("\u{1b}[31mred"), "\"\\033[31mred\"");
        assert_eq!(display_path("a\nb"), "\"a\\nb\"");
        // A C1 control (CSI) as the octal of its UTF-8 bytes.
        assert_eq!(display_path("x\u{9b}y"), "\"x\\302\\233y\"");
    }
}
