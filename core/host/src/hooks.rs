//! The hooks the user configured (`hooks.NAME.*`; the hooks guide): programs to run before or
//! after the tool calls a hook names, or at the end of a turn that made such calls. The host
//! decides which hooks match a call's `before-tool` or `after-tool` event — the tool's name,
//! and the paths the call names — or a turn's end, and hands exactly those to a policy handler
//! whose manifest declares `configured-hooks` (the bundled `hooks` plugin), which runs them; a
//! handler no hook matches is not even instantiated.

use std::path::Path;
use std::time::Duration;

use globset::{Glob, GlobBuilder, GlobSet, GlobSetBuilder};

/// When a hook runs.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum HookEvent {
    /// Before a validated tool call runs (`hooks.NAME.before-tool`): a program that fails
    /// refuses the call.
    BeforeTool,
    /// After a tool call returned (`hooks.NAME.after-tool`): what the program says is added
    /// for the model.
    AfterTool,
    /// At the end of a turn that made a call of the tools it names, or of every turn for `*`
    /// (`hooks.NAME.turn-end`): the person is told how it went.
    TurnEnd,
}

impl HookEvent {
    /// The event's name, as the configuration key and the policy event write it.
    pub fn name(self) -> &'static str {
        match self {
            Self::BeforeTool => "before-tool",
            Self::AfterTool => "after-tool",
            Self::TurnEnd => "turn-end",
        }
    }
}

/// One configured hook, checked.
#[derive(Clone, Debug)]
pub struct Hook {
    /// Its name (`NAME` of `hooks.NAME.*`).
    pub name: String,
    /// When it runs.
    pub event: HookEvent,
    /// The tool-name patterns as written (`edit|write`).
    pub tools: String,
    /// The path globs as written (comma-separated; empty: every call of those tools).
    pub paths: String,
    /// The command line, run with `sh -c`.
    pub run: String,
    /// How long it may run.
    pub timeout: Duration,
    /// Where it was configured (`FILE:LINE` of its `run`), for messages.
    pub source: String,
    tool_set: GlobSet,
    path_set: Option<GlobSet>,
}

/// Why a hook's matcher cannot be used.
#[derive(Debug, thiserror::Error, PartialEq, Eq)]
pub enum HookError {
    /// The tool-name pattern is empty, has an empty alternative, or holds a character no tool
    /// name has.
    #[error(
        "tool pattern {pattern:?} {reason}; write tool names separated by `|`, `*` for any run of characters (`edit|write`, `mcp__*`)"
    )]
    Tools {
        /// The pattern as written.
        pattern: String,
        /// What is wrong.
        reason: String,
    },
    /// A path glob does not parse.
    #[error(
        "path glob {glob:?} cannot be used ({reason}); write globs separated by commas (`*.rs`, `src/**/*.ts`)"
    )]
    Paths {
        /// The glob as written.
        glob: String,
        /// The parser's message.
        reason: String,
    },
}

/// Two hooks are the same when they were configured alike (the matchers follow from it).
impl PartialEq for Hook {
    fn eq(&self, other: &Self) -> bool {
        (
            &self.name,
            self.event,
            &self.tools,
            &self.paths,
            &self.run,
            self.timeout,
            &self.source,
        ) == (
            &other.name,
            other.event,
            &other.tools,
            &other.paths,
            &other.run,
            other.timeout,
            &other.source,
        )
    }
}

impl Eq for Hook {}

