//! Questions a tool call asks the person running Smith, and their answers (spec: User
//! interface abstraction — prompt/confirm requests; DESIGN §1: a request kind's degradation
//! rule is `refuse` for a frontend that cannot answer it).
//!
//! A question travels from the tool's worker thread to the run's thread over the call's
//! [`ToolEvent`] channel; the run shows it as a request intent (`confirm_request`,
//! `select_request`, `input_request`) and the frontend answers it through the session's inbox,
//! or refuses it at once when it cannot ask. The asker records the question and its answer
//! as an effect (`ask.confirm`, `ask.select`, `ask.input`) before and after, so the session
//! keeps what was asked and what was answered — never a secret answer's text.

use std::sync::mpsc;
use std::time::Duration;

use crate::Cancel;

/// A question for the person running Smith.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Question {
    /// A yes/no question.
    Confirm {
        /// The question.
        prompt: String,
        /// The answer an empty reply means, if any.
        default: Option<bool>,
    },
    /// A choice among options (at least one).
    Select {
        /// The question.
        prompt: String,
        /// The options, in display order; the answer is an index into them.
        options: Vec<String>,
    },
    /// A line of text.
    Input {
        /// The question.
        prompt: String,
        /// Whether the text is secret: never echoed, and never recorded in plaintext.
        secret: bool,
    },
}

impl Question {
    /// The effect kind its record carries: `ask.confirm`, `ask.select` or `ask.input`.
    pub fn effect(&self) -> &'static str {
        match self {
            Self::Confirm { .. } => "ask.confirm",
            Self::Select { .. } => "ask.select",
            Self::Input { .. } => "ask.input",
        }
    }

    /// The question's text.
    pub fn prompt(&self) -> &str {
        match self {
            Self::Confirm { prompt, .. }
            | Self::Select { prompt, .. }
            | Self::Input { prompt, .. } => prompt,
        }
    }

    /// Check that `answer` answers this question: a confirmation for a yes/no question, an
    /// index below the option count for a choice, text for a line of text.
    ///
    /// # Errors
    /// [`AnswerMismatch`], saying what answer was expected.
    pub fn check(&self, answer: &Answer) -> Result<(), AnswerMismatch> {
        match (self, answer) {
            (Self::Confirm { .. }, Answer::Confirm(_)) | (Self::Input { .. }, Answer::Text(_)) => {
                Ok(())
            }
            (Self::Select { options, .. }, Answer::Select(i)) if (*i as usize) < options.len() => {
                Ok(())
            }
            (Self::Select { options, .. }, Answer::Select(i)) => {
                Err(AnswerMismatch::NoSuchOption {
                    index: *i,
                    options: options.len(),
                })
            }
            (Self::Confirm { .. }, _) => Err(AnswerMismatch::NotYesNo),
            (Self::Select { .. }, _) => Err(AnswerMismatch::NotAnIndex),
            (Self::Input { .. }, _) => Err(AnswerMismatch::NotText),
        }
    }
}

/// Why an answer does not answer its question ([`Question::check`]).
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AnswerMismatch {
    /// A choice's answer past its options.
    #[error("option {index} does not exist: the question has {options} options, numbered from 0")]
    NoSuchOption {
        /// The index given.
        index: u32,
        /// How many options the question has.
        options: usize,
    },
    /// A yes/no question answered otherwise.
    #[error("a yes/no question is answered with true or false")]
    NotYesNo,
    /// A choice answered otherwise.
    #[error("a choice is answered with the index of an option, from 0")]
    NotAnIndex,
    /// A request for text answered otherwise.
    #[error("a request for text is answered with a string")]
    NotText,
}

/// An answer to a [`Question`].
#[derive(Clone, PartialEq, Eq)]
pub enum Answer {
    /// Yes (`true`) or no.
    Confirm(bool),
    /// The index of the chosen option, from 0.
    Select(u32),
    /// The text given.
    Text(String),
}

impl std::fmt::Debug for Answer {
    /// Text answers are never shown: they may be secret.
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::Confirm(b) => write!(f, "Confirm({b})"),
            Self::Select(i) => write!(f, "Select({i})"),
            Self::Text(t) => write!(f, "Text(<{} bytes>)", t.len()),
        }
    }
}

