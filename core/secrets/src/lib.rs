//! Smith's secret proxy mechanism (spec: Compaction, cost, and secrets — "The secret proxy replaces
//! registered secrets before remote dispatch and restores them only for authorized local
//! effects"; Durable effect boundary — "Secret plaintext is replaced before persistence"; Shared
//! structured data — substitution "across nested values and object keys").
//!
//! A [`Redactor`] holds the registered secrets and replaces each occurrence — of the plaintext
//! and of its common encodings (JSON string escaping, URL percent-encoding, standard base64 at
//! each of its three byte alignments) — by the secret's stable reference token
//! `⟦secret:NAME⟧` ([`reference()`]). One Aho-Corasick automaton matches every form of every
//! secret in one pass (leftmost-first over the forms sorted longest first, so of overlapping secrets the longest is redacted).
//! [`Redactor::restore`] turns references back into plaintext, for the local effect boundaries
//! a policy authorizes; [`StreamRedactor`] redacts text that arrives in pieces, holding back
//! only what could still be the start of a secret.
//!
//! Pure: no I/O. Where secrets come from (the user's secret store, provider credentials,
//! configuration) is the composition root's business.

use std::borrow::Cow;
use std::collections::BTreeMap;

use aho_corasick::{AhoCorasick, AhoCorasickBuilder, MatchKind};
use base64::Engine as _;

/// The fewest bytes a secret may have: shorter values would redact ordinary text.
pub const MIN_SECRET_BYTES: usize = 8;

/// The most bytes a secret may have.
pub const MAX_SECRET_BYTES: usize = 16 * 1024;

/// Inputs at least this long are searched in parallel chunks.
const PARALLEL_BYTES: usize = 4 << 20;

/// The longest secret name.
pub const MAX_NAME_BYTES: usize = 64;

/// The reference token standing for secret `name`: `⟦secret:NAME⟧`. It contains no character
/// JSON, URLs or POSIX shells treat specially, so it survives being quoted, escaped or echoed.
pub fn reference(name: &str) -> String {
    format!("⟦secret:{name}⟧")
}

const REFERENCE_OPEN: &str = "⟦secret:";
const REFERENCE_CLOSE: char = '⟧';

/// A secret that cannot be registered.
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
pub enum SecretError {
    /// The name is empty, too long, or has a character outside `A-Z a-z 0-9 _ . -`.
    #[error(
        "secret name `{name}` is not valid: use 1 to {MAX_NAME_BYTES} of the characters A-Z, a-z, 0-9, `_`, `.` and `-`"
    )]
    Name {
        /// The name given.
        name: String,
    },
    /// The value is shorter than [`MIN_SECRET_BYTES`] (it would redact ordinary text) or longer
    /// than [`MAX_SECRET_BYTES`].
    #[error(
        "secret `{name}` is {len} bytes; a secret has {MIN_SECRET_BYTES} to {MAX_SECRET_BYTES} bytes (a shorter one would redact ordinary text)"
    )]
    Length {
        /// The secret's name.
        name: String,
        /// Its length in bytes.
        len: usize,
    },
}

/// Check a secret name: 1 to [`MAX_NAME_BYTES`] of `A-Z a-z 0-9 _ . -`.
///
/// # Errors
/// [`SecretError::Name`].
pub fn check_name(name: &str) -> Result<(), SecretError> {
    let ok = !name.is_empty()
        && name.len() <= MAX_NAME_BYTES
        && name
            .bytes()
            .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'_' | b'.' | b'-'));
    if ok {
        Ok(())
    } else {
        Err(SecretError::Name {
            name: name.to_owned(),
        })
    }
}

/// Replaces registered secrets by their references. Cheap to share (`Arc`) and immutable; an
/// empty redactor changes nothing and costs one length check.
#[derive(Clone, Default)]
pub struct Redactor {
    /// The automaton over every form of every secret; `None` when there are none.
    automaton: Option<AhoCorasick>,
    /// The reference token of each pattern, by pattern index.
    tokens: Vec<String>,
    /// Plaintext by name, for restoration.
    plaintext: BTreeMap<String, String>,
    /// The longest pattern in bytes.
    longest: usize,
}

