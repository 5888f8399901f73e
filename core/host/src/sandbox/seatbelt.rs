//! The macOS backend's policy: a Seatbelt profile (SBPL) with the same meaning as the Linux
//! confinement, for `sandbox-exec -p PROFILE -- PROGRAM ARGS…`.
//!
//! Generated and unit-tested as text only: this project's machines cannot run macOS, so the
//! profile is unproven there (the sandbox guide says so), and process effects on macOS are
//! refused until it is ([`super::Sandbox::check`]). In SBPL a later rule overrides an earlier
//! one, so the denials follow the allowances they narrow.

use std::fmt::Write as _;
use std::path::Path;

use super::{Confinement, Mode, Network};

/// `path` as an SBPL string literal.
fn quoted(path: &Path) -> String {
    let text = path.to_string_lossy();
    let mut out = String::with_capacity(text.len() + 2);
    out.push('"');
    for c in text.chars() {
        if c == '"' || c == '\\' {
            out.push('\\');
        }
        out.push(c);
    }
    out.push('"');
    out
}

/// The profile for `spec`.
pub fn profile(spec: &Confinement) -> String {
    let mut p = String::from(
        "(version 1)\n\
         (deny default)\n\
         ; processes: run, fork, and signal only within the sandbox\n\
         (allow process-exec process-fork)\n\
         (allow signal (target same-sandbox))\n\
         (allow sysctl-read)\n\
         (allow mach-lookup)\n\
         (allow ipc-posix-sem ipc-posix-shm)\n\
         ; reads everywhere, then the deny list\n\
         (allow file-read*)\n",
    );
    for path in &spec.hidden {
        let _ = writeln!(p, "(deny file-read* (subpath {}))", quoted(path));
    }
    p.push_str("; writes: the device files, then the writable roots\n");
    p.push_str(
        "(allow file-write* (literal \"/dev/null\") (literal \"/dev/zero\") (literal \"/dev/tty\"))\n",
    );
    if spec.mode != Mode::FullAccess {
        for root in &spec.writable {
            let _ = writeln!(p, "(allow file-write* (subpath {}))", quoted(root));
        }
        for path in &spec.protected {
            let _ = writeln!(p, "(deny file-write* (subpath {}))", quoted(path));
        }
        for dir in &spec.pinned {
            // The directory itself may not be renamed or removed; its contents stay writable.
            let _ = writeln!(p, "(deny file-write-unlink (literal {}))", quoted(dir));
        }
    }
    match spec.network {
        Network::Allow => p.push_str("; network allowed\n(allow network*)\n"),
        Network::Deny => {
            p.push_str("; network denied: no sockets out, Unix sockets included\n(deny network*)\n")
        }
    }
    p
}

#[cfg(test)]
mod tests {
    use super::*;
    use std::path::PathBuf;

    fn spec(mode: Mode, network: Network) -> Confinement {
        Confinement {
            mode,
            network,
            writable: vec![PathBuf::from("/tmp/smith-x"), PathBuf::from("/p")],
            protected: vec![PathBuf::from("/p/.smith"), PathBuf::from("/p/.git/hooks")],
            pinned: vec![PathBuf::from("/p/.git")],
            hidden: vec![
                PathBuf::from("/Users/a/.ssh"),
                PathBuf::from("/Users/a/q\"uote"),
            ],
            nonce: 1,
            made: Vec::new(),
        }
    }

    #[test]
    fn the_profile_denies_by_default_and_narrows_after_allowing() {
        let p = profile(&spec(Mode::WorkspaceWrite, Network::Deny));
        assert!(p.starts_with("(version 1)\n(deny default)\n"), "{p}");
        let read = p.find("(allow file-read*)").unwrap();
        let hidden = p
            .find("(deny file-read* (subpath \"/Users/a/.ssh\"))")
            .unwrap();
        assert!(
            read < hidden,
            "the deny list must follow the read allowance:\n{p}"
        );
        let root = p.find("(allow file-write* (subpath \"/p\"))").unwrap();
        let hooks = p
            .find("(deny file-write* (subpath \"/p/.git/hooks\"))")
            .unwrap();
        assert!(root < hooks, "protected paths must follow their root:\n{p}");
        assert!(
            p.contains("(deny file-write-unlink (literal \"/p/.git\"))"),
            "{p}"
        );
        assert!(p.contains("(deny network*)"), "{p}");
        assert!(!p.contains("(allow network*)"), "{p}");
        assert!(
            p.contains("(subpath \"/Users/a/q\\\"uote\")"),
            "quotes escaped:\n{p}"
        );
    }

    #[test]
    fn read_only_writes_only_its_temporary_directory_and_allow_opens_the_network() {
        let mut s = spec(Mode::ReadOnly, Network::Allow);
        s.writable = vec![PathBuf::from("/tmp/smith-x")];
        s.protected.clear();
        s.pinned.clear();
        let p = profile(&s);
        assert!(
            p.contains("(allow file-write* (subpath \"/tmp/smith-x\"))"),
            "{p}"
        );
        assert!(!p.contains("(subpath \"/p\")"), "{p}");
        assert!(p.contains("(allow network*)"), "{p}");
    }
}
