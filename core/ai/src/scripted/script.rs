//! The script format: parsing and validation with diagnostics that name file, line and field.

use std::fmt;
use std::path::{Path, PathBuf};

use kdl::{KdlEntry, KdlNode, KdlValue};
use smith::{ProviderErrorKind, StopReason, ToolCall, Usage};
use smith_config::kdl::{self as schema, Bounds, SyntaxError, line_col};

/// A defect in a script: where it is (file, 1-based line and column), which field, and what
/// to write instead.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ScriptError {
    /// The script's file path, or `built-in script `NAME``.
    pub origin: String,
    /// 1-based line; 0 when the defect has no position (e.g. an unreadable file).
    pub line: usize,
    /// 1-based column; 0 when unknown.
    pub column: usize,
    /// The field path, e.g. `round 2 › tool-call › arguments`.
    pub field: String,
    /// What is wrong and how to fix it.
    pub message: String,
}

impl fmt::Display for ScriptError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.line == 0 {
            write!(f, "{}: {}: {}", self.origin, self.field, self.message)
        } else {
            write!(
                f,
                "{}:{}:{}: {}: {}",
                self.origin, self.line, self.column, self.field, self.message
            )
        }
    }
}

impl std::error::Error for ScriptError {}

/// One step of a round, played in order.
#[derive(Clone, Debug, PartialEq)]
pub enum Step {
    /// Emit a text delta.
    Text(String),
    /// Emit a thinking delta.
    Thinking(String),
    /// Emit the text of the request's last user message as a text delta.
    Echo,
    /// Emit a complete tool call.
    ToolCall(ToolCall),
    /// Report usage.
    Usage(Usage),
    /// Wait until the gate named here is released (see [`super::ScriptedProvider`]).
    Gate(String),
    /// Terminal: stop for this reason.
    Stop(StopReason),
    /// Terminal: fail with a provider error.
    Error {
        /// The failure class.
        kind: ProviderErrorKind,
        /// The message.
        message: String,
    },
    /// End the stream without a terminal event (a cut connection).
    Disconnect,
}

/// One provider round: the response to one request.
#[derive(Clone, Debug, PartialEq)]
pub struct Round {
    /// 1-based line of the `round` node.
    pub line: usize,
    /// The steps; the last one is terminal.
    pub steps: Vec<Step>,
}

/// A parsed, validated script.
#[derive(Clone, Debug, PartialEq)]
pub struct Script {
    /// The label (the model name in `scripted/<label>`).
    pub label: String,
    /// Where it came from (file path or built-in name), for diagnostics.
    pub origin: String,
    /// The directory gates live in: the script file's directory. `None` for built-ins.
    pub gate_dir: Option<PathBuf>,
    /// The rounds, in order.
    pub rounds: Vec<Round>,
    /// Play again from the first round once the last has played (a top-level `repeat`
    /// node); otherwise a request past the last round is an error.
    pub repeat: bool,
}

/// Largest script file accepted, in bytes.
pub const MAX_SCRIPT_BYTES: u64 = 8 * 1024 * 1024;

/// The deepest `{ … }` nesting a script may have (the format needs two: `round { step }`).
const MAX_NESTING: usize = 8;

/// Longest gate name, in bytes (gate names become file names).
const MAX_GATE_NAME: usize = 64;

const STEP_NAMES: &str = "text, thinking, echo, tool-call, usage, gate, stop, error, disconnect";
const STOP_NAMES: &str = "end_turn, tool_use, max_tokens";
const ERROR_KINDS: &str = "rate_limited, transient, invalid_request, unavailable, auth, context_overflow, malformed, other";

struct Ctx<'a> {
    source: &'a str,
    origin: &'a str,
}

impl Ctx<'_> {
    fn err(
        &self,
        offset: usize,
        field: impl Into<String>,
        message: impl Into<String>,
    ) -> ScriptError {
        let (line, column) = line_col(self.source, offset);
        ScriptError {
            origin: self.origin.to_owned(),
            line,
            column,
            field: field.into(),
            message: message.into(),
        }
    }
}

