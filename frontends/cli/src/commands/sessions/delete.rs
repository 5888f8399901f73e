//! `smith sessions delete ID…` and `smith sessions prune --older-than DURATION`: sessions
//! removed under their writer lock (one being written is refused), each listed as it goes,
//! then the working-tree snapshots no remaining session references collected
//! (`smith_app::removal`).

use std::time::{Duration, SystemTime};

use clap::Args;
use smith::SessionId;
use smith_app::SessionStore;
use smith_app::inspect::{format_utc, summarize};
use smith_app::removal::{self, Refusal, Report};

use super::find;
use crate::command_error::CliError;
use crate::exit;
use crate::output::Out;

pub(crate) const DELETE_AFTER_HELP: &str = "\
A session another Smith process is writing is refused (exit 4) and the others are still
deleted. Then, in each project a deleted session worked in, the working-tree snapshots (what
`smith undo` and `smith restore` use) that no remaining session references and that were not
written or used in the last day are removed from the project's snapshot repository; the
project's newest snapshot and those any remaining session references stay. Nothing else is
touched: a fork is a session of its own and keeps its history.";

/// Arguments of `smith sessions delete`.
#[derive(Debug, Args)]
pub(crate) struct DeleteArgs {
    /// The sessions: ids or unique prefixes (`last`: the session most recently written among
    /// those started in this directory, else in the nearest directory above it in its project).
    #[arg(value_name = "ID", required = true)]
    pub(crate) ids: Vec<String>,
    /// List what would be removed, and remove nothing.
    #[arg(long)]
    pub(crate) dry_run: bool,
}

/// Arguments of `smith sessions prune`.
#[derive(Debug, Args)]
pub(crate) struct PruneArgs {
    /// Remove the sessions last written longer ago than this: a number and a unit, such as
    /// `30d`, `2w`, `12h`, `90m`, `6 months`, `1y`.
    #[arg(long, value_name = "DURATION", value_parser = parse_age)]
    pub(crate) older_than: Duration,
    /// Keep the N most recently written sessions whatever their age.
    #[arg(long, value_name = "N", default_value_t = 0)]
    pub(crate) keep: usize,
    /// List what would be removed, and remove nothing.
    #[arg(long)]
    pub(crate) dry_run: bool,
}

pub(super) fn delete(
    store: &SessionStore,
    args: &DeleteArgs,
    out: &mut Out,
) -> Result<u8, CliError> {
    // Every id is resolved before anything is deleted; each one that names no single session
    // is said, and nothing is deleted then.
    let mut targets = Vec::with_capacity(args.ids.len());
    let mut bad = Vec::new();
    for wanted in &args.ids {
        match find(store, wanted) {
            Ok((path, id)) => targets.push((id, path)),
            Err(e) => bad.push(e),
        }
    }
    if let Some(mut last) = bad.pop() {
        for e in &bad {
            exit::report(&e.message);
        }
        last.message.push_str("; nothing was deleted");
        return Err(last);
    }
    run(store, &targets, args.dry_run, out)
}

pub(super) fn prune(store: &SessionStore, args: &PruneArgs, out: &mut Out) -> Result<u8, CliError> {
    let targets = removal::prune_candidates(store, args.older_than, args.keep, SystemTime::now())
        .map_err(|e| list_error(store, &e))?;
    if targets.is_empty() {
        exit::report(&format!(
            "no session in {} was last written more than {} ago{}; nothing to prune",
            store.dir().display(),
            humanize(args.older_than),
            if args.keep > 0 {
                format!(" (beyond the {} newest)", args.keep)
            } else {
                String::new()
            }
        ));
        return Ok(exit::SUCCESS);
    }
    run(store, &targets, args.dry_run, out)
}

fn run(
    store: &SessionStore,
    targets: &[(SessionId, std::path::PathBuf)],
    dry_run: bool,
    out: &mut Out,
) -> Result<u8, CliError> {
    // Titles are read before the files go.
    let titles: Vec<(SessionId, Option<String>)> = targets
        .iter()
        .map(|(id, path)| (*id, summarize(*id, path).ok().and_then(|s| s.title)))
        .collect();
    let history = smith_app::Paths::from_env().history().ok();
    let report = removal::remove(store, history.as_deref(), targets, dry_run);
    print(&report, &titles, dry_run, out)
}

