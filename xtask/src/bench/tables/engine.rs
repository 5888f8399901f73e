//! The figures of the engine's bench examples: docs, store, host, search, projection,
//! turns, memory accounting, secrets, VCS, replay, catalog.

use super::Row;
use crate::bench::Limit;

pub(super) const DOCS: &[Row] = &[
    (
        "query",
        "docs query in process (search + snippets)",
        Limit::Ms(5.0),
    ),
    (
        "corpus_load",
        "docs corpus decompress + parse",
        Limit::ReportMs,
    ),
    (
        "index_open_embedded",
        "docs index open (built at compile time)",
        Limit::ReportMs,
    ),
    (
        "index_build_in_ram",
        "docs index build in RAM (the alternative)",
        Limit::ReportMs,
    ),
];

pub(super) const STORE: &[Row] = &[
    (
        "encode_1000_ms",
        "encode 1,000 representative entries",
        Limit::Ms(0.5),
    ),
    (
        "open_last50_10000_ms",
        "open + last 50 entries, 10,000-entry session",
        Limit::Ms(50.0),
    ),
    (
        "open_last50_10000_rss_kib",
        "open + last 50, 10,000 entries: peak RSS",
        Limit::RssMib(64.0),
    ),
    (
        "open_last50_100000_ms",
        "open + last 50 entries, 100,000-entry session",
        Limit::Ms(50.0),
    ),
    (
        "open_last50_100000_rss_kib",
        "open + last 50, 100,000 entries: peak RSS",
        Limit::RssMib(64.0),
    ),
    (
        "open_torn_100000_ms",
        "recovery open (torn tail: full scan), 100,000 entries",
        Limit::ReportMs,
    ),
    (
        "open_torn_100000_rss_kib",
        "recovery open, 100,000 entries: peak RSS",
        Limit::RssMib(64.0),
    ),
];

pub(super) const HOST: &[Row] = &[
    (
        "plugins_start_warm_ms",
        "start all bundled plugins, warm compile cache (release)",
        Limit::Ms(5.0),
    ),
    (
        "plugins_start_cold_ms",
        "start all bundled plugins, cold cache: compile (release)",
        Limit::ReportMs,
    ),
    (
        "tool_call_ms",
        "one trivial tool call with durable intent + completion",
        Limit::ReportMs,
    ),
    (
        "web_fetch_server_ms",
        "1 MB HTML page fetched by the bare HTTP engine (loopback)",
        Limit::ReportMs,
    ),
    (
        "web_fetch_raw_1mb_ms",
        "web_fetch of that page as its source (`raw`): no conversion",
        Limit::ReportMs,
    ),
    (
        "web_fetch_1mb_ms",
        "web_fetch of that page: request, records, Markdown",
        Limit::ReportMs,
    ),
    (
        "web_fetch_over_server_ms",
        "web_fetch of a 1 MB page above the server's own time",
        Limit::Ms(50.0),
    ),
    (
        "kept_exchange_call_ms",
        "a tool call exchanging a line with a kept server",
        Limit::ReportMs,
    ),
    (
        "mcp_bare_listing_ms",
        "3 stdio MCP servers started, greeted, listed by a bare client",
        Limit::ReportMs,
    ),
    (
        "mcp_discover_ms",
        "the same 3 servers' tools found by the MCP client plugin",
        Limit::ReportMs,
    ),
    (
        "mcp_discover_over_servers_ms",
        "MCP tools offered, above the servers' own listing time",
        Limit::Ms(20.0),
    ),
    (
        "mcp_bare_call_ms",
        "an MCP `tools/call` round trip by a bare client",
        Limit::ReportMs,
    ),
    (
        "mcp_call_ms",
        "the same call as a Smith tool call (durable effects)",
        Limit::ReportMs,
    ),
    (
        "mcp_call_over_server_ms",
        "an MCP tool call above the server's own round trip",
        Limit::Ms(2.0),
    ),
    (
        "mcp_named_bare_listing_ms",
        "the Python SDK's server and 2 `smith mcp` listed by a bare client",
        Limit::ReportMs,
    ),
    (
        "mcp_named_discover_ms",
        "the same 3 servers' tools found by the MCP client plugin",
        Limit::ReportMs,
    ),
    (
        "mcp_named_discover_over_servers_ms",
        "their tools offered, above the servers' own listing time",
        Limit::Ms(20.0),
    ),
    (
        "mcp_named_bare_call_ms",
        "a `tools/call` round trip to the SDK's server by a bare client",
        Limit::ReportMs,
    ),
    (
        "mcp_named_call_ms",
        "the same call as a Smith tool call (durable effects)",
        Limit::ReportMs,
    ),
    (
        "mcp_named_call_over_server_ms",
        "a call to the SDK's server above its own round trip",
        Limit::Ms(2.0),
    ),
];

pub(super) const HOST_DEBUG: &[Row] = &[(
    "plugins_start_warm_ms",
    "start all bundled plugins, warm compile cache (debug build)",
    Limit::ReportMs,
)];

pub(super) const SEARCH: &[Row] = &[
    (
        "grep_50000_ms",
        "grep a literal across 50,000 files (in process, sorted walk)",
        Limit::ReportMs,
    ),
    (
        "rg_50000_ms",
        "the same search with ripgrep `rg -F` (same tree, same run)",
        Limit::ReportMsIfInstalled,
    ),
    (
        "find_50000_ms",
        "find `*.rs` (first 1,000) in the same tree",
        Limit::ReportMs,
    ),
];

