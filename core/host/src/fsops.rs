//! The file facilities behind the `smith:plugin/fs` imports, confined to a root directory with
//! `cap-std`: every path is opened relative to the root's directory handle, so `..`, absolute
//! paths and symlinks cannot reach outside it (the check and the use are one operation, with
//! no window between them).

use std::io::{BufRead, BufReader, Read, Write};
use std::path::{Component, Path, PathBuf};

use cap_std::ambient_authority;
use cap_std::fs::{Dir, OpenOptions};
use sha2::{Digest, Sha256};

/// Largest number of lines one read returns.
pub const MAX_READ_LINES: u32 = 2000;
/// Largest number of bytes of text one read returns.
pub const MAX_READ_BYTES: usize = 256 * 1024;
/// Largest file `write-file` and `edit-file` handle, in bytes.
pub const MAX_WRITE_BYTES: usize = 16 * 1024 * 1024;
/// Largest number of entries one listing returns.
pub const MAX_LIST_ENTRIES: usize = 1000;
/// How much of a file's start is examined to tell text from binary.
const SNIFF_BYTES: usize = 8192;

/// Why a file facility did not act (mirrors the WIT `fs-error`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum FsFailure {
    /// Outside the granted roots, or not granted.
    Denied(String),
    /// No such file or directory.
    NotFound(String),
    /// Cannot be done as asked.
    Invalid(String),
    /// The OS failed before anything changed.
    Io(String),
    /// The change was made but may not be durable (a sync after it failed).
    Uncertain(String),
}

impl std::fmt::Display for FsFailure {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Denied(m) => write!(f, "denied: {m}"),
            Self::NotFound(m) => write!(f, "not found: {m}"),
            Self::Invalid(m) => write!(f, "invalid: {m}"),
            Self::Io(m) => write!(f, "I/O error: {m}"),
            Self::Uncertain(m) => write!(f, "uncertain: {m}"),
        }
    }
}

impl std::error::Error for FsFailure {}

/// A window of a text file.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Window {
    /// The lines.
    pub text: String,
    /// First line number (1-based; 0 for an empty file).
    pub first_line: u32,
    /// Last line number (0 for an empty file).
    pub last_line: u32,
    /// Lines in the file.
    pub total_lines: u32,
    /// SHA-256 of the whole file, hex.
    pub sha256: String,
}

/// One directory entry.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Listed {
    /// File name.
    pub name: String,
    /// `file`, `directory`, `symlink` or `other`.
    pub kind: ListedKind,
    /// Size in bytes (0 for directories).
    pub size: u64,
}

/// The kind of a listed entry.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ListedKind {
    /// A regular file.
    File,
    /// A directory.
    Directory,
    /// A symbolic link.
    Symlink,
    /// Anything else.
    Other,
}

/// A root directory file effects are confined to.
#[derive(Debug)]
pub struct Root {
    dir: Dir,
    path: PathBuf,
}

fn hex(bytes: &[u8]) -> String {
    bytes.iter().map(|b| format!("{b:02x}")).collect()
}

/// SHA-256 of `bytes`, hex.
pub fn sha256_hex(bytes: &[u8]) -> String {
    hex(&Sha256::digest(bytes))
}

fn io_failure(path: &str, e: &std::io::Error) -> FsFailure {
    match e.kind() {
        std::io::ErrorKind::NotFound => FsFailure::NotFound(format!("`{path}` does not exist")),
        std::io::ErrorKind::PermissionDenied => FsFailure::Denied(format!(
            "`{path}` is outside the granted roots or not accessible ({e})"
        )),
        _ => FsFailure::Io(format!("`{path}`: {e}")),
    }
}

impl Root {
    /// Open `path` (an existing directory) as a root.
    ///
    /// # Errors
    /// The directory cannot be opened.
    pub fn open(path: &Path) -> Result<Self, FsFailure> {
        let canonical = path
            .canonicalize()
            .map_err(|e| io_failure(&path.display().to_string(), &e))?;
        let dir = Dir::open_ambient_dir(&canonical, ambient_authority())
            .map_err(|e| io_failure(&canonical.display().to_string(), &e))?;
        Ok(Self {
            dir,
            path: canonical,
        })
    }

