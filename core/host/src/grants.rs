//! Grants: what a plugin may do. Everything is denied unless granted, decided by one
//! exhaustive match so a new effect cannot be added without deciding who may perform it.

use std::path::PathBuf;

/// A capability a plugin requests in its manifest.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Grant {
    /// Read files and list directories inside the granted roots.
    FsRead,
    /// Create, replace and edit files inside the granted roots.
    FsWrite,
}

impl std::str::FromStr for Grant {
    type Err = String;

    fn from_str(s: &str) -> Result<Self, String> {
        match s {
            "fs.read" => Ok(Self::FsRead),
            "fs.write" => Ok(Self::FsWrite),
            other => Err(format!(
                "unknown grant `{other}`; this Smith grants `fs.read` and `fs.write`"
            )),
        }
    }
}

impl std::fmt::Display for Grant {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(match self {
            Self::FsRead => "fs.read",
            Self::FsWrite => "fs.write",
        })
    }
}

/// An effect a plugin asks the host to perform.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Effect {
    /// `fs.read-lines`.
    ReadFile,
    /// `fs.list-dir`.
    ListDir,
    /// `fs.write-file`.
    WriteFile,
    /// `fs.edit-file`.
    EditFile,
}

impl Effect {
    /// The effect's name as recorded in the session (`fs.read`, `fs.write`…).
    pub fn name(self) -> &'static str {
        match self {
            Self::ReadFile => "fs.read",
            Self::ListDir => "fs.list",
            Self::WriteFile => "fs.write",
            Self::EditFile => "fs.edit",
        }
    }
}

/// The grants a plugin instance holds for one call: what it requested, intersected with the
/// host's policy, and the roots its file grants cover.
#[derive(Clone, Debug, Default)]
pub struct Granted {
    /// Granted capabilities.
    pub grants: Vec<Grant>,
    /// Directories file effects may touch (canonical paths); empty: none.
    pub roots: Vec<PathBuf>,
}

impl Granted {
    /// Whether `effect` is allowed. Deny by default: every effect names the grant it needs.
    pub fn allows(&self, effect: Effect) -> bool {
        let needed = match effect {
            Effect::ReadFile | Effect::ListDir => Grant::FsRead,
            Effect::WriteFile | Effect::EditFile => Grant::FsWrite,
        };
        self.grants.contains(&needed) && !self.roots.is_empty()
    }
}

/// The default policy (DESIGN §4, documented in `plugins`): a plugin gets the file grants it
/// requests, rooted in the invocation's working directory, and nothing else.
pub fn default_policy(requested: &[Grant], cwd: Option<PathBuf>) -> Granted {
    let grants = requested
        .iter()
        .copied()
        .filter(|g| match g {
            Grant::FsRead | Grant::FsWrite => true,
        })
        .collect();
    Granted {
        grants,
        roots: cwd.into_iter().collect(),
    }
}
