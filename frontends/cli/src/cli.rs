//! The command-line declarations: the one source of `--help` (and of the generated command
//! reference, once the docs corpus exists).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

use crate::exit;

/// Smith — a fast coding agent with durable sessions and sandboxed plugins.
#[derive(Debug, Parser)]
#[command(
    name = "smith",
    version,
    about = "Smith — a fast coding agent with durable sessions and sandboxed plugins",
    long_about = "Smith — a fast coding agent with durable sessions and sandboxed plugins.\n\nRun one agent turn offline, with no key:\n  smith eval --model scripted/demo \"Hello\"",
    after_help = exit::HELP,
    propagate_version = true
)]
pub(crate) struct Cli {
    #[command(flatten)]
    pub(crate) global: Global,

    #[command(subcommand)]
    pub(crate) command: Option<Command>,
}

/// Options every command takes (they are settings: `smith config show` lists them).
#[derive(Debug, Args)]
pub(crate) struct Global {
    /// Override one setting for this command (repeatable; highest precedence), e.g.
    /// `-c model=scripted/demo`. See `smith config show` for the settings.
    #[arg(short = 'c', long = "config", value_name = "KEY=VALUE", global = true, action = clap::ArgAction::Append)]
    pub(crate) overrides: Vec<String>,

    /// Do not load plugin ID for this command (repeatable): its tools are neither offered nor
    /// callable. Same as `-c plugins.ID.enabled=false`; `smith plugins list` shows the ids.
    #[arg(long = "disable-plugin", value_name = "ID", global = true, action = clap::ArgAction::Append)]
    pub(crate) disable_plugin: Vec<String>,

    /// Let tools run external programs (e.g. the `bash` tool) for this command even though
    /// the project is not trusted. Same as `-c process.allow=true`.
    #[arg(long = "allow-process", global = true)]
    pub(crate) allow_process: bool,
}

#[derive(Debug, Subcommand)]
pub(crate) enum Command {
    /// Run one agent turn without the terminal UI and print its output.
    #[command(after_help = EVAL_AFTER_HELP)]
    Eval(EvalArgs),
    /// Read Smith's documentation, offline: list, search and get documents.
    #[command(after_help = DOCS_AFTER_HELP)]
    Docs(DocsArgs),
    /// Show, check and set configuration; every value with its source.
    #[command(after_help = CONFIG_AFTER_HELP)]
    Config(ConfigArgs),
    /// Inspect recorded sessions, read-only: list, search, read, verify.
    #[command(after_help = SESSIONS_AFTER_HELP)]
    Sessions(SessionsArgs),
    /// Trust a project so its `.smith/config.kdl` applies and its tools may run programs (or
    /// revoke that trust).
    #[command(after_help = TRUST_AFTER_HELP)]
    Trust(TrustArgs),
    /// List the active tools: name, plugin, description, input schema.
    #[command(after_help = TOOLS_AFTER_HELP)]
    Tools(ToolsArgs),
    /// List the plugins: id, version, world, grants, state.
    #[command(after_help = PLUGINS_AFTER_HELP)]
    Plugins(PluginsArgs),
    /// Check provider credentials without a model request, and store a key read from stdin.
    #[command(after_help = AUTH_AFTER_HELP)]
    Auth(AuthArgs),
    /// List the model catalog: limits, capabilities, prices and where each figure comes from.
    #[command(after_help = MODELS_AFTER_HELP)]
    Models(ModelsArgs),
}

const MODELS_AFTER_HELP: &str = "\
The catalog is the reviewed snapshot built into Smith (prices from the litellm package's
table, with its version and date), entries of the enabled provider plugins, and your own
models.kdl beside config.kdl, which wins over both. A figure no source states is unknown (`?`)
and is never used: a request that needs it fails before anything is sent. models.kdl also
holds aliases and groups (`smith docs get models`).

Exit status:
  0    success (also when stdout is closed early)
  2    usage or configuration error (a models.kdl that breaks the schema names file and line)
";

/// Arguments of `smith models`.
#[derive(Debug, Args)]
pub(crate) struct ModelsArgs {
    /// One JSON record per model: `provider`, `id`, `uncatalogued_default`, `context`,
    /// `output`, `image_input`, `tools`, `strict_tools`, `thinking`, `cache`, `price` (USD per
    /// million tokens), `provenance` (`source`, `figures`, `conflicts`).
    #[arg(long)]
    pub(crate) json: bool,
}

