//! Where Smith keeps its files, resolved once per invocation from the
//! environment: `SMITH_HOME` first, then the XDG base directories (only absolute values
//! count, as the XDG Base Directory specification says), then `HOME`. A relative
//! `SMITH_HOME` is resolved against the working directory once, here, and the frontend says
//! so ([`Paths::relative_home`]): every later path is absolute.
//!
//! | what | with `SMITH_HOME=X` | else |
//! | --- | --- | --- |
//! | user configuration | `X/config.kdl` | `$XDG_CONFIG_HOME/smith/config.kdl`, `~/.config/smith/config.kdl` |
//! | models file | beside the user configuration: `models.kdl` | |
//! | sessions | `X/sessions/` | `$XDG_DATA_HOME/smith/sessions/`, `~/.local/share/smith/sessions/` |
//! | trust records, auth file | `X/trust.kdl`, `X/auth.kdl` | `$XDG_DATA_HOME/smith/…`, `~/.local/share/smith/…` |
//! | working-tree history (snapshot repositories) | `X/vcs/` | `$XDG_DATA_HOME/smith/vcs/`, `~/.local/share/smith/vcs/` |
//! | compile cache | `$SMITH_CACHE_HOME/components`, `X/cache/components` | `$XDG_CACHE_HOME/smith/components`, `~/.cache/smith/components` |

use std::ffi::OsString;
use std::path::{Path, PathBuf};

/// A file or directory no home variable leads to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Place {
    /// The sessions directory.
    Sessions,
    /// The trust records.
    TrustRecords,
    /// The auth file.
    AuthFile,
    /// The user configuration file.
    UserConfig,
    /// The working-tree history's snapshot repositories.
    History,
    /// The installed plugins.
    Plugins,
}

impl std::fmt::Display for Place {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::Sessions => "sessions",
            Self::TrustRecords => "trust records",
            Self::AuthFile => "the auth file",
            Self::UserConfig => "the user configuration",
            Self::History => "working-tree snapshots",
            Self::Plugins => "installed plugins",
        })
    }
}

/// None of `SMITH_HOME`, the XDG variable for `place` and `HOME` is set.
#[derive(Clone, Copy, Debug, PartialEq, Eq, thiserror::Error)]
#[error(
    "cannot tell where {place} live: none of SMITH_HOME, {xdg} or HOME is set; set SMITH_HOME to a writable directory"
)]
pub struct NoHome {
    /// What could not be placed.
    pub place: Place,
    /// The XDG variable that would have placed it.
    pub xdg: &'static str,
}

/// The paths of one invocation. Every field is `None` when no variable leads to it; the
/// accessors that need one say so with [`NoHome`].
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Paths {
    smith_home: Option<PathBuf>,
    relative_home: Option<PathBuf>,
    sessions: Option<PathBuf>,
    user_config: Option<PathBuf>,
    data: Option<PathBuf>,
    compile_cache: Option<PathBuf>,
    home: Option<PathBuf>,
}

impl Paths {
    /// The paths the process environment gives.
    pub fn from_env() -> Self {
        Self::from_vars(|name| std::env::var_os(name))
    }

