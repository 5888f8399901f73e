//! What each bench example's figures are: its `name value` lines, each with the label the
//! report prints and the limit it is judged by (targets from the issues and the spec).

mod engine;
mod frontends;

use engine::*;
use frontends::*;

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