fn print(
    report: &Report,
    titles: &[(SessionId, Option<String>)],
    dry_run: bool,
    out: &mut Out,
) -> Result<u8, CliError> {
    let verb = if dry_run { "would delete" } else { "deleted" };
    for removed in &report.removed {
        let title = titles
            .iter()
            .find(|(id, _)| *id == removed.id)
            .and_then(|(_, t)| t.as_deref())
            .map_or_else(|| "-".to_owned(), |t| format!("\"{t}\""));
        out.line(&format!(
            "{verb} {}  last written {} UTC  {:>9} B  {title}",
            removed.id,
            format_utc(u64::try_from(removed.modified_ms).unwrap_or(0)),
            removed.bytes
        ))?;
        if let Some(why) = &removed.references_unread {
            exit::report(&format!(
                "session {}: its snapshot references could not be read ({why}); its snapshots are left in place",
                removed.id
            ));
        }
    }
    let mut status = exit::SUCCESS;
    for (id, refusal) in &report.refused {
        let (code, hint) = match refusal {
            Refusal::Locked { .. } => (
                exit::REFUSED,
                "finish or quit that process first, then delete it again",
            ),
            Refusal::Io { .. } => (
                exit::RUN_FAILED,
                "check the sessions directory's permissions",
            ),
        };
        status = status.max(code);
        exit::report(&format!("session {id} kept: {refusal}; {hint}"));
    }
    if let Some(why) = &report.collection_skipped {
        exit::report(&format!(
            "no snapshot was collected: {why}; the sessions are deleted, and a later delete or prune collects their snapshots once every session reads whole (`smith sessions verify` names damage)"
        ));
    }
    for collection in &report.collections {
        match &collection.outcome {
            Ok(done) => {
                if done.objects > 0 {
                    out.line(&format!(
                        "{} {} snapshot{} of {} ({} objects, {} B)",
                        if dry_run { "would remove" } else { "removed" },
                        done.snapshots.len(),
                        if done.snapshots.len() == 1 { "" } else { "s" },
                        collection.root.display(),
                        done.objects,
                        done.bytes
                    ))?;
                }
                if done.young > 0 {
                    exit::report(&format!(
                        "kept {} unreferenced snapshot{} of {} written or used in the last {}: a tool batch may still be recording {}; a later delete or prune collects {}",
                        done.young,
                        if done.young == 1 { "" } else { "s" },
                        collection.root.display(),
                        humanize(removal::SNAPSHOT_GRACE),
                        if done.young == 1 { "it" } else { "them" },
                        if done.young == 1 { "it" } else { "them" },
                    ));
                }
            }
            Err(e) => {
                status = status.max(exit::RUN_FAILED);
                exit::report(&format!(
                    "the snapshots of {} were not collected: {e}; the sessions are deleted, and a later delete or prune of a session of that project collects them",
                    collection.root.display()
                ));
            }
        };
    }
    Ok(status)
}

fn list_error(store: &SessionStore, e: &std::io::Error) -> CliError {
    CliError::new(
        exit::RUN_FAILED,
        format!(
            "cannot read the sessions directory {}: {e}; SMITH_HOME (or XDG_DATA_HOME) must lead to a readable directory",
            store.dir().display()
        ),
    )
}

/// `--older-than`: a friendly duration (`30d`, `2w`, `12h`, `6 months`), months and years
/// counted back from today's date in UTC.
fn parse_age(text: &str) -> Result<Duration, String> {
    let bad = |why: &str| {
        format!(
            "`{text}` is not an age ({why}); give a number and a unit, such as 30d, 2w, 12h or 6 months"
        )
    };
    let span: jiff::Span = text.trim().parse().map_err(|_| bad("unreadable"))?;
    if span.is_negative() {
        return Err(bad("it is negative"));
    }
    let today = jiff::Timestamp::now().to_zoned(jiff::tz::TimeZone::UTC);
    let back = today
        .checked_sub(span)
        .map_err(|_| bad("it reaches before the calendar starts"))?;
    let age = today.timestamp().duration_since(back.timestamp());
    Duration::try_from(age).map_err(|_| bad("out of range"))
}

/// A duration in the largest whole unit that fits, for messages.
fn humanize(age: Duration) -> String {
    let secs = age.as_secs();
    for (unit, size) in [("d", 86_400), ("h", 3_600), ("m", 60)] {
        if secs >= size && secs.is_multiple_of(size) {
            return format!("{}{unit}", secs / size);
        }
    }
    format!("{secs}s")
}

#[cfg(test)]
mod tests {
    use super::parse_age;
    use std::time::Duration;

    #[test]
    fn ages_read_in_the_usual_units_and_nonsense_is_named() {
        assert_eq!(parse_age("30d").unwrap(), Duration::from_secs(30 * 86_400));
        assert_eq!(parse_age("2w").unwrap(), Duration::from_secs(14 * 86_400));
        assert_eq!(parse_age("12h").unwrap(), Duration::from_secs(12 * 3_600));
        assert_eq!(parse_age("90m").unwrap(), Duration::from_secs(90 * 60));
        let months = parse_age("6 months").unwrap().as_secs() / 86_400;
        assert!((181..=184).contains(&months), "{months}");
        for bad in ["soon", "", "-3d", "30", "3 fortnights", "999999999y"] {
            let e = parse_age(bad).unwrap_err();
            assert!(e.contains(&format!("`{bad}`")), "{e}");
        }
    }
}
