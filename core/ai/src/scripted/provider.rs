//! Playing a script behind the provider boundary.

use std::path::PathBuf;
use std::sync::Mutex;
use std::time::Duration;

use smith::{
    Cancel, EventStream, Provider, ProviderError, ProviderErrorKind, ProviderRequest, StopReason,
    StreamEvent,
};

use super::{PROVIDER_ID, Script, Step};

/// How often a waiting gate looks for its release file and for cancellation.
const GATE_POLL: Duration = Duration::from_millis(2);

/// A provider that answers request *n* with round *n* of its [`Script`]; after the last
/// round, a script that [repeats](Script::repeat) starts again from round 1.
///
/// **Gates.** A `gate "NAME"` step pauses the stream: the provider creates the empty file
/// `NAME.waiting` in the script's directory, then waits until a file `NAME.release` appears
/// there (or the request is cancelled, which ends the stream with
/// [`StopReason::Aborted`]). On release it removes both files and plays on. A test reads the
/// `.waiting` marker to know the run reached the gate, acts, then creates `.release`.
#[derive(Debug)]
pub struct ScriptedProvider {
    script: Script,
    next_round: Mutex<usize>,
}

impl ScriptedProvider {
    /// A provider that plays `script` from its first round.
    pub fn new(script: Script) -> Self {
        Self {
            script,
            next_round: Mutex::new(0),
        }
    }

    /// The script being played.
    pub fn script(&self) -> &Script {
        &self.script
    }
}

impl Provider for ScriptedProvider {
    fn id(&self) -> &str {
        PROVIDER_ID
    }

    fn stream<'a>(
        &'a self,
        request: &ProviderRequest,
        cancel: &Cancel,
    ) -> Result<EventStream<'a>, ProviderError> {
        let index = {
            let mut next = self
                .next_round
                .lock()
                .unwrap_or_else(std::sync::PoisonError::into_inner);
            // A script that repeats plays again from its first round once run out (so
            // `scripted/demo` answers every prompt of an interactive session).
            if *next >= self.script.rounds.len() && self.script.repeat {
                *next = 0;
            }
            let index = *next;
            *next += 1;
            index
        };
        let Some(round) = self.script.rounds.get(index) else {
            return Err(ProviderError::new(
                ProviderErrorKind::InvalidRequest,
                format!(
                    "{} has {} round(s), but the run asked for round {}; add a round to the script or end its last round with `stop \"end_turn\"`",
                    self.script.origin,
                    self.script.rounds.len(),
                    index + 1
                ),
            ));
        };
        Ok(Box::new(RoundStream {
            steps: round.steps.clone().into_iter(),
            echo: request.last_user_text().unwrap_or_default(),
            gate_dir: self.script.gate_dir.clone(),
            cancel: cancel.clone(),
            done: false,
        }))
    }
}

struct RoundStream {
    steps: std::vec::IntoIter<Step>,
    echo: String,
    gate_dir: Option<PathBuf>,
    cancel: Cancel,
    done: bool,
}

impl RoundStream {
    fn aborted(&mut self) -> Option<StreamEvent> {
        self.done = true;
        Some(StreamEvent::Stop {
            reason: StopReason::Aborted,
        })
    }

    /// Wait at gate `name`; `Err` carries the event that ends the stream instead.
    fn wait_at_gate(&mut self, name: &str) -> Result<(), StreamEvent> {
        let Some(dir) = &self.gate_dir else {
            return Err(StreamEvent::Error(ProviderError::new(
                ProviderErrorKind::InvalidRequest,
                format!("gate `{name}` has no directory to wait in"),
            )));
        };
        let waiting = dir.join(format!("{name}.waiting"));
        let release = dir.join(format!("{name}.release"));
        if let Err(e) = std::fs::write(&waiting, b"") {
            return Err(StreamEvent::Error(ProviderError::new(
                ProviderErrorKind::Other,
                format!(
                    "cannot create gate marker `{}`: {e}; make the script's directory writable",
                    waiting.display()
                ),
            )));
        }
        loop {
            if self.cancel.is_cancelled() {
                let _ = std::fs::remove_file(&waiting);
                return Err(StreamEvent::Stop {
                    reason: StopReason::Aborted,
                });
            }
            if release.exists() {
                let _ = std::fs::remove_file(&release);
                let _ = std::fs::remove_file(&waiting);
                return Ok(());
            }
            std::thread::sleep(GATE_POLL);
        }
    }
}

impl Iterator for RoundStream {
    type Item = StreamEvent;

