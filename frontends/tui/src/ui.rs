//! The UI's state and what keys and intents do to it. Nothing here does I/O: a key becomes
//! an [`Effect`] the loop carries out (a submission for the work thread, an inbox operation
//! on a thread of its own, leaving), so the state is tested by feeding it keys and intents.

use std::collections::VecDeque;
use std::path::PathBuf;

use crossterm::event::{KeyCode, KeyEvent, KeyEventKind};
use smith::{Answer, Delivery, EntryId, Selection};
use smith_app::runner::Inbox;
use smith_render_terminal::Theme;
use smith_render_terminal::input::Editor;
use smith_render_terminal::status::Status;
use smith_render_terminal::window::Window;
use smith_store::holder::Holder;
use smith_ui_intents::{Access, Intent, NoticeLevel};

use crate::history::Ask;
use std::sync::Arc;

use smith_app::product::ProductLayer;
use smith_app::product::wit::Layout;

use crate::keys::{Action, Keymap, Target};
use crate::layers::Layer;
pub(crate) use recall::Recall;

/// What the loop does for a key.
#[derive(Debug, PartialEq)]
pub(crate) enum Effect {
    /// Run a turn for this input.
    Submit(String),
    /// Compact the session, with what the summary should focus on.
    Compact(Option<String>),
    /// Continue the interrupted turn the session holds (Enter on its banner).
    ContinueInterrupted,
    /// Settle the interrupted turn the session holds as aborted (Esc on its banner).
    SettleInterrupted,
    /// Run a command of the product layer, as typed after `/` (`model opus high`); the loop
    /// parses and carries it out.
    Command(String),
    /// Use this model (and thinking level) for the following runs.
    SetModel(Selection, Option<smith::ThinkingLevel>),
    /// Use this permission mode for the following runs (`None`: the next one).
    SetPermissionMode(Option<smith_app::PermissionMode>),
    /// Queue this input for the running work.
    Enqueue(String, Delivery),
    /// Withdraw queued input (its text went back into the draft).
    Withdraw(EntryId),
    /// Abort the running work (recorded).
    Abort(EntryId),
    /// Answer a waiting question.
    Answer(String, Answer),
    /// Refuse a waiting question.
    Refuse(String),
    /// Edit the draft in the external editor.
    ExternalEditor,
    /// Stop as a shell's Ctrl+Z stops a program, the terminal restored meanwhile (Ctrl+Z).
    Suspend,
    /// Copy `text` (`what` names it in the hint: "entry", "code block 1 of 2").
    Copy { text: String, what: String },
    /// Run a turn for this input as a new branch from this entry (an earlier message
    /// edited).
    SubmitAt(String, EntryId),
    /// Run a turn for this input on this model (a prompt command's own), as a new branch from
    /// an entry when one is given, the session's model staying for the turns after.
    SubmitOn(String, Option<EntryId>, Selection),
    /// Run a turn for this input with these images (pasted from the clipboard), as a new
    /// branch from an entry when one is given.
    SubmitImages {
        text: String,
        at: Option<EntryId>,
        images: Vec<crate::paste_image::Pasted>,
    },
    /// Read the system clipboard's image for the draft.
    PasteImage,
    /// Change the session or the working tree through the work thread (undo, select…).
    Write(crate::work::Write),
    /// Go to another session (closing this one).
    Go(crate::go::Go),
    /// Read something for an overlay or a file (diff, export).
    Read(crate::go::Read),
    /// Read the rows of the picker just opened.
    List(crate::pickers::Kind),
    /// Leave.
    Quit,
    /// The debug builds' fault hook (`SMITH_TUI_FAULT`): panic, or return an error.
    #[cfg(debug_assertions)]
    Fault,
}

