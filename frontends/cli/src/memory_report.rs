//! `SMITH_MEMORY_REPORT=FILE`: the process's memory scope table (spec: Performance and
//! portability → Memory accounting), written to FILE when the process exits normally.

use std::path::Path;

/// The environment variable naming the report's file.
pub const VARIABLE: &str = "SMITH_MEMORY_REPORT";

/// Write the scope table to the file `SMITH_MEMORY_REPORT` names, if it names one. A file that
/// cannot be written gets a warning on stderr; the run's outcome is unaffected.
pub fn write_at_exit() {
    let Some(path) = std::env::var_os(VARIABLE).filter(|p| !p.is_empty()) else {
        return;
    };
    let report = smith_memory::report().to_string();
    if let Err(e) = std::fs::write(&path, report) {
        let line = format!(
            "smith: warning: the memory report could not be written to {} ({VARIABLE}): {e}; the run is unaffected — name a file in a writable directory\n",
            Path::new(&path).display()
        );
        // Best effort: a closed stderr must not fail the run.
        let _ = std::io::Write::write_all(&mut std::io::stderr().lock(), line.as_bytes());
    }
}
