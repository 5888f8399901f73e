//! Product plugins (`product-plugin` world): what they contribute to the product layer —
//! commands, key bindings, themes, a layout — read once when they load, and their `handler`
//! commands run on demand. A product plugin is loaded as a tool plugin too (its tools, if it
//! has any, are called like any other). Its `contributions` and `run` execute in an inert
//! instance: nothing granted, no effects; what a command does is the verbs it returns.
//!
//! The contributions are taken as the plugin gives them; what they mean (names, keys,
//! colours, a verb's arguments) is checked where they are composed (`smith_app::product`),
//! which reports and skips a bad contribution rather than refusing the plugin.

use std::time::Duration;

use crate::effects::CallState;
use crate::runtime::{Runtime, State};

/// Generated bindings of the `product-plugin` world.
#[allow(missing_docs, unreachable_pub, clippy::all)]
pub(crate) mod bindings {
    wasmtime::component::bindgen!({
        path: "../../plugins/wit",
        world: "product-plugin",
    });
}

/// The product layer's WIT types (`smith:plugin/product`), as the host hands them on.
pub mod types {
    pub use super::bindings::smith::plugin::product::{
        Argument, ArgumentKind, ArgumentValue, Binding, BindingTarget, Command, CommandAction,
        Contributions, Intent, KeyAction, Layout, Level, Picker, Style, Theme, Verb, VerbKind,
    };
}

use types::{ArgumentValue, Contributions, Intent};

/// How long `contributions` or `run` may take (wall time).
pub const PRODUCT_DEADLINE: Duration = Duration::from_secs(5);

/// The product part of a loaded product plugin.
pub(crate) struct ProductPart {
    pre: bindings::ProductPluginPre<State>,
    tier: crate::cache::Tier,
    pub(crate) contributions: Contributions,
}

/// Read what the component behind `pre` contributes, in an inert instance.
pub(crate) fn load(
    runtime: &Runtime,
    tier: crate::cache::Tier,
    instance_pre: wasmtime::component::InstancePre<State>,
    plugin: &str,
) -> Result<ProductPart, String> {
    let pre = bindings::ProductPluginPre::new(instance_pre)
        .map_err(|e| format!("it does not export the `product-plugin` world: {e:#}"))?;
    let mut store = runtime.store(tier, CallState::inert(plugin), PRODUCT_DEADLINE);
    let _kernel = smith_memory::ScopeGuard::open(smith_memory::Kind::KernelCall);
    let instance = pre
        .instantiate(&mut store)
        .map_err(|e| format!("it cannot be instantiated: {e:#}"))?;
    let contributions = instance
        .call_contributions(&mut store)
        .map_err(|e| format!("its `contributions` export failed: {e:#}"))?;
    Ok(ProductPart {
        pre,
        tier,
        contributions,
    })
}

impl ProductPart {
    /// Run command `name` with `arguments` in a fresh inert instance, its `runtime` questions
    /// answered by `query`.
    pub(crate) fn run(
        &self,
        runtime: &Runtime,
        plugin: &str,
        (name, arguments): (&str, &[(String, ArgumentValue)]),
        query: Option<crate::SharedQuery>,
    ) -> Result<Vec<Intent>, String> {
        let mut call = CallState::inert(plugin);
        call.query = query;
        let mut store = runtime.store(self.tier, call, PRODUCT_DEADLINE);
        let _kernel = smith_memory::ScopeGuard::open(smith_memory::Kind::KernelCall);
        let instance = self
            .pre
            .instantiate(&mut store)
            .map_err(|e| format!("plugin {plugin} cannot be instantiated: {e:#}"))?;
        instance
            .call_run(&mut store, name, arguments)
            .map_err(|e| format!("plugin {plugin} failed running command `{name}`: {e:#}"))?
            .map_err(|reason| format!("plugin {plugin}: command `{name}` failed: {reason}"))
    }
}
