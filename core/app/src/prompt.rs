//! A prompt as a frontend takes it: `@path` mentions attach a file's content, bounded and only
//! from inside the working directory, and a frontend may append a block of piped input. The
//! expanded text is what the submission admits (and what its content hash and deduplication
//! cover); each attachment's path, size and SHA-256 are recorded beside it in the same
//! committed change (`smith_store::Attachment`).
//!
//! Syntax: `@` at the start of the prompt or after white space begins a mention, which runs to
//! the next white space; `@@` is a literal `@` (`@@name` stays `@name`); an `@` inside a word
//! (`me@example.com`) is text. Every mention must name a UTF-8 file inside the working
//! directory, else the prompt is refused — a typo never silently leaves the file out.

use std::path::{Component, Path, PathBuf};

use sha2::Digest;
use smith_store::Attachment;

/// The bounds of attached content.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bounds {
    /// The largest file attached, in bytes.
    pub file_bytes: u64,
    /// The most files one prompt attaches.
    pub files: usize,
    /// The largest piped block appended, in bytes.
    pub piped_bytes: usize,
}

impl Default for Bounds {
    /// 256 KiB per file, 16 files, 1 MiB of piped input.
    fn default() -> Self {
        Self {
            file_bytes: 256 * 1024,
            files: 16,
            piped_bytes: 1024 * 1024,
        }
    }
}

/// A prompt ready to submit: its text with attachments expanded, and what they were.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Prompt {
    /// The text the model sees.
    pub text: String,
    /// The files attached, in mention order.
    pub attachments: Vec<Attachment>,
}

/// Why a prompt cannot be taken as written.
#[derive(Debug, thiserror::Error)]
pub enum PromptError {
    /// A mention names no file.
    #[error("`@{mention}` names no file in the working directory {}; write `@@{mention}` for a literal `@`", cwd.display())]
    Missing {
        /// The mention's path.
        mention: String,
        /// The working directory.
        cwd: PathBuf,
    },
    /// A mention leads outside the working directory.
    #[error("`@{mention}` is outside the working directory {}; only files inside it are attached", cwd.display())]
    Outside {
        /// The mention's path.
        mention: String,
        /// The working directory.
        cwd: PathBuf,
    },
    /// A mention names something that is not a regular file.
    #[error("`@{mention}` is not a regular file; mention a file")]
    NotAFile {
        /// The mention's path.
        mention: String,
    },
    /// A mentioned file is too large.
    #[error(
        "`@{mention}` is {bytes} bytes, more than the {max}-byte bound for an attached file; mention a smaller file or a part of it"
    )]
    TooLarge {
        /// The mention's path.
        mention: String,
        /// Its size.
        bytes: u64,
        /// The bound.
        max: u64,
    },
    /// A mentioned file is not UTF-8 text.
    #[error(
        "`@{mention}` is not UTF-8 text (invalid byte at offset {offset}); only text files are attached"
    )]
    NotText {
        /// The mention's path.
        mention: String,
        /// The first invalid byte.
        offset: usize,
    },
    /// Too many files are mentioned.
    #[error("the prompt mentions {count} files, more than the {max} one prompt attaches")]
    TooMany {
        /// How many.
        count: usize,
        /// The bound.
        max: usize,
    },
    /// A mentioned file could not be read.
    #[error("cannot read `@{mention}`: {source}")]
    Unreadable {
        /// The mention's path.
        mention: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// The piped block is too large.
    #[error(
        "the piped input is {bytes} bytes, more than the {max}-byte bound for a block appended to a prompt"
    )]
    PipedTooLarge {
        /// Its size (at least).
        bytes: usize,
        /// The bound.
        max: usize,
    },
}