/// How this UI holds the session.
#[derive(Clone, Debug)]
pub(crate) enum Held {
    /// It writes the session.
    Writer,
    /// Another process writes it: read-only.
    Observer {
        /// Who, as the writer recorded it (`None`: no record).
        holder: Option<Holder>,
        /// New records are applied as they are committed.
        follow: bool,
        /// The writer closed the session (it stays read-only: never promoted).
        writer_gone: bool,
    },
    /// A replay of the session (`smith replay --tui`): what its runs showed, rebuilt from the
    /// file; nothing runs and nothing is written.
    Replay,
}

/// A question the running work waits on.
#[derive(Clone, Debug, PartialEq)]
pub(crate) enum Question {
    /// Yes or no.
    Confirm {
        id: String,
        prompt: String,
        default: Option<bool>,
    },
    /// One of the options.
    Select {
        id: String,
        prompt: String,
        options: Vec<String>,
        at: usize,
    },
    /// A line of text.
    Text {
        id: String,
        prompt: String,
        secret: bool,
        text: String,
    },
}

impl Question {
    fn id(&self) -> &str {
        match self {
            Self::Confirm { id, .. } | Self::Select { id, .. } | Self::Text { id, .. } => id,
        }
    }
}

/// One input queued for the running work.
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Queued {
    pub(crate) submission: EntryId,
    pub(crate) delivery: Delivery,
    pub(crate) text: String,
}

/// What the welcome line of a new session says (shown while its transcript is empty): the
/// model, the permission mode and the OS sandbox the first run uses; the version, the working
/// directory and the keys are the view's own.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct Welcome {
    pub(crate) model: String,
    pub(crate) permission_mode: smith_app::PermissionMode,
    pub(crate) sandbox: &'static str,
}

