//! What the person allowed beyond one call: "Allow … for this session" kept in the plugin's
//! session state (slot `approved`: the tools whose file writes run unasked, and the shell
//! command parts each tool may run unasked, matched exactly — checked before each effect the
//! mode would ask about), and "… always in this project"
//! written as `permissions.allow` rules to the project's configuration (by the host, only
//! because the person chose it) and kept for the session too, since configuration is read
//! at start.

use smith_plugin_sdk::serde_json::{self, Value, json};
use smith_plugin_sdk::{policy, state_get, state_set};

use crate::rules::Subject;

/// The session state slot (declared in `plugin.kdl`).
const SLOT: &str = "approved";

/// The slot's `max-bytes` (as `plugin.kdl` declares it).
const MAX_STATE_BYTES: usize = 262_144;

/// Characters a command part may not hold to become a project rule: glob metacharacters
/// (the rule would match more than the part), and what the settings' rule list separates on.
const NOT_IN_RULES: &[char] = &['*', '?', '(', ')', ',', '\n', '\r'];

/// The most rules one choice writes, and the longest, in bytes: what the host's
/// `remember-allow` takes (a choice past them is not offered).
const MAX_RULES: usize = 16;
const MAX_RULE_BYTES: usize = 4 * 1024;

/// The session's approvals.
#[derive(Debug, Default, PartialEq)]
pub struct Approved {
    /// Tools whose file writes and edits run unasked.
    writes: Vec<String>,
    /// `(tool, part)`: a shell command part the tool may run unasked.
    commands: Vec<(String, String)>,
    /// `(tool, host)`: a host (`name:port`) the tool's network requests reach unasked.
    hosts: Vec<(String, String)>,
}

impl Approved {
    /// The session's approvals (none when nothing was kept, or the slot is unavailable).
    pub fn load() -> Self {
        let Ok(Some(value)) = state_get::<Value>(SLOT) else {
            return Self::default();
        };
        let strings = |v: &Value| -> Vec<String> {
            v.as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|s| s.as_str().map(str::to_owned))
                        .collect()
                })
                .unwrap_or_default()
        };
        let pairs = |v: &Value| -> Vec<(String, String)> {
            v.as_array()
                .map(|a| {
                    a.iter()
                        .filter_map(|pair| {
                            let p = strings(pair);
                            (p.len() == 2).then(|| (p[0].clone(), p[1].clone()))
                        })
                        .collect()
                })
                .unwrap_or_default()
        };
        Self {
            writes: strings(&value["writes"]),
            commands: pairs(&value["commands"]),
            // Added later in the same slot version: absent in what earlier sessions kept.
            hosts: pairs(&value["hosts"]),
        }
    }

    /// Whether `grant` could be kept for the session: the session state is there (not a run
    /// outside a session) and the approvals with it stay within the slot's bound. A choice
    /// that could not be kept is not offered.
    pub fn can_keep(&self, grant: &Grant) -> bool {
        if let Err(smith_plugin_sdk::state::StateError::Unavailable(_)) = state_get::<Value>(SLOT) {
            return false;
        }
        let mut with = Self {
            writes: self.writes.clone(),
            commands: self.commands.clone(),
            hosts: self.hosts.clone(),
        };
        with.add(grant);
        with.value().to_string().len() <= MAX_STATE_BYTES
    }

    fn value(&self) -> Value {
        json!({
            "writes": self.writes,
            "commands": self.commands.iter().map(|(t, p)| [t, p]).collect::<Vec<_>>(),
            "hosts": self.hosts.iter().map(|(t, h)| [t, h]).collect::<Vec<_>>(),
        })
    }

    fn save(&self) -> Result<(), String> {
        state_set(SLOT, &self.value()).map_err(|e| format!("{e:?}"))
    }

    /// Whether `grant` was approved: the tool's writes, or every part of the command.
    pub fn covers(&self, grant: &Grant) -> bool {
        match grant {
            Grant::Writes(tool) => self.writes(tool),
            Grant::Commands(tool, parts) => parts.iter().all(|p| self.command(tool, p)),
            Grant::Host(tool, host) => self.hosts.iter().any(|(t, h)| t == tool && h == host),
        }
    }

    /// Whether `part` of a shell command of `tool` was approved.
    fn command(&self, tool: &str, part: &str) -> bool {
        self.commands.iter().any(|(t, p)| t == tool && p == part)
    }

    /// Whether file writes of `tool` were approved.
    fn writes(&self, tool: &str) -> bool {
        self.writes.iter().any(|t| t == tool)
    }

    fn add(&mut self, grant: &Grant) {
        match grant {
            Grant::Writes(tool) => {
                if !self.writes(tool) {
                    self.writes.push(tool.clone());
                }
            }
            Grant::Commands(tool, parts) => {
                for part in parts {
                    if !self.command(tool, part) {
                        self.commands.push((tool.clone(), part.clone()));
                    }
                }
            }
            Grant::Host(tool, host) => {
                if !self.covers(grant) {
                    self.hosts.push((tool.clone(), host.clone()));
                }
            }
        }
    }
}

/// What one "for this session" or "in this project" choice allows.
#[derive(Debug, PartialEq)]
pub enum Grant {
    /// The tool's file writes and edits.
    Writes(String),
    /// These shell command parts, run by the tool.
    Commands(String, Vec<String>),
    /// Network requests of the tool to this host (`name:port`).
    Host(String, String),
}