impl Script {
    /// Load and validate the script file at `path`, labelled `label`. Its gates live in the
    /// file's directory.
    ///
    /// # Errors
    /// A [`ScriptError`] naming the file, line and field of the first defect, or why the file
    /// could not be read.
    pub fn load(path: &Path, label: &str) -> Result<Self, ScriptError> {
        let origin = path.display().to_string();
        let io_err = |message: String| ScriptError {
            origin: origin.clone(),
            line: 0,
            column: 0,
            field: "file".into(),
            message,
        };
        let meta = std::fs::metadata(path).map_err(|e| {
            io_err(format!(
                "cannot read the script: {e}; check the script's path"
            ))
        })?;
        if !meta.is_file() {
            return Err(io_err(
                "is not a regular file; give the path of a script file".into(),
            ));
        }
        if meta.len() > MAX_SCRIPT_BYTES {
            return Err(io_err(format!(
                "is {} bytes, more than the {MAX_SCRIPT_BYTES}-byte bound for scripts",
                meta.len()
            )));
        }
        let bytes = std::fs::read(path).map_err(|e| {
            io_err(format!(
                "cannot read the script: {e}; check the script's path"
            ))
        })?;
        let source = String::from_utf8(bytes).map_err(|e| {
            let (line, column) = {
                let valid = e.utf8_error().valid_up_to();
                let text = String::from_utf8_lossy(&e.as_bytes()[..valid]).into_owned();
                line_col(&text, valid)
            };
            ScriptError {
                origin: origin.clone(),
                line,
                column,
                field: "file".into(),
                message: "is not valid UTF-8 here; scripts are UTF-8 KDL text".into(),
            }
        })?;
        let gate_dir = path
            .parent()
            .map(|p| {
                if p.as_os_str().is_empty() {
                    Path::new(".")
                } else {
                    p
                }
            })
            .map(Path::to_path_buf);
        Self::parse(&source, &origin, label, gate_dir)
    }

    /// Parse and validate script text. `origin` names it in diagnostics; `gate_dir` is where
    /// its gates live (`None` forbids gates).
    ///
    /// # Errors
    /// A [`ScriptError`] for the first defect.
    pub fn parse(
        source: &str,
        origin: &str,
        label: &str,
        gate_dir: Option<PathBuf>,
    ) -> Result<Self, ScriptError> {
        let ctx = Ctx { source, origin };
        let bounds = Bounds {
            max_bytes: usize::try_from(MAX_SCRIPT_BYTES).unwrap_or(usize::MAX),
            max_nesting: MAX_NESTING,
        };
        let doc = schema::parse(source, bounds).map_err(|e| match e {
            SyntaxError::TooLong { len, max } => ctx.err(
                0,
                "file",
                format!("is {len} bytes, more than the {max}-byte bound for scripts"),
            ),
            SyntaxError::TooDeep { max } => ctx.err(
                0,
                "syntax",
                format!(
                    "blocks are nested deeper than {max} levels; a script needs two (round {{ step }})"
                ),
            ),
            SyntaxError::Invalid {
                offset,
                message,
                help,
            } => {
                let mut message = message.unwrap_or_else(|| "invalid KDL".into());
                if let Some(help) = help {
                    message.push_str("; ");
                    message.push_str(&help);
                }
                ctx.err(
                    offset,
                    "syntax",
                    format!("{message} (scripts are KDL v2 documents)"),
                )
            }
        })?;
        let mut rounds = Vec::new();
        let mut repeat = false;
        for node in doc.nodes() {
            let name = node.name().value();
            if name == "repeat" {
                if repeat || !node.entries().is_empty() || node.children().is_some() {
                    return Err(ctx.err(
                        node.span().offset(),
                        "repeat",
                        "`repeat` is written once, alone on its line, with no values or block",
                    ));
                }
                repeat = true;
                continue;
            }
            if name != "round" {
                return Err(ctx.err(
                    node.span().offset(),
                    format!("`{name}`"),
                    "unknown top-level node; a script holds `round { … }` nodes and, at most once, `repeat`",
                ));
            }
            let index = rounds.len() + 1;
            rounds.push(parse_round(&ctx, node, index, gate_dir.is_some())?);
        }
        if rounds.is_empty() {
            return Err(ctx.err(
                0,
                "rounds",
                "the script has no `round`; add at least one, e.g. `round { text \"Hi\"; stop \"end_turn\" }`",
            ));
        }
        Ok(Self {
            label: label.to_owned(),
            origin: origin.to_owned(),
            gate_dir,
            rounds,
            repeat,
        })
    }
}