/// The mentions of `text`, with the text around them: `(text, mention)` pieces in order.
fn split(text: &str) -> Vec<(String, Option<String>)> {
    let mut pieces = Vec::new();
    let mut plain = String::new();
    let mut chars = text.char_indices().peekable();
    let mut at_start = true;
    while let Some((i, c)) = chars.next() {
        if c == '@' && at_start {
            if chars.peek().is_some_and(|(_, n)| *n == '@') {
                chars.next();
                plain.push('@');
                at_start = false;
                continue;
            }
            let rest = &text[i + 1..];
            let token = &rest[..rest.find(char::is_whitespace).unwrap_or(rest.len())];
            // Punctuation that ends a sentence or clause is not part of the path.
            let end = token.trim_end_matches(|c| ",.;:!?)]}'\"".contains(c)).len();
            if end > 0 {
                plain.push('@');
                plain.push_str(&rest[..end]);
                pieces.push((std::mem::take(&mut plain), Some(rest[..end].to_owned())));
                while chars.peek().is_some_and(|(j, _)| *j < i + 1 + end) {
                    chars.next();
                }
                at_start = false;
                continue;
            }
        }
        at_start = c.is_whitespace();
        plain.push(c);
    }
    if !plain.is_empty() {
        pieces.push((plain, None));
    }
    pieces
}

/// A fence of backticks longer than any run of backticks in `content` (CommonMark).
fn fence(content: &str) -> String {
    let mut longest = 0;
    let mut run = 0;
    for c in content.chars() {
        if c == '`' {
            run += 1;
            longest = longest.max(run);
        } else {
            run = 0;
        }
    }
    "`".repeat(longest.max(2) + 1)
}

/// `mention` resolved inside `cwd` (canonical), refusing `..` escapes and symlinks out.
fn resolve(cwd: &Path, mention: &str) -> Result<PathBuf, PromptError> {
    let root = cwd
        .canonicalize()
        .map_err(|source| PromptError::Unreadable {
            mention: mention.to_owned(),
            source,
        })?;
    let given = Path::new(mention);
    // Absolute paths and `..` are refused outright; a symlink out is refused once resolved.
    if given.is_absolute()
        || given
            .components()
            .any(|c| matches!(c, Component::ParentDir))
    {
        return Err(PromptError::Outside {
            mention: mention.to_owned(),
            cwd: root,
        });
    }
    let path = root.join(given);
    let real = match path.canonicalize() {
        Ok(real) => real,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => {
            return Err(PromptError::Missing {
                mention: mention.to_owned(),
                cwd: root,
            });
        }
        Err(source) => {
            return Err(PromptError::Unreadable {
                mention: mention.to_owned(),
                source,
            });
        }
    };
    if !real.starts_with(&root) {
        return Err(PromptError::Outside {
            mention: mention.to_owned(),
            cwd: root,
        });
    }
    Ok(real)
}

