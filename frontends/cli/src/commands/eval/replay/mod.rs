//! `smith replay SESSION`: what a recorded session's runs showed, rebuilt from the file alone
//! (the replay guide) — no provider, no credentials, nothing run or written — through eval's
//! renderers: plain, or the intents as JSON lines, deterministic for the same file; paced or
//! instant; with `--execute`, the recorded tool effects run again (`execute.rs`).

mod execute;

use std::io::{IsTerminal as _, Write as _};

use clap::Args;
use smith::EntryId;
use smith_app::playback::{self, Options, Pace, ReplayError};

use super::sink::EvalSink;
use super::target;
use crate::cli::Global;
use crate::command_error::{self, CliError};
use crate::exit;

/// What `smith replay --help` adds.
pub(crate) const REPLAY_AFTER_HELP: &str = "\
What is replayed: along the session's selected branch, each turn's start, its input and
receipt, rounds, attempts and their failures, the messages (one delta per text or thinking
block: the live stream's pieces are not recorded), usage and cost at each attempt's recorded
prices, tool calls and results, and the run's end — the intents the live run emitted, in the
order it recorded them. Progress, tool updates, notices and questions are not recorded, so not
replayed; an abort request shows as a warning with its reason. Nothing runs: no provider is
asked, no tool is called, and the session is only read.

Output: plain — the answers on stdout, the rest on stderr, as `smith eval` prints them; --json
— a first record (type `replay`: the format version, the session, the branch) and then the intents as
LF-delimited JSON records on stdout, byte for byte the same for the same session and options.

Pace: without --speed, instant when stdout is not a terminal (or with --json), else as
recorded (`real`); gaps longer than 2 s are replayed as 2 s. Ctrl-C stops the replay (exit 130); the session is
never touched.

Re-execution (--execute): the recorded tool calls of the replayed turns run again, in order,
through the tools of the plugins enabled now, in a scratch copy of the working tree as the
snapshot taken at the start of the range holds it (or in the directory --in names); each
recorded effect is reported same, different (with a bounded diff) or not re-executed (why).
A call whose effects were left unknown (the run died while they ran) is never run again;
programs run only with --allow-process. Nothing is written to the session.

Exit status:
  0    replayed (a session whose last change was cut off is replayed up to the last complete
       change, with a note on stderr); with --execute: every re-executed effect was the same
  1    with --execute: an effect was different, or the scratch copy could not be made
  2    usage error: no such session, --turns names no turn, --branch names no entry; with
       --execute: no snapshot in the replayed turns and no --in, or --in names no directory
  3    the session file is damaged (changes that cannot be read were skipped and named), or of
       a format version this Smith does not read
  130  stopped by Ctrl-C";

/// Arguments of `smith replay`.
#[derive(Debug, Args)]
pub(crate) struct ReplayArgs {
    /// The session (a unique prefix of its id is enough; `last`, the default: the session
    /// most recently written among those started in this directory, else in the nearest
    /// directory above it in its project).
    #[arg(value_name = "SESSION", default_value = "last")]
    pub(crate) session: String,

    /// Replay only turns A to B (from 1; `3` alone is `3..3`, `2..` to the last).
    #[arg(long, value_name = "A..B")]
    pub(crate) turns: Option<String>,

    /// Replay the branch ending at entry ENTRY (an entry id, as `smith sessions get` lists
    /// them) instead of the session's selected branch.
    #[arg(long, value_name = "ENTRY")]
    pub(crate) branch: Option<u64>,

    /// How fast: `real` (as recorded, gaps over 2 s shortened to 2 s), N (N times faster,
    /// e.g. 10 or 0.5) or `instant` (the default when stdout is not a terminal).
    #[arg(long, value_name = "SPEED")]
    pub(crate) speed: Option<String>,

    /// Emit the intents as LF-delimited JSON records on stdout instead of plain text.
    #[arg(long)]
    pub(crate) json: bool,

    /// Show the replay in the terminal UI (read-only; leave with Ctrl+C twice). Paced as
    /// recorded unless --speed says otherwise.
    #[arg(long, conflicts_with_all = ["json", "execute"])]
    pub(crate) tui: bool,

    /// Run the recorded tool calls again and report, per effect, whether it came out the same.
    #[arg(long)]
    pub(crate) execute: bool,

    /// With --execute: run in directory DIR as it is, instead of a scratch copy of the
    /// snapshot taken at the start of the range (DIR is changed by the calls).
    #[arg(long = "in", value_name = "DIR", requires = "execute")]
    pub(crate) dir: Option<std::path::PathBuf>,

    /// With --execute: also write the report as JSON lines to FILE.
    #[arg(long, value_name = "FILE", requires = "execute")]
    pub(crate) report: Option<std::path::PathBuf>,
}

/// `real`, `instant` or a positive factor as a pace.
fn pace(text: &str) -> Result<Pace, CliError> {
    match text {
        "instant" => Ok(Pace::Instant),
        "real" => Ok(Pace::Scaled { factor: 1.0 }),
        n => match n.parse::<f64>() {
            Ok(factor) if factor.is_finite() && factor > 0.0 => Ok(Pace::Scaled { factor }),
            _ => Err(CliError::usage(format!(
                "--speed {text:?} is not a speed; write real, instant, or a positive number of times faster (e.g. 10 or 0.5)"
            ))),
        },
    }
}

/// `A..B`, `A..` or `A` as an inclusive turn range.
fn turns(text: &str) -> Result<(u32, u32), CliError> {
    let bad = || {
        CliError::usage(format!(
            "--turns {text:?} is not a turn range; write A..B (e.g. 2..4), A.. (from A to the last) or A (one turn), counting from 1"
        ))
    };
    smith_app::playback::turn_range(text).ok_or_else(bad)
}

/// Run `smith replay`; the exit status, or a diagnostic with its status.
pub(crate) fn run(args: &ReplayArgs, global: &Global) -> Result<u8, CliError> {
    let app = global.app(&[])?;
    let cwd = command_error::current_dir()?;
    let store = app.sessions().map_err(|e| command_error::no_home(&e))?;
    let (path, id) = if args.session == target::LAST {
        target::latest(
            &app,
            &cwd,
            "`last` (the most recently written session of this directory)",
        )?
    } else {
        store.find(&args.session).map_err(|e| {
            command_error::find(
                &e,
                "SESSION",
                "or leave SESSION out to replay the most recently written session of this directory",
            )
        })?
    };
    let default_pace = if !args.tui && (args.json || !std::io::stdout().is_terminal()) {
        Pace::Instant
    } else {
        Pace::Scaled { factor: 1.0 }
    };
    let options = Options {
        turns: args.turns.as_deref().map(turns).transpose()?,
        leaf: args.branch.map(EntryId),
        pace: args
            .speed
            .as_deref()
            .map(pace)
            .transpose()?
            .unwrap_or(default_pace),
    };
    if args.tui {
        return tui(app, cwd, path, id, options);
    }
    if args.execute {
        return execute::run(&app, &path, id, &options, args, global.allow_process);
    }
    // A file that cannot be read is refused before anything reaches stdout.
    let leaf = smith_store::SessionReader::open(&path)
        .map_err(|e| command_error::store(&e))?
        .state()
        .leaf_id();
    let cancel = crate::interrupt::cancel();
    let mut sink = Headed {
        header: args
            .json
            .then(|| header(&id, options.leaf.or(leaf), &options)),
        sink: EvalSink::new(args.json, cancel.clone()),
    };
    let played = match playback::play(&path, id, &options, &cancel, &mut sink) {
        Ok(played) => played,
        Err(ReplayError::Store(e)) => return Err(command_error::store(&e)),
        Err(e @ (ReplayError::Range { .. } | ReplayError::PastLast { .. })) => {
            return Err(CliError::usage(format!("--turns: {e}")));
        }
        Err(e @ ReplayError::Leaf { .. }) => {
            return Err(CliError::usage(format!(
                "--branch: {e}; list them with `smith sessions get {id}`"
            )));
        }
    };
    if let Some((first, _)) = options.turns
        && first > played.turns
    {
        return Err(CliError::usage(format!(
            "--turns {}: session {id} has {} turn(s) on the replayed branch",
            args.turns.as_deref().unwrap_or_default(),
            played.turns
        )));
    }
    let sink = match sink.finish() {
        Some(sink) => sink,
        None => return Ok(exit::SUCCESS),
    };
    if sink.pipe_closed {
        return Ok(exit::SUCCESS);
    }
    if let Some(entry) = played.stopped {
        sink.diagnostic(&format!(
            "replay stopped before entry {entry} (interrupted); the session was not touched"
        ));
        return Ok(exit::INTERRUPTED);
    }
    if let Some(torn) = &played.torn {
        sink.diagnostic(&format!(
            "note: the session's last change was cut off ({torn}); replayed up to the last complete change"
        ));
    }
    if !played.unknown.is_empty() {
        let kinds: Vec<String> = played
            .unknown
            .iter()
            .map(|(entry, kind)| format!("entry {entry} (kind {kind})"))
            .collect();
        sink.diagnostic(&format!(
            "note: {} entr{} of a kind this Smith does not know were not replayed: {}; a newer Smith replays them",
            kinds.len(),
            if kinds.len() == 1 { "y" } else { "ies" },
            kinds.join(", ")
        ));
    }
    if let Some(entry) = played.damaged {
        sink.diagnostic(&format!(
            "the branch runs into entry {entry}, which lies in a damaged change: what came before it cannot be found, so the replay began after it"
        ));
    }
    if played.skipped > 0 || played.damaged.is_some() {
        sink.diagnostic(&format!(
            "{} damaged change(s) of the session could not be read and were skipped; `smith sessions verify {id}` names them",
            played.skipped.max(1)
        ));
        return Ok(exit::DAMAGED);
    }
    Ok(exit::SUCCESS)
}

/// The replay's sink: with `--json`, the first record goes out before the first intent (or at
/// the end of a replay that emitted none), so a replay refused as it starts writes nothing.
struct Headed {
    header: Option<String>,
    sink: EvalSink,
}

impl Headed {
    /// Write the first record if it is still held: whether stdout took it.
    fn flush_header(&mut self) -> bool {
        let Some(header) = self.header.take() else {
            return true;
        };
        let mut out = std::io::stdout().lock();
        let ok = writeln!(out, "{header}").and_then(|()| out.flush()).is_ok();
        if !ok {
            self.sink.pipe_closed = true;
            self.sink.output_closed = true;
        }
        ok
    }

    /// The sink, the first record written; `None` when stdout is closed.
    fn finish(mut self) -> Option<EvalSink> {
        self.flush_header().then_some(self.sink)
    }
}

impl smith_ui_intents::IntentSink for Headed {
    fn emit(&mut self, intent: smith_ui_intents::Intent) -> smith_ui_intents::Delivery {
        if !self.flush_header() {
            return smith_ui_intents::Delivery::Dropped;
        }
        self.sink.emit(intent)
    }
}

/// The `--json` replay's first record: the format version, the session and the branch.
fn header(id: &smith::SessionId, leaf: Option<EntryId>, options: &Options) -> String {
    let leaf = leaf.map(|l| l.0);
    let record = serde_json::json!({
        "type": "replay",
        "format": playback::FORMAT,
        "session": id.to_string(),
        "leaf": leaf,
        "turns": options.turns.map(|(a, b)| [Some(a), (b != u32::MAX).then_some(b)]),
    });
    record.to_string()
}

/// `smith replay --tui`: the replay in the terminal UI, read-only.
fn tui(
    app: smith_app::App,
    cwd: std::path::PathBuf,
    path: std::path::PathBuf,
    id: smith::SessionId,
    options: Options,
) -> Result<u8, CliError> {
    if !std::io::stdin().is_terminal() || !std::io::stdout().is_terminal() {
        return Err(CliError::usage(
            "--tui needs a terminal on stdin and stdout, and one of them is a pipe or a file; replay without --tui for plain text, or with --json for records",
        ));
    }
    let outcome = smith_tui::run(smith_tui::Options {
        app: std::sync::Arc::new(app),
        cwd,
        opening: smith_tui::Opening::Replay { path, id, options },
        notices: Vec::new(),
        script: None,
    })
    .map_err(|e| {
        CliError::new(
            exit::RUN_FAILED,
            format!("{e}; the terminal was restored (a replay writes nothing)"),
        )
    })?;
    Ok(crate::commands::tui::ended(outcome))
}