fn no_entries(ctx: &Ctx<'_>, node: &KdlNode, field: &str) -> Result<(), ScriptError> {
    match node.entries().first() {
        Some(entry) => Err(ctx.err(
            entry.span().offset(),
            field,
            "takes no arguments or properties",
        )),
        None => Ok(()),
    }
}

fn no_children(ctx: &Ctx<'_>, node: &KdlNode, field: &str) -> Result<(), ScriptError> {
    match node.children() {
        Some(children) => Err(ctx.err(children.span().offset(), field, "takes no children block")),
        None => Ok(()),
    }
}

/// The single string argument of `node`.
fn one_string(
    ctx: &Ctx<'_>,
    node: &KdlNode,
    field: &str,
    example: &str,
) -> Result<String, ScriptError> {
    let args: Vec<&KdlEntry> = node.entries().iter().collect();
    if let Some((prop, name)) = schema::unknown_property(node, &[]) {
        return Err(ctx.err(
            prop.span().offset(),
            format!("{field} › {name}"),
            format!("unknown property; this step takes only one string argument, e.g. {example}"),
        ));
    }
    match args.as_slice() {
        [entry] if entry.name().is_none() => match entry.value() {
            KdlValue::String(s) => Ok(s.clone()),
            other => Err(ctx.err(
                entry.span().offset(),
                field,
                format!("expected a string, found `{other}`; e.g. {example}"),
            )),
        },
        _ => Err(ctx.err(
            node.span().offset(),
            field,
            format!("takes exactly one string argument; e.g. {example}"),
        )),
    }
}

fn parse_round(
    ctx: &Ctx<'_>,
    node: &KdlNode,
    index: usize,
    gates: bool,
) -> Result<Round, ScriptError> {
    let here = format!("round {index}");
    no_entries(ctx, node, &here)?;
    let line = line_col(ctx.source, node.span().offset()).0;
    let Some(children) = node.children() else {
        return Err(ctx.err(
            node.span().offset(),
            here,
            "has no steps; write them in a block, e.g. `round { text \"Hi\"; stop \"end_turn\" }`",
        ));
    };
    let mut steps = Vec::new();
    let count = children.nodes().len();
    for (i, child) in children.nodes().iter().enumerate() {
        let name = child.name().value();
        let field = format!("{here} › {name}");
        let at = child.span().offset();
        if name != "tool-call" {
            no_children(ctx, child, &field)?;
        }
        let step = match name {
            "text" => Step::Text(one_string(ctx, child, &field, "text \"Hello\"")?),
            "thinking" => {
                Step::Thinking(one_string(ctx, child, &field, "thinking \"Let me see.\"")?)
            }
            "echo" => {
                no_entries(ctx, child, &field)?;
                Step::Echo
            }
            "tool-call" => {
                let call = parse_tool_call(ctx, child, &field, index, i + 1)?;
                let repeated = steps
                    .iter()
                    .any(|s| matches!(s, Step::ToolCall(c) if c.id == call.id));
                if repeated {
                    return Err(ctx.err(
                        at,
                        format!("{field} › id"),
                        format!(
                            "`{}` is already the id of an earlier call in this round; call ids must be unique within a response",
                            call.id
                        ),
                    ));
                }
                Step::ToolCall(call)
            }
            "usage" => Step::Usage(parse_usage(ctx, child, &field)?),
            "gate" => {
                let name = one_string(ctx, child, &field, "gate \"before-answer\"")?;
                if !gates {
                    return Err(ctx.err(
                        at,
                        field,
                        "gates need a script file (they live in its directory); built-in scripts cannot use them",
                    ));
                }
                if name.is_empty()
                    || name.len() > MAX_GATE_NAME
                    || !name
                        .chars()
                        .all(|c| c.is_ascii_alphanumeric() || c == '-' || c == '_')
                {
                    return Err(ctx.err(
                        at,
                        field,
                        format!(
                            "gate name `{name}` must be 1 to {MAX_GATE_NAME} ASCII letters, digits, `-` or `_`"
                        ),
                    ));
                }
                Step::Gate(name)
            }
            "stop" => {
                let reason = one_string(ctx, child, &field, "stop \"end_turn\"")?;
                Step::Stop(match reason.as_str() {
                    "end_turn" => StopReason::EndTurn,
                    "tool_use" => StopReason::ToolUse,
                    "max_tokens" => StopReason::MaxTokens,
                    other => {
                        return Err(ctx.err(
                            at,
                            field,
                            format!("unknown stop reason `{other}`; expected one of {STOP_NAMES}"),
                        ));
                    }
                })
            }
            "error" => parse_error(ctx, child, &field)?,
            "disconnect" => {
                no_entries(ctx, child, &field)?;
                Step::Disconnect
            }
            other => {
                return Err(ctx.err(
                    at,
                    format!("{here} › `{other}`"),
                    format!("unknown step; expected one of {STEP_NAMES}"),
                ));
            }
        };
        let terminal = matches!(step, Step::Stop(_) | Step::Error { .. } | Step::Disconnect);
        if terminal && i + 1 != count {
            return Err(ctx.err(
                at,
                field,
                "ends the round, so it must be the round's last step",
            ));
        }
        if !terminal && i + 1 == count {
            return Err(ctx.err(
                at,
                field,
                "the round must end with `stop`, `error` or `disconnect`; add e.g. `stop \"end_turn\"`",
            ));
        }
        steps.push(step);
    }
    if steps.is_empty() {
        return Err(ctx.err(
            node.span().offset(),
            here,
            "has no steps; add e.g. `text \"Hi\"` and `stop \"end_turn\"`",
        ));
    }
    Ok(Round { line, steps })
}

