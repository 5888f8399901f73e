//! The search facilities behind `smith:plugin/fs.find` and `fs.grep`: in-process walks of a
//! directory inside a granted root (the `ignore` crate's walker, the `globset`, `grep-regex`
//! and `grep-searcher` crates — ripgrep's own), with no shell or helper program.
//!
//! Rules (documented for plugin authors in the `plugins` guide):
//! - **Deterministic order**: one sequential walk, each directory's entries sorted by file
//!   name, so the same tree gives the same results in the same order; bounded results are the
//!   first ones in that order, and a cut says so (`truncated`).
//! - **Ignore files** (when `respect-ignore-files`), exactly as ripgrep reads them: `.ignore`
//!   everywhere; `.gitignore`, `.git/info/exclude` and the user's global git excludes inside
//!   a git repository; those of parent directories too. Hidden entries (a leading `.`) are skipped
//!   unless `include-hidden`; `.git` itself is always skipped.
//! - **Symlinks are never followed**: `find` lists them as `symlink`; `grep` does not read
//!   them. Every file `grep` reads is opened through the root's directory handle, so nothing
//!   outside the root is read even if the tree changes during the walk.
//! - **Binary files** (a NUL byte) are skipped by `grep` and reported (count and the first
//!   [`MAX_REPORTED`] paths).

use std::path::{Path, PathBuf};

use globset::{GlobBuilder, GlobMatcher};
use grep_regex::RegexMatcherBuilder;
use grep_searcher::{BinaryDetection, Searcher, SearcherBuilder, Sink, SinkMatch};
use ignore::WalkBuilder;

use crate::fsops::{FsFailure, ListedKind, Root};

/// The most results (paths or matching lines) one call returns.
pub const MAX_RESULTS: u32 = 1000;
/// Results returned when a request asks for 0.
pub const DEFAULT_RESULTS: u32 = 100;
/// Longest matching line returned, in bytes; longer lines are cut with `…`.
pub const MAX_LINE_BYTES: usize = 300;
/// How many binary-file paths and walk errors are named (the rest are counted).
pub const MAX_REPORTED: usize = 20;
/// Largest pattern, in bytes (the tools' schemas say 4,096 characters).
pub const MAX_PATTERN_BYTES: usize = 16 * 1024;
/// Largest compiled regular expression, in bytes.
const REGEX_SIZE_LIMIT: usize = 8 << 20;
/// Longest line `grep` holds in memory, in bytes: a file with a longer line is skipped and
/// reported among the errors (the search's memory stays bounded).
pub const MAX_LINE_HEAP: usize = 16 << 20;

/// How a walk treats ignore files and hidden entries.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct WalkOptions {
    /// Honour `.gitignore`, `.ignore` and git's excludes.
    pub respect_ignore_files: bool,
    /// Include entries whose names start with `.` (never `.git`).
    pub include_hidden: bool,
}

impl Default for WalkOptions {
    /// Respect ignore files; skip hidden entries (what `rg` does).
    fn default() -> Self {
        Self {
            respect_ignore_files: true,
            include_hidden: false,
        }
    }
}

/// One path `find` matched.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Found {
    /// The path relative to the root, `/`-separated.
    pub path: String,
    /// What it is (symlinks are not followed).
    pub kind: ListedKind,
    /// Size in bytes (0 for directories and symlinks).
    pub size: u64,
}

/// What `find` returns.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FindResult {
    /// Matching paths in walk order.
    pub entries: Vec<Found>,
    /// More paths matched than were returned.
    pub truncated: bool,
    /// Walk errors (unreadable directories, bad ignore files), the first [`MAX_REPORTED`].
    pub errors: Vec<String>,
}

/// One matching line.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GrepMatch {
    /// The file, relative to the root, `/`-separated.
    pub path: String,
    /// The 1-based line number.
    pub line: u64,
    /// The line without its terminator, lossily UTF-8; a longer line than
    /// [`MAX_LINE_BYTES`] is a window of that size around the match, `…` marking the cuts.
    pub text: String,
}

