//! Exact allocation counts (issue 72; spec: Performance and portability → Memory accounting,
//! "allocation-count tests assert exact counts and bounds only tighten"): a test measures
//! deterministic paths in scopes of the accounting allocator and [`check`]s every figure
//! against the ones its crate recorded, with the toolchain and lockfile they were measured
//! under.
//!
//! A figure that rose fails (a change may only lower it); one that fell fails too, asking for
//! the lower figure to be recorded, so the bound tightens. A different toolchain or lockfile
//! fails, naming both: the figures are then regenerated with `BLESS=1` and the diff reviewed —
//! never skipped.

use std::fmt::Write as _;
use std::path::Path;

/// One measured path.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Counted {
    /// Its name in the file (one word).
    pub name: &'static str,
    /// Blocks allocated.
    pub allocations: u64,
    /// Bytes allocated.
    pub bytes: u64,
    /// How far `bytes` may stray from the recorded figure either way: 0 (exact) unless the
    /// path formats something that varies by machine, which its test names.
    pub bytes_slack: u64,
}

impl Counted {
    /// The figures of a closed accounting scope, under `name`.
    pub fn of(name: &'static str, figures: smith_memory::Figures) -> Self {
        Self {
            name,
            allocations: figures.allocations,
            bytes: figures.allocated_bytes,
            bytes_slack: 0,
        }
    }

    /// The same, with `slack` bytes allowed either way ([`Counted::bytes_slack`]).
    #[must_use]
    pub fn with_bytes_slack(self, slack: u64) -> Self {
        Self {
            bytes_slack: slack,
            ..self
        }
    }
}

/// The toolchain this test was built by, as `rustc -V` names it (`unknown` when it cannot be
/// asked).
fn toolchain() -> String {
    std::process::Command::new("rustc")
        .arg("-V")
        .output()
        .ok()
        .filter(|o| o.status.success())
        .map(|o| String::from_utf8_lossy(&o.stdout).trim().to_owned())
        .unwrap_or_else(|| "unknown".to_owned())
}

/// The first 16 hex digits of the SHA-256 of `lockfile`.
fn lock_digest(lockfile: &Path) -> String {
    use sha2::Digest as _;
    let bytes = std::fs::read(lockfile)
        .unwrap_or_else(|e| panic!("cannot read the lockfile {}: {e}", lockfile.display()));
    let digest = sha2::Sha256::digest(&bytes);
    digest[..8].iter().fold(String::new(), |mut s, b| {
        let _ = write!(s, "{b:02x}");
        s
    })
}

/// Check `counted` against the figures recorded in `file` under the toolchain and the digest
/// of `lockfile`; with `BLESS=1` in the environment, record them instead. `how` is the command
/// that regenerates the file, for the messages.
///
/// # Panics
/// When a figure differs from the one recorded, a path is missing from the file or from
/// `counted`, or the toolchain or lockfile differ — each message says what to do.
pub fn check(file: &Path, lockfile: &Path, how: &str, counted: &[Counted]) {
    let toolchain = toolchain();
    let lock = lock_digest(lockfile);
    if std::env::var_os("BLESS").is_some_and(|v| v == "1") {
        let mut text = format!(
            "# Exact allocation counts (issue 72): a change may only lower them.\n# Regenerate with `{how}` after a toolchain or dependency update, or a deliberate change,\n# and say why in the commit.\ntoolchain {toolchain}\nlockfile {lock}\n"
        );
        for c in counted {
            let _ = writeln!(
                text,
                "{} allocations={} bytes={}",
                c.name, c.allocations, c.bytes
            );
        }
        std::fs::write(file, text)
            .unwrap_or_else(|e| panic!("cannot write {}: {e}", file.display()));
        return;
    }
    let text = std::fs::read_to_string(file).unwrap_or_else(|e| {
        panic!(
            "no recorded allocation counts at {} ({e}): record them with `{how}`",
            file.display()
        )
    });
    let mut recorded_toolchain = "";
    let mut recorded_lock = "";
    let mut recorded = Vec::new();
    for line in text
        .lines()
        .filter(|l| !l.starts_with('#') && !l.trim().is_empty())
    {
        if let Some(t) = line.strip_prefix("toolchain ") {
            recorded_toolchain = t.trim();
        } else if let Some(l) = line.strip_prefix("lockfile ") {
            recorded_lock = l.trim();
        } else {
            let mut words = line.split_whitespace();
            let name = words.next().unwrap_or_default();
            let field = |prefix: &str, word: Option<&str>| -> u64 {
                word.and_then(|w| w.strip_prefix(prefix))
                    .and_then(|n| n.parse().ok())
                    .unwrap_or_else(|| {
                        panic!(
                            "{}: `{line}` is not `NAME allocations=N bytes=N`",
                            file.display()
                        )
                    })
            };
            let allocations = field("allocations=", words.next());
            let bytes = field("bytes=", words.next());
            recorded.push((name.to_owned(), allocations, bytes));
        }
    }
    assert!(
        recorded_toolchain == toolchain && recorded_lock == lock,
        "the allocation counts in {} were recorded under `{recorded_toolchain}` and lockfile {recorded_lock}; this build is `{toolchain}` with lockfile {lock}. Exact counts hold for one toolchain and one set of dependencies: regenerate them with `{how}` and review the diff",
        file.display()
    );
    let mut wrong = Vec::new();
    for c in counted {
        match recorded.iter().find(|(name, _, _)| name == c.name) {
            None => wrong.push(format!("{}: not recorded", c.name)),
            Some((_, allocations, bytes)) => {
                for (what, was, now, slack) in [
                    ("allocations", *allocations, c.allocations, 0),
                    ("bytes", *bytes, c.bytes, c.bytes_slack),
                ] {
                    if now.abs_diff(was) <= slack {
                        continue;
                    }
                    if now > was {
                        wrong.push(format!(
                            "{}: {what} rose from {was} to {now} — a change may only lower them; find the new allocation, or, if it is deliberate, regenerate and say why in the commit",
                            c.name
                        ));
                    } else if now < was {
                        wrong.push(format!(
                            "{}: {what} fell from {was} to {now} — record the lower figure so the bound tightens",
                            c.name
                        ));
                    }
                }
            }
        }
    }
    for (name, _, _) in &recorded {
        if !counted.iter().any(|c| c.name == name) {
            wrong.push(format!("{name}: recorded but no longer measured"));
        }
    }
    assert!(
        wrong.is_empty(),
        "allocation counts differ from {}:\n  {}\n(regenerate with `{how}`)",
        file.display(),
        wrong.join("\n  ")
    );
}
