//! Plugin manifests: a KDL document naming the plugin, its version, the world it implements,
//! the grants it requests and what it contributes — tools, lifecycle handlers or a provider codec.
//!
//! ```kdl
//! plugin "files" {
//!     version "0.1.0"
//!     world "tool-plugin@1.9.0"
//!     grant "fs.read"
//!     grant "fs.write"
//!     tool "read"
//! }
//! ```
//!
//! A lifecycle handler names its roles instead of tools and requests no grants:
//!
//! ```kdl
//! plugin "queue" {
//!     version "0.1.0"
//!     world "handler-plugin@1.9.0"
//!     handler "queue-policy"
//! }
//! ```

use smith_config::kdl::{self as schema, Bounds, SyntaxError};

use crate::Error;
use crate::grants::Grant;

mod draft;
mod nodes;

pub(crate) use nodes::valid_id;

/// The version of the `smith:plugin` WIT package this Smith hosts. From 1.0 the package
/// changes only additively within a major version (a new interface, function, world export or
/// event), each such change a minor bump; the host loads a plugin built against any version
/// [`compatible`] with this one and refuses others with [`crate::Error::Package`] (the
/// plugins guide, "Package versions", has the policy and the version table).
pub const PACKAGE_VERSION: &str = "1.9.0";

/// The most `net-host` patterns a manifest may name.
pub const MAX_NET_HOSTS: usize = 64;

/// Whether package version `v` (a compatible 1.x) predates `1.MINOR.0`: the `net` import came
/// in 1.2.0, `dynamic-tool-plugin` in 1.4.0, `hooks-plugin` (the `turn-end` event) in 1.6.0.
fn predates(v: &str, minor: u32) -> bool {
    let found = v.split('.').nth(1).and_then(|m| m.parse::<u32>().ok());
    v.starts_with("1.") && found.is_some_and(|m| m < minor)
}

/// The oldest package version this Smith loads: the first of its major version.
pub const OLDEST_PACKAGE_VERSION: &str = "1.0.0";

/// Whether a plugin built against package version `found` (`MAJOR.MINOR.PATCH`) loads in this
/// Smith: the same major version (from 1 on) and no newer than [`PACKAGE_VERSION`]. A plugin
/// built against 1.0.0 imports only what 1.0.0 defined, which every later 1.x still defines
/// unchanged; wasmtime's component linker resolves its `smith:plugin/…@1.2.0` imports to this
/// host's `@1.x` definitions (semver-compatible lookup).
pub fn compatible(found: &str) -> bool {
    let parse = |v: &str| -> Option<(u64, u64, u64)> {
        let mut parts = v.split('.').map(|p| p.parse::<u64>().ok());
        let version = (parts.next()??, parts.next()??, parts.next()??);
        parts.next().is_none().then_some(version)
    };
    match (parse(found), parse(PACKAGE_VERSION)) {
        (Some((major, minor, patch)), Some((host_major, host_minor, host_patch))) => {
            major >= 1 && major == host_major && (minor, patch) <= (host_minor, host_patch)
        }
        _ => false,
    }
}

/// The largest manifest read, in bytes (a provider's catalog block included).
pub const MAX_MANIFEST_BYTES: usize = 1 << 20;

/// The deepest `{ … }` nesting a manifest may have (it needs three).
const MAX_NESTING: usize = 8;

/// The tool world, as a manifest names it.
pub const TOOL_WORLD: &str = "tool-plugin@1.9.0";

/// The lifecycle-handler world, as a manifest names it.
pub const HANDLER_WORLD: &str = "handler-plugin@1.9.0";

/// The provider world, as a manifest names it.
pub const PROVIDER_WORLD: &str = "provider-plugin@1.9.0";

/// The policy world (tool and effect events), as a manifest names it.
pub const POLICY_WORLD: &str = "policy-plugin@1.9.0";

/// The product world (commands, key bindings, themes, layout, and tools), as a manifest names
/// it.
pub const PRODUCT_WORLD: &str = "product-plugin@1.9.0";

/// The worlds' names, without their version.
const WORLD_NAMES: [&str; 5] = [
    "tool-plugin",
    "handler-plugin",
    "provider-plugin",
    "product-plugin",
    "policy-plugin",
];