    /// The root's canonical path.
    pub fn path(&self) -> &Path {
        &self.path
    }

    /// `requested` resolved as [`Root::relative`] does, for the other facilities.
    pub(crate) fn relative_path(&self, requested: &str) -> Result<PathBuf, FsFailure> {
        self.relative(requested)
    }

    /// The metadata of `rel` (not following a final symlink), looked up confined to the root.
    pub(crate) fn metadata_confined(&self, rel: &Path) -> std::io::Result<cap_std::fs::Metadata> {
        self.dir.symlink_metadata(rel)
    }

    /// Open the file `rel` for reading, confined to the root.
    pub(crate) fn open_confined(&self, rel: &Path) -> std::io::Result<cap_std::fs::File> {
        self.dir.open(rel)
    }

    /// `requested` as a path relative to the root: relative paths as they are, absolute ones
    /// only when they lie inside the root. `..` and symlinks are left for the confined open to
    /// refuse.
    fn relative(&self, requested: &str) -> Result<PathBuf, FsFailure> {
        if requested.is_empty() || requested.contains('\0') {
            return Err(FsFailure::Invalid(
                "the path is empty or contains a NUL byte".to_owned(),
            ));
        }
        let p = Path::new(requested);
        let rel = if p.is_absolute() {
            p.strip_prefix(&self.path)
                .map_err(|_| {
                    FsFailure::Denied(format!(
                        "`{requested}` is outside the granted root {}",
                        self.path.display()
                    ))
                })?
                .to_owned()
        } else {
            p.to_owned()
        };
        // A lexical `..` above the root is refused here with a clear message (the confined
        // open would refuse it too).
        let mut depth = 0i32;
        for c in rel.components() {
            match c {
                Component::ParentDir => depth -= 1,
                Component::Normal(_) => depth += 1,
                _ => {}
            }
            if depth < 0 {
                return Err(FsFailure::Denied(format!(
                    "`{requested}` leads outside the granted root {}",
                    self.path.display()
                )));
            }
        }
        Ok(if rel.as_os_str().is_empty() {
            PathBuf::from(".")
        } else {
            rel
        })
    }

    /// Read up to `limit` lines from 1-based line `offset` of the text file `requested`.
    ///
    /// # Errors
    /// [`FsFailure`] naming the path: outside the root, missing, binary, or an I/O error.
    pub fn read_lines(
        &self,
        requested: &str,
        offset: u32,
        limit: u32,
    ) -> Result<Window, FsFailure> {
        let rel = self.relative(requested)?;
        let file = self.dir.open(&rel).map_err(|e| io_failure(requested, &e))?;
        let meta = file.metadata().map_err(|e| io_failure(requested, &e))?;
        if meta.is_dir() {
            return Err(FsFailure::Invalid(format!(
                "`{requested}` is a directory; list it instead"
            )));
        }
        window(
            requested,
            BufReader::with_capacity(64 * 1024, file),
            offset,
            limit,
        )
    }

    /// `requested` as the absolute path an attached editor is asked about: inside the root,
    /// and — when a file is there on disk — one the confined open reaches (a symlink leaving
    /// the root is refused as it is for every file effect). A file only the editor has (a new
    /// buffer not saved yet) is allowed.
    ///
    /// # Errors
    /// [`FsFailure::Denied`] or [`FsFailure::Invalid`] for a path outside the root;
    /// [`FsFailure::Io`] for one the confined open refuses.
    pub fn editor_path(&self, requested: &str) -> Result<PathBuf, FsFailure> {
        // Normalized, so the editor is asked about the very path checked here.
        let mut rel = PathBuf::new();
        for part in self.relative(requested)?.components() {
            match part {
                Component::Normal(name) => rel.push(name),
                Component::CurDir => {}
                Component::ParentDir if rel.pop() => {}
                _ => {
                    return Err(FsFailure::Denied(format!(
                        "`{requested}` leaves the granted root"
                    )));
                }
            }
        }
        match self.dir.open(&rel) {
            Ok(file) if file.metadata().is_ok_and(|m| m.is_dir()) => Err(FsFailure::Invalid(
                format!("`{requested}` is a directory; list it instead"),
            )),
            Ok(_) => Ok(self.path.join(rel)),
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => Ok(self.path.join(rel)),
            Err(e) => Err(io_failure(requested, &e)),
        }
    }