impl Hook {
    /// A hook named `name` running `run` at `event` for the tools `tools` matches (`|`
    /// between names, `*` for any run of characters) and, when `paths` names globs
    /// (comma-separated), only for calls naming a path one of them matches — a glob without
    /// `/` against the file's name, one with `/` against the path relative to the working
    /// directory.
    ///
    /// # Errors
    /// [`HookError`] for a pattern or glob that cannot be used.
    pub fn new(
        name: &str,
        event: HookEvent,
        (tools, paths): (&str, &str),
        run: &str,
        timeout: Duration,
        source: &str,
    ) -> Result<Self, HookError> {
        let bad_tools = |reason: &str| HookError::Tools {
            pattern: tools.to_owned(),
            reason: reason.to_owned(),
        };
        let mut tool_set = GlobSetBuilder::new();
        if tools.trim().is_empty() {
            return Err(bad_tools("is empty"));
        }
        for alternative in tools.split('|').map(str::trim) {
            if alternative.is_empty() {
                return Err(bad_tools("has an empty alternative"));
            }
            if let Some(c) = alternative
                .chars()
                .find(|c| !(c.is_ascii_alphanumeric() || matches!(c, '_' | '-' | '*' | '.')))
            {
                return Err(bad_tools(&format!("holds {c:?}, which no tool name has")));
            }
            tool_set.add(Glob::new(alternative).map_err(|e| bad_tools(&e.kind().to_string()))?);
        }
        let mut path_set = GlobSetBuilder::new();
        let mut any_path = false;
        let bad_path = |glob: &str, reason: &str| HookError::Paths {
            glob: glob.to_owned(),
            reason: reason.to_owned(),
        };
        if paths.split(',').all(|g| g.trim().is_empty()) && !paths.is_empty() {
            return Err(bad_path(paths, "names no glob"));
        }
        for glob in paths.split(',').map(str::trim).filter(|g| !g.is_empty()) {
            any_path = true;
            if glob.starts_with('/') || glob.starts_with("./") || glob.starts_with("../") {
                return Err(bad_path(
                    glob,
                    "a path glob is matched against the path relative to the working directory, so one that starts with `/`, `./` or `../` never matches",
                ));
            }
            let built = GlobBuilder::new(glob)
                .literal_separator(true)
                .build()
                .map_err(|e| HookError::Paths {
                    glob: glob.to_owned(),
                    reason: e.kind().to_string(),
                })?;
            path_set.add(built);
        }
        let compiled = |set: GlobSetBuilder, what: &str| {
            set.build().map_err(|e| HookError::Paths {
                glob: what.to_owned(),
                reason: e.to_string(),
            })
        };
        Ok(Self {
            name: name.to_owned(),
            event,
            tools: tools.to_owned(),
            paths: paths.to_owned(),
            run: run.to_owned(),
            timeout,
            source: source.to_owned(),
            tool_set: compiled(tool_set, tools)?,
            path_set: if any_path {
                Some(compiled(path_set, paths)?)
            } else {
                None
            },
        })
    }

    /// Whether it runs at `event` for a call of `tool` with `arguments` (JSON) in `cwd`.
    pub fn matches(
        &self,
        event: HookEvent,
        tool: &str,
        arguments: &serde_json::Value,
        cwd: Option<&Path>,
    ) -> bool {
        event == self.event
            && self.tool_set.is_match(tool)
            && (self.path_set.is_none()
                || named_paths(arguments)
                    .iter()
                    .any(|path| self.path_matches(path, cwd)))
    }

    /// Whether a `turn-end` hook runs at the end of a turn that made `calls` (those that did
    /// their work) in `cwd`: for `*` without `paths`, always; else when it matches one of
    /// them as [`Hook::matches`] says. `Some` with the paths those calls name that its
    /// `paths` globs match (all of them when it has none), each once, in the order first
    /// named; `None` when it does not run.
    pub fn matches_turn(
        &self,
        calls: &[smith::ToolCall],
        cwd: Option<&Path>,
    ) -> Option<Vec<String>> {
        if self.event != HookEvent::TurnEnd {
            return None;
        }
        let mut matched = self.tools.trim() == "*" && self.path_set.is_none();
        let mut paths: Vec<String> = Vec::new();
        for call in calls {
            if !self.matches(HookEvent::TurnEnd, &call.name, &call.arguments, cwd) {
                continue;
            }
            matched = true;
            for path in named_paths(&call.arguments) {
                if self.path_matches(path, cwd) && !paths.iter().any(|p| p == path) {
                    paths.push(path.to_owned());
                }
            }
        }
        matched.then_some(paths)
    }

    /// Whether `path`, named by a call in `cwd`, is one of this hook's `paths` (always, when
    /// it names none): a glob without `/` against the file's name, one with `/` against the
    /// path relative to `cwd`.
    fn path_matches(&self, path: &str, cwd: Option<&Path>) -> bool {
        let Some(globs) = &self.path_set else {
            return true;
        };
        let path = Path::new(path);
        let relative = match (path.is_absolute(), cwd) {
            (true, Some(cwd)) => path.strip_prefix(cwd).unwrap_or(path),
            _ => path,
        };
        let relative = relative.strip_prefix(".").unwrap_or(relative);
        let name = relative.file_name().map(Path::new);
        globs.is_match(relative) || name.is_some_and(|n| globs.is_match(n))
    }
}

