//! `cargo xtask bench`: speed and memory figures, printed as figure / target / measured.
//!
//! Targets come from the issues and the spec; a miss is reported, never a failure.

use std::path::Path;
use std::process::{Command, Stdio};
use std::time::{Duration, Instant};

use crate::{cargo, root, run as run_cmd};

mod tables;

struct Figure {
    name: &'static str,
    target: String,
    measured: String,
    met: Option<bool>,
}

pub(crate) fn run() -> Result<(), String> {
    let mut build = cargo();
    build.args(["build", "--release", "--locked", "-p", "smith-cli"]);
    run_cmd(build)?;
    let smith = root().join("target").join("release").join("smith");
    let smith = std::env::var_os("CARGO_TARGET_DIR")
        .map(|d| Path::new(&d).join("release").join("smith"))
        .unwrap_or(smith);
    let home = std::env::temp_dir().join(format!("smith-bench-{}", std::process::id()));
    std::fs::create_dir_all(&home).map_err(|e| format!("cannot create {}: {e}", home.display()))?;

    let mut figures = Vec::new();

    let help = median(50, || time(Command::new(&smith).arg("--help")))?;
    figures.push(Figure {
        name: "`smith --help` whole process, median of 50",
        target: "≤ 10 ms".into(),
        measured: ms(help),
        met: Some(help <= Duration::from_millis(10)),
    });

    let eval = |cmd: &mut Command| {
        cmd.args(["eval", "--model", "scripted/demo", "bench"])
            .env("SMITH_HOME", &home);
    };
    let turn = median(30, || {
        let mut cmd = Command::new(&smith);
        eval(&mut cmd);
        time(&mut cmd)
    })?;
    figures.push(Figure {
        name: "scripted eval turn (scripted/demo) whole process, median of 30",
        target: "report".into(),
        measured: ms(turn),
        met: None,
    });

    let xtask = std::env::current_exe().map_err(|e| format!("cannot find xtask itself: {e}"))?;
    let mut probe = Command::new(xtask);
    probe.arg("peak-rss").arg(&smith);
    eval(&mut probe);
    let out = probe
        .output()
        .map_err(|e| format!("cannot run the peak-RSS probe: {e}"))?;
    let rss = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    figures.push(Figure {
        name: "scripted eval turn peak RSS",
        target: "report".into(),
        measured: if rss.is_empty() {
            "unavailable".to_owned()
        } else {
            format!("{rss} KiB")
        },
        met: None,
    });

    let search = median(30, || {
        time(Command::new(&smith).args(["docs", "search", "session file format"]))
    })?;
    figures.push(Figure {
        name: "`smith docs search` whole process, median of 30",
        target: "≤ 20 ms".into(),
        measured: ms(search),
        met: Some(search <= Duration::from_millis(20)),
    });
    let mut probe = Command::new(std::env::current_exe().map_err(|e| e.to_string())?);
    probe
        .arg("peak-rss")
        .arg(&smith)
        .args(["docs", "search", "session file format"]);
    let out = probe
        .output()
        .map_err(|e| format!("cannot run the peak-RSS probe: {e}"))?;
    let rss = String::from_utf8_lossy(&out.stdout).trim().to_owned();
    figures.push(Figure {
        name: "`smith docs search` peak RSS",
        target: "report".into(),
        measured: format!("{rss} KiB"),
        met: None,
    });
    for example in tables::EXAMPLES {
        for (name, value) in
            example_figures_in(example.package, example.example, example.release, &smith)?
        {
            if let Some((_, label, limit)) = example.rows.iter().find(|(n, _, _)| *n == name) {
                figures.push(limit.figure(label, value));
            }
        }
    }

    let _ = std::fs::remove_dir_all(&home);
    println!("{:<66} {:>10} {:>12}", "figure", "target", "measured");
    for f in &figures {
        let mark = match f.met {
            Some(true) => "met",
            Some(false) => "MISSED",
            None => "",
        };
        println!("{:<66} {:>10} {:>12}  {mark}", f.name, f.target, f.measured);
    }
    Ok(())
}

/// How a bench example's figure is judged.
#[derive(Clone, Copy)]
enum Limit {
    /// Milliseconds with a target: met when at most this.
    Ms(f64),
    /// Milliseconds, reported only.
    ReportMs,
    /// Milliseconds of an optional outside tool, reported only; negative: not installed.
    ReportMsIfInstalled,
    /// A count (or size), reported only.
    ReportCount,
    /// A peak RSS in KiB with a target in MiB.
    RssMib(f64),
    /// A ratio of two figures of one run, with a target: met when at most this.
    Ratio(f64),
}

