//! Provider dispatch: a selection's route of physical candidates, an attempt record before
//! every request, bounded retry of transient failures and failover (spec: Providers, models,
//! and authentication → Failover, Dispatch identity).
//!
//! Only a failure that arrives before any response event — the provider refused to start
//! the response (an HTTP error status, a connection that never opened) — is retried or failed
//! over: a partly consumed stream is never replayed. Rules by failure class:
//! rate limited → the next candidate at once; transient → the same candidate again after a
//! backoff, at most [`RetryPolicy::transient_retries`] times, then the next candidate;
//! unavailable model or rejected credentials → the next candidate, never the same again;
//! invalid request, malformed stream, anything else → no further attempt.

use std::time::Duration;

use smith::{
    Attempt, AttemptFailure, Cancel, EntryId, ModelInfo, ModelRef, Next, OutputLimit, Price,
    Provider, ProviderError, ProviderErrorKind, ProviderRequest, RouteSource, Routing, Selection,
    StreamEvent, ThinkingLevel,
};
use smith_store::{NewEntry, Record};
use smith_ui_intents::{Intent, NoticeLevel};

use crate::run::{Run, RunError};

/// One physical candidate of a route: a model, the account it is reached with, the catalog
/// record it is checked against and priced with, and the provider that serves it.
pub struct Candidate<'p> {
    /// The physical model.
    pub model: ModelRef,
    /// The credential account's label (never its value), when the provider takes one.
    pub account: Option<String>,
    /// Where the credential sent comes from, in words (never its value), e.g. "the key in
    /// the environment variable ANTHROPIC_API_KEY": an authentication failure's message names
    /// it, so the user fixes the key that was actually sent.
    pub credential: Option<String>,
    /// How the selection reached it (position and count are filled in by [`Route::new`]).
    pub routing: Routing,
    /// Its catalog record; `None` dispatches unchecked and unpriced.
    pub capabilities: Option<ModelInfo>,
    /// The provider plugin generation serving it (`id@version#digest`).
    pub generation: String,
    /// The codec options sent with each request (`provider.ID.api`…), recorded with it so
    /// the request can be encoded again exactly.
    pub options: std::collections::BTreeMap<String, String>,
    /// The provider, bound to this candidate's credentials.
    pub provider: Box<dyn Provider + 'p>,
}

/// Bounds of retrying one candidate after transient failures.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct RetryPolicy {
    /// Further attempts on the same candidate after a transient failure (0 = none).
    pub transient_retries: u32,
    /// The wait before the first retry; each later retry waits twice as long.
    pub backoff: Duration,
}

impl Default for RetryPolicy {
    /// Two retries, waiting 250 ms then 500 ms.
    fn default() -> Self {
        Self {
            transient_retries: 2,
            backoff: Duration::from_millis(250),
        }
    }
}

/// A selection resolved to its physical candidates, in failover order, with the thinking
/// level to ask for. Built offline (the CLI resolves aliases, groups and account buckets);
/// every round of a run uses the same route, so retries and failover keep the round's plugin
/// generation and tool loadout.
pub struct Route<'p> {
    /// What the user selected; recorded unchanged in every attempt.
    pub selection: Selection,
    /// The thinking level asked for; `None` leaves it to each model's default.
    pub thinking: Option<ThinkingLevel>,
    /// Retry bounds.
    pub retry: RetryPolicy,
    /// The configured output limit (the `max-output` setting); each candidate is sent the
    /// lower of this and its catalog limit ([`smith::OutputLimit::choose`]).
    pub max_output: Option<u64>,
    candidates: Vec<Candidate<'p>>,
}

impl<'p> Route<'p> {
    /// A route over `candidates` (in failover order; their routing position and count are
    /// set here).
    pub fn new(
        selection: Selection,
        thinking: Option<ThinkingLevel>,
        mut candidates: Vec<Candidate<'p>>,
    ) -> Self {
        let of = u32::try_from(candidates.len()).unwrap_or(u32::MAX);
        for (i, c) in candidates.iter_mut().enumerate() {
            c.routing.position = u32::try_from(i + 1).unwrap_or(u32::MAX);
            c.routing.of = of;
        }
        Self {
            selection,
            thinking,
            retry: RetryPolicy::default(),
            max_output: None,
            candidates,
        }
    }