const AUTH_AFTER_HELP: &str = "\
A provider's keys form an account bucket, tried in order after a rate limit: the environment
variable its plugin declares (e.g. ANTHROPIC_API_KEY; `provider.ID.api-key-env` names another),
then the auth file (auth.kdl beside the trust records, mode 0600): its key, then its named
accounts. An account may hold a renewable credential (access-token, expires-at, refresh-token),
renewed before use at `provider.ID.token-url`. Secrets are never printed: `status` says only
which accounts exist and where a key comes from (`smith docs get models`).

  echo \"$KEY\" | smith auth set anthropic
  echo \"$KEY\" | smith auth set anthropic --account work

Exit status:
  0    success
  2    bad arguments (an unknown provider, an empty key) or an unreadable auth file";

/// Arguments of `smith auth`.
#[derive(Debug, Args)]
pub(crate) struct AuthArgs {
    #[command(subcommand)]
    pub(crate) command: AuthCommand,
}

/// `smith auth` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum AuthCommand {
    /// For each provider: whether its key is set and where it comes from (never the key).
    Status {
        /// One JSON record per provider: `provider`, `env`, `required`, `source`
        /// (`environment`, `auth-file` or null).
        #[arg(long)]
        json: bool,
    },
    /// Store PROVIDER's API key, read from stdin (one line), in the auth file; the entries of
    /// other providers are kept.
    Set {
        /// The provider id (e.g. `anthropic`).
        provider: String,
        /// Store it as this named account of the provider's bucket (used after the
        /// environment variable and the unnamed key, in file order) instead of as its key.
        #[arg(long, value_name = "NAME")]
        account: Option<String>,
    },
}

const TOOLS_AFTER_HELP: &str = "\
Every tool comes from a plugin (the bundled ones are ordinary plugins); a disabled plugin's
tools are not listed, not offered to the model and cannot be called. Disable one with
--disable-plugin ID or `smith config set plugins.ID.enabled false`. Schemas and output bounds
of the bundled tools: `smith docs get reference/tools`.

Exit status:
  0    success (also when stdout is closed early)
  1    a plugin could not be loaded
  2    bad arguments or configuration (e.g. --disable-plugin naming no plugin)";

const PLUGINS_AFTER_HELP: &str = "\
State is `active` (loaded; its tools are available) or `disabled` (by --disable-plugin or the
setting plugins.ID.enabled, whose source is shown). Grants are what the plugin's manifest
requests; `process.exec` is given only in a trusted project (`smith trust`) or with
--allow-process / process.allow=true.

Exit status:
  0    success (also when stdout is closed early)
  1    a plugin could not be loaded
  2    bad arguments or configuration";

/// Arguments of `smith tools`.
#[derive(Debug, Args)]
pub(crate) struct ToolsArgs {
    #[command(subcommand)]
    pub(crate) command: ToolsCommand,
}

/// `smith tools` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum ToolsCommand {
    /// One line per active tool (name, plugin, description); --json adds the input schema.
    List {
        /// One JSON record per tool: `name`, `plugin`, `description`, `input_schema`.
        #[arg(long)]
        json: bool,
    },
}

/// Arguments of `smith plugins`.
#[derive(Debug, Args)]
pub(crate) struct PluginsArgs {
    #[command(subcommand)]
    pub(crate) command: PluginsCommand,
}

/// `smith plugins` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum PluginsCommand {
    /// One line per plugin, in load order.
    List {
        /// One JSON record per plugin: `id`, `version`, `world`, `grants`, `state`, `tools`,
        /// `origin`, `disabled_by` when disabled, and `refused_grants` (grant and why) for
        /// requested grants this directory does not give, such as `process.exec` in an
        /// untrusted project.
        #[arg(long)]
        json: bool,
    },
}

const CONFIG_AFTER_HELP: &str = "\
Precedence, lowest first: product defaults, built-in plugin defaults, plugin contributions,
user configuration ($SMITH_HOME/config.kdl, else $XDG_CONFIG_HOME/smith/config.kdl, else
~/.config/smith/config.kdl), trusted project configuration (.smith/config.kdl), environment
variables, command-line flags (-c KEY=VALUE and per-command flags). Every setting is listed in
`smith docs get reference/settings`.

Exit status:
  0    success
  2    invalid configuration (the message names the file and line, variable or flag), an
       unknown key (with the closest known ones), or a bad value for `set`";

const TRUST_AFTER_HELP: &str = "\
Until a project is trusted, Smith skips its .smith/config.kdl (and says so on stderr) and runs
none of its local executable behaviour: tools may not run external programs there (the bash
tool is refused) unless --allow-process or process.allow=true says otherwise. Trust records
live in $SMITH_HOME/trust.kdl (else $XDG_DATA_HOME/smith/trust.kdl). PATH defaults to the project of the current directory: the
nearest directory upward holding .smith/, else the current directory.";