/// Everything the screen shows and the keys change.
#[derive(Debug)]
pub(crate) struct Ui {
    /// The transcript's working set and its view.
    pub(crate) window: Window,
    /// The keys in force (built-in ones and the product layer's).
    pub(crate) keymap: Keymap,
    /// The product layer: the commands the palette offers.
    pub(crate) product: Arc<ProductLayer>,
    /// The palette's chosen row (an index into its matches).
    pub(crate) palette: usize,
    /// Whether that row was chosen with Up or Down (since the draft last changed).
    pub(crate) palette_chose: bool,
    /// What the palette's pickers offer for model, plugin and thinking arguments.
    pub(crate) values: Arc<smith_app::product::ArgumentValues>,
    /// Where the status line goes.
    pub(crate) layout: Layout,
    pub(crate) editor: Editor,
    pub(crate) status: Status,
    pub(crate) theme: Theme,
    pub(crate) held: Held,
    pub(crate) queued: Vec<Queued>,
    /// The session's plan as the selected branch has it (the `plan` intents), shown above the
    /// input unless hidden.
    pub(crate) plan: Vec<smith::PlanItem>,
    /// Whether the person hid the plan's panel (the plan toggle).
    pub(crate) plan_hidden: bool,
    /// The banner of the interrupted turn the session holds (what it had done), shown above
    /// the input until Enter continues it or Esc (or new input) settles it.
    pub(crate) interrupted: Option<String>,
    /// The session's effects of unknown outcome were offered for a verdict (once, when it
    /// was opened; `smith effects` reaches them later).
    pub(crate) effects_offered: bool,
    /// The sandbox mode the prepared route runs programs in (from the work thread's
    /// `Ready`), for `/status`.
    pub(crate) sandbox: Option<&'static str>,
    /// Queued input an abort left behind, taken back into the draft: the withdrawals the
    /// loop carries out next.
    pub(crate) stranded: Vec<EntryId>,
    /// Queued input being withdrawn (taken back, or left by an abort): no longer shown, and
    /// never sent as left over, while the inbox still lists it.
    pub(crate) withdrawing: Vec<EntryId>,
    /// Queued input this UI sent, while the inbox lists it: only this is sent as the next
    /// turn when the work ends without it (another process's is left as it is).
    pub(crate) enqueued: Vec<EntryId>,
    pub(crate) questions: VecDeque<Question>,
    /// How many lines of the first question's prompt are scrolled past (PgUp/PgDn).
    pub(crate) question_scroll: usize,
    /// How many prompt lines the last frame showed: what PgUp/PgDn move by.
    pub(crate) question_page: usize,
    /// The overlays and modes that own the keys, the top one last (Esc closes it).
    pub(crate) layers: Vec<Layer>,
    /// What the storage worker is to be asked (the loop sends them).
    pub(crate) asks: Vec<Ask>,
    /// Chunks asked for and not yet arrived.
    pub(crate) asked: std::collections::HashSet<u32>,
    /// Which read of the file chunks must come from (a reload starts the next).
    pub(crate) epoch: u64,
    /// The oldest chunk was asked for: show its top when it comes.
    pub(crate) jump_top: bool,
    /// The last search's number (later answers win).
    pub(crate) generation: u64,
    /// Completion choices listed under the input (after a second Tab).
    pub(crate) choices: Vec<String>,
    /// The choice Tab last put in place (further Tabs cycle through them).
    pub(crate) choice: Option<usize>,
    /// A transient line above the input (why Enter did nothing, how to leave).
    pub(crate) hint: Option<String>,
    /// Whether a frame past `memory.ceiling.frame` was already said (once per process).
    pub(crate) frame_memory_said: bool,
    pub(crate) quit_armed: bool,
    pub(crate) inbox: Option<Inbox>,
    pub(crate) model: Option<Selection>,
    /// Why no turn can run (no model).
    pub(crate) unprepared: Option<String>,
    /// What a new session's empty transcript says of where the person is.
    pub(crate) welcome: Option<Welcome>,
    /// The running work (its submission), from its receipt.
    pub(crate) running: Option<EntryId>,
    /// A submission was sent and has no receipt yet.
    pub(crate) admitting: bool,
    /// A `/compact` was sent and has not ended.
    pub(crate) compacting: bool,
    /// The text of that submission, given back to the draft if it is refused.
    pub(crate) sent: Option<String>,
    pub(crate) round: u32,
    pub(crate) focused: bool,
    /// Ring the bell when a turn ends unfocused (`tui.notify`).
    pub(crate) notify: bool,
    /// A bell is due.
    pub(crate) ring: bool,
    pub(crate) cwd: PathBuf,
    /// The transcript area's height at the last frame (for page scrolling).
    pub(crate) page: usize,
    /// The history must be read again (the live stream fell behind).
    pub(crate) reload: bool,
    /// The history is being read: submitting waits for it.
    pub(crate) loading: bool,
    /// A summary of the branch (its cost and prompts) was taken in.
    summarized: bool,
    /// This process's live blocks being folded into history: the read they come back from
    /// (its epoch), and how many live blocks it holds.
    pub(crate) fold: Option<(u64, usize)>,
    /// The latest fold's read: its summary of the branch is not taken in (the status and Up's
    /// history already hold everything up to its leaf, and a run since may have added more).
    folded: Option<u64>,
    /// The session open here (its id and file).
    pub(crate) opened: Option<(smith::SessionId, PathBuf)>,
    /// The resident state of the session this process writes (the programs it keeps), for
    /// `/mcp reconnect`; none while observing or replaying.
    pub(crate) resident: Option<std::sync::Arc<smith::Resident>>,
    /// The session a replay was opened from (Esc goes back to it).
    pub(crate) back: Option<(smith::SessionId, PathBuf)>,
    /// An earlier message being edited into a new branch: where it starts (the entry the
    /// message was sent onto) and the message's entry.
    pub(crate) editing: Option<(EntryId, EntryId)>,
    /// The model (and thinking level) chosen with `/model`: the following runs, also in the
    /// sessions this UI goes to next, use it.
    pub(crate) chosen: Option<(Selection, Option<smith::ThinkingLevel>)>,
    /// Which picker listing is wanted (a reader of another one stops).
    pub(crate) listing: Arc<std::sync::atomic::AtomicU64>,
    /// What an observed writer streams, shown after what it committed.
    overlay: overlay::Overlay,
    /// URLs shown are written as OSC 8 hyperlinks (`tui.hyperlinks`).
    pub(crate) hyperlinks: bool,
    /// The input's vi mode (`tui.input-mode vim`), when on.
    pub(crate) vim: Option<vim::Vim>,
    /// The images pasted into the draft, by the id of their chip.
    pub(crate) images: Vec<(u64, crate::paste_image::Pasted)>,
    /// The images of the submission sent and not yet admitted, by id (a refusal gives them
    /// back).
    pub(crate) images_sent: Option<(
        smith_render_terminal::input::Draft,
        Vec<(u64, crate::paste_image::Pasted)>,
    )>,
    /// The id of the latest image pasted (ids count from 1; a chip is known by its
    /// image's id).
    pub(crate) next_image: u64,
    #[cfg(debug_assertions)]
    pub(crate) fault: bool,
}