    /// Replace (or create) `requested` with `content` atomically; returns the new SHA-256.
    ///
    /// # Errors
    /// [`FsFailure`]: outside the root, a directory or symlink in the way, too large, I/O.
    pub fn write_file(&self, requested: &str, content: &[u8]) -> Result<String, FsFailure> {
        if content.len() > MAX_WRITE_BYTES {
            return Err(FsFailure::Invalid(format!(
                "{} bytes exceed the write bound of {MAX_WRITE_BYTES} bytes",
                content.len()
            )));
        }
        let rel = self.relative(requested)?;
        self.replace(requested, &rel, content)?;
        Ok(sha256_hex(content))
    }

    /// Apply exact replacements to the text file `requested`, all or none, atomically.
    ///
    /// # Errors
    /// [`FsFailure::Invalid`] for no match, several matches, overlapping edits, stale input
    /// (`expected_sha256` differs) or a non-text file; the others as for reads and writes.
    pub fn edit_file(
        &self,
        requested: &str,
        edits: &[(String, String)],
        expected_sha256: Option<&str>,
    ) -> Result<String, FsFailure> {
        let rel = self.relative(requested)?;
        let bytes = self.editable(requested)?;
        let out = edited(requested, bytes, edits, expected_sha256)?;
        self.replace(requested, &rel, out.as_bytes())?;
        Ok(sha256_hex(out.as_bytes()))
    }

    /// The whole content of `requested`, at most the edit bound.
    ///
    /// # Errors
    /// [`FsFailure::Invalid`] past [`MAX_WRITE_BYTES`]; a path or I/O failure.
    pub fn editable(&self, requested: &str) -> Result<Vec<u8>, FsFailure> {
        let rel = self.relative(requested)?;
        let mut file = self.dir.open(&rel).map_err(|e| io_failure(requested, &e))?;
        let mut bytes = Vec::new();
        (&mut file)
            .take(MAX_WRITE_BYTES as u64 + 1)
            .read_to_end(&mut bytes)
            .map_err(|e| io_failure(requested, &e))?;
        if bytes.len() > MAX_WRITE_BYTES {
            return Err(FsFailure::Invalid(format!(
                "`{requested}` is larger than the edit bound of {MAX_WRITE_BYTES} bytes"
            )));
        }
        Ok(bytes)
    }

    /// List the directory `requested`: the first [`MAX_LIST_ENTRIES`] entries by name.
    ///
    /// # Errors
    /// As for reads.
    pub fn list_dir(&self, requested: &str) -> Result<Vec<Listed>, FsFailure> {
        let rel = self.relative(requested)?;
        let entries = self
            .dir
            .read_dir(&rel)
            .map_err(|e| io_failure(requested, &e))?;
        let mut out = Vec::new();
        for entry in entries {
            let entry = entry.map_err(|e| io_failure(requested, &e))?;
            let name = entry.file_name().to_string_lossy().into_owned();
            let ty = entry.file_type().map_err(|e| io_failure(requested, &e))?;
            let kind = if ty.is_symlink() {
                ListedKind::Symlink
            } else if ty.is_dir() {
                ListedKind::Directory
            } else if ty.is_file() {
                ListedKind::File
            } else {
                ListedKind::Other
            };
            let size = match kind {
                ListedKind::File => entry.metadata().map(|m| m.len()).unwrap_or(0),
                _ => 0,
            };
            out.push(Listed { name, kind, size });
        }
        out.sort_by(|a, b| a.name.cmp(&b.name));
        out.truncate(MAX_LIST_ENTRIES);
        Ok(out)
    }