/// Two redactors are equal when they hold the same secrets.
impl PartialEq for Redactor {
    fn eq(&self, other: &Self) -> bool {
        self.plaintext == other.plaintext
    }
}

impl Eq for Redactor {}

impl std::fmt::Debug for Redactor {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        // Names only: never the plaintext.
        f.debug_struct("Redactor")
            .field("secrets", &self.plaintext.keys().collect::<Vec<_>>())
            .finish_non_exhaustive()
    }
}

/// URL percent-encoding as JavaScript's `encodeURIComponent` writes it: everything but ASCII
/// letters, digits and `-_.!~*'()` is escaped.
const URL_COMPONENT: &percent_encoding::AsciiSet = &percent_encoding::NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'_')
    .remove(b'.')
    .remove(b'!')
    .remove(b'~')
    .remove(b'*')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')');

/// The forms of `value` that are redacted: the plaintext, its JSON string escaping, its URL
/// percent-encoding, and the base64 characters that depend on the value alone at each of the
/// three byte alignments it can have in a longer base64 text. Forms shorter than
/// [`MIN_SECRET_BYTES`] are left out.
fn forms(value: &str) -> Vec<String> {
    let mut out = vec![value.to_owned()];
    let json = serde_json::to_string(value).unwrap_or_default();
    out.push(json[1..json.len().saturating_sub(1).max(1)].to_owned());
    // JSON as ASCII-only encoders write it (`\u00fc`, surrogate pairs beyond the BMP).
    let mut ascii = String::new();
    for c in json[1..json.len().saturating_sub(1).max(1)].chars() {
        if c.is_ascii() {
            ascii.push(c);
        } else {
            let mut units = [0u16; 2];
            for u in c.encode_utf16(&mut units) {
                ascii.push_str(&format!("\\u{u:04x}"));
            }
        }
    }
    out.push(ascii);
    // Percent-encoding as the common encoders write it: `encodeURIComponent`, every byte but
    // letters and digits, a path segment (`/` kept), a form (`+` for a space) — and each with
    // lowercase hex.
    let component = percent_encoding::utf8_percent_encode(value, URL_COMPONENT).to_string();
    let strict = percent_encoding::utf8_percent_encode(value, percent_encoding::NON_ALPHANUMERIC)
        .to_string();
    let path = component.replace("%2F", "/");
    let form = component.replace("%20", "+");
    for encoded in [component, strict, path, form] {
        out.push(lowercase_escapes(&encoded));
        out.push(encoded);
    }
    for align in 0..3usize {
        let mut bytes = vec![0u8; align];
        bytes.extend_from_slice(value.as_bytes());
        let encoded = base64::engine::general_purpose::STANDARD_NO_PAD.encode(&bytes);
        // Characters carrying a padding bit, or a bit of what follows, are not the value's.
        let start = (8 * align).div_ceil(6);
        let end = (8 * bytes.len()) / 6;
        if let Some(stable) = encoded.get(start..end) {
            out.push(stable.to_owned());
        }
    }
    out.retain(|f| f.len() >= MIN_SECRET_BYTES);
    out.sort();
    out.dedup();
    out
}

/// `encoded` with the hex digits of its `%XX` escapes in lowercase.
fn lowercase_escapes(encoded: &str) -> String {
    let mut out = String::with_capacity(encoded.len());
    let mut rest = encoded;
    while let Some(at) = rest.find('%') {
        out.push_str(&rest[..at]);
        let escape = rest.get(at..at + 3).unwrap_or(&rest[at..]);
        out.push_str(&escape.to_ascii_lowercase());
        rest = &rest[at + escape.len()..];
    }
    out.push_str(rest);
    out
}

/// The most pattern bytes, in all, for which the automaton is a DFA; beyond, or with a very
/// long pattern, its construction costs too much (long repetitive patterns make it quadratic)
/// and a contiguous NFA is built instead.
const DFA_PATTERN_BYTES: usize = 64 * 1024;
const DFA_LONGEST_PATTERN: usize = 512;

