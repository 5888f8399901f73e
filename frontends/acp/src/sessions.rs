//! The session lifecycle: `session/new`, `session/load` and `session/resume`, `session/list`,
//! `session/close`, and a session's settings — its permission mode (`session/set_mode`) and
//! its model and thinking level (`session/set_config_option`). Each open session is a
//! [`Slot`]: its [`smith_app::Runner`], which a prompt holds for its whole turn.

use std::path::{Path, PathBuf};
use std::sync::{Arc, Mutex};

use agent_client_protocol_schema::v1::{
    CloseSessionRequest, CloseSessionResponse, CurrentModeUpdate, ListSessionsRequest,
    ListSessionsResponse, LoadSessionRequest, LoadSessionResponse, NewSessionRequest,
    NewSessionResponse, ResumeSessionRequest, ResumeSessionResponse, SessionConfigOption,
    SessionConfigOptionCategory, SessionConfigSelectOption, SessionInfo, SessionUpdate,
    SetSessionConfigOptionRequest, SetSessionConfigOptionResponse, SetSessionModeRequest,
    SetSessionModeResponse,
};
use serde_json::{Map, Value, json};
use smith::{Cancel, Selection, SessionId, ThinkingLevel};
use smith_app::Runner;
use smith_app::runner::target::{self, Access, OpenError, Target};
use smith_app::runner::{Command, Inbox};
use smith_render_acp::{Source, Updates};
use smith_render_jsonrpc::ErrorObject;
use smith_render_jsonrpc::message::{INTERNAL_ERROR, INVALID_REQUEST};
use smith_ui_intents::{Delivery, Intent, IntentSink};

use crate::server::{NOT_FOUND, Server, invalid_params, lock, parse, to_value, update};

/// Sessions a `session/list` page holds.
const PAGE: usize = 50;

/// What a session's next prompt runs with, as the client set it.
#[derive(Clone, Debug, Default)]
pub(crate) struct Config {
    /// The model, alias or group (`None`: the session's recorded one, else the setting).
    pub(crate) model: Option<Selection>,
    /// The thinking level (`None`: the `thinking` setting).
    pub(crate) thinking: Option<ThinkingLevel>,
}

/// One session open here.
pub(crate) struct Slot {
    pub(crate) id: SessionId,
    /// The directory its tools run in.
    pub(crate) cwd: PathBuf,
    /// The selection its prompts run with unless the client picks one: the setting, else
    /// the model the session recorded (or why there is none). Read without the runner, which
    /// a prompt holds for its whole turn.
    default: Result<Selection, String>,
    /// Its runner; `None` once closed. A prompt holds it for its whole turn.
    pub(crate) runner: Mutex<Option<Runner>>,
    /// Its inbox: questions are answered through it while a turn holds the runner.
    pub(crate) inbox: Inbox,
    /// The running prompt's cancellation, while one runs.
    pub(crate) running: Mutex<Option<Cancel>>,
    pub(crate) config: Mutex<Config>,
    /// The mapping of its intents to updates (the cost so far lives here).
    pub(crate) updates: Mutex<Updates>,
    /// It holds a turn a dead process cut off (`/continue` continues it; any other prompt
    /// settles it as aborted).
    pub(crate) interrupted: std::sync::atomic::AtomicBool,
    /// Its product layer once composed (`Some(None)`: it could not be).
    pub(crate) product: Mutex<Option<Option<Arc<smith_app::product::ProductLayer>>>>,
}

impl Slot {
    fn new(runner: Runner) -> Arc<Self> {
        let cwd = runner.cwd().to_owned();
        let interrupted = runner.interrupted().is_some();
        Arc::new(Self {
            interrupted: std::sync::atomic::AtomicBool::new(interrupted),
            id: runner.id(),
            default: runner
                .default_selection(None)
                .map(|(s, _)| s)
                .map_err(|e| e.to_string()),
            updates: Mutex::new(Updates::new(Source::Live).with_root(cwd.clone())),
            cwd,
            inbox: runner.inbox(),
            runner: Mutex::new(Some(runner)),
            running: Mutex::new(None),
            config: Mutex::new(Config::default()),
            product: Mutex::new(None),
        })
    }

    /// Cancel the running prompt, if any.
    pub(crate) fn cancel(&self) {
        if let Some(cancel) = lock(&self.running).as_ref() {
            cancel.cancel();
        }
    }

    /// Close the session (after the running prompt ended: it holds the runner).
    pub(crate) fn close(&self) -> Result<(), smith_store::Error> {
        match lock(&self.runner).take() {
            Some(runner) => runner.close(false),
            None => Ok(()),
        }
    }
}