/// Why a question got no answer.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum AskError {
    /// The frontend cannot ask (it refused the request); the text says why, naming it.
    #[error("{0}")]
    Refused(String),
    /// The work was aborted, or the call cancelled, while the question waited.
    #[error("the work was cancelled before the question was answered")]
    Cancelled,
    /// Nobody can be asked: the call runs without a run to relay questions (a host test, a
    /// replay), or the run ended.
    #[error("nobody can be asked here: the call runs outside a run that relays questions")]
    Unavailable,
}

/// What a tool's worker thread sends the run's thread while the call runs.
#[derive(Debug)]
pub enum ToolEvent {
    /// A short progress message, shown as a tool update (transient; nothing is recorded).
    Progress(String),
    /// A question (already recorded as an effect intent); the run sends the answer, or why
    /// there is none, on `reply`.
    Ask {
        /// The request's id, unique within the session (the asker uses the decimal number
        /// of the entry that records the question).
        request_id: String,
        /// The question.
        question: Question,
        /// Where the answer goes (once).
        reply: mpsc::SyncSender<Result<Answer, AskError>>,
    },
    /// The session's plan was replaced (already recorded as Smith's branch state): shown as
    /// a `plan` intent.
    Plan(Vec<crate::PlanItem>),
}

/// How often a waiting question looks at its cancellation flag: the flag has no wake-up, so
/// an abort is noticed within this bound.
const CANCEL_POLL: Duration = Duration::from_millis(50);

/// Ask `question` over a call's event channel `events` and wait for the answer, or until
/// `cancel` is set.
///
/// # Errors
/// [`AskError::Refused`] when the frontend cannot ask; [`AskError::Cancelled`] when `cancel`
/// was set first; [`AskError::Unavailable`] when the run is gone.
pub fn ask(
    events: &mpsc::Sender<ToolEvent>,
    request_id: &str,
    question: Question,
    cancel: &Cancel,
) -> Result<Answer, AskError> {
    let (reply, answer) = mpsc::sync_channel(1);
    events
        .send(ToolEvent::Ask {
            request_id: request_id.to_owned(),
            question,
            reply,
        })
        .map_err(|_| AskError::Unavailable)?;
    loop {
        if cancel.is_cancelled() {
            return Err(AskError::Cancelled);
        }
        match answer.recv_timeout(CANCEL_POLL) {
            Ok(answer) => return answer,
            Err(mpsc::RecvTimeoutError::Timeout) => {}
            Err(mpsc::RecvTimeoutError::Disconnected) => return Err(AskError::Unavailable),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn answers_are_checked_against_their_question() {
        let confirm = Question::Confirm {
            prompt: "go?".into(),
            default: None,
        };
        assert!(confirm.check(&Answer::Confirm(true)).is_ok());
        assert!(confirm.check(&Answer::Select(0)).is_err());
        let select = Question::Select {
            prompt: "which?".into(),
            options: vec!["a".into(), "b".into()],
        };
        assert!(select.check(&Answer::Select(1)).is_ok());
        let e = select.check(&Answer::Select(2)).unwrap_err();
        assert_eq!(
            e,
            AnswerMismatch::NoSuchOption {
                index: 2,
                options: 2
            }
        );
        assert!(e.to_string().contains("2 options"), "{e}");
        let input = Question::Input {
            prompt: "name?".into(),
            secret: true,
        };
        assert!(input.check(&Answer::Text("x".into())).is_ok());
        assert!(input.check(&Answer::Confirm(false)).is_err());
        assert_eq!(
            format!("{:?}", Answer::Text("hunter2".into())),
            "Text(<7 bytes>)"
        );
    }

    #[test]
    fn an_answer_or_a_cancel_ends_the_wait() {
        let (tx, rx) = mpsc::channel();
        let answerer = std::thread::spawn(move || {
            let ToolEvent::Ask { reply, .. } = rx.recv().unwrap() else {
                panic!("expected a question");
            };
            reply.send(Ok(Answer::Confirm(true))).unwrap();
            rx
        });
        let q = Question::Confirm {
            prompt: "go?".into(),
            default: Some(false),
        };
        assert_eq!(
            ask(&tx, "e1", q.clone(), &Cancel::new()),
            Ok(Answer::Confirm(true))
        );
        let rx = answerer.join().unwrap();
        // Nobody answers; the cancel flag ends the wait.
        let cancel = Cancel::new();
        cancel.cancel();
        assert_eq!(ask(&tx, "e2", q.clone(), &cancel), Err(AskError::Cancelled));
        drop(rx);
        assert_eq!(
            ask(&tx, "e3", q, &Cancel::new()),
            Err(AskError::Unavailable)
        );
    }
}
