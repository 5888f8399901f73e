//! Smith's fullscreen terminal renderer (ratatui + crossterm), grown by the terminal UI work.
//!
//! Will own geometry, colour, themes and terminal capability handling; intents stay free of
//! them. Nothing is implemented yet; no crate depends on it.
