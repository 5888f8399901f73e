//! JSON lines: one record per intent.

use std::io::{self, Write};

use smith_ui_intents::{Degradation, Intent, IntentKind, Renderer};

/// Writes each intent as one LF-terminated JSON object (its serde form: a `type` field naming
/// the kind, then the kind's fields) and flushes after each record, so a consumer sees records
/// as they happen. Schema: `docs-corpus/docs/eval-json.md`.
#[derive(Debug)]
pub struct JsonLinesRenderer<W: Write> {
    out: W,
}

impl<W: Write> JsonLinesRenderer<W> {
    /// A renderer writing to `out` (stdout in eval).
    pub fn new(out: W) -> Self {
        Self { out }
    }

    /// The underlying writer.
    pub fn into_inner(self) -> W {
        self.out
    }
}

impl<W: Write> Renderer for JsonLinesRenderer<W> {
    fn name(&self) -> &'static str {
        "JSON eval output"
    }

    /// Every kind but the requests: JSON lines are a lossless record of the run, but eval
    /// cannot answer a question, so requests are refused (and the refusal is a record).
    fn supports(&self, kind: IntentKind) -> bool {
        kind.degradation() != Degradation::Refuse
    }

    fn render(&mut self, intent: &Intent) -> io::Result<()> {
        serde_json::to_writer(&mut self.out, intent).map_err(io::Error::other)?;
        self.out.write_all(b"\n")?;
        self.out.flush()
    }
}
