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

use smith_config::kdl::line_of;

/// The most problems one diagnostic lists (the rest are counted).
pub const MAX_PROBLEMS: usize = 20;

/// The deepest chain of aliases and groups a selection may follow.
pub const MAX_DEPTH: usize = 64;

/// The most physical models a selection may resolve to.
pub const MAX_TARGETS: usize = 32;

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

    /// Every alias name, then every group name, each sorted: what a model picker offers
    /// beside the catalog's models.
    pub fn names(&self) -> Vec<&str> {
        self.aliases
            .keys()
            .chain(self.groups.keys())
            .map(String::as_str)
            .collect()
    }

    /// Whether nothing is defined.
    pub fn is_empty(&self) -> bool {
        self.aliases.is_empty() && self.groups.is_empty() && self.problems.is_empty()
    }

    /// Resolve `selection` to its physical models in failover order (a model reached twice
    /// is kept at its first place).
    ///
    /// # Errors
    /// [`RouteError::Invalid`] listing every definition problem, each cycle once (named in
    /// full, `a → b → a`) and every unknown member (at most [`MAX_PROBLEMS`] lines);
    /// [`RouteError::Unknown`] when the selection is nothing known; [`RouteError::Invalid`]
    /// when it resolves to more than [`MAX_TARGETS`] models.
    pub fn resolve(&self, selection: &str) -> Result<Vec<Target>, RouteError> {
        let mut problems = self.problems.clone();
        problems.extend(self.check());
        if !problems.is_empty() {
            let total = problems.len();
            problems.truncate(MAX_PROBLEMS);
            if total > MAX_PROBLEMS {
                problems.push(format!("and {} more", total - MAX_PROBLEMS));
            }
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
        // The table is acyclic and every name is defined: a walk ends. Each name expands
        // once (a name reached again adds only models not seen yet), so the walk is linear in
        // the table's size.
        let mut targets = Vec::new();
        let mut expanded = std::collections::HashSet::new();
        let mut seen = std::collections::HashSet::new();
        self.expand(
            selection,
            &mut vec![],
            false,
            &mut expanded,
            &mut seen,
            &mut targets,
        )?;
        Ok(targets)
    }

    /// Every cycle (once each) and every unknown member, by one depth-first pass over the
    /// whole table.
    fn check(&self) -> Vec<String> {
        #[derive(Clone, Copy, PartialEq)]
        enum Mark {
            Open,
            Done,
        }
        let mut marks: BTreeMap<&str, Mark> = BTreeMap::new();
        let mut problems = Vec::new();
        let names: Vec<&str> = self
            .aliases
            .keys()
            .chain(self.groups.keys())
            .map(String::as_str)
            .collect();
        for root in names {
            if marks.contains_key(root) {
                continue;
            }
            // An explicit stack of (name, next member index): no recursion, so a long chain
            // cannot overflow the thread's stack.
            let mut stack: Vec<(&str, usize)> = vec![(root, 0)];
            marks.insert(root, Mark::Open);
            while let Some((name, at)) = stack.last().copied() {
                let members = self.members(name).unwrap_or(&[]);
                let Some(member) = members.get(at) else {
                    marks.insert(name, Mark::Done);
                    stack.pop();
                    continue;
                };
                if let Some(top) = stack.last_mut() {
                    top.1 += 1;
                }
                let member = member.as_str();
                if member.contains('/') {
                    if let Err(e) = member.parse::<ModelRef>() {
                        problems.push(e.to_string());
                    }
                    continue;
                }
                if self.members(member).is_none() {
                    let at = self
                        .definition(name)
                        .map_or(String::new(), |d| format!("{}: ", d.at));
                    problems.push(format!(
                        "{at}`{member}` (in `{name}`) is not a model (PROVIDER/MODEL), an alias or a group"
                    ));
                    continue;
                }
                match marks.get(member) {
                    Some(Mark::Done) => {}
                    Some(Mark::Open) => {
                        let from = stack.iter().position(|(n, _)| *n == member).unwrap_or(0);
                        let mut cycle: Vec<&str> = stack[from..].iter().map(|(n, _)| *n).collect();
                        cycle.push(member);
                        problems.push(format!("cycle {}", cycle.join(" → ")));
                    }
                    None => {
                        marks.insert(member, Mark::Open);
                        stack.push((member, 0));
                    }
                }
            }
        }
        problems
    }

    fn definition(&self, name: &str) -> Option<&Definition> {
        self.aliases.get(name).or_else(|| self.groups.get(name))
    }

    /// The members of alias or group `name` (none when it is both: reported as ambiguous).
    fn members(&self, name: &str) -> Option<&[String]> {
        match (self.aliases.get(name), self.groups.get(name)) {
            (Some(a), None) => Some(&a.members),
            (None, Some(g)) => Some(&g.members),
            (Some(_), Some(_)) => Some(&[]),
            (None, None) => None,
        }
    }

    fn expand(
        &self,
        name: &str,
        stack: &mut Vec<String>,
        via_group: bool,
        expanded: &mut std::collections::HashSet<String>,
        seen: &mut std::collections::HashSet<ModelRef>,
        out: &mut Vec<Target>,
    ) -> Result<(), RouteError> {
        if name.contains('/') {
            let model: ModelRef = name
                .parse()
                .map_err(|e: smith::ModelRefError| RouteError::Invalid(vec![e.to_string()]))?;
            if seen.insert(model.clone()) {
                if out.len() == MAX_TARGETS {
                    return Err(RouteError::Invalid(vec![format!(
                        "`{}` resolves to more than {MAX_TARGETS} models; a failover order that long is a mistake — shorten the group",
                        stack.first().map_or(name, String::as_str)
                    )]));
                }
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
            return Ok(());
        }
        if !expanded.insert(name.to_owned()) {
            return Ok(());
        }
        if stack.len() >= MAX_DEPTH {
            return Err(RouteError::Invalid(vec![format!(
                "`{}` nests aliases and groups more than {MAX_DEPTH} deep (at `{name}`); flatten the chain",
                stack.first().map_or(name, String::as_str)
            )]));
        }
        let is_group = self.groups.contains_key(name);
        let members = self.members(name).unwrap_or(&[]);
        stack.push(name.to_owned());
        for member in members {
            self.expand(member, stack, via_group || is_group, expanded, seen, out)?;
        }
        stack.pop();
        Ok(())
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
    fn each_cycle_is_named_once_and_long_tables_stay_linear() {
        let mut text = String::new();
        for i in 0..1000 {
            text.push_str(&format!("alias \"a{i}\" \"a{}\"\n", (i + 1) % 1000));
        }
        let err = RouteTable::parse(&text, "m.kdl")
            .resolve("x/y")
            .unwrap_err()
            .to_string();
        assert_eq!(
            err.matches("cycle").count(),
            1,
            "{}",
            &err[..200.min(err.len())]
        );
        let table = RouteTable::parse("alias \"a\" \"b\"\nalias \"b\" \"a\"", "m.kdl");
        let err = table.resolve("x/y").unwrap_err().to_string();
        assert_eq!(err.matches("cycle").count(), 1, "{err}");
        // A long chain without a cycle: refused past the depth bound, quickly.
        let mut text = String::new();
        for i in 0..1000 {
            text.push_str(&format!("alias \"a{i}\" \"a{}\"\n", i + 1));
        }
        text.push_str("alias \"a1000\" \"x/y\"\n");
        let table = RouteTable::parse(&text, "m.kdl");
        assert!(table.resolve("a990").is_ok());
        assert!(
            table
                .resolve("a0")
                .unwrap_err()
                .to_string()
                .contains("more than 64 deep")
        );
        // A group with more members than a failover order may have.
        let members: Vec<String> = (0..40).map(|i| format!("\"p/m{i}\"")).collect();
        let table = RouteTable::parse(&format!("group \"g\" {}", members.join(" ")), "m.kdl");
        assert!(
            table
                .resolve("g")
                .unwrap_err()
                .to_string()
                .contains("more than 32 models")
        );
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
