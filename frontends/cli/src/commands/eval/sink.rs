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

/// The line plain `eval` ends with on stderr (`eval.cost-line`): the turn's requests,
/// tokens and cost, e.g. `turn: 2 requests, 1,234 input tokens (800 cache reads), 56 output
/// tokens, $0.0042`.
pub(super) fn cost_line(totals: &smith::UsageTotals, cost_usd: Option<f64>) -> String {
    let count = |n: u64| {
        let digits = n.to_string();
        let mut out = String::new();
        for (i, c) in digits.chars().enumerate() {
            if i > 0 && (digits.len() - i).is_multiple_of(3) {
                out.push(',');
            }
            out.push(c);
        }
        out
    };
    let u = &totals.usage;
    let requests = match totals.responses {
        1 => "1 request".to_owned(),
        n => format!("{n} requests"),
    };
    let read = u.cache_read.unwrap_or(0);
    let written = u.cache_write.unwrap_or(0);
    let input = match u.input {
        None => "input tokens not reported for every request".to_owned(),
        Some(input) => {
            let all = input + read + written;
            let mut cached = Vec::new();
            if read > 0 {
                cached.push(format!("{} cache reads", count(read)));
            }
            if written > 0 {
                cached.push(format!("{} cache writes", count(written)));
            }
            if cached.is_empty() && all == 1 {
                "1 input token".to_owned()
            } else if cached.is_empty() {
                format!("{} input tokens", count(all))
            } else {
                format!("{} input tokens ({})", count(all), cached.join(", "))
            }
        }
    };
    let output = u.output.map_or_else(
        || "output tokens not reported for every request".to_owned(),
        |o| match o {
            1 => "1 output token".to_owned(),
            o => format!("{} output tokens", count(o)),
        },
    );
    let cost = match cost_usd {
        None if u.input.is_none() || u.output.is_none() => {
            "cost unknown (a response reported no usage: interrupted, or its provider does not say)"
                .to_owned()
        }
        None => "cost unknown (no catalog price for a model it used)".to_owned(),
        Some(0.0) => "$0".to_owned(),
        Some(c) if c < 0.0001 => "under $0.0001".to_owned(),
        Some(c) => format!("${c:.4}"),
    };
    format!("turn: {requests}, {input}, {output}, {cost}")
}

#[cfg(test)]
mod tests {
    use super::cost_line;
    use smith::{Usage, UsageTotals};

    fn totals(responses: u32, usage: Usage) -> UsageTotals {
        UsageTotals { responses, usage }
    }

    #[test]
    fn the_cost_line_counts_in_words_and_says_why_a_cost_is_unknown() {
        let usage = Usage {
            input: Some(1_203),
            output: Some(1),
            cache_read: Some(2_000_000),
            cache_write: None,
        };
        assert_eq!(
            cost_line(&totals(3, usage), Some(0.00421)),
            "turn: 3 requests, 2,001,203 input tokens (2,000,000 cache reads), 1 output token, $0.0042"
        );
        let unreported = Usage {
            input: None,
            ..usage
        };
        let line = cost_line(&totals(1, unreported), None);
        assert!(
            line.contains("input tokens not reported for every request")
                && line.contains("a response reported no usage"),
            "{line}"
        );
        let priceless = cost_line(&totals(1, usage), None);
        assert!(
            priceless.ends_with("no catalog price for a model it used)"),
            "{priceless}"
        );
        assert!(cost_line(&totals(1, usage), Some(0.00001)).ends_with("under $0.0001"));
    }
}
