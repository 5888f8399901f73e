//! The transcript window: a held view stays on its block while output grows, history chunks
//! arrive above it and the width changes; chunks are asked for near the edges of what is
//! resident and let go far from the view, so what is resident stays bounded.

use ratatui_core::buffer::Buffer;
use ratatui_core::layout::Rect;
use smith_render_terminal::Theme;
use smith_render_terminal::transcript::Block;
use smith_render_terminal::window::{Chunk, Key, RESIDENT_CHUNKS, Scroll, Window};
use smith_ui_intents::{Intent, NoticeLevel};

fn note(text: &str) -> Intent {
    Intent::Notice {
        level: NoticeLevel::Info,
        text: text.to_owned(),
    }
}

/// History chunk `number` of `n` user blocks named `c{number}-{i}`.
fn chunk(number: u32, n: usize, older: bool) -> Chunk {
    Chunk {
        number,
        blocks: (0..n)
            .map(|i| Block::User {
                text: format!("c{number}-{i}"),
            })
            .collect(),
        older,
    }
}

fn rows(w: &Window, width: u16, height: u16) -> Vec<String> {
    let area = Rect::new(0, 0, width, height);
    let mut buf = Buffer::empty(area);
    w.render(area, &mut buf);
    (0..height)
        .map(|y| {
            (0..width)
                .map(|x| buf[(x, y)].symbol().to_owned())
                .collect::<String>()
                .trim_end()
                .to_owned()
        })
        .collect()
}

#[test]
fn a_held_view_does_not_move_when_output_grows() {
    let theme = Theme::default();
    let mut w = Window::new();
    for i in 0..10 {
        w.live.apply(&note(&format!("line {i}")));
    }
    w.layout(&theme, 20);
    w.scroll_by(-5, 4);
    assert!(matches!(w.scroll, Scroll::Held { .. }));
    let before = rows(&w, 20, 4);
    w.live.apply(&note("newer"));
    w.layout(&theme, 20);
    assert_eq!(rows(&w, 20, 4), before, "the held view moved");
    assert!(w.unseen(4), "new output below a held view is flagged");
    // Following shows the newest.
    w.follow();
    assert!(!w.unseen(4));
    assert_eq!(rows(&w, 20, 4)[3], "· newer");
    // Scrolling back down to the bottom follows again.
    w.scroll_by(-3, 4);
    w.scroll_by(1000, 4);
    assert_eq!(w.scroll, Scroll::Follow);
}

#[test]
fn chunks_arriving_above_or_a_new_width_keep_the_block_at_the_top() {
    let theme = Theme::default();
    let mut w = Window::new();
    w.insert(chunk(0, 20, true), &theme);
    w.layout(&theme, 30);
    w.scroll_by(-10, 5);
    let Scroll::Held { key, .. } = w.scroll else {
        panic!("held")
    };
    let before = rows(&w, 30, 5);
    w.insert(chunk(1, 20, true), &theme);
    w.layout(&theme, 30);
    assert_eq!(rows(&w, 30, 5), before, "an older chunk moved the view");
    assert_eq!(w.resident(), vec![1, 0]);
    // Narrower: the same block stays at the top.
    w.layout(&theme, 12);
    let Scroll::Held { key: after, .. } = w.scroll else {
        panic!("held")
    };
    assert_eq!(after, key);
    let top = &rows(&w, 12, 5);
    assert!(
        top.iter()
            .any(|r| r.contains(&before[0].trim_start_matches("› ").to_owned()))
            || top
                .iter()
                .any(|r| before.iter().any(|b| !b.is_empty() && r == b)),
        "{top:?} / {before:?}"
    );
}