/// What a plugin whose tools are found at run time declares (`dynamic-tools prefix="P"
/// [cache="SLOT"] [source="SLOT"]`): every such tool's name starts with `prefix`, which no other plugin's
/// tool name may start with; `cache` names its `user` state slot holding the last tools it
/// found (a JSON list of `{"name", "description", "input_schema"}`), offered until it is
/// asked again.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DynamicTools {
    /// The prefix of the tools' names: 1 to 32 of `A-Z a-z 0-9 _ -`.
    pub prefix: String,
    /// The cache slot, if any.
    pub cache: Option<String>,
    /// The `user` state slot it finds its tools from (`source="servers"`: an MCP client's
    /// servers), if it names one: while that slot holds no value, `discover` is not asked
    /// and the plugin is not even loaded for it.
    pub source: Option<String>,
}

/// What a provider plugin declares: its provider id, default base URL and credential.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ProviderDecl {
    /// The provider id, as in `provider/model`.
    pub id: String,
    /// The default base URL (`provider.<id>.base-url` overrides it).
    pub base_url: String,
    /// Where its API key comes from and how it is sent, when it takes one.
    pub api_key: Option<ApiKey>,
    /// Where its server lists the models it serves (`models-path "/models"`: `GET
    /// {base-url}/models`, answered in the OpenAI list format `{"data": [{"id": …}]}`), for
    /// a catalog refresh; `None`: it lists none.
    pub models_path: Option<String>,
}

/// A provider's API key: the environment variable it is read from and the header the host
/// sends it in (the plugin never sees it).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ApiKey {
    /// The environment variable (e.g. `ANTHROPIC_API_KEY`).
    pub env: String,
    /// The header it is sent in (e.g. `x-api-key`, `authorization`).
    pub header: String,
    /// Text before the key in the header (e.g. `Bearer `).
    pub prefix: String,
    /// Whether a request without it is refused before sending.
    pub required: bool,
}

/// The handler roles a plugin may declare: `queue-policy` (delivers queued input; at most
/// one active plugin holds it), `secret-policy` (decides at which effects a registered
/// secret's reference becomes its plaintext; the first active one decides), `prompt` (gives
/// each request's base instructions; the first active one gives them), `context` (adds
/// standing context such as `AGENTS.md` files; every active one, in load order),
/// `compaction` (gives a compaction's ask; the first active one gives it) and `history`
/// (snapshots the working tree around each tool batch that may change files, through the
/// `vcs` facility; the first active one takes them).
pub const HANDLER_ROLES: &[&str] = &[
    "queue-policy",
    "secret-policy",
    "prompt",
    "context",
    "compaction",
    "history",
    "permissions",
    "hooks",
];

/// The events a [`POLICY_WORLD`] plugin may name in its manifest (`event "before-tool"`), so
/// that it is not instantiated for the others.
/// `turn-end` (package 1.6.0) is asked of a plugin built as the `hooks-plugin` world only, and
/// only when named.
pub const POLICY_EVENTS: &[&str] = &["before-tool", "after-tool", "before-effect", "turn-end"];

/// The roles of a [`POLICY_WORLD`] plugin, in the order their verdicts combine (a deny from
/// any wins; then the first ask).
pub const POLICY_ROLES: &[&str] = &["permissions", "hooks"];

/// The most `context-file` names one manifest may declare.
pub const MAX_CONTEXT_FILES: usize = 8;

/// The plugin id no plugin may take: the owner of Smith's own session state (the permission
/// mode a session chose, the session's plan), which a plugin's `state` import must never
/// reach (the plan is written only through the `plan` import).
pub const RESERVED_ID: &str = "smith";

/// What a tool declares about its effects in its manifest (`tool "NAME" read-only=#true`,
/// `destructive=`, `idempotent=`, `open-world=`): hints for clients that show or gate calls
/// (MCP's tool annotations), never a security boundary — grants and the user's policy are.
/// `None`: not declared.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct ToolHints {
    /// The tool changes nothing.
    pub read_only: Option<bool>,
    /// The tool may overwrite or delete (meaningful when it is not read-only).
    pub destructive: Option<bool>,
    /// Calling it again with the same arguments changes nothing more.
    pub idempotent: Option<bool>,
    /// The tool reaches beyond the files it is given (programs, the network).
    pub open_world: Option<bool>,
}

/// The most settings one manifest may declare.
pub const MAX_SETTINGS: usize = 16;

/// A setting a plugin declares (`setting "NAME" doc="…"`).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct SettingDecl {
    /// Its name: the user sets it as `plugin.ID.NAME`.
    pub name: String,
    /// What it is, in a sentence: shown where it is missing or listed.
    pub doc: String,
}

