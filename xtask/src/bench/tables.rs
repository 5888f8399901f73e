//! What each bench example's figures are: its `name value` lines, each with the label the
//! report prints and the limit it is judged by (targets from the issues and the spec).

use super::Limit;

/// One figure of an example: the name it prints, its label in the report, its limit.
pub(super) type Row = (&'static str, &'static str, Limit);

/// A bench example: where it lives, whether it runs in release, and its figures.
pub(super) struct Example {
    pub(super) package: &'static str,
    pub(super) example: &'static str,
    pub(super) release: bool,
    pub(super) rows: &'static [Row],
}

/// Every bench example `cargo xtask bench` runs, in order.
pub(super) const EXAMPLES: &[Example] = &[
    Example {
        package: "smith-ai",
        example: "catalog_bench",
        release: true,
        rows: CATALOG,
    },
    Example {
        package: "smith-docs",
        example: "search_bench",
        release: true,
        rows: DOCS,
    },
    Example {
        package: "smith-store",
        example: "store_bench",
        release: true,
        rows: STORE,
    },
    Example {
        package: "smith-store",
        example: "encode_accounted",
        release: true,
        rows: ENCODE_ACCOUNTED,
    },
    Example {
        package: "smith-secrets",
        example: "redact_bench",
        release: true,
        rows: SECRETS,
    },
    Example {
        package: "smith-host",
        example: "host_bench",
        release: true,
        rows: HOST,
    },
    Example {
        package: "smith-host",
        example: "host_bench",
        release: false,
        rows: HOST_DEBUG,
    },
    Example {
        package: "smith-host",
        example: "grep_bench",
        release: true,
        rows: SEARCH,
    },
    Example {
        package: "smith-agent",
        example: "projection_bench",
        release: true,
        rows: PROJECTION,
    },
    Example {
        package: "smith-app",
        example: "turn_bench",
        release: true,
        rows: TURN,
    },
    Example {
        package: "smith-app",
        example: "turn_bench_accounted",
        release: true,
        rows: TURN_ACCOUNTED,
    },
    Example {
        package: "smith-cli",
        example: "provider_bench",
        release: true,
        rows: PROVIDER,
    },
    Example {
        package: "smith-cli",
        example: "rpc_bench",
        release: true,
        rows: RPC,
    },
    Example {
        package: "smith-cli",
        example: "mcp_bench",
        release: true,
        rows: MCP,
    },
    Example {
        package: "smith-cli",
        example: "acp_bench",
        release: true,
        rows: ACP,
    },
    Example {
        package: "smith-cli",
        example: "tui_bench",
        release: true,
        rows: TUI,
    },
    Example {
        package: "smith-cli",
        example: "replay_bench",
        release: true,
        rows: REPLAY,
    },
    Example {
        package: "smith-tui",
        example: "window_bench",
        release: true,
        rows: WINDOW,
    },
    Example {
        package: "smith-tui",
        example: "picker_bench",
        release: true,
        rows: PICKERS,
    },
    Example {
        package: "smith-vcs",
        example: "vcs_bench",
        release: true,
        rows: VCS,
    },
];

