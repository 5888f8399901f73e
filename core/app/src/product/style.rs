//! Themes as data: the theme keys the terminal UI styles, colours and styles in their written
//! forms (a plugin's [`Style`] record, a configuration value such as `"black on yellow bold"`),
//! parsed into a frontend-neutral [`StyleSpec`].

use std::collections::BTreeMap;

use smith_host::product::types::Style;

/// Every theme key, with what it styles, in the theme reference's order. The terminal UI maps
/// each onto one style of its renderer.
pub const THEME_KEYS: &[(&str, &str)] = &[
    ("user", "the user's messages"),
    ("user-label", "the label before a user message (`›`)"),
    ("assistant", "assistant text"),
    ("thinking", "thinking, collapsed or shown"),
    ("heading", "Markdown headings"),
    ("code-inline", "inline code"),
    ("code-block", "code block lines"),
    ("code-label", "a code block's language label"),
    ("quote", "block quotes and list bullets"),
    ("link", "links"),
    ("tool", "a tool block's heading (its name and arguments)"),
    ("tool-output", "a tool's output preview"),
    ("tool-error", "a failed tool's heading and output"),
    ("diff-added", "added lines of a diff"),
    ("diff-removed", "removed lines of a diff"),
    ("notice", "informational notices"),
    ("warning", "warnings"),
    ("error", "errors"),
    ("status", "the status line"),
    (
        "status-alert",
        "an emphasized part of the status line, banners",
    ),
    ("dim", "dim secondary text (times, counts, hints)"),
    (
        "selected",
        "the selected entry's rows, the palette's chosen row",
    ),
    ("search-match", "a search match"),
];

/// The named colours, as written.
pub const COLOUR_NAMES: &[&str] = &[
    "black",
    "red",
    "green",
    "yellow",
    "blue",
    "magenta",
    "cyan",
    "gray",
    "dark-gray",
    "light-red",
    "light-green",
    "light-yellow",
    "light-blue",
    "light-magenta",
    "light-cyan",
    "white",
];

/// A colour.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Colour {
    /// One of [`COLOUR_NAMES`].
    Named(&'static str),
    /// A 256-colour palette index.
    Indexed(u8),
    /// 24-bit.
    Rgb(u8, u8, u8),
}

/// A style: colours (none: the terminal's own) and modifiers.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct StyleSpec {
    /// Foreground.
    pub fg: Option<Colour>,
    /// Background.
    pub bg: Option<Colour>,
    /// Bold.
    pub bold: bool,
    /// Italic.
    pub italic: bool,
    /// Underlined.
    pub underlined: bool,
    /// Reverse video.
    pub reversed: bool,
    /// Dimmed.
    pub dim: bool,
}

/// A theme: a style per theme key; keys it leaves out are unstyled.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ThemeSpec {
    /// Its name (`tui.theme` chooses it).
    pub name: String,
    /// What it looks like.
    pub summary: String,
    /// Styles by theme key (each one of [`THEME_KEYS`]).
    pub styles: BTreeMap<String, StyleSpec>,
    /// Who gave it: `plugin ID`, or the configuration file and line.
    pub source: String,
}

/// Why a colour or a style does not parse; each message gives the form that is accepted.
#[derive(Clone, Debug, PartialEq, Eq, thiserror::Error)]
pub enum StyleError {
    /// A number past the 256-colour palette.
    #[error("`{0}` is not a colour index: indexes are 0 to 255")]
    Index(String),
    /// Neither a colour name, an index nor `#rrggbb`.
    #[error("`{}` is not a colour: write a name ({}), an index 0–255 or #rrggbb", .0, COLOUR_NAMES.join(", "))]
    NotAColour(String),
    /// No words at all.
    #[error("an empty style: write e.g. \"black on yellow bold\", or \"plain\"")]
    Empty,
    /// `on` ends the style.
    #[error("`on` needs a background colour after it (`on yellow`)")]
    NoBackground,
    /// `on COLOUR` given twice.
    #[error("`on {0}` is a second background colour; a style has one (\"black on yellow\")")]
    SecondBackground(String),
    /// A colour word after the foreground.
    #[error(
        "`{0}` is a second foreground colour; write the background after `on` (\"black on yellow\")"
    )]
    SecondForeground(String),
}

