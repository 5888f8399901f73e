//! Smith's bundled compaction prompt (Smith spec: Compaction, cost, and secrets — compaction
//! preserves required lineage, recent context, tool ordering and secret registrations; plugins
//! own prompts).
//!
//! Answers each `compact` event with one `compaction-ask` action: the request that follows the
//! conversation to summarize. The summary replaces that conversation in every later request,
//! while the most recent messages stay verbatim after it, so the ask is for what the work needs
//! to go on: the goal, decisions, the state of files and commands, what is left. The text
//! depends only on the event.

use smith_plugin_sdk::export_handler_plugin;
use smith_plugin_sdk::handler::{Action, CompactEvent, Guest, LifecycleEvent};

struct Compaction;

fn ask(e: &CompactEvent) -> String {
    let mut out = String::new();
    out.push_str(
        "Stop the task for a moment: the conversation above is about to be replaced by your summary of it, to free the context window. Do not call any tool. Write the summary now.\n\n",
    );
    out.push_str(&format!(
        "The summary stands for the {} messages and tool results above; the {} most recent ones stay verbatim after it, so the work continues from your summary and them. Whoever reads it next has nothing else: write it so they can carry on without asking.\n\n",
        e.summarized, e.kept
    ));
    out.push_str("Write, in this order, under these headings:\n");
    out.push_str("1. **Goal** — what the user asked for, in their words where they matter, and every requirement or constraint they gave.\n");
    out.push_str("2. **Done** — what has been done and what it showed: files read, created or changed (exact paths), commands run and their results, tests and their outcomes.\n");
    out.push_str("3. **Decisions** — choices made and why, approaches tried and rejected, and what the user confirmed or corrected.\n");
    out.push_str("4. **State** — the current state of the work: what is finished, what is half-done, open errors (quote the key lines exactly).\n");
    out.push_str(
        "5. **Next** — the next steps, in order, and any question still waiting for the user.\n\n",
    );
    out.push_str("Keep identifiers, paths, commands, error messages and numbers exact. Secrets appear as references like ⟦secret:NAME⟧: keep the references as they are. Leave out pleasantries and anything the work no longer needs. Answer with the summary only.");
    if let Some(focus) = e
        .instructions
        .as_deref()
        .map(str::trim)
        .filter(|f| !f.is_empty())
    {
        out.push_str("\n\nThe user asks that the summary focus on this: ");
        out.push_str(focus);
    }
    out
}

impl Guest for Compaction {
    fn handle(event: LifecycleEvent) -> Result<Vec<Action>, String> {
        Ok(match event {
            LifecycleEvent::Compact(e) => vec![Action::CompactionAsk(ask(&e))],
            _ => Vec::new(),
        })
    }
}

export_handler_plugin!(Compaction);