const SESSIONS_AFTER_HELP: &str = "\
Inspection (list, grep, get, verify) is read-only: it never repairs, truncates, locks or runs
anything, and works on a session another process is writing (it reads the complete committed
changes present when it starts; the writer's unfinished change is pending, not damage).
fork writes only a new session; select is the one mutation and needs the writer lock.
Sessions are the `.smith` files in $SMITH_HOME/sessions (else $XDG_DATA_HOME/smith/sessions);
an ID may be a unique prefix. Order: sessions by creation (their ids sort by time), entries
by id (append order); a session is a tree of entries and its selected leaf names the branch
that `smith eval --session` continues. Readable output by default; --json gives LF-delimited
records. A closed stdout ends quietly.

Damage: a torn tail (an interrupted write that was never acknowledged, so nothing acknowledged
is missing) is noted on stderr and not shown, with exit 0. Damaged changes whose frames can
still be delimited are skipped and named on stderr, and everything else is shown; damage that
hides the frame boundaries stops the read there. Either gives exit 3.

Exit status:
  0    success (grep: whether or not anything matched)
  1    a session or the sessions directory could not be read or written (permissions, I/O),
       or stdout failed
  2    bad arguments: unknown or ambiguous id, bad pattern, entry, limit or cursor
  3    a session is damaged or of an unknown format version (the others are still listed or
       searched; the damaged one is named on stderr)
  4    select refused: another process is writing the session

watch reads only complete committed changes, so it never shows a change half-written, and it
prints every entry from its position in commit order without skipping any; positions are
entry ids (1 to the next one to be committed). Ending it (Ctrl-C, a closed pipe,
--until-idle) changes nothing in the session or the run writing it.";

/// Arguments of `smith sessions`.
#[derive(Debug, Args)]
pub(crate) struct SessionsArgs {
    #[command(subcommand)]
    pub(crate) command: SessionsCommand,
}

/// `smith sessions` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum SessionsCommand {
    /// List sessions, oldest first: id, creation time, size, working directory.
    List {
        /// One JSON record per session.
        #[arg(long)]
        json: bool,
    },
    /// Search recorded messages and tool output with a regular expression.
    #[command(after_help = GREP_AFTER_HELP)]
    Grep {
        /// The pattern (Rust `regex` syntax).
        #[arg(value_name = "PATTERN", allow_hyphen_values = true)]
        pattern: String,
        /// One JSON record per matching line.
        #[arg(long)]
        json: bool,
    },
    /// Print the entries of one session, a bounded page at a time (by id, or --branch).
    Get {
        /// The session id or a unique prefix.
        #[arg(value_name = "ID")]
        id: String,
        /// One JSON record per entry, then a `page` record.
        #[arg(long)]
        json: bool,
        /// Entries per page (1 to 1000).
        #[arg(long, value_name = "N", default_value_t = 100)]
        limit: usize,
        /// Continue after this entry id (the cursor the previous page printed).
        #[arg(long, value_name = "C")]
        cursor: Option<u64>,
        /// Only the selected branch, from its leaf toward the root (newest first); the cursor
        /// then names the entry whose parent the next page starts at.
        #[arg(long)]
        branch: bool,
    },
    /// Copy a session's history up to an entry into a new session, published atomically;
    /// prints the new session's id.
    Fork {
        /// The session id or a unique prefix.
        #[arg(value_name = "ID")]
        id: String,
        /// The fork point: the new session holds entries 1..=ENTRY with ENTRY selected
        /// (default: the selected leaf).
        #[arg(long, value_name = "ENTRY")]
        at: Option<u64>,
        /// Print a JSON record instead of the bare id.
        #[arg(long)]
        json: bool,
    },
    /// Select the branch ending at ENTRY; the next `smith eval --session ID` continues there,
    /// beside the existing branches (nothing is deleted).
    Select {
        /// The session id or a unique prefix.
        #[arg(value_name = "ID")]
        id: String,
        /// The entry to select as the leaf.
        #[arg(value_name = "ENTRY")]
        entry: u64,
    },
    /// List a session's submissions with their receipts: key, model, and how the work ended
    /// (or that no end is recorded), rebuilt from the file alone.
    Receipts {
        /// The session id or a unique prefix.
        #[arg(value_name = "ID")]
        id: String,
        /// One JSON record per submission: `submission`, `admitted_in`, `dedup_key`, `model`,
        /// `state` (`admitted` or `terminal`), `stop_reason`, `end`, `error`, `answer`.
        #[arg(long)]
        json: bool,
    },
    /// Follow a session as it is written: print its committed entries from a position, then
    /// each new commit, with no gap (Ctrl-C ends the watching, never the work).
    Watch {
        /// The session id or a unique prefix.
        #[arg(value_name = "ID")]
        id: String,
        /// The first entry to print (default 1: the whole history); the next entry id to be
        /// committed prints only what is new.
        #[arg(long, value_name = "ENTRY")]
        from: Option<u64>,
        /// One JSON record per entry, as `get --json` prints them.
        #[arg(long)]
        json: bool,
        /// Stop once every committed entry is printed and no process is writing the session.
        #[arg(long)]
        until_idle: bool,
    },
    /// Read a whole session and check every frame, record and index; exit 3 on damage.
    Verify {
        /// The session id or a unique prefix.
        #[arg(value_name = "ID")]
        id: String,
    },
}