/// What `grep` returns.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct GrepResult {
    /// Matching lines in walk order, then line order.
    pub matches: Vec<GrepMatch>,
    /// More lines matched than were returned (the search stopped there).
    pub truncated: bool,
    /// Text files searched.
    pub files_searched: u64,
    /// Binary files skipped: the first [`MAX_REPORTED`] paths.
    pub binary_files: Vec<String>,
    /// Binary files skipped in all.
    pub binary_count: u64,
    /// Unreadable files and walk errors, the first [`MAX_REPORTED`].
    pub errors: Vec<String>,
}

/// A `grep` request.
#[derive(Clone, Debug)]
pub struct GrepRequest<'a> {
    /// The directory (or single file) to search, relative to the root or absolute inside it.
    pub path: &'a str,
    /// A regular expression (Rust `regex` syntax), or a literal when `literal`.
    pub pattern: &'a str,
    /// Match `pattern` as a literal string.
    pub literal: bool,
    /// Match case-insensitively.
    pub case_insensitive: bool,
    /// Only files whose name (or, with a `/`, relative path) matches this glob.
    pub glob: Option<&'a str>,
    /// The most matching lines to return (0: [`DEFAULT_RESULTS`]; at most [`MAX_RESULTS`]).
    pub limit: u32,
    /// Ignore-file and hidden-entry handling.
    pub options: WalkOptions,
}

fn effective_limit(limit: u32) -> usize {
    (if limit == 0 { DEFAULT_RESULTS } else { limit }).min(MAX_RESULTS) as usize
}

/// A glob pattern: against the file name when it has no `/`, else against the path relative
/// to the walk's start.
struct Glob {
    matcher: GlobMatcher,
    whole_path: bool,
    /// The pattern ended in `/`: only directories match.
    directories_only: bool,
}

impl Glob {
    fn new(given: &str) -> Result<Self, FsFailure> {
        // `./src/*.rs` means `src/*.rs`; `build/` means the directories named `build`.
        let mut pattern = given;
        while let Some(rest) = pattern.strip_prefix("./") {
            pattern = rest;
        }
        let directories_only = pattern.len() > 1 && pattern.ends_with('/');
        let pattern = if directories_only {
            pattern.trim_end_matches('/')
        } else {
            pattern
        };
        if pattern.is_empty() {
            return Err(FsFailure::Invalid(format!(
                "`{given}` is not a glob that can match a name; use e.g. `*.rs`, `src/**/*.toml`"
            )));
        }
        let glob = GlobBuilder::new(pattern)
            .literal_separator(true)
            .backslash_escape(true)
            .build()
            .map_err(|e| {
                FsFailure::Invalid(format!(
                    "`{given}` is not a valid glob ({e}); use e.g. `*.rs`, `src/**/*.toml`"
                ))
            })?;
        Ok(Self {
            matcher: glob.compile_matcher(),
            whole_path: pattern.contains('/'),
            directories_only,
        })
    }

    fn is_match(&self, relative: &Path, is_dir: bool) -> bool {
        if self.directories_only && !is_dir {
            return false;
        }
        if self.whole_path {
            self.matcher.is_match(relative)
        } else {
            relative
                .file_name()
                .is_some_and(|name| self.matcher.is_match(name))
        }
    }
}

/// Bounded list of error messages plus a count.
#[derive(Default)]
struct Reported {
    named: Vec<String>,
}

impl Reported {
    fn push(&mut self, message: String) {
        if self.named.len() < MAX_REPORTED {
            self.named.push(message);
        }
    }
}

/// A walk from `start` (canonical, inside the root) in deterministic order.
fn walk(start: &Path, options: WalkOptions) -> ignore::Walk {
    let mut builder = WalkBuilder::new(start);
    builder
        .follow_links(false)
        .hidden(!options.include_hidden)
        .ignore(options.respect_ignore_files)
        .git_ignore(options.respect_ignore_files)
        .git_exclude(options.respect_ignore_files)
        .git_global(options.respect_ignore_files)
        .parents(options.respect_ignore_files)
        .require_git(true)
        .filter_entry(|e| e.file_name() != ".git")
        .sort_by_file_name(std::cmp::Ord::cmp);
    builder.build()
}

