//! `smith doctor [--json]`: what this machine offers Smith — for now the OS sandbox: the
//! kernel, its Landlock ABI, whether the configured mode is enforced here, and what each mode
//! enforces (the `sandbox` guide says the same at length).

use clap::Args;
use smith_host::sandbox::{Mode, Network, REQUIRED_LANDLOCK_ABI, Support};

use crate::command_error::CliError;
use crate::exit;
use crate::output::write_stdout;

pub(crate) const DOCTOR_AFTER_HELP: &str = "\
Exit status: 0 when the configured sandbox.mode can be enforced here, 1 when programs would be
refused (the report says why and what to do), 2 for a bad setting. --json prints one record.";

/// Arguments of `smith doctor`.
#[derive(Debug, Args)]
pub(crate) struct DoctorArgs {
    /// Print one JSON record instead of the report.
    #[arg(long)]
    pub(crate) json: bool,
}

/// What a mode enforces, in one line.
fn enforces(mode: Mode) -> &'static str {
    match mode {
        Mode::ReadOnly => {
            "reads everywhere except the deny list; writes only to a private TMPDIR; signals only inside"
        }
        Mode::WorkspaceWrite => {
            "reads everywhere except the deny list; writes beneath the working directory, TMPDIR and sandbox.writable-roots, never .smith/, .git/hooks or .git/config; signals only inside"
        }
        Mode::FullAccess => "no OS confinement (the programs have your whole authority)",
    }
}

/// `smith doctor`.
pub(crate) fn run(args: &DoctorArgs, global: &crate::cli::Global) -> Result<u8, CliError> {
    let cwd = std::env::current_dir().ok();
    let invocation = global.invocation(cwd.clone(), &[]);
    let paths = smith_app::Paths::from_env();
    let settings = smith_app::settings::Settings::load(&paths, &invocation)?;
    let sandbox = smith_app::sandbox::from_settings(
        &paths,
        &settings,
        cwd.as_deref().unwrap_or(std::path::Path::new(".")),
    )?;
    let support = Support::probe();
    let refusal = sandbox.check().err();
    let enforced = refusal.is_none();
    let source = settings
        .resolved
        .get("sandbox.mode")
        .map_or_else(|| "default".to_owned(), |v| v.source.to_string());
    if args.json {
        let record = serde_json::json!({
            "type": "sandbox",
            "kernel": support.kernel,
            "landlock_abi": support.landlock_abi,
            "required_landlock_abi": REQUIRED_LANDLOCK_ABI,
            "mode": sandbox.mode.name(),
            "mode_source": source,
            "network": sandbox.network.name(),
            "enforced": enforced,
            "refusal": refusal.as_ref().map(ToString::to_string),
            "deny_read": sandbox.deny_read,
            "writable_roots": sandbox.writable_roots,
            "modes": Mode::ALL.iter().map(|m| serde_json::json!({
                "mode": m.name(),
                "enforces": enforces(*m),
                "available": *m == Mode::FullAccess || support.enforces(),
            })).collect::<Vec<_>>(),
        });
        write_stdout(&format!("{record}\n"))?;
    } else {
        let mut text = format!(
            "sandbox: {} — Landlock ABI {} (needs {REQUIRED_LANDLOCK_ABI})\n  configured: {} ({source}), network {}: {}\n",
            support.kernel,
            support.landlock_abi,
            sandbox.mode,
            match sandbox.network {
                Network::Allow => "allowed",
                Network::Deny => "denied",
            },
            if enforced {
                "enforced here"
            } else {
                "NOT enforceable here — programs are refused"
            },
        );
        for mode in Mode::ALL {
            let available = mode == Mode::FullAccess || support.enforces();
            text.push_str(&format!(
                "  {:<16} {}{}\n",
                mode.name(),
                enforces(mode),
                if available {
                    ""
                } else {
                    " — not available on this kernel"
                }
            ));
        }
        text.push_str(&format!(
            "  hidden from programs: {}\n",
            sandbox
                .deny_read
                .iter()
                .filter(|p| p.exists())
                .map(|p| p.display().to_string())
                .collect::<Vec<_>>()
                .join(", ")
        ));
        write_stdout(&text)?;
    }
    if let Some(why) = refusal {
        exit::report(&why.to_string());
        return Ok(exit::RUN_FAILED);
    }
    Ok(exit::SUCCESS)
}