    /// The candidates, in order.
    pub fn candidates(&self) -> &[Candidate<'p>] {
        &self.candidates
    }
}

/// What serves a run: one provider given directly (the selection must be its model; attempts
/// are recorded unchecked) or a route.
#[derive(Clone, Copy)]
pub(crate) enum Dispatcher<'a> {
    Direct(&'a dyn Provider),
    Routed(&'a Route<'a>),
}

/// A response and the attempt that produced it.
pub(crate) struct Served {
    pub(crate) response: crate::record::Response,
    pub(crate) attempt: EntryId,
    pub(crate) model: ModelRef,
    pub(crate) price: Option<Price>,
}

/// What one attempt came to.
enum Tried {
    Served(crate::record::Response),
    /// Refused before any response event.
    Refused(ProviderError),
}

impl Run<'_> {
    /// Dispatch round `round` of `selection` through `dispatcher`: check each candidate's
    /// capabilities, record each attempt before its request, retry and fail over by the
    /// module rules. The last failure is played as the response (it ends the round in error).
    /// `None` when the run was cancelled while waiting to retry (nothing more was sent).
    pub(crate) fn dispatch(
        &mut self,
        dispatcher: Dispatcher<'_>,
        round: u32,
        selection: &Selection,
        base: &ProviderRequest,
        pieces: &[smith::RequestPiece],
        ask: Option<&crate::request::Ask>,
    ) -> Result<Option<Served>, RunError> {
        let direct;
        let (candidates, thinking, retry, max_output): (&[Candidate<'_>], _, _, _) =
            match dispatcher {
                Dispatcher::Routed(route) if route.selection == *selection => (
                    &route.candidates,
                    route.thinking,
                    route.retry,
                    route.max_output,
                ),
                Dispatcher::Routed(route) => {
                    return Err(RunError::Route(format!(
                        "the work selects `{selection}`, but this agent's route serves `{}`; run it with an agent routed for `{selection}`",
                        route.selection
                    )));
                }
                Dispatcher::Direct(provider) => {
                    let model = selection.as_model().cloned().ok_or_else(|| {
                    RunError::Route(format!(
                        "`{selection}` is an alias or group name, but this agent was given one provider and no route; resolve the selection first"
                    ))
                })?;
                    direct = [Candidate {
                        routing: Routing {
                            source: RouteSource::Direct,
                            path: vec![model.to_string()],
                            position: 1,
                            of: 1,
                            skipped: Vec::new(),
                        },
                        model,
                        account: None,
                        credential: None,
                        capabilities: None,
                        generation: format!("direct:{}", provider.id()),
                        options: std::collections::BTreeMap::new(),
                        provider: Box::new(Borrowed(provider)),
                    }];
                    (&direct, None, RetryPolicy::default(), None)
                }
            };
        let mut skipped: Vec<String> = Vec::new();
        let mut number = match self.attempts_recorded {
            Some((recorded_round, recorded)) if recorded_round == round => {
                self.attempts_recorded = None;
                recorded
            }
            _ => 0,
        };
        let mut after: Option<Next> = None;
        for (index, candidate) in candidates.iter().enumerate() {
            let mut request = base.clone();
            request.model = candidate.model.clone();
            request.thinking = thinking;
            let output_limit = OutputLimit::choose(
                candidate.capabilities.as_ref().and_then(|c| c.output),
                max_output,
            );
            request.max_output = output_limit.tokens;
            let caches = candidate
                .capabilities
                .as_ref()
                .and_then(|c| c.cache)
                .is_some_and(|c| c.read || c.write);
            if !caches {
                request.cache = None;
            }
            if let Some(info) = &candidate.capabilities
                && let Err(e) = info.check(&request)
            {
                // The error names the model; an account is added when there is one.
                skipped.push(match &candidate.account {
                    Some(a) => format!("{e} (account {a})"),
                    None => e.to_string(),
                });
                continue;
            }
            // Whether a later candidate could take the request (failover has somewhere to go).
            let more = candidates[index + 1..].iter().any(|c| {
                c.capabilities.as_ref().is_none_or(|info| {
                    let mut theirs = request.clone();
                    theirs.model = c.model.clone();
                    theirs.max_output = OutputLimit::choose(info.output, max_output).tokens;
                    info.check(&theirs).is_ok()
                })
            });
            let mut retries = 0u32;
            loop {
                number += 1;
                let attempt = Attempt {
                    round,
                    number,
                    selection: selection.to_string(),
                    model: candidate.model.clone(),
                    account: candidate.account.clone(),
                    thinking,
                    routing: Routing {
                        // What routing passed over before the route was built, then what
                        // this round passed over.
                        skipped: candidate
                            .routing
                            .skipped
                            .iter()
                            .chain(&skipped)
                            .cloned()
                            .collect(),
                        ..candidate.routing.clone()
                    },
                    after,
                    capabilities: candidate.capabilities.clone(),
                    generation: candidate.generation.clone(),
                    output_limit: Some(output_limit),
                };
                let id =
                    self.record_attempt(&attempt, &request, pieces, &candidate.options, ask)?;
                let decide = |kind| next_step(kind, retries, retry, more);
                let credential = candidate.credential.as_deref();
                let info = candidate.capabilities.as_ref();
                match self.try_once(
                    candidate.provider.as_ref(),
                    &request,
                    credential,
                    info,
                    &decide,
                )? {
                    Tried::Served(response) => {
                        return Ok(Some(Served {
                            response,
                            attempt: id,
                            model: candidate.model.clone(),
                            price: candidate.capabilities.as_ref().and_then(|c| c.price),
                        }));
                    }
                    Tried::Refused(error) => {
                        let next = next_step(error.kind, retries, retry, more);
                        self.record_failure(AttemptFailure {
                            attempt: id,
                            kind: error.kind,
                            message: error.message.clone(),
                            next,
                        })?;
                        after = Some(next);
                        if next == Next::Retry {
                            retries += 1;
                            let wait = retry.backoff * 2u32.saturating_pow(retries - 1);
                            if !wait_or_cancel(self.cancel, wait) {
                                return Ok(None);
                            }
                            continue;
                        }
                        break;
                    }
                }
            }
        }
        Err(RunError::Route(if skipped.is_empty() {
            format!("`{selection}` resolved to no model to dispatch to")
        } else {
            format!(
                "no candidate of `{selection}` can take this request, so nothing was sent: {}",
                skipped.join("; ")
            )
        }))
    }

    /// Send `request` once. A failure before any response event is `Refused` when `decide`
    /// gives it another attempt; otherwise everything is played as the response. An
    /// authentication failure names `credential`, where the key sent came from.
    fn try_once(
        &mut self,
        provider: &dyn Provider,
        request: &ProviderRequest,
        credential: Option<&str>,
        info: Option<&ModelInfo>,
        decide: &dyn Fn(ProviderErrorKind) -> Next,
    ) -> Result<Tried, RunError> {
        let retriable = |e: &ProviderError| decide(e.kind) != Next::Stop;
        let mut events = match provider.stream(request, self.cancel) {
            Ok(events) => events,
            Err(e) => {
                let e = attributed(e, credential, info);
                return if retriable(&e) {
                    Ok(Tried::Refused(e))
                } else {
                    Err(RunError::Provider(e))
                };
            }
        };
        let first = match events.next() {
            Some(StreamEvent::Error(e)) => {
                Some(StreamEvent::Error(attributed(e, credential, info)))
            }
            other => other,
        };
        if let Some(StreamEvent::Error(e)) = &first
            && retriable(e)
        {
            return Ok(Tried::Refused(e.clone()));
        }
        let events: smith::EventStream<'_> = Box::new(first.into_iter().chain(events));
        Ok(Tried::Served(self.play(events)?))
    }

    /// Record `attempt` with its `request` before it is sent (one committed change; see
    /// [`Run::record_attempt_request`]), and say so.
    fn record_attempt(
        &mut self,
        attempt: &Attempt,
        request: &ProviderRequest,
        pieces: &[smith::RequestPiece],
        options: &std::collections::BTreeMap<String, String>,
        ask: Option<&crate::request::Ask>,
    ) -> Result<EntryId, RunError> {
        let id = self.record_attempt_request(attempt, request, pieces, options, ask)?;
        self.last_attempt = Some(id);
        self.sink.emit(Intent::Attempt {
            entry_id: id.0,
            attempt: Box::new(attempt.clone()),
        });
        Ok(id)
    }

    pub(crate) fn record_failure(&mut self, failure: AttemptFailure) -> Result<(), RunError> {
        self.session
            .writer
            .lock()
            .append_entries(&[NewEntry::from(Record::AttemptFailed(failure.clone()))])?;
        self.sink.emit(Intent::Notice {
            level: NoticeLevel::Warning,
            text: format!(
                "attempt {} failed ({}): {}; {}",
                failure.attempt,
                serde_json::to_value(failure.kind)
                    .ok()
                    .and_then(|v| v.as_str().map(str::to_owned))
                    .unwrap_or_default(),
                failure.message,
                match failure.next {
                    Next::Retry => "retrying the same model",
                    Next::Failover => "failing over to the next candidate",
                    Next::Stop => "no further attempt",
                }
            ),
        });
        self.sink.emit(Intent::AttemptFailed { failure });
        Ok(())
    }
}

/// `e`, naming where the credential sent came from when it is an authentication failure, and
/// the model's context window (from `info`, its catalog record) when the context overflowed.
fn attributed(
    mut e: ProviderError,
    credential: Option<&str>,
    info: Option<&ModelInfo>,
) -> ProviderError {
    match e.kind {
        ProviderErrorKind::Auth => {
            if let Some(source) = credential {
                e.message = format!("{}; the credential was {source}", e.message);
            }
        }
        ProviderErrorKind::ContextOverflow => {
            let window = match info {
                Some(info) => match info.context {
                    Some(tokens) => format!(
                        "{}'s context window is {tokens} tokens (catalog source: {})",
                        info.model,
                        info.source_of("context")
                    ),
                    None => format!(
                        "{}'s context window is not in its catalog record",
                        info.model
                    ),
                },
                None => "the model's context window is not known here".to_owned(),
            };
            e.message = format!(
                "{}; the conversation does not fit: {window}; {OVERFLOW_FIX}",
                e.message.trim_end_matches(['.', ' '])
            );
        }
        _ => {}
    }
    e
}

/// What to do about a context that does not fit (compaction joins these once it lands).
const OVERFLOW_FIX: &str = "start a new session (or fork one from an earlier entry), lower the max-output setting if the vendor counts the output against the window, or choose a model with a larger window";

/// What follows a refused attempt of class `kind` after `retries` retries of this candidate: a
/// transient failure is retried within bounds; it, a rate limit, an unavailable model, an
/// authentication failure and a context overflow (a later model may have a larger window)
/// fail over when a later candidate could take the request.
fn next_step(kind: ProviderErrorKind, retries: u32, policy: RetryPolicy, more: bool) -> Next {
    match kind {
        ProviderErrorKind::Transient if retries < policy.transient_retries => Next::Retry,
        ProviderErrorKind::Transient
        | ProviderErrorKind::RateLimited
        | ProviderErrorKind::Unavailable
        | ProviderErrorKind::Auth
        | ProviderErrorKind::ContextOverflow
            if more =>
        {
            Next::Failover
        }
        _ => Next::Stop,
    }
}

/// Wait `wait`, observing `cancel`; whether the wait ran out uncancelled.
fn wait_or_cancel(cancel: &Cancel, wait: Duration) -> bool {
    let end = std::time::Instant::now() + wait;
    while std::time::Instant::now() < end {
        if cancel.is_cancelled() {
            return false;
        }
        std::thread::sleep(Duration::from_millis(10).min(end - std::time::Instant::now()));
    }
    !cancel.is_cancelled()
}

/// A borrowed provider as an owned box.
struct Borrowed<'a>(&'a dyn Provider);

impl Provider for Borrowed<'_> {
    fn id(&self) -> &str {
        self.0.id()
    }

    fn stream<'s>(
        &'s self,
        request: &ProviderRequest,
        cancel: &Cancel,
    ) -> Result<smith::EventStream<'s>, ProviderError> {
        self.0.stream(request, cancel)
    }
}