/// A walk that polls cancellation per entry and collects walk errors instead of yielding them.
struct Walked<'a> {
    root: &'a Root,
    walk: ignore::Walk,
    cancelled: &'a dyn Fn() -> bool,
    errors: Reported,
}

impl<'a> Walked<'a> {
    fn new(
        root: &'a Root,
        start: &Path,
        options: WalkOptions,
        cancelled: &'a dyn Fn() -> bool,
    ) -> Self {
        Self {
            root,
            walk: walk(start, options),
            cancelled,
            errors: Reported::default(),
        }
    }

    /// The next entry; `Err` once the call was cancelled.
    fn next_entry(&mut self) -> Result<Option<ignore::DirEntry>, FsFailure> {
        for item in self.walk.by_ref() {
            if (self.cancelled)() {
                return Err(cancelled_failure());
            }
            match item {
                Ok(entry) => return Ok(Some(entry)),
                Err(e) => self.errors.push(walk_error(self.root, &e)),
            }
        }
        Ok(None)
    }
}

/// `path` relative to the root, `/`-separated; `Err` with a report when the name is not
/// UTF-8 (tools address files by UTF-8 text, so such a file cannot be named back).
fn display(root: &Root, path: &Path) -> Result<String, String> {
    let rel = path.strip_prefix(root.path()).unwrap_or(path);
    match rel.to_str() {
        Some("") => Ok(".".to_owned()),
        Some(text) => Ok(text.to_owned()),
        None => Err(format!(
            "`{}`: the name is not valid UTF-8, so no tool can name it; skipped (rename it to search it)",
            rel.to_string_lossy()
        )),
    }
}

fn kind_of(ty: Option<std::fs::FileType>) -> ListedKind {
    match ty {
        Some(t) if t.is_symlink() => ListedKind::Symlink,
        Some(t) if t.is_dir() => ListedKind::Directory,
        Some(t) if t.is_file() => ListedKind::File,
        _ => ListedKind::Other,
    }
}

fn walk_error(root: &Root, e: &ignore::Error) -> String {
    let text = e.to_string();
    // Keep messages relative to the root (and free of the host's layout).
    text.replace(&format!("{}/", root.path().display()), "")
}

impl Root {
    /// Find paths under `path` whose name (or, with a `/` in `pattern`, relative path)
    /// matches the glob `pattern`, in walk order; at most `limit` (0: [`DEFAULT_RESULTS`],
    /// capped at [`MAX_RESULTS`]). `cancelled` is polled per entry.
    ///
    /// # Errors
    /// [`FsFailure`]: a bad glob (`Invalid`), a start outside the root (`Denied`) or missing
    /// (`NotFound`), or cancellation (`Invalid`, saying so).
    pub fn find(
        &self,
        path: &str,
        pattern: &str,
        limit: u32,
        options: WalkOptions,
        cancelled: &dyn Fn() -> bool,
    ) -> Result<FindResult, FsFailure> {
        let glob = Glob::new(pattern)?;
        let base = self.start(path)?;
        if !base.is_dir() {
            return Err(FsFailure::Invalid(format!(
                "`{path}` is a file; find looks inside a directory — pass the directory holding it"
            )));
        }
        let limit = effective_limit(limit);
        let mut result = FindResult::default();
        let mut walked = Walked::new(self, &base, options, cancelled);
        while let Some(entry) = walked.next_entry()? {
            if entry.depth() == 0 {
                continue;
            }
            let relative = entry.path().strip_prefix(&base).unwrap_or(entry.path());
            let kind = kind_of(entry.file_type());
            if !glob.is_match(relative, kind == ListedKind::Directory) {
                continue;
            }
            let path = match display(self, entry.path()) {
                Ok(path) => path,
                Err(report) => {
                    walked.errors.push(report);
                    continue;
                }
            };
            if result.entries.len() == limit {
                result.truncated = true;
                break;
            }
            let size = match kind {
                ListedKind::File => entry.metadata().map(|m| m.len()).unwrap_or(0),
                _ => 0,
            };
            result.entries.push(Found { path, kind, size });
        }
        result.errors = walked.errors.named;
        Ok(result)
    }