fn props<'a>(
    ctx: &Ctx<'_>,
    node: &'a KdlNode,
    field: &str,
    allowed: &[&str],
) -> Result<Vec<(&'a str, &'a KdlEntry)>, ScriptError> {
    let mut out = Vec::new();
    for entry in node.entries() {
        let Some(name) = entry.name() else {
            return Err(ctx.err(
                entry.span().offset(),
                field,
                format!(
                    "takes only named properties ({}), found the argument `{}`",
                    allowed.join(", "),
                    entry.value()
                ),
            ));
        };
        let name = name.value();
        if !allowed.contains(&name) {
            return Err(ctx.err(
                entry.span().offset(),
                format!("{field} › {name}"),
                format!("unknown property; expected one of {}", allowed.join(", ")),
            ));
        }
        if out.iter().any(|(n, _)| *n == name) {
            return Err(ctx.err(
                entry.span().offset(),
                format!("{field} › {name}"),
                "is given twice",
            ));
        }
        out.push((name, entry));
    }
    Ok(out)
}

fn prop_string(ctx: &Ctx<'_>, entry: &KdlEntry, field: &str) -> Result<String, ScriptError> {
    match entry.value() {
        KdlValue::String(s) => Ok(s.clone()),
        other => Err(ctx.err(
            entry.span().offset(),
            field,
            format!("expected a string, found `{other}`"),
        )),
    }
}

fn parse_tool_call(
    ctx: &Ctx<'_>,
    node: &KdlNode,
    field: &str,
    round: usize,
    step: usize,
) -> Result<ToolCall, ScriptError> {
    no_children(ctx, node, field)?;
    let mut id = format!("call_{round}_{step}");
    let mut name = None;
    let mut arguments = serde_json::Value::Object(serde_json::Map::new());
    for (key, entry) in props(ctx, node, field, &["id", "name", "arguments"])? {
        let sub = format!("{field} › {key}");
        let text = prop_string(ctx, entry, &sub)?;
        match key {
            "id" if text.is_empty() => {
                return Err(ctx.err(entry.span().offset(), sub, "must not be empty"));
            }
            "id" => id = text,
            "name" => name = Some(text),
            _ => {
                arguments = match serde_json::from_str::<serde_json::Value>(&text) {
                    Ok(v @ serde_json::Value::Object(_)) => v,
                    Ok(other) => {
                        return Err(ctx.err(
                            entry.span().offset(),
                            sub,
                            format!(
                                "expected a JSON object, found `{other}`; e.g. arguments=#\"{{\"path\": \"README.md\"}}\"#"
                            ),
                        ));
                    }
                    Err(e) => {
                        return Err(ctx.err(
                            entry.span().offset(),
                            sub,
                            format!(
                                "is not valid JSON ({e}); write a JSON object in a raw string, e.g. arguments=#\"{{\"path\": \"README.md\"}}\"#"
                            ),
                        ));
                    }
                };
            }
        }
    }
    let Some(name) = name.filter(|n| !n.is_empty()) else {
        return Err(ctx.err(
            node.span().offset(),
            format!("{field} › name"),
            "is required; e.g. tool-call name=\"read\" arguments=#\"{\"path\": \"README.md\"}\"#",
        ));
    };
    Ok(ToolCall {
        id,
        name,
        arguments,
    })
}

