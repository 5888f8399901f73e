//! Questions a new user asks, and the section that answers each: the docs search must put
//! that section first. The first five come from the issue that asked for section search; the
//! rest were written down before the ranking was tuned, so the ranking is judged on questions
//! it was not fitted to. A question may have more than one section that truly answers it.
//! Every guide that is added or reworked adds here the questions its sections answer.

use smith_docs::{Corpus, SearchIndex};

/// `(question, [(document id, section heading)…])`: any listed section may come first.
const QUESTIONS: &[(&str, &[(&str, &str)])] = &[
    // From the issue.
    (
        "how do I continue a session",
        &[("eval", "Continuing a session")],
    ),
    (
        "where are sessions stored",
        &[
            ("eval", "Sessions"),
            ("sessions", "Sessions"),
            ("install", "Where Smith keeps its files"),
        ],
    ),
    (
        "how do I stop it from running commands",
        &[("plugins", "Running programs, or stopping them")],
    ),
    (
        "how do I write a plugin",
        &[("plugins", "Writing a plugin")],
    ),
    (
        "what does exit status 4 mean",
        &[("exit-status", "Exit statuses")],
    ),
    // Written before tuning.
    // The three below had no section that answered them when first asked; the providers,
    // configuration and eval guides gained one each.
    (
        "how do I use a local model server",
        &[("providers", "A local model server")],
    ),
    (
        "how do I store an API key",
        &[("models", "Accounts"), ("providers", "API keys")],
    ),
    (
        "how do I attach a file to my prompt",
        &[
            ("eval", "The prompt and piped input"),
            ("tui", "Attaching files and editing long prompts"),
        ],
    ),
    (
        "how do I add a custom command",
        &[("prompt-commands", "Adding a custom command")],
    ),
    (
        "how do I see the todo list the model keeps",
        &[
            ("plan", "The plan: a todo checklist for multi-step work"),
            ("plan", "Where you see it"),
        ],
    ),
    (
        "how much has this session cost",
        &[
            ("commands", "Cost and status"),
            ("sessions", "Inspecting sessions"),
            ("models", "Usage and cost"),
        ],
    ),
    (
        "use CLAUDE.md",
        &[(
            "context",
            "Using CLAUDE.md (a project written for Claude Code)",
        )],
    ),
    (
        "how do I pipe input into smith",
        &[("eval", "The prompt and piped input")],
    ),
    (
        "how do I make a retry safe",
        &[
            ("sessions", "Submissions, receipts and retries"),
            ("eval", "Retrying a first prompt"),
        ],
    ),
    (
        "how do I trust a project",
        &[("configuration", "Trusting a project")],
    ),
    (
        "how do I change the default model",
        &[("configuration", "The default model")],
    ),
    (
        "what does the json output look like",
        &[
            ("eval-json", "`smith eval --json` records"),
            ("eval-json", "Records"),
            ("eval-json", "Example"),
        ],
    ),
    (
        "how do I branch a session from an earlier point",
        &[("sessions", "Branches and forks")],
    ),
    (
        "how do I turn off a plugin",
        &[("plugins", "Disabling plugins")],
    ),
    (
        "what happens if smith crashes while writing a session",
        &[
            ("session-format", "Committed changes and acknowledgement"),
            ("session-format", "What a reader does with damage"),
            ("sessions", "Sessions"),
            ("recovery", "What happens when you open the session again"),
        ],
    ),
    (
        "continue the turn that was interrupted when smith was killed",
        &[
            ("recovery", "Pick it up again, or settle it"),
            ("eval", "Continuing a session"),
        ],
    ),
    (
        "a crash left an effect unknown, how do I say whether it happened",
        &[("recovery", "Look, then say what happened")],
    ),
    ("how much did a run cost", &[("models", "Usage and cost")]),
    (
        "how do I install smith",
        &[
            ("install", "Installing and building Smith"),
            ("install", "From a checkout"),
        ],
    ),
    // Three a new user asked that the first hit did not answer: the sessions, permissions and
    // context guides gained the section each needed (and its words).
    (
        "make bash available without asking",
        &[(
            "permissions",
            "Let bash and other programs run without asking",
        )],
    ),
    (
        "see what was sent to the model",
        &[(
            "context",
            "See what was sent to the model: the recorded request of each attempt",
        )],
    ),
    (
        "resume yesterday's session",
        &[("sessions", "Resume an earlier session")],
    ),
    // The MCP client guide.
    (
        "add an MCP server to smith",
        &[
            ("mcp-client", "Add a server"),
            (
                "mcp-client",
                "MCP servers — add an MCP server to Smith and use its tools",
            ),
        ],
    ),
    (
        "why are my MCP server's tools not offered",
        &[
            ("mcp-client", "When a server's tools are offered"),
            ("mcp-client", "What you see"),
        ],
    ),
    // Written with the section that answers it, before running it.
    (
        "configure MCP servers in config.kdl",
        &[("mcp-client", "Declare servers in the configuration")],
    ),
];

