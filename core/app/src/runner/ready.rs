//! A run made ready for one working directory: the prepared route and the plugin generation
//! under the user's policy, with the secrets restored only at the effects that policy allows.
//! Every frontend gets it through [`App::ready`], so the security-relevant step — the policy
//! given the run's redactor — is written once.

use std::path::Path;
use std::sync::Arc;

use smith::{Selection, ThinkingLevel};
use smith_host::Loadout;
use smith_secrets::Shared;

use crate::registry::ProcessRefusal;
use crate::{App, Error, Notice, Prepared, RunSpec};

/// How a frontend words a refused program (`process.exec` outside a trusted project): the
/// CLI names its flags, the terminal UI its commands, protocol frontends say it plainly.
pub type RefusalWords = fn(&ProcessRefusal) -> String;

/// A route and the tools a run of one selection uses, checked before any session is touched.
pub struct Ready {
    spec: RunSpec,
    prepared: Prepared,
    /// The pinned plugin generation under the user's policy (its secrets the route's).
    tools: Loadout,
    /// The OS sandbox mode programs start in (`sandbox.mode`), for `run_start`.
    sandbox: &'static str,
}

impl std::fmt::Debug for Ready {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Ready")
            .field("selection", &self.spec.selection)
            .field("thinking", &self.spec.thinking)
            .field("script", &self.spec.script)
            .finish_non_exhaustive()
    }
}

impl App {
    /// Make runs of `spec` ready in `cwd`: [`App::prepare`], then the user's process policy for
    /// `cwd` (a refused program worded by `words`) holding the run's redactor, so references
    /// in tool calls become plaintext only at the local effects the policy allows.
    ///
    /// # Errors
    /// As [`App::prepare`]; [`Error::Registry`] for the trust records or `process.pass-env`.
    pub fn ready(&self, spec: RunSpec, cwd: &Path, words: RefusalWords) -> Result<Ready, Error> {
        let prepared = self.prepare(&spec)?;
        let mut tools: Vec<String> = prepared
            .tools
            .tools()
            .into_iter()
            .map(|(_, d)| d.name)
            .collect();
        for known in crate::permissions::known_tools(&self.registry) {
            if !tools.contains(&known) {
                tools.push(known);
            }
        }
        crate::permissions::check_tools(&self.settings, &tools)?;
        crate::hooks::check_tools(&self.settings, &self.registry, &tools)?;
        let mut policy = self.policy(cwd, &words)?;
        policy.secrets = prepared.secrets.redactor.clone();
        let sandbox = policy.sandbox.mode.name();
        let tools = prepared.tools.clone().with_policy(policy);
        Ok(Ready {
            spec,
            prepared,
            tools,
            sandbox,
        })
    }
}

impl Ready {
    /// Use permission mode `mode` in this route's policy events from now on.
    pub(crate) fn set_permission_mode(&mut self, mode: smith_host::PermissionMode) {
        self.tools = self.tools.clone().with_permission_mode(mode);
    }

    /// Give the MCP client `servers` on top of those it is given (the session's declared
    /// ones, [`crate::Runner::declare_mcp_servers`]).
    pub(crate) fn give_mcp_servers(
        &mut self,
        servers: &std::collections::BTreeMap<String, crate::mcp::Declared>,
    ) {
        if servers.is_empty() {
            return;
        }
        self.tools = self
            .tools
            .clone()
            .with_policy_change(|policy| crate::mcp::give(policy, servers));
    }

    /// The selection runs use.
    pub fn selection(&self) -> &Selection {
        &self.spec.selection
    }

    /// The thinking level asked for, if any.
    pub fn thinking(&self) -> Option<ThinkingLevel> {
        self.spec.thinking
    }

    /// The spec it was made from.
    pub fn spec(&self) -> &RunSpec {
        &self.spec
    }

    /// The OS sandbox mode the run's programs start in (`read-only`, `workspace-write`,
    /// `full-access`).
    pub fn sandbox(&self) -> &'static str {
        self.sandbox
    }

    /// What preparing had to tell the user (renewal failures, an unwritable compile cache).
    pub fn notices(&self) -> &[Notice] {
        &self.prepared.notices
    }

    /// The registry of the secrets every output of the run is redacted against.
    pub fn redactor(&self) -> &Shared {
        &self.prepared.secrets.redactor
    }

    /// The redactor as it is now (for output outside a run: errors, notices).
    pub fn current_redactor(&self) -> Arc<smith_secrets::Redactor> {
        self.prepared.secrets.redactor.current()
    }

    /// Whether the route's models take `count` images.
    ///
    /// # Errors
    /// [`crate::NoImageInput`] naming the model that does not.
    pub fn check_images(&self, count: usize) -> Result<(), crate::NoImageInput> {
        crate::route::check_image_input(&self.prepared.route, count)
    }

    /// What using the run's plugins had to tell the user since it was made ready: a compile
    /// cache that could not keep a plugin compiled on its first use (a tool's first call),
    /// when preparing did not already say so.
    pub fn later_notices(&self) -> Vec<Notice> {
        let said = self
            .prepared
            .notices
            .iter()
            .any(|n| matches!(n, Notice::CacheUnwritable(_)));
        match self.tools.compile_cache_failure() {
            Some(why) if !said => vec![Notice::CacheUnwritable(why)],
            _ => Vec::new(),
        }
    }

    /// What the run's plugins have been used for so far, in load order: each plugin's id,
    /// whether its component is loaded (bundled plugins load on first use) and how many
    /// instances were made of it — the host's own count.
    pub fn plugin_usage(&self) -> Vec<smith_host::PluginUsage> {
        self.tools.usage()
    }

    pub(crate) fn prepared(&self) -> &Prepared {
        &self.prepared
    }

    pub(crate) fn tools(&self) -> &Loadout {
        &self.tools
    }
}
