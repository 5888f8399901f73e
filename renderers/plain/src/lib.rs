//! Renderers for non-interactive eval: [`PlainRenderer`] and [`JsonLinesRenderer`].
//!
//! Both implement [`smith_ui_intents::Renderer`] and write only to the handles they are given;
//! a write error (for example `BrokenPipe` when the reader went away) is returned to the caller,
//! who decides what happens to the run.

mod json;
mod plain;

pub use json::JsonLinesRenderer;
pub use plain::{ColorChoice, PlainRenderer, printable};
