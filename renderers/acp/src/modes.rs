//! The session modes an editor offers (ACP session modes,
//! <https://agentclientprotocol.com/protocol/v1/session-modes>): Smith's permission modes
//! (spec: Permissions), by the names settings write them.

use agent_client_protocol_schema::v1::{SessionMode, SessionModeState};

/// Every mode: (id, name, description), in the order a frontend cycles through them.
pub const MODES: [(&str, &str, &str); 4] = [
    (
        "plan",
        "Plan",
        "Read-only: every write, program and network effect is refused with a reason.",
    ),
    ("ask", "Ask", "Reads run; writes and programs ask first."),
    (
        "auto-edit",
        "Auto-edit",
        "Reads and writes inside the project run; programs ask first.",
    ),
    ("auto", "Auto", "What the OS sandbox permits runs."),
];

/// The mode state with `current` selected (a name of [`MODES`]).
pub fn state(current: &str) -> SessionModeState {
    SessionModeState::new(
        current.to_owned(),
        MODES
            .iter()
            .map(|(id, name, about)| SessionMode::new(*id, *name).description(*about))
            .collect(),
    )
}
