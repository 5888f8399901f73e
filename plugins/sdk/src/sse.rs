//! A Server-Sent Events parser (WHATWG HTML, "Server-sent events" → interpreting an event
//! stream) for provider codecs: bytes in, in any split, events out.
//!
//! Lines end in CR LF, LF or CR. A line starting with `:` is a comment (keep-alive pings);
//! `field: value` strips one space after the colon; `data` lines accumulate (joined by LF);
//! a blank line dispatches the event. Bytes are buffered until a line is complete, so a chunk
//! boundary inside a multi-byte UTF-8 character or a line is harmless. At the end of the
//! stream, [`Parser::finish`] dispatches a last event that lacks its blank line (many servers
//! end without one) — the standard would drop it; providers are read leniently here, and
//! each codec still insists on its own terminal event. Leading and trailing whitespace around
//! a `data` value is kept except the one optional space; codecs trim JSON themselves.

/// One dispatched event.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Event {
    /// The `event` field (`message` when absent, per the standard).
    pub event: String,
    /// The `data` lines joined by LF.
    pub data: String,
    /// The `id` field, if any.
    pub id: Option<String>,
}

/// The incremental parser.
#[derive(Debug, Default)]
pub struct Parser {
    /// Bytes of an incomplete line.
    pending: Vec<u8>,
    /// The previous chunk ended in CR: a following LF belongs to that line end.
    after_cr: bool,
    event: Option<String>,
    data: Vec<String>,
    id: Option<String>,
    /// Whether any field was seen since the last dispatch.
    started: bool,
    /// A line was malformed: nothing more is read.
    failed: bool,
}

/// Why the bytes are not an event stream.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Malformed(pub String);

/// What a [`Parser::push`] or [`Parser::finish`] gave: the events completed, in order, and —
/// when a line was malformed — why. The events before a malformed line are kept, however the
/// bytes were split; nothing after it is read (the parser then stays finished).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Parsed {
    /// The events completed.
    pub events: Vec<Event>,
    /// Why the stream stopped being an event stream, if it did.
    pub malformed: Option<Malformed>,
}

impl Parser {
    /// A parser at the start of a stream.
    pub fn new() -> Self {
        Self::default()
    }

    /// Feed `bytes`; returns the events they complete, and why the stream is malformed when a
    /// complete line is not UTF-8.
    pub fn push(&mut self, bytes: &[u8]) -> Parsed {
        let mut out = Parsed::default();
        if self.failed {
            return out;
        }
        for &b in bytes {
            if self.after_cr {
                self.after_cr = false;
                if b == b'\n' {
                    continue;
                }
            }
            let ended = match b {
                b'\n' => self.line(&mut out.events),
                b'\r' => {
                    self.after_cr = true;
                    self.line(&mut out.events)
                }
                _ => {
                    self.pending.push(b);
                    Ok(())
                }
            };
            if let Err(e) = ended {
                self.failed = true;
                out.malformed = Some(e);
                break;
            }
        }
        out
    }

    /// The stream ended: the last line and event, even without their line ends.
    pub fn finish(&mut self) -> Parsed {
        let mut out = Parsed::default();
        if self.failed {
            return out;
        }
        self.failed = true;
        if !self.pending.is_empty()
            && let Err(e) = self.line(&mut out.events)
        {
            out.malformed = Some(e);
            return out;
        }
        if self.started {
            out.events.push(self.take());
        }
        out
    }

    fn take(&mut self) -> Event {
        self.started = false;
        Event {
            event: self.event.take().unwrap_or_else(|| "message".to_owned()),
            data: std::mem::take(&mut self.data).join("\n"),
            id: self.id.take(),
        }
    }

    fn line(&mut self, out: &mut Vec<Event>) -> Result<(), Malformed> {
        let raw = std::mem::take(&mut self.pending);
        let line = String::from_utf8(raw)
            .map_err(|e| Malformed(format!("an event-stream line is not UTF-8: {e}")))?;
        if line.is_empty() {
            if self.started {
                out.push(self.take());
            }
            return Ok(());
        }
        if line.starts_with(':') {
            return Ok(());
        }
        let (field, value) = match line.split_once(':') {
            Some((f, v)) => (f, v.strip_prefix(' ').unwrap_or(v)),
            None => (line.as_str(), ""),
        };
        match field {
            "event" => {
                self.event = Some(value.to_owned());
                self.started = true;
            }
            "data" => {
                self.data.push(value.to_owned());
                self.started = true;
            }
            "id" => {
                self.id = Some(value.to_owned());
                self.started = true;
            }
            // `retry` and unknown fields are ignored, per the standard.
            _ => {}
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(chunks: &[&[u8]]) -> Vec<Event> {
        let mut p = Parser::new();
        let mut out = Vec::new();
        for c in chunks {
            let parsed = p.push(c);
            assert_eq!(parsed.malformed, None);
            out.extend(parsed.events);
        }
        let parsed = p.finish();
        assert_eq!(parsed.malformed, None);
        out.extend(parsed.events);
        out
    }

    #[test]
    fn events_split_anywhere_parse_the_same() {
        let stream = "event: a\r\ndata: {\"x\": \"é\"}\r\n\r\n: ping\n\ndata:  padded \ndata: two\n\nevent: last\ndata: end";
        let whole = all(&[stream.as_bytes()]);
        assert_eq!(whole.len(), 3);
        assert_eq!(whole[0].event, "a");
        assert_eq!(whole[0].data, "{\"x\": \"é\"}");
        assert_eq!(whole[1].data, " padded \ntwo");
        assert_eq!(whole[1].event, "message");
        assert_eq!(
            (whole[2].event.as_str(), whole[2].data.as_str()),
            ("last", "end")
        );
        let bytes = stream.as_bytes();
        for split in 1..bytes.len() {
            assert_eq!(
                all(&[&bytes[..split], &bytes[split..]]),
                whole,
                "split at {split}"
            );
        }
        let singles: Vec<&[u8]> = bytes.chunks(1).collect();
        assert_eq!(all(&singles), whole);
    }

    #[test]
    fn a_line_that_is_not_utf8_is_malformed_and_what_came_before_it_is_kept() {
        let bytes = b"data: one\n\ndata: \xff\ndata: two\n\n";
        for split in 1..bytes.len() {
            let mut p = Parser::new();
            let mut first = p.push(&bytes[..split]);
            let second = p.push(&bytes[split..]);
            first.events.extend(second.events);
            let malformed = first.malformed.or(second.malformed);
            assert_eq!(first.events.len(), 1, "split at {split}");
            assert_eq!(first.events[0].data, "one");
            assert!(malformed.is_some_and(|m| m.0.contains("not UTF-8")));
            assert_eq!(p.push(b"data: more\n\n"), Parsed::default());
            assert_eq!(p.finish(), Parsed::default());
        }
    }
}