const GREP_AFTER_HELP: &str = "\
PATTERN is a regular expression in Rust `regex` syntax (https://docs.rs/regex): `(?i)` makes it
case-insensitive, `\\b` matches a word boundary. It is matched line by line against message
text, thinking, tool-call arguments and tool output. Each match names the session, the entry
id and the entry kind: `SESSION #ENTRY KIND: LINE`.";

/// Arguments of `smith config`.
#[derive(Debug, Args)]
pub(crate) struct ConfigArgs {
    #[command(subcommand)]
    pub(crate) command: ConfigCommand,
}

/// `smith config` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum ConfigCommand {
    /// Print every setting (or KEY) with its resolved value and source.
    Show {
        /// Only this setting.
        #[arg(value_name = "KEY")]
        key: Option<String>,
        /// One JSON record per setting: `key`, `value`, `source`, `level`.
        #[arg(long)]
        json: bool,
    },
    /// Validate every configuration layer and report the first problem.
    Check,
    /// Write one setting to the user configuration (or the project's), keeping comments.
    Set {
        /// The setting, e.g. `model`.
        #[arg(value_name = "KEY")]
        key: String,
        /// Its new value.
        #[arg(value_name = "VALUE")]
        value: String,
        /// Write to the project's `.smith/config.kdl` instead.
        #[arg(long)]
        project: bool,
    },
}

/// Arguments of `smith trust`.
#[derive(Debug, Args)]
pub(crate) struct TrustArgs {
    /// The project directory (default: the current directory's project).
    #[arg(value_name = "PATH")]
    pub(crate) path: Option<PathBuf>,
    /// Stop trusting the project instead.
    #[arg(long)]
    pub(crate) revoke: bool,
}

const DOCS_AFTER_HELP: &str = "\
The documentation is built into this binary and needs no network, checkout or session.
Readable output is rendered markdown on a terminal and the markdown source when piped (or with
NO_COLOR); --json gives LF-delimited JSON records with the same content.

Exit status:
  0    success (also when stdout is closed early)
  2    unknown document id, bad line range, bad cursor or limit";

/// Arguments of `smith docs`.
#[derive(Debug, Args)]
pub(crate) struct DocsArgs {
    #[command(subcommand)]
    pub(crate) command: DocsCommand,
}

/// `smith docs` subcommands.
#[derive(Debug, Subcommand)]
pub(crate) enum DocsCommand {
    /// List every document: id, kind and title, ordered by id.
    List {
        /// Emit one JSON record per document.
        #[arg(long)]
        json: bool,
    },
    /// Search the documentation; results are ranked by relevance, ties ordered by id.
    #[command(after_help = SEARCH_AFTER_HELP)]
    Search {
        /// Words to look for.
        #[arg(value_name = "QUERY", allow_hyphen_values = true)]
        query: String,
        /// Emit one JSON record per hit, then a `page` record.
        #[arg(long)]
        json: bool,
        /// Hits per page (1 to 100).
        #[arg(long, value_name = "N", default_value_t = 10)]
        limit: usize,
        /// Continue after the previous page (the cursor it printed).
        #[arg(long, value_name = "C")]
        cursor: Option<String>,
    },
    /// Print one document, or a window of its lines.
    Get {
        /// The document id (see `smith docs list`).
        #[arg(value_name = "ID")]
        id: String,
        /// Body lines A..B, 1-based and inclusive (`A..` runs to the end; `A` is one line).
        #[arg(long, value_name = "A..B")]
        lines: Option<String>,
        /// Emit the document as one JSON record.
        #[arg(long)]
        json: bool,
    },
}

