//! The replay of a recorded session, for every frontend: the intents its live runs emitted,
//! rebuilt from a branch's records alone — no provider, nothing run or written — by the one
//! mapping of recorded entries to intents (`smith_agent::playback`), which `smith replay`, the
//! terminal UI's `/replay` and `smith replay --tui`, and re-execution ([`crate::reexec`]) all
//! read through here. The replay guide (`smith docs get replay`) documents its output.

pub use smith_agent::playback::{
    FORMAT, MAX_GAP, Options, Pace, Played, ReplayError, UNRECORDED, entry_intents, play,
    transcript_intents, turn_range,
};
