//! One module per command, each with its clap arguments beside the code that runs it
//! (`smith_app` builds the runtime; these modules parse, print and choose exit statuses).

pub(crate) mod acp;
pub(crate) mod auth;
pub(crate) mod completions;
pub(crate) mod config;
pub(crate) mod docs;
pub(crate) mod doctor;
pub(crate) mod effects;
pub(crate) mod eval;
pub(crate) mod history;
pub(crate) mod mcp;
pub(crate) mod mcp_servers;
pub(crate) mod models;
pub(crate) mod plugins;
pub(crate) mod rpc;
pub(crate) mod secrets;
pub(crate) mod sessions;
pub(crate) mod tools;
pub(crate) mod trust;
pub(crate) mod tui;
