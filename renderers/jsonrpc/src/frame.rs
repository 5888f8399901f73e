//! LF framing of JSON-RPC over a byte stream (DESIGN §10 Framing): one JSON value per line,
//! UTF-8, terminated by LF; U+2028 and U+2029 written as `\u2028` and `\u2029` so that
//! JavaScript line readers (which split on them) see whole lines; an input line longer than a
//! bound is refused and skipped without being held in memory.

use std::io::{self, BufRead, Write};

/// The longest input line read, in bytes (LF excluded): 16 MiB.
pub const MAX_LINE_BYTES: usize = 16 * 1024 * 1024;

/// `value` as one output line: compact JSON, U+2028/U+2029 escaped, LF-terminated.
///
/// # Errors
/// The value's own serialization error (a map with non-string keys, say).
pub fn encode_line<T: serde::Serialize + ?Sized>(value: &T) -> Result<Vec<u8>, serde_json::Error> {
    let json = serde_json::to_vec(value)?;
    let mut line = Vec::with_capacity(json.len() + 1);
    // serde_json writes the two separators raw, and only inside strings (they are not JSON
    // whitespace), where the escape is the same character.
    let mut rest = json.as_slice();
    while let Some(at) = rest
        .windows(3)
        .position(|w| w[0] == 0xe2 && w[1] == 0x80 && (w[2] == 0xa8 || w[2] == 0xa9))
    {
        line.extend_from_slice(&rest[..at]);
        line.extend_from_slice(if rest[at + 2] == 0xa8 {
            b"\\u2028"
        } else {
            b"\\u2029"
        });
        rest = &rest[at + 3..];
    }
    line.extend_from_slice(rest);
    line.push(b'\n');
    Ok(line)
}

/// Write `value` as one line to `out` and flush it.
///
/// # Errors
/// The writer's error; a value that does not serialize is `InvalidData`.
pub fn write_line<T: serde::Serialize + ?Sized>(out: &mut impl Write, value: &T) -> io::Result<()> {
    let line = encode_line(value).map_err(|e| io::Error::new(io::ErrorKind::InvalidData, e))?;
    out.write_all(&line)?;
    out.flush()
}

/// One input line, or why there is none.
#[derive(Debug, PartialEq, Eq)]
pub enum Line {
    /// A line's bytes, without its LF (a last line may lack the LF).
    Text(Vec<u8>),
    /// A line longer than the bound: its bytes were skipped up to and including its LF.
    TooLong {
        /// How many bytes it had (LF excluded).
        bytes: u64,
        /// What its first [`HEAD_BYTES`] bytes say it is ([`lead`]): a request, answered
        /// with its id; a response, whose request is settled as failed; or unknown.
        lead: Option<Lead>,
    },
}

/// What the head of a message too long to read says it is.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Lead {
    /// A request (it names a `method`) with this id: answer its error with the id.
    Request(serde_json::Value),
    /// A response (it holds `result` or `error`) to this side's request of this id: settle
    /// that request as failed, never answer it.
    Response(serde_json::Value),
}

/// How much of an over-long line is kept to find its request id in, in bytes.
pub const HEAD_BYTES: usize = 64 * 1024;

/// What the JSON object `head` begins is, read from its top-level members within `head` (a
/// message's first bytes; the rest may be cut): a request when it names a `method`, a
/// response when it holds `result` or `error`, with its `id` — a number or a string, one
/// the head does not cut. The SDKs write `jsonrpc`, `id` and `method` before `params`, so a
/// request too long to read whole is still answered with its id. None when `head` is not an
/// object's start, or its id or its kind is not reached.
pub fn lead(head: &[u8]) -> Option<Lead> {
    let text = match std::str::from_utf8(head) {
        Ok(text) => text,
        // Cut inside a character: what comes before it.
        Err(e) => std::str::from_utf8(&head[..e.valid_up_to()]).ok()?,
    };
    let mut rest = text.trim_start().strip_prefix('{')?;
    let (mut id, mut request, mut response): (Option<serde_json::Value>, bool, bool) =
        (None, false, false);
    loop {
        rest = rest.trim_start();
        let mut keys = serde_json::Deserializer::from_str(rest).into_iter::<String>();
        let key = keys.next()?.ok()?;
        rest = rest[keys.byte_offset()..].trim_start().strip_prefix(':')?;
        // The kind is known from the key alone: its value may be what the head cuts.
        match key.as_str() {
            "method" => request = true,
            "result" | "error" => response = true,
            _ => {}
        }
        if request && response {
            return None;
        }
        if let Some(id) = &id
            && (request || response)
        {
            return Some(if request {
                Lead::Request(id.clone())
            } else {
                Lead::Response(id.clone())
            });
        }
        let mut values = serde_json::Deserializer::from_str(rest).into_iter::<serde_json::Value>();
        let value = values.next()?.ok()?;
        rest = rest[values.byte_offset()..].trim_start();
        // A value the head cut may read as another (`12` of `123`): it counts only when
        // what follows it came too.
        if key == "id" {
            let whole = rest.starts_with([',', '}']);
            if !(whole && (value.is_number() || value.is_string())) {
                return None;
            }
            id = Some(value.clone());
            if request || response {
                return Some(if request {
                    Lead::Request(value)
                } else {
                    Lead::Response(value)
                });
            }
        }
        if rest.starts_with('}') {
            return None;
        }
        rest = rest.strip_prefix(',')?;
    }
}

/// Reads LF-terminated lines of at most `max` bytes from a buffered reader.
#[derive(Debug)]
pub struct LineReader<R> {
    inner: R,
    max: usize,
}