    /// The paths the variables `var` returns give (`None` or empty: unset); a relative
    /// `SMITH_HOME` is resolved against the process's working directory.
    pub fn from_vars(var: impl Fn(&str) -> Option<OsString>) -> Self {
        let set = |name: &str| var(name).filter(|v| !v.is_empty()).map(PathBuf::from);
        let absolute = |name: &str| set(name).filter(|p| p.is_absolute());
        let given_home = set("SMITH_HOME");
        let relative_home = given_home.clone().filter(|h| h.is_relative());
        let smith_home = given_home.map(|h| std::path::absolute(&h).unwrap_or(h));
        let home = set("HOME");
        let data = smith_home.clone().or_else(|| {
            absolute("XDG_DATA_HOME")
                .map(|d| d.join("smith"))
                .or_else(|| home.as_ref().map(|h| h.join(".local/share/smith")))
        });
        let sessions = smith_home.as_ref().map_or_else(
            || {
                absolute("XDG_DATA_HOME")
                    .map(|d| d.join("smith").join("sessions"))
                    .or_else(|| {
                        home.as_ref().map(|h| {
                            h.join(".local")
                                .join("share")
                                .join("smith")
                                .join("sessions")
                        })
                    })
            },
            |h| Some(h.join("sessions")),
        );
        let user_config = smith_home.as_ref().map_or_else(
            || {
                absolute("XDG_CONFIG_HOME")
                    .map(|c| c.join("smith").join("config.kdl"))
                    .or_else(|| {
                        home.as_ref()
                            .map(|h| h.join(".config").join("smith").join("config.kdl"))
                    })
            },
            |h| Some(h.join("config.kdl")),
        );
        let compile_cache = set("SMITH_CACHE_HOME")
            .map(|c| c.join("components"))
            .or_else(|| {
                smith_home
                    .as_ref()
                    .map(|h| h.join("cache").join("components"))
            })
            .or_else(|| absolute("XDG_CACHE_HOME").map(|c| c.join("smith").join("components")))
            .or_else(|| {
                home.as_ref()
                    .map(|h| h.join(".cache").join("smith").join("components"))
            });
        Self {
            smith_home,
            relative_home,
            sessions,
            user_config,
            data,
            compile_cache,
            home: home.filter(|h| h.is_absolute()),
        }
    }

    /// `SMITH_HOME`, absolute, when it is set.
    pub fn smith_home(&self) -> Option<&Path> {
        self.smith_home.as_deref()
    }

    /// `(as given, as resolved)` when `SMITH_HOME` was a relative path: the frontend tells the
    /// user where it led (a relative home leads somewhere else from every directory).
    pub fn relative_home(&self) -> Option<(&Path, &Path)> {
        Some((self.relative_home.as_deref()?, self.smith_home.as_deref()?))
    }

    /// The sessions directory.
    ///
    /// # Errors
    /// [`NoHome`] when no variable leads to it.
    pub fn sessions(&self) -> Result<&Path, NoHome> {
        self.sessions.as_deref().ok_or(NoHome {
            place: Place::Sessions,
            xdg: "XDG_DATA_HOME",
        })
    }

    /// The user configuration file, when a variable leads to it.
    pub fn user_config(&self) -> Option<&Path> {
        self.user_config.as_deref()
    }

    /// The user configuration file.
    ///
    /// # Errors
    /// [`NoHome`] when no variable leads to it.
    pub fn require_user_config(&self) -> Result<&Path, NoHome> {
        self.user_config().ok_or(NoHome {
            place: Place::UserConfig,
            xdg: "XDG_CONFIG_HOME",
        })
    }

    /// The user's `models.kdl`: beside the user configuration file.
    pub fn models_file(&self) -> Option<PathBuf> {
        self.user_config().map(|c| c.with_file_name("models.kdl"))
    }

    /// The trust records (`trust.kdl`).
    ///
    /// # Errors
    /// [`NoHome`] when no variable leads to them.
    pub fn trust_file(&self) -> Result<PathBuf, NoHome> {
        self.data
            .as_ref()
            .map(|d| d.join("trust.kdl"))
            .ok_or(NoHome {
                place: Place::TrustRecords,
                xdg: "XDG_DATA_HOME",
            })
    }

    /// The auth file (`auth.kdl`, mode 0600), beside the trust records.
    ///
    /// # Errors
    /// [`NoHome`] when no variable leads to it.
    pub fn auth_file(&self) -> Result<PathBuf, NoHome> {
        self.data
            .as_ref()
            .map(|d| d.join("auth.kdl"))
            .ok_or(NoHome {
                place: Place::AuthFile,
                xdg: "XDG_DATA_HOME",
            })
    }