fn parse_usage(ctx: &Ctx<'_>, node: &KdlNode, field: &str) -> Result<Usage, ScriptError> {
    let mut usage = Usage::default();
    for (key, entry) in props(
        ctx,
        node,
        field,
        &["input", "output", "cache-read", "cache-write"],
    )? {
        let value = match entry.value() {
            KdlValue::Integer(n) if *n >= 0 => u64::try_from(*n)
                .map_err(|_| format!("{n} is larger than the largest token count, {}", u64::MAX)),
            other => Err(format!(
                "expected a non-negative integer token count, found `{other}`"
            )),
        };
        let value = value.map_err(|message| {
            ctx.err(entry.span().offset(), format!("{field} › {key}"), message)
        })?;
        match key {
            "input" => usage.input = Some(value),
            "output" => usage.output = Some(value),
            "cache-read" => usage.cache_read = Some(value),
            _ => usage.cache_write = Some(value),
        }
    }
    Ok(usage)
}

fn parse_error(ctx: &Ctx<'_>, node: &KdlNode, field: &str) -> Result<Step, ScriptError> {
    let mut message = None;
    let mut kind = ProviderErrorKind::Other;
    for entry in node.entries() {
        match entry.name().map(|n| n.value()) {
            None if message.is_none() => {
                let text = prop_string(ctx, entry, field)?;
                if text.trim().is_empty() {
                    return Err(ctx.err(
                        entry.span().offset(),
                        field,
                        "the message is empty; say what failed, e.g. error \"overloaded\" kind=\"transient\"",
                    ));
                }
                message = Some(text);
            }
            None => {
                return Err(ctx.err(entry.span().offset(), field, "takes one message argument"));
            }
            Some("kind") => {
                let sub = format!("{field} › kind");
                let text = prop_string(ctx, entry, &sub)?;
                kind = match text.as_str() {
                    "rate_limited" => ProviderErrorKind::RateLimited,
                    "transient" => ProviderErrorKind::Transient,
                    "invalid_request" => ProviderErrorKind::InvalidRequest,
                    "unavailable" => ProviderErrorKind::Unavailable,
                    "auth" => ProviderErrorKind::Auth,
                    "malformed" => ProviderErrorKind::Malformed,
                    "context_overflow" => ProviderErrorKind::ContextOverflow,
                    "other" => ProviderErrorKind::Other,
                    other => {
                        return Err(ctx.err(
                            entry.span().offset(),
                            sub,
                            format!("unknown error kind `{other}`; expected one of {ERROR_KINDS}"),
                        ));
                    }
                };
            }
            Some(other) => {
                return Err(ctx.err(
                    entry.span().offset(),
                    format!("{field} › {other}"),
                    "unknown property; expected `kind`",
                ));
            }
        }
    }
    let Some(message) = message else {
        return Err(ctx.err(
            node.span().offset(),
            field,
            "needs a message; e.g. error \"overloaded\" kind=\"transient\"",
        ));
    };
    Ok(Step::Error { kind, message })
}

#[cfg(test)]
mod tests {
    use super::*;

    fn parse(src: &str) -> Result<Script, ScriptError> {
        Script::parse(src, "t.kdl", "t", Some(PathBuf::from(".")))
    }

