//! Files that configure Smith or git, which a file tool writes only when a policy handler
//! explicitly allows it (the permission policy asks, in every mode but `plan`, which refuses):
//! anything under a `.smith/` directory (a project's settings and its rules), and anything in
//! a `.git` directory or a worktree's `.git` file (config, hooks, a submodule's config, which
//! git runs unconfined: `core.fsmonitor`, hooks; a `gitdir:` pointing elsewhere).
//! The OS sandbox holds the same places read-only for programs (`sandbox/`).

use std::path::{Component, Path, PathBuf};

/// What `target` (a file tool's path, relative to `root` or absolute) configures, when it is
/// one of the protected files: `Smith's settings` or `git's configuration` (anything under
/// `.git`). Checked on the
/// path as written and on the real path of its deepest existing directory, so a symbolic link
/// to a protected directory is no way around it.
pub(crate) fn protected(root: &Path, target: &str) -> Option<&'static str> {
    let joined = root.join(target);
    let lexical = normal(&joined);
    if let Some(what) = configures(&lexical) {
        return Some(what);
    }
    let mut existing = lexical.as_path();
    while !existing.exists() {
        existing = existing.parent()?;
    }
    let real = existing.canonicalize().ok()?;
    let rest = lexical.strip_prefix(existing).ok()?;
    configures(&real.join(rest))
}

/// `path` with `.` and `..` resolved lexically.
fn normal(path: &Path) -> PathBuf {
    let mut out = PathBuf::new();
    for c in path.components() {
        match c {
            Component::ParentDir => {
                out.pop();
            }
            Component::CurDir => {}
            other => out.push(other),
        }
    }
    out
}

fn configures(path: &Path) -> Option<&'static str> {
    let names: Vec<&std::ffi::OsStr> = path
        .components()
        .filter_map(|c| match c {
            Component::Normal(n) => Some(n),
            _ => None,
        })
        .collect();
    for name in &names {
        if *name == ".smith" {
            return Some("Smith's settings");
        }
        // A repository's directory (its config, a submodule's, hooks, the worktree config) or
        // a worktree's `.git` file (whose `gitdir:` could point git at a planted config).
        if *name == ".git" {
            return Some("git's configuration");
        }
    }
    None
}

#[cfg(test)]
mod tests {
    use super::protected;

    #[test]
    fn settings_and_git_configuration_are_protected_as_written_and_through_links() {
        let root = tempfile::tempdir().unwrap();
        let r = root.path();
        for (target, what) in [
            (".smith/config.kdl", Some("Smith's settings")),
            ("sub/../.smith/x", Some("Smith's settings")),
            ("sub/.smith/config.kdl", Some("Smith's settings")),
            (".git/config", Some("git's configuration")),
            (".git/hooks/pre-commit", Some("git's configuration")),
            (".git/HEAD", Some("git's configuration")),
            (".git", Some("git's configuration")),
            (".git/modules/m/config", Some("git's configuration")),
            (".git/config.worktree", Some("git's configuration")),
            ("src/main.rs", None),
            ("smith/config.kdl", None),
        ] {
            assert_eq!(protected(r, target), what, "{target}");
        }
        std::fs::create_dir(r.join(".smith")).unwrap();
        std::os::unix::fs::symlink(r.join(".smith"), r.join("s")).unwrap();
        assert_eq!(protected(r, "s/config.kdl"), Some("Smith's settings"));
        let abs = r.join(".git/config");
        assert_eq!(
            protected(r, abs.to_str().unwrap()),
            Some("git's configuration")
        );
    }
}
