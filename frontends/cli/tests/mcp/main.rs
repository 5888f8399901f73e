//! `smith mcp` driven through its pipes: by the official MCP SDK clients (installed by
//! `.ci/run`) and by raw lines for what a client library never sends.
#![allow(unreachable_pub, dead_code)]

#[path = "../common/mod.rs"]
mod common;

#[path = "../rpc/client.rs"]
mod client;

mod as_client;
mod conformance;
mod declared;
mod over_http;
mod pipes;
mod requests;
mod sdk;