    /// The directory of the working-tree history: one Smith-owned bare git repository of
    /// snapshots per project (`vcs/NAME-KEY.git`), beside the sessions.
    ///
    /// # Errors
    /// [`NoHome`] when no variable leads to it.
    pub fn history(&self) -> Result<PathBuf, NoHome> {
        self.data.as_ref().map(|d| d.join("vcs")).ok_or(NoHome {
            place: Place::History,
            xdg: "XDG_DATA_HOME",
        })
    }

    /// Where plugins' project and user state is kept (`state/`, beside the sessions); `None`
    /// when no variable leads to a data home.
    pub fn state(&self) -> Option<PathBuf> {
        self.data.as_ref().map(|d| d.join("state"))
    }

    /// The installed plugins' directory (`plugins/ID/` each, and their records
    /// `plugins/installed.kdl`), beside the sessions.
    ///
    /// # Errors
    /// [`NoHome`] when no variable leads to it.
    pub fn plugins(&self) -> Result<PathBuf, NoHome> {
        self.data.as_ref().map(|d| d.join("plugins")).ok_or(NoHome {
            place: Place::Plugins,
            xdg: "XDG_DATA_HOME",
        })
    }

    /// Where catalog refreshes keep what each provider's server listed
    /// (`catalog/refreshed/PROVIDER.json`, beside the sessions); `None` when no variable leads
    /// to a data home.
    pub fn refreshed_catalog(&self) -> Option<PathBuf> {
        self.data
            .as_ref()
            .map(|d| d.join("catalog").join("refreshed"))
    }

    /// The user's secret store (`secrets.kdl`, mode 0600), beside the auth file; `None` when no
    /// variable leads to it.
    pub fn secrets_file(&self) -> Option<PathBuf> {
        self.data.as_ref().map(|d| d.join("secrets.kdl"))
    }

    /// The compile cache of plugin components; `None` (compile every time) when no variable
    /// leads to it.
    pub fn compile_cache(&self) -> Option<&Path> {
        self.compile_cache.as_deref()
    }
}

impl Paths {
    /// The directory of the user configuration file (`SMITH_HOME`, else
    /// `$XDG_CONFIG_HOME/smith`, else `~/.config/smith`): where the user's own standing
    /// context (`AGENTS.md`) lives.
    pub fn user_config_dir(&self) -> Option<&Path> {
        self.user_config.as_deref().and_then(Path::parent)
    }

    /// The home directory (`HOME`), when it is set and absolute.
    pub fn home(&self) -> Option<&Path> {
        self.home.as_deref()
    }
}

/// The directories standing context files are read from for a session in `cwd`, in order: the
/// user's configuration directory, then the project root — the nearest directory at or above
/// `cwd` holding `.git` (the git work tree's root), never above the home directory when `cwd`
/// is inside it; `cwd` itself when there is none — down to `cwd`. Canonical paths, each once.
pub fn context_dirs(paths: &Paths, cwd: &Path) -> Vec<PathBuf> {
    let cwd = cwd.canonicalize().unwrap_or_else(|_| cwd.to_owned());
    let home = paths
        .home()
        .map(|h| h.canonicalize().unwrap_or_else(|_| h.to_owned()));
    let bound = home.as_deref().filter(|h| cwd.starts_with(h));
    let mut chain: Vec<&Path> = Vec::new();
    let mut root = None;
    for dir in cwd.ancestors() {
        chain.push(dir);
        if dir.join(".git").exists() {
            root = Some(chain.len());
            break;
        }
        if Some(dir) == bound {
            break;
        }
    }
    let from_root: Vec<PathBuf> = match root {
        Some(n) => chain[..n].iter().rev().map(|d| d.to_path_buf()).collect(),
        None => vec![cwd.clone()],
    };
    let mut out: Vec<PathBuf> = paths
        .user_config_dir()
        .map(|d| d.canonicalize().unwrap_or_else(|_| d.to_owned()))
        .into_iter()
        .collect();
    for dir in from_root {
        if !out.contains(&dir) {
            out.push(dir);
        }
    }
    out
}

