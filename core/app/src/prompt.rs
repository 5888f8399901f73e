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
//!
//! A mentioned file whose bytes are a PNG, JPEG, GIF or WebP image ([`smith::Image::sniff`])
//! is attached as an image block of the user message instead of text, and a frontend may
//! attach images by path too ([`attach_image`]). Each image adds one line to the text naming
//! its path, type, size and SHA-256, so the model can tell the images apart and the
//! submission's content hash covers their bytes.

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
    /// The largest image attached, in bytes.
    pub image_bytes: u64,
    /// The most bytes of images one prompt carries, in all.
    pub images_bytes: u64,
}

impl Default for Bounds {
    /// 256 KiB per text file, 16 files, 1 MiB of piped input, and 3.75 MiB per image — so that
    /// its base64 form stays within Anthropic's 5 MiB per-image limit, the lowest of the
    /// vendors' — and 8 MiB of images per prompt, whose base64 (10.7 MiB) leaves room within
    /// the 16 MiB bounds of a session frame and a provider request.
    fn default() -> Self {
        Self {
            file_bytes: 256 * 1024,
            files: 16,
            piped_bytes: 1024 * 1024,
            image_bytes: 3 * 1024 * 1024 + 768 * 1024,
            images_bytes: 8 << 20,
        }
    }
}

/// A prompt ready to submit: its text with attachments expanded, and what they were.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Prompt {
    /// The text the model sees.
    pub text: String,
    /// The files attached, in mention order (images included).
    pub attachments: Vec<Attachment>,
    /// The images attached, in order; they follow the text in the user message.
    pub images: Vec<smith::Image>,
}

impl Prompt {
    /// A prompt of `text` alone, taken literally.
    pub fn literal(text: String) -> Self {
        Self {
            text,
            attachments: Vec::new(),
            images: Vec::new(),
        }
    }
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
    /// An attached image is too large.
    #[error(
        "`{mention}` is an image of {}, more than the {} an attached image may be; scale it down or crop it",
        mib(*bytes), mib(*max)
    )]
    ImageTooLarge {
        /// The image's path as given.
        mention: String,
        /// Its size.
        bytes: u64,
        /// The bound.
        max: u64,
    },
    /// An image given by path cannot be read.
    #[error(
        "cannot read the image `{path}`: {source}; {}",
        unreadable_advice(source)
    )]
    ImageUnreadable {
        /// The path as given.
        path: String,
        /// The I/O error.
        source: std::io::Error,
    },
    /// An image given by path is not a regular file.
    #[error("the image `{path}` is not a regular file; give an image file")]
    ImageNotAFile {
        /// The path as given.
        path: String,
    },
    /// The images of one prompt are too large together.
    #[error(
        "the prompt's images are {} together, more than the {} one prompt may carry (a provider request is at most 16 MiB); attach fewer or smaller images",
        mib(*bytes), mib(*max)
    )]
    ImagesTooLarge {
        /// Their total size.
        bytes: u64,
        /// The bound.
        max: u64,
    },
    /// Too many images are given.
    #[error("{count} images are given, more than the {max} one prompt attaches")]
    TooManyImages {
        /// How many.
        count: usize,
        /// The bound.
        max: usize,
    },
    /// A file given as an image is not one.
    #[error(
        "`{mention}` is not a PNG, JPEG, GIF or WebP image (by its first bytes); attach one of those"
    )]
    NotAnImage {
        /// The path as given.
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
    #[error(
        "cannot read `@{mention}`: {source}; {} (or write `@@` to send the `@` as text)",
        unreadable_advice(source)
    )]
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

/// What to do about a file that could not be read, by why it could not.
fn unreadable_advice(e: &std::io::Error) -> &'static str {
    match e.kind() {
        std::io::ErrorKind::PermissionDenied => {
            "make it readable by the user running smith (e.g. `chmod u+r` on it, or ask its owner)"
        }
        std::io::ErrorKind::NotFound => {
            "check the path, which is relative to the working directory"
        }
        _ => "check that the file can be read (e.g. with `cat`) and try again",
    }
}