/// Parse a colour: a name of [`COLOUR_NAMES`], an index `0`–`255` or `#rrggbb`.
///
/// # Errors
/// [`StyleError::Index`], [`StyleError::NotAColour`], naming `text`.
pub fn parse_colour(text: &str) -> Result<Colour, StyleError> {
    let t = text.trim();
    if let Some(name) = COLOUR_NAMES.iter().find(|n| n.eq_ignore_ascii_case(t)) {
        return Ok(Colour::Named(name));
    }
    if let Some(hex) = t.strip_prefix('#')
        && hex.len() == 6
        && hex.chars().all(|c| c.is_ascii_hexdigit())
    {
        let byte = |i: usize| u8::from_str_radix(&hex[i..i + 2], 16).unwrap_or(0);
        return Ok(Colour::Rgb(byte(0), byte(2), byte(4)));
    }
    if !t.is_empty() && t.chars().all(|c| c.is_ascii_digit()) {
        return t
            .parse::<u8>()
            .map(Colour::Indexed)
            .map_err(|_| StyleError::Index(t.to_owned()));
    }
    Err(StyleError::NotAColour(t.to_owned()))
}

/// A plugin's style record as a [`StyleSpec`].
///
/// # Errors
/// A colour that does not parse ([`parse_colour`]).
pub fn from_record(style: &Style) -> Result<StyleSpec, StyleError> {
    Ok(StyleSpec {
        fg: style.fg.as_deref().map(parse_colour).transpose()?,
        bg: style.bg.as_deref().map(parse_colour).transpose()?,
        bold: style.bold,
        italic: style.italic,
        underlined: style.underlined,
        reversed: style.reversed,
        dim: style.dim,
    })
}

/// Parse a style as configuration writes it: words separated by spaces — a foreground colour,
/// `on` and a background colour, and modifiers (`bold`, `italic`, `underlined`, `reversed`,
/// `dim`); `plain` alone for no style. `"black on yellow bold"`, `"cyan"`, `"on 236"`.
///
/// # Errors
/// [`StyleError`]: what is wrong, with the grammar.
pub fn parse_style(text: &str) -> Result<StyleSpec, StyleError> {
    let mut style = StyleSpec::default();
    let mut words = text.split_whitespace().peekable();
    if words.peek().is_none() {
        return Err(StyleError::Empty);
    }
    while let Some(word) = words.next() {
        match word.to_ascii_lowercase().as_str() {
            "plain" => {}
            "bold" => style.bold = true,
            "italic" => style.italic = true,
            "underlined" | "underline" => style.underlined = true,
            "reversed" | "reverse" => style.reversed = true,
            "dim" => style.dim = true,
            "on" => {
                let colour = words.next().ok_or(StyleError::NoBackground)?;
                if style.bg.is_some() {
                    return Err(StyleError::SecondBackground(colour.to_owned()));
                }
                style.bg = Some(parse_colour(colour)?);
            }
            _ if style.fg.is_none() => style.fg = Some(parse_colour(word)?),
            _ => return Err(StyleError::SecondForeground(word.to_owned())),
        }
    }
    Ok(style)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn styles_and_colours_parse_in_their_written_forms() {
        let s = parse_style("black on #ff8800 bold underline").unwrap();
        assert_eq!(s.fg, Some(Colour::Named("black")));
        assert_eq!(s.bg, Some(Colour::Rgb(255, 136, 0)));
        assert!(s.bold && s.underlined && !s.italic);
        assert_eq!(
            parse_style("on 236").unwrap().bg,
            Some(Colour::Indexed(236))
        );
        assert_eq!(parse_style("plain").unwrap(), StyleSpec::default());
        for bad in [
            "",
            "red blue",
            "on",
            "chartreuse",
            "300",
            "#12345",
            "red on blue on green",
        ] {
            assert!(parse_style(bad).is_err(), "{bad}");
        }
    }
}
