//! `smith-sandbox`: the sandbox launcher alone, installed beside `smith`. `smith` starts it as
//! `smith-sandbox __sandbox SPEC -- PROGRAM ARGS…` for every program a tool runs; it confines
//! itself and becomes the program (`smith_host::sandbox`). It links nothing else, so it starts
//! in a fraction of the time the whole `smith` binary takes; `smith __sandbox …` does the same
//! where it is missing.

use std::io::Write;
use std::process::ExitCode;

fn main() -> ExitCode {
    let mut args = std::env::args_os();
    if args
        .nth(1)
        .is_none_or(|a| a != smith_host::sandbox::LAUNCH_ARG)
    {
        let _ = writeln!(
            std::io::stderr(),
            "smith-sandbox: this is Smith's sandbox launcher, started by `smith` for each program a tool runs; it is not run by hand"
        );
        return ExitCode::from(2);
    }
    let line = smith_host::sandbox::launch(&args.collect::<Vec<_>>());
    // The line starts stderr as it is: the host matches it there.
    let _ = std::io::stderr().write_all(line.as_bytes());
    ExitCode::from(smith_host::sandbox::LAUNCH_FAILED as u8)
}
