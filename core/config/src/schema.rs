//! The option schema: every product option, declared once.

/// The type and constraints of an option's value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Type {
    /// Any UTF-8 string.
    String,
    /// `true` or `false`.
    Bool,
    /// An integer within `min..=max`.
    Integer {
        /// Smallest allowed.
        min: i64,
        /// Largest allowed.
        max: i64,
    },
    /// One of the listed words.
    Enum(&'static [&'static str]),
    /// A model reference `PROVIDER/MODEL`.
    Model,
    /// An `http://` or `https://` URL.
    Url,
    /// Comma-separated permission rules, each `TOOL` or `TOOL(PATTERN)` ([`crate::rules`]).
    Rules,
    /// An amount of US dollars: a number greater than 0 and at most 1,000,000 (`0.50`, `2`,
    /// `$0.50`), kept as its decimal text.
    Dollars,
    /// A list of words (a program's arguments): several quoted KDL arguments on the node
    /// (`args "-y" "server"`), or as text a JSON array of strings; kept as that JSON array's
    /// text ([`crate::words_of`] reads it back).
    Words,
}

impl Type {
    /// The type's name in the settings reference.
    pub fn describe(self) -> String {
        match self {
            Type::String => "string".into(),
            Type::Bool => "boolean".into(),
            Type::Integer { min, max } => format!("integer {min}..={max}"),
            Type::Enum(words) => format!("one of {}", words.join(", ")),
            Type::Model => "model `PROVIDER/MODEL`, or an alias or group name of models.kdl".into(),
            Type::Url => "URL (http or https)".into(),
            Type::Rules => "comma-separated rules, each `TOOL` or `TOOL(PATTERN)`".into(),
            Type::Dollars => "US dollars, a number > 0 and at most 1000000 (e.g. 0.50)".into(),
            Type::Words => {
                "words: several quoted strings on the line, or a JSON array of strings".into()
            }
        }
    }
}

/// What a layer may do with a key no option declares.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum UnknownPolicy {
    /// Refuse it with the closest known keys (the product's own namespaces).
    Reject,
    /// Keep it as given, unvalidated, with its source (the `plugin.` namespace, whose schemas
    /// plugins declare).
    Preserve,
}

/// One option, declared once: everything the resolver, the CLI, the environment surface and
/// the generated settings reference need.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct OptionSpec {
    /// Dotted key; a `*` segment matches any one segment (e.g. `provider.*.base-url`).
    pub key: &'static str,
    /// Type and constraints.
    pub ty: Type,
    /// The product default, as text in the option's type; `None` for no default.
    pub default: Option<&'static str>,
    /// What the option does.
    pub doc: &'static str,
    /// The environment variable that sets it, if any.
    pub env: Option<&'static str>,
    /// The command-line flag that sets it (besides `-c KEY=VALUE`), if any.
    pub flag: Option<&'static str>,
    /// A valid example value.
    pub example: &'static str,
}