/// The project of `dir`: the nearest directory at or above it holding `.smith/`, canonical;
/// `None` when there is none (or `dir` cannot be resolved).
pub fn project_of(dir: &Path) -> Option<PathBuf> {
    let dir = dir.canonicalize().ok()?;
    dir.ancestors()
        .find(|d| d.join(".smith").is_dir())
        .map(Path::to_path_buf)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn paths(vars: &[(&str, &str)]) -> Paths {
        let vars: Vec<(String, String)> = vars
            .iter()
            .map(|(k, v)| ((*k).to_owned(), (*v).to_owned()))
            .collect();
        Paths::from_vars(|name| {
            vars.iter()
                .find(|(k, _)| k == name)
                .map(|(_, v)| OsString::from(v))
        })
    }

    #[test]
    fn smith_home_places_everything_under_it() {
        let p = paths(&[
            ("SMITH_HOME", "/s"),
            ("HOME", "/h"),
            ("XDG_DATA_HOME", "/x"),
        ]);
        assert_eq!(p.sessions().unwrap(), Path::new("/s/sessions"));
        assert_eq!(p.user_config().unwrap(), Path::new("/s/config.kdl"));
        assert_eq!(p.models_file().unwrap(), Path::new("/s/models.kdl"));
        assert_eq!(p.trust_file().unwrap(), Path::new("/s/trust.kdl"));
        assert_eq!(p.auth_file().unwrap(), Path::new("/s/auth.kdl"));
        assert_eq!(p.compile_cache().unwrap(), Path::new("/s/cache/components"));
    }

    #[test]
    fn xdg_counts_only_when_absolute_and_home_is_the_last_resort() {
        let p = paths(&[
            ("HOME", "/h"),
            ("XDG_DATA_HOME", "relative"),
            ("XDG_CONFIG_HOME", "/c"),
            ("XDG_CACHE_HOME", "/k"),
        ]);
        assert_eq!(
            p.sessions().unwrap(),
            Path::new("/h/.local/share/smith/sessions")
        );
        assert_eq!(
            p.trust_file().unwrap(),
            Path::new("/h/.local/share/smith/trust.kdl")
        );
        assert_eq!(p.user_config().unwrap(), Path::new("/c/smith/config.kdl"));
        assert_eq!(p.compile_cache().unwrap(), Path::new("/k/smith/components"));
        let p = paths(&[("HOME", "/h"), ("SMITH_CACHE_HOME", "/cc")]);
        assert_eq!(p.compile_cache().unwrap(), Path::new("/cc/components"));
    }

    #[test]
    fn context_dirs_run_from_the_config_dir_then_the_git_root_down_to_cwd() {
        let tmp = tempfile::tempdir().unwrap();
        let base = tmp.path().canonicalize().unwrap();
        let home = base.join("home");
        let repo = home.join("repo");
        let deep = repo.join("a").join("b");
        std::fs::create_dir_all(&deep).unwrap();
        std::fs::create_dir_all(repo.join(".git")).unwrap();
        let config = base.join("smith-home");
        std::fs::create_dir_all(&config).unwrap();
        let p = paths(&[
            ("SMITH_HOME", config.to_str().unwrap()),
            ("HOME", home.to_str().unwrap()),
        ]);
        assert_eq!(
            context_dirs(&p, &deep),
            [config.clone(), repo.clone(), repo.join("a"), deep.clone()]
        );
        // Without a work tree, the search stops at the home directory: only cwd is read.
        let loose = home.join("loose").join("x");
        std::fs::create_dir_all(&loose).unwrap();
        std::fs::create_dir_all(base.join(".git")).unwrap();
        assert_eq!(context_dirs(&p, &loose), [config, loose]);
    }

    #[test]
    fn no_home_is_an_error_naming_what_to_set() {
        let p = paths(&[("SMITH_HOME", "")]);
        let e = p.sessions().unwrap_err();
        assert_eq!(e.place, Place::Sessions);
        assert!(e.to_string().contains("set SMITH_HOME"), "{e}");
        assert!(p.user_config().is_none() && p.compile_cache().is_none());
        assert!(p.auth_file().is_err() && p.trust_file().is_err());
    }
}