/// The `name:port` of an absolute http(s) URL as the host records it (`[::1]:8080`; the
/// scheme's port when it names none).
pub fn host_of(url: &str) -> Option<String> {
    let (scheme, rest) = url.split_once("://")?;
    let default = match scheme.to_ascii_lowercase().as_str() {
        "http" => 80,
        "https" => 443,
        _ => return None,
    };
    let authority = rest.split(['/', '?', '#']).next()?;
    let authority = authority.rsplit('@').next()?.to_ascii_lowercase();
    let (name, port) = match authority.strip_prefix('[') {
        Some(rest) => {
            let (addr, after) = rest.split_once(']')?;
            (format!("[{addr}]"), after.strip_prefix(':'))
        }
        None => match authority.split_once(':') {
            Some((name, port)) => (name.to_owned(), Some(port)),
            None => (authority.clone(), None),
        },
    };
    let port = match port {
        Some(p) => p.parse::<u16>().ok()?,
        None => default,
    };
    (!name.is_empty()).then(|| format!("{name}:{port}"))
}

impl Grant {
    /// What a lasting choice about `effect` would allow, if it can be said: writes by the
    /// tool, or the parts of the shell command the call runs.
    pub fn of(effect: &policy::EffectEvent) -> Option<Self> {
        match effect.effect.as_str() {
            "fs.write" | "fs.edit" => Some(Self::Writes(effect.tool.clone())),
            "process.run" => match Subject::of(&effect.arguments, "") {
                Subject::Command(parts) if !parts.is_empty() => {
                    Some(Self::Commands(effect.tool.clone(), parts))
                }
                _ => None,
            },
            "net.fetch" => Some(Self::Host(effect.tool.clone(), host_of(&effect.target)?)),
            _ => None,
        }
    }

    /// The `permissions.allow` rules that say the same, when every part can be written as
    /// one (no glob or list characters in it) and the host takes them (at most 16 rules of at
    /// most 4 KiB).
    pub fn rules(&self) -> Option<Vec<String>> {
        let rules: Vec<String> = match self {
            Self::Writes(tool) => vec![tool.clone()],
            Self::Commands(tool, parts) => parts
                .iter()
                .map(|p| (!p.contains(NOT_IN_RULES)).then(|| format!("{tool}({p})")))
                .collect::<Option<_>>()?,
            // A host is kept for the session only: rules name tools and arguments.
            Self::Host(..) => return None,
        };
        (rules.len() <= MAX_RULES && rules.iter().all(|r| r.len() <= MAX_RULE_BYTES))
            .then_some(rules)
    }

    /// The choice's label: what it allows, and for how long.
    pub fn label(&self, project: Option<&str>) -> String {
        let what = match self {
            Self::Writes(tool) => format!("`{tool}` to write files"),
            Self::Commands(_, parts) if parts.len() == 1 => "this command".to_owned(),
            Self::Commands(_, parts) => format!("these {} commands", parts.len()),
            Self::Host(tool, host) => format!("`{tool}` to reach {host}"),
        };
        match (project, self.rules()) {
            // A long rule is the command shown above: said by its count, not repeated.
            (Some(file), Some(rules)) if rules.iter().map(String::len).sum::<usize>() > 240 => {
                format!(
                    "Allow {what} always in this project (adds {} rule(s) for it, as shown above, to permissions.allow in {file})",
                    rules.len()
                )
            }
            (Some(file), Some(rules)) => format!(
                "Allow {what} always in this project (adds {} to permissions.allow in {file})",
                rules.join(",")
            ),
            _ => format!("Allow {what} for the rest of this session"),
        }
    }

    /// The choice id carrying it: `PREFIX` then the grant as JSON.
    pub fn choice_id(&self, prefix: &str) -> String {
        let value = match self {
            Self::Writes(tool) => json!({ "writes": tool }),
            Self::Commands(tool, parts) => json!({ "tool": tool, "parts": parts }),
            Self::Host(tool, host) => json!({ "tool": tool, "host": host }),
        };
        format!("{prefix}{value}")
    }

    /// The grant a choice id made by [`Grant::choice_id`] with `prefix` carries.
    pub fn from_choice(id: &str, prefix: &str) -> Option<Self> {
        let value: Value = serde_json::from_str(id.strip_prefix(prefix)?).ok()?;
        if let Some(tool) = value["writes"].as_str() {
            return Some(Self::Writes(tool.to_owned()));
        }
        if let Some(host) = value["host"].as_str() {
            return Some(Self::Host(
                value["tool"].as_str()?.to_owned(),
                host.to_owned(),
            ));
        }
        let parts: Vec<String> = value["parts"]
            .as_array()?
            .iter()
            .map(|p| p.as_str().map(str::to_owned))
            .collect::<Option<_>>()?;
        Some(Self::Commands(value["tool"].as_str()?.to_owned(), parts))
    }

    /// Keep it for the rest of the session.
    ///
    /// # Errors
    /// Why the session state could not be written.
    pub fn keep_for_session(&self) -> Result<(), String> {
        let mut approved = Approved::load();
        approved.add(self);
        approved.save()
    }

    /// Write its rules to the project's configuration, and keep it for the session.
    ///
    /// # Errors
    /// Why the rules could not be written.
    pub fn keep_for_project(&self) -> Result<String, String> {
        let rules = self
            .rules()
            .ok_or("the command cannot be written as a rule")?;
        let file = policy::remember_allow(&rules)?;
        self.keep_for_session()?;
        Ok(file)
    }
}
