//! Smith configuration (grown by the configuration issue).
//!
//! Will own KDL configuration files, the seven-level precedence of the spec (product defaults,
//! built-in plugin defaults, plugin contributions, user configuration, trusted project
//! configuration, environment variables, command-line overrides), the provenance of every
//! resolved value, and project trust. Nothing is implemented yet: no crate depends on it, and
//! today the only settings are the `smith eval` flags and the paths of DESIGN §7.
//!
//! Must never print, and must not depend on the agent, renderers or frontends.
