//! Aliases and groups: resolving a selection to its ordered physical models, offline and
//! deterministically (spec: Providers, models, and authentication → Failover, Dispatch
//! identity).
//!
//! They are written in the user's `models.kdl`:
//!
//! ```kdl
//! alias "fast" "anthropic/claude-haiku-4-5"
//! group "main" "anthropic/claude-sonnet-4-6" "fast" "openai/gpt-5.5"
//! ```
//!
//! An alias names one selection (a model, an alias or a group); a group names a failover
//! order of selections. Names hold no `/` (that makes a model reference). Resolution never
//! touches the network; cycles, a name that is both an alias and a group, and empty or
//! repeated definitions fail with every problem listed.

use std::collections::BTreeMap;

use kdl::KdlDocument;
use smith::{ModelRef, RouteSource};

use crate::catalog::line_of;

/// One definition: its members (one for an alias) and where it was written.
#[derive(Clone, Debug, PartialEq, Eq)]
struct Definition {
    members: Vec<String>,
    at: String,
}

/// The aliases and groups of a `models.kdl`.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct RouteTable {
    aliases: BTreeMap<String, Definition>,
    groups: BTreeMap<String, Definition>,
    /// Problems found while reading (repeats, bad names), reported at resolution.
    problems: Vec<String>,
}

/// One physical model a selection resolved to.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Target {
    /// The physical model.
    pub model: ModelRef,
    /// Direct, through aliases, or through a group.
    pub source: RouteSource,
    /// The names followed, from the selection to the model.
    pub path: Vec<String>,
}

/// Why a selection did not resolve. The message lists every problem.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum RouteError {
    /// The selection is neither `provider/model` nor a known alias or group.
    #[error(
        "`{name}` is not a model (write PROVIDER/MODEL, e.g. scripted/demo), an alias or a group; {known}"
    )]
    Unknown {
        /// The selection.
        name: String,
        /// What is defined, as text.
        known: String,
    },
    /// The routing table is inconsistent.
    #[error("the aliases and groups in models.kdl cannot be resolved: {}", .0.join("; "))]
    Invalid(Vec<String>),
}

impl RouteTable {
    /// Read the `alias` and `group` nodes of a `models.kdl` text (other nodes are the
    /// catalog's). Definition problems are kept and reported when a selection is resolved.
    pub fn parse(text: &str, origin: &str) -> Self {
        let mut table = Self::default();
        let Ok(doc) = KdlDocument::parse(text) else {
            // The catalog parse of the same text reports the syntax error.
            return table;
        };
        for node in doc.nodes() {
            let kind = node.name().value();
            if kind != "alias" && kind != "group" {
                continue;
            }
            let at = format!("{origin}:{}", line_of(text, node.span().offset()));
            let args: Vec<Option<&str>> = node
                .entries()
                .iter()
                .map(|e| {
                    if e.name().is_some() {
                        None
                    } else {
                        e.value().as_string()
                    }
                })
                .collect();
            let Some((Some(name), members)) = args.split_first() else {
                table
                    .problems
                    .push(format!("{at}: `{kind}` needs a quoted name and members"));
                continue;
            };
            let members: Option<Vec<String>> =
                members.iter().map(|m| m.map(str::to_owned)).collect();
            let Some(members) = members else {
                table.problems.push(format!(
                    "{at}: the members of {kind} `{name}` must be quoted strings"
                ));
                continue;
            };
            if name.is_empty() || name.contains('/') || name.chars().any(char::is_whitespace) {
                table.problems.push(format!(
                    "{at}: {kind} name `{name}` may not be empty or hold `/` or spaces (those make model references)"
                ));
                continue;
            }
            let expected = if kind == "alias" {
                members.len() == 1
            } else {
                !members.is_empty()
            };
            if !expected {
                table.problems.push(format!(
                    "{at}: {}",
                    if kind == "alias" {
                        format!("alias `{name}` names exactly one model, alias or group")
                    } else {
                        format!("group `{name}` is empty; list its members in failover order")
                    }
                ));
                continue;
            }
            let map = if kind == "alias" {
                &mut table.aliases
            } else {
                &mut table.groups
            };
            if let Some(first) = map.get(*name) {
                table.problems.push(format!(
                    "{at}: {kind} `{name}` is defined again (first at {})",
                    first.at
                ));
                continue;
            }
            map.insert(
                (*name).to_owned(),
                Definition {
                    members,
                    at: at.clone(),
                },
            );
        }
        for (name, alias) in &table.aliases {
            if let Some(group) = table.groups.get(name) {
                table.problems.push(format!(
                    "`{name}` is ambiguous: an alias at {} and a group at {}; rename one",
                    alias.at, group.at
                ));
            }
        }
        table
    }

    /// Whether nothing is defined.
    pub fn is_empty(&self) -> bool {
        self.aliases.is_empty() && self.groups.is_empty() && self.problems.is_empty()
    }