/// Expand the `@path` mentions of `text` against `cwd` within `bounds`, then append `piped`
/// (the frontend's piped input) as a fenced block when given. Each attached file follows the
/// prompt as a fenced block headed by its path and SHA-256.
///
/// # Errors
/// [`PromptError`] naming the mention and the fix.
pub fn expand(
    text: &str,
    cwd: &Path,
    piped: Option<&str>,
    bounds: Bounds,
) -> Result<Prompt, PromptError> {
    let pieces = split(text);
    let mentions: Vec<&String> = pieces.iter().filter_map(|(_, m)| m.as_ref()).collect();
    if mentions.len() > bounds.files {
        return Err(PromptError::TooMany {
            count: mentions.len(),
            max: bounds.files,
        });
    }
    let mut body: String = pieces.iter().map(|(t, _)| t.as_str()).collect();
    let mut attachments: Vec<Attachment> = Vec::new();
    let mut blocks = String::new();
    for mention in mentions {
        if attachments.iter().any(|a| a.path == *mention) {
            continue;
        }
        let path = resolve(cwd, mention)?;
        let meta = std::fs::metadata(&path).map_err(|source| PromptError::Unreadable {
            mention: mention.clone(),
            source,
        })?;
        if !meta.is_file() {
            return Err(PromptError::NotAFile {
                mention: mention.clone(),
            });
        }
        if meta.len() > bounds.file_bytes {
            return Err(PromptError::TooLarge {
                mention: mention.clone(),
                bytes: meta.len(),
                max: bounds.file_bytes,
            });
        }
        let bytes = std::fs::read(&path).map_err(|source| PromptError::Unreadable {
            mention: mention.clone(),
            source,
        })?;
        let content = String::from_utf8(bytes.clone()).map_err(|e| PromptError::NotText {
            mention: mention.clone(),
            offset: e.utf8_error().valid_up_to(),
        })?;
        let sha256: String = sha2::Sha256::digest(&bytes)
            .iter()
            .map(|b| format!("{b:02x}"))
            .collect();
        let fence = fence(&content);
        let newline = if content.ends_with('\n') { "" } else { "\n" };
        blocks.push_str(&format!(
            "\n\n`{mention}` ({} bytes, sha256 {sha256}):\n{fence}\n{content}{newline}{fence}",
            bytes.len()
        ));
        attachments.push(Attachment {
            path: mention.clone(),
            bytes: bytes.len() as u64,
            sha256,
        });
    }
    body.push_str(&blocks);
    if let Some(piped) = piped {
        if piped.len() > bounds.piped_bytes {
            return Err(PromptError::PipedTooLarge {
                bytes: piped.len(),
                max: bounds.piped_bytes,
            });
        }
        let fence = fence(piped);
        let newline = if piped.ends_with('\n') { "" } else { "\n" };
        body.push_str(&format!("\n\n{fence}\n{piped}{newline}{fence}"));
    }
    Ok(Prompt {
        text: body,
        attachments,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn work() -> tempfile::TempDir {
        let dir = tempfile::tempdir().unwrap();
        std::fs::write(dir.path().join("a.txt"), "alpha\n").unwrap();
        std::fs::create_dir(dir.path().join("src")).unwrap();
        std::fs::write(dir.path().join("src/b.rs"), "fn b() {}\n// ``` inside\n").unwrap();
        dir
    }

    #[test]
    fn mentions_attach_files_with_their_hashes_and_escapes_stay_text() {
        let dir = work();
        let p = expand(
            "read @a.txt and @src/b.rs, mail me@example.com, say @@home",
            dir.path(),
            None,
            Bounds::default(),
        )
        .unwrap();
        assert!(
            p.text
                .starts_with("read @a.txt and @src/b.rs, mail me@example.com, say @home"),
            "{}",
            p.text
        );
        assert_eq!(p.attachments.len(), 2);
        assert_eq!(p.attachments[0].path, "a.txt");
        assert_eq!(p.attachments[0].bytes, 6);
        assert_eq!(
            p.attachments[0].sha256,
            "b6a98d9ce9a2d9149288fa3df42d377c3e42737afdcdaf714e33c0a100b51060"
        );
        assert!(p.text.contains("`a.txt` (6 bytes, sha256 "), "{}", p.text);
        // The fence outgrows the backticks inside the content.
        assert!(p.text.contains("\n````\nfn b() {}"), "{}", p.text);
    }

    #[test]
    fn mentions_that_name_nothing_or_escape_the_directory_are_refused() {
        let dir = work();
        let refuse = |text: &str| expand(text, dir.path(), None, Bounds::default()).unwrap_err();
        assert!(matches!(refuse("@nope.txt"), PromptError::Missing { .. }));
        assert!(matches!(refuse("@../x"), PromptError::Outside { .. }));
        assert!(matches!(
            refuse("@/etc/hostname"),
            PromptError::Outside { .. }
        ));
        assert!(matches!(refuse("@src"), PromptError::NotAFile { .. }));
        std::fs::write(dir.path().join("bin"), [0xff, 0xfe]).unwrap();
        assert!(matches!(
            refuse("@bin"),
            PromptError::NotText { offset: 0, .. }
        ));
        let small = Bounds {
            file_bytes: 3,
            ..Bounds::default()
        };
        assert!(matches!(
            expand("@a.txt", dir.path(), None, small),
            Err(PromptError::TooLarge {
                bytes: 6,
                max: 3,
                ..
            })
        ));
        #[cfg(unix)]
        {
            std::os::unix::fs::symlink("/etc/hostname", dir.path().join("link")).unwrap();
            assert!(matches!(refuse("@link"), PromptError::Outside { .. }));
        }
        let e = refuse("@nope.txt").to_string();
        assert!(e.contains("@@nope.txt"), "{e}");
    }

    #[test]
    fn piped_input_is_appended_as_a_bounded_fenced_block() {
        let dir = work();
        let p = expand(
            "summarise",
            dir.path(),
            Some("line one\nline two"),
            Bounds::default(),
        )
        .unwrap();
        assert_eq!(p.text, "summarise\n\n```\nline one\nline two\n```");
        let tiny = Bounds {
            piped_bytes: 4,
            ..Bounds::default()
        };
        assert!(matches!(
            expand("x", dir.path(), Some("12345"), tiny),
            Err(PromptError::PipedTooLarge { bytes: 5, max: 4 })
        ));
    }
}