impl Limit {
    fn figure(self, name: &'static str, value: f64) -> Figure {
        let (target, measured, met) = match self {
            Limit::Ms(limit) => (
                format!("≤ {limit} ms"),
                format!("{value:.3} ms"),
                Some(value <= limit),
            ),
            Limit::ReportMs => ("report".to_owned(), format!("{value:.3} ms"), None),
            Limit::ReportMsIfInstalled if value < 0.0 => {
                ("report".to_owned(), "not installed".to_owned(), None)
            }
            Limit::ReportMsIfInstalled => ("report".to_owned(), format!("{value:.3} ms"), None),
            Limit::ReportCount => ("report".to_owned(), format!("{value}"), None),
            Limit::RssMib(limit) => (
                format!("≤ {limit} MiB"),
                format!("{:.1} MiB", value / 1024.0),
                Some(value <= limit * 1024.0),
            ),
            Limit::Ratio(limit) => (
                format!("≤ {limit}×"),
                format!("{value:.2}×"),
                Some(value <= limit),
            ),
        };
        Figure {
            name,
            target,
            measured,
            met,
        }
    }
}

/// Run a bench example of `package` (in release or debug) and read its `name value` lines.
/// Run a bench example and read its `name value` lines. It is told the release `smith`
/// (`SMITH_BENCH_SMITH`) and, when `.ci/run` installed it, the Python with the MCP SDK
/// (`SMITH_MCP_PYTHON`), for the figures that use them.
fn example_figures_in(
    package: &str,
    example: &str,
    release: bool,
    smith: &Path,
) -> Result<Vec<(String, f64)>, String> {
    let mut cmd = cargo();
    cmd.env("SMITH_BENCH_SMITH", smith);
    let python = root().join("xtask/mcp/.venv/bin/python");
    if std::env::var_os("SMITH_MCP_PYTHON").is_none() && python.exists() {
        cmd.env("SMITH_MCP_PYTHON", python);
    }
    cmd.arg("run");
    if release {
        cmd.arg("--release");
    }
    cmd.args(["--quiet", "--locked", "-p", package, "--example", example]);
    let out = cmd
        .current_dir(root())
        .output()
        .map_err(|e| format!("cannot run the {example} bench: {e}"))?;
    if !out.status.success() {
        return Err(format!(
            "the {example} bench failed: {}",
            String::from_utf8_lossy(&out.stderr)
        ));
    }
    Ok(String::from_utf8_lossy(&out.stdout)
        .lines()
        .filter_map(|line| {
            let (name, value) = line.split_once(' ')?;
            Some((name.to_owned(), value.parse().unwrap_or(f64::NAN)))
        })
        .collect())
}

fn ms(d: Duration) -> String {
    format!("{:.2} ms", d.as_secs_f64() * 1000.0)
}

fn time(cmd: &mut Command) -> Result<Duration, String> {
    let start = Instant::now();
    let status = cmd
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run {cmd:?}: {e}"))?;
    let took = start.elapsed();
    if status.success() {
        Ok(took)
    } else {
        Err(format!("{cmd:?} failed with {status}"))
    }
}

fn median(
    n: usize,
    mut sample: impl FnMut() -> Result<Duration, String>,
) -> Result<Duration, String> {
    sample()?; // warm the page cache
    let mut samples = (0..n).map(|_| sample()).collect::<Result<Vec<_>, _>>()?;
    samples.sort();
    Ok(samples[n / 2])
}

/// `xtask peak-rss CMD ARGS…`: run one command (its environment inherited) and print its peak
/// resident set size in KiB. A fresh process per probe, so the children's maximum is the
/// command's own.
pub(crate) fn peak_rss(args: &[String]) -> Result<(), String> {
    let Some((program, rest)) = args.split_first() else {
        return Err("usage: xtask peak-rss CMD [ARGS…]".to_owned());
    };
    let status = Command::new(program)
        .args(rest)
        .stdout(Stdio::null())
        .stderr(Stdio::null())
        .status()
        .map_err(|e| format!("cannot run {program}: {e}"))?;
    if !status.success() {
        return Err(format!("{program} failed with {status}"));
    }
    #[cfg(unix)]
    {
        use nix::sys::resource::{UsageWho, getrusage};
        let usage = getrusage(UsageWho::RUSAGE_CHILDREN).map_err(|e| format!("getrusage: {e}"))?;
        println!("{}", usage.max_rss());
    }
    Ok(())
}
