//! The command palette: a draft starting with `/` lists the registered commands above the
//! input, filtered fuzzily (nucleo, helix's matcher) by what follows the `/` over each
//! command's name, arguments and summary; Up/Down choose, Tab completes the chosen name,
//! Enter runs the draft's command (or the chosen one when the draft names none exactly).

use nucleo_matcher::pattern::{CaseMatching, Normalization, Pattern};
use nucleo_matcher::{Config, Matcher, Utf32Str};
use smith_app::product::{Command, ProductLayer};

/// How many rows of matches the palette shows at most.
pub(crate) const ROWS: usize = 8;

/// The command name part of a palette draft (`/mod` → `mod`); `None` when the draft is not a
/// palette line (no leading `/`, several lines, or an argument already begun).
pub(crate) fn query(draft: &str) -> Option<&str> {
    let rest = draft.strip_prefix('/')?;
    if rest.contains('\n') || rest.contains(char::is_whitespace) {
        return None;
    }
    Some(rest)
}

/// The commands matching `query`, best first (all for an empty query: the plugins' in load
/// order, then Smith's own). A name starting with the query ranks above fuzzy matches.
pub(crate) fn matches<'a>(layer: &'a ProductLayer, query: &str) -> Vec<&'a Command> {
    if query.is_empty() {
        let (own, plugins): (Vec<&Command>, Vec<&Command>) =
            layer.commands.iter().partition(|c| c.plugin.is_none());
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
}