/// A parsed, validated manifest.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Manifest {
    /// The plugin id (`files`): lowercase letters, digits and `-`.
    pub id: String,
    /// The plugin's version.
    pub version: String,
    /// The world it implements, as this Smith names it ([`TOOL_WORLD`], [`HANDLER_WORLD`],
    /// [`PROVIDER_WORLD`] or [`PRODUCT_WORLD`]) whatever compatible version it was built
    /// against.
    pub world: String,
    /// The package version it was built against, as its manifest names it (`1.0.0`);
    /// [`compatible`] with [`PACKAGE_VERSION`].
    pub package: String,
    /// The grants it requests; the host gives at most these.
    pub grants: Vec<Grant>,
    /// The hosts its `net.http` grant covers (`net-host "PATTERN"`, at most
    /// [`MAX_NET_HOSTS`]); the user's `plugins.ID.net.*` settings widen or narrow them.
    pub net_hosts: Vec<crate::net::HostPattern>,
    /// The tools it contributes; its `definitions` export must list exactly these. Empty for
    /// a handler plugin.
    pub tools: Vec<String>,
    /// What each tool declares about its effects, by tool name (only tools that declare
    /// something).
    pub tool_hints: std::collections::BTreeMap<String, ToolHints>,
    /// The tools offered only when one of its settings is set (`tool "NAME"
    /// needs-setting="SETTING"`), by tool name: without it a tool is withheld, its reason
    /// naming the setting.
    pub tool_needs: std::collections::BTreeMap<String, String>,
    /// The settings it declares (`setting "NAME" doc="…"`, at most [`MAX_SETTINGS`]): values
    /// the user gives it as `plugin.ID.NAME` in their configuration (the `plugin.`
    /// namespace, kept as given), which it reads through the `host.setting` import (package
    /// 1.2.0).
    pub settings: Vec<SettingDecl>,
    /// The JSON Schema of each tool's structured result, by tool name (`tool "NAME"
    /// output-schema=#"{…}"#`; only tools that declare one): an object schema. A tool that
    /// declares one hands its result as JSON through the host's `structured` import, checked
    /// against it; MCP clients get it as `structuredContent` (MCP 2025-06-18, server/tools —
    /// output schema).
    pub output_schemas: std::collections::BTreeMap<String, serde_json::Value>,
    /// The events a policy plugin takes (`event "before-tool"`, one of [`POLICY_EVENTS`]
    /// each); empty: all of them. Its own question's `answered` event always reaches it.
    pub policy_events: Vec<String>,
    /// Whether its `before-effect` events leave out effects that only read (`event
    /// "before-effect" read-only=#false`): a policy with nothing to say about reads is not
    /// instantiated for them.
    pub skips_reads: bool,
    /// Whether it runs the hooks the user configured (`configured-hooks`; a `hooks`
    /// policy plugin): it is asked about a call's `before-tool` or `after-tool` event only
    /// when a configured hook matches it, and `matching-hooks` tells it which
    /// ([`crate::hooks`]).
    pub configured_hooks: bool,
    /// The state slots it declares (`state "NAME" scope="SCOPE" version=N max-bytes=N`, at
    /// most [`crate::MAX_STATE_SLOTS`]); only a tool or policy plugin may declare any.
    pub state: Vec<crate::StateSlot>,
    /// The inputs it reads (`input "NAME"`, at most [`crate::MAX_INPUTS`]): read-only JSON
    /// values Smith gives the plugin for a run ([`crate::Policy::inputs`]), read through the
    /// `state` import's `get` under their name; only a tool or policy plugin may declare any.
    /// A `dynamic-tools` plugin finds its tools from them as from its `source` slot.
    pub inputs: Vec<String>,
    /// The handler roles it takes (one of [`HANDLER_ROLES`] each). Empty for a tool plugin.
    pub handlers: Vec<String>,
    /// The standing context file names (`AGENTS.md`) its `context.read` grant covers, in each
    /// directory of a `context` event; at most [`MAX_CONTEXT_FILES`], plain file names.
    pub context_files: Vec<String>,
    /// The tools it finds at run time (`dynamic-tools prefix="mcp__" cache="tools"`, a
    /// [`TOOL_WORLD`] plugin built as the `dynamic-tool-plugin` world, package 1.4.0): their
    /// names' prefix and the `user` state slot caching them.
    pub dynamic: Option<DynamicTools>,
    /// The provider it contributes ([`PROVIDER_WORLD`] only).
    pub provider: Option<ProviderDecl>,
    /// Its catalog contribution ([`PROVIDER_WORLD`] only): the KDL text of its
    /// `catalog { … }` block, in the schema of [`smith_ai::catalog`] with model names relative
    /// to its provider (`model "m1" { … }`, `default-model { … }`). Checked at parse time;
    /// the catalog gives it the lowest precedence.
    pub catalog: Option<String>,
}

