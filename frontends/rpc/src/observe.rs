//! `session.observe`: committed records from a position, then live, with no gap and no
//! duplicate (spec: Sessions → Observation), polling the file through
//! [`smith_app::inspect::Follow`] on a thread of its own. Records are paced (the thread waits
//! for room in the outbox): a slow client slows only its observation.

use std::ops::ControlFlow;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use serde_json::{Value, json};
use smith_app::inspect::{EntryView, Follow, FollowError};
use smith_render_jsonrpc::{ErrorObject, notification};

use crate::decl::code;
use crate::errors;
use crate::server::{Opened, Server, lock};

/// How often an observed file is looked at for new commits.
const POLL: Duration = Duration::from_millis(20);

/// Start observing `opened` from `from`: the answer to `id` (naming the subscription) is
/// queued before the first record.
///
/// # Errors
/// A position that is not the session's, or a file that cannot be read; nothing was queued.
pub(crate) fn start(
    server: &Arc<Server>,
    id: Option<&Value>,
    opened: &Arc<Opened>,
    from: Option<u64>,
) -> Result<(), ErrorObject> {
    let mut follow = Follow::start(&opened.path, opened.id, from).map_err(|e| match e {
        FollowError::Position {
            from,
            session,
            next,
        } => ErrorObject {
            code: code::POSITION,
            message: format!(
                "position {from} is not one of session {session}: positions are entry ids 1..={next} ({next} is the next entry to be committed); observe from one of them"
            ),
            data: Some(json!({"from": from, "next": next})),
        },
        FollowError::Store(e) => errors::store(&e),
    })?;
    let subscription = server.next_subscription.fetch_add(1, Ordering::SeqCst);
    let stop = Arc::new(AtomicBool::new(false));
    lock(&server.observations).insert(subscription, (opened.id, Arc::clone(&stop)));
    let start = follow.position();
    let result =
        json!({"subscription": subscription, "from": start, "position": opened.position()});
    let server2 = Arc::clone(server);
    let session = opened.id;
    let opened = Arc::clone(opened);
    let run = move || {
        let outbox = Arc::clone(&server2.outbox);
        let mut offered = false;
        let ended = loop {
            if stop.load(Ordering::SeqCst) {
                break None;
            }
            let polled = follow.poll(&mut |entry| {
                if stop.load(Ordering::SeqCst) {
                    return ControlFlow::Break(());
                }
                let line = notification(
                    "session.record",
                    json!({
                        "session": session,
                        "subscription": subscription,
                        "position": entry.id.0 + 1,
                        "entry": EntryView::new(session, entry),
                    }),
                );
                if outbox.paced(line) {
                    ControlFlow::Continue(())
                } else {
                    ControlFlow::Break(())
                }
            });
            match polled {
                Ok(p) if p.withheld.is_some() => {
                    let (a, b) = p.withheld.unwrap_or_default();
                    break Some(format!(
                        "entries {a}..={b} lie in a damaged change and cannot be sent; `smith sessions verify {session}` has the details"
                    ));
                }
                Ok(p) if p.stopped => break None,
                Ok(_) if !offered => {
                    // Caught up: the requests waiting now are offered again, after the records
                    // that led to them (a client that fell behind or came back is asked again).
                    offered = true;
                    let position = opened.position();
                    for line in crate::requests::offers(&opened, position) {
                        if !outbox.paced(line) {
                            break;
                        }
                    }
                }
                Ok(_) => {}
                Err(e) => break Some(e.to_string()),
            }
            std::thread::sleep(POLL);
        };
        lock(&server2.observations).remove(&subscription);
        if let Some(reason) = ended {
            outbox.paced(notification(
                "session.observe_ended",
                json!({"subscription": subscription, "reason": reason}),
            ));
        }
    };
    server.answer(id, Ok(result));
    server.spawn(run);
    Ok(())
}