const SEARCH_AFTER_HELP: &str = "\
Query syntax: words match their English stems in titles (weighted ×3), tags (×2) and bodies;
\"a phrase\" matches words in order; +word requires and -word excludes a word; title:word,
tags:word and body:word search one field. Malformed syntax is read leniently, never an error.
When more results remain, the last line (or the JSON `page` record) gives the --cursor for
the next page.";

const EVAL_AFTER_HELP: &str = "\
Models:
  scripted/demo       built-in script: thinks, answers and echoes the prompt
  scripted/tool-call  built-in script: calls a tool, gets its result, answers
  scripted/NAME --script FILE   plays FILE (a KDL script of provider rounds); NAME is a label
  ALIAS or GROUP      a name from models.kdl: resolved offline, failing over in order
  `smith models` lists the catalog; a model gets only what its record advertises (tools,
  --thinking levels), else nothing is sent. Every attempt is recorded apart from the selection.

Output:
  plain (default)  the answer streams to stdout; thinking, tool activity and diagnostics go to
                   stderr; no escape sequences on stdout; colour on a terminal stderr unless
                   NO_COLOR is set
  --json           one JSON record per line on stdout: run_start first, run_end last, each
                   message's start, deltas and end in order (the end record is authoritative)

Tools:
  The active plugins' tools (`smith tools list`) run in the current directory: files and
  search inside it; `bash` only in a trusted project (`smith trust`) or with --allow-process.
  --disable-plugin ID leaves a plugin's tools out.

Retries:
  --session ID --dedup-key KEY makes a submission safe to repeat: the first admission runs;
  a repeat with the same KEY, model and prompt runs nothing and prints the original answer
  (its `receipt` record has deduplicated set), also after a crash or restart; the same
  KEY with another prompt or model fails with exit 2 and writes nothing. A repeat exits as
  the original work ended (0 when it succeeded, 1 when it failed or was interrupted).

Sessions:
  Every run creates a new session file under $SMITH_HOME/sessions (default
  $XDG_DATA_HOME/smith/sessions). --session ID appends to an existing one (a unique prefix of
  its id is enough). --no-session uses a temporary store, removed when the run succeeds and
  kept (its path is printed) when it does not.

Exit status:
  0    the model ended its turn (or stopped at its output limit, with a warning), or stdout was
       closed early (the run stops quietly). A failed tool call does not fail the run: the
       model gets the error as the call's result.
  1    the run failed: provider error, a stream cut before its end, a storage failure
  2    usage or configuration error (no or unknown model, bad script, bad flags, empty
       prompt); nothing was run or written
  3    the --session file is damaged or of a format version this Smith does not read
  4    the --session is open for writing by another Smith process
  130  interrupted (Ctrl-C or SIGTERM); the session records what happened";

/// Arguments of `smith eval`.
#[derive(Debug, Args)]
pub(crate) struct EvalArgs {
    /// The model, as PROVIDER/MODEL (e.g. scripted/demo), or an alias or group of
    /// models.kdl; default: the `model` setting.
    #[arg(short, long, value_name = "PROVIDER/MODEL")]
    pub(crate) model: Option<String>,

    /// The thinking level to ask for: off, minimal, low, medium, high, xhigh or max (the
    /// model's catalog record must list it); default: the `thinking` setting, else the
    /// model's own default.
    #[arg(long, value_name = "LEVEL")]
    pub(crate) thinking: Option<String>,

    /// Emit LF-delimited JSON records on stdout instead of plain text.
    #[arg(long)]
    pub(crate) json: bool,

    /// Append to the existing session ID (a unique prefix is enough) instead of creating one.
    #[arg(long, value_name = "ID", conflicts_with = "no_session")]
    pub(crate) session: Option<String>,

    /// Deduplicate this submission with KEY (needs --session): if the session already
    /// admitted KEY with the same model and prompt, nothing runs and that submission's
    /// receipt and recorded answer are printed; KEY with other content fails (exit 2).
    #[arg(
        long,
        value_name = "KEY",
        requires = "session",
        conflicts_with = "no_session"
    )]
    pub(crate) dedup_key: Option<String>,

    /// Record into a temporary session store, removed when the run succeeds.
    #[arg(long)]
    pub(crate) no_session: bool,

    /// Play this provider script (scripted provider only); the model name becomes its label.
    #[arg(long, value_name = "FILE")]
    pub(crate) script: Option<PathBuf>,

    /// The prompt; `-` reads it from standard input (UTF-8, at most 8 MiB).
    #[arg(value_name = "PROMPT")]
    pub(crate) prompt: String,
}