/// The session `session_id` names, open here.
pub(crate) fn slot(server: &Server, session_id: &str) -> Result<Arc<Slot>, ErrorObject> {
    let found = session_id
        .parse::<SessionId>()
        .ok()
        .and_then(|id| lock(&server.sessions).get(&id).cloned());
    found.ok_or_else(|| ErrorObject {
        code: NOT_FOUND,
        message: format!(
            "session {session_id:?} is not open here: create one with `session/new`, or open a recorded one with `session/load` or `session/resume`"
        ),
        data: Some(json!({"sessionId": session_id})),
    })
}

/// How this agent words a program the user's policy refuses.
fn refusal(refusal: &smith_app::ProcessRefusal) -> String {
    refusal.to_string()
}

fn open_error(e: &OpenError) -> ErrorObject {
    ErrorObject::new(INTERNAL_ERROR, e.to_string())
}

/// `cwd` checked: absolute (ACP: "MUST be an absolute path") and an existing directory.
fn check_cwd(cwd: &Path) -> Result<PathBuf, ErrorObject> {
    if !cwd.is_absolute() {
        return Err(invalid_params(
            "cwd",
            &format!("an absolute path (got {:?})", cwd.display().to_string()),
        ));
    }
    cwd.canonicalize()
        .ok()
        .filter(|d| d.is_dir())
        .ok_or_else(|| {
            invalid_params(
                "cwd",
                &format!("an existing directory ({} is not one)", cwd.display()),
            )
        })
}

/// Register `runner` as open here, with the client's files as its editor when the client
/// offers them.
fn hold(server: &Arc<Server>, runner: Runner) -> Result<Arc<Slot>, ErrorObject> {
    let mut runner = runner;
    if let Err(e) = runner.register_secrets() {
        let _ = runner.close(false);
        return Err(ErrorObject::new(INTERNAL_ERROR, e.to_string()));
    }
    let resident = runner.resident();
    let slot = Slot::new(runner);
    if let Some(editor) = crate::files::ClientFiles::editor(server, &slot) {
        resident.put(Arc::new(editor));
    }
    lock(&server.sessions).insert(slot.id, Arc::clone(&slot));
    Ok(slot)
}

/// The mode state and config options of `slot`, as `session/new` and `session/load` answer.
fn state(
    server: &Server,
    slot: &Slot,
) -> (
    agent_client_protocol_schema::v1::SessionModeState,
    Vec<SessionConfigOption>,
) {
    let mode = lock(&slot.runner)
        .as_ref()
        .map_or_else(Default::default, Runner::permission_mode);
    (
        smith_render_acp::modes::state(mode.name()),
        config_options(server, slot),
    )
}

/// `session/new`.
pub(crate) fn new(server: &Arc<Server>, params: Map<String, Value>) -> Result<Value, ErrorObject> {
    let request: NewSessionRequest = parse("session/new", params)?;
    let cwd = check_cwd(&request.cwd)?;
    let opened =
        target::create(Arc::clone(&server.app), None, &cwd, refusal).map_err(|e| open_error(&e))?;
    let mut runner = opened.runner;
    crate::mcp::declare(&mut runner, &request.mcp_servers, |w| server.diagnose(w));
    // Closed with nothing in it (an editor that opened a panel and left), it is removed.
    let slot = hold(server, runner.created(true))?;
    let (modes, options) = state(server, &slot);
    to_value(
        &NewSessionResponse::new(slot.id.to_string())
            .modes(modes)
            .config_options(options),
    )
}

