//! `smith rpc` driven through its pipes: turns, aborts, the queue, observers, reconnects, a
//! slow reader, bad input, and the OpenRPC document.
#![allow(unreachable_pub)]

#[path = "../common/mod.rs"]
mod common;

mod bad_input;
mod client;
mod commands;
mod compact;
mod discover;
mod frontends;
mod history;
mod interrupted;
mod permissions;
mod plan;
mod prompt_commands;
mod queue;
mod reconnect;
mod requests;
mod turns;