impl Manifest {
    /// `id@version`: how sessions and diagnostics name the plugin.
    pub fn label(&self) -> String {
        format!("{}@{}", self.id, self.version)
    }

    /// Its grants as listings show them: each grant's name, `net.http` with the hosts its
    /// `net-host` patterns name (`net.http (hosts *:*)`).
    pub fn grants_described(&self) -> Vec<String> {
        self.grants
            .iter()
            .map(|g| match g {
                Grant::NetHttp => {
                    let hosts: Vec<String> =
                        self.net_hosts.iter().map(ToString::to_string).collect();
                    if hosts.is_empty() {
                        format!("{g} (no hosts unless the user allows some)")
                    } else {
                        format!("{g} (hosts {})", hosts.join(" "))
                    }
                }
                other => other.to_string(),
            })
            .collect()
    }

    /// Its world as it was built: the world's name at the package version it was built
    /// against (`tool-plugin@1.2.0`), which is what listings show.
    pub fn built_world(&self) -> String {
        let name = self.world.split_once('@').map_or(&*self.world, |(n, _)| n);
        format!("{name}@{}", self.package)
    }

    /// Whether it implements the lifecycle-handler world.
    pub fn is_handler(&self) -> bool {
        self.world == HANDLER_WORLD
    }

    /// Whether it implements the policy world (tool and effect events).
    pub fn is_policy(&self) -> bool {
        self.world == POLICY_WORLD
    }

    /// Whether it implements the provider world.
    pub fn is_provider(&self) -> bool {
        self.world == PROVIDER_WORLD
    }

    /// Whether it implements the product world (it may contribute tools too).
    pub fn is_product(&self) -> bool {
        self.world == PRODUCT_WORLD
    }
}