/// The paths a call's arguments name: its `path` and `file_path` strings and its `paths`
/// list (what the file tools and most MCP tools call them).
pub(crate) fn named_paths(arguments: &serde_json::Value) -> Vec<&str> {
    let mut out: Vec<&str> = ["path", "file_path"]
        .iter()
        .filter_map(|k| arguments.get(k).and_then(serde_json::Value::as_str))
        .collect();
    if let Some(list) = arguments.get("paths").and_then(serde_json::Value::as_array) {
        out.extend(list.iter().filter_map(serde_json::Value::as_str));
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn hook(tools: &str, paths: &str) -> Hook {
        Hook::new(
            "h",
            HookEvent::AfterTool,
            (tools, paths),
            "true",
            Duration::from_secs(1),
            "config.kdl:1",
        )
        .unwrap()
    }

    #[test]
    fn tools_and_paths_match_as_the_guide_says() {
        let cwd = Path::new("/p");
        let h = hook("edit|write", "*.rs");
        let after = HookEvent::AfterTool;
        assert!(h.matches(after, "edit", &json!({"path": "src/main.rs"}), Some(cwd)));
        assert!(h.matches(after, "write", &json!({"path": "/p/a.rs"}), Some(cwd)));
        assert!(!h.matches(after, "write", &json!({"path": "a.ts"}), Some(cwd)));
        assert!(!h.matches(after, "read", &json!({"path": "a.rs"}), Some(cwd)));
        assert!(!h.matches(
            HookEvent::BeforeTool,
            "edit",
            &json!({"path": "a.rs"}),
            None
        ));
        let nested = hook("mcp__*", "src/**/*.ts");
        assert!(nested.matches(
            after,
            "mcp__x__y",
            &json!({"paths": ["./src/a/b.ts"]}),
            None
        ));
        assert!(!nested.matches(after, "mcp__x__y", &json!({"paths": ["lib/b.ts"]}), None));
        assert!(hook("bash", "").matches(after, "bash", &json!({"command": "ls"}), None));
    }

    #[test]
    fn a_turn_end_hook_runs_for_the_turns_whose_calls_it_matches_with_their_paths() {
        let cwd = Path::new("/p");
        let end = |tools: &str, paths: &str| {
            Hook::new(
                "h",
                HookEvent::TurnEnd,
                (tools, paths),
                "true",
                Duration::from_secs(1),
                "",
            )
            .unwrap()
        };
        let call = |name: &str, arguments: serde_json::Value| smith::ToolCall {
            id: "c".to_owned(),
            name: name.to_owned(),
            arguments,
        };
        let calls = [
            call("edit", json!({"path": "src/a.rs"})),
            call("write", json!({"path": "/p/b.ts"})),
            call("edit", json!({"path": "src/a.rs"})),
            call("bash", json!({"command": "ls"})),
        ];
        // `*` alone runs after every turn, one without calls too.
        assert_eq!(end("*", "").matches_turn(&[], Some(cwd)), Some(vec![]));
        assert_eq!(
            end("*", "").matches_turn(&calls, Some(cwd)),
            Some(vec!["src/a.rs".to_owned(), "/p/b.ts".to_owned()])
        );
        // Paths narrow it to the calls naming them, and to those paths.
        assert_eq!(
            end("edit|write", "*.rs").matches_turn(&calls, Some(cwd)),
            Some(vec!["src/a.rs".to_owned()])
        );
        assert_eq!(end("*", "*.py").matches_turn(&calls, Some(cwd)), None);
        assert_eq!(end("read", "").matches_turn(&calls, Some(cwd)), None);
        assert_eq!(end("read", "").matches_turn(&[], Some(cwd)), None);
        assert_eq!(
            end("bash", "").matches_turn(&calls, Some(cwd)),
            Some(Vec::new())
        );
        // A hook of another event never runs at a turn's end.
        assert_eq!(hook("edit", "").matches_turn(&calls, Some(cwd)), None);
    }

    #[test]
    fn a_matcher_that_cannot_be_used_is_refused_saying_why() {
        let err = |tools: &str, paths: &str| {
            Hook::new(
                "h",
                HookEvent::BeforeTool,
                (tools, paths),
                "true",
                Duration::from_secs(1),
                "",
            )
            .unwrap_err()
            .to_string()
        };
        assert!(err("", "").contains("is empty"));
        assert!(err("edit||write", "").contains("empty alternative"));
        assert!(err("Edit(*)", "").contains("holds '('"));
        assert!(err("edit", "src/[a").contains("\"src/[a\" cannot be used"));
        assert!(err("edit", "/abs/*.rs").contains("starts with `/`"));
        assert!(err("edit", "./src/*.rs").contains("never matches"));
        assert!(err("edit", " , ").contains("names no glob"));
    }
}
