//! Renderers and the delivery of intents under the degradation law.

use std::io;

use crate::{Degradation, Intent, IntentKind, NoticeLevel};

/// A frontend's renderer: shows the intent kinds it supports, in order.
///
/// Renderer crates (`renderers/plain`, later `terminal`, `jsonrpc`, `mcp`) implement it and
/// declare statically which kinds they support; [`deliver`] applies every other kind's
/// [`Degradation`] rule, so no frontend discovers at run time what to do.
pub trait Renderer {
    /// A short name used in refusals, e.g. `plain eval output`.
    fn name(&self) -> &'static str;

    /// Whether this renderer shows `kind` itself.
    fn supports(&self, kind: IntentKind) -> bool;

    /// The manifest-declared capabilities this frontend serves ([`Intent::Extension`]
    /// payloads with another capability are dropped). None by default.
    fn capabilities(&self) -> &[&'static str] {
        &[]
    }

    /// Show one intent of a supported kind.
    ///
    /// # Errors
    /// The output failed (for example `BrokenPipe` when the reader went away); the caller
    /// decides what happens to the work.
    fn render(&mut self, intent: &Intent) -> io::Result<()>;
}

/// What became of a delivered intent.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Delivery {
    /// The renderer showed it.
    Shown,
    /// Not shown: a drop-rule kind the renderer does not support, or an extension for a
    /// capability it does not declare.
    Dropped,
    /// A request the frontend cannot serve: the requester gets this refusal (and the renderer
    /// showed a `request_refused` intent if it supports that kind). Never blocks.
    Refused {
        /// Why, naming the frontend.
        reason: String,
    },
    /// A persist-rule kind without a dedicated presentation, kept in a generic form.
    Kept,
}

/// Deliver `intent` to `renderer` under the degradation law: supported kinds are rendered;
/// otherwise drop-rule kinds are dropped, refuse-rule kinds are refused at once with a
/// `request_refused` event, and persist-rule kinds are kept as a generic notice holding their
/// JSON form.
///
/// # Errors
/// The renderer's output error.
pub fn deliver(renderer: &mut dyn Renderer, intent: &Intent) -> io::Result<Delivery> {
    if let Intent::Extension { capability, .. } = intent
        && !renderer.capabilities().contains(&capability.as_str())
    {
        return Ok(Delivery::Dropped);
    }
    let kind = intent.kind();
    if renderer.supports(kind) {
        renderer.render(intent)?;
        return Ok(Delivery::Shown);
    }
    match kind.degradation() {
        Degradation::Drop => Ok(Delivery::Dropped),
        Degradation::Refuse => {
            let reason = format!(
                "{} cannot answer `{}`: it is not interactive",
                renderer.name(),
                kind.name()
            );
            if renderer.supports(IntentKind::RequestRefused) {
                renderer.render(&Intent::RequestRefused {
                    request_id: intent.request_id().unwrap_or_default().to_owned(),
                    reason: reason.clone(),
                })?;
            }
            Ok(Delivery::Refused { reason })
        }
        Degradation::Persist => {
            let json = serde_json::to_string(intent).unwrap_or_default();
            renderer.render(&Intent::Notice {
                level: NoticeLevel::Info,
                text: format!("{}: {json}", kind.name()),
            })?;
            Ok(Delivery::Kept)
        }
    }
}
