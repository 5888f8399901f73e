//! Where a compaction's boundary falls (spec: Compaction, cost, and secrets — compaction
//! preserves recent context and tool ordering): a pure choice over the projected context, so
//! the record it leads to ([`smith_store::Compaction`]) never splits a tool call from its
//! results and always keeps the configured recent context verbatim.

use smith::{ContextItem, Role};

/// The index of the first item of `items` (a projected context, tool calls paired with their
/// results) that stays verbatim when the context is compacted keeping at least `keep_tokens`
/// estimated tokens ([`ContextItem::estimated_tokens`]) of its most recent items; the items
/// before it are what the summary stands for. `None` when nothing can be summarized: the
/// whole context fits in `keep_tokens`, or no boundary lies before the recent tail.
///
/// The boundary is always a message, never a tool result: a tool result follows the message
/// holding its call with only other results of that batch between, so a boundary at a message
/// leaves every batch whole on one side. Of the messages at or before the start of the recent
/// tail it takes the latest user message (a turn's start), else the latest message of any
/// role; it is never the first item, so at least one item is summarized.
pub fn boundary(items: &[ContextItem], keep_tokens: u64) -> Option<usize> {
    // The start of the shortest tail holding `keep_tokens`.
    let mut kept = 0u64;
    let mut start = None;
    for (i, item) in items.iter().enumerate().rev() {
        kept += item.estimated_tokens();
        if kept >= keep_tokens {
            start = Some(i);
            break;
        }
    }
    let candidates = 1..=start?;
    let message = |i: &usize, user: bool| match &items[*i] {
        ContextItem::Message(m) => !user || m.role == Role::User,
        ContextItem::ToolResult(_) => false,
    };
    candidates
        .clone()
        .rev()
        .find(|i| message(i, true))
        .or_else(|| candidates.rev().find(|i| message(i, false)))
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
        // 100 tokens of tail start inside the last batch: the turn's user message is kept.
        assert_eq!(boundary(&items, 100), Some(3));
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
        assert_eq!(boundary(&items, 50), Some(3));
        // The only boundary the tail allows is a tool result: none.
        assert_eq!(boundary(&[user("only"), result("a", &big)], 101), None);
    }
}
