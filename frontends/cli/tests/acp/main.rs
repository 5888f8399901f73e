//! `smith acp` driven through its pipes: by the official Rust SDK's client side
//! (`agent-client-protocol`) for the whole job an editor does, and by raw lines for what a
//! client library never sends.
#![allow(unreachable_pub, dead_code)]

#[path = "../common/mod.rs"]
mod common;

#[path = "../rpc/client.rs"]
mod client;

mod mcp;
mod pipes;
mod sdk;