    /// Search the text files under `request.path` for lines matching `request.pattern`, in
    /// walk order; the search stops after the limit. Binary files are skipped and reported.
    /// `cancelled` is polled per file.
    ///
    /// # Errors
    /// [`FsFailure`]: a bad pattern or glob (`Invalid`), a start outside the root (`Denied`)
    /// or missing (`NotFound`), or cancellation.
    pub fn grep(
        &self,
        request: &GrepRequest<'_>,
        cancelled: &dyn Fn() -> bool,
    ) -> Result<GrepResult, FsFailure> {
        if request.pattern.is_empty() || request.pattern.len() > MAX_PATTERN_BYTES {
            return Err(FsFailure::Invalid(format!(
                "the pattern is {} bytes long; it must be 1 to {MAX_PATTERN_BYTES} bytes",
                request.pattern.len()
            )));
        }
        if !request.literal {
            check_regex(request.pattern, request.case_insensitive)?;
        }
        let matcher = RegexMatcherBuilder::new()
            .case_insensitive(request.case_insensitive)
            .fixed_strings(request.literal)
            .line_terminator(Some(b'\n'))
            .size_limit(REGEX_SIZE_LIMIT)
            .dfa_size_limit(REGEX_SIZE_LIMIT)
            .build(request.pattern)
            .map_err(|e| {
                let text = e.to_string();
                FsFailure::Invalid(if text.contains("line terminator") || text.contains("not allowed") {
                    format!(
                        "`{}` can match a line break, but grep matches one line at a time; search for the text on either side of the break separately",
                        request.pattern
                    )
                } else {
                    format!("`{}` cannot be searched for: {text}", request.pattern)
                })
            })?;
        let glob = request.glob.map(Glob::new).transpose()?;
        let base = self.start(request.path)?;
        let limit = effective_limit(request.limit);
        let mut searcher = SearcherBuilder::new()
            .line_number(true)
            .binary_detection(BinaryDetection::quit(0))
            .heap_limit(Some(MAX_LINE_HEAP))
            .build();
        let mut result = GrepResult::default();
        let mut walked = Walked::new(self, &base, request.options, cancelled);
        while let Some(entry) = walked.next_entry()? {
            if !entry.file_type().is_some_and(|t| t.is_file()) {
                continue; // directories, and symlinks (never followed)
            }
            let relative = entry.path().strip_prefix(&base).unwrap_or(entry.path());
            if entry.depth() > 0 && glob.as_ref().is_some_and(|g| !g.is_match(relative, false)) {
                continue;
            }
            let shown = match display(self, entry.path()) {
                Ok(shown) => shown,
                Err(report) => {
                    walked.errors.push(report);
                    continue;
                }
            };
            let inside = entry
                .path()
                .strip_prefix(self.path())
                .unwrap_or(entry.path());
            let file = match self.open_confined(inside) {
                Ok(file) => file,
                Err(e) => {
                    walked.errors.push(format!("{shown}: {e}"));
                    continue;
                }
            };
            let mut sink = Collect {
                path: &shown,
                matcher: &matcher,
                matches: Vec::new(),
                room: limit - result.matches.len(),
                binary: false,
                more: false,
            };
            if let Err(e) = searcher.search_reader(&matcher, file, &mut sink) {
                let why = if e.to_string().contains("allocation limit") {
                    format!(
                        "a line is longer than {} MiB (the search's memory bound)",
                        MAX_LINE_HEAP >> 20
                    )
                } else {
                    e.to_string()
                };
                walked.errors.push(format!("{shown}: not searched: {why}"));
                continue;
            }
            if sink.binary {
                result.binary_count += 1;
                if result.binary_files.len() < MAX_REPORTED {
                    result.binary_files.push(shown);
                }
                continue;
            }
            result.files_searched += 1;
            result.matches.append(&mut sink.matches);
            if sink.more {
                result.truncated = true;
                break;
            }
        }
        result.errors = walked.errors.named;
        Ok(result)
    }

