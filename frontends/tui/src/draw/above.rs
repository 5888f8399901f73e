//! What sits above the input: the plan's panel, the transcript search's and the prompt
//! search's lines, the selection's keys, the palette's rows, the hint, completion choices and
//! queued input.

use ratatui_core::text::Span;
use smith::Delivery;
use smith_render_terminal::Theme;
use smith_render_terminal::sanitize::sanitize;

use crate::keys::Action;
use crate::layers::{Finding, Layer};
use crate::ui::Ui;

/// The lines above the input for a frame `width` columns wide, the palette given at most
/// `room` rows. The plan's panel comes first and takes only the rows the rest leaves of
/// `room + 1` (what the frame gives the area): the palette, searches and hints never give way
/// to it.
pub(super) fn lines(ui: &Ui, t: &Theme, width: u16, room: usize) -> Vec<Vec<Span<'static>>> {
    let rest = others(ui, t, width, room);
    if ui.plan.is_empty() || ui.plan_hidden {
        return rest;
    }
    let spare = (room + 1).saturating_sub(rest.len());
    let mut above = Vec::new();
    plan_rows(ui, t, &mut above);
    if above.len() > spare {
        if spare <= 1 {
            // The heading alone, or nothing.
            above.truncate(spare);
        } else {
            // The heading and as many steps as fit, the last row saying what was left.
            let shown = spare - 1;
            let left = above.len() - shown;
            above.truncate(shown);
            above.push(vec![Span::styled(
                format!("   … {left} more rows of the plan"),
                t.dim,
            )]);
        }
    }
    above.extend(rest);
    above
}

/// What sits above the input besides the plan.
fn others(ui: &Ui, t: &Theme, width: u16, room: usize) -> Vec<Vec<Span<'static>>> {
    let mut above: Vec<Vec<Span<'static>>> = Vec::new();
    if let Some(banner) = &ui.interrupted {
        above.push(vec![
            Span::styled(" interrupted: ", t.warning),
            Span::styled(sanitize(banner).into_owned(), t.user),
        ]);
        above.push(vec![Span::styled(
            " Enter continues it from what is recorded (recorded effects are not run again) · Esc settles it as aborted · new input settles it too",
            t.dim,
        )]);
    }
    if let Some(search) = ui.layers.iter().rev().find_map(Layer::search) {
        let state = match search.finding {
            Finding::Idle => "type to search the whole transcript".to_owned(),
            Finding::Searching => "searching older history…".to_owned(),
            Finding::Found => "Enter/↑ older · ↓ newer · Esc closes".to_owned(),
            Finding::Nothing { older: true } => "no older match · ↓ newer · Esc closes".to_owned(),
            Finding::Nothing { older: false } => "no newer match · ↑ older · Esc closes".to_owned(),
        };
        above.push(vec![
            Span::styled(" search: ", t.heading),
            Span::styled(sanitize(&search.query).into_owned(), t.user),
            Span::styled(format!("  ({state})"), t.dim),
        ]);
    }
    if let Some(Layer::Recall(recall)) = ui.layers.last() {
        above.push(recall_line(ui, recall, t));
    }
    if ui.selected().is_some() && !matches!(ui.layers.last(), Some(Layer::Detail { .. })) {
        above.push(vec![Span::styled(
            " selected · ↑↓ move · y copies · c copies a code block · Enter opens in full · Esc leaves",
            t.dim,
        )]);
    }
    match ui.palette_view() {
        Some(crate::palette::View::Commands(found)) => {
            palette_rows(ui, &found, t, (width, room), &mut above);
        }
        Some(crate::palette::View::Values {
            command,
            argument,
            values,
            ..
        }) => value_rows(
            ui,
            (command, argument),
            &values,
            t,
            (width, room),
            &mut above,
        ),
        None => {}
    }
    if let Some(hint) = &ui.hint {
        // A hint says what happened and what to do: wrapped whole, never cut.
        let piece = smith_render_terminal::wrap::Piece::new(sanitize(hint).into_owned(), t.warning);
        let lead = [Span::raw(" ")];
        for l in smith_render_terminal::wrap::wrap(&[piece], width, &lead, &lead) {
            above.push(l.spans);
        }
    }
    if !ui.choices.is_empty() {
        // Wrapped, the one Tab put in place reversed.
        let pieces: Vec<smith_render_terminal::wrap::Piece> = ui
            .choices
            .iter()
            .enumerate()
            .flat_map(|(i, c)| {
                let style = if ui.choice == Some(i) {
                    t.dim.add_modifier(ratatui_core::style::Modifier::REVERSED)
                } else {
                    t.dim
                };
                [
                    smith_render_terminal::wrap::Piece::new(sanitize(c).into_owned(), style),
                    smith_render_terminal::wrap::Piece::new("  ", t.dim),
                ]
            })
            .collect();
        let lead = [Span::raw(" ")];
        for l in smith_render_terminal::wrap::wrap(&pieces, width, &lead, &lead) {
            above.push(l.spans);
        }
    }
    const SHOWN: usize = 3;
    for q in ui.queued.iter().rev().take(SHOWN).rev() {
        let kind = match q.delivery {
            Delivery::Steer => "steer",
            Delivery::FollowUp => "follow-up",
        };
        let first = q.text.lines().next().unwrap_or_default();
        above.push(vec![
            Span::styled(format!(" ↳ {kind}: "), t.dim),
            Span::styled(sanitize(first).into_owned(), t.user),
        ]);
    }
    if ui.queued.len() > SHOWN {
        above.push(vec![Span::styled(
            format!(" … {} more queued", ui.queued.len() - SHOWN),
            t.dim,
        )]);
    }
    if !ui.queued.is_empty() {
        above.push(vec![Span::styled(
            format!(
                " {} takes the newest back",
                ui.keymap.keys_of(Action::Withdraw)
            ),
            t.dim,
        )]);
    }
    above
}

