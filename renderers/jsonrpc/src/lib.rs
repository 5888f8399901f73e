//! JSON-RPC 2.0 over LF-delimited stdio, the parts every stdio protocol frontend shares
//! (`smith rpc` today; `smith mcp` reuses the framing and the outbox): framing with the
//! U+2028/U+2029 escape and a line bound ([`frame`]), message classification and the error
//! object ([`message`]), and the bounded, never-stalling outbox of one connection
//! ([`outbox`]), where live intents become events with the durable position they follow.
//!
//! It never reads or writes a file and never prints; the frontend owns stdin and stdout.

pub mod frame;
pub mod message;
pub mod outbox;

pub use frame::{
    HEAD_BYTES, Lead, Line, LineReader, MAX_LINE_BYTES, encode_line, lead, write_line,
};
pub use message::{
    Call, ErrorObject, Message, Refused, Response, error_response, notification, parse,
    parse_message, response,
};
pub use outbox::{Event, Out, Outbox, Pushed, encode_lines_only, read_requests, spawn_writer};