    /// The walk's start: `path` (a directory or file inside the root) as a canonical path.
    fn start(&self, path: &str) -> Result<PathBuf, FsFailure> {
        let path = if path.is_empty() { "." } else { path };
        let rel = self.relative_path(path)?;
        // The confined lookup refuses escapes through `..` or symlinks…
        let meta = self.metadata_confined(&rel).map_err(|e| match e.kind() {
            std::io::ErrorKind::NotFound => FsFailure::NotFound(format!("`{path}` does not exist")),
            std::io::ErrorKind::NotADirectory => FsFailure::Invalid(format!(
                "`{path}` goes through a file as if it were a directory; remove the trailing part"
            )),
            _ => FsFailure::Denied(format!(
                "`{path}` is outside the granted root or not accessible ({e})"
            )),
        })?;
        if meta.is_symlink() {
            return Err(FsFailure::Invalid(format!(
                "`{path}` is a symlink; search its target's path instead"
            )));
        }
        // …and the walk starts from the canonical path, checked to lie inside the root.
        let start = self
            .path()
            .join(&rel)
            .canonicalize()
            .map_err(|e| FsFailure::Io(format!("`{path}`: {e}")))?;
        if !start.starts_with(self.path()) {
            return Err(FsFailure::Denied(format!(
                "`{path}` leads outside the granted root {}",
                self.path().display()
            )));
        }
        Ok(start)
    }
}

/// Check `pattern` with the `regex` crate first: its errors point at the user's own pattern
/// (the searcher's quote a wrapped form of it).
fn check_regex(pattern: &str, case_insensitive: bool) -> Result<(), FsFailure> {
    match regex::RegexBuilder::new(pattern)
        .case_insensitive(case_insensitive)
        .size_limit(REGEX_SIZE_LIMIT)
        .build()
    {
        Ok(_) => Ok(()),
        Err(regex::Error::CompiledTooBig(limit)) => Err(FsFailure::Invalid(format!(
            "`{pattern}` compiles to more than {limit} bytes; simplify it (smaller repetition counts, fewer alternatives)"
        ))),
        Err(e) => Err(FsFailure::Invalid(format!(
            "`{pattern}` is not a valid regular expression (Rust regex syntax):\n{e}\nescape special characters such as ( [ {{ . * + ? with a backslash, or set `literal` to search for the text as it is"
        ))),
    }
}

fn cancelled_failure() -> FsFailure {
    FsFailure::Invalid("the search was cancelled".to_owned())
}

/// Collects one file's matches; notes binary data and a reached limit.
struct Collect<'p> {
    path: &'p str,
    matcher: &'p grep_regex::RegexMatcher,
    matches: Vec<GrepMatch>,
    room: usize,
    binary: bool,
    more: bool,
}

impl Sink for Collect<'_> {
    type Error = std::io::Error;

    fn matched(&mut self, _: &Searcher, m: &SinkMatch<'_>) -> Result<bool, std::io::Error> {
        if self.matches.len() == self.room {
            self.more = true;
            return Ok(false);
        }
        let mut line = m.bytes();
        while let [rest @ .., b'\n' | b'\r'] = line {
            line = rest;
        }
        let text = if line.len() > MAX_LINE_BYTES {
            // A window of the line around the match, so the match itself is shown.
            let at = grep_matcher::Matcher::find(self.matcher, line)
                .ok()
                .flatten()
                .map_or(0, |m| m.start());
            let is_continuation = |b: u8| (b & 0b1100_0000) == 0b1000_0000;
            let mut from = at.saturating_sub(MAX_LINE_BYTES / 3);
            while from > 0 && is_continuation(line[from]) {
                from -= 1;
            }
            let mut to = (from + MAX_LINE_BYTES).min(line.len());
            while to < line.len() && is_continuation(line[to]) {
                to -= 1;
            }
            let mut window = String::new();
            if from > 0 {
                window.push('…');
            }
            window.push_str(&String::from_utf8_lossy(&line[from..to]));
            if to < line.len() {
                window.push('…');
            }
            window
        } else {
            String::from_utf8_lossy(line).into_owned()
        };
        self.matches.push(GrepMatch {
            path: self.path.to_owned(),
            line: m.line_number().unwrap_or(0),
            text,
        });
        Ok(true)
    }

    fn binary_data(&mut self, _: &Searcher, _offset: u64) -> Result<bool, std::io::Error> {
        self.binary = true;
        self.matches.clear();
        Ok(false)
    }
}