/// `bytes` as a person reads a size: `3.75 MiB`, or `512 bytes` under 1 MiB.
fn mib(bytes: u64) -> String {
    if bytes < 1 << 20 {
        return format!("{bytes} bytes");
    }
    let text = format!("{:.2}", bytes as f64 / f64::from(1 << 20));
    let text = text.trim_end_matches('0').trim_end_matches('.');
    format!("{text} MiB")
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
    let mut images: Vec<Attached> = Vec::new();
    let mut blocks = String::new();
    for mention in mentions {
        if attachments.iter().any(|a| a.path == *mention)
            || images.iter().any(|i| i.attachment.path == *mention)
        {
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
        // An image by its first bytes gets the image bound, anything else the text bound.
        let head = read_head(&path).map_err(|source| PromptError::Unreadable {
            mention: mention.clone(),
            source,
        })?;
        if smith::Image::sniff(&head).is_some() && meta.len() > bounds.image_bytes {
            return Err(PromptError::ImageTooLarge {
                mention: mention.clone(),
                bytes: meta.len(),
                max: bounds.image_bytes,
            });
        }
        if meta.len() > bounds.file_bytes.max(bounds.image_bytes) {
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
        if let Some(media_type) = smith::Image::sniff(&bytes) {
            let so_far: u64 = images.iter().map(|i| i.image.decoded_len()).sum();
            images.push(image(mention, media_type, &bytes, bounds, so_far)?);
            continue;
        }
        if bytes.len() as u64 > bounds.file_bytes {
            return Err(PromptError::TooLarge {
                mention: mention.clone(),
                bytes: bytes.len() as u64,
                max: bounds.file_bytes,
            });
        }
        let content = String::from_utf8(bytes.clone()).map_err(|e| PromptError::NotText {
            mention: mention.clone(),
            offset: e.utf8_error().valid_up_to(),
        })?;
        let sha256 = sha256_hex(&bytes);
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
    let mut prompt = Prompt {
        text: body,
        attachments,
        images: Vec::new(),
    };
    for attached in images {
        prompt.add_image(attached);
    }
    Ok(prompt)
}

/// An image read for a prompt, not yet added to it.
struct Attached {
    attachment: Attachment,
    image: smith::Image,
}

impl Prompt {
    /// Add `attached`: its line in the text, its attachment record and its image block.
    fn add_image(&mut self, attached: Attached) {
        let Attached { attachment, image } = attached;
        self.text.push_str(&format!(
            "\n\n`{}` ({}, {} bytes, sha256 {}): attached as image {}",
            attachment.path,
            image.media_type,
            attachment.bytes,
            attachment.sha256,
            self.images.len() + 1
        ));
        self.attachments.push(attachment);
        self.images.push(image);
    }
}

/// The image of `bytes` (of `media_type`) read from `mention`, within `bounds`.
fn image(
    mention: &str,
    media_type: &str,
    bytes: &[u8],
    bounds: Bounds,
    so_far: u64,
) -> Result<Attached, PromptError> {
    use base64::Engine as _;
    if bytes.len() as u64 > bounds.image_bytes {
        return Err(PromptError::ImageTooLarge {
            mention: mention.to_owned(),
            bytes: bytes.len() as u64,
            max: bounds.image_bytes,
        });
    }
    if so_far + bytes.len() as u64 > bounds.images_bytes {
        return Err(PromptError::ImagesTooLarge {
            bytes: so_far + bytes.len() as u64,
            max: bounds.images_bytes,
        });
    }
    Ok(Attached {
        attachment: Attachment {
            path: mention.to_owned(),
            bytes: bytes.len() as u64,
            sha256: sha256_hex(bytes),
        },
        image: smith::Image {
            media_type: media_type.to_owned(),
            data: base64::engine::general_purpose::STANDARD.encode(bytes),
        },
    })
}

/// Whether `prompt` may take one more image within `bounds`.
fn room_for_image(prompt: &Prompt, bounds: Bounds) -> Result<(), PromptError> {
    if prompt.images.len() >= bounds.files {
        return Err(PromptError::TooManyImages {
            count: prompt.images.len() + 1,
            max: bounds.files,
        });
    }
    Ok(())
}

/// Attach the image at `path` (any readable path: the caller named it explicitly, e.g.
/// `--image FILE`) to `prompt`, shown as `shown`.
///
/// # Errors
/// [`PromptError`]: unreadable, not a regular file, not an image, or over the image bound.
pub fn attach_image(
    prompt: &mut Prompt,
    path: &Path,
    shown: &str,
    bounds: Bounds,
) -> Result<(), PromptError> {
    room_for_image(prompt, bounds)?;
    let unreadable = |source| PromptError::ImageUnreadable {
        path: shown.to_owned(),
        source,
    };
    let meta = std::fs::metadata(path).map_err(unreadable)?;
    if !meta.is_file() {
        return Err(PromptError::ImageNotAFile {
            path: shown.to_owned(),
        });
    }
    if meta.len() > bounds.image_bytes {
        return Err(PromptError::ImageTooLarge {
            mention: shown.to_owned(),
            bytes: meta.len(),
            max: bounds.image_bytes,
        });
    }
    let bytes = std::fs::read(path).map_err(unreadable)?;
    attach_image_bytes(prompt, &bytes, shown, bounds)
}

/// Attach the image `bytes` (PNG, JPEG, GIF or WebP, by their signature) to `prompt`, shown
/// and recorded as `shown` (what the person knows it as, e.g. `clipboard image 1`): how a
/// frontend attaches an image it holds, such as one pasted from the system clipboard.
///
/// # Errors
/// [`PromptError`]: too many images, not an image, or over the image bounds.
pub fn attach_image_bytes(
    prompt: &mut Prompt,
    bytes: &[u8],
    shown: &str,
    bounds: Bounds,
) -> Result<(), PromptError> {
    room_for_image(prompt, bounds)?;
    let media_type = smith::Image::sniff(bytes).ok_or_else(|| PromptError::NotAnImage {
        mention: shown.to_owned(),
    })?;
    let so_far: u64 = prompt.images.iter().map(smith::Image::decoded_len).sum();
    let attached = image(shown, media_type, bytes, bounds, so_far)?;
    prompt.add_image(attached);
    Ok(())
}

/// The first bytes of the file at `path`, enough to tell an image by its signature.
fn read_head(path: &Path) -> std::io::Result<Vec<u8>> {
    use std::io::Read as _;
    let mut head = Vec::with_capacity(12);
    std::fs::File::open(path)?.take(12).read_to_end(&mut head)?;
    Ok(head)
}

/// SHA-256 of `bytes`, lowercase hex.
fn sha256_hex(bytes: &[u8]) -> String {
    sha2::Sha256::digest(bytes)
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

#[cfg(test)]
mod tests;
