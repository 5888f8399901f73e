//! The `smith:plugin/secrets` import: a plugin's one-time handoff of a secret it created to the
//! secret proxy (the policy's shared registry). Not an effect — nothing about it is recorded as
//! one; the agent records the registration (name, label, source) before the call's result.

use crate::grants::Grant;
use crate::runtime::State;
use crate::runtime::bindings::smith::plugin::secrets as wit;

impl wit::Host for State {
    fn register(
        &mut self,
        name: String,
        value: String,
        label: Option<String>,
    ) -> Result<String, String> {
        let call = &self.call;
        let plugin = call.plugin.split('#').next().unwrap_or(&call.plugin);
        if !call.granted.grants.contains(&Grant::SecretsRegister) {
            return Err(format!(
                "plugin {plugin} may not register secrets: its manifest does not request the `secrets.register` grant"
            ));
        }
        let label = label.map(|l| l.chars().take(200).collect::<String>());
        call.policy
            .secrets
            .register(&name, &value, label.as_deref(), &format!("plugin:{plugin}"))
            .map_err(|e| e.to_string())
    }
}
