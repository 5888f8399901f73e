//! Where a compaction's boundary falls (spec: Compaction, cost, and secrets — compaction
//! preserves recent context and tool ordering): a pure choice over the projected context, so
//! the record it leads to ([`smith_store::Compaction`]) never splits a tool call from its
//! results and always keeps the configured recent context verbatim.

use smith::{ContextItem, Role};

/// Where a compaction's boundary falls, and how much it keeps verbatim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Boundary {
    /// The index of the first item kept verbatim; the items before it are what the summary
    /// stands for.
    pub index: usize,
    /// The kept items' estimated tokens ([`ContextItem::estimated_tokens`]).
    pub kept_tokens: u64,
    /// The kept part is over 1.5 × `keep_tokens` because no message lies where a boundary
    /// would keep less and still at least `keep_tokens` (the nearest one is that far back —
    /// a boundary is never a tool result, so a large tool batch is kept whole).
    pub oversized: bool,
}

/// The boundary of a compaction of `items` (a projected context, tool calls paired with their
/// results) keeping at least `keep_tokens` estimated tokens ([`ContextItem::estimated_tokens`])
/// of its most recent items verbatim, and at most 1.5 × `keep_tokens` unless no message lies
/// where a boundary would keep less ([`Boundary::oversized`]). `None` when nothing can be summarized: the
/// whole context fits in `keep_tokens`, or no boundary lies before the recent tail.
///
/// The boundary is always a message, never a tool result: a tool result follows the message
/// holding its call with only other results of that batch between, so a boundary at a message
/// leaves every batch whole on one side. Of the messages at or before the start of the recent
/// tail it takes the latest user message (a turn's start) when what it keeps is within the
/// bound; else the latest message of any role — inside a long turn, between two of its tool
/// batches — which keeps the least. It is never the first item, so at least one item is
/// summarized.
pub fn boundary(items: &[ContextItem], keep_tokens: u64) -> Option<Boundary> {
    // The estimated tokens of each tail: `tails[i]` is what a boundary at `i` keeps.
    let mut tails = vec![0u64; items.len() + 1];
    for (i, item) in items.iter().enumerate().rev() {
        tails[i] = tails[i + 1].saturating_add(item.estimated_tokens());
    }
    // The start of the shortest tail holding `keep_tokens`.
    let start = (0..items.len()).rev().find(|&i| tails[i] >= keep_tokens)?;
    let candidates = 1..=start;
    let message = |i: &usize, user: bool| match &items[*i] {
        ContextItem::Message(m) => !user || m.role == Role::User,
        ContextItem::ToolResult(_) => false,
    };
    let least = candidates.clone().rev().find(|i| message(i, false))?;
    let bound = keep_tokens.saturating_add(keep_tokens / 2);
    let index = candidates
        .rev()
        .find(|i| message(i, true))
        .filter(|&turn| tails[turn] <= bound)
        .unwrap_or(least);
    Some(Boundary {
        index,
        kept_tokens: tails[index],
        oversized: tails[index] > bound,
    })
}

#[cfg(test)]
mod tests {
    use super::*;
    use smith::{ContentBlock, Message, ToolCall, ToolResult};

    fn call(id: &str) -> ContextItem {
        ContextItem::Message(Message {
            role: Role::Assistant,
            content: vec![ContentBlock::ToolCall(ToolCall {
                id: id.into(),
                name: "read".into(),
                arguments: serde_json::json!({}),
            })],
        })
    }

    fn result(id: &str, output: &str) -> ContextItem {
        ContextItem::ToolResult(ToolResult {
            call_id: id.into(),
            name: "read".into(),
            output: output.into(),
            is_error: false,
        })
    }

    fn user(text: &str) -> ContextItem {
        ContextItem::Message(Message::user_text(text))
    }

    #[test]
    fn the_boundary_is_the_latest_turn_start_before_the_recent_tail() {
        let big = "x".repeat(400); // 100 estimated tokens
        let items = [
            user("first"),
            call("a"),
            result("a", &big),
            user("second"),
            call("b"),
            result("b", &big),
        ];
        // 100 tokens of tail start inside the last batch: the turn's user message is kept
        // (about 102 tokens, within 150).
        let at = boundary(&items, 100).unwrap();
        assert_eq!((at.index, at.oversized), (3, false));
        assert_eq!(
            at.kept_tokens,
            items[3..]
                .iter()
                .map(ContextItem::estimated_tokens)
                .sum::<u64>()
        );
        // Everything fits: nothing to summarize.
        assert_eq!(boundary(&items, 10_000), None);
    }

    #[test]
    fn without_a_user_message_in_reach_the_boundary_is_an_assistant_message() {
        let big = "x".repeat(400);
        let items = [
            user("only"),
            call("a"),
            result("a", &big),
            call("b"),
            result("b", &big),
        ];
        assert_eq!(boundary(&items, 50).map(|b| b.index), Some(3));
        // The only boundary the tail allows is a tool result: none.
        assert_eq!(boundary(&[user("only"), result("a", &big)], 101), None);
    }

    #[test]
    fn inside_a_long_turn_the_boundary_falls_between_its_batches_to_keep_near_the_bound() {
        let big = "x".repeat(400); // 100 estimated tokens
        let mut items = vec![user("first"), user("the long turn")];
        for n in 0..10 {
            let id = format!("c{n}");
            items.push(call(&id));
            items.push(result(&id, &big));
        }
        // The turn's start would keep ~1,000 tokens for 200 asked: the boundary is the call
        // message of the second-to-last batch instead.
        let at = boundary(&items, 200).unwrap();
        assert_eq!(at.index, items.len() - 4);
        assert!(matches!(&items[at.index], ContextItem::Message(m) if m.role == Role::Assistant));
        assert!(
            at.kept_tokens >= 200 && at.kept_tokens <= 300 && !at.oversized,
            "{at:?}"
        );
        // One batch larger than 1.5 × keep-tokens by itself: that batch, said so.
        let huge = "x".repeat(4000);
        let items = [user("first"), user("go"), call("a"), result("a", &huge)];
        let at = boundary(&items, 100).unwrap();
        assert_eq!(at.index, 2);
        assert!(at.oversized && at.kept_tokens > 1000, "{at:?}");
    }
}