#[test]
fn near_the_top_an_older_chunk_is_wanted_and_far_chunks_are_let_go() {
    let theme = Theme::default();
    let mut w = Window::new();
    w.insert(chunk(0, 10, true), &theme);
    w.layout(&theme, 30);
    // Following the bottom of a 10-block chunk (19 rows) in a 5-row view: 14 rows above.
    assert_eq!(w.wants(5).older, None);
    w.scroll_by(-8, 5);
    assert_eq!(w.wants(5).older, Some(1));
    // Keep reading older chunks while scrolling up: never more than RESIDENT_CHUNKS stay.
    for n in 1..40 {
        w.insert(chunk(n, 10, n < 39), &theme);
        w.layout(&theme, 30);
        w.show(Key::history(n, 0));
        w.evict(5);
        assert!(w.resident().len() <= RESIDENT_CHUNKS, "{:?}", w.resident());
        assert!(w.resident().contains(&n));
    }
    assert!(!w.shows_live(), "the newest chunk was let go");
    assert_eq!(w.wants(5).older, None, "chunk 39 is the oldest");
    // Scrolling down toward the newest asks for newer chunks.
    w.scroll_by(10_000, 5);
    let newest_resident = *w.resident().last().unwrap();
    assert_eq!(w.wants(5).newer, Some(newest_resident - 1));
    // Back to the latest: history is let go, to be read again from chunk 0.
    assert!(w.follow());
    assert!(w.resident().is_empty());
}

#[test]
fn blocks_are_found_by_key_and_neighbours_cross_chunks() {
    let theme = Theme::default();
    let mut w = Window::new();
    w.insert(chunk(0, 2, true), &theme);
    w.insert(chunk(1, 2, false), &theme);
    w.live.apply(&note("live"));
    w.layout(&theme, 30);
    assert_eq!(
        w.block(Key::history(1, 1)),
        Some(&Block::User {
            text: "c1-1".into()
        })
    );
    assert_eq!(
        w.neighbour(Key::history(1, 1), false),
        Some(Key::history(0, 0))
    );
    assert_eq!(w.neighbour(Key::history(0, 1), false), Some(Key::live(0)));
    assert_eq!(w.neighbour(Key::history(1, 0), true), None);
    assert!(Key::history(3, 9) < Key::history(2, 0));
    assert!(Key::history(0, 9) < Key::live(0));
}

/// Folding: the first live blocks let go keep the later ones whole — a message still
/// streaming goes on taking its deltas, a view held below them stays on its block, one held
/// on them follows the bottom.
#[test]
fn dropping_the_first_live_blocks_keeps_the_rest_streaming() {
    use smith_ui_intents::DeltaKind;
    let theme = Theme::default();
    let mut w = Window::new();
    for i in 0..6 {
        w.live.apply(&note(&format!("old {i}")));
    }
    w.live.apply(&Intent::MessageStart {
        message_id: 40,
        role: smith::Role::Assistant,
    });
    w.live.apply(&note("after"));
    w.layout(&theme, 30);
    w.show(Key::live(7));
    w.drop_live_front(6);
    assert!(
        matches!(w.scroll, Scroll::Held { key, .. } if key == Key::live(1)),
        "{:?}",
        w.scroll
    );
    w.live.apply(&Intent::MessageDelta {
        message_id: 40,
        kind: DeltaKind::Text,
        text: "streamed on".into(),
    });
    w.layout(&theme, 30);
    assert_eq!(w.live.blocks().len(), 2);
    assert!(
        matches!(&w.live.blocks()[0], Block::Assistant { text, .. } if text == "streamed on"),
        "{:?}",
        w.live.blocks()
    );
    w.scroll_by(-100, 3);
    w.show(Key::live(0));
    w.drop_live_front(1);
    assert_eq!(w.scroll, Scroll::Follow);
    assert_eq!(rows(&w, 30, 1), ["· after"]);
}

#[test]
fn a_search_lands_on_the_line_that_shows_the_match() {
    let theme = Theme::default();
    let mut w = Window::new();
    w.live.apply(&note("before"));
    let long: String = (0..80).map(|i| format!("row {i}\n")).collect();
    w.live.apply(&note(long.trim_end()));
    w.live.apply(&note("after"));
    w.layout(&theme, 30);
    // The match is 60 lines into the message: the view holds two lines above it.
    w.show_match(Key::live(1), "row 60");
    let shown = rows(&w, 30, 6);
    assert_eq!(shown[0].trim(), "row 58", "{shown:?}");
    assert_eq!(shown[2].trim(), "row 60", "{shown:?}");
    // A block that does not draw the text whole: its top.
    w.show_match(Key::live(1), "nowhere");
    assert_eq!(rows(&w, 30, 6)[0].trim(), "", "the separator");
    assert_eq!(rows(&w, 30, 6)[1].trim(), "· row 0");
    // The first block shown has no separator above it.
    w.show_match(Key::live(0), "before");
    assert_eq!(rows(&w, 30, 6)[0].trim(), "· before");
}