impl Ui {
    pub(crate) fn new(theme: Theme, held: Held, session: String, cwd: PathBuf) -> Self {
        let access = match held {
            Held::Writer => Access::Writer,
            Held::Observer { .. } | Held::Replay => Access::Observer,
        };
        Self {
            window: Window::new(),
            keymap: Keymap::built_in(),
            product: Arc::new(ProductLayer::built_in_only(&crate::keys::built_in_specs())),
            palette: 0,
            palette_chose: false,
            values: Arc::default(),
            layout: Layout::StatusBottom,
            editor: Editor::new(),
            status: Status {
                model: "…".into(),
                state: match held {
                    Held::Writer => "starting".into(),
                    Held::Observer { .. } => "observing".into(),
                    Held::Replay => "replaying".into(),
                },
                session,
                access: Some(access),
                ..Status::default()
            },
            theme,
            held,
            queued: Vec::new(),
            plan: Vec::new(),
            plan_hidden: false,
            interrupted: None,
            effects_offered: false,
            sandbox: None,
            stranded: Vec::new(),
            withdrawing: Vec::new(),
            enqueued: Vec::new(),
            questions: VecDeque::new(),
            question_scroll: 0,
            question_page: 5,
            layers: Vec::new(),
            asks: Vec::new(),
            asked: std::collections::HashSet::new(),
            epoch: 0,
            jump_top: false,
            generation: 0,
            choices: Vec::new(),
            choice: None,
            hint: None,
            frame_memory_said: false,
            quit_armed: false,
            inbox: None,
            model: None,
            unprepared: None,
            welcome: None,
            running: None,
            admitting: false,
            compacting: false,
            sent: None,
            round: 0,
            focused: true,
            notify: true,
            ring: false,
            cwd,
            page: 10,
            reload: false,
            overlay: overlay::Overlay::default(),
            hyperlinks: false,
            fold: None,
            folded: None,
            loading: false,
            summarized: false,
            opened: None,
            resident: None,
            back: None,
            editing: None,
            chosen: None,
            listing: Arc::default(),
            vim: None,
            images: Vec::new(),
            images_sent: None,
            next_image: 0,
            #[cfg(debug_assertions)]
            fault: false,
        }
    }

    fn observer(&self) -> bool {
        matches!(self.held, Held::Observer { .. } | Held::Replay)
    }

    pub(crate) fn busy(&self) -> bool {
        self.running.is_some() || self.admitting
    }