/// Every product option. Plugins will declare theirs the same way under `plugin.<id>.`.
pub const SCHEMA: &[OptionSpec] = &[
    OptionSpec {
        key: "model",
        ty: Type::Model,
        default: None,
        doc: "The model `smith eval`, the terminal UI (`smith`) and new `smith rpc` sessions use when none is given on the command line.",
        env: Some("SMITH_MODEL"),
        flag: Some("--model"),
        example: "scripted/demo",
    },
    OptionSpec {
        key: "thinking",
        ty: Type::Enum(&["off", "minimal", "low", "medium", "high", "xhigh", "max"]),
        default: None,
        doc: "The thinking (reasoning effort) level to ask for. Unset: each model's default. A model whose catalog record does not list the level is not sent the request (`smith models` lists each model's levels); in a group, such a model is passed over.",
        env: Some("SMITH_THINKING"),
        flag: Some("--thinking"),
        example: "high",
    },
    OptionSpec {
        key: "max-output",
        ty: Type::Integer {
            min: 1,
            max: 100_000_000,
        },
        default: None,
        doc: "The most output tokens (thinking included) one response may have. Each request asks for the lower of this and the model's catalog limit; unset, the catalog's limit, and for a model whose limit is unknown the provider's documented default. Each attempt records the limit sent and where it came from.",
        env: Some("SMITH_MAX_OUTPUT"),
        flag: None,
        example: "16000",
    },
    OptionSpec {
        key: "run.max-rounds",
        ty: Type::Integer { min: 1, max: 1000 },
        default: Some("64"),
        doc: "The most provider rounds one run may take before it stops with an error.",
        env: Some("SMITH_MAX_ROUNDS"),
        flag: None,
        example: "32",
    },
    OptionSpec {
        key: "run.max-cost",
        ty: Type::Dollars,
        default: None,
        doc: "The most one turn may cost, in US dollars at the model catalog's prices. Before each request the turn stops — stop reason `budget` — when what its responses cost so far, plus the request's input at the model's input price, would pass it. Output is not known before a response arrives and is not counted ahead, so the last response may carry a turn past the budget by its output's cost; the next request is then refused. A model without an input price in the catalog cannot be held to a budget: with this set, its turns stop before their first request, saying so. Unset: no budget.",
        env: Some("SMITH_MAX_COST"),
        flag: None,
        example: "0.50",
    },
    OptionSpec {
        key: "eval.cost-line",
        ty: Type::Bool,
        default: Some("true"),
        doc: "Whether plain `smith eval` ends with one line on stderr saying what the turn used: its requests, input tokens (cache reads and writes among them), output tokens and cost at the catalog's prices (`cost unknown` for a model without one). Never on stdout, never with `--json` (whose `run_end` record carries the same).",
        env: None,
        flag: None,
        example: "false",
    },
    OptionSpec {
        key: "compaction.auto",
        ty: Type::Bool,
        default: Some("true"),
        doc: "Whether a session is compacted on its own: before a request that would use more than `compaction.threshold` percent of the model's context window (from its catalog record; a model without one is compacted only by hand), and once — then the round runs again — when the provider refuses a request because it does not fit. `false`: only by hand (`smith compact`, the terminal UI's `/compact`, the `session.compact` method), and a request that does not fit fails naming this setting.",
        env: Some("SMITH_COMPACTION"),
        flag: None,
        example: "false",
    },
    OptionSpec {
        key: "context.files",
        ty: Type::String,
        default: Some("AGENTS.md,CLAUDE.md"),
        doc: "The standing instruction files read in each context directory (your configuration directory, then the project root down to the working directory), comma-separated in order of preference: the first that exists in a directory is read, the others there are not (a CLAUDE.md that links to AGENTS.md is read once). The bundled context handler reads `AGENTS.md` and `CLAUDE.md`; naming only one reads only that one.",
        env: None,
        flag: None,
        example: "CLAUDE.md",
    },
    OptionSpec {
        key: "history.snapshots",
        ty: Type::Bool,
        default: Some("true"),
        doc: "Whether the working tree is snapshotted before and after every tool batch that holds a call not declared read-only (file tools, `bash`), into Smith's own repository under the data home (`vcs/`), so `smith undo`, `smith redo`, `smith restore` and `smith diff` can take a batch back. `false`: nothing is snapshotted and undo has no steps for later batches.",
        env: Some("SMITH_HISTORY"),
        flag: None,
        example: "false",
    },
    OptionSpec {
        key: "history.max-file-bytes",
        ty: Type::Integer {
            min: 0,
            max: 1_073_741_824,
        },
        default: Some("16777216"),
        doc: "The largest file, in bytes, a working-tree snapshot holds: a larger file is left out of the snapshot (reported by `smith diff`), so undo and restore leave it as it is.",
        env: None,
        flag: None,
        example: "1048576",
    },
    OptionSpec {
        key: "memory.ceiling.process",
        ty: Type::Integer {
            min: 1,
            max: 1_099_511_627_776,
        },
        default: None,
        doc: "The most heap bytes the process's own allocations (those no narrower scope holds) should hold live, as the memory accounting counts them. Crossing it never stops anything: it is recorded once per scope and reported (a warning at a turn's end, `sessions get --usage`, `/memory`, `SMITH_MEMORY_REPORT`). Unset: no ceiling.",
        env: None,
        flag: None,
        example: "2147483648",
    },
    OptionSpec {
        key: "memory.ceiling.session",
        ty: Type::Integer {
            min: 1,
            max: 1_099_511_627_776,
        },
        default: None,
        doc: "The most heap bytes one open session (opening it, what it keeps between turns) should hold live, as the memory accounting counts them. Crossing it never stops anything: it is recorded once per scope and reported (a warning at a turn's end, `sessions get --usage`, `/memory`, `SMITH_MEMORY_REPORT`). Unset: no ceiling.",
        env: None,
        flag: None,
        example: "1073741824",
    },
    OptionSpec {
        key: "memory.ceiling.turn",
        ty: Type::Integer {
            min: 1,
            max: 1_099_511_627_776,
        },
        default: None,
        doc: "The most heap bytes one turn (a submission's whole run, its tool calls included) should hold live, as the memory accounting counts them. Crossing it never stops anything: it is recorded once per scope and reported (a warning at a turn's end, `sessions get --usage`, `/memory`, `SMITH_MEMORY_REPORT`). Unset: no ceiling.",
        env: None,
        flag: None,
        example: "536870912",
    },
    OptionSpec {
        key: "memory.ceiling.kernel-call",
        ty: Type::Integer {
            min: 1,
            max: 1_099_511_627_776,
        },
        default: None,
        doc: "The most heap bytes one call into a plugin's wasm (the host's side of it: wasm's own memory is bounded by the plugin's limits) should hold live, as the memory accounting counts them. Crossing it never stops anything: it is recorded once per scope and reported (a warning at a turn's end, `sessions get --usage`, `/memory`, `SMITH_MEMORY_REPORT`). Unset: no ceiling.",
        env: None,
        flag: None,
        example: "268435456",
    },
    OptionSpec {
        key: "memory.ceiling.frame",
        ty: Type::Integer {
            min: 1,
            max: 1_099_511_627_776,
        },
        default: None,
        doc: "The most heap bytes one frame the terminal UI draws should hold live, as the memory accounting counts them. Crossing it never stops anything: it is recorded once per scope and reported (a warning at a turn's end, `sessions get --usage`, `/memory`, `SMITH_MEMORY_REPORT`). Unset: no ceiling.",
        env: None,
        flag: None,
        example: "67108864",
    },
    OptionSpec {
        key: "memory.ceiling.io-request",
        ty: Type::Integer {
            min: 1,
            max: 1_099_511_627_776,
        },
        default: None,
        doc: "The most heap bytes one request or file effect should hold live, as the memory accounting counts them. Crossing it never stops anything: it is recorded once per scope and reported (a warning at a turn's end, `sessions get --usage`, `/memory`, `SMITH_MEMORY_REPORT`). Unset: no ceiling.",
        env: None,
        flag: None,
        example: "268435456",
    },
    OptionSpec {
        key: "compaction.threshold",
        ty: Type::Integer { min: 10, max: 100 },
        default: Some("80"),
        doc: "The share of the model's context window, in percent, the next request's estimated input may use before the session is compacted automatically.",
        env: None,
        flag: None,
        example: "70",
    },
    OptionSpec {
        key: "compaction.keep-tokens",
        ty: Type::Integer {
            min: 0,
            max: 10_000_000,
        },
        default: Some("20000"),
        doc: "How much of the most recent context, in estimated tokens, a compaction keeps verbatim after its summary (whole turns where it can; a tool call is never separated from its results).",
        env: None,
        flag: None,
        example: "40000",
    },
    OptionSpec {
        key: "process.allow",
        ty: Type::Bool,
        default: None,
        doc: "Whether tools may run external programs (the `process.exec` grant, e.g. the `bash` tool). Unset: allowed in a trusted project (`smith trust`), as `permissions.mode` decides; in an untrusted one each program is asked first and runs only when you allow it. `true`: allowed everywhere for the runs it applies to. `false`: refused even in trusted projects, and `bash` is not offered.",
        env: Some("SMITH_ALLOW_PROCESS"),
        flag: Some("--allow-process"),
        example: "true",
    },
    OptionSpec {
        key: "process.max-timeout",
        ty: Type::Integer {
            min: 1,
            max: 86_400,
        },
        default: Some("600"),
        doc: "The longest a tool's external program may run, in seconds; a tool asking for more gets this. On timeout the program and its descendants are terminated.",
        env: None,
        flag: None,
        example: "1800",
    },
    OptionSpec {
        key: "process.output-limit",
        ty: Type::Integer {
            min: 1024,
            max: 64 * 1024 * 1024,
        },
        default: Some("1048576"),
        doc: "The most bytes kept of each of an external program's stdout and stderr (the first and last halves; the cut is marked). A tool may ask for less.",
        env: None,
        flag: None,
        example: "262144",
    },
    OptionSpec {
        key: "process.pass-env",
        ty: Type::String,
        default: Some(""),
        doc: "Comma-separated names of environment variables passed to external programs besides the baseline (PATH, HOME, USER, LOGNAME, SHELL, LANG, LC_ALL, LC_CTYPE, LC_MESSAGES, TERM, TMPDIR, TZ). Nothing else of Smith's environment reaches them, so credentials stay out unless named here.",
        env: None,
        flag: None,
        example: "CARGO_HOME,RUSTUP_HOME",
    },
    OptionSpec {
        key: "sandbox.mode",
        ty: Type::Enum(&["read-only", "workspace-write", "full-access"]),
        default: Some("workspace-write"),
        doc: "The OS sandbox every program a tool runs starts in (the `sandbox` guide). `read-only`: reads everywhere but the deny list, writes only to a private TMPDIR. `workspace-write`: also writes beneath the working directory and `sandbox.writable-roots`, except `.smith/`, `.git/hooks` and `.git/config`. `full-access`: no OS confinement. Read from the user's configuration, the environment and the command line only, never from a project's.",
        env: Some("SMITH_SANDBOX"),
        flag: Some("--sandbox"),
        example: "read-only",
    },
    OptionSpec {
        key: "sandbox.network",
        ty: Type::Enum(&["allow", "deny"]),
        default: Some("deny"),
        doc: "Whether sandboxed programs may use the network: TCP, UDP, raw sockets and Unix sockets to the outside alike. Not from a project's configuration.",
        env: None,
        flag: None,
        example: "allow",
    },
    OptionSpec {
        key: "sandbox.writable-roots",
        ty: Type::String,
        default: Some(""),
        doc: "Comma-separated absolute paths of existing directories sandboxed programs may also write beneath in `workspace-write` (e.g. a shared build cache). Not from a project's configuration.",
        env: None,
        flag: None,
        example: "/home/me/.cargo/registry,/home/me/.cache/sccache",
    },
    OptionSpec {
        key: "sandbox.deny-read",
        ty: Type::String,
        default: Some(""),
        doc: "Comma-separated absolute paths sandboxed programs may not read, besides Smith's own data and configuration and the usual credential places (`~/.ssh`, `~/.aws`, `~/.config/gcloud`, `~/.netrc`…; the `sandbox` guide lists them). Holds in every confined mode. Not from a project's configuration.",
        env: None,
        flag: None,
        example: "/home/me/.config/private",
    },
    OptionSpec {
        key: "permissions.mode",
        ty: Type::Enum(&["plan", "ask", "auto-edit", "auto"]),
        default: None,
        doc: "What the bundled `permissions` plugin lets run without asking (the `permissions` guide). `plan`: reads only — every write and program is refused with a reason. `ask`: reads run; writes and programs ask. `auto-edit`: reads and writes run; programs ask. `auto`: what the OS sandbox permits runs. Unset: `auto` where programs may run (a trusted project, or process.allow), else `auto-edit`.",
        env: Some("SMITH_PERMISSION_MODE"),
        flag: Some("--permission-mode"),
        example: "ask",
    },
    OptionSpec {
        key: "permissions.allow",
        ty: Type::Rules,
        default: Some(""),
        doc: "Comma-separated rules whose calls run without asking, whatever the mode but `plan`: `TOOL` or `TOOL(PATTERN)` — `bash(git status*)`, `edit(src/**)`. A shell command is matched part by part (split on `;`, `&&`, `||`, `|`, `$(…)`…): every part must match. A comma inside a rule's parentheses belongs to its pattern.",
        env: None,
        flag: None,
        example: "bash(git status*),bash(cargo test*)",
    },
    OptionSpec {
        key: "permissions.ask",
        ty: Type::Rules,
        default: Some(""),
        doc: "Comma-separated rules whose calls ask first (`TOOL` or `TOOL(PATTERN)`; one matching part of a shell command is enough).",
        env: None,
        flag: None,
        example: "bash(git push*)",
    },
    OptionSpec {
        key: "permissions.deny",
        ty: Type::Rules,
        default: Some(""),
        doc: "Comma-separated rules whose calls are refused, whatever else allows them (`TOOL` or `TOOL(PATTERN)`; one matching part of a shell command is enough): `bash(rm -rf*)`, `read(**/.env)`. Deny wins over allow and ask.",
        env: None,
        flag: None,
        example: "bash(rm -rf*),read(**/.env)",
    },
    OptionSpec {
        key: "secrets.env",
        ty: Type::String,
        default: Some(""),
        doc: "Comma-separated names of environment variables whose values are secrets: registered with the secret proxy (source `env:NAME`) like the providers' key variables, so they never reach a provider, a session file or any output (`smith secrets list` shows them; `smith docs get secrets`).",
        env: None,
        flag: None,
        example: "GITHUB_TOKEN,NPM_TOKEN",
    },
    OptionSpec {
        key: "plugins.*.enabled",
        ty: Type::Bool,
        default: None,
        doc: "Whether plugin `*` is loaded (unset: yes). A disabled plugin contributes nothing: its tools are not offered to the model and cannot be called. `--disable-plugin ID` (repeatable) sets it to false for one command; `smith plugins list` shows each plugin's state.",
        env: None,
        flag: Some("--disable-plugin"),
        example: "false",
    },
    OptionSpec {
        key: "catalog.refresh",
        ty: Type::Bool,
        default: Some("false"),
        doc: "Whether the terminal UI asks each provider whose plugin lists its models (openai-compatible: `GET {base-url}/models`) what it serves, once per process, on a thread of its own after it starts — never delaying it, stopped when it quits; the model picker then offers what they list. A failed refresh keeps the previous answer and says why. `smith models --refresh` does the same on demand.",
        env: None,
        flag: None,
        example: "true",
    },
    OptionSpec {
        key: "plugin.*.*",
        ty: Type::String,
        default: None,
        doc: "Setting `*` (the second) of plugin `*` (the first), one its manifest declares (`setting \"NAME\" doc=\"…\"`); `smith plugins list` shows each plugin's settings, their values and the tools offered only when one is set. The bundled web plugin declares `search-url`: the URL of a SearXNG-style JSON search endpoint, which offers the `web_search` tool. A setting no plugin declares has no effect and is warned of. Your own configuration only: a project's is ignored with a notice.",
        env: None,
        flag: None,
        example: "http://127.0.0.1:8888/search",
    },
    OptionSpec {
        key: "plugins.*.net.allow",
        ty: Type::String,
        default: None,
        doc: "Comma-separated host patterns plugin `*` may also reach, beyond its manifest's `net-host` patterns (only for a plugin that requests `net.http`): `HOST` (the scheme's default port), `HOST:PORT`, `HOST:*`, `*.example.com`, `*`. A loopback or private address is reached only through a pattern naming that host, e.g. `127.0.0.1:8080`. Your own configuration only: a project's is ignored with a notice.",
        env: None,
        flag: None,
        example: "localhost:8080,docs.internal.example",
    },
    OptionSpec {
        key: "plugins.*.net.deny",
        ty: Type::String,
        default: None,
        doc: "Comma-separated host patterns plugin `*` may not reach, whatever its manifest and `plugins.*.net.allow` say (same syntax). Your own configuration only: a project's is ignored with a notice.",
        env: None,
        flag: None,
        example: "*.corp.example",
    },
    OptionSpec {
        key: "plugins.*.net.credentials",
        ty: Type::String,
        default: None,
        doc: "Comma-separated credentials Smith adds to plugin `*`'s requests to the hosts you bind them to: `HOST=SECRET` sends the secret `SECRET` of your secret store (`smith secrets add SECRET`, or a variable named in `secrets.env`) as `authorization: Bearer VALUE`, `HOST=SECRET@HEADER` as that header's whole value. `HOST` is a host pattern as in `plugins.*.net.allow`. The plugin never sees the value; a request to any other host, a redirect's target included, does not carry it. Your own configuration only: a project's is ignored with a notice.",
        env: None,
        flag: None,
        example: "mcp.example.com=MCP_TOKEN,api.search.example=SEARCH_KEY@x-api-key",
    },
    OptionSpec {
        key: "plugins.*.programs.*.network",
        ty: Type::String,
        default: None,
        doc: "`allow` lets the program plugin `*` (the first) keeps across calls as session `*` (the second) — the MCP client's server `NAME` is `mcp-NAME` — reach the network although `sandbox.network` denies it; `deny` (or unset) leaves it as the sandbox says. It only widens; `smith mcp add --network` sets it. Your own configuration only: a project's is ignored with a notice.",
        env: None,
        flag: None,
        example: "allow",
    },
    OptionSpec {
        key: "plugins.*.programs.*.writable-roots",
        ty: Type::String,
        default: None,
        doc: "Comma-separated absolute directories the program plugin `*` keeps across calls as session `*` may write beneath, besides the working root, the private temporary directory and `sandbox.writable-roots` (each must exist). `smith mcp add --writable-root DIR` sets it for an MCP server. Your own configuration only: a project's is ignored with a notice.",
        env: None,
        flag: None,
        example: "/home/me/.cache/tracker-mcp",
    },
    OptionSpec {
        key: "mcp.server.*.command",
        ty: Type::String,
        default: None,
        doc: "The program MCP server `*` runs, spoken to over its standard input and output (a path, or a name looked up in `PATH`), started inside the OS sandbox when its tools are first listed; its tools are offered as `mcp__*__TOOL`. A server has a `command` or a `url`, not both. Written as a block: `mcp { server \"github\" { command \"npx\"; args \"-y\" \"@modelcontextprotocol/server-github\" } }`. In a project's configuration only when the project is trusted (the MCP client guide: `smith docs get mcp-client`).",
        env: None,
        flag: None,
        example: "npx",
    },
    OptionSpec {
        key: "mcp.server.*.args",
        ty: Type::Words,
        default: None,
        doc: "The arguments of MCP server `*`'s `command`, each a quoted string on the line (`args \"-y\" \"pkg\"`).",
        env: None,
        flag: None,
        example: "[\"-y\",\"@modelcontextprotocol/server-github\"]",
    },
    OptionSpec {
        key: "mcp.server.*.env.*",
        ty: Type::String,
        default: None,
        doc: "Environment variable `*` (the second) set for MCP server `*`'s program on top of the baseline environment (`env { GITHUB_TOKEN \"…\" }`); no other credential is passed to it.",
        env: None,
        flag: None,
        example: "1",
    },
    OptionSpec {
        key: "mcp.server.*.cwd",
        ty: Type::String,
        default: None,
        doc: "The working directory of MCP server `*`'s program, relative to the session's (unset: the session's).",
        env: None,
        flag: None,
        example: "tools",
    },
    OptionSpec {
        key: "mcp.server.*.url",
        ty: Type::Url,
        default: None,
        doc: "The Streamable HTTP endpoint of MCP server `*`, reached through the network facility; its host is allowed to the MCP client for this server. A secret for it goes in `plugins.mcp-client.net.credentials` (`smith mcp add --secret` writes it), never in `headers`.",
        env: None,
        flag: None,
        example: "https://mcp.example.com/mcp",
    },
    OptionSpec {
        key: "mcp.server.*.headers.*",
        ty: Type::String,
        default: None,
        doc: "Header `*` (the second) sent with every request to MCP server `*`'s `url`, recorded in the session with each request as it is: no secret here.",
        env: None,
        flag: None,
        example: "core",
    },
    OptionSpec {
        key: "mcp.server.*.timeout",
        ty: Type::Integer { min: 1, max: 600 },
        default: Some("30"),
        doc: "How long MCP server `*` may take to answer `initialize` or `tools/list`, in seconds; past it the server is reported failed with its standard error's last lines, and the others are not held up.",
        env: None,
        flag: None,
        example: "60",
    },
    OptionSpec {
        key: "mcp.server.*.call-timeout",
        ty: Type::Integer { min: 1, max: 3_600 },
        default: Some("300"),
        doc: "How long MCP server `*` may stay silent during a tool call, in seconds (its progress counts).",
        env: None,
        flag: None,
        example: "600",
    },
    OptionSpec {
        key: "mcp.server.*.network",
        ty: Type::Enum(&["allow", "deny"]),
        default: None,
        doc: "`allow` lets MCP server `*`'s program reach the network although `sandbox.network` denies it. Your own configuration only: a project's is ignored with a notice.",
        env: None,
        flag: None,
        example: "allow",
    },
    OptionSpec {
        key: "mcp.server.*.writable-roots",
        ty: Type::String,
        default: None,
        doc: "Comma-separated absolute directories MCP server `*`'s program may write beneath, besides the working root and the private temporary directory (each must exist). Your own configuration only: a project's is ignored with a notice.",
        env: None,
        flag: None,
        example: "/home/me/.cache/tracker-mcp",
    },
    OptionSpec {
        key: "hooks.*.before-tool",
        ty: Type::String,
        default: None,
        doc: "Run hook `*` before each call of the tools this names — tool names separated by `|`, `*` for any run of characters (`bash`, `edit|write`, `mcp__*`; a name without `*` must be a tool some plugin has) — and refuse the call when its program exits non-zero, its standard error the reason the model sees. A hook has one of this, `after-tool` or `turn-end`, and `run`. In a project's configuration only when the project is trusted (the hooks guide: `smith docs get hooks`).",
        env: None,
        flag: None,
        example: "bash",
    },
    OptionSpec {
        key: "hooks.*.after-tool",
        ty: Type::String,
        default: None,
        doc: "Run hook `*` after each call of the tools this names (as `before-tool` writes them) that did its work (not after one that failed or was refused); what its program prints — and its exit status when not 0 — is added to the call's result for the model. In a project's configuration only when the project is trusted.",
        env: None,
        flag: None,
        example: "edit|write",
    },
    OptionSpec {
        key: "hooks.*.turn-end",
        ty: Type::String,
        default: None,
        doc: "Run hook `*` once at the end of each turn that made a call of the tools this names (as `before-tool` writes them) that did its work, or of every turn for `*` alone; not after a cancelled turn. You are told how it went — a warning, with what it printed, when it exits non-zero; the model is not. In a project's configuration only when the project is trusted.",
        env: None,
        flag: None,
        example: "edit|write",
    },
    OptionSpec {
        key: "hooks.*.paths",
        ty: Type::String,
        default: None,
        doc: "Comma-separated globs: hook `*` runs only for calls naming a path one matches (the call's `path`, `file_path` or `paths` argument) — a glob without `/` is matched against the file's name, one with `/` against the path relative to the working directory (none may start with `/`, `./` or `../`). For a `turn-end` hook, the turn's calls naming a path one matches, and `SMITH_FILE_PATHS` holds the paths that matched. Unset: every call of its tools.",
        env: None,
        flag: None,
        example: "*.rs,src/**/*.ts",
    },
    OptionSpec {
        key: "hooks.*.run",
        ty: Type::String,
        default: None,
        doc: "The command line hook `*` runs with `sh -c`, in the working directory, inside the OS sandbox, with the baseline environment plus `SMITH_HOOK` (its name), `SMITH_HOOK_EVENT`, `SMITH_TOOL`, `SMITH_TOOL_INPUT` (the call's arguments, JSON), `SMITH_FILE_PATHS` (the paths it names, one per line) and, after the call, `SMITH_TOOL_OUTPUT` and `SMITH_TOOL_IS_ERROR`; at a turn's end `SMITH_HOOK`, `SMITH_HOOK_EVENT`, `SMITH_FILE_PATHS` and `SMITH_STOP_REASON`. Each run is recorded as an effect of the call (or the turn). No hook runs in `plan` mode.",
        env: None,
        flag: None,
        example: "cargo fmt",
    },
    OptionSpec {
        key: "hooks.*.timeout",
        ty: Type::Integer { min: 1, max: 3_600 },
        default: Some("60"),
        doc: "How long hook `*`'s program may run, in seconds (at most `process.max-timeout`); past it the program and its descendants are ended and, before a call, the call is refused saying so.",
        env: None,
        flag: None,
        example: "30",
    },
    OptionSpec {
        key: "provider.*.base-url",
        ty: Type::Url,
        default: None,
        doc: "The base URL of provider `*`'s API, for a provider plugin that talks HTTP (for example a local OpenAI-compatible server).",
        env: None,
        flag: None,
        example: "http://127.0.0.1:8080",
    },
    OptionSpec {
        key: "provider.*.api-key-env",
        ty: Type::String,
        default: None,
        doc: "The environment variable provider `*`'s key is read from, instead of the one its plugin declares (for example a second variable per machine or project). The key itself never belongs in configuration: store it with `smith auth set`.",
        env: None,
        flag: None,
        example: "WORK_ANTHROPIC_KEY",
    },
    OptionSpec {
        key: "provider.*.token-url",
        ty: Type::Url,
        default: None,
        doc: "The OAuth 2.0 token endpoint that renews provider `*`'s renewable credentials (auth-file accounts with `access-token`, `expires-at` and `refresh-token`): an expired access token is renewed there (refresh-token grant, RFC 6749 §6) before it is used, and the new tokens are stored.",
        env: None,
        flag: None,
        example: "https://auth.example.com/oauth/token",
    },
    OptionSpec {
        key: "provider.*.client-id",
        ty: Type::String,
        default: None,
        doc: "The OAuth client id sent with renewals at `provider.*.token-url`, when the endpoint needs one.",
        env: None,
        flag: None,
        example: "smith-cli",
    },
    OptionSpec {
        key: "provider.*.api",
        ty: Type::Enum(&["responses", "chat"]),
        default: None,
        doc: "Which API provider `*` uses where its plugin speaks several: for `openai`, `responses` (the Responses API, the default) or `chat` (Chat Completions). Passed to the provider plugin as the request option `api`.",
        env: None,
        flag: None,
        example: "chat",
    },
    OptionSpec {
        key: "tui.color",
        ty: Type::Enum(&["auto", "none", "16", "256", "truecolor"]),
        default: Some("auto"),
        doc: "The colours the terminal UI draws with. `auto`: none when NO_COLOR is set or TERM is `dumb`, 24-bit when COLORTERM says `truecolor` or `24bit`, 256 when TERM names `256color`, else 16. `none` draws with bold, italic, underline and reverse only.",
        env: None,
        flag: None,
        example: "256",
    },
    OptionSpec {
        key: "tui.keyboard-enhancement",
        ty: Type::Enum(&["auto", "on", "off"]),
        default: Some("auto"),
        doc: "Whether the terminal UI asks the terminal for the kitty keyboard protocol's disambiguated keys (so Shift+Enter and Ctrl+I differ from Enter and Tab). `auto`: when the terminal answers the start-up query within the probe's 100 ms. The flags are pushed on start and popped on every exit.",
        env: None,
        flag: None,
        example: "off",
    },
    OptionSpec {
        key: "tui.synchronized-output",
        ty: Type::Enum(&["auto", "on", "off"]),
        default: Some("auto"),
        doc: "Whether each frame of the terminal UI is wrapped in synchronized output (DEC mode 2026), so a terminal never shows half a frame. `auto`: when the terminal reports the mode at start-up.",
        env: None,
        flag: None,
        example: "on",
    },
    OptionSpec {
        key: "tui.hyperlinks",
        ty: Type::Enum(&["auto", "on", "off"]),
        default: Some("auto"),
        doc: "Whether the terminal UI writes every `http://` and `https://` URL it shows as an OSC 8 hyperlink to itself (a URL wrapped onto the next row links whole). `auto`: off (no terminal reports support for them; turn them on for a terminal you know has it).",
        env: None,
        flag: None,
        example: "on",
    },
    OptionSpec {
        key: "tui.notify",
        ty: Type::Enum(&["bell", "off"]),
        default: Some("bell"),
        doc: "What the terminal UI does when a turn ends while its window is not focused (the terminal reports focus): `bell` rings the terminal bell (most terminals turn it into a notification or an urgent window); `off` does nothing.",
        env: None,
        flag: None,
        example: "off",
    },
    OptionSpec {
        key: "tui.mouse",
        ty: Type::Enum(&["on", "off"]),
        default: Some("on"),
        doc: "Whether the terminal UI captures the mouse while it runs, so the wheel scrolls the transcript. `off` leaves the mouse to the terminal: its own cell selection works, and the wheel does what the terminal makes of it. Capture is released on every exit and while an external editor runs.",
        env: None,
        flag: None,
        example: "off",
    },
    OptionSpec {
        key: "tui.input-mode",
        ty: Type::Enum(&["standard", "vim"]),
        default: Some("standard"),
        doc: "How the terminal UI's input edits. `standard`: typing inserts, with the editing keys of the key reference. `vim`: modal, as vi — a draft starts in insert mode, Esc goes to normal mode (motions `h` `j` `k` `l` `w` `b` `e` `0` `^` `$` `gg` `G`; `x` `X` `D` `C` `s` `S`, `dd` `cc` `dw` `cw` `db` `d$` `d0`; `i` `a` `I` `A` `o` `O` back to insert; `u` undoes), Esc in normal mode does what Esc does in `standard`, and on an empty draft while work runs Esc aborts it in either mode; the status line shows the mode. Keys with Ctrl or Alt, and Enter, keep their meaning in both modes.",
        env: None,
        flag: None,
        example: "vim",
    },
    OptionSpec {
        key: "tui.clipboard",
        ty: Type::Enum(&["auto", "osc52", "file"]),
        default: Some("auto"),
        doc: "Where the terminal UI puts what it copies (an entry, a code block, a tool's output). `auto`: the terminal clipboard by OSC 52 when the terminal is one known to honour it (tmux, kitty, WezTerm, Alacritty, foot, Ghostty, iTerm2, VS Code, Windows Terminal), else a file in the temporary directory whose path is shown. `osc52` always writes OSC 52 (copies over 74,000 bytes still go to a file); `file` always writes the file.",
        env: None,
        flag: None,
        example: "file",
    },
    OptionSpec {
        key: "tui.theme",
        ty: Type::String,
        default: Some("dark"),
        doc: "The theme the terminal UI draws with: one a product plugin contributes (the bundled `dark`, `light` and `none`) or one of yours (`theme.*.*`). With `tui.color` none, no colour is drawn whatever the theme. `/theme NAME` switches for the running process only.",
        env: None,
        flag: None,
        example: "light",
    },
    OptionSpec {
        key: "tui.layout",
        ty: Type::Enum(&["status-bottom", "status-top"]),
        default: None,
        doc: "Where the terminal UI's status line goes, over the layout the product plugins choose: `status-bottom` (below the input) or `status-top` (above the transcript). Unset: the first enabled product plugin's choice, else the bottom.",
        env: None,
        flag: None,
        example: "status-top",
    },
    OptionSpec {
        key: "keys.*",
        ty: Type::String,
        default: None,
        doc: "What key `*` (written as the key reference writes keys: `Ctrl+Y`, `Alt+Up`, `F5`) does in the terminal UI: an action of the key table (`help`, `steer`, `search`, `select-entry`, `palette`…; the key reference lists them), `/COMMAND` to run a command without arguments, or `none` to unbind a plugin's binding. Yours win over every plugin's; the built-in keys (typing, submit, scroll, abort, quit) cannot be rebound.",
        env: None,
        flag: None,
        example: "/compact",
    },
    OptionSpec {
        key: "theme.*.*",
        ty: Type::String,
        default: None,
        doc: "A style of theme `*` (the first `*`, a name of yours or a plugin's theme to change), for theme key `*` (the theme reference lists them: `user`, `tool`, `status`…): a foreground colour, `on` and a background colour, and modifiers, e.g. \"black on yellow bold\" (colours by name, index 0–255 or #rrggbb; `plain` for none). The key `base` names a theme whose styles yours start from. Choose the theme with `tui.theme`.",
        env: None,
        flag: None,
        example: "black on yellow bold",
    },
];

