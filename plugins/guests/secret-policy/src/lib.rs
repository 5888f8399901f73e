//! The bundled secret policy (Smith spec: Compaction, cost, and secrets — "Secret routing and
//! authorization policy is plugin-contributed"; the secret proxy restores secrets "only for
//! authorized local effects").
//!
//! Asked with a `restore` event when a tool's effect input holds a registered secret's
//! reference, it answers `restore` — the effect gets the plaintext — for a local process
//! (`process.run`) and for a file write or edit (`fs.write`, `fs.edit`; the host confines those
//! to the roots the plugin is granted, the working directory). Any other effect, and every
//! network effect, gets the reference itself. Other events get no action.

use smith_plugin_sdk::export_handler_plugin;
use smith_plugin_sdk::handler::{Action, Guest, LifecycleEvent};

struct SecretPolicy;

/// The effects that may receive a secret's plaintext.
const LOCAL_EFFECTS: [&str; 3] = ["process.run", "fs.write", "fs.edit"];

impl Guest for SecretPolicy {
    fn handle(event: LifecycleEvent) -> Result<Vec<Action>, String> {
        Ok(match event {
            LifecycleEvent::Restore(r) if LOCAL_EFFECTS.contains(&r.effect.as_str()) => {
                vec![Action::Restore]
            }
            _ => Vec::new(),
        })
    }
}

export_handler_plugin!(SecretPolicy);