    /// Why submitting is refused here, if it is.
    pub(crate) fn cannot_submit(&self) -> Option<String> {
        if matches!(self.held, Held::Replay) {
            return Some(if self.back.is_some() {
                "a replay only shows what was recorded, so submission is disabled; Esc goes back to the session once it ends".to_owned()
            } else {
                format!(
                    "a replay only shows what was recorded, so submission is disabled; continue the session with /attach {} (or `smith --session {}`)",
                    self.status.session, self.status.session
                )
            });
        }
        if let Held::Observer { holder, .. } = &self.held {
            return Some(format!(
                "read-only: {} writes this session, so submission is disabled; /fork continues it in a new session",
                crate::draw::holder_words(holder.as_ref()),
            ));
        }
        if self.loading {
            return Some(
                "the session's history is still being read; send again in a moment".into(),
            );
        }
        if self.compacting {
            return Some("the session is being compacted; send again when it has ended".into());
        }
        self.unprepared.clone()
    }

    /// Fold in a live or recorded intent.
    pub(crate) fn apply(&mut self, intent: &Intent) {
        self.window.live.apply(intent);
        match intent {
            Intent::Receipt {
                submission,
                deduplicated: false,
                state: smith_ui_intents::ReceiptStatus::Admitted,
                ..
            } if self.admitting => {
                self.admitting = false;
                self.sent = None;
                self.images_sent = None;
                self.running = Some(EntryId(*submission));
                self.round = 0;
                self.status.state = "admitted".into();
            }
            // Every prompt of the session, recorded or live, is in Up's history (a prompt
            // sent from this editor is there already: not added twice).
            Intent::MessageEnd { message, .. } if message.role == smith::Role::User => {
                self.editor.remember(&message.text());
            }
            Intent::Plan { items } => self.plan.clone_from(items),
            Intent::RoundStart { round } => {
                self.round = *round;
                self.status.state = format!("round {round} · waiting for the model");
            }
            Intent::MessageStart {
                role: smith::Role::Assistant,
                ..
            } => self.status.state = format!("round {} · streaming", self.round),
            Intent::CompactionStart { summarized, .. } => {
                self.status.state = format!("compacting · summarizing {summarized} items");
            }
            Intent::CompactionEnd { cost_usd, .. } => {
                if let Some(c) = cost_usd {
                    *self.status.cost_usd.get_or_insert(0.0) += c;
                }
                self.status.state = if self.running.is_some() {
                    format!("round {} · waiting for the model", self.round)
                } else {
                    self.compacting = false;
                    "idle".into()
                };
            }
            Intent::ToolStart { name, .. } if self.running.is_some() => {
                self.status.state = format!("round {} · running {name}", self.round);
            }
            Intent::ConfirmRequest {
                request_id,
                prompt,
                default,
            } => self.questions.push_back(Question::Confirm {
                id: request_id.clone(),
                prompt: prompt.clone(),
                default: *default,
            }),
            Intent::SelectRequest {
                request_id,
                prompt,
                options,
            } => self.questions.push_back(Question::Select {
                id: request_id.clone(),
                prompt: prompt.clone(),
                options: options.clone(),
                at: 0,
            }),
            Intent::InputRequest {
                request_id,
                prompt,
                secret,
            } => self.questions.push_back(Question::Text {
                id: request_id.clone(),
                prompt: prompt.clone(),
                secret: *secret,
                text: String::new(),
            }),
            Intent::RequestRefused { request_id, .. } => {
                self.questions.retain(|q| q.id() != request_id);
            }
            Intent::Usage {
                cost_usd: Some(c), ..
            } => *self.status.cost_usd.get_or_insert(0.0) += c,
            Intent::ContextUse {
                used_tokens: Some(used),
                limit_tokens,
            } => self.status.context = Some((*used, *limit_tokens)),
            Intent::RunStart {
                sandbox: Some(mode),
                ..
            } if !matches!(self.held, Held::Replay) => {
                self.status.unconfined = mode == "full-access";
            }
            Intent::RunStart { model, .. } if matches!(self.held, Held::Replay) => {
                // Each replayed turn names the model it ran with.
                self.status.model = model.to_string();
                self.status.state = "replaying".into();
            }
            Intent::RunEnd { .. } if matches!(self.held, Held::Replay) => {
                self.status.state = "replaying · turn ended".into();
            }
            Intent::RunEnd { stop_reason, .. } if self.running.is_some() || self.admitting => {
                if *stop_reason == smith::StopReason::Aborted {
                    self.take_back_queued();
                }
                self.running = None;
                self.admitting = false;
                self.questions.clear();
                self.status.state = "idle".into();
                if !self.focused && self.notify {
                    self.ring = true;
                }
            }
            Intent::FellBehind { .. } => self.reload = true,
            _ => {}
        }
    }

