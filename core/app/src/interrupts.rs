//! Whether this process was started with SIGINT ignored.
//!
//! Every frontend follows one rule for SIGINT: a process its parent started with SIGINT
//! ignored (a script's `cmd &`, `nohup`) keeps ignoring it for its whole run, as Python does,
//! and installs no handler; any other process handles it from the moment its command starts,
//! before settings or plugins load, so when a signal arrives never decides whether it cancels.
//! The frontends install the handlers; this module only reads the inherited disposition.

/// SIGINT's number (POSIX; the same on every Unix Smith runs on).
const SIGINT: u32 = 2;

/// Whether SIGINT's disposition is "ignore", as a parent leaves it across `exec`.
///
/// Call it before any handler for SIGINT is installed in this process: afterwards it reports
/// the handler's disposition, not the inherited one. On Linux it reads the `SigIgn` mask of
/// `/proc/self/status` (proc(5)); where that cannot be read (another system, no `/proc`) it
/// answers `false`, and the signal is handled.
pub fn sigint_ignored() -> bool {
    std::fs::read_to_string("/proc/self/status")
        .ok()
        .and_then(|status| ignored_in(&status, SIGINT))
        .unwrap_or(false)
}

/// Whether `signal` is set in the `SigIgn:` line of a `/proc/PID/status` text (a hexadecimal
/// mask whose bit `n - 1` stands for signal `n`); `None` when the line is missing or malformed.
fn ignored_in(status: &str, signal: u32) -> Option<bool> {
    let mask = status
        .lines()
        .find_map(|line| line.strip_prefix("SigIgn:"))?
        .trim();
    let mask = u64::from_str_radix(mask, 16).ok()?;
    Some(mask & (1u64 << (signal - 1)) != 0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_sigign_mask_is_read_bit_by_signal() {
        let status =
            "Name:\tsmith\nSigBlk:\t0000000000000000\nSigIgn:\t0000000000001002\nSigCgt:\t0\n";
        assert_eq!(ignored_in(status, 2), Some(true));
        assert_eq!(ignored_in(status, 13), Some(true));
        assert_eq!(ignored_in(status, 15), Some(false));
        assert_eq!(ignored_in("Name:\tsmith\n", 2), None);
        assert_eq!(ignored_in("SigIgn:\tzz\n", 2), None);
    }
}