impl<R: BufRead> LineReader<R> {
    /// Lines of `inner`, each at most `max` bytes.
    pub fn new(inner: R, max: usize) -> Self {
        Self { inner, max }
    }

    /// The next line; `None` at the end of the input. An over-long line is read past (never
    /// held whole) and reported as [`Line::TooLong`]; reading goes on after it.
    ///
    /// # Errors
    /// The reader's error.
    pub fn next_line(&mut self) -> io::Result<Option<Line>> {
        let mut line = Vec::new();
        let mut skipped: Option<u64> = None;
        let mut head: Vec<u8> = Vec::new();
        let too_long = |bytes: u64, head: &[u8]| Line::TooLong {
            bytes,
            lead: lead(head),
        };
        loop {
            let buf = match self.inner.fill_buf() {
                Ok(buf) => buf,
                Err(e) if e.kind() == io::ErrorKind::Interrupted => continue,
                Err(e) => return Err(e),
            };
            if buf.is_empty() {
                return Ok(match skipped {
                    Some(bytes) => Some(too_long(bytes, &head)),
                    None if line.is_empty() => None,
                    None => Some(Line::Text(line)),
                });
            }
            let (chunk, done) = match buf.iter().position(|&b| b == b'\n') {
                Some(at) => (&buf[..at], Some(at + 1)),
                None => (buf, None),
            };
            match &mut skipped {
                Some(bytes) => {
                    *bytes += chunk.len() as u64;
                    let room = HEAD_BYTES.saturating_sub(head.len());
                    head.extend_from_slice(&chunk[..room.min(chunk.len())]);
                }
                None if line.len() + chunk.len() > self.max => {
                    skipped = Some((line.len() + chunk.len()) as u64);
                    // Only the head is kept: the line's bytes are let go.
                    head = line[..line.len().min(HEAD_BYTES)].to_vec();
                    line = Vec::new();
                    let room = HEAD_BYTES.saturating_sub(head.len());
                    head.extend_from_slice(&chunk[..room.min(chunk.len())]);
                }
                None => line.extend_from_slice(chunk),
            }
            let used = done.unwrap_or(buf.len());
            self.inner.consume(used);
            if done.is_some() {
                return Ok(Some(match skipped {
                    Some(bytes) => too_long(bytes, &head),
                    None => Line::Text(line),
                }));
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn separators_are_escaped_and_the_line_still_parses() {
        let line = encode_line(&serde_json::json!({"t": "a\u{2028}b\u{2029}c"})).unwrap();
        assert_eq!(line, b"{\"t\":\"a\\u2028b\\u2029c\"}\n");
        let back: serde_json::Value = serde_json::from_slice(&line).unwrap();
        assert_eq!(back["t"], "a\u{2028}b\u{2029}c");
        assert!(!line[..line.len() - 1].contains(&b'\n'));
    }

    #[test]
    fn long_lines_are_skipped_and_reading_goes_on() {
        let input = format!("{{}}\n{}\n[1]\nlast", "x".repeat(100));
        let mut r = LineReader::new(io::BufReader::with_capacity(8, input.as_bytes()), 10);
        assert_eq!(r.next_line().unwrap(), Some(Line::Text(b"{}".to_vec())));
        assert_eq!(
            r.next_line().unwrap(),
            Some(Line::TooLong {
                bytes: 100,
                lead: None
            })
        );
        assert_eq!(r.next_line().unwrap(), Some(Line::Text(b"[1]".to_vec())));
        assert_eq!(r.next_line().unwrap(), Some(Line::Text(b"last".to_vec())));
        assert_eq!(r.next_line().unwrap(), None);
    }

    #[test]
    fn an_over_long_request_keeps_its_id_when_it_comes_first() {
        let long = format!(
            "{{\"jsonrpc\":\"2.0\",\"id\":900,\"method\":\"m\",\"params\":{{\"t\":\"{}\"}}}}\nnext\n",
            "x".repeat(200)
        );
        let mut r = LineReader::new(io::BufReader::with_capacity(8, long.as_bytes()), 50);
        assert_eq!(
            r.next_line().unwrap(),
            Some(Line::TooLong {
                bytes: long.len() as u64 - 6,
                lead: Some(Lead::Request(serde_json::json!(900)))
            })
        );
        assert_eq!(r.next_line().unwrap(), Some(Line::Text(b"next".to_vec())));
        let request = |v: serde_json::Value| Some(Lead::Request(v));
        for (head, want) in [
            (
                &br#" { "id" : "a-1", "method": "m", "params": {"#[..],
                request(serde_json::json!("a-1")),
            ),
            (
                br#"{"jsonrpc":"2.0","method":"m","params":{"a":[1,{"id":2}]},"id":7,"#,
                request(serde_json::json!(7)),
            ),
            (
                br#"{"jsonrpc":"2.0","id":5,"result":{"content":"xxx"#,
                Some(Lead::Response(serde_json::json!(5))),
            ),
            (
                br#"{"id":6,"error":{"code":1"#,
                Some(Lead::Response(serde_json::json!(6))),
            ),
            (br#"{"id":6,"params":{"t":"unfinished"#, None),
            (br#"{"params":{"t":"unfinished"#, None),
            (br#"{"id":null,"method":"m","#, None),
            (br#"{"id":{"x":1},"method":"m","#, None),
            (br#"[{"id":1,"method":"m"}]"#, None),
            (b"not json", None),
            (br#"{"method":"m","id":12"#, None),
            (br#"{"method":"m","result":1,"id":3,"#, None),
            (b"{\"s\":\"\xc3", None),
        ] {
            assert_eq!(lead(head), want, "{}", String::from_utf8_lossy(head));
        }
    }
}