impl Manifest {
    /// Parse manifest `text` from `origin` (a path or `bundled:…`, for messages).
    ///
    /// # Errors
    /// [`Error::Manifest`] naming the origin, the offending node and what is expected.
    pub fn parse(text: &str, origin: &str) -> Result<Self, Error> {
        let bad = |reason: String| Error::Manifest {
            origin: origin.to_owned(),
            reason,
        };
        let bounds = Bounds {
            max_bytes: MAX_MANIFEST_BYTES,
            max_nesting: MAX_NESTING,
        };
        let doc = schema::parse(text, bounds).map_err(|e| match e {
            SyntaxError::TooLong { len, max } => bad(format!(
                "the manifest is {len} bytes, more than the {max}-byte bound of a manifest"
            )),
            SyntaxError::TooDeep { max } => bad(format!(
                "blocks are nested deeper than {max} levels; a manifest needs three (plugin {{ catalog {{ model {{ … }} }} }})"
            )),
            SyntaxError::Invalid { message, .. } => bad(format!(
                "not valid KDL: {}",
                message.unwrap_or_else(|| "cannot parse".into())
            )),
        })?;
        let [plugin] = doc.nodes() else {
            return Err(bad(
                "a manifest holds exactly one `plugin \"ID\" { … }` node".to_owned(),
            ));
        };
        if plugin.name().value() != "plugin" {
            return Err(bad(format!(
                "expected a `plugin` node, found `{}`",
                plugin.name().value()
            )));
        }
        let id = schema::single_string(plugin)
            .map(str::to_owned)
            .filter(|id| valid_id(id))
            .ok_or_else(|| {
                bad("`plugin` takes one id: lowercase letters, digits and `-`, e.g. plugin \"files\"".to_owned())
            })?;
        if id == RESERVED_ID {
            return Err(bad(format!(
                "the plugin id `{RESERVED_ID}` is reserved for Smith's own records (its session state); choose another"
            )));
        }
        let mut draft = draft::Draft::default();
        for node in schema::children(plugin) {
            draft.take(node, text).map_err(&bad)?;
        }
        draft.finish(id, origin)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn settings_are_declared_with_a_doc_and_a_tool_may_need_one() {
        let head = "plugin \"web\" {\n version \"1\"\n world \"tool-plugin@1.2.0\"\n";
        let m = Manifest::parse(
            &format!("{head} setting \"search-url\" doc=\"the endpoint\"\n tool \"s\" needs-setting=\"search-url\"\n tool \"f\"\n}}"),
            "test",
        )
        .unwrap();
        assert_eq!(
            m.settings,
            [SettingDecl {
                name: "search-url".into(),
                doc: "the endpoint".into()
            }]
        );
        assert_eq!(m.tool_needs["s"], "search-url");
        assert!(!m.tool_needs.contains_key("f"));
        for (nodes, says) in [
            (
                "tool \"s\" needs-setting=\"key\"",
                "which the manifest does not declare",
            ),
            ("setting \"key\"\n tool \"s\"", "needs a `doc` string"),
            (
                "setting \"Key.x\" doc=\"d\"\n tool \"s\"",
                "is not a setting name",
            ),
            (
                "setting \"k\" doc=\"d\"\n setting \"k\" doc=\"e\"\n tool \"s\"",
                "declared twice",
            ),
            (
                "tool \"s\" needs-setting=#true",
                "takes the name of a setting",
            ),
        ] {
            let why = Manifest::parse(&format!("{head} {nodes}\n}}"), "test")
                .unwrap_err()
                .to_string();
            assert!(why.contains(says), "{nodes}: {why}");
        }
    }

    #[test]
    fn tools_declare_hints_and_bad_ones_say_why() {
        let m = Manifest::parse(
            "plugin \"files\" {\n version \"0.1.0\"\n world \"tool-plugin@1.2.0\"\n tool \"read\" read-only=#true idempotent=#true\n tool \"write\" destructive=#true\n tool \"ls\"\n}",
            "test",
        )
        .unwrap();
        assert_eq!(m.tools, ["read", "write", "ls"]);
        assert_eq!(
            m.tool_hints["read"],
            ToolHints {
                read_only: Some(true),
                idempotent: Some(true),
                ..ToolHints::default()
            }
        );
        assert_eq!(m.tool_hints["write"].destructive, Some(true));
        assert!(!m.tool_hints.contains_key("ls"));
        let m = Manifest::parse(
            "plugin \"x\" {\n version \"1\"\n world \"tool-plugin@1.2.0\"\n tool \"a\" read-only=#true output-schema=#\"{\"type\":\"object\"}\"#\n}",
            "test",
        )
        .unwrap();
        assert_eq!(m.output_schemas["a"], serde_json::json!({"type": "object"}));
        assert_eq!(m.tool_hints["a"].read_only, Some(true));
        for (tool, says) in [
            ("tool \"a\" loud=#true", "unknown tool property `loud`"),
            ("tool \"a\" read-only=\"yes\"", "takes #true or #false"),
            ("tool \"a\" \"b\"", "takes one name"),
            ("tool read-only=#true", "takes the tool's name"),
            ("tool \"a\"\n tool \"a\"", "listed twice"),
            (
                "tool \"a\" output-schema=#true",
                "takes a JSON Schema as a string",
            ),
            ("tool \"a\" output-schema=\"{\"", "is not JSON"),
            (
                "tool \"a\" output-schema=#\"{\"type\":\"array\"}\"#",
                "must be an object schema",
            ),
            (
                "tool \"a\" output-schema=#\"{\"type\":\"object\",\"minProperties\":\"x\"}\"#",
                "not a valid JSON Schema",
            ),
        ] {
            let text =
                format!("plugin \"x\" {{ version \"1\"\n world \"tool-plugin@1.2.0\"\n {tool} }}");
            let e = Manifest::parse(&text, "test").unwrap_err().to_string();
            assert!(e.contains(says), "{tool}: {e}");
        }
    }

    #[test]
    fn a_manifest_parses_and_bad_ones_say_why() {
        let m = Manifest::parse(
            "plugin \"files\" {\n version \"0.1.0\"\n world \"tool-plugin@1.2.0\"\n grant \"fs.read\"\n tool \"read\"\n}",
            "test",
        )
        .unwrap();
        assert_eq!(
            (m.id.as_str(), m.grants.len(), m.tools.len()),
            ("files", 1, 1)
        );
        for (text, says) in [
            ("", "exactly one"),
            ("plugin \"Files\" { }", "lowercase"),
            (
                "plugin \"x\" { version \"1\"\n world \"chat-plugin@1.2.0\"\n tool \"a\" }",
                "not one this Smith hosts",
            ),
            (
                "plugin \"x\" { version \"1\"\n world \"tool-plugin@9\"\n tool \"a\" }",
                "built against smith:plugin@9",
            ),
            (
                "plugin \"x\" { version \"1\"\n world \"tool-plugin@1.2.0\"\n grant \"net.all\"\n tool \"a\" }",
                "net.all",
            ),
            (
                "plugin \"x\" { version \"1\"\n world \"tool-plugin@1.2.0\" }",
                "at least one",
            ),
            ("plugin \"x\" { colour \"red\" }", "unknown manifest node"),
            (
                "plugin \"x\" { version \"1\"\n world \"handler-plugin@1.2.0\"\n handler \"colour\" }",
                "not one this Smith knows",
            ),
            (
                "plugin \"x\" { version \"1\"\n world \"handler-plugin@1.2.0\"\n grant \"fs.read\"\n handler \"queue-policy\" }",
                "may request only `context.read`",
            ),
            (
                "plugin \"x\" { version \"1\"\n world \"handler-plugin@1.2.0\"\n grant \"context.read\"\n handler \"queue-policy\" }",
                "go together",
            ),
            (
                "plugin \"x\" { version \"1\"\n world \"handler-plugin@1.2.0\"\n grant \"context.read\"\n handler \"context\"\n context-file \"../etc/passwd\" }",
                "not a plain file name",
            ),
            (
                "plugin \"x\" { version \"1\"\n world \"tool-plugin@1.2.0\"\n context-file \"AGENTS.md\"\n tool \"a\" }",
                "belong to a `context` handler",
            ),
            (
                "plugin \"x\" { version \"1\"\n world \"handler-plugin@1.2.0\"\n tool \"a\" }",
                "at least one `handler",
            ),
            ("plugin \"smith\" { }", "reserved"),
            (
                "plugin \"x\" { version \"1\"\n world \"policy-plugin@1.2.0\"\n handler \"hooks\"\n event \"before-tool\" read-only=#false }",
                "belongs to event \"before-effect\"",
            ),
            (
                "plugin \"x\" { version \"1\"\n world \"tool-plugin@1.2.0\"\n tool \"a\"\n state \"s\" scope=\"galaxy\" version=1 max-bytes=10 }",
                "not one of branch, session, project, user",
            ),
            (
                "plugin \"x\" { version \"1\"\n world \"tool-plugin@1.2.0\"\n tool \"a\"\n state \"s\" scope=\"user\" version=0 max-bytes=10 }",
                "whole number ≥ 1",
            ),
            (
                "plugin \"x\" { version \"1\"\n world \"tool-plugin@1.2.0\"\n tool \"a\"\n state \"s\" scope=\"user\" version=1 max-bytes=2000000 }",
                "from 1 to 1048576",
            ),
            (
                "plugin \"x\" { version \"1\"\n world \"tool-plugin@1.2.0\"\n tool \"a\"\n state \"s\" scope=\"user\" version=1 }",
                "needs `max-bytes`",
            ),
            (
                "plugin \"x\" { version \"1\"\n world \"tool-plugin@1.2.0\"\n tool \"a\"\n state \"s\" scope=\"user\" version=1 max-bytes=9\n state \"s\" scope=\"branch\" version=1 max-bytes=9 }",
                "declared twice",
            ),
            (
                "plugin \"x\" { version \"1\"\n world \"handler-plugin@1.2.0\"\n handler \"queue-policy\"\n state \"s\" scope=\"user\" version=1 max-bytes=9 }",
                "`state` slots belong to",
            ),
            (
                "plugin \"x\" { version \"1\"\n world \"tool-plugin@1.2.0\"\n tool \"a\"\n input \"Bad Name\" }",
                "`input` takes one name",
            ),
            (
                "plugin \"x\" { version \"1\"\n world \"tool-plugin@1.2.0\"\n tool \"a\"\n input \"i\"\n input \"i\" }",
                "input `i` is declared twice",
            ),
            (
                "plugin \"x\" { version \"1\"\n world \"tool-plugin@1.2.0\"\n tool \"a\"\n input \"s\"\n state \"s\" scope=\"user\" version=1 max-bytes=9 }",
                "both as an input and as a state slot",
            ),
            (
                "plugin \"x\" { version \"1\"\n world \"handler-plugin@1.2.0\"\n handler \"queue-policy\"\n input \"i\" }",
                "`input` belongs to",
            ),
            (
                "plugin \"x\" { version \"1\"\n world \"tool-plugin@1.2.0\"\n tool \"a\"\n input \"a\"\n input \"b\"\n input \"c\"\n input \"d\"\n input \"e\" }",
                "at most 4 inputs",
            ),
        ] {
            let err = Manifest::parse(text, "m.kdl").unwrap_err().to_string();
            assert!(err.contains(says) && err.contains("m.kdl"), "{text}: {err}");
        }
    }

    #[test]
    fn run_time_tools_take_a_prefix_and_a_user_cache_and_bad_ones_say_why() {
        let head = "plugin \"m\" { version \"1\"\n world \"tool-plugin@1.9.0\"\n";
        let m = Manifest::parse(
            &format!("{head} dynamic-tools prefix=\"mcp__\" cache=\"tools\"\n state \"tools\" scope=\"user\" version=1 max-bytes=99\n}}"),
            "m.kdl",
        )
        .unwrap();
        assert!(m.tools.is_empty());
        assert_eq!(
            m.dynamic,
            Some(DynamicTools {
                prefix: "mcp__".to_owned(),
                cache: Some("tools".to_owned()),
                source: None,
            })
        );
        for (body, says) in [
            ("dynamic-tools", "needs a `prefix`"),
            (
                "dynamic-tools prefix=\"a b\"",
                "needs a `prefix` of 1 to 32",
            ),
            (
                "dynamic-tools prefix=\"x\" loud=#true",
                "unknown dynamic-tools property `loud`",
            ),
            ("dynamic-tools \"x\"", "takes properties only"),
            (
                "dynamic-tools prefix=\"x\"\n dynamic-tools prefix=\"y\"",
                "declared twice",
            ),
            (
                "dynamic-tools prefix=\"x\" cache=\"c\"",
                "does not declare with scope=\"user\"",
            ),
            (
                "dynamic-tools prefix=\"x\" cache=\"c\"\n state \"c\" scope=\"session\" version=1 max-bytes=9",
                "does not declare with scope=\"user\"",
            ),
            (
                "dynamic-tools prefix=\"x_\"\n tool \"x_a\"",
                "tool `x_a` starts with the prefix `x_`",
            ),
        ] {
            let err = Manifest::parse(&format!("{head} {body}\n}}"), "m.kdl")
                .unwrap_err()
                .to_string();
            assert!(err.contains(says), "{body}: {err}");
        }
        // Only a tool plugin built against 1.4.0 or later exports `discover`.
        for (text, says) in [
            (
                "plugin \"m\" { version \"1\"\n world \"tool-plugin@1.3.0\"\n dynamic-tools prefix=\"x\"\n}",
                "built against package 1.4.0 or later",
            ),
            (
                "plugin \"m\" { version \"1\"\n world \"product-plugin@1.9.0\"\n dynamic-tools prefix=\"x\"\n}",
                "belongs to a `tool-plugin@1.9.0` plugin",
            ),
        ] {
            let err = Manifest::parse(text, "m.kdl").unwrap_err().to_string();
            assert!(err.contains(says), "{text}: {err}");
        }
    }

    #[test]
    fn the_turn_end_event_needs_a_policy_plugin_built_against_1_6_0() {
        let policy = |package: &str| {
            format!(
                "plugin \"h\" {{ version \"1\"\n world \"policy-plugin@{package}\"\n handler \"hooks\"\n event \"turn-end\"\n}}"
            )
        };
        let m = Manifest::parse(&policy("1.6.0"), "h.kdl").unwrap();
        assert_eq!(m.policy_events, ["turn-end"]);
        let err = Manifest::parse(&policy("1.5.0"), "h.kdl")
            .unwrap_err()
            .to_string();
        assert!(
            err.contains("needs a plugin built against package 1.6.0"),
            "{err}"
        );
        let tool = "plugin \"t\" { version \"1\"\n world \"tool-plugin@1.9.0\"\n tool \"a\"\n event \"turn-end\"\n}";
        let err = Manifest::parse(tool, "t.kdl").unwrap_err().to_string();
        assert!(
            err.contains("belong to a `policy-plugin@1.9.0` plugin"),
            "{err}"
        );
    }
}