/// `session/load` (`history`: stream the recorded history first) and `session/resume`.
pub(crate) fn load(
    server: &Arc<Server>,
    params: Map<String, Value>,
    history: bool,
) -> Result<Value, ErrorObject> {
    let method = if history {
        "session/load"
    } else {
        "session/resume"
    };
    let (session_id, cwd, servers) = if history {
        let r: LoadSessionRequest = parse(method, params)?;
        (r.session_id, r.cwd, r.mcp_servers)
    } else {
        let r: ResumeSessionRequest = parse(method, params)?;
        (r.session_id, r.cwd, r.mcp_servers)
    };
    let cwd = check_cwd(&cwd)?;
    let wanted = session_id.0.to_string();
    let not_found = |why: String| ErrorObject {
        code: NOT_FOUND,
        message: why,
        data: Some(json!({"sessionId": wanted})),
    };
    let Ok(id) = wanted.parse::<SessionId>() else {
        return Err(not_found(format!(
            "no session {wanted:?}: a session id is the UUID `session/new` or `session/list` gave"
        )));
    };
    if lock(&server.sessions).contains_key(&id) {
        return Err(ErrorObject::new(
            INVALID_REQUEST,
            format!(
                "session {id} is already open on this connection: prompt it, or close it first"
            ),
        ));
    }
    let (path, id) = target::resolve(&server.app, &Target::Named(id), &cwd)
        .map_err(|e| open_error(&e))?
        .ok_or_else(|| not_found(format!("no session {wanted}: `session/list` lists them")))?;
    let existing = Target::Existing { path, id };
    let mut runner = match target::open_or_observe(
        Arc::clone(&server.app),
        &existing,
        &cwd,
        refusal,
    )
    .map_err(|e| open_error(&e))?
    {
        Access::Writer(opened) => opened.runner,
        Access::Observer { .. } => {
            return Err(ErrorObject {
                code: INVALID_REQUEST,
                message: format!(
                    "session {id} is being written by another process, so it cannot be opened here; close it there, then load it again"
                ),
                data: Some(json!({"sessionId": wanted})),
            });
        }
    };
    crate::mcp::declare(&mut runner, &servers, |w| server.diagnose(w));
    let slot = hold(server, runner)?;
    if history && let Err(e) = stream_history(server, &slot) {
        // Not open after all: closed, so a retry can open it again.
        lock(&server.sessions).remove(&slot.id);
        let _ = slot.close();
        return Err(e);
    }
    // A turn a dead process cut off: said, with what it had done and how to go on.
    let held = lock(&slot.runner)
        .as_ref()
        .and_then(|r| r.interrupted().map(target::interrupted_progress));
    if let Some(progress) = held {
        server.notify(
            "session/update",
            update(
                slot.id,
                SessionUpdate::AgentMessageChunk(agent_client_protocol_schema::v1::ContentChunk::new(
                    agent_client_protocol_schema::v1::ContentBlock::Text(
                        agent_client_protocol_schema::v1::TextContent::new(format!(
                            "\n\nThe last turn was interrupted ({progress}). Send /continue to continue it from what was recorded (no recorded effect runs again); any other prompt settles it as aborted."
                        )),
                    ),
                )),
            ),
        );
    }
    let (modes, options) = state(server, &slot);
    if history {
        to_value(
            &LoadSessionResponse::new()
                .modes(modes)
                .config_options(options),
        )
    } else {
        to_value(
            &ResumeSessionResponse::new()
                .modes(modes)
                .config_options(options),
        )
    }
}

/// What a replay's intents become: updates of the history's source, sent at once.
struct History<'a> {
    server: &'a Server,
    session: SessionId,
    updates: Updates,
}

impl IntentSink for History<'_> {
    fn emit(&mut self, intent: Intent) -> Delivery {
        for u in self.updates.update(&intent, false) {
            self.server
                .notify("session/update", update(self.session, u));
        }
        Delivery::Shown
    }
}

/// Stream `slot`'s selected branch as updates (the replay's one mapping of entries to
/// intents, then the renderer's).
fn stream_history(server: &Server, slot: &Slot) -> Result<(), ErrorObject> {
    let path = lock(&slot.runner)
        .as_ref()
        .map(|r| r.path().to_owned())
        .ok_or_else(|| ErrorObject::new(INTERNAL_ERROR, "the session was closed"))?;
    let mut sink = History {
        server,
        session: slot.id,
        updates: Updates::new(Source::History).with_root(slot.cwd.clone()),
    };
    smith_app::playback::play(
        &path,
        slot.id,
        &smith_app::playback::Options::default(),
        &Cancel::new(),
        &mut sink,
    )
    .map_err(|e| {
        ErrorObject::new(
            INTERNAL_ERROR,
            format!("the history of session {} could not be read: {e}", slot.id),
        )
    })?;
    Ok(())
}

