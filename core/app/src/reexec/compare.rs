//! Judging a re-executed call against its record: effect by effect, in order, by kind,
//! target, outcome, output and evidence, with a bounded unified diff when they differ.

use smith::{EffectCompletion, EffectIntent, ToolOutput};

use super::collect::RecordedCall;
use super::{EffectReport, Verdict};

/// The most bytes of one effect's diff in a report; a longer one is cut at a line's end with
/// a note.
pub const MAX_DIFF_BYTES: usize = 4096;

/// The directory the calls run in now and the one they ran in: paths in what a re-executed
/// effect says are put back to the recorded place before comparing.
pub(super) struct Places {
    pub(super) now: String,
    pub(super) then: String,
}

impl Places {
    /// The strings of `value` (a call's arguments) with the recorded place's paths made
    /// this one's.
    pub(super) fn forward(&self, value: &mut serde_json::Value) {
        if self.now.is_empty() || self.then.is_empty() || self.now == self.then {
            return;
        }
        match value {
            serde_json::Value::String(s) if s.contains(&self.then) => {
                *s = s.replace(&self.then, &self.now);
            }
            serde_json::Value::Array(items) => items.iter_mut().for_each(|v| self.forward(v)),
            serde_json::Value::Object(map) => map.values_mut().for_each(|v| self.forward(v)),
            _ => {}
        }
    }

    fn back(&self, text: &str) -> String {
        if self.now.is_empty() || self.then.is_empty() || self.now == self.then {
            text.to_owned()
        } else {
            text.replace(&self.now, &self.then)
        }
    }
}

/// The report lines of `call`, re-executed: its recorded (`recorded`) and new (`now`)
/// effects compared in order; for a call that recorded no effect and made none, its output.
pub(super) fn call(
    call: &RecordedCall,
    recorded: &[&(EffectIntent, Option<EffectCompletion>)],
    now: &[(EffectIntent, Option<EffectCompletion>)],
    output: &ToolOutput,
    places: &Places,
) -> Vec<EffectReport> {
    if recorded.is_empty() && now.is_empty() {
        let then = call
            .result
            .as_ref()
            .map_or_else(String::new, |r| result_view(&r.output, r.is_error));
        let now = result_view(&places.back(&output.output), output.is_error);
        return vec![call_line(call, verdict(&then, &now))];
    }
    let mut lines = Vec::new();
    for at in 0..recorded.len().max(now.len()) {
        let then = recorded.get(at).map(|(i, c)| view(i, c.as_ref()));
        let made = now.get(at).map(|(i, c)| places.back(&view(i, c.as_ref())));
        let (effect, target, outcome) = match (recorded.get(at), now.get(at)) {
            (Some((i, c)), _) => (
                i.effect.clone(),
                i.target.clone(),
                c.as_ref().map_or("none", |c| c.outcome.as_str()),
            ),
            (None, Some((i, _))) => (
                i.effect.clone(),
                i.target.as_deref().map(|t| places.back(t)),
                "none",
            ),
            (None, None) => continue,
        };
        lines.push(EffectReport {
            turn: call.turn,
            call_id: call.call.id.clone(),
            tool: call.call.name.clone(),
            effect,
            target,
            recorded: outcome.to_owned(),
            verdict: verdict(
                then.as_deref().unwrap_or_default(),
                made.as_deref().unwrap_or_default(),
            ),
        });
    }
    lines
}

/// The line of a call that recorded no effect of its own (its result stands for it).
pub(super) fn call_line(call: &RecordedCall, verdict: Verdict) -> EffectReport {
    EffectReport {
        turn: call.turn,
        call_id: call.call.id.clone(),
        tool: call.call.name.clone(),
        effect: "call".to_owned(),
        target: None,
        recorded: match &call.result {
            Some(r) if r.is_error => "error",
            Some(_) => "ok",
            None => "none",
        }
        .to_owned(),
        verdict,
    }
}

/// Same, or different with the diff of `then` against `now`.
fn verdict(then: &str, now: &str) -> Verdict {
    if then == now {
        return Verdict::Same;
    }
    let diff = similar::TextDiff::from_lines(then, now)
        .unified_diff()
        .context_radius(2)
        .header("recorded", "re-executed")
        .to_string();
    Verdict::Different {
        diff: bounded(diff),
    }
}

/// `diff` cut at the last line end within [`MAX_DIFF_BYTES`], with a note of what was cut.
fn bounded(diff: String) -> String {
    if diff.len() <= MAX_DIFF_BYTES {
        return diff;
    }
    let mut end = MAX_DIFF_BYTES;
    while !diff.is_char_boundary(end) {
        end -= 1;
    }
    let end = diff[..end].rfind('\n').map_or(end, |n| n + 1);
    format!(
        "{}… ({} more bytes of diff not shown)\n",
        &diff[..end],
        diff.len() - end
    )
}

/// An effect as compared: kind, target, outcome, output and evidence (a program's duration
/// left out), one field per line (pretty JSON), so a diff points at what changed.
fn view(intent: &EffectIntent, completion: Option<&EffectCompletion>) -> String {
    let mut evidence = completion.map(|c| c.evidence.clone());
    // How long a program took is not what it did.
    if intent.effect.starts_with("process.")
        && let Some(serde_json::Value::Object(fields)) = &mut evidence
    {
        fields.remove("duration_ms");
    }
    let value = serde_json::json!({
        "effect": intent.effect,
        "target": intent.target,
        "outcome": completion.map(|c| c.outcome.as_str()),
        "output": completion.map(|c| String::from_utf8_lossy(&c.output).into_owned()),
        "evidence": evidence,
    });
    text(&value)
}

/// A call's result as compared.
fn result_view(output: &str, is_error: bool) -> String {
    text(&serde_json::json!({ "is_error": is_error, "output": output }))
}

/// `value` as pretty JSON with each string's lines on lines of their own, so that a
/// one-line change in a file's text is a one-line diff.
fn text(value: &serde_json::Value) -> String {
    let mut out = serde_json::to_string_pretty(value).unwrap_or_default();
    out = out.replace("\\n", "\\n\n");
    out.push('\n');
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_long_diff_is_cut_at_a_line_end_with_a_note() {
        let then: String = (0..2000).map(|n| format!("line {n}\n")).collect();
        let now: String = (0..2000).map(|n| format!("LINE {n}\n")).collect();
        let Verdict::Different { diff } = verdict(&then, &now) else {
            panic!("different texts are different");
        };
        assert!(diff.len() <= MAX_DIFF_BYTES + 80, "{}", diff.len());
        assert!(
            diff.starts_with("--- recorded\n+++ re-executed\n"),
            "{diff}"
        );
        assert!(diff.ends_with("more bytes of diff not shown)\n"), "{diff}");
        assert_eq!(verdict("a\n", "a\n"), Verdict::Same);
    }

    #[test]
    fn paths_of_the_scratch_directory_read_as_the_recorded_ones() {
        let places = Places {
            now: "/tmp/smith-replay-1-0".to_owned(),
            then: "/home/u/p".to_owned(),
        };
        assert_eq!(
            places.back("/tmp/smith-replay-1-0/a.txt"),
            "/home/u/p/a.txt"
        );
    }
}