/// The most steps the plan's panel shows; the rest are counted.
const PLAN_ROWS: usize = 8;

/// The plan's panel: a heading with how far it is and the key that hides it, then the steps
/// (`✓` done, `▸` in progress, `○` to do) — from the first step not done, when they are more
/// than [`PLAN_ROWS`]. A plan whose steps are all done is its heading alone.
fn plan_rows(ui: &Ui, t: &Theme, above: &mut Vec<Vec<Span<'static>>>) {
    use smith::PlanStatus;
    let done = ui
        .plan
        .iter()
        .filter(|i| i.status == PlanStatus::Completed)
        .count();
    let total = ui.plan.len();
    let key = ui.keymap.keys_of(Action::TogglePlan);
    if done == total {
        above.push(vec![Span::styled(
            format!(
                " plan: all {total} {} done · {key} hides it",
                if total == 1 { "step" } else { "steps" }
            ),
            t.dim,
        )]);
        return;
    }
    above.push(vec![
        Span::styled(" plan ", t.heading),
        Span::styled(format!("{done}/{total} done · {key} hides it"), t.dim),
    ]);
    let first_open = ui
        .plan
        .iter()
        .position(|i| i.status != PlanStatus::Completed)
        .unwrap_or(0);
    let start = if total > PLAN_ROWS {
        first_open.min(total - PLAN_ROWS)
    } else {
        0
    };
    if start > 0 {
        above.push(vec![Span::styled(
            format!(
                "   ✓ {start} earlier {} done",
                if start == 1 { "step" } else { "steps" }
            ),
            t.dim,
        )]);
    }
    for item in ui.plan.iter().skip(start).take(PLAN_ROWS) {
        let content = sanitize(&item.content.replace('\n', " ")).into_owned();
        above.push(match item.status {
            PlanStatus::Completed => vec![Span::styled(format!("   ✓ {content}"), t.dim)],
            PlanStatus::InProgress => vec![
                Span::styled("   ▸ ", t.heading),
                Span::styled(content, t.user),
            ],
            PlanStatus::Pending => vec![Span::styled(format!("   ○ {content}"), t.assistant)],
        });
    }
    let after = total.saturating_sub(start + PLAN_ROWS);
    if after > 0 {
        above.push(vec![Span::styled(format!("   … {after} more"), t.dim)]);
    }
}

/// The palette's rows above the input: the matching commands (at most
/// [`crate::palette::ROWS`], scrolled to keep the chosen one in view), each with its usage,
/// its keys and its summary, the chosen one highlighted; or why nothing matches.
fn palette_rows(
    ui: &Ui,
    found: &[&smith_app::product::Command],
    t: &Theme,
    (width, room): (u16, usize),
    above: &mut Vec<Vec<Span<'static>>>,
) {
    if found.is_empty() {
        above.push(vec![Span::styled(
            " no command matches · Esc clears · F1 lists them all".to_owned(),
            t.warning,
        )]);
        return;
    }
    let shown = crate::palette::ROWS.min(room);
    let chosen = ui.palette.min(found.len() - 1);
    let first = chosen.saturating_sub(shown - 1);
    let usage_w = found
        .iter()
        .map(|c| c.usage().chars().count())
        .max()
        .unwrap_or(0)
        .min(32);
    for (i, c) in found.iter().enumerate().skip(first).take(shown) {
        let keys = ui.command_keys(c);
        let usage = format!(" {:<usage_w$}", c.usage());
        let rest = if keys.is_empty() {
            format!("  {}", c.summary)
        } else {
            format!("  {} · {keys}", c.summary)
        };
        let text = smith_render_terminal::cut_to_width(
            &sanitize(&format!("{usage}{rest}")),
            usize::from(width),
        );
        let style = if i == chosen { t.selected } else { t.dim };
        let (head, tail) = text.split_at(text.len().min(usage.len()));
        above.push(vec![
            Span::styled(
                head.to_owned(),
                if i == chosen { t.selected } else { t.tool },
            ),
            Span::styled(tail.to_owned(), style),
        ]);
    }
    above.push(vec![Span::styled(
        format!(
            " {} of {} · ↑↓ choose · Tab completes · Enter runs · Esc clears",
            chosen + 1,
            found.len()
        ),
        t.dim,
    )]);
}

