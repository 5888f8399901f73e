//! Questions a running tool call asks the person running Smith (spec: User interface
//! abstraction — prompt/confirm requests): the run shows each as a request intent, keeps it
//! pending in the session's work state, and the frontend answers it through the session's
//! [`Inbox`] from any thread. A frontend that cannot ask refuses the intent, and the call gets
//! that refusal at once. The question and its answer are recorded by the asker, as an effect.

use smith::{Answer, AskError, EntryId, Question, ToolEvent};
use smith_ui_intents::{Delivery, Intent, IntentSink};

use crate::Inbox;
use crate::inbox::lock;
use crate::work::WorkState;

/// A question waiting for its answer, while its call runs.
#[derive(Debug)]
pub(crate) struct PendingAsk {
    request_id: String,
    work: Option<EntryId>,
    question: Question,
    reply: std::sync::mpsc::SyncSender<Result<Answer, AskError>>,
}

/// A question waiting for its answer: what [`Inbox::asked`] lists.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Asked {
    /// The request's id (unique within the session: the number of the entry recording the
    /// question): what
    /// [`Inbox::answer`] takes and the request intent carried.
    pub request_id: String,
    /// The work whose tool call asks.
    pub work: Option<EntryId>,
    /// The question.
    pub question: Question,
}

impl Asked {
    /// The request intent that offers this question (`confirm_request`, `select_request` or
    /// `input_request`) — what a frontend shows again to a client that reconnects.
    pub fn intent(&self) -> Intent {
        request_intent(&self.request_id, &self.question)
    }
}

/// Why an answer was not taken. Nothing was delivered.
#[derive(Debug, thiserror::Error)]
pub enum AnswerError {
    /// No question with that id is waiting (never asked, answered already, or its call ended).
    #[error(
        "request {0:?} is not waiting for an answer (it was answered, its tool call ended, or it was never asked); list the waiting requests to see what can be answered"
    )]
    NotWaiting(String),
    /// The answer does not fit the question; the text says what was expected.
    #[error("request {request_id:?} cannot take that answer: {why}")]
    Mismatch {
        /// The request.
        request_id: String,
        /// What answer was expected.
        why: smith::AnswerMismatch,
    },
}

impl Inbox {
    /// The questions waiting for an answer, in the order they were asked.
    pub fn asked(&self) -> Vec<Asked> {
        lock(&self.state)
            .asks
            .iter()
            .map(|p| Asked {
                request_id: p.request_id.clone(),
                work: p.work,
                question: p.question.clone(),
            })
            .collect()
    }

    /// Answer the waiting question `request_id`: the asking call continues with `answer`
    /// (which records it).
    ///
    /// # Errors
    /// [`AnswerError::NotWaiting`]; [`AnswerError::Mismatch`] when the answer does not fit
    /// the question (it stays waiting).
    pub fn answer(&self, request_id: &str, answer: Answer) -> Result<(), AnswerError> {
        let mut state = lock(&self.state);
        let Some(at) = state.asks.iter().position(|p| p.request_id == request_id) else {
            return Err(AnswerError::NotWaiting(request_id.to_owned()));
        };
        state.asks[at]
            .question
            .check(&answer)
            .map_err(|why| AnswerError::Mismatch {
                request_id: request_id.to_owned(),
                why,
            })?;
        let pending = state.asks.remove(at);
        pending
            .reply
            .send(Ok(answer))
            .map_err(|_| AnswerError::NotWaiting(request_id.to_owned()))
    }

    /// Refuse the waiting question `request_id` with `reason` (the person declined, or the
    /// frontend could not ask after all): the asking call goes on without an answer.
    ///
    /// # Errors
    /// [`AnswerError::NotWaiting`].
    pub fn refuse(&self, request_id: &str, reason: &str) -> Result<(), AnswerError> {
        let mut state = lock(&self.state);
        let Some(at) = state.asks.iter().position(|p| p.request_id == request_id) else {
            return Err(AnswerError::NotWaiting(request_id.to_owned()));
        };
        let pending = state.asks.remove(at);
        pending
            .reply
            .send(Err(AskError::Refused(reason.to_owned())))
            .map_err(|_| AnswerError::NotWaiting(request_id.to_owned()))
    }

    /// Nobody will answer from now on (the frontend's client went away): every waiting
    /// question, and every later one, is refused with `reason` — the asking calls go on
    /// without an answer (a permission question: the call or effect does not run), so the work reaches
    /// its end instead of waiting for ever.
    pub fn refuse_asks(&self, reason: &str) {
        let mut state = lock(&self.state);
        state.asks_refused = Some(reason.to_owned());
        for pending in state.asks.drain(..) {
            let _ = pending
                .reply
                .send(Err(AskError::Refused(reason.to_owned())));
        }
    }
}

/// The request intent of `question`.
pub(crate) fn request_intent(request_id: &str, question: &Question) -> Intent {
    let request_id = request_id.to_owned();
    match question {
        Question::Confirm { prompt, default } => Intent::ConfirmRequest {
            request_id,
            prompt: prompt.clone(),
            default: *default,
        },
        Question::Select { prompt, options } => Intent::SelectRequest {
            request_id,
            prompt: prompt.clone(),
            options: options.clone(),
        },
        Question::Input { prompt, secret } => Intent::InputRequest {
            request_id,
            prompt: prompt.clone(),
            secret: *secret,
        },
    }
}

/// Relays one tool call's events on the run's thread: progress as tool updates, questions as
/// request intents (refused ones answered at once, the rest left pending for the inbox).
pub(crate) struct Relay<'a> {
    pub(crate) call_id: &'a str,
    pub(crate) work: Option<EntryId>,
    pub(crate) state: &'a std::sync::Mutex<WorkState>,
    asked: Vec<String>,
}

impl<'a> Relay<'a> {
    pub(crate) fn new(
        call_id: &'a str,
        work: Option<EntryId>,
        state: &'a std::sync::Mutex<WorkState>,
    ) -> Self {
        Self {
            call_id,
            work,
            state,
            asked: Vec::new(),
        }
    }

    /// Relay `event` into `sink`.
    pub(crate) fn relay(&mut self, sink: &mut dyn IntentSink, event: ToolEvent) {
        match event {
            ToolEvent::Progress(text) => {
                sink.emit(Intent::ToolUpdate {
                    call_id: self.call_id.to_owned(),
                    text,
                });
            }
            ToolEvent::Plan(items) => {
                sink.emit(Intent::Plan { items });
            }
            ToolEvent::Ask {
                request_id,
                question,
                reply,
            } => {
                let mut state = lock(self.state);
                if let Some(reason) = state.asks_refused.clone() {
                    drop(state);
                    let _ = reply.send(Err(AskError::Refused(reason)));
                    return;
                }
                // Pending before it is shown, so an answer that comes back at once finds it.
                state.asks.push(PendingAsk {
                    request_id: request_id.clone(),
                    work: self.work,
                    question: question.clone(),
                    reply: reply.clone(),
                });
                drop(state);
                self.asked.push(request_id.clone());
                if let Delivery::Refused { reason } =
                    sink.emit(request_intent(&request_id, &question))
                {
                    lock(self.state).asks.retain(|p| p.request_id != request_id);
                    let _ = reply.send(Err(AskError::Refused(reason)));
                }
            }
        }
    }
}

impl Drop for Relay<'_> {
    /// The call ended: its questions no longer wait.
    fn drop(&mut self) {
        if !self.asked.is_empty() {
            lock(self.state)
                .asks
                .retain(|p| !self.asked.contains(&p.request_id));
        }
    }
}