/// `session/list`.
pub(crate) fn list(server: &Server, params: Map<String, Value>) -> Result<Value, ErrorObject> {
    let request: ListSessionsRequest = parse("session/list", params)?;
    let start = match request.cursor.as_deref() {
        None => 0,
        Some(c) => c
            .parse::<usize>()
            .map_err(|_| invalid_params("cursor", "a `nextCursor` this agent gave"))?,
    };
    let store = server
        .app
        .sessions()
        .map_err(|e| ErrorObject::new(INTERNAL_ERROR, e.to_string()))?;
    let mut all = store.list().map_err(|e| {
        ErrorObject::new(
            INTERNAL_ERROR,
            format!(
                "cannot list the sessions directory {}: {e}; make it readable",
                store.dir().display()
            ),
        )
    })?;
    all.sort_by_key(|(id, _)| std::cmp::Reverse(id.created_ms()));
    // Sessions record the canonical directory: the filter is compared as one.
    let wanted_cwd = request.cwd.as_ref().map(|c| {
        c.canonicalize()
            .unwrap_or_else(|_| c.clone())
            .display()
            .to_string()
    });
    let mut sessions = Vec::new();
    let mut seen = 0;
    let mut next = None;
    for (id, path) in all {
        let Ok(summary) = smith_app::inspect::summarize(id, &path) else {
            continue;
        };
        let Some(cwd) = summary.cwd.clone() else {
            continue;
        };
        if wanted_cwd.as_ref().is_some_and(|w| *w != cwd) {
            continue;
        }
        seen += 1;
        if seen <= start {
            continue;
        }
        if sessions.len() == PAGE {
            next = Some((start + PAGE).to_string());
            break;
        }
        let updated = summary
            .modified_ms
            .and_then(|ms| jiff::Timestamp::from_millisecond(i64::try_from(ms).ok()?).ok())
            .map(|t| t.round(jiff::Unit::Second).unwrap_or(t).to_string());
        sessions.push(
            SessionInfo::new(id.to_string(), PathBuf::from(cwd))
                .title(summary.title)
                .updated_at(updated),
        );
    }
    to_value(&ListSessionsResponse::new(sessions).next_cursor(next))
}

/// `session/close`.
pub(crate) fn close(server: &Server, params: Map<String, Value>) -> Result<Value, ErrorObject> {
    let request: CloseSessionRequest = parse("session/close", params)?;
    let slot = slot(server, &request.session_id.0)?;
    slot.cancel();
    // The running prompt ends (it holds the runner), then the session closes.
    let closed = slot.close();
    lock(&server.sessions).remove(&slot.id);
    closed.map_err(|e| {
        ErrorObject::new(
            INTERNAL_ERROR,
            format!(
                "session {} could not be closed cleanly: {e}; what it acknowledged is kept",
                slot.id
            ),
        )
    })?;
    to_value(&CloseSessionResponse::new())
}

/// `session/set_mode`: the permission mode, recorded in the session.
pub(crate) fn set_mode(server: &Server, params: Map<String, Value>) -> Result<Value, ErrorObject> {
    let request: SetSessionModeRequest = parse("session/set_mode", params)?;
    let slot = slot(server, &request.session_id.0)?;
    let mode_id = request.mode_id.0.to_string();
    let mode = mode_id.parse::<smith_host::PermissionMode>().map_err(|_| {
        invalid_params(
            "modeId",
            &format!(
                "one of {} (got {mode_id:?})",
                smith_render_acp::modes::MODES
                    .iter()
                    .map(|m| m.0)
                    .collect::<Vec<_>>()
                    .join(", ")
            ),
        )
    })?;
    if lock(&slot.running).is_some() {
        return Err(ErrorObject::new(
            INVALID_REQUEST,
            format!(
                "session {} is running a prompt, so its mode was not changed; change it once the prompt ends, or cancel it",
                slot.id
            ),
        ));
    }
    let mut runner = lock(&slot.runner);
    let runner = runner
        .as_mut()
        .ok_or_else(|| ErrorObject::new(INTERNAL_ERROR, "the session was closed"))?;
    runner
        .apply(
            Command::SetPermissionMode(Some(mode)),
            &mut |_: Intent| {},
            &Cancel::new(),
        )
        .map_err(|e| ErrorObject::new(INTERNAL_ERROR, e.to_string()))?;
    server.notify(
        "session/update",
        update(
            slot.id,
            SessionUpdate::CurrentModeUpdate(CurrentModeUpdate::new(mode.name().to_owned())),
        ),
    );
    to_value(&SetSessionModeResponse::new())
}

/// The selection a prompt of `slot` runs with (never waits for a running prompt).
pub(crate) fn selection(slot: &Slot) -> Result<Selection, String> {
    match lock(&slot.config).model.clone() {
        Some(model) => Ok(model),
        None => slot.default.clone(),
    }
}

/// The thinking level a prompt of `slot` runs with.
pub(crate) fn thinking(server: &Server, slot: &Slot) -> Option<ThinkingLevel> {
    lock(&slot.config)
        .thinking
        .or_else(|| server.app.thinking())
}

