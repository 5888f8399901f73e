//! The JSON lines of a file being imported, read one at a time and bounded, hashing every
//! byte as it goes.

use std::io::{BufRead, BufReader, Read};
use std::path::{Path, PathBuf};

use sha2::{Digest, Sha256};

use super::{ImportError, Line, MAX_FILE_BYTES, MAX_LINE_BYTES};

/// The first bytes of a Smith session file (its binary header).
const SESSION_MAGIC: &[u8] = b"SMITHSES";

/// An iterator over a file's JSON-object lines (blank lines skipped). A last line without a
/// newline that is not JSON ends the iteration as [`Lines::torn`]; any other bad line is an
/// error item, after which the iteration ends.
pub(super) struct Lines {
    path: PathBuf,
    reader: BufReader<std::fs::File>,
    hasher: Sha256,
    number: u64,
    bytes: u64,
    torn: Option<usize>,
    done: bool,
    buf: Vec<u8>,
}

impl Lines {
    pub(super) fn new(path: &Path, file: std::fs::File) -> Self {
        Self {
            path: path.to_owned(),
            reader: BufReader::with_capacity(1 << 16, file),
            hasher: Sha256::new(),
            number: 0,
            bytes: 0,
            torn: None,
            done: false,
            buf: Vec::new(),
        }
    }

    /// The size of the torn last line left out, once the iteration ended.
    pub(super) fn torn(&self) -> Option<usize> {
        self.torn
    }

    /// The number of the last line read.
    pub(super) fn number(&self) -> u64 {
        self.number
    }

    /// SHA-256 (hex) of every byte read.
    pub(super) fn sha256(&self) -> String {
        super::hex(&self.hasher.clone().finalize())
    }

    fn malformed(&self, reason: String) -> ImportError {
        ImportError::Malformed {
            path: self.path.clone(),
            line: self.number,
            reason,
        }
    }

    /// The next line, or `None` at the end; errors end the iteration.
    fn read_line(&mut self) -> Result<Option<Line>, ImportError> {
        loop {
            self.buf.clear();
            let read = (&mut self.reader)
                .take(MAX_LINE_BYTES as u64 + 1)
                .read_until(b'\n', &mut self.buf)
                .map_err(|source| ImportError::Io {
                    path: self.path.clone(),
                    source,
                })?;
            if read == 0 {
                return Ok(None);
            }
            self.number += 1;
            self.bytes += read as u64;
            self.hasher.update(&self.buf);
            if self.buf.len() > MAX_LINE_BYTES {
                return Err(ImportError::TooLarge {
                    path: self.path.clone(),
                    what: format!("line {} is longer than {MAX_LINE_BYTES} bytes", self.number),
                });
            }
            if self.bytes > MAX_FILE_BYTES {
                return Err(ImportError::TooLarge {
                    path: self.path.clone(),
                    what: format!("more than {MAX_FILE_BYTES} bytes"),
                });
            }
            if self.number == 1 && self.buf.starts_with(SESSION_MAGIC) {
                return Err(self.malformed(
                    "this is a Smith session file itself, not an export: it needs no import (`smith sessions export ID` makes the JSONL one imports)".into(),
                ));
            }
            let mut bytes: &[u8] = &self.buf;
            if self.number == 1 {
                bytes = bytes.strip_prefix(b"\xef\xbb\xbf").unwrap_or(bytes);
            }
            let complete = bytes.ends_with(b"\n");
            let text = std::str::from_utf8(bytes).map_err(|e| {
                self.malformed(format!(
                    "not UTF-8 (invalid byte at column {})",
                    e.valid_up_to() + 1
                ))
            })?;
            if text.trim().is_empty() {
                continue;
            }
            return match serde_json::from_str::<serde_json::Value>(text) {
                Ok(value) if value.is_object() => Ok(Some(Line {
                    number: self.number,
                    value,
                })),
                Ok(_) => Err(self.malformed("not a JSON object".into())),
                Err(_) if !complete => {
                    self.torn = Some(self.buf.len());
                    Ok(None)
                }
                Err(e) => Err(self.malformed(format!(
                    "not JSON ({}, at column {})",
                    json_problem(&e),
                    e.column()
                ))),
            };
        }
    }
}

/// What serde_json found wrong, without its own line and column.
fn json_problem(e: &serde_json::Error) -> String {
    let text = e.to_string();
    match text.rfind(" at line ") {
        Some(at) => text[..at].to_owned(),
        None => text,
    }
}

impl Iterator for Lines {
    type Item = Result<Line, ImportError>;

    fn next(&mut self) -> Option<Self::Item> {
        if self.done {
            return None;
        }
        match self.read_line() {
            Ok(Some(line)) => Some(Ok(line)),
            Ok(None) => {
                self.done = true;
                None
            }
            Err(e) => {
                self.done = true;
                Some(Err(e))
            }
        }
    }
}
