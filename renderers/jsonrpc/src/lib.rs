//! Smith's JSON-RPC renderer for `smith rpc`, grown by the RPC frontend work.
//!
//! Will map UI intents to LF-delimited JSON-RPC notifications and responses on stdout.
//! Nothing is implemented yet; no crate depends on it.
