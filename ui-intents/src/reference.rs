//! The reference document of the vocabulary, generated from the kinds and their examples.

use std::fmt::Write as _;

use crate::{IntentKind, examples};

/// The markdown body of the UI-intent reference: the degradation law, then one row per kind
/// with its rules and one example of its JSON form. Generated, never edited by hand.
pub fn reference_markdown() -> String {
    let mut out = String::from(
        "# UI intents\n\n\
The runtime never prints: it emits a typed stream of UI intents, and each frontend's renderer \
shows them. Intents carry meaning only (no geometry, colour or terminal types). Every kind \
declares, statically:\n\n\
- **durability** — `transcript` kinds mirror a committed session record; `transient` kinds are \
presentation only;\n\
- **degradation** — what a frontend that cannot show the kind does: `drop` it, `refuse` it \
(the requester gets a refusal at once and a `request_refused` intent is shown; nothing ever \
waits for an answer that cannot come), or `persist` it (it is kept, in a generic form if the \
frontend has no dedicated one);\n\
- **backpressure** — what a bounded stream does when its consumer falls behind: `block` (wait \
for room) or `coalesce` (a delta extends the delta queued right before it; a newer progress, \
status, tool-update or context-use report replaces the queued one with the same key). Nothing \
is dropped and order is kept; durable kinds always block.\n\n\
Plugins never ask which frontend is active. Frontend-specific payloads travel only as \
`extension` intents naming a manifest-declared capability; frontends without it drop them.\n\n\
| kind | durability | degradation | backpressure | meaning |\n| --- | --- | --- | --- | --- |\n",
    );
    for kind in IntentKind::ALL {
        let _ = writeln!(
            out,
            "| `{}` | {} | {} | {} | {} |",
            kind.name(),
            snake(&format!("{:?}", kind.durability())),
            snake(&format!("{:?}", kind.degradation())),
            snake(&format!("{:?}", kind.backpressure())),
            kind.summary()
        );
    }
    out.push_str(
        "\n## Examples\n\nThe JSON form of each kind (as `smith eval --json` prints it):\n",
    );
    for intent in examples() {
        let json = serde_json::to_string(&intent).unwrap_or_default();
        let _ = write!(
            out,
            "\n### `{}`\n\n```json\n{json}\n```\n",
            intent.kind().name()
        );
    }
    out
}

fn snake(camel: &str) -> String {
    let mut out = String::new();
    for (i, c) in camel.chars().enumerate() {
        if c.is_uppercase() {
            if i > 0 {
                out.push('_');
            }
            out.extend(c.to_lowercase());
        } else {
            out.push(c);
        }
    }
    out
}