/// The config options of `slot` as they stand: `model` and `thought_level`.
fn config_options(server: &Server, slot: &Slot) -> Vec<SessionConfigOption> {
    let current = selection(slot).map(|s| s.to_string()).unwrap_or_default();
    let mut models: Vec<SessionConfigSelectOption> = Vec::new();
    if let Ok(catalog) = server.app.models() {
        for record in smith_app::catalog::model_records(&catalog, &server.app) {
            // A provider's uncatalogued default (`PROVIDER/*`) is no model to pick.
            if record.default {
                continue;
            }
            let name = record.info.model.to_string();
            models.push(SessionConfigSelectOption::new(name.clone(), name));
        }
    }
    if !current.is_empty() && !models.iter().any(|m| m.value.0.as_ref() == current) {
        models.insert(
            0,
            SessionConfigSelectOption::new(current.clone(), current.clone()),
        );
    }
    let level = lock(&slot.config)
        .thinking
        .map_or("default", ThinkingLevel::as_str);
    let mut levels = vec![
        SessionConfigSelectOption::new("default", "Default")
            .description("The `thinking` setting, else the model's own default".to_owned()),
    ];
    levels.extend(
        ThinkingLevel::ALL
            .iter()
            .map(|l| SessionConfigSelectOption::new(l.as_str(), l.as_str())),
    );
    vec![
        SessionConfigOption::select("model", "Model", current, models)
            .category(SessionConfigOptionCategory::Model),
        SessionConfigOption::select("thought_level", "Thinking", level, levels)
            .category(SessionConfigOptionCategory::ThoughtLevel),
    ]
}

/// Refuse `level` when the catalog says none of the session's model's physical models take
/// it (a model the catalog does not describe is left to the first request).
fn thinking_accepted(
    server: &Server,
    slot: &Slot,
    level: ThinkingLevel,
) -> Result<(), ErrorObject> {
    let Ok(selection) = selection(slot) else {
        return Ok(());
    };
    let Ok(models) = server.app.models() else {
        return Ok(());
    };
    let Ok(targets) = smith_app::route::targets(&models, &selection) else {
        return Ok(());
    };
    let records = smith_app::catalog::model_records(&models, &server.app);
    let mut accepted: Vec<&str> = Vec::new();
    for target in &targets {
        match records.iter().find(|r| r.info.model == target.model) {
            Some(r) => match &r.info.thinking {
                Some(levels) if levels.contains(&level) => return Ok(()),
                Some(levels) => accepted.extend(levels.iter().map(|l| l.as_str())),
                None => return Ok(()),
            },
            None => return Ok(()),
        }
    }
    accepted.sort_unstable();
    accepted.dedup();
    Err(invalid_params(
        "value",
        &format!(
            "a thinking level {selection} takes: {} (got {:?})",
            accepted.join(", "),
            level.as_str()
        ),
    ))
}

/// `session/set_config_option`: `model` or `thought_level`.
pub(crate) fn set_config_option(
    server: &Server,
    params: Map<String, Value>,
) -> Result<Value, ErrorObject> {
    let request: SetSessionConfigOptionRequest = parse("session/set_config_option", params)?;
    let slot = slot(server, &request.session_id.0)?;
    let value = request
        .value
        .as_value_id()
        .map(|v| v.0.to_string())
        .ok_or_else(|| invalid_params("value", "one of the option's values (a string)"))?;
    match request.config_id.0.as_ref() {
        "model" => {
            let model = value.parse::<Selection>().map_err(|e| {
                invalid_params(
                    "value",
                    &format!("a model, alias or group ({value:?}: {e})"),
                )
            })?;
            // Checked now, as far as it can be without loading a plugin: it resolves, and an
            // enabled plugin serves one of its models.
            let models = server
                .app
                .models()
                .map_err(|e| ErrorObject::new(INTERNAL_ERROR, e.to_string()))?;
            smith_app::route::precheck(&models, &server.app.registry.provider_ids(), &model)
                .map_err(|e| {
                    invalid_params("value", &format!("a model this Smith can use: {e}"))
                })?;
            lock(&slot.config).model = Some(model);
        }
        "thought_level" => {
            let level = match value.as_str() {
                "default" => None,
                other => Some(ThinkingLevel::parse(other).ok_or_else(|| {
                    invalid_params(
                        "value",
                        &format!("`default` or a thinking level, `off` … `max` (got {other:?})"),
                    )
                })?),
            };
            if let Some(level) = level {
                thinking_accepted(server, &slot, level)?;
            }
            lock(&slot.config).thinking = level;
        }
        other => {
            return Err(invalid_params(
                "configId",
                &format!("`model` or `thought_level` (got {other:?})"),
            ));
        }
    }
    to_value(&SetSessionConfigOptionResponse::new(config_options(
        server, &slot,
    )))
}