/// The value picker's rows above the input: the values of the argument being typed that
/// match it (at most [`crate::palette::ROWS`], scrolled to keep the chosen one in view), the
/// chosen one highlighted, under a line naming the argument.
fn value_rows(
    ui: &Ui,
    (command, argument): (
        &smith_app::product::Command,
        &smith_app::product::wit::Argument,
    ),
    values: &[String],
    t: &Theme,
    (width, room): (u16, usize),
    above: &mut Vec<Vec<Span<'static>>>,
) {
    let what = format!(
        " {} of /{}: {}",
        argument.name.to_uppercase(),
        command.name,
        argument.summary
    );
    above.push(vec![Span::styled(
        smith_render_terminal::cut_to_width(&sanitize(&what), usize::from(width)),
        t.heading,
    )]);
    if values.is_empty() {
        above.push(vec![Span::styled(
            format!(
                " no {} matches · type another or Esc clears",
                smith_app::product::kind_name(argument.kind)
            ),
            t.warning,
        )]);
        return;
    }
    let shown = crate::palette::ROWS.min(room.saturating_sub(1).max(1));
    let chosen = ui.palette.min(values.len() - 1);
    let first = chosen.saturating_sub(shown - 1);
    let value_w = values
        .iter()
        .map(|v| v.chars().count())
        .max()
        .unwrap_or(0)
        .min(40);
    for (i, v) in values.iter().enumerate().skip(first).take(shown) {
        let detail = ui.values.details.get(v).map(String::as_str).unwrap_or("");
        let text = smith_render_terminal::cut_to_width(
            &sanitize(&format!(" {v:<value_w$}  {detail}")),
            usize::from(width),
        );
        // The value (and its leading space) apart from the detail, at a character boundary.
        let at = text
            .char_indices()
            .nth(v.chars().count() + 1)
            .map_or(text.len(), |(i, _)| i);
        let (head, tail) = text.split_at(at);
        above.push(vec![
            Span::styled(
                head.to_owned(),
                if i == chosen { t.selected } else { t.tool },
            ),
            Span::styled(
                tail.to_owned(),
                if i == chosen { t.selected } else { t.dim },
            ),
        ]);
    }
    above.push(vec![Span::styled(
        format!(
            " {} of {} · ↑↓ choose · Tab completes · Enter runs with it · Esc clears",
            chosen + 1,
            values.len()
        ),
        t.dim,
    )]);
}

/// The prompt history search's line above the input: the query, which match the draft
/// shows, and the keys.
fn recall_line(ui: &Ui, recall: &crate::ui::Recall, t: &Theme) -> Vec<Span<'static>> {
    let (found, shown) = recall.position(ui.editor.history(), &ui.editor.expanded());
    let again = ui.keymap.keys_of(Action::HistorySearch);
    let older = if again.is_empty() {
        "↑".to_owned()
    } else {
        format!("{again}/↑")
    };
    let state = match (shown, recall.missed) {
        (_, Some(_)) if found == 0 => "no prompt matches · Esc puts the draft back".to_owned(),
        (Some(n), Some(true)) => {
            format!(
                "{n} of {found} · no older match · ↓ newer · Enter takes it · Esc puts the draft back"
            )
        }
        (Some(n), Some(false)) => {
            format!(
                "{n} of {found} · no newer match · {older} older · Enter takes it · Esc puts the draft back"
            )
        }
        (Some(n), None) => format!(
            "{n} of {found} · {older} older · ↓ newer · Enter takes it · Esc puts the draft back"
        ),
        (None, _) => format!(
            "type to search the input history ({found}: prompts sent, drafts cleared), newest first · {older} steps through them · Esc closes"
        ),
    };
    vec![
        Span::styled(" prompt search: ", t.heading),
        Span::styled(sanitize(&recall.query).into_owned(), t.user),
        Span::styled(format!("  ({state})"), t.dim),
    ]
}
