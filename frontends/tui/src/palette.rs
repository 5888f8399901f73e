//! The command palette: a draft starting with `/` lists the registered commands above the
//! input, filtered fuzzily (nucleo, helix's matcher) by what follows the `/` over each
//! command's name, arguments and summary; Up/Down choose, Tab completes the chosen name,
//! Enter runs the draft's command (or the chosen one when the draft names none exactly).
//! Once a command is named, an argument of a kind the pickers complete (a model, a plugin, a
//! thinking level) lists its values the same way — the picker Rust supplies, filled from
//! Smith's own queries.

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};
use smith_app::product::wit::{Argument, ArgumentKind};
use smith_app::product::{ArgumentValues, Command, ProductLayer};

/// What the palette shows for a draft.
pub(crate) enum View<'a> {
    /// The commands matching the name typed so far.
    Commands(Vec<&'a Command>),
    /// The values of the argument being typed.
    Values {
        /// The command.
        command: &'a Command,
        /// The argument.
        argument: &'a Argument,
        /// Its values matching the word typed so far, best first.
        values: Vec<String>,
        /// Where that word starts in the draft (bytes).
        start: usize,
        /// Whether the word is exactly one of the values.
        exact: bool,
    },
}

/// What the palette shows for `draft`, if anything.
pub(crate) fn view<'a>(
    layer: &'a ProductLayer,
    values: &ArgumentValues,
    draft: &str,
) -> Option<View<'a>> {
    if let Some(q) = query(draft) {
        return Some(View::Commands(matches(layer, q)));
    }
    let rest = draft.strip_prefix('/')?;
    if rest.starts_with('/') || rest.contains('\n') {
        return None;
    }
    let (name, args) = rest.split_once(char::is_whitespace)?;
    let command = layer.command(name)?;
    let positional: Vec<&Argument> = command
        .arguments
        .iter()
        .filter(|a| !matches!(a.kind, ArgumentKind::Flag))
        .collect();
    // The words given so far (flags aside); the last one is being typed unless a space ends
    // the draft.
    let words: Vec<&str> = args
        .split_whitespace()
        .filter(|w| !w.starts_with("--"))
        .collect();
    let typing_new = args.is_empty() || args.ends_with(char::is_whitespace);
    let (index, partial) = if typing_new {
        (words.len(), "")
    } else {
        (words.len().saturating_sub(1), *words.last()?)
    };
    let argument = *positional.get(index)?;
    let all = values.of_kind(argument.kind);
    if all.is_empty() {
        return None;
    }
    let exact = all.contains(&partial);
    let found = fuzzy(&all, partial);
    Some(View::Values {
        command,
        argument,
        values: found,
        start: draft.len() - partial.len(),
        exact,
    })
}

/// `items` matching `query`, best first (all, in order, for an empty query).
fn fuzzy(items: &[&str], query: &str) -> Vec<String> {
    if query.is_empty() {
        return items.iter().map(|s| (*s).to_owned()).collect();
    }
    let pattern = Pattern::parse(query, CaseMatching::Ignore, Normalization::Smart);
    let mut matcher = Matcher::new(Config::DEFAULT);
    let mut buf = Vec::new();
    let mut scored: Vec<(u32, usize, &str)> = items
        .iter()
        .enumerate()
        .filter_map(|(i, s)| {
            let score = pattern.score(Utf32Str::new(s, &mut buf), &mut matcher)?;
            let prefix = if s.starts_with(query) { 1 << 20 } else { 0 };
            Some((score + prefix, i, *s))
        })
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().map(|(_, _, s)| s.to_owned()).collect()
}

/// How many rows of matches the palette shows at most.
pub(crate) const ROWS: usize = 8;

/// The command name part of a palette draft (`/mod` → `mod`); `None` when the draft is not a
/// palette line (no leading `/`, several lines, or an argument already begun).
pub(crate) fn query(draft: &str) -> Option<&str> {
    let rest = draft.strip_prefix('/')?;
    // `//…` is a message that starts with a slash, not a command.
    if rest.starts_with('/') || rest.contains('\n') || rest.contains(char::is_whitespace) {
        return None;
    }
    Some(rest)
}

