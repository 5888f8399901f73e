//! The eval's intent sink: intents go to the mode's renderer (plain or JSON lines); when
//! stdout goes away (a closed pipe) it stops rendering and cancels the run, which then ends
//! quietly.

use std::io::{self, IsTerminal};

use smith::Cancel;
use smith_render_plain::{ColorChoice, JsonLinesRenderer, PlainRenderer};
use smith_ui_intents::{Delivery, Intent, IntentSink, Renderer, deliver};

use crate::exit;

/// Forwards intents to the mode's renderer. When stdout goes away (a closed pipe) it stops
/// rendering and cancels the run, which then ends quietly.
pub(super) struct EvalSink {
    renderer: Box<dyn Renderer>,
    cancel: Cancel,
    /// Output failed for any reason; nothing more is rendered.
    pub(super) output_closed: bool,
    /// Output failed because the reader closed the pipe: the run ends quietly.
    pub(super) pipe_closed: bool,
}

impl EvalSink {
    pub(super) fn new(json: bool, cancel: Cancel) -> Self {
        let renderer: Box<dyn Renderer> = if json {
            Box::new(JsonLinesRenderer::new(io::stdout()))
        } else {
            let color = ColorChoice::detect(
                io::stderr().is_terminal(),
                std::env::var("NO_COLOR").ok().as_deref(),
                std::env::var("TERM").ok().as_deref(),
            );
            Box::new(PlainRenderer::new(io::stdout(), io::stderr(), color))
        };
        Self {
            renderer,
            cancel,
            output_closed: false,
            pipe_closed: false,
        }
    }

    pub(super) fn diagnostic(&self, text: &str) {
        exit::report(text);
    }
}

impl IntentSink for EvalSink {
    fn emit(&mut self, intent: Intent) -> Delivery {
        if self.output_closed {
            return Delivery::Dropped;
        }
        match deliver(self.renderer.as_mut(), &intent) {
            Ok(delivery) => delivery,
            Err(e) => {
                self.output_failed(&e);
                Delivery::Dropped
            }
        }
    }
}

impl EvalSink {
    /// Stdout failed: stop rendering and cancel the run (quietly for a closed pipe).
    fn output_failed(&mut self, e: &io::Error) {
        self.output_closed = true;
        self.cancel.cancel();
        if e.kind() == io::ErrorKind::BrokenPipe {
            self.pipe_closed = true;
        } else {
            self.diagnostic(&format!(
                "cannot write output ({e}); the run was stopped and the session records it"
            ));
        }
    }
}