    #[test]
    fn parses_every_step() {
        let s = parse(
            r##"
round {
    thinking "hmm"
    text "Hi "
    echo
    usage input=3 output=4 cache-read=0
    stop "end_turn"
}
round {
    tool-call id="c1" name="read" arguments=#"{"path": "a.txt"}"#
    tool-call name="ls"
    gate "g-1"
    stop "tool_use"
}
round { error "boom" kind="rate_limited" }
round { disconnect }
"##,
        )
        .unwrap();
        assert_eq!(s.rounds.len(), 4);
        assert_eq!(s.rounds[0].line, 2);
        assert_eq!(s.rounds[0].steps[2], Step::Echo);
        assert_eq!(
            s.rounds[0].steps[3],
            Step::Usage(Usage {
                input: Some(3),
                output: Some(4),
                cache_read: Some(0),
                cache_write: None
            })
        );
        let Step::ToolCall(call) = &s.rounds[1].steps[0] else {
            panic!("not a tool call")
        };
        assert_eq!(call.arguments["path"], "a.txt");
        let Step::ToolCall(call) = &s.rounds[1].steps[1] else {
            panic!("not a tool call")
        };
        assert_eq!(call.id, "call_2_2");
        assert!(matches!(
            s.rounds[2].steps[0],
            Step::Error {
                kind: ProviderErrorKind::RateLimited,
                ..
            }
        ));
    }

    fn defect(src: &str) -> ScriptError {
        parse(src).unwrap_err()
    }

    #[test]
    fn defects_name_line_column_and_field() {
        let e = defect(
            "round {\n  text \"a\"\n  tool-call name=\"read\" arguments=\"[1]\"\n  stop \"tool_use\"\n}\n",
        );
        assert_eq!(
            (e.line, e.field.as_str()),
            (3, "round 1 › tool-call › arguments")
        );
        assert!(e.message.contains("JSON object"), "{e}");
        assert!(e.to_string().starts_with("t.kdl:3:"), "{e}");

        let e = defect("round {\n  text \"a\"\n}\n");
        assert_eq!(e.line, 2);
        assert!(e.message.contains("must end with"), "{e}");

        let e = defect("round {\n  stop \"done\"\n}\n");
        assert!(e.message.contains("end_turn"), "{e}");

        let e = defect("round { stop \"end_turn\"; text \"late\" }");
        assert!(e.message.contains("last step"), "{e}");

        let e = defect("turn { }");
        assert_eq!(e.field, "`turn`");

        let e = defect("round { texts \"x\"; stop \"end_turn\" }");
        assert!(e.message.contains("expected one of text"), "{e}");

        let e = defect("round { usage input=-1; stop \"end_turn\" }");
        assert_eq!(e.field, "round 1 › usage › input");

        let e = defect("round { tool-call arguments=\"{}\"; stop \"tool_use\" }");
        assert_eq!(e.field, "round 1 › tool-call › name");

        let e = defect("");
        assert_eq!(e.field, "rounds");

        let e = defect(
            "round { tool-call id=\"c\" name=\"a\"; tool-call id=\"c\" name=\"b\"; stop \"tool_use\" }",
        );
        assert_eq!(e.field, "round 1 › tool-call › id");
        assert!(e.message.contains("unique"), "{e}");

        let e = defect(&format!(
            "round {{ gate \"{}\"; stop \"end_turn\" }}",
            "g".repeat(65)
        ));
        assert!(e.message.contains("1 to 64"), "{e}");

        let e = defect("round { error \"\" }");
        assert!(e.message.contains("empty"), "{e}");

        let e = defect("round { text \"a\" color=\"red\"; stop \"end_turn\" }");
        assert_eq!(e.field, "round 1 › text › color");

        let e = defect("round { usage input=99999999999999999999999; stop \"end_turn\" }");
        assert!(e.message.contains("larger than"), "{e}");

        let e = defect("round {\n  text \"unterminated\n}\n");
        assert_eq!(e.field, "syntax");
        assert!(e.line >= 2, "{e}");
    }

    #[test]
    fn gates_need_a_directory() {
        let e =
            Script::parse("round { gate \"g\"; stop \"end_turn\" }", "b", "b", None).unwrap_err();
        assert!(e.message.contains("gates need a script file"), "{e}");
    }

    #[test]
    fn builtins_parse() {
        for name in super::super::BUILTIN_NAMES {
            super::super::builtin(name).unwrap().unwrap();
        }
    }
}
