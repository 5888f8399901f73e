//! The user's permission settings every policy event carries (`permissions.*`): the session's
//! permission mode and the allow, ask and deny rules (the permissions guide).

use crate::policy::wit;

/// The permission mode of a session (`permissions.mode`): what the bundled `permissions`
/// plugin lets run without asking. Defined by the permissions guide.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PermissionMode {
    /// Read-only: every write, program and network effect is refused with a reason.
    Plan,
    /// Reads run; writes and programs ask.
    Ask,
    /// Reads and writes inside the project run; programs ask.
    AutoEdit,
    /// What the OS sandbox permits runs.
    #[default]
    Auto,
}

impl PermissionMode {
    /// Every mode, in the order a frontend cycles through them.
    pub const ALL: [Self; 4] = [Self::Plan, Self::Ask, Self::AutoEdit, Self::Auto];

    /// The mode's name as settings write it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Plan => "plan",
            Self::Ask => "ask",
            Self::AutoEdit => "auto-edit",
            Self::Auto => "auto",
        }
    }

    /// The next mode in [`Self::ALL`], wrapping.
    #[must_use]
    pub fn next(self) -> Self {
        let at = Self::ALL.iter().position(|m| *m == self).unwrap_or(0);
        Self::ALL[(at + 1) % Self::ALL.len()]
    }
}

impl std::fmt::Display for PermissionMode {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.name())
    }
}

impl std::str::FromStr for PermissionMode {
    type Err = String;

    /// Parse a mode's name; the error lists the names.
    fn from_str(s: &str) -> Result<Self, String> {
        Self::ALL
            .into_iter()
            .find(|m| m.name() == s)
            .ok_or_else(|| "one of plan, ask, auto-edit, auto".to_owned())
    }
}

/// The user's permission settings every policy event carries (`permissions.*`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Permissions {
    /// The mode.
    pub mode: PermissionMode,
    /// Rules that allow (`bash(git status*)`).
    pub allow: Vec<String>,
    /// Rules that ask.
    pub ask: Vec<String>,
    /// Rules that deny.
    pub deny: Vec<String>,
    /// The project's configuration file where a policy handler may add allow rules the person
    /// chose (`.smith/config.kdl` at the root of a project whose configuration is read).
    pub project_config: Option<std::path::PathBuf>,
}

impl Default for Permissions {
    /// `auto` with no rules.
    fn default() -> Self {
        Self {
            mode: PermissionMode::default(),
            allow: Vec::new(),
            ask: Vec::new(),
            deny: Vec::new(),
            project_config: None,
        }
    }
}

impl Permissions {
    /// The same permissions with `file` as the project configuration a policy handler may add
    /// the person's allow rules to (`None`: nowhere).
    #[must_use]
    pub fn with_project_config(mut self, file: Option<std::path::PathBuf>) -> Self {
        self.project_config = file;
        self
    }

    pub(crate) fn wit(&self) -> wit::Settings {
        wit::Settings {
            mode: self.mode.name().to_owned(),
            allow: self.allow.clone(),
            ask: self.ask.clone(),
            deny: self.deny.clone(),
            project_config: self
                .project_config
                .as_ref()
                .map(|p| p.display().to_string())
                .unwrap_or_default(),
        }
    }
}