    /// Write `content` to a temporary file beside `rel`, sync it, rename it over `rel`, and
    /// sync the directory: readers see the old or the new file, never a mix.
    fn replace(&self, requested: &str, rel: &Path, content: &[u8]) -> Result<(), FsFailure> {
        let name = rel
            .file_name()
            .ok_or_else(|| FsFailure::Invalid(format!("`{requested}` names no file")))?;
        let parent = rel.parent().filter(|p| !p.as_os_str().is_empty());
        if let Some(parent) = parent {
            self.dir
                .create_dir_all(parent)
                .map_err(|e| io_failure(requested, &e))?;
        }
        let parent_dir = match parent {
            Some(p) => self
                .dir
                .open_dir(p)
                .map_err(|e| io_failure(requested, &e))?,
            None => self
                .dir
                .try_clone()
                .map_err(|e| io_failure(requested, &e))?,
        };
        let existing = parent_dir.symlink_metadata(name);
        let permissions = match &existing {
            Ok(m) if m.is_dir() => {
                return Err(FsFailure::Invalid(format!("`{requested}` is a directory")));
            }
            Ok(m) if m.is_symlink() => {
                return Err(FsFailure::Invalid(format!(
                    "`{requested}` is a symbolic link; write to the file it points at"
                )));
            }
            Ok(m) => Some(m.permissions()),
            Err(_) => None,
        };
        let mut random = [0u8; 6];
        getrandom_fill(&mut random);
        let temp = format!(".{}.smith-{}.tmp", name.to_string_lossy(), hex(&random));
        let staged = (|| {
            let mut file =
                parent_dir.open_with(&temp, OpenOptions::new().write(true).create_new(true))?;
            file.write_all(content)?;
            file.sync_all()?;
            drop(file);
            if let Some(p) = permissions {
                parent_dir.set_permissions(&temp, p)?;
            }
            parent_dir.rename(&temp, &parent_dir, name)
        })();
        if let Err(e) = staged {
            // Nothing replaced the file: the rename is the one step that changes it.
            let _ = parent_dir.remove_file(&temp);
            return Err(io_failure(requested, &e));
        }
        // The new content is in place; only its durability is left to establish.
        parent_dir
            .open(".")
            .and_then(|d| d.sync_all())
            .map_err(|e| {
                FsFailure::Uncertain(format!(
                    "`{requested}` was replaced but syncing its directory failed ({e}); the change may not survive a crash"
                ))
            })
    }
}

/// `bytes` (a file's content, or an attached editor's buffer of it) with `edits` applied:
/// each `(old, new)` replaces the one place `old` occurs; `expected_sha256`, when given, must
/// be the content's hash (a stale read is refused).
///
/// # Errors
/// [`FsFailure::Invalid`]: a stale hash, text that is not UTF-8, no edits, an empty, missing,
/// repeated or overlapping `old`, a result past the write bound.
pub fn edited(
    requested: &str,
    bytes: Vec<u8>,
    edits: &[(String, String)],
    expected_sha256: Option<&str>,
) -> Result<String, FsFailure> {
    let current = sha256_hex(&bytes);
    if let Some(expected) = expected_sha256
        && !expected.eq_ignore_ascii_case(&current)
    {
        return Err(FsFailure::Invalid(format!(
            "stale input: `{requested}` changed since it was read (sha256 {current}, expected {expected}); read it again and redo the edit"
        )));
    }
    let text = String::from_utf8(bytes).map_err(|_| {
        FsFailure::Invalid(format!(
            "`{requested}` is not UTF-8 text; it cannot be edited"
        ))
    })?;
    if edits.is_empty() {
        return Err(FsFailure::Invalid("no edits were given".to_owned()));
    }
    let mut spans = Vec::with_capacity(edits.len());
    for (n, (old, new)) in edits.iter().enumerate() {
        if old.is_empty() {
            return Err(FsFailure::Invalid(format!(
                "edit {}: old_text is empty",
                n + 1
            )));
        }
        let mut found = text.match_indices(old.as_str());
        let Some((at, _)) = found.next() else {
            return Err(FsFailure::Invalid(format!(
                "edit {}: old_text was not found in `{requested}`; read the file and copy the text exactly",
                n + 1
            )));
        };
        let more = found.count();
        if more > 0 {
            return Err(FsFailure::Invalid(format!(
                "edit {}: old_text occurs {} times in `{requested}`; include more surrounding text so it matches once",
                n + 1,
                more + 1
            )));
        }
        spans.push((at, at + old.len(), new.as_str(), n + 1));
    }
    spans.sort_by_key(|s| s.0);
    for pair in spans.windows(2) {
        if pair[1].0 < pair[0].1 {
            return Err(FsFailure::Invalid(format!(
                "edits {} and {} overlap; combine them into one",
                pair[0].3, pair[1].3
            )));
        }
    }
    let mut out = String::with_capacity(text.len());
    let mut at = 0;
    for (start, end, new, _) in &spans {
        out.push_str(&text[at..*start]);
        out.push_str(new);
        at = *end;
    }
    out.push_str(&text[at..]);
    if out.len() > MAX_WRITE_BYTES {
        return Err(FsFailure::Invalid(format!(
            "the edited file would exceed the bound of {MAX_WRITE_BYTES} bytes"
        )));
    }
    Ok(out)
}

