//! Smith's bundled plugins: ordinary wasm components under the same contract as any user
//! plugin (spec: Tools — "Bundled defaults and user tools are ordinary sandboxed plugins"),
//! built from `plugins/guests` by this crate's build script and embedded here with their KDL
//! manifests. Nothing in core knows their tool names.

/// A plugin shipped inside the binary: its manifest (KDL text) and its component bytes.
#[derive(Clone, Copy, Debug)]
pub struct BundledPlugin {
    /// Where the manifest came from, for diagnostics (`bundled:files/plugin.kdl`).
    pub origin: &'static str,
    /// The manifest, KDL text.
    pub manifest: &'static str,
    /// The wasm component (wasm32-wasip2).
    pub component: &'static [u8],
}

/// The plugins every Smith starts with: the file and search tools (`read`, `write`, `edit`,
/// `ls`, `find`, `grep`), the `bash` tool, the queue delivery policy, and the provider codecs
/// (`scripted`, `anthropic`, `openai`, `google`, `openai-compatible`).
pub static BUNDLED: &[BundledPlugin] = &[
    BundledPlugin {
        origin: "bundled:files/plugin.kdl",
        manifest: include_str!("../../guests/files/plugin.kdl"),
        component: include_bytes!(concat!(env!("OUT_DIR"), "/smith_files.wasm")),
    },
    BundledPlugin {
        origin: "bundled:shell/plugin.kdl",
        manifest: include_str!("../../guests/shell/plugin.kdl"),
        component: include_bytes!(concat!(env!("OUT_DIR"), "/smith_shell.wasm")),
    },
    BundledPlugin {
        origin: "bundled:queue/plugin.kdl",
        manifest: include_str!("../../guests/queue/plugin.kdl"),
        component: include_bytes!(concat!(env!("OUT_DIR"), "/smith_queue.wasm")),
    },
    BundledPlugin {
        origin: "bundled:scripted/plugin.kdl",
        manifest: include_str!("../../guests/scripted/plugin.kdl"),
        component: include_bytes!(concat!(env!("OUT_DIR"), "/smith_scripted.wasm")),
    },
    BundledPlugin {
        origin: "bundled:anthropic/plugin.kdl",
        manifest: include_str!("../../guests/anthropic/plugin.kdl"),
        component: include_bytes!(concat!(env!("OUT_DIR"), "/smith_anthropic.wasm")),
    },
    BundledPlugin {
        origin: "bundled:openai/plugin.kdl",
        manifest: include_str!("../../guests/openai/plugin.kdl"),
        component: include_bytes!(concat!(env!("OUT_DIR"), "/smith_openai.wasm")),
    },
    BundledPlugin {
        origin: "bundled:google/plugin.kdl",
        manifest: include_str!("../../guests/google/plugin.kdl"),
        component: include_bytes!(concat!(env!("OUT_DIR"), "/smith_google.wasm")),
    },
    BundledPlugin {
        origin: "bundled:openai-compatible/plugin.kdl",
        manifest: include_str!("../../guests/openai-compatible/plugin.kdl"),
        component: include_bytes!(concat!(env!("OUT_DIR"), "/smith_openai_compatible.wasm")),
    },
];

/// The misbehaving test plugin (infinite loop, memory bomb, trap, stdout, flood…), only with
/// the `test-plugins` feature; never part of the smith binary.
#[cfg(feature = "test-plugins")]
pub static HOSTILE: BundledPlugin = BundledPlugin {
    origin: "test:hostile/plugin.kdl",
    manifest: include_str!("../../guests/hostile/plugin.kdl"),
    component: include_bytes!(concat!(env!("OUT_DIR"), "/smith_hostile.wasm")),
};

/// The misbehaving lifecycle handler (spins, traps, memory bomb, failure, invalid actions),
/// only with the `test-plugins` feature; never part of the smith binary.
#[cfg(feature = "test-plugins")]
pub static HOSTILE_HANDLER: BundledPlugin = BundledPlugin {
    origin: "test:hostile-handler/plugin.kdl",
    manifest: include_str!("../../guests/hostile-handler/plugin.kdl"),
    component: include_bytes!(concat!(env!("OUT_DIR"), "/smith_hostile_handler.wasm")),
};