/// Issue 72: the accounting allocator's cost, measured against its twin without it in one run.
pub(super) const ENCODE_ACCOUNTED: &[Row] = &[
    (
        "accounted_encode_1000_ms",
        "encode 1,000 entries with memory accounting",
        Limit::ReportMs,
    ),
    (
        "accounting_encode_overhead",
        "memory accounting: encode time, with ÷ without (11 processes each)",
        Limit::Ratio(1.03),
    ),
    (
        "accounting_encode_aslr_off",
        "memory accounting: encode processes ran without address randomization (1: yes)",
        Limit::ReportCount,
    ),
];

/// Issue 72: the accounting allocator's cost on a turn, against its twin without it.
pub(super) const TURN_ACCOUNTED: &[Row] = &[
    (
        "accounted_turn_wall_ms",
        "one scripted turn with memory accounting: wall",
        Limit::ReportMs,
    ),
    (
        "turn_allocations",
        "one scripted turn with one tool call: heap allocations (counted by the accounting)",
        Limit::ReportCount,
    ),
    (
        "turn_alloc_kib",
        "one scripted turn with one tool call: KiB allocated (counted by the accounting)",
        Limit::ReportCount,
    ),
    (
        "accounting_turn_overhead",
        "memory accounting: turn wall, with ÷ without (median of 24 paired blocks)",
        Limit::Ratio(1.03),
    ),
    (
        "accounting_turn_overhead_p25",
        "memory accounting: turn wall ratio, the blocks' lower quartile",
        Limit::ReportCount,
    ),
    (
        "accounting_turn_overhead_p75",
        "memory accounting: turn wall ratio, the blocks' upper quartile",
        Limit::ReportCount,
    ),
    (
        "accounting_turn_header_kib",
        "memory accounting: KiB of block headers per turn",
        Limit::ReportCount,
    ),
];

pub(super) const TURN: &[Row] = &[
    (
        "turn_wall_ms",
        "one scripted turn with one tool call: wall (one fsync per commit)",
        Limit::ReportMs,
    ),
    (
        "turn_fsyncs",
        "one scripted turn with one tool call: fsyncs (commits)",
        Limit::ReportCount,
    ),
];

pub(super) const PROJECTION: &[Row] = &[
    (
        "projection_10k_ms",
        "project a 10,000-entry selected branch from its file (resume)",
        Limit::Ms(5.0),
    ),
    (
        "projection_10k_resident_ms",
        "next request's context in a running 10,000-entry session",
        Limit::Ms(5.0),
    ),
    (
        "projection_1k_ms",
        "project a 1,000-entry selected branch from its file",
        Limit::ReportMs,
    ),
    (
        "projection_1k_beside_9k_ms",
        "the same beside 9,000 unrelated entries (flat: ≈ the line above)",
        Limit::ReportMs,
    ),
    (
        "projection_compacted_1k_ms",
        "project a branch whose 1,000 older entries a compaction summarizes",
        Limit::Ms(5.0),
    ),
    (
        "projection_compacted_100k_ms",
        "the same with 100,000 summarized entries (flat: ≈ the line above)",
        Limit::Ms(5.0),
    ),
    (
        "open_compacted_1k_ms",
        "open (resume) a session whose 1,000 older entries a compaction summarizes",
        Limit::Ms(5.0),
    ),
    (
        "open_compacted_100k_ms",
        "the same with 100,000 summarized entries (flat: ≈ the line above)",
        Limit::Ms(5.0),
    ),
    (
        "open_compacted_1k_rss_kib",
        "open and project the 1,000-entry compacted session: peak RSS",
        Limit::ReportCount,
    ),
    (
        "open_compacted_100k_rss_kib",
        "the same with 100,000 summarized entries: peak RSS (flat: ≈ the line above)",
        Limit::ReportCount,
    ),
];

pub(super) const CATALOG: &[Row] = &[
    (
        "catalog_load_ms",
        "bundled model catalog load (embedded records), median of 50",
        Limit::Ms(1.0),
    ),
    (
        "catalog_records",
        "bundled model catalog: records",
        Limit::ReportCount,
    ),
    (
        "catalog_kdl_parse_ms",
        "the same records parsed from KDL (as models.kdl is)",
        Limit::ReportMs,
    ),
];

pub(super) const SECRETS: &[Row] = &[
    (
        "redact_64mib_100_ms",
        "redact 64 MiB of tool output against 100 secrets (all forms)",
        Limit::Ms(100.0),
    ),
    (
        "redactor_build_100_ms",
        "build the redactor of 100 secrets",
        Limit::ReportMs,
    ),
];

pub(super) const VCS: &[Row] = &[
    (
        "vcs_snapshot_10k_first_ms",
        "VCS snapshot of a 10,000-file tree, first (every file hashed)",
        Limit::ReportMs,
    ),
    (
        "vcs_snapshot_10k_one_changed_ms",
        "VCS snapshot of a 10,000-file tree with one changed file",
        Limit::Ms(50.0),
    ),
    (
        "vcs_undo_3_files_ms",
        "VCS undo of a 3-file change (1,000-file tree; scan, check, write)",
        Limit::Ms(20.0),
    ),
    (
        "vcs_undo_3_files_10k_ms",
        "VCS undo of a 3-file change in the 10,000-file tree",
        Limit::ReportMs,
    ),
];

pub(super) const REPLAY: &[Row] = &[
    (
        "replay_10k_json_ms",
        "`smith replay ID --json` of a 10,000-entry session, spawn → exit, median of 10",
        Limit::Ms(200.0),
    ),
    (
        "replay_10k_peak_rss_kib",
        "the same: peak RSS",
        Limit::RssMib(32.0),
    ),
    (
        "replay_50k_json_ms",
        "the same for a 50,000-entry session (reported)",
        Limit::ReportMs,
    ),
    (
        "replay_50k_peak_rss_kib",
        "its peak RSS (flat in history size: ≈ the 10,000 figure)",
        Limit::RssMib(32.0),
    ),
];