    /// Resolve `selection` to its physical models in failover order (a model reached twice
    /// is kept at its first place).
    ///
    /// # Errors
    /// [`RouteError::Invalid`] listing every definition problem, every cycle (named in full,
    /// `a → b → a`) and every unknown member; [`RouteError::Unknown`] when the selection is
    /// nothing known.
    pub fn resolve(&self, selection: &str) -> Result<Vec<Target>, RouteError> {
        let mut problems = self.problems.clone();
        // Every definition is checked, so one run shows every problem.
        let mut names: Vec<&String> = self.aliases.keys().chain(self.groups.keys()).collect();
        names.dedup();
        for name in names {
            let mut scratch = Vec::new();
            self.walk(name, &mut vec![], false, &mut scratch, &mut problems);
        }
        problems.sort();
        problems.dedup();
        if !problems.is_empty() {
            return Err(RouteError::Invalid(problems));
        }
        if !selection.contains('/')
            && !self.aliases.contains_key(selection)
            && !self.groups.contains_key(selection)
        {
            return Err(RouteError::Unknown {
                name: selection.to_owned(),
                known: self.known(),
            });
        }
        let mut targets = Vec::new();
        let mut problems = Vec::new();
        self.walk(selection, &mut vec![], false, &mut targets, &mut problems);
        if !problems.is_empty() {
            return Err(RouteError::Invalid(problems));
        }
        let mut seen = std::collections::HashSet::new();
        targets.retain(|t| seen.insert(t.model.clone()));
        Ok(targets)
    }

    fn walk(
        &self,
        name: &str,
        stack: &mut Vec<String>,
        via_group: bool,
        out: &mut Vec<Target>,
        problems: &mut Vec<String>,
    ) {
        if let Some(at) = stack.iter().position(|s| s == name) {
            let mut cycle: Vec<&str> = stack[at..].iter().map(String::as_str).collect();
            cycle.push(name);
            problems.push(format!("cycle {}", cycle.join(" → ")));
            return;
        }
        if name.contains('/') {
            match name.parse::<ModelRef>() {
                Ok(model) => {
                    let mut path = stack.clone();
                    path.push(name.to_owned());
                    out.push(Target {
                        model,
                        source: if via_group {
                            RouteSource::Group
                        } else if stack.is_empty() {
                            RouteSource::Direct
                        } else {
                            RouteSource::Alias
                        },
                        path,
                    });
                }
                Err(e) => problems.push(e.to_string()),
            }
            return;
        }
        let (definition, is_group) = match (self.aliases.get(name), self.groups.get(name)) {
            (Some(a), None) => (a, false),
            (None, Some(g)) => (g, true),
            (Some(_), Some(_)) => return, // reported as ambiguous
            (None, None) => {
                let from = stack
                    .last()
                    .map_or(String::new(), |s| format!(" (in `{s}`)"));
                problems.push(format!(
                    "`{name}`{from} is not a model (PROVIDER/MODEL), an alias or a group"
                ));
                return;
            }
        };
        stack.push(name.to_owned());
        for member in &definition.members {
            self.walk(member, stack, via_group || is_group, out, problems);
        }
        stack.pop();
    }

    fn known(&self) -> String {
        let list = |m: &BTreeMap<String, Definition>| {
            if m.is_empty() {
                "none".to_owned()
            } else {
                m.keys().cloned().collect::<Vec<_>>().join(", ")
            }
        };
        format!(
            "aliases: {}; groups: {} (defined in models.kdl beside config.kdl)",
            list(&self.aliases),
            list(&self.groups)
        )
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn models(targets: &[Target]) -> Vec<String> {
        targets.iter().map(|t| t.model.to_string()).collect()
    }

    #[test]
    fn aliases_and_groups_resolve_in_order() {
        let table = RouteTable::parse(
            "alias \"fast\" \"a/small\"\ngroup \"main\" \"a/big\" \"fast\" \"b/other\" \"a/big\"\nalias \"m\" \"main\"",
            "models.kdl",
        );
        assert_eq!(models(&table.resolve("fast").unwrap()), ["a/small"]);
        let main = table.resolve("m").unwrap();
        assert_eq!(models(&main), ["a/big", "a/small", "b/other"]);
        assert_eq!(main[1].path, ["m", "main", "fast", "a/small"]);
        assert_eq!(main[1].source, RouteSource::Group);
        assert_eq!(table.resolve("fast").unwrap()[0].source, RouteSource::Alias);
        assert_eq!(table.resolve("x/y").unwrap()[0].source, RouteSource::Direct);
    }

    #[test]
    fn cycles_ambiguity_and_unknowns_are_all_reported() {
        let table = RouteTable::parse(
            "alias \"a\" \"b\"\nalias \"b\" \"g\"\ngroup \"g\" \"x/y\" \"a\"\nalias \"dup\" \"x/y\"\ngroup \"dup\" \"x/y\"\nalias \"lost\" \"nowhere\"",
            "models.kdl",
        );
        let err = table.resolve("x/y").unwrap_err().to_string();
        assert!(err.contains("cycle a → b → g → a"), "{err}");
        assert!(err.contains("`dup` is ambiguous"), "{err}");
        assert!(err.contains("`nowhere` (in `lost`)"), "{err}");
    }

    #[test]
    fn unknown_selection_lists_what_is_defined() {
        let table = RouteTable::parse("alias \"fast\" \"a/b\"", "models.kdl");
        let err = table.resolve("slow").unwrap_err().to_string();
        assert!(err.contains("aliases: fast"), "{err}");
    }

    #[test]
    fn bad_definitions_are_reported() {
        let table = RouteTable::parse(
            "alias \"a/b\" \"c/d\"\ngroup \"e\"\nalias \"f\" \"x/y\" \"z/w\"\nalias \"f2\" \"x/y\"\nalias \"f2\" \"x/z\"",
            "m.kdl",
        );
        let err = table.resolve("x/y").unwrap_err().to_string();
        for needle in [
            "m.kdl:1",
            "m.kdl:2: group `e` is empty",
            "m.kdl:3",
            "m.kdl:5: alias `f2` is defined again",
        ] {
            assert!(err.contains(needle), "{needle}: {err}");
        }
    }
}