    fn next(&mut self) -> Option<StreamEvent> {
        loop {
            if self.done {
                return None;
            }
            if self.cancel.is_cancelled() {
                return self.aborted();
            }
            let step = self.steps.next()?;
            return Some(match step {
                Step::Text(text) => StreamEvent::TextDelta { text },
                Step::Thinking(text) => StreamEvent::ThinkingDelta { text },
                Step::Echo if self.echo.is_empty() => continue,
                Step::Echo => StreamEvent::TextDelta {
                    text: self.echo.clone(),
                },
                Step::ToolCall(call) => StreamEvent::ToolCall(call),
                Step::Usage(usage) => StreamEvent::Usage(usage),
                Step::Gate(name) => match self.wait_at_gate(&name) {
                    Ok(()) => continue,
                    Err(event) => {
                        self.done = true;
                        event
                    }
                },
                Step::Stop(reason) => {
                    self.done = true;
                    StreamEvent::Stop { reason }
                }
                Step::Error { kind, message } => {
                    self.done = true;
                    StreamEvent::Error(ProviderError::new(kind, message))
                }
                Step::Disconnect => {
                    self.done = true;
                    return None;
                }
            });
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use smith::{ContextItem, Message};

    fn request(prompt: &str) -> ProviderRequest {
        ProviderRequest {
            model: "scripted/t".parse().unwrap(),
            instructions: None,
            context: vec![ContextItem::Message(Message::user_text(prompt))],
            tools: vec![],
            thinking: None,
            max_output: None,
            cache: None,
        }
    }

    #[test]
    fn rounds_play_in_order_and_run_out_explicitly() {
        let script = Script::parse(
            "round { text \"a\"; echo; stop \"end_turn\" }\nround { disconnect }",
            "t",
            "t",
            None,
        )
        .unwrap();
        let p = ScriptedProvider::new(script);
        let cancel = Cancel::new();
        let events: Vec<_> = p.stream(&request("hi"), &cancel).unwrap().collect();
        assert_eq!(
            events,
            vec![
                StreamEvent::TextDelta { text: "a".into() },
                StreamEvent::TextDelta { text: "hi".into() },
                StreamEvent::Stop {
                    reason: StopReason::EndTurn
                }
            ]
        );
        assert_eq!(p.stream(&request("x"), &cancel).unwrap().count(), 0);
        let err = p.stream(&request("x"), &cancel).err().unwrap();
        assert!(err.message.contains("has 2 round(s)"), "{err}");
    }

    #[test]
    fn a_repeating_script_plays_again_from_its_first_round() {
        let script =
            Script::parse("repeat\nround { echo; stop \"end_turn\" }", "t", "t", None).unwrap();
        let p = ScriptedProvider::new(script);
        let cancel = Cancel::new();
        for prompt in ["first", "second", "third"] {
            let events: Vec<_> = p.stream(&request(prompt), &cancel).unwrap().collect();
            assert_eq!(
                events[0],
                StreamEvent::TextDelta {
                    text: prompt.into()
                }
            );
        }
        let once = Script::parse("round { echo; stop \"end_turn\" }", "t", "t", None).unwrap();
        let p = ScriptedProvider::new(once);
        assert!(p.stream(&request("a"), &cancel).is_ok());
        assert!(
            p.stream(&request("b"), &cancel).is_err(),
            "without `repeat` it runs out"
        );
        for bad in [
            "repeat 1\nround { stop \"end_turn\" }",
            "repeat\nrepeat\nround { stop \"end_turn\" }",
        ] {
            let e = Script::parse(bad, "t", "t", None).unwrap_err();
            assert!(e.to_string().contains("`repeat` is written once"), "{e}");
        }
    }

    #[test]
    fn a_gate_holds_the_stream_until_released() {
        let dir = tempfile::tempdir().unwrap();
        let script = Script::parse(
            "round { text \"before\"; gate \"g\"; text \"after\"; stop \"end_turn\" }",
            "t",
            "t",
            Some(dir.path().to_owned()),
        )
        .unwrap();
        let p = ScriptedProvider::new(script);
        let cancel = Cancel::new();
        let mut s = p.stream(&request("x"), &cancel).unwrap();
        assert_eq!(
            s.next(),
            Some(StreamEvent::TextDelta {
                text: "before".into()
            })
        );
        let waiting = dir.path().join("g.waiting");
        let release = dir.path().join("g.release");
        let releaser = std::thread::spawn(move || {
            // Poll until the marker appears, then release the gate.
            while !waiting.exists() {
                std::thread::yield_now();
            }
            std::fs::write(release, b"").unwrap();
        });
        assert_eq!(
            s.next(),
            Some(StreamEvent::TextDelta {
                text: "after".into()
            })
        );
        releaser.join().unwrap();
        assert!(!dir.path().join("g.waiting").exists());
    }

    #[test]
    fn cancellation_at_a_gate_aborts_the_stream() {
        let dir = tempfile::tempdir().unwrap();
        let script = Script::parse(
            "round { gate \"g\"; stop \"end_turn\" }",
            "t",
            "t",
            Some(dir.path().to_owned()),
        )
        .unwrap();
        let p = ScriptedProvider::new(script);
        let cancel = Cancel::new();
        let mut s = p.stream(&request("x"), &cancel).unwrap();
        let waiting = dir.path().join("g.waiting");
        let canceller = {
            let cancel = cancel.clone();
            std::thread::spawn(move || {
                while !waiting.exists() {
                    std::thread::yield_now();
                }
                cancel.cancel();
            })
        };
        assert_eq!(
            s.next(),
            Some(StreamEvent::Stop {
                reason: StopReason::Aborted
            })
        );
        assert_eq!(s.next(), None);
        canceller.join().unwrap();
    }
}