fn matches(pattern: &str, key: &str) -> bool {
    let (mut p, mut k) = (pattern.split('.'), key.split('.'));
    loop {
        match (p.next(), k.next()) {
            (None, None) => return true,
            (Some("*"), Some(seg)) if !seg.is_empty() => {}
            (Some(a), Some(b)) if a == b => {}
            _ => return false,
        }
    }
}

/// The option declaring `key`, if any.
pub fn find_spec(key: &str) -> Option<&'static OptionSpec> {
    SCHEMA.iter().find(|spec| matches(spec.key, key))
}

/// The policy for a key no option declares.
pub fn unknown_policy(key: &str) -> UnknownPolicy {
    if key.starts_with("plugin.") {
        UnknownPolicy::Preserve
    } else {
        UnknownPolicy::Reject
    }
}

/// Settings that were removed, each with what replaced it: meeting one is an error naming the
/// replacement.
pub(crate) const RETIRED: &[(&str, &str)] = &[(
    "process.confirm",
    "the permission mode replaced it: `permissions.mode \"ask\"` asks before each write and program (`smith docs get permissions`)",
)];

/// What replaced `key`, when it is a removed setting.
pub(crate) fn retired(key: &str) -> Option<&'static str> {
    RETIRED.iter().find(|(k, _)| *k == key).map(|(_, r)| *r)
}

/// Up to three declared keys closest to `key`.
pub fn closest_keys(key: &str) -> Vec<&'static str> {
    closest(key, SCHEMA.iter().map(|s| s.key))
}

/// Up to three of `candidates` closest to `wanted` (Jaro–Winkler similarity above 0.7, the
/// most similar first, ties by name): the "did you mean" of a misspelt key, model or
/// provider id.
pub fn closest<'a>(wanted: &str, candidates: impl IntoIterator<Item = &'a str>) -> Vec<&'a str> {
    let mut scored: Vec<(f64, &'a str)> = candidates
        .into_iter()
        .map(|c| (strsim::jaro_winkler(wanted, c), c))
        .filter(|(score, _)| *score > 0.7)
        .collect();
    scored.sort_by(|a, b| b.0.total_cmp(&a.0).then(a.1.cmp(b.1)));
    scored.dedup_by(|a, b| a.1 == b.1);
    scored.into_iter().take(3).map(|(_, k)| k).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn wildcards_match_one_segment() {
        assert!(find_spec("provider.anthropic.base-url").is_some());
        assert!(find_spec("provider.base-url").is_none());
        assert!(find_spec("provider..base-url").is_none());
        assert_eq!(closest_keys("modle"), ["model"]);
    }
}