    /// What `key` does.
    pub(crate) fn key(&mut self, key: KeyEvent) -> Option<Effect> {
        if key.kind == KeyEventKind::Release {
            return None;
        }
        let target = self.keymap.target_for(&key).cloned();
        let action = match &target {
            Some(Target::Action(a)) => Some(*a),
            _ => None,
        };
        if action != Some(Action::Interrupt) {
            self.quit_armed = false;
        }
        // Esc closes the list itself (its first step); every other key but Tab drops it.
        if !matches!(action, Some(Action::Complete | Action::Escape)) {
            self.choices.clear();
            self.choice = None;
        }
        #[cfg(debug_assertions)]
        if self.fault && key.code == KeyCode::F(12) {
            return Some(Effect::Fault);
        }
        // A hint answers the key before; this key's own may replace it (an overlay's too, so
        // none outlives the overlay that gave it).
        self.hint = None;
        // The top overlay or mode owns the keys it uses.
        if let Some(effect) = self.layer_key(key, action) {
            return effect;
        }
        // Ctrl+Z, unless bound: raw mode keeps the terminal from stopping smith, so smith
        // stops itself, as a shell's job control expects.
        if target.is_none()
            && key.code == KeyCode::Char('z')
            && key.modifiers == crossterm::event::KeyModifiers::CONTROL
        {
            return Some(Effect::Suspend);
        }
        if !self.questions.is_empty() && !self.observer() {
            return self.question_key(key, action);
        }
        let had_draft = !self.editor.is_empty();
        // A draft sent, cleared or run as a command: the next one starts in insert mode.
        let fresh_draft = |ui: &mut Self| {
            if had_draft && ui.editor.is_empty() {
                ui.vim_reset();
            }
        };
        if let Some(effect) = self.palette_key(key, action) {
            fresh_draft(self);
            return effect;
        }
        if let Some(effect) = self.vim_key(key, action) {
            return effect;
        }
        let effect = match (action, target) {
            (Some(a), _) => self.act(a),
            (None, Some(Target::Command(name))) => self.command(name),
            (None, _) => {
                let before = self.editor.shown();
                self.edit(key);
                // What the palette lists changed with the draft: choose from its top again.
                if self.editor.shown() != before {
                    self.palette = 0;
                    self.palette_chose = false;
                }
                None
            }
        };
        fresh_draft(self);
        effect
    }

    /// This UI with the bundled product layer (its default commands and bindings), for tests
    /// and the headless UI.
    pub(crate) fn with_bundled_product(mut self) -> Self {
        static LAYER: std::sync::OnceLock<Arc<ProductLayer>> = std::sync::OnceLock::new();
        let layer = LAYER.get_or_init(|| {
            Arc::new(
                smith_app::product::bundled(&crate::keys::built_in_specs())
                    .expect("the bundled product plugin loads"),
            )
        });
        self.set_product(Arc::clone(layer));
        self
    }