const DOCS: &[Row] = &[
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
const STORE: &[Row] = &[
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
const HOST: &[Row] = &[
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
const HOST_DEBUG: &[Row] = &[(
    "plugins_start_warm_ms",
    "start all bundled plugins, warm compile cache (debug build)",
    Limit::ReportMs,
)];
const SEARCH: &[Row] = &[
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
const ENCODE_ACCOUNTED: &[Row] = &[
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
const TURN_ACCOUNTED: &[Row] = &[
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

const TURN: &[Row] = &[
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
const PROVIDER: &[Row] = &[
    (
        "provider_turn_ms",
        "eval turn vs loopback openai-compatible server: wall, median of 30",
        Limit::Ms(30.0),
    ),
    (
        "curl_request_ms",
        "curl's request on the same loopback server (the network floor), median of 30",
        Limit::ReportMs,
    ),
    (
        "provider_turn_vs_curl",
        "eval turn ÷ curl's request, same server, same run",
        Limit::Ratio(1.5),
    ),
    (
        "first_eval_ms",
        "first run in a fresh SMITH_HOME: scripted eval turn, median of 5",
        Limit::Ms(60.0),
    ),
    (
        "first_mcp_list_ms",
        "first run in a fresh SMITH_HOME: `smith mcp` spawn → tools/list answered, median of 5",
        Limit::Ms(40.0),
    ),
    (
        "sandbox_setup_ms",
        "what the OS sandbox adds to `bash -c true` (launcher: namespaces, mounts, Landlock, seccomp), medians of 30",
        Limit::Ms(2.0),
    ),
    (
        "policy_per_call_ms",
        "what the policy events add to one tool call with the bundled permissions plugin (100 reads with and without it, 30 interleaved pairs, medians)",
        Limit::Ms(0.2),
    ),
    (
        "provider_turn_bare_ms",
        "the same without the prompt, agents-md and docs plugins",
        Limit::ReportMs,
    ),
    (
        "provider_turn_rss_kib",
        "eval turn vs loopback openai-compatible server: peak RSS",
        Limit::RssMib(24.0),
    ),
    (
        "provider_request_bytes",
        "eval turn vs loopback openai-compatible server: bytes sent per request",
        Limit::ReportCount,
    ),
    (
        "large_get_1mb_ms",
        "`sessions get --limit 50`, 1 MB session of 50 KB tool results",
        Limit::ReportMs,
    ),
    (
        "large_get_100mb_ms",
        "`sessions get --limit 50`, 100 MB session of 50 KB tool results",
        Limit::Ms(20.0),
    ),
    (
        "large_get_100mb_rss_kib",
        "`sessions get --limit 50`, 100 MB session: peak RSS",
        Limit::RssMib(16.0),
    ),
    (
        "large_turn_1mb_ms",
        "resume + one loopback turn, 1 MB session (short selected branch)",
        Limit::ReportMs,
    ),
    (
        "large_turn_100mb_ms",
        "resume + one loopback turn, 100 MB beside a short selected branch",
        Limit::Ms(40.0),
    ),
    (
        "large_turn_1mb_rss_kib",
        "resume + one loopback turn, 1 MB session: peak RSS",
        Limit::ReportCount,
    ),
    (
        "large_turn_100mb_rss_kib",
        "resume + one loopback turn, 100 MB beside a short branch: peak RSS",
        Limit::RssMib(32.0),
    ),
    (
        "compacted_get_1mb_ms",
        "`sessions get --limit 50`, 1 MB selected branch compacted at its end",
        Limit::ReportMs,
    ),
    (
        "compacted_get_100mb_ms",
        "`sessions get --limit 50`, 100 MB selected branch compacted at its end",
        Limit::Ms(20.0),
    ),
    (
        "compacted_get_100mb_vs_1mb",
        "`sessions get --limit 50`: 100 MB compacted branch ÷ 1 MB, same run",
        Limit::Ratio(1.5),
    ),
    (
        "compacted_get_100mb_rss_kib",
        "`sessions get --limit 50`, 100 MB compacted branch: peak RSS",
        Limit::RssMib(16.0),
    ),
    (
        "compacted_turn_1mb_ms",
        "resume + one loopback turn, 1 MB branch compacted at its end",
        Limit::ReportMs,
    ),
    (
        "compacted_turn_100mb_ms",
        "resume + one loopback turn, 100 MB branch compacted at its end",
        Limit::ReportMs,
    ),
    (
        "compacted_first_request_1mb_ms",
        "spawn → the turn's request at the server, 1 MB branch compacted at its end",
        Limit::ReportMs,
    ),
    (
        "compacted_first_request_100mb_ms",
        "spawn → the turn's request at the server, 100 MB compacted branch (issue 69)",
        Limit::Ms(40.0),
    ),
    (
        "compacted_turn_100mb_vs_1mb",
        "resume + one loopback turn: 100 MB compacted branch ÷ 1 MB, same run",
        Limit::Ratio(1.5),
    ),
    (
        "compacted_turn_100mb_rss_kib",
        "resume + one loopback turn, 100 MB compacted branch: peak RSS",
        Limit::RssMib(32.0),
    ),
];
const PROJECTION: &[Row] = &[
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
const RPC: &[Row] = &[
    (
        "rpc_discover_ms",
        "`smith rpc` start to first response (`rpc.discover`), median of 30",
        Limit::Ms(10.0),
    ),
    (
        "rpc_receipt_ms",
        "`session.submit` to its durable receipt reply, median of 30",
        Limit::ReportMs,
    ),
    (
        "rpc_fsync_ms",
        "fsync of a small append on the same disk, median of 30",
        Limit::ReportMs,
    ),
    (
        "rpc_receipt_beyond_fsync_ms",
        "receipt reply beyond that fsync",
        Limit::Ms(3.0),
    ),
    (
        "rpc_100k_deltas_ms",
        "100,000 streamed deltas through the pipe, all received: wall",
        Limit::ReportMs,
    ),
    (
        "rpc_100k_deltas_rss_kib",
        "100,000 streamed deltas through the pipe: peak RSS",
        Limit::RssMib(32.0),
    ),
    (
        "rpc_fast_reader_20k_rss_kib",
        "20,000 unmergeable deltas (one message block each), read as they come: peak RSS",
        Limit::ReportCount,
    ),
    (
        "rpc_slow_reader_20k_rss_kib",
        "the same, the client not reading until the run ended: peak RSS",
        Limit::ReportCount,
    ),
    (
        "rpc_slow_reader_20k_extra_kib",
        "what the slow reader costs beyond the fast one (the bounded outbox)",
        Limit::ReportCount,
    ),
    (
        "rpc_fast_reader_100k_rss_kib",
        "the same at 100,000, read as they come (the message grows with the stream)",
        Limit::ReportCount,
    ),
    (
        "rpc_slow_reader_100k_rss_kib",
        "the same at 100,000, the client not reading",
        Limit::ReportCount,
    ),
    (
        "rpc_slow_reader_100k_extra_kib",
        "what the slow reader costs at 100,000 (flat: ≈ the 20,000 figure, within 8 MiB)",
        Limit::RssMib(8.0),
    ),
];
const MCP: &[Row] = &[
    (
        "mcp_start_tools_list_ms",
        "`smith mcp` spawn → initialize → tools/list answered, median of 20",
        Limit::Ms(15.0),
    ),
    (
        "mcp_read_call_ms",
        "a `read` tool call round trip, median of 30",
        Limit::ReportMs,
    ),
    (
        "mcp_fsync_ms",
        "fsync of a small append on the same disk, median of 30",
        Limit::ReportMs,
    ),
    (
        "mcp_read_call_beyond_fsyncs_ms",
        "the round trip beyond its two fsyncs (intent, completion)",
        Limit::Ms(2.0),
    ),
    (
        "mcp_idle_rss_kib",
        "an idle `smith mcp` after initialize and tools/list: peak RSS",
        Limit::RssMib(24.0),
    ),
];
const ACP: &[Row] = &[
    (
        "acp_initialize_ms",
        "`smith acp` spawn → initialize answered, median of 20",
        Limit::Ms(15.0),
    ),
    (
        "acp_new_session_ms",
        "`smith acp` spawn → initialize → session/new answered, median of 20",
        Limit::ReportMs,
    ),
    (
        "acp_idle_rss_kib",
        "an idle `smith acp` with one session open: peak RSS",
        Limit::RssMib(24.0),
    ),
    (
        "acp_opencode_initialize_ms",
        "`opencode acp` spawn → initialize answered, median of 5 (same run)",
        Limit::ReportMsIfInstalled,
    ),
];
const TUI: &[Row] = &[
    (
        "tui_first_frame_ms",
        "`smith` (terminal UI) spawn → first frame drawn, median of 10",
        Limit::Ms(30.0),
    ),
    (
        "tui_key_echo_streaming_ms",
        "a key press → its character echoed, while 100 deltas/s stream, median of 40",
        Limit::Ms(8.0),
    ),
    (
        "tui_bytes_per_delta",
        "terminal bytes written per streamed delta (changed cells only)",
        Limit::ReportCount,
    ),
    (
        "tui_full_clears_while_streaming",
        "full-screen clears written while streaming (none expected)",
        Limit::ReportCount,
    ),
    (
        "tui_paste_2000_lines_ms",
        "a 2,000-line bracketed paste → its chip drawn",
        Limit::Ms(50.0),
    ),
    (
        "tui_attach_100mb_first_screen_ms",
        "`smith --session` on a 100 MB session spawn → its last turn drawn, median of 5",
        Limit::Ms(50.0),
    ),
    (
        "tui_attach_100mb_peak_rss_kib",
        "the same, after ten pages up: peak RSS",
        Limit::RssMib(64.0),
    ),
];
const WINDOW: &[Row] = &[
    (
        "tui_frame_p99_paging_10k_ms",
        "terminal UI frame paging through a 10,000-entry session, p99",
        Limit::Ms(2.0),
    ),
    (
        "tui_frame_p99_live_10k_ms",
        "terminal UI frame with 10,000 live blocks, the newest streaming, p99",
        Limit::Ms(2.0),
    ),
    (
        "tui_frame_p99_tool_streaming_10k_ms",
        "terminal UI frame with 10,000 live blocks while a tool streams output (spinner ticking), p99",
        Limit::Ms(2.0),
    ),
    (
        "tui_search_10k_first_hit_ms",
        "terminal UI search across 10,000 entries → first hit (the oldest turn)",
        Limit::Ms(50.0),
    ),
];
const PICKERS: &[Row] = &[
    (
        "tui_palette_first_paint_ms",
        "terminal UI `/` → the command palette's first paint, median of 50",
        Limit::Ms(16.0),
    ),
    (
        "tui_model_picker_first_paint_ms",
        "`/model ` → the model picker's first paint (catalog models, details), median of 50",
        Limit::Ms(16.0),
    ),
    (
        "tui_picker_first_paint_ms",
        "the resume picker opened → its first paint (before any row), median of 5",
        Limit::Ms(16.0),
    ),
    (
        "tui_resume_5000_first_rows_ms",
        "the resume picker with 5,000 sessions on disk → its first rows drawn, median of 5",
        Limit::Ms(50.0),
    ),
    (
        "tui_resume_5000_all_rows_ms",
        "the same → all 5,000 listed",
        Limit::ReportMs,
    ),
    (
        "tui_branches_10k_ms",
        "the branches picker on a 10,000-entry session → its tree drawn",
        Limit::ReportMs,
    ),
];
const CATALOG: &[Row] = &[
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
const SECRETS: &[Row] = &[
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
const VCS: &[Row] = &[
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
const REPLAY: &[Row] = &[
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
