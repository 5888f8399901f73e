//! Replaying a deduplicated submission: its receipt and recorded answer, nothing run.

use smith::{ContentBlock, Role, StopReason, UsageTotals};
use smith_ui_intents::{DeltaKind, Intent, IntentSink, ReceiptStatus};

use crate::submission::{Receipt, ReceiptState};
use crate::{RunError, RunOutcome};

/// Emit a deduplicated submission's receipt and recorded answer, and return its outcome:
/// nothing runs and nothing is written.
pub(crate) fn replay(
    session: smith::SessionId,
    receipt: &Receipt,
    sink: &mut dyn IntentSink,
) -> RunOutcome {
    sink.emit(Intent::RunStart {
        session,
        model: receipt.model.clone(),
        sandbox: None,
    });
    let (stop_reason, usage, error, status) = match &receipt.state {
        ReceiptState::Terminal {
            stop_reason,
            usage,
            error,
            ..
        } => (*stop_reason, *usage, error.clone(), ReceiptStatus::Terminal),
        ReceiptState::Withdrawn { at } => (
            StopReason::Aborted,
            UsageTotals::default(),
            Some(format!(
                "submission {} was queued and then withdrawn (entry {at}); it never ran",
                receipt.submission
            )),
            ReceiptStatus::Terminal,
        ),
        ReceiptState::Admitted | ReceiptState::Queued | ReceiptState::Delivered { .. } => (
            StopReason::Aborted,
            UsageTotals::default(),
            Some(format!(
                "submission {} has not finished; its work recorded no end",
                receipt.submission
            )),
            ReceiptStatus::Admitted,
        ),
    };
    sink.emit(Intent::Receipt {
        submission: receipt.submission.0,
        dedup_key: receipt.dedup_key.clone(),
        deduplicated: true,
        state: status,
        stop_reason: matches!(status, ReceiptStatus::Terminal).then_some(stop_reason),
    });
    if let Some((id, record)) = &receipt.answer {
        let message = &record.message;
        sink.emit(Intent::MessageStart {
            message_id: id.0,
            role: Role::Assistant,
        });
        for block in &message.content {
            let (kind, text) = match block {
                ContentBlock::Text { text } => (DeltaKind::Text, text),
                ContentBlock::Thinking { text, .. } => (DeltaKind::Thinking, text),
                ContentBlock::ToolCall(_) | ContentBlock::Image(_) => continue,
            };
            sink.emit(Intent::MessageDelta {
                message_id: id.0,
                kind,
                text: text.clone(),
            });
        }
        sink.emit(Intent::MessageEnd {
            message_id: id.0,
            entry_id: Some(id.0),
            message: message.clone(),
            stop_reason: record.stop_reason,
            usage: record.usage,
            recorded: true,
        });
    }
    // The recorded end holds usage, not cost: the replay does not re-price it (the session's
    // attempts do, through `smith sessions get`), so it reports the cost as unknown.
    sink.emit(Intent::RunEnd {
        stop_reason,
        usage,
        cost_usd: None,
        error: error.clone(),
        memory: None,
    });
    RunOutcome {
        submission: Some(receipt.submission),
        deduplicated: true,
        stop_reason,
        usage,
        cost_usd: None,
        error: error.map(RunError::Replayed),
    }
}