/// The commands matching `query`, best first (all for an empty query: the plugins' in load
/// order, then Smith's own). A name starting with the query ranks above fuzzy matches.
pub(crate) fn matches<'a>(layer: &'a ProductLayer, query: &str) -> Vec<&'a Command> {
    if query.is_empty() {
        let (own, plugins): (Vec<&Command>, Vec<&Command>) =
            layer.commands.iter().partition(|c| c.is_own());
        return plugins.into_iter().chain(own).collect();
    }
    let pattern = Pattern::parse(query, CaseMatching::Ignore, Normalization::Smart);
    let mut matcher = Matcher::new(Config::DEFAULT);
    let mut buf = Vec::new();
    let mut scored: Vec<(u32, usize, &Command)> = layer
        .commands
        .iter()
        .enumerate()
        .filter_map(|(i, c)| {
            let name_score = pattern.score(Utf32Str::new(&c.name, &mut buf), &mut matcher);
            let haystack = format!("{} {}", c.usage(), c.summary);
            let all_score = pattern.score(Utf32Str::new(&haystack, &mut buf), &mut matcher);
            let prefix = if c.name.starts_with(query) {
                1 << 20
            } else {
                0
            };
            let best = name_score.map(|s| s * 2).max(all_score)?;
            Some((best + prefix, i, c))
        })
        .collect();
    scored.sort_by(|a, b| b.0.cmp(&a.0).then(a.1.cmp(&b.1)));
    scored.into_iter().map(|(_, _, c)| c).collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn layer() -> ProductLayer {
        smith_app::product::bundled(&crate::keys::built_in_specs()).expect("bundled layer")
    }

    #[test]
    fn a_query_filters_fuzzily_with_prefixes_first() {
        let layer = layer();
        assert_eq!(matches(&layer, "").len(), layer.commands.len());
        let names = |q| {
            matches(&layer, q)
                .iter()
                .map(|c| c.name.clone())
                .collect::<Vec<_>>()
        };
        assert_eq!(names("comp")[0], "compact");
        assert_eq!(names("mdl")[0], "model", "{:?}", names("mdl"));
        assert!(names("zzqx").is_empty());
        // The summary counts too: "transcript" finds /search.
        assert!(names("transcript").contains(&"search".to_owned()));
        assert_eq!(query("/mod"), Some("mod"));
        assert_eq!(query("/model x"), None);
        assert_eq!(query("hello"), None);
    }

    #[test]
    fn a_named_command_lists_the_values_of_the_argument_being_typed() {
        let layer = layer();
        let values = ArgumentValues {
            models: vec![
                "scripted/demo".into(),
                "scripted/edit".into(),
                "anthropic/opus".into(),
            ],
            plugins: vec!["files".into(), "shell".into()],
            details: std::collections::HashMap::new(),
        };
        let Some(View::Values {
            argument,
            values: found,
            start,
            exact,
            ..
        }) = view(&layer, &values, "/model ")
        else {
            panic!("the model picker")
        };
        assert_eq!(argument.name, "model");
        assert_eq!(found.len(), 3);
        assert_eq!((start, exact), (7, false));
        let Some(View::Values {
            values: found,
            start,
            ..
        }) = view(&layer, &values, "/model opu")
        else {
            panic!("filtered")
        };
        assert_eq!((found, start), (vec!["anthropic/opus".to_owned()], 7));
        // The second argument: a thinking level.
        let Some(View::Values {
            argument,
            values: found,
            exact,
            ..
        }) = view(&layer, &values, "/model scripted/demo hi")
        else {
            panic!("thinking")
        };
        assert_eq!((argument.name.as_str(), exact), ("thinking", false));
        assert_eq!(found[0], "high");
        assert!(matches!(
            view(&layer, &values, "/model scripted/demo high"),
            Some(View::Values { exact: true, .. })
        ));
        // Text arguments and unknown commands have no picker.
        assert!(view(&layer, &values, "/compact some").is_none());
        assert!(view(&layer, &values, "/nope x").is_none());
        assert!(matches!(
            view(&layer, &values, "/plugin-disable sh"),
            Some(View::Values { values, .. }) if values == ["shell"]
        ));
    }
}