    /// Replace the product layer (and the keymap from its bindings).
    /// The UI for the next session view: what belongs to the person (theme, layout, keys,
    /// product layer, pickers' values, focus, the draft's history) kept, the rest new.
    pub(crate) fn next_view(self, held: Held, session: smith::SessionId) -> Self {
        let mut next = Self::new(
            self.theme.clone(),
            held,
            session.to_string(),
            self.cwd.clone(),
        );
        next.keymap = self.keymap;
        next.product = self.product;
        next.layout = self.layout;
        next.values = self.values;
        next.notify = self.notify;
        next.plan_hidden = self.plan_hidden;
        next.focused = self.focused;
        next.listing = self.listing;
        next.chosen = self.chosen;
        next.set_vim(self.vim.is_some());
        next.window.live.show_thinking = self.window.live.show_thinking;
        #[cfg(debug_assertions)]
        {
            next.fault = self.fault;
        }
        next
    }

    pub(crate) fn set_product(&mut self, layer: Arc<ProductLayer>) {
        self.keymap = Keymap::from_layer(&layer);
        self.layout = layer.layout;
        self.product = layer;
    }

    /// Compact the idle session with `focus` (the `compact` verb); refused while work runs.
    pub(crate) fn compact(&mut self, focus: Option<String>) -> Option<Effect> {
        if let Some(why) = self.cannot_submit() {
            self.hint = Some(why);
            return None;
        }
        if self.busy() {
            self.hint = Some(
                "work is running: /compact waits until it has ended (the session compacts itself when it must)".into(),
            );
            return None;
        }
        self.compacting = true;
        self.status.state = "compacting".into();
        self.follow_latest();
        Some(Effect::Compact(focus))
    }

    /// Carry out key-table action `action` (a command's `key` action).
    pub(crate) fn trigger(&mut self, action: Action) -> Option<Effect> {
        self.act(action)
    }

    /// Run command `line` (as typed after `/`), clearing the draft it came from.
    fn command(&mut self, line: String) -> Option<Effect> {
        self.palette = 0;
        Some(Effect::Command(line))
    }

    /// A paste: into the question's text, else the query of the picker on top (the effects
    /// picker's note), else the draft.
    pub(crate) fn paste(&mut self, text: &str) {
        if let Some(Question::Text { text: answer, .. }) = self.questions.front_mut() {
            answer.push_str(&text.replace(['\r', '\n'], " "));
            return;
        }
        if let Some(Layer::Picker(picker)) = self.layers.last_mut() {
            picker.insert(&text.replace(['\r', '\n'], " "));
            if picker.kind != crate::pickers::Kind::Effects {
                picker.chosen = 0;
            }
            return;
        }
        self.editor.paste(text);
    }

    /// Clear the draft, keeping it in the history (Up brings it back), and say so.
    fn stash_draft(&mut self) {
        let images = !self.editor.attachments().is_empty();
        if self.editor.stash() || images {
            self.hint = Some(if images {
                "draft cleared; Up brings its text back, not its image (Ctrl+V pastes it again)"
                    .into()
            } else {
                "draft cleared; Up brings it back".into()
            });
        }
    }

    /// The work thread refused a submission (`why`, shown): a submission not yet admitted
    /// goes back to an empty draft, so nothing typed is lost.
    pub(crate) fn refused(&mut self, why: String) {
        if self.running.is_none() {
            self.admitting = false;
            self.status.state = if self.unprepared.is_some() {
                "no model".into()
            } else {
                "idle".into()
            };
            if let Some(text) = self.sent.take()
                && self.editor.is_empty()
            {
                if self.images_sent.is_some() {
                    self.restore_images();
                } else {
                    self.editor.set_text(&text);
                }
            }
            self.images_sent = None;
        }
        self.notice(NoticeLevel::Error, why);
    }

    /// A notice of the frontend's own, in the transcript.
    pub(crate) fn notice(&mut self, level: NoticeLevel, text: String) {
        self.window.live.apply(&Intent::Notice { level, text });
    }
}

mod act;
mod edit;
mod images;
mod overlay;
mod palette;
mod pick;
mod question;
mod queue;
mod recall;
mod storage;
#[cfg(test)]
mod tests;
mod verdicts;
mod vim;
