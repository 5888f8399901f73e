//! What wakes the render loop: terminal input, the work thread's news, the storage worker's
//! records, signals. One channel carries them all; live intents travel apart, in the bounded
//! subscriber [`IntentQueue`] that never makes the agent wait, with one coalesced
//! [`Event::Intents`] wake per batch.

use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::mpsc;

use smith::SessionId;
use smith_app::runner::Inbox;
use smith_ui_intents::{Intent, IntentQueue, IntentSink, NoticeLevel};

/// One thing for the render loop.
#[derive(Debug)]
pub(crate) enum Event {
    /// A key, a paste, a resize, a focus change.
    Terminal(crossterm::event::Event),
    /// Reading the terminal failed: it is gone.
    TerminalLost,
    /// Live intents are waiting in the queue.
    Intents,
    /// A chunk of the session's history the storage worker prepared (`epoch`: which read
    /// of the file it comes from; a reload starts a new one).
    Chunk {
        epoch: u64,
        chunk: smith_render_terminal::window::Chunk,
    },
    /// The whole branch walked: what it cost so far (US dollars; `None` when unknown or
    /// empty) and its prompts, oldest first (Up's history).
    Summary {
        epoch: u64,
        cost_usd: Option<f64>,
        prompts: Vec<String>,
    },
    /// Search `generation` found a block: block `index` of `chunk`.
    Found {
        generation: u64,
        epoch: u64,
        chunk: smith_render_terminal::window::Chunk,
        index: usize,
    },
    /// Search `generation` found nothing more in the history in its direction.
    NotFound { generation: u64, older: bool },
    /// Committed records an observer read.
    Observed(Vec<Intent>),
    /// What the observed session's writer streams now (changed since the last one sent).
    Streaming(smith_app::live::LiveSnapshot),
    /// An observed session has no writer any more (it stays read-only).
    WriterGone,
    /// The work thread is ready to submit: the inbox, the selection and its label, the
    /// permission mode and OS sandbox mode the next run uses, and whether the session is one
    /// this process created (a new one: the welcome is shown while it is empty).
    Ready {
        inbox: Inbox,
        model: smith::Selection,
        permission_mode: smith_app::PermissionMode,
        sandbox: &'static str,
        fresh: bool,
    },
    /// The permission mode the next run uses changed.
    PermissionMode(smith_app::PermissionMode),
    /// The session's plan as the selected branch has it (read when the session is opened
    /// and when another branch is selected; a run's changes come as `plan` intents).
    Plan(Vec<smith::PlanItem>),
    /// The session holds an interrupted turn: the banner's words (what it had done); `None`
    /// once it is continued or settled.
    Interrupted(Option<String>),
    /// The session's effects of unknown outcome (read when the session is opened and after a
    /// verdict): offered for a verdict when any has none.
    UnknownEffects(Vec<smith_app::verdicts::UnknownEffect>),
    /// A verdict was not recorded: why (shown in the effects picker, its note kept).
    VerdictRefused(String),
    /// What the palette's pickers offer (read by the work thread, off the first frame's path).
    Values(smith_app::product::ArgumentValues),
    /// Rows for an open picker.
    Listed(crate::pickers::Listed),
    /// Text to show in a scrollable overlay (a diff), titled.
    Overlay { title: String, text: String },
    /// The session's branch changed to the one ending at `leaf` (recorded): the transcript is
    /// read again; `said` tells the person.
    Reselected { leaf: u64, said: String },
    /// The work thread cannot run turns (no model, a bad route): why.
    Unprepared(String),
    /// A submission was refused before admission (nothing written): why.
    Refused(String),
    /// The clipboard's image read for the draft, or why there is none.
    Pasted(Result<crate::paste_image::Pasted, String>),
    /// The queue changed: input this UI queued was admitted (its submission), or input was
    /// withdrawn (`None`).
    Queued(Option<smith::EntryId>),
    /// Input could not be queued: its text (back to the draft) and why.
    Unqueued(String, String),
    /// A notice of the frontend's own.
    Notice(NoticeLevel, String),
    /// A turn's work ended (its `run_end` is committed); the session's leaf then.
    WorkEnded { leaf: Option<u64> },
    /// The work thread closed the session and ended.
    Closed,
    /// A signal asks the UI to leave (its number).
    Signal(i32),
}

/// The sending end, cloned by every thread. Each carries the generation of the session view
/// it works for (0: the terminal's and the signals' threads, which outlive every view): when
/// the UI switches to another session, what the previous view's threads still send is
/// dropped by its generation, never applied to the next one.
#[derive(Clone, Debug)]
pub(crate) struct Events {
    tx: mpsc::Sender<(u64, Event)>,
    generation: u64,
}

impl Events {
    /// The channel, and its sender for generation 0.
    pub(crate) fn channel() -> (Self, mpsc::Receiver<(u64, Event)>) {
        let (tx, rx) = mpsc::channel();
        (Self { tx, generation: 0 }, rx)
    }

    /// A sender for the session view `generation`.
    pub(crate) fn for_generation(&self, generation: u64) -> Self {
        Self {
            tx: self.tx.clone(),
            generation,
        }
    }

    /// Send `event`; a render loop that ended takes nothing more.
    pub(crate) fn send(&self, event: Event) {
        let _ = self.tx.send((self.generation, event));
    }
}

/// The live intents of the session's work: pushed without waiting into a bounded
/// subscriber queue (full, it drops what it holds for one `fell_behind`), with one wake
/// sent while the render loop has not yet drained what came before.
pub(crate) struct LiveIntents {
    pub(crate) queue: IntentQueue,
    woken: AtomicBool,
    events: Events,
}

/// Intents held for the render loop at most (a slower loop falls behind and rereads the file).
const CAPACITY: usize = 4096;

impl std::fmt::Debug for LiveIntents {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("LiveIntents")
    }
}

impl LiveIntents {
    pub(crate) fn new(session: SessionId, events: Events) -> Arc<Self> {
        Arc::new(Self {
            queue: IntentQueue::subscriber(CAPACITY, session),
            woken: AtomicBool::new(false),
            events,
        })
    }

    fn push(&self, intent: Intent) {
        self.queue.push(intent);
        if !self.woken.swap(true, Ordering::AcqRel) {
            self.events.send(Event::Intents);
        }
    }

    /// Everything waiting, in order; the next push wakes the loop again.
    pub(crate) fn drain(&self) -> Vec<Intent> {
        self.woken.store(false, Ordering::Release);
        std::iter::from_fn(|| self.queue.try_pop()).collect()
    }
}

/// The sink a turn's intents go to.
pub(crate) struct LiveSink(pub(crate) Arc<LiveIntents>);

impl IntentSink for LiveSink {
    fn emit(&mut self, intent: Intent) -> smith_ui_intents::Delivery {
        self.0.push(intent);
        smith_ui_intents::Delivery::Shown
    }
}
