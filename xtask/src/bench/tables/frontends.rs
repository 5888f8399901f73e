//! The figures of the frontends' bench examples: provider turns against a loopback server,
//! RPC, MCP, ACP, the terminal UI, its window and pickers.

use super::Row;
use crate::bench::Limit;

pub(super) const PROVIDER: &[Row] = &[
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

pub(super) const RPC: &[Row] = &[
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

pub(super) const MCP: &[Row] = &[
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

pub(super) const ACP: &[Row] = &[
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

pub(super) const TUI: &[Row] = &[
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

pub(super) const WINDOW: &[Row] = &[
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

pub(super) const PICKERS: &[Row] = &[
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