/// Questions written after the ranking above was settled, judged on looser terms: each must
/// have an answering section among the top three. When first run, 5 of 6 did (and 4 of 6
/// were answered first, counting `eval` "Tools" for the tools question); "how do I see what a
/// session did" missed until the inspection section said it in those words and a document's
/// first heading was weighted apart from section headings (`lead`).
const HELD_OUT: &[(&str, &[(&str, &str)])] = &[
    (
        "how do I see what a session did",
        &[("sessions", "Inspecting sessions")],
    ),
    (
        "which tools can the model use",
        &[
            ("plugins", "The bundled tools"),
            ("reference/tools", "Bundled tools reference"),
            ("eval", "Tools"),
        ],
    ),
    (
        "how do I limit the number of rounds",
        &[
            ("sessions", "Work, checkpoints and limits"),
            ("reference/settings", "Settings reference"),
        ],
    ),
    (
        "what is a turn",
        &[("eval-json", "Words"), ("embedding", "The three words")],
    ),
    (
        "how do I follow a session while it runs",
        &[
            ("sessions", "Observers"),
            ("sessions", "Inspecting sessions"),
            ("reference/cli", "`smith sessions watch`"),
        ],
    ),
    (
        "how do I search the documentation",
        &[
            ("docs-format", "The documentation corpus"),
            ("install", "The documentation"),
        ],
    ),
    // The sandbox guide's own.
    (
        "can bash write outside my project",
        &[
            ("sandbox", "Modes"),
            ("sandbox", "The sandbox around programs"),
            ("sandbox", "Make bash able to write elsewhere"),
        ],
    ),
    (
        "let commands use the network",
        &[
            ("sandbox", "Network"),
            ("sandbox", "Make bash able to write elsewhere"),
        ],
    ),
    (
        "why was my command refused with permission denied",
        &[("sandbox", "When the sandbox refuses")],
    ),
    // The permissions guide's own.
    (
        "let bash run git status without asking me",
        &[
            ("permissions", "Rules"),
            ("permissions", "Compound commands"),
            (
                "permissions",
                "Block a dangerous command; let a safe one run without asking",
            ),
            // It names `git status` and the setting that lets it run unasked.
            (
                "permissions",
                "Let bash and other programs run without asking",
            ),
        ],
    ),
    (
        "plan mode that changes nothing",
        &[
            ("permissions", "Modes"),
            ("permissions", "Permissions — modes, rules and questions"),
            ("permissions", "Changing the mode of a session"),
        ],
    ),
    (
        "deny rules for bash",
        &[
            ("permissions", "Rules"),
            (
                "permissions",
                "Block a dangerous command; let a safe one run without asking",
            ),
        ],
    ),
];

#[test]
fn held_out_questions_find_their_section_near_the_top() {
    let index = SearchIndex::embedded().unwrap();
    let mut wrong = Vec::new();
    for (question, answers) in HELD_OUT {
        let page = index.search(question, 3, None).unwrap();
        let got: Vec<(String, String)> = page
            .hits
            .iter()
            .map(|h| (h.id.clone(), h.section.clone()))
            .collect();
        if !got
            .iter()
            .any(|(id, s)| answers.iter().any(|(a, b)| a == id && b == s))
        {
            wrong.push(format!(
                "{question:?} gave {got:?}, wanted one of {answers:?}"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "held-out questions with no answering section in the top three:\n  {}",
        wrong.join("\n  ")
    );
}

#[test]
fn each_question_is_answered_first_by_its_section() {
    let index = SearchIndex::embedded().unwrap();
    let mut wrong = Vec::new();
    for (question, answers) in QUESTIONS {
        let page = index.search(question, 5, None).unwrap();
        let got: Vec<(String, String)> = page
            .hits
            .iter()
            .map(|h| (h.id.clone(), h.section.clone()))
            .collect();
        let first_ok = got
            .first()
            .is_some_and(|(id, s)| answers.iter().any(|(a, b)| a == id && b == s));
        if !first_ok {
            wrong.push(format!(
                "{question:?} gave {got:?}, wanted one of {answers:?}"
            ));
        }
    }
    assert!(
        wrong.is_empty(),
        "{} of {} questions answered by the wrong section first:\n  {}",
        wrong.len(),
        QUESTIONS.len(),
        wrong.join("\n  ")
    );
}

#[test]
fn the_excerpt_comes_from_the_answering_section() {
    let corpus = Corpus::embedded().unwrap();
    let index = SearchIndex::embedded().unwrap();
    let page = index
        .search("what does exit status 4 mean", 1, None)
        .unwrap();
    let hit = &page.hits[0];
    let doc = corpus.get(&hit.id).unwrap();
    let section = doc.lines(hit.lines.parse().unwrap()).unwrap();
    // Every word of the excerpt is a word of the section's text.
    let plain = |t: &str| {
        t.chars()
            .map(|c| {
                if c.is_alphanumeric() {
                    c.to_ascii_lowercase()
                } else {
                    ' '
                }
            })
            .collect::<String>()
    };
    let words = plain(&section);
    for word in plain(&hit.snippet).split_whitespace() {
        assert!(
            words.split_whitespace().any(|w| w == word),
            "{word:?} of {:?} is not in the section",
            hit.snippet
        );
    }
    let continuing = index
        .search("how do I continue a session", 1, None)
        .unwrap();
    assert!(
        continuing.hits[0]
            .snippet
            .to_lowercase()
            .contains("continue"),
        "{:?}",
        continuing.hits[0].snippet
    );
}

#[test]
fn a_query_that_matches_nothing_finds_nothing() {
    let index = SearchIndex::embedded().unwrap();
    for query in ["xylophone quasar", "how do I knit a scarf", "the of and"] {
        let page = index.search(query, 10, None).unwrap();
        assert_eq!(page.total, 0, "{query:?} matched {:?}", page.hits);
        assert!(page.hits.is_empty());
    }
}