impl Redactor {
    /// A redactor over `secrets` (name, plaintext).
    ///
    /// # Errors
    /// [`SecretError`] naming the first secret whose name or length is refused.
    pub fn new<'a>(
        secrets: impl IntoIterator<Item = (&'a str, &'a str)>,
    ) -> Result<Self, SecretError> {
        let mut plaintext = BTreeMap::new();
        for (name, value) in secrets {
            check_name(name)?;
            if !(MIN_SECRET_BYTES..=MAX_SECRET_BYTES).contains(&value.len()) {
                return Err(SecretError::Length {
                    name: name.to_owned(),
                    len: value.len(),
                });
            }
            plaintext.insert(name.to_owned(), value.to_owned());
        }
        let mut forms_of: Vec<(String, String)> = Vec::new();
        for (name, value) in &plaintext {
            for form in forms(value) {
                forms_of.push((form, reference(name)));
            }
        }
        // A reference already in the text stands for itself, so a secret whose value occurs
        // inside reference text never mangles it.
        if !forms_of.is_empty() {
            for name in plaintext.keys() {
                forms_of.push((reference(name), reference(name)));
            }
        }
        // Longest first: of matches starting at one place the first pattern wins, so the
        // longest secret is redacted when secrets overlap.
        forms_of.sort_by(|a, b| b.0.len().cmp(&a.0.len()).then_with(|| a.0.cmp(&b.0)));
        let (patterns, tokens): (Vec<String>, Vec<String>) = forms_of.into_iter().unzip();
        let longest = patterns.iter().map(String::len).max().unwrap_or(0);
        let automaton = if patterns.is_empty() {
            None
        } else {
            Some(
                AhoCorasickBuilder::new()
                    .match_kind(MatchKind::LeftmostFirst)
                    // A DFA, the fastest search, while the forms are few and short enough for
                    // its construction to stay cheap.
                    .kind(Some(
                        if longest <= DFA_LONGEST_PATTERN
                            && patterns.iter().map(String::len).sum::<usize>() <= DFA_PATTERN_BYTES
                        {
                            aho_corasick::AhoCorasickKind::DFA
                        } else {
                            aho_corasick::AhoCorasickKind::ContiguousNFA
                        },
                    ))
                    .build(&patterns)
                    .map_err(|_| SecretError::Length {
                        name: "(all)".to_owned(),
                        len: longest,
                    })?,
            )
        };
        Ok(Self {
            automaton,
            tokens,
            plaintext,
            longest,
        })
    }

    /// Whether no secret is registered.
    pub fn is_empty(&self) -> bool {
        self.automaton.is_none()
    }

    /// The registered names, sorted.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.plaintext.keys().map(String::as_str)
    }

    /// Whether `bytes` hold any form of any secret.
    pub fn finds(&self, bytes: &[u8]) -> bool {
        // One match is enough: the search stops at the first.
        self.automaton.as_ref().is_some_and(|a| a.is_match(bytes))
    }

    /// `text` with every form of every secret replaced by its reference. The text is copied
    /// only when it holds a secret.
    pub fn redact<'t>(&self, text: &'t str) -> Cow<'t, str> {
        let found = self.matches(text.as_bytes());
        if found.is_empty() {
            return Cow::Borrowed(text);
        }
        let mut out = String::with_capacity(text.len());
        let mut at = 0;
        for (start, end, pattern) in found {
            out.push_str(&text[at..start]);
            out.push_str(&self.tokens[pattern]);
            at = end;
        }
        out.push_str(&text[at..]);
        Cow::Owned(out)
    }

    /// `bytes` that were cut at a bound, redacted: every whole form of every secret replaced
    /// by its reference, then a tail that is the start of a form — a secret whose rest fell
    /// past the cut — dropped, so no part of a secret survives a cut.
    pub fn redact_cut_bytes(&self, bytes: &[u8]) -> Vec<u8> {
        let mut out = self.redact_bytes(bytes).into_owned();
        if self.automaton.is_none() {
            return out;
        }
        let mut tail = 0;
        for value in self.plaintext.values() {
            for form in forms(value) {
                let form = form.as_bytes();
                for k in (tail + 1..form.len()).rev() {
                    if out.ends_with(&form[..k]) {
                        tail = k;
                        break;
                    }
                }
            }
        }
        out.truncate(out.len() - tail);
        out
    }

    /// `bytes` with every form of every secret replaced by its reference (UTF-8 bytes).
    pub fn redact_bytes<'t>(&self, bytes: &'t [u8]) -> Cow<'t, [u8]> {
        let found = self.matches(bytes);
        if found.is_empty() {
            return Cow::Borrowed(bytes);
        }
        let mut out = Vec::with_capacity(bytes.len());
        let mut at = 0;
        for (start, end, pattern) in found {
            out.extend_from_slice(&bytes[at..start]);
            out.extend_from_slice(self.tokens[pattern].as_bytes());
            at = end;
        }
        out.extend_from_slice(&bytes[at..]);
        Cow::Owned(out)
    }

    /// The non-overlapping matches of `hay` (start, end, pattern), leftmost first. Large
    /// inputs are searched in parallel chunks, each reading `longest` bytes past its end; a
    /// chunk a match runs into is searched again from that match's end, so the result is the
    /// one sequential search gives.
    fn matches(&self, hay: &[u8]) -> Vec<(usize, usize, usize)> {
        let Some(a) = &self.automaton else {
            return Vec::new();
        };
        let scan = |from: usize, to: usize| -> Vec<(usize, usize, usize)> {
            let window = &hay[from..(to + self.longest).min(hay.len())];
            a.find_iter(window)
                .map(|m| (from + m.start(), from + m.end(), m.pattern().as_usize()))
                .take_while(|m| m.0 < to)
                .collect()
        };
        let threads = std::thread::available_parallelism().map_or(1, usize::from);
        if threads < 2 || hay.len() < PARALLEL_BYTES {
            return scan(0, hay.len());
        }
        let step = hay.len().div_ceil(threads);
        let bounds: Vec<(usize, usize)> = (0..threads)
            .map(|i| (i * step, ((i + 1) * step).min(hay.len())))
            .filter(|(from, to)| from < to)
            .collect();
        let chunks: Vec<Vec<(usize, usize, usize)>> = std::thread::scope(|s| {
            let running: Vec<_> = bounds
                .iter()
                .map(|&(from, to)| s.spawn(move || scan(from, to)))
                .collect();
            running
                .into_iter()
                .map(|t| t.join().unwrap_or_default())
                .collect()
        });
        let mut out: Vec<(usize, usize, usize)> = Vec::new();
        for (&(from, to), chunk) in bounds.iter().zip(chunks) {
            let end = out.last().map_or(0, |m| m.1);
            if end > from {
                // A match of the chunk before runs into this one: search it again from there.
                if end < to {
                    out.extend(scan(end, to));
                }
            } else {
                out.extend(chunk);
            }
        }
        out
    }

    /// Redact every string of `value` in place, object keys included, at any depth. Returns
    /// whether anything changed.
    pub fn redact_json(&self, value: &mut serde_json::Value) -> bool {
        if self.is_empty() {
            return false;
        }
        self.map_json(value, &|s| match self.redact(s) {
            Cow::Owned(o) => Some(o),
            Cow::Borrowed(_) => None,
        })
    }

    /// `text` with each reference to a registered secret that `allowed` accepts (by name)
    /// replaced by its plaintext, and how many were restored. For an authorized local effect
    /// only: the plaintext never goes back into a record.
    pub fn restore(&self, text: &str, allowed: &dyn Fn(&str) -> bool) -> (String, usize) {
        let mut out = String::with_capacity(text.len());
        let mut rest = text;
        let mut restored = 0;
        while let Some(at) = rest.find(REFERENCE_OPEN) {
            out.push_str(&rest[..at]);
            let after = &rest[at + REFERENCE_OPEN.len()..];
            let known = after.find(REFERENCE_CLOSE).and_then(|end| {
                let name = &after[..end];
                let value = self.plaintext.get(name).filter(|_| allowed(name))?;
                Some((value, end))
            });
            match known {
                Some((value, end)) => {
                    out.push_str(value);
                    restored += 1;
                    rest = &after[end + REFERENCE_CLOSE.len_utf8()..];
                }
                None => {
                    out.push_str(REFERENCE_OPEN);
                    rest = after;
                }
            }
        }
        out.push_str(rest);
        (out, restored)
    }

    /// Restore references in every string of `value` in place, object keys included (see
    /// [`Redactor::restore`]); how many were restored.
    pub fn restore_json(
        &self,
        value: &mut serde_json::Value,
        allowed: &dyn Fn(&str) -> bool,
    ) -> usize {
        let count = std::cell::Cell::new(0);
        self.map_json(value, &|s| {
            if !s.contains(REFERENCE_OPEN) {
                return None;
            }
            let (restored, n) = self.restore(s, allowed);
            count.set(count.get() + n);
            (n > 0).then_some(restored)
        });
        count.get()
    }

    /// Replace each string of `value` (keys included) for which `f` gives a new one.
    fn map_json(&self, value: &mut serde_json::Value, f: &dyn Fn(&str) -> Option<String>) -> bool {
        use serde_json::Value;
        match value {
            Value::String(s) => match f(s) {
                Some(new) => {
                    *s = new;
                    true
                }
                None => false,
            },
            Value::Array(items) => items
                .iter_mut()
                .fold(false, |changed, v| self.map_json(v, f) | changed),
            Value::Object(map) => {
                let mut changed = false;
                let old = std::mem::take(map);
                for (k, mut v) in old {
                    changed |= self.map_json(&mut v, f);
                    let k = match f(&k) {
                        Some(new) => {
                            changed = true;
                            new
                        }
                        None => k,
                    };
                    map.insert(k, v);
                }
                changed
            }
            _ => false,
        }
    }

    /// Redact text that arrives in pieces with the state in `held` (what is held back so far,
    /// empty at the start): take `piece`, return the redacted text that is now certain. At the
    /// end, [`Redactor::redact`] of what is still held is the rest. [`StreamRedactor`] wraps
    /// this for one stream; a caller with many streams keeps one `held` per stream.
    pub fn push_piece(&self, held: &mut String, piece: &str) -> String {
        let Some(automaton) = &self.automaton else {
            held.push_str(piece);
            return std::mem::take(held);
        };
        held.push_str(piece);
        let len = held.len();
        // No secret can start at or before `cut` and end after the text seen so far…
        let mut cut = len.saturating_sub(self.longest.saturating_sub(1));
        // …unless a match found now straddles it: hold that match back whole.
        for m in automaton.find_iter(held.as_str()) {
            if m.start() < cut && m.end() > cut {
                cut = m.start();
                break;
            }
            if m.start() >= cut {
                break;
            }
        }
        while !held.is_char_boundary(cut) {
            cut -= 1;
        }
        let rest = held.split_off(cut);
        let ready = std::mem::replace(held, rest);
        self.redact(&ready).into_owned()
    }

    /// [`Redactor::push_piece`] for bytes (a response body in chunks): take `piece` into
    /// `held`, return the redacted bytes that are now certain, holding back only a tail that
    /// could still be the start of a secret. At the end, [`Redactor::redact_bytes`] of what
    /// is still held is the rest — or [`Redactor::redact_cut_bytes`] when the bytes were cut.
    pub fn push_piece_bytes(&self, held: &mut Vec<u8>, piece: &[u8]) -> Vec<u8> {
        held.extend_from_slice(piece);
        let Some(automaton) = &self.automaton else {
            return std::mem::take(held);
        };
        let len = held.len();
        let mut cut = len.saturating_sub(self.longest.saturating_sub(1));
        for m in automaton.find_iter(held.as_slice()) {
            if m.start() < cut && m.end() > cut {
                cut = m.start();
                break;
            }
            if m.start() >= cut {
                break;
            }
        }
        let rest = held.split_off(cut);
        let ready = std::mem::replace(held, rest);
        self.redact_bytes(&ready).into_owned()
    }

    /// A redactor for text that arrives in pieces (a stream's deltas).
    pub fn stream(&self) -> StreamRedactor<'_> {
        StreamRedactor {
            redactor: self,
            held: String::new(),
        }
    }
}

impl Redactor {
    /// This redactor's secrets and `name` (replacing a secret of that name).
    ///
    /// # Errors
    /// [`SecretError`] when `name` or `value` is refused.
    pub fn with(&self, name: &str, value: &str) -> Result<Self, SecretError> {
        Self::new(
            self.plaintext
                .iter()
                .filter(|(n, _)| *n != name)
                .map(|(n, v)| (n.as_str(), v.as_str()))
                .chain(std::iter::once((name, value))),
        )
    }
}

mod shared;
pub use shared::{Added, Shared, StreamRedactor};

#[cfg(test)]
mod tests;
