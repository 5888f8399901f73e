//! `smith replay SESSION`: what a recorded session's runs showed, rebuilt from the file alone
//! (the replay guide) — no provider, no credentials, nothing run or written — through eval's
//! renderers: plain, or the intents as JSON lines, deterministic for the same file.

use clap::Args;
use smith::Cancel;
use smith_agent::playback::{self, Options, ReplayError};

use super::sink::EvalSink;
use super::target::{self, Target};
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
replayed; a compaction shows as its summary. Nothing runs: no provider is asked, no tool is
called, and the session is only read.

Output: plain — the answers on stdout, the rest on stderr, as `smith eval` prints them; --json
— the intents as LF-delimited JSON records on stdout, byte for byte the same for the same
session and options.

Exit status:
  0    replayed (a session whose last change was cut off is replayed up to the last complete
       change, with a note on stderr)
  2    usage error: no such session, or --turns names no turn
  3    the session file is damaged (changes that cannot be read were skipped and named), or of
       a format version this Smith does not read";

/// Arguments of `smith replay`.
#[derive(Debug, Args)]
pub(crate) struct ReplayArgs {
    /// The session (a unique prefix of its id is enough; `last`, the default: the latest
    /// session started in this directory).
    #[arg(value_name = "SESSION", default_value = "last")]
    pub(crate) session: String,

    /// Replay only turns A to B (from 1; `3` alone is `3..3`, `2..` to the last).
    #[arg(long, value_name = "A..B")]
    pub(crate) turns: Option<String>,

    /// Emit the intents as LF-delimited JSON records on stdout instead of plain text.
    #[arg(long)]
    pub(crate) json: bool,
}

/// `A..B`, `A..` or `A` as an inclusive turn range.
fn turns(text: &str) -> Result<(u32, u32), CliError> {
    let bad = || {
        CliError::usage(format!(
            "--turns {text:?} is not a turn range; write A..B (e.g. 2..4), A.. (from A to the last) or A (one turn), counting from 1"
        ))
    };
    let number = |t: &str| t.trim().parse::<u32>().map_err(|_| bad());
    match text.split_once("..") {
        Some((a, "")) => Ok((number(a)?, u32::MAX)),
        Some((a, b)) => Ok((number(a)?, number(b)?)),
        None => {
            let n = number(text)?;
            Ok((n, n))
        }
    }
}

/// Run `smith replay`; the exit status, or a diagnostic with its status.
pub(crate) fn run(args: &ReplayArgs, global: &Global) -> Result<u8, CliError> {
    let app = global.app(&[])?;
    let cwd = command_error::current_dir()?;
    let store = app.sessions().map_err(|e| command_error::no_home(&e))?;
    let (path, id) = if args.session == target::LAST {
        match target::latest(&store, cwd.to_str(), false)? {
            Target::Existing { path, id } => (path, id),
            _ => unreachable!("latest names an existing session"),
        }
    } else {
        store.find(&args.session).map_err(|e| {
            command_error::find(
                &e,
                "SESSION",
                "list the sessions with `smith sessions list`",
            )
        })?
    };
    let options = Options {
        turns: args.turns.as_deref().map(turns).transpose()?,
    };
    let mut sink = EvalSink::new(args.json, Cancel::new());
    let played = match playback::play(&path, id, &options, &mut sink) {
        Ok(played) => played,
        Err(ReplayError::Store(e)) => return Err(command_error::store(&e)),
        Err(e @ ReplayError::Range { .. }) => {
            return Err(CliError::usage(format!("--turns: {e}")));
        }
    };
    if let Some((first, _)) = options.turns
        && first > played.turns
    {
        return Err(CliError::usage(format!(
            "--turns {}: session {id} has {} turn(s) on its selected branch",
            args.turns.as_deref().unwrap_or_default(),
            played.turns
        )));
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
    if played.skipped > 0 {
        sink.diagnostic(&format!(
            "smith: {} damaged change(s) of the session could not be read and were skipped; `smith sessions verify {id}` names them",
            played.skipped
        ));
        return Ok(exit::DAMAGED);
    }
    Ok(exit::SUCCESS)
}