/// The window of lines `offset`.. (1-based, at most `limit`) of the text `reader` gives, with
/// its line count and SHA-256 — a file's, or an attached editor's buffer of it.
///
/// # Errors
/// [`FsFailure::Invalid`] for binary content or an offset past the end; [`FsFailure::Io`].
pub fn window(
    requested: &str,
    mut reader: impl BufRead,
    offset: u32,
    limit: u32,
) -> Result<Window, FsFailure> {
    let first = offset.max(1);
    let limit = limit.clamp(1, MAX_READ_LINES);
    let mut hasher = Sha256::new();
    let mut line = Vec::new();
    let mut number = 0u32;
    let mut text = String::new();
    let (mut shown_first, mut shown_last) = (0u32, 0u32);
    let mut sniffed = 0usize;
    let mut sniff = Vec::with_capacity(SNIFF_BYTES);
    loop {
        line.clear();
        let n = reader
            .read_until(b'\n', &mut line)
            .map_err(|e| io_failure(requested, &e))?;
        if n == 0 {
            break;
        }
        hasher.update(&line);
        if sniffed < SNIFF_BYTES {
            let take = (SNIFF_BYTES - sniffed).min(line.len());
            sniff.extend_from_slice(&line[..take]);
            sniffed += take;
            if is_binary(&sniff, sniffed >= SNIFF_BYTES) {
                return Err(FsFailure::Invalid(format!(
                    "`{requested}` is not a text file (binary content in its first {SNIFF_BYTES} bytes)"
                )));
            }
        }
        number = number.saturating_add(1);
        if number >= first
            && number < first.saturating_add(limit)
            && text.len() + line.len() <= MAX_READ_BYTES
        {
            if shown_first == 0 {
                shown_first = number;
            }
            shown_last = number;
            text.push_str(&String::from_utf8_lossy(&line));
        }
    }
    if number > 0 && first > number {
        return Err(FsFailure::Invalid(format!(
            "`{requested}` has {number} lines; offset {first} is past its end"
        )));
    }
    Ok(Window {
        text,
        first_line: shown_first,
        last_line: shown_last,
        total_lines: number,
        sha256: hex(&hasher.finalize()),
    })
}

/// Fill `buf` with bytes that make temporary names unique (time and a counter; they need not
/// be secret, `create_new` refuses a collision).
fn getrandom_fill(buf: &mut [u8]) {
    use std::sync::atomic::{AtomicU64, Ordering};
    static COUNTER: AtomicU64 = AtomicU64::new(0);
    let nanos = std::time::SystemTime::now()
        .duration_since(std::time::UNIX_EPOCH)
        .map_or(0, |d| d.as_nanos() as u64);
    let mix = nanos
        ^ COUNTER.fetch_add(1, Ordering::Relaxed).rotate_left(32)
        ^ u64::from(std::process::id());
    for (i, b) in buf.iter_mut().enumerate() {
        *b = (mix >> (i * 8)) as u8;
    }
}

/// Whether `head` (whole lines of a file's start, or its first bytes `cut` at the sniff
/// bound) looks binary: a NUL byte, or bytes that are not UTF-8 (a sequence the cut split is
/// fine).
fn is_binary(head: &[u8], cut: bool) -> bool {
    if head.contains(&0) {
        return true;
    }
    match std::str::from_utf8(head) {
        Ok(_) => false,
        Err(e) => e.error_len().is_some() || !cut,
    }
}
